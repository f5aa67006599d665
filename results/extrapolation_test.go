package results_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// extrapolationBatch is a DLC 1.1 batch (V_in 4, V_r 11.4, V_out 24 m/s,
// speeds 4:4:24, 3 yaw angles) with seeds seeds a speed whose RootMyb1 is
// 1000 + amp·sin(0.5πt), amp differing per seed, yaw and speed, so each
// run's maximum over its window is 1000 + amp and its minimum 1000 − amp.
func extrapolationBatch(t *testing.T, seeds int) (*results.ResultAnalysis, []dlc.Run, func(dlc.Run) float64) {
	t.Helper()
	req := reportRequest("1.1")
	req.SeedsPerBin = seeds
	batches, resultStore, runs := reportBatch(t, req, func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	amp := func(r dlc.Run) float64 {
		return 300 + 20*r.WindSpeed + 37*float64(r.SeedIndex%5) + 0.9*r.Yaw + 11*float64(r.SeedIndex%3)
	}
	for i, r := range runs {
		resultStore.runs[i] = turbulentRun(r.ID, r.ID, r.WindSpeed, amp(r))
	}
	return &results.ResultAnalysis{Results: resultStore, Batches: batches}, runs, amp
}

// expectedExtrapolation solves the 50-year load by hand from the runs'
// known maxima (sign +1) or minima (−1): per speed a moment Gumbel of the
// 10-min maximum, the 540.05 s window (samples 60 to 600 s at 20 Hz, each
// standing for 0.05 s) converted to 600 s by μ += β ln(600/540.05), and the
// class I Rayleigh (V_ave 10 m/s) bin probabilities with edges at the
// mid-points and half a step outside.
func expectedExtrapolation(t *testing.T, runs []dlc.Run, amp func(dlc.Run) float64, sign float64) float64 {
	t.Helper()
	var speeds []float64
	samples := map[float64][]float64{}
	for _, r := range runs {
		if _, seen := samples[r.WindSpeed]; !seen {
			speeds = append(speeds, r.WindSpeed)
		}
		samples[r.WindSpeed] = append(samples[r.WindSpeed], sign*1000+amp(r))
	}
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/10)*(v/10)) }
	fits := make([]analysis.GumbelFit, len(speeds))
	probs := make([]float64, len(speeds))
	for i, v := range speeds {
		g, err := analysis.FitGumbelMoments(samples[v])
		if err != nil {
			t.Fatal(err)
		}
		g.Location += g.Scale * math.Log(600/540.05)
		fits[i] = g
		lo, hi := v-2, v+2 // the 4 m/s grid
		probs[i] = F(hi) - F(lo)
	}
	x, err := analysis.SolveLongTermLoad(fits, probs, 1/(50*365.25*144))
	if err != nil {
		t.Fatal(err)
	}
	return sign * x
}

// extrapolate=50y on a DLC 1.1 batch with 5 seeds × 3 yaw angles = 15 runs
// a speed: the extrapolated loads by hand, γ_f 1.25 on them, the simulated
// rows untouched (1.35 with gamma_f=dlc), the bins' minimum runs (6 below
// V_r − 2 = 9.4 m/s, 15 above) met.
func TestBatchExtremesExtrapolatesDLC11(t *testing.T) {
	ra, runs, amp := extrapolationBatch(t, 5)
	got, err := ra.BatchExtremes(context.Background(), "org", "batch", results.BatchQuery{},
		analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}, "dlc", results.ExtrapolationSpec{Period: "50y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got.Extremes {
		if e.SafetyFactor != 1.35 {
			t.Errorf("simulated %s row: γ_f %g, want 1.35", e.Kind, e.SafetyFactor)
		}
	}
	x := got.Extrapolation
	if x == nil {
		t.Fatal("no extrapolation")
	}
	if x.TenMinutePeriods != 2629800 || x.DLC != "1.1" || x.Distribution.Kind != "rayleigh" || x.Distribution.MeanSpeed != 10 {
		t.Errorf("periods %g, dlc %s, distribution %+v", x.TenMinutePeriods, x.DLC, x.Distribution)
	}
	if !x.Sufficient || len(x.Warnings) != 0 || len(x.Bins) != 6 {
		t.Fatalf("sufficient %v, warnings %v, bins %+v", x.Sufficient, x.Warnings, x.Bins)
	}
	for _, b := range x.Bins {
		want := 15
		if b.Speed < 9.4 {
			want = 6
		}
		if b.Runs != 15 || b.MinRuns != want || math.Abs(b.Duration-540.05) > 1e-9 {
			t.Errorf("bin %g m/s: runs %d (min %d), duration %g; want 15 (min %d), 540.05 s", b.Speed, b.Runs, b.MinRuns, b.Duration, want)
		}
	}
	if len(x.Loads) != 2 {
		t.Fatalf("loads %+v", x.Loads)
	}
	for _, l := range x.Loads {
		sign := 1.0
		if l.Kind == "min" {
			sign = -1
		}
		want := expectedExtrapolation(t, runs, amp, sign)
		if math.Abs(l.Characteristic-want) > 1e-6*math.Abs(want) {
			t.Errorf("%s: extrapolated %.6f, by hand %.6f", l.Kind, l.Characteristic, want)
		}
		if l.SafetyFactor != 1.25 || math.Abs(l.Design-1.25*l.Characteristic) > 1e-12*math.Abs(l.Design) {
			t.Errorf("%s: γ_f %g, design %g; want 1.25 × %g", l.Kind, l.SafetyFactor, l.Design, l.Characteristic)
		}
		if sign*(l.Characteristic-l.Simulated) <= 0 || len(l.Bins) != 6 {
			t.Errorf("%s: extrapolated %g not beyond the simulated %g, or %d bin fits", l.Kind, l.Characteristic, l.Simulated, len(l.Bins))
		}
	}
}

