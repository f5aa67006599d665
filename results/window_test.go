package results_test

import (
	"context"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// steadyRunWithStartup is a 100 s, 20 Hz steady run at wind m/s whose
// RootMyb1 settles from a start-up excursion: 4000 kN-m between t = 2 and
// 6 s (the rotor released from the deck's initial conditions), then
// 1000 ± 50 kN-m at 0.5 Hz.
func steadyRunWithStartup(jobID, name string, wind float64) outputs.BatchRun {
	return syntheticRun(jobID, name, 2001, func(t float64) (float64, float64, float64) {
		if t >= 2 && t <= 6 {
			return wind, 100 * wind, 4000
		}
		return wind, 100 * wind, 1000 + 50*math.Sin(2*math.Pi*0.5*t)
	})
}

// oneJob is a ResultService holding one job's output beside a batch.
type oneJob struct {
	memoryResults
	out *outputs.JobOutput
}

func (o *oneJob) JobOutput(context.Context, string, string) (*outputs.JobOutput, error) {
	return o.out, nil
}

// A steady parametric sweep (runs not named after a DLC, no DLC
// transient to go by) and a single run leave out the start-up transient
// by default: the first 30 s of a 100-s run (analysis.StartupWindow). The
// extremes, DELs, curves and statistics are of t = 30–100 s, every answer
// says so, and t_start=0 brings the excursion back. Before, a sweep's
// extremes and lifetime DEL came from the excursion at t = 2–6 s.
func TestSweepAndSingleRunSkipTheStartupTransient(t *testing.T) {
	res := &oneJob{memoryResults: memoryResults{runs: []outputs.BatchRun{
		steadyRunWithStartup("a", "", 8), steadyRunWithStartup("b", "", 10), steadyRunWithStartup("c", "", 12),
	}}}
	res.out = res.runs[0].Output
	ra := &results.ResultAnalysis{Results: res}
	ctx := context.Background()
	ch := []string{"RootMyb1"}

	checkWindow := func(what string, w results.AnalysisWindow) {
		t.Helper()
		if w.Reason != results.WindowStartupRemoved || w.TStart == nil || *w.TStart != 30 {
			t.Errorf("%s: analysis_window %+v, want t_start 30 (start-up transient removed)", what, w)
		}
	}
	ex, err := ra.BatchExtremes(ctx, "org", "sweep", results.BatchQuery{}, analysis.ExtremeOptions{Channels: ch}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex.Extremes {
		if e.Time < 30 || e.Characteristic > 1050+1e-9 {
			t.Errorf("sweep extreme %s %g kN-m at t = %g s: inside the start-up transient", e.Kind, e.Characteristic, e.Time)
		}
	}
	checkWindow("extremes", ex.Window)

	dels, err := ra.BatchDELs(ctx, "org", "sweep", results.BatchQuery{}, ch, []float64{4}, nil, results.WindDistributionSpec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0.5 Hz cycles of range 100 kN-m over 70 s at f_eq = 1 Hz: DEL =
	// 100·(35/70)^(1/4) per run, and so the lifetime DEL.
	want := 100 * math.Pow(0.5, 0.25)
	if got := dels.Channels[0].Lifetime[0].DEL; math.Abs(got-want) > 0.02*want {
		t.Errorf("sweep lifetime DEL %g kN-m, want %g from the settled 100 kN-m cycles alone", got, want)
	}
	for _, r := range dels.Channels[0].Runs {
		if math.Abs(r.Duration-70) > 1e-9 {
			t.Errorf("run %s: DEL over %g s, want 70 (30 to 100 s)", r.ID, r.Duration)
		}
	}
	checkWindow("DELs", dels.Window)

	cv, err := ra.BatchCurves(ctx, "org", "sweep", results.CurveQuery{}, false)
	if err != nil {
		t.Fatal(err)
	}
	checkWindow("curves", cv.Window)

	st, err := ra.Statistics(ctx, "org", "a", results.StatisticsRequest{Channels: ch, WohlerExponents: []float64{4}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Channels[0].Max > 1050+1e-9 || st.Start != 30 {
		t.Errorf("single run: max %g from t = %g s, want ≤ 1050 kN-m from 30 s", st.Channels[0].Max, st.Start)
	}
	checkWindow("statistics", st.Window)
	if st.Window.TEnd == nil || *st.Window.TEnd != 100 {
		t.Errorf("statistics: window ends at %v, want 100 s", st.Window.TEnd)
	}
	fa, err := ra.Fatigue(ctx, "org", "a", results.FatigueRequest{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	if fa.Duration != 70 || fa.Channels[0].MaxRange > 100+1e-9 {
		t.Errorf("single run fatigue over %g s, largest range %g: want 70 s and 100 kN-m", fa.Duration, fa.Channels[0].MaxRange)
	}
	checkWindow("fatigue", fa.Window)
	sp, err := ra.Spectrum(ctx, "org", "a", results.SpectrumRequest{Channel: "RootMyb1"})
	if err != nil {
		t.Fatal(err)
	}
	checkWindow("spectrum", sp.AnalysisWindow)

	// The caller chooses: t_start=0 is the whole run, excursion included.
	zero := 0.0
	ex, err = ra.BatchExtremes(ctx, "org", "sweep", results.BatchQuery{Window: analysis.NewWindow(&zero, nil)}, analysis.ExtremeOptions{Channels: ch}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Extremes[0].Characteristic != 4000 || ex.Window.Reason != results.WindowGiven || *ex.Window.TStart != 0 {
		t.Errorf("t_start=0: max %g, window %+v; want the 4000 kN-m excursion and the given window", ex.Extremes[0].Characteristic, ex.Window)
	}
	st, err = ra.Statistics(ctx, "org", "a", results.StatisticsRequest{Channels: ch, TStart: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if st.Channels[0].Max != 4000 || st.Window.Reason != results.WindowGiven {
		t.Errorf("single run, t_start=0: max %g, window %+v", st.Channels[0].Max, st.Window)
	}
}
