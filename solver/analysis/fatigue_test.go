package analysis

import (
	"math"
	"testing"
)

// DELs of the ASTM E1049 example cycles (ranges 3:0.5, 4:1.5, 6:0.5, 8:1,
// 9:0.5) over T = 8 s at f_eq = 1 Hz (N_eq = 8), by hand:
// m = 1: Σ n S = 1.5 + 6 + 3 + 8 + 4.5 = 23 → DEL = 23/8 = 2.875;
// m = 3: Σ n S³ = 13.5 + 96 + 108 + 512 + 364.5 = 1094 → DEL = 136.75^(1/3).
func TestShortTermDELHand(t *testing.T) {
	cs, err := Rainflow([]float64{-2, 1, -3, 5, -1, 3, -4, 4, -2})
	if err != nil {
		t.Fatal(err)
	}
	dels, err := ShortTermDEL(cs, 8, DELOptions{Exponents: []float64{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "DEL m=1", dels[0].Value, 2.875, 1e-15)
	approx(t, "damage sum m=3", dels[1].DamageSum, 1094, 1e-15)
	approx(t, "DEL m=3", dels[1].Value, math.Cbrt(136.75), 1e-15)
	if dels[0].EquivalentCycles != 8 {
		t.Errorf("N_eq = %v, want 8", dels[0].EquivalentCycles)
	}
	// N_eq given directly: 1e7 cycles.
	dels, err = ShortTermDEL(cs, 8, DELOptions{Exponents: []float64{3}, EquivalentCycles: 1e7})
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "DEL m=3 at 1e7 cycles", dels[0].Value, math.Cbrt(1094/1e7), 1e-15)
	// f_eq = 2 Hz halves the equivalent load's m-th power.
	dels, err = ShortTermDEL(cs, 8, DELOptions{Exponents: []float64{3}, EquivalentFrequency: 2})
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "DEL m=3 at 2 Hz", dels[0].Value, math.Cbrt(1094.0/16), 1e-15)
}

