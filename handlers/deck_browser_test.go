package handlers_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// A person opens the NREL 5 MW's page: its deck's file tree, a file's
// text; downloads the deck as ZIP, uploads that ZIP unchanged as a new
// turbine, and the comparison page finds the two decks equal.
func TestBrowserDeckZipRoundTrip(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, catalog)
	ctx := newBrowser(t)
	err = chromedp.Do(ctx,
		chromedp.Navigate(te.http.URL+"/login?next=%2Fturbines%2Fdemos"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), te.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#load-nrel-5mw-land")),
		testbrowser.ClickCSS("#load-nrel-5mw-land"),
		chromedp.WaitVisible(chromedp.CSS("#deck-file-tree")),
	)
	if err != nil {
		t.Fatalf("demo page with its files: %v", err)
	}
	demoURL, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	if err != nil {
		t.Fatal(err)
	}
	files, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("[data-deck-file]")).map(a => a.dataset.deckFile)`))
	if err != nil || len(files) < 5 {
		t.Fatalf("file tree %v (%v)", files, err)
	}
	var elastoDyn string
	for _, f := range files {
		if strings.Contains(strings.ToLower(f), "elastodyn") && strings.HasSuffix(f, ".dat") && !strings.Contains(strings.ToLower(f), "blade") && !strings.Contains(strings.ToLower(f), "tower") {
			elastoDyn = f
		}
	}
	if elastoDyn == "" {
		t.Fatalf("no ElastoDyn file in %v", files)
	}
	if err := testbrowser.Click(ctx, `[data-deck-file="`+elastoDyn+`"]`, 10*time.Second); err != nil {
		t.Fatalf("open %s: %v", elastoDyn, err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#deck-file-text"))); err != nil {
		t.Fatalf("open %s: %v", elastoDyn, err)
	}
	if text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#deck-file-text"))); err != nil || !strings.Contains(text, "TowerHt") {
		t.Fatalf("%s shows %.200q (%v)", elastoDyn, text, err)
	}

	// Download the ZIP with the page's own link and session, in the page.
	err = chromedp.Do(ctx, chromedp.Navigate(te.http.URL+demoURL), chromedp.WaitVisible(chromedp.CSS("#deck-download")))
	if err != nil {
		t.Fatal(err)
	}
	b64, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector("#deck-download").href)
		.then(r => { if (!r.ok || r.headers.get("Content-Type") !== "application/zip") throw new Error("download " + r.status); return r.arrayBuffer(); })
		.then(b => { let s = ""; new Uint8Array(b).forEach(c => s += String.fromCharCode(c)); return btoa(s); })`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("download: %v", err)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) < 1000 {
		t.Fatalf("downloaded %d bytes (%v)", len(raw), err)
	}
	zipPath := filepath.Join(t.TempDir(), "NREL 5 MW.zip")
	if err := os.WriteFile(zipPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}

	// Upload it unchanged as a new turbine.
	err = chromedp.Do(ctx,
		chromedp.Navigate(te.http.URL+"/turbines"),
		testbrowser.ClickCSS("#upload-panel summary"),
		chromedp.WaitVisible(chromedp.CSS("#upload-file")),
		chromedp.SetUploadFiles(chromedp.CSS("#upload-file"), []string{zipPath}),
		chromedp.SetValue(chromedp.CSS("#upload-name"), "Re-uploaded 5 MW"),
		testbrowser.ClickCSS("#upload-submit"),
		chromedp.WaitVisible(chromedp.CSS("#deck-file-tree")),
	)
	if err != nil {
		t.Fatalf("re-upload: %v", err)
	}
	if name, err := pollText(ctx, "#turbine-name", equalTo("Re-uploaded 5 MW"), 10*time.Second); err != nil {
		t.Fatalf("uploaded turbine page %q (%v)", name, err)
	}
	var uploadedID string
	if err := te.db.GetContext(context.Background(), &uploadedID, `SELECT id FROM turbines WHERE name = 'Re-uploaded 5 MW'`); err != nil {
		t.Fatal(err)
	}

	// Compare: pick the re-uploaded turbine by name on the demo's page.
	err = chromedp.Do(ctx,
		chromedp.Navigate(te.http.URL+demoURL),
		testbrowser.ClickCSS("#deck-compare"),
		chromedp.WaitVisible(chromedp.CSS("#deck-diff-with")),
		chromedp.SetValue(chromedp.CSS("#deck-diff-with"), uploadedID),
		testbrowser.ClickCSS("#deck-diff-submit"),
	)
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	if v, err := pollText(ctx, "#deck-diff-equal", func(s string) bool { return strings.Contains(s, "are equal") }, 10*time.Second); err != nil {
		table, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
		t.Fatalf("decks not equal after the round trip: %q %v\n%s", v, err, table)
	}
}
