package waves

import (
	"math"
	"math/cmplx"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat"
)

const g0 = 9.80665

func regular(t *testing.T, stMod int) *Sea {
	t.Helper()
	ph := 0.0
	s, err := New(Config{Gravity: g0, WtrDens: 1025, WtrDpth: 30, WaveMod: Regular, WaveStMod: stMod,
		WaveTMax: 3630, WaveDT: 0.25, WaveHs: 6, WaveTp: 10, WaveDir: 30, RegularPhase: &ph})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRegularWaveAiry compares the regular-wave kinematics, directly summed
// and through a Probe, with the closed-form Airy solution in finite depth
// (DNV-RP-C205 Table 3-1), written here with plain cosh/sinh.
func TestRegularWaveAiry(t *testing.T) {
	s := regular(t, 0)
	const h, a, T, rho = 30.0, 3.0, 10.0, 1025.0
	w := 2 * math.Pi / T
	k := WaveNumber(w, g0, h)
	if r := w * w / (g0 * k * math.Tanh(k*h)); math.Abs(r-1) > 1e-12 {
		t.Fatalf("dispersion residual %g", r-1)
	}
	beta := 30 * math.Pi / 180
	for _, pt := range [][3]float64{{0, 0, 0}, {5, -3, -10}, {-7, 2, -29}, {12, 8, -0.5}} {
		x, y, z := pt[0], pt[1], pt[2]
		p := s.Probe(x, y, z)
		for _, tm := range []float64{0, 1.3, 4.77, 123.4} {
			th := k*(x*math.Cos(beta)+y*math.Sin(beta)) - w*tm
			uh := a * w * math.Cosh(k*(z+h)) / math.Sinh(k*h) * math.Cos(th)
			want := Kin{
				V: [3]float64{uh * math.Cos(beta), uh * math.Sin(beta), a * w * math.Sinh(k*(z+h)) / math.Sinh(k*h) * math.Sin(th)},
				A: [3]float64{a * w * w * math.Cosh(k*(z+h)) / math.Sinh(k*h) * math.Sin(th) * math.Cos(beta),
					a * w * w * math.Cosh(k*(z+h)) / math.Sinh(k*h) * math.Sin(th) * math.Sin(beta),
					-a * w * w * math.Sinh(k*(z+h)) / math.Sinh(k*h) * math.Cos(th)},
				P: rho * g0 * a * math.Cosh(k*(z+h)) / math.Cosh(k*h) * math.Cos(th),
			}
			for name, got := range map[string]Kin{"direct": s.At(x, y, z, tm), "probe": p.At(tm)} {
				for i := 0; i < 3; i++ {
					if math.Abs(got.V[i]-want.V[i]) > 1e-9 || math.Abs(got.A[i]-want.A[i]) > 1e-9 {
						t.Fatalf("%s (%v, t=%g): got %+v want %+v", name, pt, tm, got, want)
					}
				}
				if math.Abs(got.P-want.P) > 1e-6 {
					t.Fatalf("%s (%v, t=%g): p %g want %g", name, pt, tm, got.P, want.P)
				}
			}
			if e, we := p.Elevation(tm), a*math.Cos(th); math.Abs(e-we) > 1e-12 {
				t.Fatalf("elevation %g want %g", e, we)
			}
		}
	}
	// no stretching: nothing above SWL
	if k := s.At(0, 0, 1, 0); k.V != [3]float64{} {
		t.Errorf("WaveStMod 0 above SWL: %+v", k)
	}
}

// TestStretching checks vertical and extrapolation stretching at a point
// above SWL under a crest (t = 0 at the origin, phase 0) and in a trough.
func TestStretching(t *testing.T) {
	v := regular(t, 1)
	x := regular(t, 2)
	at0 := v.At(0, 0, 0, 0)
	if got := v.At(0, 0, 2, 0); got != at0 {
		t.Errorf("vertical stretching at z=2 under a 3-m crest: %+v, want SWL values %+v", got, at0)
	}
	w := 2 * math.Pi / 10
	k := WaveNumber(w, g0, 30)
	got := x.At(0, 0, 2, 0)
	// ∂u_h/∂z at SWL = a ω k (d/dz of cosh(k(z+h))/sinh(kh) is k there)
	want := at0.V[0] + 2*3*w*k*math.Cos(30*math.Pi/180)
	if math.Abs(got.V[0]-want) > 1e-9 {
		t.Errorf("extrapolation stretching u = %g, want %g", got.V[0], want)
	}
	if p := x.Probe(0, 0, 2); math.Abs(p.At(0).V[0]-want) > 1e-9 {
		t.Errorf("probe extrapolation u = %g, want %g", p.At(0).V[0], want)
	}
	// half a period later the origin is in a 3-m trough: z = -2 is dry
	if got := v.At(0, 0, -2, 5); got != (Kin{}) {
		t.Errorf("stretching, point above the trough: %+v, want dry", got)
	}
}

// TestJONSWAPIntegral checks the spectrum's zeroth moment against Hs²/16:
// exact for Pierson–Moskowitz, within the 1 − 0.287 ln γ normalisation's
// accuracy for peaked spectra.
func TestJONSWAPIntegral(t *testing.T) {
	for _, c := range []struct{ hs, tp, gamma, tol float64 }{{4, 10, 1, 1e-6}, {6, 12, 3.3, 0.02}, {2, 6, 5, 0.03}} {
		m0 := quad.Fixed(func(w float64) float64 { return JONSWAP(w, c.hs, c.tp, c.gamma) }, 0.01, 40, 20000, nil, 0)
		want := c.hs * c.hs / 16
		if math.Abs(m0/want-1) > c.tol {
			t.Errorf("Hs %g Tp %g γ %g: m0 = %g, want %g (±%g)", c.hs, c.tp, c.gamma, m0, want, c.tol)
		}
	}
	for _, c := range []struct{ hs, tp, want float64 }{{4, 10, 1}, {4, 6, 5}, {4, 8, math.Exp(5.75 - 1.15*4)}} {
		if got := PeakShapeDefault(c.hs, c.tp); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("PeakShapeDefault(%g, %g) = %g, want %g", c.hs, c.tp, got, c.want)
		}
	}
}

