package windgen

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}

func TestIECFormulasAgainstHandValues(t *testing.T) {
	// Class B NTM at 12 m/s: σ1 = 0.14·(9 + 5.6) = 2.044 m/s (TurbSim's
	// summary of the reference box prints 2.044 m/s and TI 17.033 %).
	near(t, "NTM σ1", NTMSigma(0.14, 12), 2.044, 1e-12)
	near(t, "NTM TI", NTMSigma(0.14, 12)/12, 0.17033, 5e-6)
	// ETM, class I (V_ave = 10), category A, 12 m/s, c = 2:
	// 2·0.16·(0.072·(5+3)·(6−4) + 10) = 0.32·11.152 = 3.56864.
	near(t, "ETM σ1", ETMSigma(0.16, 10, 12, 2), 3.56864, 1e-12)
	near(t, "EWM σ1", EWMSigma(50), 5.5, 1e-12)
	// Λ1 = 0.7·min(z, 60): 42 m at 90 m, 28 m at 40 m.
	near(t, "Λ1(90)", TurbulenceScale(90), 42, 1e-12)
	near(t, "Λ1(40)", TurbulenceScale(40), 28, 1e-12)
	ve50, ve1, v50, v1, err := ExtremeWindSpeeds(ClassII)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Ve50 class II", ve50, 59.5, 1e-12)
	near(t, "Ve1 class II", ve1, 47.6, 1e-12)
	near(t, "V50 class II", v50, 42.5, 1e-12)
	near(t, "V1 class II", v1, 34, 1e-12)
	near(t, "power law", PowerLaw(12, 90, 162.5, 0.2), 12*math.Pow(162.5/90, 0.2), 1e-12)
	near(t, "power law at 162.5 m (TurbSim summary 13.51)", PowerLaw(12, 90, 162.5, 0.2), 13.51, 5e-3)
	// Coherence parameter b/L_c = 0.12/(8.1·42) = 0.353e-3 1/m (TurbSim
	// summary); at f = 0 and r = 100 m: exp(−12·0.1·0.12·100/340.2·10) …
	near(t, "coherence at f=0", IECCoherence(100, 0, 12, 42), math.Exp(-12*0.12*100/340.2), 1e-12)
	near(t, "coherence at 0.1 Hz, 10 m", IECCoherence(10, 0.1, 12, 42),
		math.Exp(-12*math.Sqrt(math.Pow(0.1*10/12, 2)+math.Pow(0.12*10/340.2, 2))), 1e-12)
}

func TestKaimalIntegratesToVariance(t *testing.T) {
	k := NewKaimal(2.044, 12, 42)
	near(t, "L_u", k.L[0], 340.2, 1e-9)
	near(t, "L_v", k.L[1], 113.4, 1e-9)
	near(t, "L_w", k.L[2], 27.72, 1e-9)
	for c := range 3 {
		// ∫0^F S df = σ²·(1 − (1 + 6F·L/V)^(−2/3)), analytic; check the
		// PSD against it by a fine trapezoidal sum to 10 Hz.
		const fmax, n = 10.0, 2000000
		df := fmax / n
		sum := 0.5 * (k.PSD(c, 0) + k.PSD(c, fmax))
		for i := 1; i < n; i++ {
			sum += k.PSD(c, float64(i)*df)
		}
		sum *= df
		want := k.Sigma[c] * k.Sigma[c] * (1 - math.Pow(1+6*fmax*k.L[c]/12, -2.0/3))
		near(t, "∫S", sum, want, 1e-6*want)
	}
}

func TestClassAndCategoryTables(t *testing.T) {
	for c, want := range map[TurbineClass]float64{ClassI: 50, ClassII: 42.5, ClassIII: 37.5} {
		v, err := c.VRef()
		if err != nil || v != want {
			t.Errorf("class %v: V_ref %g, %v; want %g", c, v, err, want)
		}
	}
	for c, want := range map[TurbulenceCategory]float64{CategoryAPlus: 0.18, CategoryA: 0.16, CategoryB: 0.14, CategoryC: 0.12} {
		v, err := c.IRef()
		if err != nil || v != want {
			t.Errorf("category %v: I_ref %g, %v; want %g", c, v, err, want)
		}
	}
	if _, err := TurbineClass(4).VRef(); err == nil {
		t.Error("class IV accepted")
	}
	if _, err := ParseTurbulenceCategory("D"); err == nil {
		t.Error("category D accepted")
	}
}

func TestReferenceGridLayout(t *testing.T) {
	// The reference box: 31 × 31 over 145 m at 90 m, tower points:
	// bottom 17.5 m, dz 4.8333 m, 4 tower points 17.5, 12.67, 7.83, 3.0 m,
	// and 964 simulated points (TurbSim summary), the top tower point and
	// the hub coinciding with grid points.
	g := GridSpec{NY: 31, NZ: 31, Width: 145, Height: 145, HubHeight: 90, TowerPoints: true}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	near(t, "zBottom", g.ZBottom(), 17.5, 1e-12)
	near(t, "dz", g.DZ(), 145.0/30, 1e-12)
	tz := g.TowerHeights()
	if len(tz) != 4 {
		t.Fatalf("tower points %v, want 4", tz)
	}
	near(t, "lowest tower point", tz[3], 17.5-3*145.0/30, 1e-9)
	lay := newPointLayout(g)
	if len(lay.points) != 964 {
		t.Errorf("%d simulation points, want 964", len(lay.points))
	}
	if lay.hub != 15*31+15 {
		t.Errorf("hub is simulation point %d, want grid point %d", lay.hub, 15*31+15)
	}
	rg, err := GridForRotor(126, 90, 31, 145.0/126-1)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rotor grid width", rg.Width, 145, 1e-9)
	if _, err := GridForRotor(126, 50, 31, 0.15); err == nil {
		t.Error("grid reaching below ground accepted")
	}
}
