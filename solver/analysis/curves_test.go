package analysis

import (
	"math"
	"testing"
)

// IEC bins of 0.5 m/s centred on multiples of 0.5: 7.74 → 7.5 bin
// [7.25, 7.75); 7.75 → 8.0 bin; 8.2 → 8.0 bin.
func TestPowerCurveIECBinsHand(t *testing.T) {
	nan := math.NaN()
	pts := []CurvePoint{
		{WindSpeed: 7.74, PowerKW: 1500, ThrustKN: 400, PitchDeg: 0, RotorSpeedRPM: 10},
		{WindSpeed: 7.30, PowerKW: 1300, ThrustKN: 380, PitchDeg: 0, RotorSpeedRPM: 9.6},
		{WindSpeed: 7.75, PowerKW: 1700, ThrustKN: 420, PitchDeg: 0, RotorSpeedRPM: 10.4},
		{WindSpeed: 8.20, PowerKW: 1900, ThrustKN: 440, PitchDeg: 0.5, RotorSpeedRPM: 10.8},
	}
	c, err := PowerCurve(pts, CurveOptions{RotorRadius: 63})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bins) != 2 {
		t.Fatalf("%d bins, want 2: %+v", len(c.Bins), c.Bins)
	}
	b0, b1 := c.Bins[0], c.Bins[1]
	if b0.Center != 7.5 || b0.N != 2 || b0.Low != 7.25 || b0.High != 7.75 || b1.Center != 8 || b1.N != 2 {
		t.Errorf("bins %+v", c.Bins)
	}
	approx(t, "bin 7.5 mean V", b0.WindSpeed, (7.74+7.30)/2, 1e-15)
	approx(t, "bin 7.5 mean P", b0.PowerKW, 1400, 1e-15)
	approx(t, "bin 8 mean pitch", b1.PitchDeg, 0.25, 1e-15)
	// Cp = P/(½ρπR²V³), Ct = T/(½ρπR²V²) with ρ = 1.225, R = 63, by hand:
	v := 7.52
	area := math.Pi * 63 * 63
	approx(t, "Cp", b0.Cp, 1400e3/(0.5*1.225*area*v*v*v), 1e-14)
	approx(t, "Ct", b0.Ct, 390e3/(0.5*1.225*area*v*v), 1e-14)
	if !c.HasThrust || !c.HasPitch || !c.HasRotorSpeed {
		t.Error("presence flags wrong")
	}
	// Thrust missing everywhere is fine; missing somewhere is an error.
	for i := range pts {
		pts[i].ThrustKN = nan
	}
	c, err = PowerCurve(pts, CurveOptions{RotorRadius: 63})
	if err != nil || c.HasThrust || c.Bins[0].Ct != 0 {
		t.Errorf("no thrust: err %v, curve %+v", err, c)
	}
	pts[0].ThrustKN = 1
	if _, err := PowerCurve(pts, CurveOptions{}); err == nil {
		t.Error("thrust on some points only: no error")
	}
}

