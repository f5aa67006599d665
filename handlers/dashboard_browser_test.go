package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// In Chromium: after a DLC batch is submitted and one of its runs is
// running, and a single run has failed, the page a person lands on after
// signing in shows the running run with its progress, the queued ones
// with their place in line, the failed run with its detail, the batch in
// progress, and the month's spend against the cap; when a batch run fails
// meanwhile, the page shows it within its refresh (htmx), without a
// reload. The worker's side of the state machine (claim, progress,
// finish) is driven directly, as the runner drives it.
func TestBrowserDashboardAfterFailedRunAndRunningBatch(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	ctx := context.Background()
	resp, body := be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: reducedDLC12(be.turbineID, 10), header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	batch := decodeInto[turbinesim.Batch](t, body)
	resp, body = be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
		body: `{"turbine_id":"` + be.turbineID + `","name":"Doomed run","settings":{"t_max":10,"wind":{"speed":9}}}`})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("run: %d %s", resp.StatusCode, body)
	}
	doomed := decodeInto[turbinesim.Job](t, body)

	d := be.claim(doomed.ID)
	const failure = "solver stopped at t = 3.20 s: blade 1 tip deflection diverged"
	if ok, err := be.jobs.FinishJob(ctx, d.ID, d.Attempt, db.JobOutcome{Status: turbinesim.JobFailed, Detail: failure}); !ok || err != nil {
		t.Fatalf("finish: %v %v", ok, err)
	}
	var runIDs []string
	if err := be.db.SelectContext(ctx, &runIDs, `SELECT job_id FROM batch_runs WHERE batch_id = $1 ORDER BY position`, batch.ID); err != nil || len(runIDs) != 6 {
		t.Fatalf("batch runs %v (%v)", runIDs, err)
	}
	running := be.claim(runIDs[0])
	if _, err := be.jobs.ReportProgress(ctx, running.ID, running.Attempt, 4, nil); err != nil {
		t.Fatal(err)
	}

	bctx := newBrowser(t)
	err := chromedp.Do(bctx,
		chromedp.Navigate(be.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), be.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#dash-active")),
	)
	if err != nil {
		t.Fatalf("signing in: %v", err)
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(document.querySelector(`+"`"+sel+"`"+`) || {}).textContent || ""`))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(s), " ")
	}
	for sel, want := range map[string][]string{
		"#dash-active [data-job-id='" + running.ID + "']": {"DLC 1.2", "running · 40 %"},
		"#dash-active [data-job-id='" + runIDs[1] + "']":  {"queued · #1 in line"},
		"#dash-active [data-job-id='" + runIDs[2] + "']":  {"queued · #2 in line"},
		"#dash-failed": {"Doomed run", failure, "(1)"},
		"#dash-batches [data-batch-id='" + batch.ID + "']": {batch.Name, "0 of 6 runs done"},
	} {
		got := text(sel)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Fatalf("%s shows %q, want %q", sel, got, w)
			}
		}
	}
	u, err := be.caps.CurrentUsage(ctx, be.org.ID)
	want := fmt.Sprintf("$%d.%02d of $%d.%02d cap", u.SpentCents/100, u.SpentCents%100, u.SpendCapCents/100, u.SpendCapCents%100)
	if err != nil || u.SpentCents == 0 || !strings.Contains(text("#dash-spend"), want) {
		t.Fatalf("spend shown %q, want %q (%v)", text("#dash-spend"), want, err)
	}

	// A batch run fails; the page refreshes itself.
	if ok, err := be.jobs.FinishJob(ctx, running.ID, running.Attempt, db.JobOutcome{Status: turbinesim.JobFailed, Detail: "tower strike"}); !ok || err != nil {
		t.Fatalf("finish batch run: %v %v", ok, err)
	}
	sel := "#dash-batches [data-batch-id='" + batch.ID + "']"
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(text(sel), "1 of 6 runs done") || !strings.Contains(text(sel), "1 failed") || !strings.Contains(text("#dash-failed"), "tower strike") {
		if time.Now().After(deadline) {
			t.Fatalf("after a batch run failed the dashboard shows %q and %q", text(sel), text("#dash-failed"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
