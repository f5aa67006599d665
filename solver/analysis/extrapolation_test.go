package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// gumbelDraw is the inverse-CDF sample of a Gumbel: x = μ − β·ln(−ln U).
func gumbelDraw(rng *rand.Rand, g GumbelFit) float64 {
	u := rng.Float64()
	for u == 0 {
		u = rng.Float64()
	}
	return g.Location - g.Scale*math.Log(-math.Log(u))
}

// blockRun is a run whose window [0, T) holds two samples (duration T):
// the channel "Load" reaches max and min.
func blockRun(id string, speed, duration, max, min float64) ExtrapolationRun {
	rec := &Record{Time: []float64{0, duration / 2}, Names: []string{"Load"}, Units: []string{"(kN)"},
		Channels: [][]float64{{max, min}}}
	return ExtrapolationRun{ID: id, WindSpeed: speed, Record: rec}
}

// 50 years hold 50·365.25·144 = 2 629 800 ten-minute periods.
func TestExtrapolationTargetProbability(t *testing.T) {
	ex, err := ExtrapolateExtremes([]ExtrapolationRun{blockRun("a", 10, 600, 1, 0), blockRun("b", 10, 600, 2, -1)},
		ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: Rayleigh{MeanSpeed: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if ex.TenMinutePeriods != 2629800 || math.Abs(ex.ExceedanceProbability-1/2629800.0) > 1e-20 {
		t.Errorf("periods %g, probability %g; want 2629800 and 3.8026e-7", ex.TenMinutePeriods, ex.ExceedanceProbability)
	}
}

// Moments by hand: samples 1, 2, 3 have mean 2 and s = 1, so
// β = √6/π = 0.779697 and μ = 2 − 0.577216·β = 1.549947.
func TestFitGumbelMomentsByHand(t *testing.T) {
	g, err := FitGumbelMoments([]float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.Scale-0.7796968) > 1e-6 || math.Abs(g.Location-1.5499467) > 1e-6 {
		t.Errorf("fit %+v, want scale 0.7796968, location 1.5499467", g)
	}
	if _, err := FitGumbelMoments([]float64{1}); err == nil {
		t.Error("one sample fitted")
	}
	// A 300 s maximum's distribution squared is the 600 s one: the
	// location moves by β·ln 2.
	h := g.ForDuration(300)
	if math.Abs(h.Location-(g.Location+g.Scale*math.Ln2)) > 1e-12 || h.Scale != g.Scale {
		t.Errorf("300 s → 600 s: %+v", h)
	}
	x := 2.7
	if f600, f300 := 1-h.Exceedance(x), 1-g.Exceedance(x); math.Abs(f600-f300*f300) > 1e-12 {
		t.Errorf("F_600(%g) = %g, F_300² = %g", x, f600, f300*f300)
	}
}

// One bin covers [0, ∞) with probability 1, so the 50-year load is the
// fitted Gumbel's quantile at exceedance 1/2 629 800 exactly; the minimum
// is minus the quantile of the fit of −min. Runs of 300 s are converted.
func TestExtrapolationSingleBinIsGumbelQuantile(t *testing.T) {
	maxima := []float64{100, 104, 97, 110, 102, 99}
	minima := []float64{-50, -55, -49, -60, -52, -51}
	for _, duration := range []float64{600, 300} {
		var runs []ExtrapolationRun
		for i := range maxima {
			runs = append(runs, blockRun(fmt.Sprint("s", i), 12, duration, maxima[i], minima[i]))
		}
		ex, err := ExtrapolateExtremes(runs, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: Rayleigh{MeanSpeed: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if len(ex.Bins) != 1 || ex.Bins[0].Probability != 1 || ex.Bins[0].Runs != 6 || ex.Bins[0].Duration != duration {
			t.Fatalf("bins %+v", ex.Bins)
		}
		q := 1 / 2629800.0
		gMax, _ := FitGumbelMoments(maxima)
		neg := make([]float64, len(minima))
		for i, v := range minima {
			neg[i] = -v
		}
		gMin, _ := FitGumbelMoments(neg)
		wantMax := gMax.ForDuration(duration).QuantileExceedance(q)
		wantMin := -gMin.ForDuration(duration).QuantileExceedance(q)
		mx, mn := ex.Channels[0], ex.Channels[1]
		if mx.Kind != "max" || math.Abs(mx.Characteristic-wantMax) > 1e-9*math.Abs(wantMax) || mx.Simulated != 110 {
			t.Errorf("%g s: max %+v, want %g", duration, mx, wantMax)
		}
		if mn.Kind != "min" || math.Abs(mn.Characteristic-wantMin) > 1e-9*math.Abs(wantMin) || mn.Simulated != -60 {
			t.Errorf("%g s: min %+v, want %g", duration, mn, wantMin)
		}
	}
}

// With a common scale β the sum has a closed form in the far tail:
// 1 − exp(−e^(−z)) = e^(−z)(1 − O(e^(−z))), so Σ pᵢ e^(−(x−μᵢ)/β) = P gives
// x = β·ln(Σ pᵢ e^(μᵢ/β) / P), exact to a relative O(P) ≈ 4·10⁻⁷.
func TestSolveLongTermLoadClosedForm(t *testing.T) {
	const beta = 25.0
	mus := []float64{800, 950, 1100, 1000, 900}
	ps := []float64{0.2, 0.3, 0.25, 0.15, 0.05}
	fits := make([]GumbelFit, len(mus))
	sum := 0.0
	for i, m := range mus {
		fits[i] = GumbelFit{Location: m, Scale: beta}
		sum += ps[i] * math.Exp((m-1100)/beta)
	}
	p := 1 / 2629800.0
	want := 1100 + beta*math.Log(sum/p)
	got, err := SolveLongTermLoad(fits, ps, p)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-5*beta {
		t.Errorf("x = %.9g, closed form %.9g", got, want)
	}
	if e := LongTermExceedance(got, fits, ps); math.Abs(e-p) > 1e-9*p {
		t.Errorf("exceedance at the solution %g, want %g", e, p)
	}
	if _, err := SolveLongTermLoad(fits, []float64{1e-8, 0, 0, 0, 0}, p); err == nil {
		t.Error("total probability below the target accepted")
	}
}

// Synthetic seeds from a known Gumbel per bin (fixed RNG seed): the
// extrapolated 50-year load must match the one solved with the true
// parameters and the same bin probabilities. With n = 2000 seeds a bin the
// moment estimate of β has a relative standard error √((κ−1)/(4n)) =
// √(4.4/8000) ≈ 2.3 % (Gumbel kurtosis κ = 5.4); the 50-year load sits about
// 15β above μ in the governing bins, so its standard error is ≈ 1 % of the
// load there and the tolerance is 2.5 %. The smaller case (18 seeds, the
// DLC table's 6 seeds × 3 yaw angles) is checked only to be within 25 %.
func TestExtrapolationRecoversKnownGumbel(t *testing.T) {
	speeds := []float64{4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24}
	truth := func(v float64) (GumbelFit, GumbelFit) {
		// A load peaking around rated (12 m/s) with a scatter growing
		// with speed; the minimum a smaller mirror.
		return GumbelFit{Location: 1500 - 4*(v-12)*(v-12), Scale: 20 + 3*v},
			GumbelFit{Location: 400 + 10*v, Scale: 10 + v}
	}
	dist := Rayleigh{MeanSpeed: 10}
	w, err := WindSpeedWeights(speeds, dist)
	if err != nil {
		t.Fatal(err)
	}
	probs := make([]float64, len(speeds))
	maxFits := make([]GumbelFit, len(speeds))
	minFits := make([]GumbelFit, len(speeds))
	for i, v := range speeds {
		probs[i] = w.Bins[i].Probability
		maxFits[i], minFits[i] = truth(v)
	}
	p := 1 / 2629800.0
	wantMax, err := SolveLongTermLoad(maxFits, probs, p)
	if err != nil {
		t.Fatal(err)
	}
	wantMin, err := SolveLongTermLoad(minFits, probs, p)
	if err != nil {
		t.Fatal(err)
	}
	wantMin = -wantMin
	for _, tc := range []struct {
		seeds int
		tol   float64
	}{{2000, 0.025}, {18, 0.25}} {
		rng := rand.New(rand.NewPCG(61400, 1))
		var runs []ExtrapolationRun
		for _, v := range speeds {
			gMax, gMin := truth(v)
			for s := range tc.seeds {
				runs = append(runs, blockRun(fmt.Sprintf("V%g_S%d", v, s), v, 600, gumbelDraw(rng, gMax), -gumbelDraw(rng, gMin)))
			}
		}
		ex, err := ExtrapolateExtremes(runs, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist})
		if err != nil {
			t.Fatal(err)
		}
		mx, mn := ex.Channels[0], ex.Channels[1]
		t.Logf("%d seeds: max %.1f (true %.1f), min %.1f (true %.1f)", tc.seeds, mx.Characteristic, wantMax, mn.Characteristic, wantMin)
		if d := math.Abs(mx.Characteristic/wantMax - 1); d > tc.tol {
			t.Errorf("%d seeds: max %g, true 50-year load %g (%.2f %% off, tolerance %.1f %%)", tc.seeds, mx.Characteristic, wantMax, 100*d, 100*tc.tol)
		}
		if d := math.Abs(mn.Characteristic/wantMin - 1); d > tc.tol {
			t.Errorf("%d seeds: min %g, true 50-year load %g (%.2f %% off, tolerance %.1f %%)", tc.seeds, mn.Characteristic, wantMin, 100*d, 100*tc.tol)
		}
		if !(mx.Characteristic > mx.Simulated) || !(mn.Characteristic < mn.Simulated) {
			t.Errorf("%d seeds: the 50-year loads (%g, %g) do not lie beyond the simulated extremes (%g, %g)", tc.seeds, mx.Characteristic, mn.Characteristic, mx.Simulated, mn.Simulated)
		}
		if len(mx.Bins) != len(speeds) || len(ex.Bins) != len(speeds) {
			t.Fatalf("%d bins of fits, %d bins, want %d", len(mx.Bins), len(ex.Bins), len(speeds))
		}
		// The bins carry the distribution's own probabilities, not
		// normalised over the runs' speed range: outside it the case does
		// not occur.
		for i, b := range ex.Bins {
			if b.Probability != probs[i] || b.Runs != tc.seeds {
				t.Errorf("bin %g m/s: probability %g runs %d, want %g and %d", b.Speed, b.Probability, b.Runs, probs[i], tc.seeds)
			}
		}
	}
}

// The standard's minimum per bin flags the bins with fewer runs.
func TestExtrapolationFlagsBinsWithFewRuns(t *testing.T) {
	var runs []ExtrapolationRun
	for s := range 6 {
		runs = append(runs, blockRun(fmt.Sprint("a", s), 8, 600, float64(100+s), 0))
	}
	for s := range 15 {
		runs = append(runs, blockRun(fmt.Sprint("b", s), 14, 600, float64(200+s), 0))
	}
	minRuns := func(v float64) int {
		if v < 9 {
			return 6
		}
		return 15
	}
	ex, err := ExtrapolateExtremes(runs, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: Rayleigh{MeanSpeed: 10}, MinRuns: minRuns})
	if err != nil {
		t.Fatal(err)
	}
	if !ex.Sufficient || !ex.Bins[0].Sufficient || !ex.Bins[1].Sufficient {
		t.Errorf("6 and 15 runs against minima 6 and 15: %+v", ex.Bins)
	}
	ex, err = ExtrapolateExtremes(runs[:20], ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: Rayleigh{MeanSpeed: 10}, MinRuns: minRuns})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Sufficient || ex.Bins[1].Sufficient || ex.Bins[1].Runs != 14 || ex.Bins[1].MinRuns != 15 || !ex.Bins[0].Sufficient {
		t.Errorf("14 runs against 15: sufficient %v, bins %+v", ex.Sufficient, ex.Bins)
	}
}

func TestExtrapolationRejects(t *testing.T) {
	dist := Rayleigh{MeanSpeed: 10}
	two := []ExtrapolationRun{blockRun("a", 8, 600, 1, 0), blockRun("b", 8, 600, 2, 0)}
	for name, tc := range map[string]struct {
		runs []ExtrapolationRun
		opt  ExtrapolationOptions
		want string
	}{
		"one run in a bin":  {append(two, blockRun("c", 10, 600, 3, 0)), ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist}, "needs at least 2"},
		"mixed durations":   {[]ExtrapolationRun{two[0], blockRun("c", 8, 300, 3, 0)}, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist}, "different durations"},
		"no return period":  {two, ExtrapolationOptions{Distribution: dist}, "return period"},
		"no distribution":   {two, ExtrapolationOptions{ReturnPeriodYears: 50}, "no distribution"},
		"unknown channel":   {two, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist, Channels: []string{"Nope"}}, "Nope"},
		"no runs":           {nil, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist}, "no runs"},
		"single-sample run": {[]ExtrapolationRun{{ID: "x", WindSpeed: 8, Record: &Record{Time: []float64{0}, Names: []string{"Load"}, Channels: [][]float64{{1}}}}, two[0]}, ExtrapolationOptions{ReturnPeriodYears: 50, Distribution: dist}, "single sample"},
	} {
		_, err := ExtrapolateExtremes(tc.runs, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
		}
	}
}
