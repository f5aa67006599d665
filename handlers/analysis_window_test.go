package handlers_test

import (
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// steadyRunWithStartupOut is a 100-s, 20 Hz steady run of a sweep at wind
// m/s as the solver starts it: RootMyb1 at 6000 kN-m from t = 2 to 6 s
// (the start-up excursion from the deck's initial conditions), then
// 1000 ± 50 kN-m at 0.5 Hz.
func steadyRunWithStartupOut(t *testing.T, wind float64) string {
	t.Helper()
	chans := []outfile.Channel{{Name: "Wind1VelX", Unit: "m/s"}, {Name: "GenPwr", Unit: "kW"}, {Name: "RootMyb1", Unit: "kN-m"}}
	return textOut(t, chans, 2001, func(c, i int) float64 {
		tm := 0.05 * float64(i)
		switch c {
		case 0:
			return wind
		case 1:
			return 100 * wind
		}
		if tm >= 2 && tm <= 6 {
			return 6000
		}
		return 1000 + 50*math.Sin(2*math.Pi*0.5*tm)
	})
}

// A steady parametric sweep's DELs and extremes leave out the start-up
// transient by default (the first 30 s of each run) and say so: every
// JSON answer carries analysis_window (t_start 30, start-up transient
// removed), the results page states the window, and t_start=0 brings the
// excursion back. Before, the sweep's extremes and lifetime DEL came from
// the start-up excursion at t = 2–6 s and no answer said which window it
// used.
func TestSweepSkipsTheStartupTransient(t *testing.T) {
	re := newResultEnv(t)
	batch := re.insertBatch(re.org.ID)
	for _, v := range []float64{6, 8, 10} {
		re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": steadyRunWithStartupOut(t, v)})
	}
	base := "/analysis/batches/" + batch

	ex := callJSON[handlers.BatchExtremes](t, re, "GET", base+"/extremes?channels=RootMyb1", "")
	for _, e := range ex.Extremes {
		if e.Time < 30 || e.Characteristic > 1050+1e-3 {
			t.Errorf("extreme %s %g kN-m at t = %g s: from the start-up transient", e.Kind, e.Characteristic, e.Time)
		}
	}
	dl := callJSON[handlers.BatchDELs](t, re, "GET", base+"/del?exponents=4&channels=RootMyb1", "")
	// 35 cycles of range 100 kN-m in 70 s at f_eq = 1 Hz.
	if got, want := dl.Channels[0].Lifetime[0].DEL, 100*math.Pow(0.5, 0.25); math.Abs(got-want) > 0.02*want {
		t.Errorf("lifetime DEL %g kN-m, want %g from the settled cycles", got, want)
	}
	cv := callJSON[handlers.BatchCurves](t, re, "GET", base+"/curves", "")
	for what, w := range map[string]results.AnalysisWindow{"extremes": ex.Window, "del": dl.Window, "curves": cv.Window} {
		if w.Reason != results.WindowStartupRemoved || w.TStart == nil || *w.TStart != 30 || w.TEnd != nil {
			t.Errorf("%s: analysis_window %+v, want t_start 30, t_end null, start-up transient removed", what, w)
		}
	}
	// The raw JSON names it as documented.
	_, raw := re.call(re.token, "GET", base+"/extremes?channels=RootMyb1", "")
	if !strings.Contains(raw, `"analysis_window":{"t_start":30,"t_end":null,`) || !strings.Contains(raw, `"reason":"start-up transient removed"`) {
		t.Errorf("extremes JSON lacks the analysis_window: %.400s", raw)
	}

	// The caller chooses the window: t_start=0 is the whole run.
	whole := callJSON[handlers.BatchExtremes](t, re, "GET", base+"/extremes?channels=RootMyb1&t_start=0", "")
	if whole.Extremes[0].Characteristic != 6000 || whole.Window.Reason != results.WindowGiven {
		t.Errorf("t_start=0: max %g, analysis_window %+v; want the 6000 kN-m excursion, window given", whole.Extremes[0].Characteristic, whole.Window)
	}

	resp, page := re.call(re.token, "GET", base, "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("results page %d", resp.StatusCode)
	}
	if !strings.Contains(page, `id="analysis-window"`) || !strings.Contains(page, "Analysis window: t ≥ 30 s (start-up transient removed") {
		t.Errorf("the results page does not state its window")
	}
	for _, row := range tableRows(t, page, `id="extremes-table"`)[1:] {
		if v := parseNumber(t, strings.ReplaceAll(row[5], ",", "")); v > 1050 {
			t.Errorf("results page extreme %v: from the start-up transient", row)
		}
	}
}
