package handlers_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// platformRunOut is a 600-s, 20 Hz output as a run on a floating
// platform starts: PtfmSurge drifting from rest towards 20 m and swinging
// at the 140-s surge period until about 300 s (docs/events.md §6), and a
// FAIRTEN1 peak of 5000 kN at t = 100 s while it does; settled, 2000 ±
// 50 kN at 0.1 Hz.
func platformRunOut(t *testing.T) string {
	t.Helper()
	chans := []outfile.Channel{{Name: "PtfmSurge", Unit: "m"}, {Name: "FAIRTEN1", Unit: "kN"}}
	return textOut(t, chans, 12001, func(c, i int) float64 {
		tm := 0.05 * float64(i)
		if c == 0 {
			return 20 * (1 - math.Exp(-tm/60)*math.Cos(2*math.Pi*tm/140))
		}
		if tm >= 100 && tm <= 103 {
			return 5000
		}
		return 2000 + 50*math.Sin(2*math.Pi*0.1*tm)
	})
}

// setFloating records job's setup as a submission on a floating platform
// records it (decks.RunSetupOf: RunSetup.Floating).
func (re *resultEnv) setFloating(jobID string) {
	re.t.Helper()
	if _, err := re.db.ExecContext(context.Background(), `UPDATE jobs SET setup = '{"wind":{"kind":"steady"},"floating":true}' WHERE id = $1`, jobID); err != nil {
		re.t.Fatal(err)
	}
}

// Through the JSON API, a finished run on a floating platform is analysed
// after its own start-up transient (decks.FloatingStartupTransient) by default, and
// the answer says so in words; the same output of a land run after 30 s.
// A batch of both (jobs sharing a batch_id) starts each run after its own
// transient and says which. Before, the floating run's statistics and the
// batch's extremes held the FAIRTEN1 peak of the platform's start-up drift
// at t = 100 s.
func TestFloatingRunWindowThroughTheAPI(t *testing.T) {
	re := newResultEnv(t)
	tr := float64(decks.FloatingStartupTransient)
	batch := re.insertBatch(re.org.ID)
	float := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": platformRunOut(t)})
	re.setFloating(float)
	land := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.out": platformRunOut(t)})

	st := callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+float+"/statistics", `{"channels":["FAIRTEN1","PtfmSurge"]}`)
	want := fmt.Sprintf("the first %g s: the start-up transient of a floating platform; t_start=0 keeps the whole run", tr)
	if st.Start != tr || st.Channels[0].Max > 2050+1e-6 || st.Window.Detail != want {
		t.Errorf("floating run: statistics from %g s, FAIRTEN1 max %g kN, detail %q; want from %g s, ≤ 2050 kN, %q",
			st.Start, st.Channels[0].Max, st.Window.Detail, tr, want)
	}
	_, raw := re.call(re.token, "POST", "/analysis/jobs/"+float+"/statistics", `{"channels":["FAIRTEN1"]}`)
	if !strings.Contains(raw, fmt.Sprintf(`"analysis_window":{"t_start":%g,"t_end":600,`, tr)) || !strings.Contains(raw, "floating platform") {
		t.Errorf("floating run's statistics JSON: %.500s", raw)
	}
	st = callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+land+"/statistics", `{"channels":["FAIRTEN1"]}`)
	if st.Start != 30 || st.Channels[0].Max != 5000 || st.Window.Detail != "the first 30 s; t_start=0 keeps the whole run" {
		t.Errorf("land run: statistics from %g s, max %g, detail %q; want from 30 s with the 5000 kN peak", st.Start, st.Channels[0].Max, st.Window.Detail)
	}
	st = callJSON[handlers.StatisticsResponse](t, re, "POST", "/analysis/jobs/"+float+"/statistics", `{"channels":["FAIRTEN1"],"t_start":0}`)
	if st.Start != 0 || st.Channels[0].Max != 5000 || st.Window.Reason != results.WindowGiven {
		t.Errorf("floating run, t_start=0: from %g s, max %g, window %+v", st.Start, st.Channels[0].Max, st.Window)
	}

	ex := callJSON[handlers.BatchExtremes](t, re, "GET", "/analysis/batches/"+batch+"/extremes?channels=FAIRTEN1", "")
	w := ex.Window
	wantBatch := fmt.Sprintf("the first 30 s of each run on land or a fixed foundation, the first %g s of each run on a floating platform (its start-up transient); t_start=0 keeps the whole runs", tr)
	if w.Detail != wantBatch || w.TStartMin == nil || *w.TStartMin != 30 || w.TStartMax == nil || *w.TStartMax != tr {
		t.Errorf("batch window %+v (detail %q), want t_start 30–%g s, detail %q", w, w.Detail, tr, wantBatch)
	}
	// The land run's peak at 100 s is after its 30 s and stays; the
	// floating run's is not its maximum.
	if m := ex.Extremes[0]; m.RunID != land || m.Characteristic != 5000 {
		t.Errorf("batch maximum %g kN in run %s, want the land run's 5000 kN", m.Characteristic, m.RunID)
	}
}

