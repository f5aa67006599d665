package handlers_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
)

// In Chromium: a person signs in, uploads the NREL 5 MW deck as a ZIP on
// the submit page, lands on the job page and sees the progress bar move
// (fed by the WebSocket) until the run succeeds; then cancels a second run
// with the Cancel button.
func TestBrowserSubmitWatchAndCancel(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	ctx := newBrowser(t)
	zipPath := filepath.Join(t.TempDir(), "nrel5mw.zip")
	if err := os.WriteFile(zipPath, deckZip(t, "20", nil), 0o600); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/login?next=%2Fjobs%2Fnew"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), je.passwd),
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.CSS("#submit-zip")),
		chromedp.SetValue(chromedp.CSS(`#submit-zip input[name="entrypoint"]`), "Main_Onshore.fst"),
		chromedp.SetUploadFiles(chromedp.CSS(`#submit-zip input[name="file"]`), []string{zipPath}),
		chromedp.Click(chromedp.CSS("#submit-zip button")),
		chromedp.WaitVisible(chromedp.CSS("#job-bar")),
	)
	if err != nil {
		t.Fatalf("submitting in the browser: %v", err)
	}
	// A second run, queued behind the first (one worker).
	resp, body := je.submitZip(deckZip(t, "20", nil), "Main_Onshore.fst", je.keyed())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("second submit: %d %s", resp.StatusCode, body)
	}
	second := decodeInto[turbinesim.Job](t, body)

	var widths []float64
	deadline := time.Now().Add(90 * time.Second)
	for {
		w, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`parseFloat(document.getElementById("job-bar").style.width) || 0`))
		if err == nil {
			if len(widths) == 0 || w != widths[len(widths)-1] {
				widths = append(widths, w)
			}
		}
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("job-status") || {}).textContent || ""`))
		if strings.TrimSpace(st) == "succeeded" && w == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job page never showed succeeded; bar widths %v, status %q", widths, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	partial := false
	for _, w := range widths {
		partial = partial || (w > 0 && w < 100)
	}
	if !partial {
		t.Fatalf("the progress bar never showed partial progress: widths %v", widths)
	}
	t.Logf("progress bar widths seen: %v", widths)
	out, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#job-outputs")))
	if err != nil || !strings.Contains(out, "Main_Onshore.outb") {
		t.Fatalf("outputs list %q (%v)", out, err)
	}

	err = chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/jobs/"+second.ID),
		chromedp.WaitVisible(chromedp.CSS("#cancel-job")),
		chromedp.Click(chromedp.CSS("#cancel-job")),
	)
	if err != nil {
		t.Fatalf("cancel: %v", err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("job-status") || {}).textContent || ""`))
		if strings.TrimSpace(st) == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("second job shows %q after Cancel", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	j, err := je.jobs.FindJob(t.Context(), je.org.ID, second.ID)
	if err != nil || j.Status != turbinesim.JobCancelled {
		t.Fatalf("second job in the database: %+v %v", j, err)
	}
}
