package dbemt

import (
	"math"
	"testing"
)

func oneNodeInput(q [2]float64, span float64) *Input {
	return &Input{Nodes: [][]NodeInput{{{VindQS: q, SpanRatio: span}}}, TipRadius: 63}
}

// stepResponse is the analytic unit-step response of Øye's two filters
// starting from rest: W_int = 1 - (1-k) e^{-t/tau1}, and W the response of
// the second lag to it.
func stepResponse(t, tau1, tau2 float64) float64 {
	return 1 - math.Exp(-t/tau2) - (1-KOye)*tau1/(tau1-tau2)*(math.Exp(-t/tau1)-math.Exp(-t/tau2))
}

func TestStepResponseMatchesAnalytic(t *testing.T) {
	const tau1, span = 4.0, 0.7
	tau2 := Tau2(tau1, span)
	for _, dt := range []float64{0.01, 0.001} {
		m, err := New(Params{Mod: ModTauConst, Tau1Const: tau1, DT: dt, NumBlades: 1, NumNodes: 1})
		if err != nil {
			t.Fatal(err)
		}
		zero, one := oneNodeInput([2]float64{0, 0}, span), oneNodeInput([2]float64{-3, 2}, span)
		// Initialise at rest, then the input jumps to its new value: the
		// discrete model sees it as a ramp over the first step, so compare
		// against the ideal step delayed by dt/2 (the ramp's centroid).
		if err := m.UpdateStates(0, zero, one); err != nil {
			t.Fatal(err)
		}
		out := m.NewOutput()
		maxErr := 0.0
		for k := 1; float64(k)*dt <= 30; k++ {
			tk := float64(k) * dt
			if err := m.CalcOutput(one, out); err != nil {
				t.Fatal(err)
			}
			want := stepResponse(tk-dt/2, tau1, tau2)
			for c, amp := range [2]float64{-3, 2} {
				maxErr = math.Max(maxErr, math.Abs(out[0][0][c]/amp-want))
			}
			if err := m.UpdateStates(tk, one, one); err != nil {
				t.Fatal(err)
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

// rk4Reference integrates the continuous model in the reduced-state form
// (Branlard 2022): W_red' = ((1-k) q - W_red)/tau1, W' = (W_red + k q - W)/tau2,
// with q interpolated linearly between samples, using many RK4 sub-steps.
func rk4Reference(q []float64, dt, tau1, tau2 float64) []float64 {
	wRed := (1 - KOye) * q[0]
	w := q[0]
	out := []float64{w}
	const sub = 200
	h := dt / sub
	for n := 0; n+1 < len(q); n++ {
		qa := func(s float64) float64 { return q[n] + (q[n+1]-q[n])*s/dt }
		f := func(s, wr, w float64) (float64, float64) {
			qs := qa(s)
			return ((1-KOye)*qs - wr) / tau1, (wr + KOye*qs - w) / tau2
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

func TestExactForPiecewiseLinearInput(t *testing.T) {
	const dt, tau1, span = 0.05, 2.5, 0.3
	tau2 := Tau2(tau1, span)
	// Deterministic irregular input samples.
	q := make([]float64, 400)
	for n := range q {
		x := float64(n) * dt
		q[n] = -4 + 1.5*math.Sin(0.9*x) + 0.7*math.Sin(3.1*x+1) + 0.3*math.Cos(7.3*x)
	}
	ref := rk4Reference(q, dt, tau1, tau2)
	m, err := New(Params{Mod: ModTauConst, Tau1Const: tau1, DT: dt, NumBlades: 1, NumNodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := m.NewOutput()
	for n := 0; n+1 < len(q); n++ {
		if err := m.UpdateStates(float64(n)*dt, oneNodeInput([2]float64{q[n], 0}, span), oneNodeInput([2]float64{q[n+1], 0}, span)); err != nil {
			t.Fatal(err)
		}
		if err := m.CalcOutput(nil, out); err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(out[0][0][0] - ref[n+1]); d > 1e-9 {
			t.Fatalf("step %d: W=%.12g, RK4 reference %.12g (diff %.3g)", n+1, out[0][0][0], ref[n+1], d)
		}
	}
}

func TestSteadyInputStaysQuasiSteady(t *testing.T) {
	m, err := New(Params{Mod: ModTauVaries, DT: 0.00625, NumBlades: 3, NumNodes: 5})
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{AxIndAvg: 0.28, UnAvg: 8, TipRadius: 63}
	for b := 0; b < 3; b++ {
		var nodes []NodeInput
		for i := 0; i < 5; i++ {
			nodes = append(nodes, NodeInput{VindQS: [2]float64{-2.1 - 0.1*float64(i), 0.3 * float64(b+1)}, SpanRatio: 0.2 * float64(i+1)})
		}
		in.Nodes = append(in.Nodes, nodes)
	}
	out := m.NewOutput()
	if err := m.CalcOutput(in, out); err != nil {
		t.Fatal(err)
	}
	if out[1][2] != in.Nodes[1][2].VindQS {
		t.Fatalf("before the first update the output must be the quasi-steady input: %v vs %v", out[1][2], in.Nodes[1][2].VindQS)
	}
	for k := 0; k < 2000; k++ {
		if err := m.UpdateStates(float64(k)*0.00625, in, in); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.CalcOutput(in, out); err != nil {
		t.Fatal(err)
	}
	for b := range out {
		for i := range out[b] {
			for c := 0; c < 2; c++ {
				if d := math.Abs(out[b][i][c] - in.Nodes[b][i].VindQS[c]); d > 1e-12 {
					t.Errorf("blade %d node %d comp %d drifted by %g", b, i, c, d)
				}
			}
		}
	}
}

func TestStepSettlesToNewQuasiSteadyValue(t *testing.T) {
	m, _ := New(Params{Mod: ModTauConst, Tau1Const: 4, DT: 0.05, NumBlades: 1, NumNodes: 1})
	a, b := oneNodeInput([2]float64{-2, 0.1}, 0.9), oneNodeInput([2]float64{-3.5, 0.4}, 0.9)
	_ = m.UpdateStates(0, a, b)
	for k := 1; k < 2000; k++ { // 100 s = 25 tau1
		_ = m.UpdateStates(float64(k)*0.05, b, b)
	}
	out := m.NewOutput()
	_ = m.CalcOutput(b, out)
	if math.Abs(out[0][0][0]+3.5) > 1e-9 || math.Abs(out[0][0][1]-0.4) > 1e-9 {
		t.Fatalf("settled value %v, want {-3.5 0.4}", out[0][0])
	}
}

func TestTau1(t *testing.T) {
	// Hand calculation: 1.1/(1-1.3*0.3) * 63/10 = 1.1/0.61*6.3 = 11.36066
	got, lim := Tau1(ModTauVaries, 0, 0.3, 10, 63)
	if math.Abs(got-11.360655737704918) > 1e-9 || lim {
		t.Errorf("tau1 = %.9g (limited %v), want 11.3606557", got, lim)
	}
	// a above 0.5 is limited: 1.1/(1-0.65)*63/10 = 19.8
	got, lim = Tau1(ModTauVaries, 0, 0.7, 10, 63)
	if math.Abs(got-19.8) > 1e-9 || !lim {
		t.Errorf("limited tau1 = %g (limited %v), want 19.8", got, lim)
	}
	// zero wind: U floored at 0.1, then capped at 100 s
	got, lim = Tau1(ModTauVaries, 0, 0.2, 0, 63)
	if got != MaxTau1 || !lim {
		t.Errorf("tau1 at zero wind = %g, want %g", got, MaxTau1)
	}
	if got, _ := Tau1(ModTauConst, 4, 0.9, 0, 63); got != 4 {
		t.Errorf("constant tau1 = %g", got)
	}
	// tau2 at the root and tip: 0.39 tau1 and 0.13 tau1
	if g := Tau2(4, 0); math.Abs(g-1.56) > 1e-12 {
		t.Errorf("tau2(root) = %g", g)
	}
	if g := Tau2(4, 1.3); math.Abs(g-0.52) > 1e-12 {
		t.Errorf("tau2(beyond tip) = %g", g)
	}
}

func TestBadInputs(t *testing.T) {
	if _, err := New(Params{Mod: 3, DT: 0.1, NumBlades: 1, NumNodes: 1}); err == nil {
		t.Error("DBEMT_Mod 3 accepted")
	}
	if _, err := New(Params{Mod: 1, DT: 0.1, NumBlades: 1, NumNodes: 1}); err == nil {
		t.Error("tau1_const 0 accepted")
	}
	if _, err := New(Params{Mod: 2, DT: 0, NumBlades: 1, NumNodes: 1}); err == nil {
		t.Error("dt 0 accepted")
	}
	m, _ := New(Params{Mod: 2, DT: 0.1, NumBlades: 1, NumNodes: 1})
	if err := m.UpdateStates(0, oneNodeInput([2]float64{math.NaN(), 0}, 0.5), oneNodeInput([2]float64{0, 0}, 0.5)); err == nil {
		t.Error("NaN input accepted")
	}
	if err := m.UpdateStates(0, &Input{}, &Input{}); err == nil {
		t.Error("wrong dimensions accepted")
	}
	in := oneNodeInput([2]float64{-1, 0}, 0.5)
	in.TipRadius = 0
	if err := m.UpdateStates(0, in, in); err == nil {
		t.Error("zero tip radius accepted for DBEMT_Mod 2")
	}
}

// DiskWeights by hand: nodes at 65, 70 and 75 % of the radius have
// u = -0.5, 0, 0.5, kernel values (3/4)^3, 1, (3/4)^3 (times 35/32, which
// the normalisation removes); a node at 40 % (u clipped to -1) gets zero.
// Two identical blades share the total weight 1.
func TestDiskWeightsByHand(t *testing.T) {
	r := []float64{0.4 * 60, 0.65 * 60, 0.7 * 60, 0.75 * 60, 60}
	w := DiskWeights([][]float64{r, r})
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