// End to end through the JSON API on the bundled floating demo: a job
// submitted on the IEA 15 MW VolturnUS-S records its deck as floating
// (setup.floating), and once it has finished (here with a stored 600-s
// output, handed over as the worker does) its statistics leave out the
// platform's start-up transient; a job on the bundled NREL 5 MW (land)
// with the same output leaves out 30 s and records no floating.
func TestFloatingDemoJobIsAnalysedAfterItsStartupTransient(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	ctx := context.Background()
	tr := float64(decks.FloatingStartupTransient)
	resp, body := be.do(nil, request{method: "POST", path: "/turbines/demos/iea-15mw-volturnus/load", header: be.verified})
	demo := decodeInto[handlers.DemoLoadResult](t, body)
	if resp.StatusCode != http.StatusCreated || demo.Turbine == nil {
		t.Fatalf("loading the floating demo: %d %s", resp.StatusCode, body)
	}
	out := platformRunOut(t)
	finish := func(turbineID string) turbinesim.Job {
		t.Helper()
		resp, body := be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
			body: `{"turbine_id":"` + turbineID + `","settings":{"t_max":600,"wind":{"speed":10}}}`})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("submit: %d %s", resp.StatusCode, body)
		}
		id := decodeInto[turbinesim.Job](t, body).ID
		j := be.claim(id)
		dir := t.TempDir()
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run.out"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		key, err := be.trees.Put(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := be.jobs.FinishJob(ctx, j.ID, j.Attempt, db.JobOutcome{Status: turbinesim.JobSucceeded,
			OutputKey: key, OutputFiles: []string{"run.out"}, Checks: []turbinesim.RunCheck{}}); !ok || err != nil {
			t.Fatalf("finish: %v %v", ok, err)
		}
		resp, body = be.do(nil, request{method: "GET", path: "/jobs/" + id, header: be.verified})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /jobs/%s: %d %s", id, resp.StatusCode, body)
		}
		return decodeInto[turbinesim.Job](t, body)
	}
	stats := func(id string) handlers.StatisticsResponse {
		t.Helper()
		resp, body := be.do(nil, request{method: "POST", path: "/analysis/jobs/" + id + "/statistics", header: be.verified,
			body: `{"channels":["FAIRTEN1"]}`})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("statistics: %d %s", resp.StatusCode, body)
		}
		return decodeInto[handlers.StatisticsResponse](t, body)
	}

	floating := finish(demo.ID)
	if floating.Setup == nil || !floating.Setup.Floating {
		t.Errorf("floating demo job's setup %+v, want floating", floating.Setup)
	}
	st := stats(floating.ID)
	want := fmt.Sprintf("the first %g s: the start-up transient of a floating platform; t_start=0 keeps the whole run", tr)
	if st.Start != tr || st.Channels[0].Max > 2050+1e-6 || st.Window.Detail != want {
		t.Errorf("floating demo job: statistics from %g s, FAIRTEN1 max %g, detail %q; want from %g s without the peak at 100 s, %q",
			st.Start, st.Channels[0].Max, st.Window.Detail, tr, want)
	}

	land := finish(be.turbineID)
	if land.Setup == nil || land.Setup.Floating {
		t.Errorf("land job's setup %+v, want not floating", land.Setup)
	}
	if st := stats(land.ID); st.Start != 30 || st.Channels[0].Max != 5000 {
		t.Errorf("land job: statistics from %g s, max %g; want from 30 s with the peak at 100 s", st.Start, st.Channels[0].Max)
	}
}
