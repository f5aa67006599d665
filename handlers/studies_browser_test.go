package handlers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// A member gathers a finished job into a study, uploads an artifact,
// enables sharing, and a reviewer opens the link in a fresh browser
// without a session, sees the study and downloads the file; after the link
// is rotated the old URL fails and the new one works.
func TestBrowserStudySharing(t *testing.T) {
	t.Parallel()
	jobsSvc := &lazyJobs{}
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes, func(_ *handlers.Config, svc *handlers.Services) { svc.Jobs = jobsSvc })
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "trees"))
	if err != nil {
		t.Fatal(err)
	}
	jobsSvc.JobService = db.NewJobService(e.db, trees, nil, nil)
	var jobID string
	err = e.db.Get(&jobID, `INSERT INTO jobs (organization_id, status, entrypoint, input_key, t_max, sim_time,
		price_cents, tokens, charge_month, started_at, finished_at)
		VALUES ($1, 'succeeded', 'Main.fst', 'inputs', 60, 60, 0, 0, date_trunc('month', now()), now(), now()) RETURNING id`, e.org.ID)
	if err != nil {
		t.Fatalf("inserting a finished job: %v", err)
	}
	artifact := filepath.Join(t.TempDir(), "DEL-summary.csv")
	const content = "channel,DEL_kNm\nRootMyb1,15234.5\n"
	if err := os.WriteFile(artifact, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}

	owner := newBrowser(t)
	err = chromedp.Do(owner,
		chromedp.Navigate(e.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), e.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(e.http.URL+"/studies"),
		chromedp.WaitVisible(chromedp.CSS("#study-create")),
		chromedp.SendKeys(chromedp.CSS("#study-title"), "Rated-wind loads"),
		chromedp.SendKeys(chromedp.CSS("#study-description"), "Fatigue at 11.4 m/s"),
		testbrowser.ClickCSS("#study-create-submit"),
		chromedp.WaitVisible(chromedp.CSS("#study-editor")),
		// Link the finished job: tick it in the list of runs.
		testbrowser.ClickCSS(`input.pick-jobs[value="`+jobID+`"]`),
		testbrowser.ClickCSS("#edit-save"),
		chromedp.WaitVisible(chromedp.CSS("#edit-status.text-green-700")),
	)
	if err != nil {
		t.Fatalf("creating the study: %v", err)
	}
	attr, err := chromedp.Run(owner, chromedp.AttributeValue(chromedp.CSS("#study-editor"), "data-study-id"))
	if err != nil {
		t.Fatal(err)
	}
	studyID := attr.Value
	var linked []string
	if err := e.db.Select(&linked, `SELECT unnest(job_ids)::text FROM studies WHERE id = $1`, studyID); err != nil || len(linked) != 1 || linked[0] != jobID {
		t.Fatalf("linked jobs %v (%v), want [%s]", linked, err, jobID)
	}

	// Upload through the file input; the progress bar reaches 100.
	err = chromedp.Do(owner,
		chromedp.SetUploadFiles(chromedp.CSS("#artifact-file"), []string{artifact}),
		testbrowser.ClickCSS("#artifact-upload"),
		chromedp.WaitVisible(chromedp.CSS(`#artifact-list a.artifact-download`)),
	)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	progress, err := chromedp.Run(owner, chromedp.Evaluate[float64](`document.querySelector("#artifact-progress").value`))
	if err != nil || progress != 100 {
		t.Fatalf("upload progress %v (%v)", progress, err)
	}

	// The notes panel adds a private note and lists it after a reload.
	err = chromedp.Do(owner,
		chromedp.SendKeys(chromedp.CSS("#note-body"), "Check tower clearance at 11.4 m/s"),
		testbrowser.ClickCSS("#note-add"),
		chromedp.WaitVisible(chromedp.CSS("#notes-list li")),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS("#notes-list li")),
	)
	if err != nil {
		t.Fatalf("notes panel: %v", err)
	}
	noteText, err := chromedp.Run(owner, chromedp.Text(chromedp.CSS("#notes-list li")))
	if err != nil || !strings.Contains(noteText, "Check tower clearance at 11.4 m/s") || !strings.Contains(noteText, "private") {
		t.Fatalf("note shown as %q (%v)", noteText, err)
	}

	// Enable sharing: the link and its QR code appear.
	if err := chromedp.Do(owner, testbrowser.ClickCSS("#share-enable"), chromedp.WaitVisible(chromedp.CSS("#share-result"))); err != nil {
		t.Fatalf("enable sharing: %v", err)
	}
	firstURL, err := chromedp.Run(owner, chromedp.Value(chromedp.CSS("#share-url")))
	if err != nil {
		t.Fatal(err)
	}
	qr, err := chromedp.Run(owner, chromedp.AttributeValue(chromedp.CSS("#share-qr"), "src"))
	if err != nil || !strings.HasPrefix(firstURL, e.http.URL+"/s/") || len(strings.TrimPrefix(firstURL, e.http.URL+"/s/")) != 64 ||
		!strings.HasPrefix(qr.Value, "data:image/png;base64,") {
		t.Fatalf("share link %q, qr %.40q (%v)", firstURL, qr.Value, err)
	}

	// A reviewer in a fresh browser (own profile, no cookies).
	reviewer := newBrowser(t)
	if err := chromedp.Do(reviewer, chromedp.Navigate(firstURL), chromedp.WaitVisible(chromedp.CSS("#public-title"))); err != nil {
		t.Fatalf("reviewer opens the link: %v", err)
	}
	title, err := chromedp.Run(reviewer, chromedp.Text(chromedp.CSS("#public-title")))
	if err != nil || title != "Rated-wind loads" {
		t.Fatalf("reviewer sees title %q (%v)", title, err)
	}
	links, err := chromedp.Run(reviewer, chromedp.Evaluate[int](`document.querySelectorAll('nav, a[href^="/dashboard"], a[href^="/studies"], a[href^="/jobs"]').length`))
	if err != nil || links != 0 {
		t.Fatalf("public page has %d links into the application (%v)", links, err)
	}
	downloaded, err := chromedp.Run(reviewer, chromedp.Evaluate[string](
		`fetch(document.querySelector("a.public-download").href, {credentials: "omit"}).then(r => r.ok ? r.text() : "HTTP " + r.status)`,
		chromedp.EvalAwaitPromise))
	if err != nil || downloaded != content {
		t.Fatalf("reviewer downloaded %q (%v)", downloaded, err)
	}

	// Rotate: the old URL fails at once, the new one works.
	err = chromedp.Do(owner, testbrowser.ClickCSS("#share-rotate"))
	if err == nil {
		_, err = chromedp.Run(owner, chromedp.Poll[bool](`document.querySelector("#share-url").value !== `+jsString(firstURL),
			chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err != nil {
		t.Fatalf("rotate: %v", err)
	}
	secondURL, err := chromedp.Run(owner, chromedp.Value(chromedp.CSS("#share-url")))
	if err != nil || secondURL == firstURL || !strings.HasPrefix(secondURL, e.http.URL+"/s/") {
		t.Fatalf("rotated link %q (%v)", secondURL, err)
	}
	if err := chromedp.Do(reviewer, chromedp.Navigate(firstURL), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(reviewer, chromedp.Text(chromedp.CSS("body")))
	if err != nil || strings.Contains(body, "Rated-wind loads") || strings.Contains(body, "DEL-summary.csv") {
		t.Fatalf("old URL after rotation still shows the study: %q (%v)", body, err)
	}
	if err := chromedp.Do(reviewer, chromedp.Navigate(secondURL), chromedp.WaitVisible(chromedp.CSS("#public-title"))); err != nil {
		t.Fatalf("new URL: %v", err)
	}
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
