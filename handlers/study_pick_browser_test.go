package handlers_test

import (
	"context"
	"fmt"
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

type lazyStudies struct{ turbinesim.StudyService }

// A study is built by picking a batch and a run by name from filterable
// lists (no ids typed); its shared page shows the batch's power-curve
// table and charts, read-only, with no ids and no links into the app.
func TestBrowserStudyPicksByNameAndSharesBatch(t *testing.T) {
	t.Parallel()
	studies := &lazyStudies{}
	re := newResultEnv(t, func(_ *handlers.Config, svc *handlers.Services) { svc.Studies = studies })
	store, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	studies.StudyService = db.NewStudyService(re.db, store)

	batch := re.insertBatch(re.org.ID)
	if _, err := re.db.ExecContext(context.Background(), `UPDATE batches SET name = 'Rated-wind power curve' WHERE id = $1`, batch); err != nil {
		t.Fatal(err)
	}
	other := re.insertBatch(re.org.ID)
	if _, err := re.db.ExecContext(context.Background(), `UPDATE batches SET name = 'Idling check' WHERE id = $1`, other); err != nil {
		t.Fatal(err)
	}
	for i, w := range []float64{6, 8, 10} {
		job := re.insertJob(re.org.ID, "succeeded", batch, map[string]string{"run.outb": syntheticOutb(t, w, 400*w)})
		re.nameRun(batch, job, fmt.Sprintf("DLC1.1_V%.1f_S1_Y+0", w), i)
	}

	ctx := newBrowser(t)
	err = chromedp.Do(ctx,
		chromedp.Navigate(re.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), re.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
		chromedp.Navigate(re.http.URL+"/studies"),
		chromedp.SendKeys(chromedp.CSS("#study-title"), "Power curve review"),
		testbrowser.ClickCSS("#study-create-submit"),
		chromedp.WaitVisible(chromedp.CSS("#pick-batches")),
		// Filter the batches by name and tick the one found.
		chromedp.SendKeys(chromedp.CSS("#pick-batches-filter"), "rated-wind"),
	)
	if err != nil {
		t.Fatalf("study editor: %v", err)
	}
	// The filter applies once the editor's script has run, which may be
	// after the keystrokes while the page finishes loading: poll.
	var visible []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		visible, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#pick-batches li:not([hidden])")).map(li => li.textContent.trim())`))
		if (err == nil && len(visible) == 1) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || len(visible) != 1 || !strings.Contains(visible[0], "Rated-wind power curve") {
		t.Fatalf("batches after filtering: %q (%v)", visible, err)
	}
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS("#pick-batches li:not([hidden]) input"),
		chromedp.SendKeys(chromedp.CSS("#pick-jobs-filter"), "rated-wind"),
		testbrowser.ClickCSS("#pick-jobs li:not([hidden]) input"),
		testbrowser.ClickCSS("#edit-save"),
		chromedp.WaitVisible(chromedp.CSS("#edit-status.text-green-700")),
	)
	if err != nil {
		t.Fatalf("pick and save: %v", err)
	}
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#study-editor"), "data-study-id"))
	if err != nil {
		t.Fatal(err)
	}
	var linked struct {
		Batches []string `db:"batches"`
		Jobs    int      `db:"jobs"`
	}
	if err := re.db.GetContext(context.Background(), &linked.Jobs, `SELECT cardinality(job_ids) FROM studies WHERE id = $1`, attr.Value); err != nil || linked.Jobs != 1 {
		t.Fatalf("linked runs %d (%v)", linked.Jobs, err)
	}
	if err := re.db.SelectContext(context.Background(), &linked.Batches, `SELECT unnest(batch_ids)::text FROM studies WHERE id = $1`, attr.Value); err != nil ||
		len(linked.Batches) != 1 || linked.Batches[0] != batch {
		t.Fatalf("linked batches %v (%v), want the rated-wind batch", linked.Batches, err)
	}

	// Publish and open the shared page in a fresh browser.
	if err := chromedp.Do(ctx, testbrowser.ClickCSS("#share-enable"), chromedp.WaitVisible(chromedp.CSS("#share-result"))); err != nil {
		t.Fatalf("enable sharing: %v", err)
	}
	shareURL, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#share-url")))
	if err != nil {
		t.Fatal(err)
	}
	reviewer := newBrowser(t)
	err = chromedp.Do(reviewer,
		chromedp.Navigate(shareURL),
		chromedp.WaitVisible(chromedp.CSS(".public-batch-table")),
		chromedp.WaitVisible(chromedp.CSS("#batch1-power canvas")),
	)
	if err != nil {
		t.Fatalf("reviewer page with the batch: %v", err)
	}
	section, err := chromedp.Run(reviewer, chromedp.Text(chromedp.CSS(".public-batch")))
	if err != nil || !strings.Contains(section, "Rated-wind power curve") || !strings.Contains(section, "parametric") {
		t.Fatalf("batch section %q (%v)", section, err)
	}
	rows, err := chromedp.Run(reviewer, chromedp.Evaluate[int](`document.querySelectorAll(".public-batch-table tbody tr").length`))
	if err != nil || rows != 3 {
		t.Fatalf("%d curve bins on the shared page (%v), want 3", rows, err)
	}
	html, err := chromedp.Run(reviewer, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil || strings.Contains(html, batch) || strings.Contains(html, attr.Value) {
		t.Fatalf("shared page shows an internal id (%v)", err)
	}
	links, err := chromedp.Run(reviewer, chromedp.Evaluate[int](`document.querySelectorAll('nav, a[href^="/analysis"], a[href^="/batches"], a[href^="/jobs"], a[href^="/studies"]').length`))
	if err != nil || links != 0 {
		t.Fatalf("shared page links into the app: %d (%v)", links, err)
	}
}