// Grid binning: a 4, 6, 8 m/s batch with seeds scattering the run-mean
// speed; each run goes to the nearest grid speed.
func TestPowerCurveGridBins(t *testing.T) {
	nan := math.NaN()
	pts := []CurvePoint{
		{WindSpeed: 4.1, PowerKW: 100, ThrustKN: nan, PitchDeg: nan, RotorSpeedRPM: nan},
		{WindSpeed: 3.9, PowerKW: 120, ThrustKN: nan, PitchDeg: nan, RotorSpeedRPM: nan},
		{WindSpeed: 6.2, PowerKW: 500, ThrustKN: nan, PitchDeg: nan, RotorSpeedRPM: nan},
		{WindSpeed: 7.95, PowerKW: 1200, ThrustKN: nan, PitchDeg: nan, RotorSpeedRPM: nan},
	}
	c, err := PowerCurve(pts, CurveOptions{Binning: BinGrid, Grid: []float64{8, 4, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bins) != 3 || c.Bins[0].N != 2 || c.Bins[0].PowerKW != 110 || c.Bins[0].Low != 3 || c.Bins[2].High != 9 {
		t.Errorf("grid bins %+v", c.Bins)
	}
	if _, err := PowerCurve([]CurvePoint{{WindSpeed: 12, PowerKW: 1, ThrustKN: nan, PitchDeg: nan, RotorSpeedRPM: nan}}, CurveOptions{Binning: BinGrid, Grid: []float64{4, 6, 8}}); err == nil {
		t.Error("point outside the grid: no error")
	}
}

// IEC AEP by hand: bins (5 m/s, 100 kW), (5.5 m/s, 300 kW), Rayleigh 8 m/s:
// AEP = 8760·{[F(5) − F(4.5)]·50 + [F(5.5) − F(5)]·200} kWh.
func TestAnnualEnergyHand(t *testing.T) {
	r := Rayleigh{MeanSpeed: 8}
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/8)*(v/8)) }
	bins := []CurveBin{{WindSpeed: 5, PowerKW: 100}, {WindSpeed: 5.5, PowerKW: 300}}
	a, err := AnnualEnergy(bins, r)
	if err != nil {
		t.Fatal(err)
	}
	want := 8760 * ((F(5)-F(4.5))*50 + (F(5.5)-F(5))*200) / 1000
	approx(t, "AEP", a.MWhPerYear, want, 1e-14)
	if a.UpToSpeed != 5.5 {
		t.Errorf("UpToSpeed %v", a.UpToSpeed)
	}
	// 97 % availability: the same bins, 3 % of the year producing nothing.
	net, err := AnnualEnergyAt(bins, r, 0.97)
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "net AEP", net.MWhPerYear, 0.97*want, 1e-14)
	approx(t, "gross AEP", net.GrossMWhPerYear, want, 1e-14)
	for _, bad := range []float64{0, -0.1, 1.01, math.NaN()} {
		if _, err := AnnualEnergyAt(bins, r, bad); err == nil {
			t.Errorf("availability %v: no error", bad)
		}
	}
}

// Analytic check: an idealised 5 MW curve P = P_r·min(1, (V/V_r)³) on a fine
// grid up to 40 m/s reproduces ∫P(V) f(V) dV·8760 for a Weibull.
func TestAnnualEnergyMatchesIntegral(t *testing.T) {
	w := Weibull{Shape: 2.1, Scale: 9.5}
	pr, vr := 5000.0, 11.4
	power := func(v float64) float64 { return pr * math.Min(1, math.Pow(v/vr, 3)) }
	var bins []CurveBin
	for v := 0.5; v <= 40; v += 0.5 {
		bins = append(bins, CurveBin{WindSpeed: v, PowerKW: power(v)})
	}
	a, err := AnnualEnergy(bins, w)
	if err != nil {
		t.Fatal(err)
	}
	// Independent: midpoint-rule integral of P(V)·pdf(V) with a fine step.
	pdf := func(v float64) float64 {
		return w.Shape / w.Scale * math.Pow(v/w.Scale, w.Shape-1) * math.Exp(-math.Pow(v/w.Scale, w.Shape))
	}
	integral := 0.0
	dv := 1e-3
	for v := dv / 2; v < 40; v += dv {
		integral += power(v) * pdf(v) * dv
	}
	want := 8760 * integral / 1000
	// The trapezoidal bin sum on 0.5 m/s differs from the integral by the
	// O(ΔV²) quadrature error around the kink at rated: 0.04 % here, checked to 0.1 %.
	approx(t, "AEP vs integral", a.MWhPerYear, want, 1e-3)
	t.Logf("AEP %.3f MWh/yr, integral %.3f MWh/yr, rel diff %.2e", a.MWhPerYear, want, (a.MWhPerYear-want)/want)
	// Magnitude sanity: a 5 MW turbine at A = 9.5 m/s makes ~ 20 GWh/yr.
	if a.MWhPerYear < 15000 || a.MWhPerYear > 30000 {
		t.Errorf("AEP %g MWh/yr outside the plausible range", a.MWhPerYear)
	}
}

