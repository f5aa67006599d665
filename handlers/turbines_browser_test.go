package handlers_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// A person loads the NREL 5 MW reference turbine from the gallery, sees the
// chord and polar charts on its page, clones it, edits the clone's hub
// height, edits its controller_config JSON (first broken: the 422 names the
// blob and the position; then valid), deletes the clone (confirming both
// dialogs), and uploads a ZIP holding two .fst files: the form asks which
// one is the main file and shows the upload's progress bar.
func TestBrowserTurbineDemoCloneEditDelete(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
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
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#load-nrel-5mw-land")),
		testbrowser.ClickCSS("#load-nrel-5mw-land"),
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
		testbrowser.ClickCSS("#clone-button"),
		chromedp.WaitVisible(chromedp.CSS("#turbine-editor")),
	)
	if err != nil {
		t.Fatalf("clone: %v", err)
	}
	if name, err = pollText(ctx, "#turbine-name", equalTo("NREL 5 MW (land-based) (copy)"), 5*time.Second); err != nil || name != "NREL 5 MW (land-based) (copy)" {
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
		testbrowser.ClickCSS("#editor-save"),
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
	editBlobs(t, ctx, te, cloneID)
	err = chromedp.Do(ctx,
		acceptConfirm,
		testbrowser.ClickCSS("#delete-button"),
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
	uploadWithChoiceAndProgress(t, ctx, te, catalog)
}

// setTyped sets a field's value and fires the input event typing would.
func setTyped(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		v, _ := json.Marshal(value)
		q, _ := json.Marshal(sel)
		_, err := chromedp.Evaluate[bool](`(function () { var el = document.querySelector(`+string(q)+`);
			el.value = `+string(v)+`; el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)(ctx, tg)
		return err
	})
}

// editBlobs edits the clone's controller_config on its page: broken JSON
// is flagged while typing and refused by the server with a 422 naming the
// blob, line and column (the row keeps its value); valid JSON is saved,
// the row is no longer validated and the reloaded page shows the JSON.
func editBlobs(t *testing.T, ctx context.Context, te *turbineEnv, cloneID string) {
	t.Helper()
	var before string
	if err := te.db.GetContext(context.Background(), &before, `SELECT coalesce(controller_config::text, '') FROM turbines WHERE id = $1`, cloneID); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS("#blob-editor")),
		setTyped("#edit-controller_config", "{\n  \"kp\": 0.0123,\n  \"ki\": \n}"),
		// The page flags the text before it is sent.
		chromedp.WaitVisible(chromedp.CSS("#error-controller_config")),
		testbrowser.ClickCSS("#blobs-save"),
		chromedp.WaitVisible(chromedp.CSS("#flash #error")),
	)
	if err != nil {
		t.Fatalf("broken JSON: %v", err)
	}
	msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#flash #error")))
	if err != nil || !strings.Contains(msg, "422") || !strings.Contains(msg, "controller_config: invalid JSON at line 4, column 1") {
		t.Fatalf("error shown for broken JSON: %q (%v)", msg, err)
	}
	var after string
	if err := te.db.GetContext(context.Background(), &after, `SELECT coalesce(controller_config::text, '') FROM turbines WHERE id = $1`, cloneID); err != nil || after != before {
		t.Fatalf("refused edit changed controller_config from %q to %q (%v)", before, after, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.beforeBlobSave = true; true`)); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		setTyped("#edit-controller_config", "{\n  \"kp\": 0.0123,\n  \"ki\": 0.0021\n}"),
		testbrowser.ClickCSS("#blobs-save"),
	)
	if err != nil {
		t.Fatalf("valid JSON: %v", err)
	}
	var kp float64
	var validated bool
	for i := 0; i < 100 && kp != 0.0123; i++ {
		time.Sleep(50 * time.Millisecond)
		_ = te.db.QueryRowContext(context.Background(), `SELECT coalesce((controller_config->>'kp')::float8, 0), is_validated FROM turbines WHERE id = $1`, cloneID).Scan(&kp, &validated)
	}
	if kp != 0.0123 || validated {
		t.Fatalf("after saving valid JSON: kp %g, is_validated %v", kp, validated)
	}
	shown := ""
	for i := 0; i < 100 && !strings.Contains(shown, "0.0021"); i++ {
		time.Sleep(50 * time.Millisecond)
		shown, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`(!window.beforeBlobSave && document.readyState === "complete" && document.querySelector("#edit-controller_config")) ? document.querySelector("#edit-controller_config").value : ""`))
	}
	if !strings.Contains(shown, `"ki": 0.0021`) {
		t.Fatalf("blob editor shows %q after the reload", shown)
	}
	ro, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#advanced-read-only")))
	if err != nil || !strings.Contains(ro, "Read-only") {
		t.Fatalf("Advanced Settings should say it is read-only: %q (%v)", ro, err)
	}
}

