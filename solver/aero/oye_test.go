package aero

import (
	"math"
	"testing"
)

// The Øye dynamic-inflow filter of the rotor (oyeStep, DBEMTTau1,
// DBEMTTau2, dbemtDiskWeights) against closed forms and a fine RK4
// integration of the continuous equations (OpenFAST AeroDyn theory,
// "Dynamic BEM Theory"; Branlard 2017, "Wind Turbine Aerodynamics and
// Vorticity-Based Methods").

// oyeStepResponse is the analytic unit-step response of Øye's two filters
// starting from rest: W_int = 1 - (1-k) e^{-t/tau1}, and W the response of
// the second lag to it.
func oyeStepResponse(t, tau1, tau2 float64) float64 {
	return 1 - math.Exp(-t/tau2) - (1-oyeK)*tau1/(tau1-tau2)*(math.Exp(-t/tau1)-math.Exp(-t/tau2))
}

func TestOyeStepResponseMatchesAnalytic(t *testing.T) {
	const tau1, span = 4.0, 0.7
	tau2 := DBEMTTau2(tau1, span)
	for _, dt := range []float64{0.01, 0.001} {
		amp := [2]float64{-3, 2}
		// At rest, then the input jumps to its new value: the discrete
		// filter sees it as a ramp over the first step, so compare against
		// the ideal step delayed by dt/2 (the ramp's centroid).
		var v1, v [2]float64
		for c := range amp {
			v1[c], v[c] = oyeStep(0, 0, 0, amp[c], dt, tau1, tau2)
		}
		maxErr := 0.0
		for k := 1; float64(k)*dt <= 30; k++ {
			tk := float64(k) * dt
			want := oyeStepResponse(tk-dt/2, tau1, tau2)
			for c := range amp {
				maxErr = math.Max(maxErr, math.Abs(v[c]/amp[c]-want))
				v1[c], v[c] = oyeStep(v1[c], v[c], amp[c], amp[c], dt, tau1, tau2)
			}
		}
		// The k·tau1·q' term makes the jump of W_int finite-rate over one
		// step; the remaining error is O((dt/tau2)^2) after the delay shift.
		tol := 5 * (dt / tau2) * (dt / tau2)
		if maxErr > tol {
			t.Errorf("dt=%g: max |W - W_analytic| = %.3g > %.3g", dt, maxErr, tol)
		}
	}
}

// oyeRK4Reference integrates the continuous model in the reduced-state
// form (Branlard 2022): W_red' = ((1-k) q - W_red)/tau1,
// W' = (W_red + k q - W)/tau2, with q interpolated linearly between
// samples, using many RK4 sub-steps.
func oyeRK4Reference(q []float64, dt, tau1, tau2 float64) []float64 {
	wRed := (1 - oyeK) * q[0]
	w := q[0]
	out := []float64{w}
	const sub = 200
	h := dt / sub
	for n := 0; n+1 < len(q); n++ {
		qa := func(s float64) float64 { return q[n] + (q[n+1]-q[n])*s/dt }
		f := func(s, wr, w float64) (float64, float64) {
			qs := qa(s)
			return ((1-oyeK)*qs - wr) / tau1, (wr + oyeK*qs - w) / tau2
		}
		for j := 0; j < sub; j++ {
			s := float64(j) * h
			k1r, k1w := f(s, wRed, w)
			k2r, k2w := f(s+h/2, wRed+h/2*k1r, w+h/2*k1w)
			k3r, k3w := f(s+h/2, wRed+h/2*k2r, w+h/2*k2w)
			k4r, k4w := f(s+h, wRed+h*k3r, w+h*k3w)
			wRed += h / 6 * (k1r + 2*k2r + 2*k3r + k4r)
			w += h / 6 * (k1w + 2*k2w + 2*k3w + k4w)
		}
		out = append(out, w)
	}
	return out
}

func TestOyeStepExactForPiecewiseLinearInput(t *testing.T) {
	const dt, tau1, span = 0.05, 2.5, 0.3
	tau2 := DBEMTTau2(tau1, span)
	// Deterministic irregular input samples.
	q := make([]float64, 400)
	for n := range q {
		x := float64(n) * dt
		q[n] = -4 + 1.5*math.Sin(0.9*x) + 0.7*math.Sin(3.1*x+1) + 0.3*math.Cos(7.3*x)
	}
	ref := oyeRK4Reference(q, dt, tau1, tau2)
	v1, v := q[0], q[0] // initialised at the quasi-steady value
	for n := 0; n+1 < len(q); n++ {
		v1, v = oyeStep(v1, v, q[n], q[n+1], dt, tau1, tau2)
		if d := math.Abs(v - ref[n+1]); d > 1e-9 {
			t.Fatalf("step %d: W=%.12g, RK4 reference %.12g (diff %.3g)", n+1, v, ref[n+1], d)
		}
	}
}

