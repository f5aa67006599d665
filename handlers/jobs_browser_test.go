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
	"github.com/turbinesim/turbinesim/internal/testbrowser"
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
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#submit-zip")),
		chromedp.SetValue(chromedp.CSS(`#submit-zip input[name="entrypoint"]`), "Main_Onshore.fst"),
		chromedp.SetUploadFiles(chromedp.CSS(`#submit-zip input[name="file"]`), []string{zipPath}),
		testbrowser.ClickCSS("#submit-zip button"),
		chromedp.WaitVisible(chromedp.CSS("#job-bar")),
	)
	if err != nil {
		t.Fatalf("submitting in the browser: %v", err)
	}
	// A second run, queued behind the first (one worker), long enough (600
	// simulated seconds, tens of CPU seconds) that it is still queued or
	// running when Cancel is clicked: a 20-s run started when the first
	// finished and succeeded before the click in a full test run at load 17.
	resp, body := je.submitZip(deckZip(t, "600", nil), "Main_Onshore.fst", je.keyed())
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
	// The outputs list is swapped in by htmx when the run finishes, so the
	// node may be replaced while it is read: its text is polled.
	hasOutb := func(s string) bool { return strings.Contains(s, "Main_Onshore.outb") }
	if out, err := pollText(ctx, "#job-outputs", hasOutb, 15*time.Second); err != nil || !hasOutb(out) {
		t.Fatalf("outputs list %q (%v)", out, err)
	}

	err = chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/jobs/"+second.ID),
		chromedp.WaitVisible(chromedp.CSS("#cancel-job")),
		testbrowser.ClickCSS("#cancel-job"),
	)
	if err != nil {
		t.Fatalf("cancel: %v", err)
	}
	cancelled := func(s string) bool { return strings.TrimSpace(s) == "cancelled" }
	if st, _ := pollText(ctx, "#job-status", cancelled, 30*time.Second); !cancelled(st) {
		t.Fatalf("second job shows %q after Cancel", st)
	}
	j, err := je.jobs.FindJob(t.Context(), je.org.ID, second.ID)
	if err != nil || j.Status != turbinesim.JobCancelled {
		t.Fatalf("second job in the database: %+v %v", j, err)
	}
}

// In Chromium: on the submit page a person runs a stored turbine with an
// uploaded uniform wind file (wind choice "upload"); the form sends the
// API's multipart request. An out-of-range shear exponent (steady wind,
// JSON request) shows the server's 422 detail next to the shear field; a
// file that is not uniform wind shows it next to the wind-file field, and
// neither creates a job; a good .wnd (9 m/s) creates the job, whose
// hub-height wind is the file's.
func TestBrowserJobTurbineRunWithWindFile(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	ctx := newBrowser(t)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "steady9.wnd"), filepath.Join(dir, "words.wnd")
	// OpenFAST uniform wind: time, speed, direction, vertical speed,
	// horizontal shear, power-law exponent, linear vertical shear, gust.
	if err := os.WriteFile(good, []byte("! 9 m/s\n0.0 9.0 0 0 0 0 0 0\n10.0 9.0 0 0 0 0 0 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("hello wind\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileErr := `document.querySelector('[data-field-error="wind_file"]').textContent`
	err := chromedp.Do(ctx,
		chromedp.Navigate(je.http.URL+"/login?next=%2Fjobs%2Fnew"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), je.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#submit-turbine")),
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="t_max"]`), "1.5"),
		// Steady wind (JSON request) with a shear exponent out of range.
		chromedp.SetValue(chromedp.CSS(`#submit-turbine input[name="shear"]`), "5"),
		testbrowser.ClickCSS("#submit-turbine button"),
	)
	if err != nil {
		t.Fatalf("submitting steady wind in the browser: %v", err)
	}
	shearErr, err := chromedp.Run(ctx, chromedp.Poll[string](`document.querySelector('[data-field-error="settings.wind.shear"]').textContent`))
	if err != nil || !strings.HasPrefix(shearErr, "settings.wind.shear: 5 is outside") {
		t.Fatalf("shear field shows %q (%v), want the server's 422 detail", shearErr, err)
	}
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS(`#submit-turbine input[name="wind_kind"][value="upload"]`),
		chromedp.WaitVisible(chromedp.CSS(`#submit-turbine input[name="wind_file"]`)),
		chromedp.SetUploadFiles(chromedp.CSS(`#submit-turbine input[name="wind_file"]`), []string{bad}),
		testbrowser.ClickCSS("#submit-turbine button"),
	)
	if err != nil {
		t.Fatalf("submitting a bad wind file in the browser: %v", err)
	}
	// The field's text once it is not empty (Poll waits for a truthy value).
	detail, err := chromedp.Run(ctx, chromedp.Poll[string](fileErr))
	if err != nil {
		t.Fatalf("submitting a bad wind file in the browser: %v", err)
	}
	if !strings.HasPrefix(detail, "wind_file: words.wnd is not a uniform wind file") {
		t.Fatalf("wind-file field shows %q, want the server's 422 detail", detail)
	}
	if _, n, err := je.jobs.ListJobs(t.Context(), je.org.ID, turbinesim.JobFilter{Page: 1, PageSize: 10}); err != nil || n != 0 {
		t.Fatalf("refused submissions created jobs: %d (%v)", n, err)
	}

	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.CSS(`#submit-turbine input[name="wind_file"]`), []string{good}),
		testbrowser.ClickCSS("#submit-turbine button"),
		chromedp.WaitVisible(chromedp.CSS("#job-bar")),
	)
	if err != nil {
		t.Fatalf("submitting a uniform wind file in the browser: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(loc, "/jobs/")
	j, err := je.jobs.FindJob(t.Context(), je.org.ID, id)
	if err != nil || j.TurbineID == nil || *j.TurbineID != tb.ID || j.TMax != 1.5 {
		t.Fatalf("job %q from the browser: %+v (%v)", loc, j, err)
	}
	for k, v := range je.waitWind(j.ID) {
		if v < 8.99 || v > 9.01 {
			t.Fatalf("browser-uploaded wind: Wind1VelX[%d] = %g, want 9", k, v)
		}
	}
}