// uploadWithChoiceAndProgress uploads the NREL 5 MW deck zipped with a
// second .fst: the form lists both and asks which is the main file; while
// the body is sent the progress bar is shown and filled.
func uploadWithChoiceAndProgress(t *testing.T, ctx context.Context, te *turbineEnv, catalog turbinesim.DemoCatalog) {
	t.Helper()
	deckDir := t.TempDir()
	row, err := catalog.Build("nrel-5mw-land", deckDir)
	if err != nil {
		t.Fatal(err)
	}
	mainFile := *row.MainFile
	b, err := os.ReadFile(filepath.Join(deckDir, filepath.FromSlash(mainFile)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deckDir, "Alternative.fst"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	zipPath := filepath.Join(t.TempDir(), "two-fst.zip")
	if err := os.WriteFile(zipPath, zipDir(t, deckDir, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	// The page's own progress handler runs on document; this recorder on
	// window sees each event after it and keeps what the bar showed in
	// sessionStorage, which outlives the redirect to the new turbine.
	record := chromedp.Evaluate[bool](`sessionStorage.removeItem("progress");
		window.addEventListener("htmx:xhr:progress", function () {
			var row = document.querySelector("#upload-progress-row"), bar = document.querySelector("#upload-progress");
			var seen = JSON.parse(sessionStorage.getItem("progress") || "[]");
			seen.push({shown: !!row && !row.hidden && row.offsetParent !== null, value: bar ? bar.value : -1, max: bar ? bar.max : -1});
			sessionStorage.setItem("progress", JSON.stringify(seen));
		}); true`)
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS("#upload-panel summary"),
		chromedp.WaitVisible(chromedp.CSS("#upload-file")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error { _, err := record(ctx, tg); return err }),
		chromedp.SetUploadFiles(chromedp.CSS("#upload-file"), []string{zipPath}),
		chromedp.WaitVisible(chromedp.CSS("#upload-fst-choice")),
	)
	if err != nil {
		t.Fatalf("choose the ZIP: %v", err)
	}
	opts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#upload-fst-choice option")).map(o => o.value)`))
	if err != nil || len(opts) != 3 || opts[0] != "" || !slices.Contains(opts, "Alternative.fst") || !slices.Contains(opts, mainFile) {
		t.Fatalf("the .fst choice offers %q (%v); want a prompt, Alternative.fst and %s", opts, err, mainFile)
	}
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#upload-entrypoint").disabled && document.querySelector("#upload-progress-row").hidden`))
	if err != nil || !hidden {
		t.Fatalf("before sending, the free-text entrypoint should be off and the progress bar hidden (%v)", err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#upload-fst-choice"), mainFile),
		chromedp.SetValue(chromedp.CSS("#upload-name"), "Uploaded with a choice"),
		testbrowser.ClickCSS("#upload-submit"),
		chromedp.WaitVisible(chromedp.CSS("#chord-chart")),
	)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	if name, err := pollText(ctx, "#turbine-name", equalTo("Uploaded with a choice"), 5*time.Second); err != nil || name != "Uploaded with a choice" {
		t.Fatalf("uploaded turbine page %q (%v)", name, err)
	}
	var stored string
	if err := te.db.GetContext(context.Background(), &stored, `SELECT main_file FROM turbines WHERE name = 'Uploaded with a choice'`); err != nil || stored != mainFile {
		t.Fatalf("stored main file %q (%v), want the chosen %s", stored, err, mainFile)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("progress") || "[]"`))
	if err != nil {
		t.Fatal(err)
	}
	var seen []struct {
		Shown      bool
		Value, Max float64
	}
	if err := json.Unmarshal([]byte(raw), &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no htmx:xhr:progress event during the upload")
	}
	for _, p := range seen {
		if !p.Shown || p.Max != 100 {
			t.Fatalf("during the upload the progress bar was %+v; want it shown with max 100", p)
		}
	}
	if last := seen[len(seen)-1]; last.Value != 100 {
		t.Errorf("progress ended at %g %%, want 100 (events: %+v)", last.Value, seen)
	}
}