// Goodman: a cycle of range 10 about mean 20 with S_u = 100 is equivalent
// to a zero-mean range 10/(1 − 0.2) = 12.5.
func TestGoodmanCorrection(t *testing.T) {
	cs := []Cycle{{Range: 10, Mean: 20, Count: 1}, {Range: 4, Mean: -50, Count: 0.5}}
	d, err := DamageSum(cs, 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	// Second cycle: 4/(1 + 0.5) = 8/3, half counted.
	want := math.Pow(12.5, 3) + 0.5*math.Pow(8.0/3, 3)
	approx(t, "Goodman damage sum", d, want, 1e-14)
	if _, err := DamageSum([]Cycle{{Range: 1, Mean: 100, Count: 1}}, 3, 100); err == nil {
		t.Error("mean at ultimate: no error")
	}
}

// alternating returns K periods of ±a sampled at the peaks (dt = 1/(2f)):
// exactly K cycles of range 2a in T = K/f, so DEL = 2a·f^(1/m) at f_eq = 1.
func alternating(a, f float64, k int) *Record {
	n := 2*k + 1
	tm := uniformTime(n, 1/(2*f))
	y := make([]float64, n)
	for i := range y {
		y[i] = a
		if i%2 == 1 {
			y[i] = -a
		}
	}
	return &Record{Time: tm, Names: []string{"M"}, Channels: [][]float64{y}}
}

func TestChannelDELAnalytic(t *testing.T) {
	rec := alternating(3, 0.5, 40)
	dels, err := ChannelDEL(rec, "M", WholeRecord(), DELOptions{Exponents: []float64{3, 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dels {
		approx(t, "DEL of alternating load", d.Value, 6*math.Pow(0.5, 1/d.Exponent), 1e-14)
	}
}

func TestDistributions(t *testing.T) {
	r, err := RayleighForClass("I")
	if err != nil {
		t.Fatal(err)
	}
	if r.MeanSpeed != 10 {
		t.Errorf("class I V_ave = %v, want 10", r.MeanSpeed)
	}
	r3, _ := RayleighForClass("III")
	if r3.MeanSpeed != 7.5 {
		t.Errorf("class III V_ave = %v, want 7.5", r3.MeanSpeed)
	}
	// Rayleigh is Weibull k = 2 with A = 2 V_ave/√π; and its mean is V_ave:
	// ∫(1 − F) dV = V_ave.
	w := Weibull{Shape: 2, Scale: 2 * 10 / math.Sqrt(math.Pi)}
	for _, v := range []float64{0.5, 3, 10, 25} {
		approx(t, "Rayleigh vs Weibull CDF", r.CDF(v), w.CDF(v), 1e-14)
	}
	mean := 0.0
	dv := 0.001
	for v := dv / 2; v < 200; v += dv {
		mean += (1 - r.CDF(v)) * dv
	}
	approx(t, "Rayleigh mean", mean, 10, 1e-6)
	// Hand value: F(10) for V_ave = 10 is 1 − e^{−π/4} = 0.544061872…
	approx(t, "F(V_ave)", r.CDF(10), 1-math.Exp(-math.Pi/4), 1e-15)
	if _, err := RayleighForClass("IV"); err == nil {
		t.Error("class IV: no error")
	}
}

func TestWindSpeedWeights(t *testing.T) {
	r := Rayleigh{MeanSpeed: 10}
	speeds := []float64{4, 6, 4, 8} // two seeds at 4 m/s
	w, err := WindSpeedWeights(speeds, r)
	if err != nil {
		t.Fatal(err)
	}
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/10)*(v/10)) }
	p4, p6, p8 := F(5)-F(3), F(7)-F(5), F(9)-F(7)
	total := p4 + p6 + p8
	want := []float64{p4 / 2 / total, p6 / total, p4 / 2 / total, p8 / total}
	for i := range want {
		approx(t, "weight", w.Weights[i], want[i], 1e-14)
	}
	approx(t, "coverage", w.Coverage, F(9)-F(3), 1e-14)
	if len(w.Bins) != 3 || w.Bins[0].Runs != 2 || w.Bins[0].Low != 3 || w.Bins[2].High != 9 {
		t.Errorf("bins %+v", w.Bins)
	}
}

// The damage-consistent lifetime DEL against an independent Miner sum, and
// the arithmetic mean of the per-run DELs (pCrunch's weighted total) shown
// to be wrong.
func TestAggregateDELAgainstMinerSum(t *testing.T) {
	dist := Weibull{Shape: 2.2, Scale: 9}
	type run struct {
		speed, amp, freq float64
		periods          int
	}
	runs := []run{
		{5, 1, 0.5, 30}, {5, 1.3, 0.5, 30}, // two seeds at 5 m/s
		{11, 4, 0.4, 24}, {11, 3.5, 0.4, 24},
		{17, 2, 0.6, 36}, {17, 2.4, 0.6, 36},
		{23, 6, 0.3, 18}, // one seed at 23 m/s, much larger load
	}
	const m = 10.0
	var fr []FatigueRun
	for i, r := range runs {
		rec := alternating(r.amp, r.freq, r.periods)
		d, err := ChannelDEL(rec, "M", WholeRecord(), DELOptions{Exponents: []float64{m}})
		if err != nil {
			t.Fatal(err)
		}
		fr = append(fr, FatigueRun{ID: string(rune('a' + i)), WindSpeed: r.speed, DEL: d[0].Value})
	}
	got, err := AggregateDEL(fr, m, dist)
	if err != nil {
		t.Fatal(err)
	}
	// Independent: bins 5, 11, 17, 23 with edges 2, 8, 14, 20, 26; each run's
	// damage rate is K (2a)^m / T with T = K/f, i.e. f (2a)^m.
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pow(v/9, 2.2)) }
	pBin := map[float64]float64{5: F(8) - F(2), 11: F(14) - F(8), 17: F(20) - F(14), 23: F(26) - F(20)}
	seeds := map[float64]float64{5: 2, 11: 2, 17: 2, 23: 1}
	total := 0.0
	for _, p := range pBin {
		total += p
	}
	rate := 0.0
	arith := 0.0
	for _, r := range runs {
		p := pBin[r.speed] / seeds[r.speed] / total
		rate += p * r.freq * math.Pow(2*r.amp, m)
		arith += p * 2 * r.amp * math.Pow(r.freq, 1/m)
	}
	want := math.Pow(rate, 1/m)
	approx(t, "lifetime DEL", got.DEL, want, 1e-12)
	approx(t, "arithmetic mean", got.ArithmeticMean, arith, 1e-12)
	if rel := (got.DEL - got.ArithmeticMean) / got.DEL; rel < 0.2 {
		t.Errorf("arithmetic mean %g vs lifetime DEL %g: expected the mean to be >20%% low for m = 10, is %.1f%%", got.ArithmeticMean, got.DEL, 100*rel)
	}
}

func TestAggregateDELErrors(t *testing.T) {
	if _, err := AggregateDEL(nil, 3, Rayleigh{MeanSpeed: 10}); err == nil {
		t.Error("no runs: no error")
	}
	if _, err := AggregateDEL([]FatigueRun{{WindSpeed: 5, DEL: math.NaN()}}, 3, Rayleigh{MeanSpeed: 10}); err == nil {
		t.Error("NaN DEL: no error")
	}
	if _, err := AggregateDEL([]FatigueRun{{WindSpeed: 5, DEL: 1}}, 3, Weibull{}); err == nil {
		t.Error("invalid Weibull: no error")
	}
	if _, err := ShortTermDEL(nil, 10, DELOptions{}); err == nil {
		t.Error("no exponents: no error")
	}
}
