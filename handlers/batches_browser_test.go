package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// In Chromium: a person opens the DLC wizard, picks the NREL 5 MW (loaded
// from the bundled demos), class II, category A, DLC 1.2 only, one seed per
// bin, a 10 m/s speed step and a 10-s window; the preview shows the run
// count and the price the API quotes for the same request, and both update
// when the seeds change. Submitting lands on the batch page, which shows the
// batch queued with 0 runs done and then (htmx refresh) a finished run.
func TestBrowserDLCWizardPreviewSubmitAndProgress(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	ctx := newBrowser(t)

	// What the API quotes for the wizard's request with 1 and 2 seeds.
	quote := func(seeds int) handlers.DLCPreview {
		body := fmt.Sprintf(`{"turbine_id":%q,"class":"II","category":"A","dlcs":["1.2"],"seeds_per_bin":%d,"speed_step":10,"overrides":{"1.2":{"duration":10}}}`,
			be.turbineID, seeds)
		resp, out := be.do(nil, request{method: "POST", path: "/dlcs/preview", body: body, header: be.verified})
		var pv handlers.DLCPreview
		if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(out), &pv) != nil || pv.Quote == nil {
			t.Fatalf("preview: %d %s", resp.StatusCode, out)
		}
		return pv
	}
	one, two := quote(1), quote(2)
	if two.Runs != 2*one.Runs || two.Quote.PriceCents <= one.Quote.PriceCents {
		t.Fatalf("quotes: 1 seed %d runs %d cents, 2 seeds %d runs %d cents", one.Runs, one.Quote.PriceCents, two.Runs, two.Quote.PriceCents)
	}

	// set changes a form control as a person does: value, then a change
	// event (the form's hx-trigger).
	set := func(sel, value string) chromedp.Action[chromedp.Void] {
		js := chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q;
			el.dispatchEvent(new Event("change", {bubbles: true})); return true })()`, sel, value))
		return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			_, err := js(ctx, t)
			return chromedp.Void{}, err
		}
	}
	quoteShown := func(runs int, cents int64) error {
		want := fmt.Sprintf("%d/%d", runs, cents)
		deadline := time.Now().Add(15 * time.Second)
		for {
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const q = document.getElementById("dlc-quote");
				return q ? q.dataset.runs + "/" + q.dataset.price : ((document.getElementById("dlc-preview-error") || {}).textContent || "") })()`))
			if err == nil && got == want {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("preview shows %q (%v), want runs/price %s", got, err, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	err := chromedp.Do(ctx,
		chromedp.Navigate(be.http.URL+"/login?next=%2Fdlcs%2Fnew"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), be.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#dlc-wizard")),
		// The preview of the defaults loads with the page.
		chromedp.WaitVisible(chromedp.CSS("#dlc-quote")),
	)
	if err != nil {
		t.Fatalf("opening the wizard: %v", err)
	}
	// The NREL 5 MW, as loaded from the demos, is the organization's turbine.
	name, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const s = document.querySelector('select[name="turbine_id"]');
		const o = [...s.options].find(o => o.value === `+fmt.Sprintf("%q", be.turbineID)+`); return o ? o.textContent : "" })()`))
	if err != nil || !strings.Contains(name, "NREL 5") {
		t.Fatalf("turbine option %q (%v), want the NREL 5 MW", name, err)
	}
	// Only DLC 1.2 checked (clicks fire change events).
	var toggle []string
	if toggle, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('input[name="dlcs"]')]
		.filter(c => c.checked !== (c.value === "1.2")).map(c => c.value)`)); err != nil {
		t.Fatal(err)
	}
	actions := []chromedp.Action[chromedp.Void]{set(`select[name="turbine_id"]`, be.turbineID), set(`select[name="class"]`, "II"),
		set(`select[name="category"]`, "A"), set(`input[name="speed_step"]`, "10"), set(`input[name="duration"]`, "10"),
		set(`input[name="seeds_per_bin"]`, "1")}
	for _, id := range toggle {
		actions = append(actions, chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name="dlcs"][value=%q]`, id))))
	}
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("filling the wizard: %v", err)
	}
	if err := quoteShown(one.Runs, one.Quote.PriceCents); err != nil {
		t.Fatal(err)
	}
	// Two seeds per bin: the count and the price update.
	if err := chromedp.Do(ctx, set(`input[name="seeds_per_bin"]`, "2")); err != nil {
		t.Fatal(err)
	}
	if err := quoteShown(two.Runs, two.Quote.PriceCents); err != nil {
		t.Fatal(err)
	}

	err = chromedp.Do(ctx,
		testbrowser.ClickCSS("#dlc-submit"),
		chromedp.WaitVisible(chromedp.CSS("#batch-progress")),
	)
	if err != nil {
		t.Fatalf("submitting: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.Contains(loc, "/batches/") {
		t.Fatalf("location after submit %q (%v)", loc, err)
	}
	batchID := loc[strings.LastIndex(loc, "/")+1:]
	progress := func() string {
		s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("batch-progress").textContent.replace(/\s+/g, " ")`))
		return s
	}
	if p := progress(); !strings.Contains(p, fmt.Sprintf("0 / %d runs done", two.Runs)) || !strings.Contains(p, "queued") {
		t.Fatalf("batch page progress %q, want queued with 0 / %d runs done", p, two.Runs)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#batch-progress tbody tr").length`))
	if err != nil || rows != two.Runs {
		t.Fatalf("batch page lists %d runs (%v), want %d", rows, err, two.Runs)
	}

	// One run finishes (cancelled before it started: no worker runs here);
	// the page's refresh shows it.
	resp, body := be.do(nil, request{method: "GET", path: "/batches/" + batchID, header: be.verified})
	var detail handlers.BatchDetail
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &detail) != nil || len(detail.Runs) != two.Runs {
		t.Fatalf("GET batch: %d %s", resp.StatusCode, body)
	}
	if _, err := be.jobs.CancelJob(t.Context(), be.org.ID, detail.Runs[0].JobID); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("1 / %d runs done", two.Runs)
	deadline := time.Now().Add(15 * time.Second)
	for p := progress(); !strings.Contains(p, want); p = progress() {
		if time.Now().After(deadline) {
			t.Fatalf("batch page progress %q, want %q", p, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