// Two seeds × 3 yaw angles = 6 runs a speed: enough below V_r − 2 m/s,
// too few from 12 m/s on; the answer stands, with a warning per bin.
func TestBatchExtremesExtrapolationWarnsOfFewRuns(t *testing.T) {
	ra, _, _ := extrapolationBatch(t, 2)
	got, err := ra.BatchExtremes(context.Background(), "org", "batch", results.BatchQuery{},
		analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}, "", results.ExtrapolationSpec{Period: "50y"})
	if err != nil {
		t.Fatal(err)
	}
	x := got.Extrapolation
	if x.Sufficient || len(x.Warnings) != 4 {
		t.Fatalf("sufficient %v, warnings %q; want 4 (12, 16, 20, 24 m/s)", x.Sufficient, x.Warnings)
	}
	if !strings.Contains(x.Warnings[0], "12 m/s: 6 runs, fewer than the 15") {
		t.Errorf("warning %q", x.Warnings[0])
	}
}

func TestBatchExtremesExtrapolationRejects(t *testing.T) {
	ra, _, _ := extrapolationBatch(t, 2)
	ctx := context.Background()
	opt := analysis.ExtremeOptions{Channels: []string{"RootMyb1"}}
	for _, spec := range []results.ExtrapolationSpec{
		{Period: "abc"}, {Period: "50"}, {Period: "0y"}, {Period: "0.5y"}, {Period: "2000y"}, {Period: "NaNy"},
		{Period: "50y", Distribution: results.WindDistributionSpec{Kind: "weibull"}},
		{Period: "50y", Distribution: results.WindDistributionSpec{Class: "IV"}},
	} {
		if _, err := ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{}, opt, "", spec); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%+v: error %v, want EINVALID", spec, err)
		}
	}
	// A batch without DLC 1.1 runs has nothing to extrapolate.
	batches, resultStore, _ := reportBatch(t, reportRequest("1.3"), func(dlc.Run) float64 { return 0 }, func(v float64) float64 { return 100 * v })
	ra = &results.ResultAnalysis{Results: resultStore, Batches: batches}
	_, err := ra.BatchExtremes(ctx, "org", "batch", results.BatchQuery{}, opt, "", results.ExtrapolationSpec{Period: "50y"})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.Contains(turbinesim.ErrorMessage(err), "no finished DLC 1.1 run") {
		t.Errorf("DLC 1.3 batch: error %v", err)
	}
}

// The report uses DLC 1.1's extrapolated loads when every bin has its
// runs: the DLC 1.1 rows are the extrapolated loads × 1.25 with no run,
// and no problem line says DLC 1.1 is unextrapolated. With too few runs it
// keeps the simulated maxima at 1.35 and says why.
func TestReportUsesExtrapolatedDLC11(t *testing.T) {
	ra, runs, amp := extrapolationBatch(t, 5)
	reports := &results.CertificationReports{Batches: ra.Batches.(*memoryBatches), Results: ra.Results.(*memoryResults)}
	rep, err := reports.Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extrapolation == nil {
		t.Fatalf("no extrapolation; problems %q", rep.Problems)
	}
	for _, p := range rep.Problems {
		if strings.Contains(p, "DLC 1.1") {
			t.Errorf("problem %q", p)
		}
	}
	seen := 0
	for _, e := range rep.Extremes {
		if e.Channel != "RootMyb1" {
			continue
		}
		seen++
		sign := 1.0
		if e.Kind == "min" {
			sign = -1
		}
		want := expectedExtrapolation(t, runs, amp, sign)
		if e.DLC != "1.1" || e.RunID != "" || e.SafetyFactor != 1.25 || math.Abs(e.Characteristic-want) > 1e-6*math.Abs(want) ||
			math.Abs(e.Design-1.25*want) > 1e-6*math.Abs(want) || !math.IsNaN(e.Time) {
			t.Errorf("RootMyb1 %s row %+v; want the extrapolated %g × 1.25", e.Kind, e, want)
		}
	}
	if seen != 2 {
		t.Errorf("%d RootMyb1 rows, want 2", seen)
	}
	var html strings.Builder
	if err := views.ReportPage(rep).Render(context.Background(), &html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="extrapolation-note"`, "extrapolated statistically to a 50-year recurrence", "<td>extrapolated</td>", "γ<sub>f</sub> = 1.25"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("report HTML lacks %q", want)
		}
	}

	ra, _, _ = extrapolationBatch(t, 2)
	reports = &results.CertificationReports{Batches: ra.Batches.(*memoryBatches), Results: ra.Results.(*memoryResults)}
	rep, err = reports.Build(context.Background(), "org", "batch", results.ReportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extrapolation != nil {
		t.Error("extrapolated with 6 runs a bin")
	}
	said := false
	for _, p := range rep.Problems {
		said = said || strings.Contains(p, "not extrapolated to 50 years: too few runs")
	}
	if !said {
		t.Errorf("problems %q do not say why DLC 1.1 is not extrapolated", rep.Problems)
	}
	for _, e := range rep.Extremes {
		if e.DLC == "1.1" && (e.SafetyFactor != 1.35 || e.RunID == "") {
			t.Errorf("6 runs a bin: row %+v, want a simulated run at 1.35", e)
		}
	}
}
