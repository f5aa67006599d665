package results_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
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

// jobOutputs is a ResultService holding single jobs' outputs by id beside
// a batch of its runs.
type jobOutputs struct {
	memoryResults
	byID map[string]*outputs.JobOutput
}

func (j *jobOutputs) JobOutput(_ context.Context, _, id string) (*outputs.JobOutput, error) {
	return j.byID[id], nil
}

// floatingRunWithExcursion is a 20 Hz steady run of span seconds whose
// RootMyb1 is 1000 ± 50 kN-m at 0.5 Hz but for an excursion to 4000 kN-m
// from t = at to at+5 s: on a floating platform, the load of the platform
// still drifting from rest. floating marks its output as the service does
// for a deck on a floating platform (RunSetup.Floating).
func floatingRunWithExcursion(jobID string, span, at float64, floating bool) outputs.BatchRun {
	r := syntheticRun(jobID, "", int(span/0.05)+1, func(t float64) (float64, float64, float64) {
		if t >= at && t <= at+5 {
			return 10, 1000, 4000
		}
		return 10, 1000, 1000 + 50*math.Sin(2*math.Pi*0.5*t)
	})
	if floating {
		r.Output.Setup = &turbinesim.RunSetup{Floating: true}
	}
	return r
}

// A run on a floating platform leaves out its own, longer start-up
// transient by default (decks.FloatingStartupTransient, 200 s: the platform drifts
// and swings at its surge and pitch periods for minutes after it is
// released at rest, docs/events.md §6), the first half of a run shorter
// than twice that, and every single-run answer says so in words; a land
// run keeps 30 s, and a given t_start wins. Before, every run left out
// 30 s: the floating run's statistics, DELs, Markov matrices, load
// durations and spectra held the drift's excursion at t = 100 s.
func TestFloatingRunSkipsItsLongerStartupTransient(t *testing.T) {
	tr := float64(decks.FloatingStartupTransient)
	at := tr / 2 // inside the floating start-up, after a land run's 30 s
	res := &jobOutputs{byID: map[string]*outputs.JobOutput{
		"float":  floatingRunWithExcursion("float", 600, at, true).Output,
		"land":   floatingRunWithExcursion("land", 600, at, false).Output,
		"short":  floatingRunWithExcursion("short", 1.5*tr, 0.25*tr, true).Output,
		"late":   floatingRunWithExcursion("late", 600, tr+50, true).Output,
		"before": floatingRunWithExcursion("before", 600, at, true).Output,
	}}
	ra := &results.ResultAnalysis{Results: res}
	ctx := context.Background()
	ch := []string{"RootMyb1"}
	floatDetail := fmt.Sprintf("the first %g s: the start-up transient of a floating platform; t_start=0 keeps the whole run", tr)

	stats := func(id string, tStart *float64) *results.StatisticsResponse {
		t.Helper()
		st, err := ra.Statistics(ctx, "org", id, results.StatisticsRequest{Channels: ch, TStart: tStart})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := stats("float", nil)
	if st.Start != tr || st.Channels[0].Max > 1050+1e-9 {
		t.Errorf("floating run: statistics from t = %g s, max %g kN-m; want from %g s, without the excursion at %g s", st.Start, st.Channels[0].Max, tr, at)
	}
	if w := st.Window; w.Reason != results.WindowStartupRemoved || *w.TStart != tr || w.Detail != floatDetail {
		t.Errorf("floating run: analysis_window %+v, want t_start %g, detail %q", w, tr, floatDetail)
	}
	if w := st.Window.String(); !strings.Contains(w, "floating platform") {
		t.Errorf("floating run: the window in words %q does not name the floating platform", w)
	}
	st = stats("land", nil)
	if st.Start != 30 || st.Channels[0].Max != 4000 || st.Window.Detail != "the first 30 s; t_start=0 keeps the whole run" {
		t.Errorf("land run: statistics from t = %g s, max %g, detail %q; want from 30 s with the excursion at %g s", st.Start, st.Channels[0].Max, st.Window.Detail, at)
	}
	st = stats("short", nil)
	shortDetail := fmt.Sprintf("the first half of a run shorter than %g s: the start-up transient of a floating platform; t_start=0 keeps the whole run", 2*tr)
	if st.Start != 0.75*tr || st.Channels[0].Max > 1050+1e-9 || st.Window.Detail != shortDetail {
		t.Errorf("short floating run: statistics from t = %g s, max %g, detail %q; want from %g s (half of %g s), detail %q",
			st.Start, st.Channels[0].Max, st.Window.Detail, 0.75*tr, 1.5*tr, shortDetail)
	}
	st = stats("late", nil)
	if st.Channels[0].Max != 4000 {
		t.Errorf("floating run with an excursion at %g s: max %g, want 4000 (after the transient)", tr+50, st.Channels[0].Max)
	}
	given := 50.0
	st = stats("before", &given)
	if st.Start != given || st.Channels[0].Max != 4000 || st.Window.Reason != results.WindowGiven {
		t.Errorf("floating run, t_start=50: from %g s, max %g, window %+v; want the caller's window", st.Start, st.Channels[0].Max, st.Window)
	}

	fa, err := ra.Fatigue(ctx, "org", "float", results.FatigueRequest{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	if fa.Start != tr || fa.Channels[0].MaxRange > 100+1e-9 || fa.Window.Detail != floatDetail {
		t.Errorf("floating run fatigue from %g s, largest range %g, detail %q", fa.Start, fa.Channels[0].MaxRange, fa.Window.Detail)
	}
	mk, err := ra.Markov(ctx, "org", "float", results.MarkovRequest{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	if mk.Start != tr || mk.Window.Detail != floatDetail {
		t.Errorf("floating run Markov from %g s, detail %q", mk.Start, mk.Window.Detail)
	}
	ld, err := ra.LoadDuration(ctx, "org", "float", results.LoadDurationRequest{Channels: ch})
	if err != nil {
		t.Fatal(err)
	}
	if ld.Start != tr || ld.Window.Detail != floatDetail {
		t.Errorf("floating run load duration from %g s, detail %q", ld.Start, ld.Window.Detail)
	}
	sp, err := ra.Spectrum(ctx, "org", "float", results.SpectrumRequest{Channel: "RootMyb1"})
	if err != nil {
		t.Fatal(err)
	}
	if w := sp.AnalysisWindow; *w.TStart != tr || w.Detail != floatDetail {
		t.Errorf("floating run spectrum window %+v", w)
	}

	// A DLC run, analysed alone, starts where its batch's analyses start
	// it: after its DLC's transient as the batch stored it (100 s for an
	// operating DLC on a floating platform, whose run starts at the
	// platform's equilibrium), also when the run is shorter than twice
	// that.
	for _, c := range []struct {
		id       string
		span, tr float64
		floating bool
	}{{"dlc-float", 600, 100, true}, {"dlc-land", 660, 60, false}, {"dlc-event", 270, 200, true}} {
		out := floatingRunWithExcursion(c.id, c.span, 10, c.floating).Output
		out.Setup = &turbinesim.RunSetup{Floating: c.floating, DLC: "1.2", Transient: &c.tr}
		res.byID[c.id] = out
		st := stats(c.id, nil)
		want := fmt.Sprintf("the first %g s: the start-up transient of its DLC (1.2); t_start=0 keeps the whole run", c.tr)
		if st.Start != c.tr || st.Window.Detail != want {
			t.Errorf("%s: statistics from %g s, detail %q; want from %g s, %q", c.id, st.Start, st.Window.Detail, c.tr, want)
		}
	}
}

// A batch that is not a DLC batch (a sweep, jobs sharing a batch_id) whose
// runs stand on different platforms leaves out each run's own start-up
// transient, and its window says so for each kind; a batch of floating
// runs only starts them all after the floating transient.
func TestBatchOfLandAndFloatingRunsSaysEachTransient(t *testing.T) {
	tr := float64(decks.FloatingStartupTransient)
	ctx := context.Background()
	ch := []string{"RootMyb1"}
	mixed := &memoryResults{runs: []outputs.BatchRun{
		floatingRunWithExcursion("land", 600, 10, false),
		floatingRunWithExcursion("float", 600, tr/2, true),
	}}
	ex, err := (&results.ResultAnalysis{Results: mixed}).BatchExtremes(ctx, "org", "b", results.BatchQuery{}, analysis.ExtremeOptions{Channels: ch}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Extremes[0].Characteristic > 1050+1e-9 {
		t.Errorf("mixed batch: max %g kN-m at t = %g s (%s), from a start-up transient", ex.Extremes[0].Characteristic, ex.Extremes[0].Time, ex.Extremes[0].RunID)
	}
	w := ex.Window
	want := fmt.Sprintf("the first 30 s of each run on land or a fixed foundation, the first %g s of each run on a floating platform (its start-up transient); t_start=0 keeps the whole runs", tr)
	if w.Reason != results.WindowStartupRemoved || w.Detail != want || w.TStartMin == nil || *w.TStartMin != 30 || w.TStartMax == nil || *w.TStartMax != tr {
		t.Errorf("mixed batch window %+v (detail %q), want t_start 30–%g s, detail %q", w, w.Detail, tr, want)
	}

	floating := &memoryResults{runs: []outputs.BatchRun{
		floatingRunWithExcursion("a", 600, tr/2, true),
		floatingRunWithExcursion("b", 600, tr/4, true),
	}}
	ex, err = (&results.ResultAnalysis{Results: floating}).BatchExtremes(ctx, "org", "b", results.BatchQuery{}, analysis.ExtremeOptions{Channels: ch}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("the first %g s: the start-up transient of a floating platform; t_start=0 keeps the whole runs", tr)
	if w := ex.Window; ex.Extremes[0].Characteristic > 1050+1e-9 || w.TStart == nil || *w.TStart != tr || w.Detail != want {
		t.Errorf("floating batch: max %g, window %+v; want ≤ 1050 kN-m, t_start %g, detail %q", ex.Extremes[0].Characteristic, w, tr, want)
	}

	shortToo := &memoryResults{runs: []outputs.BatchRun{
		floatingRunWithExcursion("long", 600, tr/2, true),
		floatingRunWithExcursion("short", tr, 10, true),
		floatingRunWithExcursion("land", 600, 10, false),
	}}
	ex, err = (&results.ResultAnalysis{Results: shortToo}).BatchExtremes(ctx, "org", "b", results.BatchQuery{}, analysis.ExtremeOptions{Channels: ch}, "", results.ExtrapolationSpec{})
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("the first 30 s of each run on land or a fixed foundation, the first %g s of each run on a floating platform, the first half of a shorter run (its start-up transient); t_start=0 keeps the whole runs", tr)
	if w := ex.Window; w.Detail != want || *w.TStartMin != 30 || *w.TStartMax != tr || ex.Extremes[0].Characteristic > 1050+1e-9 {
		t.Errorf("batch with a short floating run: max %g, window %+v, want detail %q", ex.Extremes[0].Characteristic, w, want)
	}
}