func irregular(t testing.TB, seed int64, ndAmp bool) *Sea {
	s, err := New(Config{Gravity: g0, WtrDens: 1025, WtrDpth: 200, WaveMod: JONSWAPSea, WaveTMax: 3600, WaveDT: 0.25,
		WaveHs: 4, WaveTp: 10, PkShpDflt: true, WvLowCOff: 0.05, WvHiCOff: 4, WaveSeed: [2]int64{seed, 7}, WaveNDAmp: ndAmp})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIrregularStatistics: the elevation's standard deviation over one
// period is Hs/4 (exactly the spectrum's, up to the cut-offs, with
// deterministic amplitudes; within sampling scatter with Rayleigh ones), a
// seed reproduces the sea and another seed gives another one.
func TestIrregularStatistics(t *testing.T) {
	for _, nd := range []bool{false, true} {
		s := irregular(t, 12345, nd)
		p := s.Probe(0, 0, 0)
		n := int(s.Period() / 0.25)
		e := make([]float64, n)
		for i := range e {
			e[i] = p.Elevation(float64(i) * 0.25)
		}
		sd := stat.StdDev(e, nil)
		tol := 0.01
		if nd {
			tol = 0.05
		}
		if math.Abs(sd/1-1) > tol {
			t.Errorf("NDAmp %v: std %g m, want Hs/4 = 1 m (±%g)", nd, sd, tol)
		}
		if m := stat.Mean(e, nil); math.Abs(m) > 0.01 {
			t.Errorf("NDAmp %v: mean %g", nd, m)
		}
		again := irregular(t, 12345, nd).Probe(0, 0, 0)
		other := irregular(t, 54321, nd).Probe(0, 0, 0)
		if again.Elevation(100.25) != p.Elevation(100.25) {
			t.Error("same seed, different sea")
		}
		if other.Elevation(100.25) == p.Elevation(100.25) {
			t.Error("different seeds, same sea")
		}
	}
}

// TestProbeMatchesDirectSum: the FFT-precomputed series equal the direct
// sum over the components at the series' sample times, and interpolate
// between them as SeaState does.
func TestProbeMatchesDirectSum(t *testing.T) {
	s := irregular(t, 99, true)
	for _, pt := range [][3]float64{{0, 0, -5}, {30, -10, -40}} {
		p := s.Probe(pt[0], pt[1], pt[2])
		for _, tm := range []float64{0, 0.25, 17.5, 1234.75, 3599.75} {
			d := s.At(pt[0], pt[1], pt[2], tm)
			q := p.At(tm)
			for i := 0; i < 3; i++ {
				if math.Abs(d.V[i]-q.V[i]) > 1e-5 || math.Abs(d.A[i]-q.A[i]) > 1e-5 {
					t.Fatalf("%v t=%g: direct %+v probe %+v", pt, tm, d, q)
				}
			}
			if math.Abs(d.P-q.P)/1e4 > 1e-5 {
				t.Fatalf("pressure direct %g probe %g", d.P, q.P)
			}
			if de, pe := s.Elevation(pt[0], pt[1], tm), p.Elevation(tm); math.Abs(de-pe) > 1e-5 {
				t.Fatalf("elevation direct %g probe %g", de, pe)
			}
		}
		// between samples: SeaState's Catmull–Rom cubic through the four
		// neighbours (weights −1/16, 9/16, 9/16, −1/16 halfway)
		e := []float64{p.Elevation(9.75), p.Elevation(10), p.Elevation(10.25), p.Elevation(10.5)}
		if m, want := p.Elevation(10.125), (9*(e[1]+e[2])-e[0]-e[3])/16; math.Abs(m-want) > 1e-6 {
			t.Errorf("interpolation %g, want %g", m, want)
		}
		// which follows the waves: RMS error of the velocity and
		// acceleration between samples within 0.1 % (linear
		// interpolation: 0.4–0.6 %)
		var du, u, da, a float64
		for i := 0; i < 200; i++ {
			tm := 10 + 0.6173*float64(i)
			d, q := s.At(pt[0], pt[1], pt[2], tm), p.At(tm)
			du += (d.V[0] - q.V[0]) * (d.V[0] - q.V[0])
			u += d.V[0] * d.V[0]
			da += (d.A[0] - q.A[0]) * (d.A[0] - q.A[0])
			a += d.A[0] * d.A[0]
		}
		if eu, ea := math.Sqrt(du/u), math.Sqrt(da/a); eu > 1e-3 || ea > 1e-3 {
			t.Errorf("%v between samples: RMS error %.3g %% of u, %.3g %% of ax", pt, 100*eu, 100*ea)
		}
	}
}

// TestSpreading: with cos^2S spreading the elevation variance is unchanged
// and the cross-wave velocity is no longer zero.
func TestSpreading(t *testing.T) {
	cfg := irregular(t, 5, false).Config()
	cfg.WaveDirMod, cfg.WaveDirSpr, cfg.WaveNDir, cfg.WaveDirRng = 1, 2, 5, 90
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Probe(0, 0, 0)
	var e, vy []float64
	for tm := 0.0; tm < s.Period(); tm += 0.25 {
		e = append(e, p.Elevation(tm))
		vy = append(vy, p.At(tm).V[1])
	}
	if sd := stat.StdDev(e, nil); math.Abs(sd-1) > 0.01 {
		t.Errorf("spread sea std %g, want 1", sd)
	}
	if sd := stat.StdDev(vy, nil); sd < 0.05 {
		t.Errorf("cross-wave velocity std %g: spreading had no effect", sd)
	}
}

// TestCurrent checks the three current profiles.
func TestCurrent(t *testing.T) {
	c := Current{Mod: 1, SSV0: 1, SSDir: 0, NSRef: 20, NSV0: 0.5, NSDir: 90, DIV: 0.2, DIDir: 180}
	v := c.Velocity(-10, 50)
	wantX := math.Pow(40.0/50, 1.0/7) - 0.2
	wantY := 0.5 * 10 / 20
	if math.Abs(v[0]-wantX) > 1e-12 || math.Abs(v[1]-wantY) > 1e-12 || v[2] != 0 {
		t.Errorf("current at -10 m: %v, want (%g, %g, 0)", v, wantX, wantY)
	}
	if v := c.Velocity(-30, 50); math.Abs(v[1]) > 1e-12 {
		t.Errorf("near-surface current below its reference depth: %v", v)
	}
	s, _ := New(Config{WtrDpth: 50, Current: c})
	if k := s.At(0, 0, -10, 3); math.Abs(k.V[0]-wantX) > 1e-12 {
		t.Errorf("still water with current: %+v", k)
	}
}

// TestUserElevation rebuilds a sea from its own elevation series (WaveMod
// 5) and gets the same elevation back.
func TestUserElevation(t *testing.T) {
	s := irregular(t, 3, true)
	p := s.Probe(0, 0, 0)
	n := int(s.Period() / 0.25)
	series := make([]float64, n)
	for i := range series {
		series[i] = p.Elevation(float64(i) * 0.25)
	}
	cfg := s.Config()
	cfg.WaveMod, cfg.Elev = UserElev, series
	u, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Probe(0, 0, -10)
	r := s.Probe(0, 0, -10)
	for _, tm := range []float64{0, 50, 777.25} {
		if math.Abs(q.Elevation(tm)-r.Elevation(tm)) > 1e-4 || math.Abs(q.At(tm).V[0]-r.At(tm).V[0]) > 1e-4 {
			t.Errorf("t=%g: user-series sea %g / %g, original %g / %g", tm, q.Elevation(tm), q.At(tm).V[0], r.Elevation(tm), r.At(tm).V[0])
		}
	}
}

// TestSynthesize: the elevation synthesised from the components equals the
// probe's (both interpolated with the Catmull–Rom cubic between samples).
func TestSynthesize(t *testing.T) {
	s := irregular(t, 8, true)
	e := s.Synthesize(func(c Component) complex128 { return c.C })
	p := s.Probe(0, 0, 0)
	for _, tm := range []float64{0, 3.3, 1000.1} {
		if math.Abs(e.AtCubic(tm)-p.Elevation(tm)) > 1e-5 {
			t.Errorf("t=%g: synthesised %g, probe %g", tm, e.AtCubic(tm), p.Elevation(tm))
		}
	}
}

// TestDifferenceSeries: the FFT assembly of a quadratic response equals the
// direct double sum Re Σ_m Σ_n C_m C_n* P(m, n) e^{−i(ω_m−ω_n)t} over the
// pairs within the difference-frequency band, for a Hermitian P.
func TestDifferenceSeries(t *testing.T) {
	s := irregular(t, 8, true)
	pair := func(a, b Component) complex128 {
		return complex(1+a.Omega+b.Omega, a.Omega-b.Omega)
	}
	const lo, hi = 0, 0.3
	series := s.DifferenceSeries(pair, lo, hi)
	comps := s.Components()
	for _, tm := range []float64{0, 7.5, 1234.25} {
		var want, scale float64
		for _, a := range comps {
			for _, b := range comps {
				dw := a.Omega - b.Omega
				if math.Abs(dw) > hi+1e-9 {
					continue
				}
				z := a.C * cmplx.Conj(b.C) * pair(a, b) * cmplx.Exp(complex(0, -dw*tm))
				want += real(z)
				scale += cmplx.Abs(z)
			}
		}
		if got := series.At(tm); math.Abs(got-want) > 1e-9*scale {
			t.Errorf("t=%g: series %g, direct sum %g", tm, got, want)
		}
	}
	// Only the mean (the diagonal) with a zero-width band.
	mean := s.DifferenceSeries(pair, 0, 0)
	var want float64
	for _, c := range comps {
		want += real(c.C*cmplx.Conj(c.C)) * (1 + 2*c.Omega)
	}
	if got := mean.At(42); math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("mean only: %g, want %g", got, want)
	}
}