func TestRunCurvePoint(t *testing.T) {
	rec := &Record{
		Time:     []float64{0, 1, 2, 3},
		Names:    []string{"Wind1VelX", "GenPwr", "RtFldFxh", "BldPitch1", "RotSpeed", "RtVAvgxh", "RotThrust"},
		Units:    []string{"(m/s)", "(kW)", "(N)", "(deg)", "(rpm)", "(m/s)", "(kN)"},
		Channels: [][]float64{{0, 8, 8.2, 7.8}, {0, 1000, 1100, 900}, {0, 300e3, 310e3, 290e3}, {5, 0, 0, 0}, {0, 9, 9.2, 8.8}, {0, 7.9, 8.1, 7.7}, {0, 400, 410, 390}},
	}
	if got := AeroThrustChannel(rec); got != "RtFldFxh" {
		t.Errorf("aerodynamic thrust channel %q, want RtFldFxh", got)
	}
	p, err := RunCurvePoint(rec, After(1), RecordedCurveChannels(rec, ""))
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "V", p.WindSpeed, 8, 1e-15)
	approx(t, "P", p.PowerKW, 1000, 1e-15)
	// RtFldFxh is in N: read as kN, not RotThrust's 400 kN.
	approx(t, "T", p.ThrustKN, 300, 1e-12)
	approx(t, "rotor wind", p.RotorWindSpeed, 7.9, 1e-12)
	if p.PitchDeg != 0 {
		t.Errorf("pitch %v", p.PitchDeg)
	}
	ch := OpenFASTCurveChannels()
	ch.Thrust, ch.RotorWind = "", ""
	pts, err := SampleCurvePoints(rec, After(1), ch)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 || !math.IsNaN(pts[0].ThrustKN) || pts[2].PowerKW != 900 {
		t.Errorf("sample points %+v", pts)
	}
}

// Each bin carries its spread (sample standard deviation of the points'
// power and thrust) with its count and mean, and Cp/Ct use the rotor-average
// wind only when every point records it.
func TestPowerCurveBinSpread(t *testing.T) {
	pts := []CurvePoint{
		{WindSpeed: 7.9, PowerKW: 1000, ThrustKN: 300, PitchDeg: math.NaN(), RotorSpeedRPM: math.NaN(), RotorWindSpeed: 7.8},
		{WindSpeed: 8.0, PowerKW: 1100, ThrustKN: 320, PitchDeg: math.NaN(), RotorSpeedRPM: math.NaN(), RotorWindSpeed: 7.9},
		{WindSpeed: 8.1, PowerKW: 1200, ThrustKN: 340, PitchDeg: math.NaN(), RotorSpeedRPM: math.NaN(), RotorWindSpeed: 8.0},
		{WindSpeed: 12, PowerKW: 5000, ThrustKN: 500, PitchDeg: math.NaN(), RotorSpeedRPM: math.NaN(), RotorWindSpeed: 11.9},
	}
	c, err := PowerCurve(pts, CurveOptions{RotorRadius: 60})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bins) != 2 || c.Bins[0].N != 3 || c.Bins[1].N != 1 {
		t.Fatalf("bins %+v", c.Bins)
	}
	b := c.Bins[0]
	approx(t, "power std", b.PowerStdKW, 100, 1e-12)
	approx(t, "thrust std", b.ThrustStdKN, 20, 1e-12)
	approx(t, "coefficient wind", b.CoefficientWindSpeed, 7.9, 1e-12)
	q := 0.5 * 1.225 * math.Pi * 3600 * 7.9 * 7.9
	approx(t, "Ct", b.Ct, 320e3/q, 1e-12)
	if c.CoefficientWind != "rotor_average" || c.Bins[1].PowerStdKW != 0 {
		t.Errorf("coefficient wind %q, single-point spread %g", c.CoefficientWind, c.Bins[1].PowerStdKW)
	}
	pts[3].RotorWindSpeed = 0
	if c, _ = PowerCurve(pts, CurveOptions{RotorRadius: 60}); c.CoefficientWind != "binned" || c.Bins[0].CoefficientWindSpeed != c.Bins[0].WindSpeed {
		t.Errorf("one point without rotor wind: coefficient wind %q at %g m/s", c.CoefficientWind, c.Bins[0].CoefficientWindSpeed)
	}
}