func TestOyeSteadyInputStaysQuasiSteady(t *testing.T) {
	const dt = 0.00625
	tau1 := DBEMTTau1(63, 0.28, 8)
	for b := 0; b < 3; b++ {
		for i := 0; i < 5; i++ {
			q := [2]float64{-2.1 - 0.1*float64(i), 0.3 * float64(b+1)}
			tau2 := DBEMTTau2(tau1, 0.2*float64(i+1))
			for c := 0; c < 2; c++ {
				v1, v := q[c], q[c]
				for k := 0; k < 2000; k++ {
					v1, v = oyeStep(v1, v, q[c], q[c], dt, tau1, tau2)
				}
				if d := math.Abs(v - q[c]); d > 1e-12 {
					t.Errorf("blade %d node %d comp %d drifted by %g", b, i, c, d)
				}
			}
		}
	}
}

func TestOyeStepSettlesToNewQuasiSteadyValue(t *testing.T) {
	const dt, tau1 = 0.05, 4.0
	tau2 := DBEMTTau2(tau1, 0.9)
	a, b := [2]float64{-2, 0.1}, [2]float64{-3.5, 0.4}
	var out [2]float64
	for c := 0; c < 2; c++ {
		v1, v := oyeStep(a[c], a[c], a[c], b[c], dt, tau1, tau2)
		for k := 1; k < 2000; k++ { // 100 s = 25 tau1
			v1, v = oyeStep(v1, v, b[c], b[c], dt, tau1, tau2)
		}
		out[c] = v
	}
	if math.Abs(out[0]+3.5) > 1e-9 || math.Abs(out[1]-0.4) > 1e-9 {
		t.Fatalf("settled value %v, want {-3.5 0.4}", out)
	}
}

func TestDBEMTTimeConstants(t *testing.T) {
	// Hand calculation: 1.1/(1-1.3*0.3) * 63/10 = 1.1/0.61*6.3 = 11.36066
	if got := DBEMTTau1(63, 0.3, 10); math.Abs(got-11.360655737704918) > 1e-9 {
		t.Errorf("tau1 = %.9g, want 11.3606557", got)
	}
	// a above 0.5 is limited: 1.1/(1-0.65)*63/10 = 19.8
	if got := DBEMTTau1(63, 0.7, 10); math.Abs(got-19.8) > 1e-9 {
		t.Errorf("limited tau1 = %g, want 19.8", got)
	}
	// zero wind: U floored at 0.1, then capped at 100 s
	if got := DBEMTTau1(63, 0.2, 0); got != 100 {
		t.Errorf("tau1 at zero wind = %g, want 100", got)
	}
	// tau2 at the root and tip: 0.39 tau1 and 0.13 tau1
	if g := DBEMTTau2(4, 0); math.Abs(g-1.56) > 1e-12 {
		t.Errorf("tau2(root) = %g", g)
	}
	if g := DBEMTTau2(4, 1.3); math.Abs(g-0.52) > 1e-12 {
		t.Errorf("tau2(beyond tip) = %g", g)
	}
}

// dbemtDiskWeights by hand: nodes at 65, 70 and 75 % of the radius have
// u = -0.5, 0, 0.5, kernel values (3/4)^3, 1, (3/4)^3 (times 35/32, which
// the normalisation removes); a node at 40 % (u clipped to -1) gets zero.
// Two identical blades share the total weight 1.
func TestDBEMTDiskWeightsByHand(t *testing.T) {
	r := []float64{0.4 * 60, 0.65 * 60, 0.7 * 60, 0.75 * 60, 60}
	w := dbemtDiskWeights([][]float64{r, r})
	k := 0.75 * 0.75 * 0.75
	sum := 1 + 2*k
	want := []float64{0, k / sum / 2, 1 / sum / 2, k / sum / 2, 0}
	total := 0.0
	for b := range w {
		for j := range w[b] {
			if math.Abs(w[b][j]-want[j]) > 1e-15 {
				t.Errorf("blade %d node %d: weight %.17g, want %.17g", b, j, w[b][j], want[j])
			}
			total += w[b][j]
		}
	}
	if math.Abs(total-1) > 1e-15 {
		t.Errorf("weights sum to %.17g, want 1", total)
	}
}

// BenchmarkOyeStepIEA15 is one DBEMT filter step for a whole rotor of
// IEA-15 size (3 blades × 50 AeroDyn nodes, both components, DBEMT_Mod 2
// time constants).
func BenchmarkOyeStepIEA15(b *testing.B) {
	const nb, nn = 3, 50
	tau1 := DBEMTTau1(120, 0.3, 10)
	v1 := make([][nn][2]float64, nb)
	v := make([][nn][2]float64, nb)
	u0, u1 := [2]float64{-3, 0.2}, [2]float64{-3.03, 0.202}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := 0; k < nb; k++ {
			for j := 0; j < nn; j++ {
				tau2 := DBEMTTau2(tau1, float64(j+1)/nn)
				for c := 0; c < 2; c++ {
					v1[k][j][c], v[k][j][c] = oyeStep(v1[k][j][c], v[k][j][c], u0[c], u1[c], 0.01, tau1, tau2)
				}
			}
		}
	}
}
