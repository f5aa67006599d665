package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
)

// A person loads the NREL 5 MW reference turbine from the gallery, sees the
// chord and polar charts on its page, clones it, edits the clone's hub
// height and deletes the clone (confirming both dialogs).
func TestBrowserTurbineDemoCloneEditDelete(t *testing.T) {
	t.Parallel()
	catalog, err := turbinesim.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, catalog)
	ctx := newBrowser(t)
	// hx-confirm asks through window.confirm; the person says yes.
	acceptConfirm := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](`window.confirm = function () { return true; }; true`)(ctx, tg)
		return err
	})
	err = chromedp.Do(ctx,
		chromedp.Navigate(te.http.URL+"/login?next=%2Fturbines%2Fdemos"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), te.passwd),
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.CSS("#load-nrel-5mw-land")),
		chromedp.Click(chromedp.CSS("#load-nrel-5mw-land")),
		// The detail page draws its charts (a canvas inside each container).
		chromedp.WaitVisible(chromedp.CSS("#chord-chart canvas")),
		chromedp.WaitVisible(chromedp.CSS("#polar-chart canvas")),
		// The organisation's notes on this turbine sit below the charts.
		chromedp.WaitVisible(chromedp.CSS(`#notes-panel[data-target-type="turbine"]`)),
	)
	if err != nil {
		t.Fatalf("load demo and see charts: %v", err)
	}
	name, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#turbine-name")))
	if err != nil || name != "NREL 5 MW (land-based)" {
		t.Fatalf("demo page name %q (%v)", name, err)
	}
	err = chromedp.Do(ctx,
		acceptConfirm,
		chromedp.Click(chromedp.CSS("#clone-button")),
		chromedp.WaitVisible(chromedp.CSS("#turbine-editor")),
	)
	if err != nil {
		t.Fatalf("clone: %v", err)
	}
	if name, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#turbine-name"))); err != nil || name != "NREL 5 MW (land-based) (copy)" {
		t.Fatalf("clone page name %q (%v)", name, err)
	}
	cloneURL, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	cloneID := cloneURL[strings.LastIndex(cloneURL, "/")+1:]
	// A marker on the old page tells the reloaded page apart.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.beforeEdit = true; true`)); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#edit-hub_height_m"), "123.5"),
		chromedp.Click(chromedp.CSS("#editor-save")),
	)
	if err != nil {
		t.Fatalf("edit: %v", err)
	}
	// The edit reaches the database (the page then reloads).
	var hub float64
	for i := 0; i < 100 && hub != 123.5; i++ {
		time.Sleep(50 * time.Millisecond)
		_ = te.db.GetContext(context.Background(), &hub, `SELECT coalesce(hub_height_m, 0) FROM turbines WHERE id = $1`, cloneID)
	}
	if hub != 123.5 {
		t.Fatalf("hub height after the edit: %g", hub)
	}
	// The page reloads (HX-Redirect) and its editor shows the stored value.
	// (Evaluations during the navigation fail; they are retried.)
	shown := ""
	for i := 0; i < 100 && shown != "123.5"; i++ {
		time.Sleep(50 * time.Millisecond)
		shown, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`(!window.beforeEdit && document.readyState === "complete" && document.querySelector("#edit-hub_height_m")) ? document.querySelector("#edit-hub_height_m").value : ""`))
	}
	if shown != "123.5" {
		t.Fatalf("editor shows %q after the reload", shown)
	}
	err = chromedp.Do(ctx,
		acceptConfirm,
		chromedp.Click(chromedp.CSS("#delete-button")),
		chromedp.WaitVisible(chromedp.CSS("#turbine-list")),
	)
	if err != nil {
		t.Fatalf("delete: %v", err)
	}
	var n int
	if err := te.db.GetContext(context.Background(), &n, `SELECT count(*) FROM turbines WHERE id = $1`, cloneID); err != nil || n != 0 {
		t.Fatalf("clone still stored: %d (%v)", n, err)
	}
	list, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#turbine-list")))
	if err != nil || !strings.Contains(list, "NREL 5 MW (land-based)") || strings.Contains(list, "(copy)") {
		t.Fatalf("list after delete: %q (%v)", list, err)
	}
}
