package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// In Chromium: the sweep form with a range missing its stop shows the
// error next to the stop field, not on a bare error page; the person
// stays on the form, in the site's layout, with every value kept; a
// malformed value list is shown next to the list; nothing is submitted.
// The DLC wizard without any DLC shows its error next to the DLCs.
func TestBrowserFormErrorNextToFieldKeepsValues(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(be.http.URL+"/login?next=%2Fparametric%2Fnew"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), be.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#sweep-form")),
		chromedp.SetValue(chromedp.CSS(`#sweep-form select[name="param1"]`), "wind_speed"),
		chromedp.SendKeys(chromedp.CSS(`#sweep-form input[name="name"]`), "Rated region sweep"),
		chromedp.SendKeys(chromedp.CSS(`#sweep-form input[name="start1"]`), "6"),
		chromedp.SendKeys(chromedp.CSS(`#sweep-form input[name="step1"]`), "2"),
		testbrowser.ClickCSS("#sweep-submit"),
	)
	if err != nil {
		t.Fatalf("submitting the sweep: %v", err)
	}
	stopErr, err := chromedp.Run(ctx, chromedp.Poll[string](`document.querySelector('[data-field-error="stop1"]').textContent`))
	if err != nil || !strings.HasPrefix(stopErr, "stop1: required") {
		t.Fatalf("stop field shows %q (%v)", stopErr, err)
	}
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[location.pathname,
		document.querySelector('#sweep-form input[name="name"]').value,
		document.querySelector('#sweep-form input[name="start1"]').value,
		document.querySelector('#sweep-form input[name="step1"]').value,
		document.querySelector('#sweep-form select[name="param1"]').value,
		document.getElementById("whoami") ? "nav" : "no nav",
		document.querySelector('[data-field-error="values1"]').textContent].join("|")`))
	if err != nil || state != "/parametric/new|Rated region sweep|6|2|wind_speed|nav|" {
		t.Fatalf("after the error the page is %q (%v), want the form with its values", state, err)
	}
	// A bad value list: the detail moves next to the list.
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#sweep-form input[name="values1"]`), "6, eight"),
		testbrowser.ClickCSS("#sweep-submit"),
	)
	if err != nil {
		t.Fatal(err)
	}
	valuesErr, err := chromedp.Run(ctx, chromedp.Poll[string](`document.querySelector('[data-field-error="values1"]').textContent`))
	if err != nil || !strings.Contains(valuesErr, "eight") {
		t.Fatalf("values field shows %q (%v)", valuesErr, err)
	}
	if stop, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-field-error="stop1"]').textContent`)); stop != "" {
		t.Fatalf("the old error stayed next to stop: %q", stop)
	}
	if n := be.count(`SELECT count(*) FROM batches`); n != 0 {
		t.Fatalf("refused sweeps created %d batches", n)
	}

	// The DLC wizard with no DLC ticked.
	err = chromedp.Do(ctx,
		chromedp.Navigate(be.http.URL+"/dlcs/new"),
		chromedp.WaitVisible(chromedp.CSS("#dlc-wizard")),
		chromedp.SendKeys(chromedp.CSS(`#dlc-wizard input[name="name"]`), "Empty basis"),
	)
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll('#dlc-wizard input[name="dlcs"]').forEach(b => b.checked = false), true`))
	}
	if err == nil {
		err = chromedp.Do(ctx, testbrowser.ClickCSS("#dlc-submit"))
	}
	if err != nil {
		t.Fatal(err)
	}
	dlcErr, err := chromedp.Run(ctx, chromedp.Poll[string](`document.querySelector('[data-field-error="dlcs"]').textContent`))
	if err != nil || !strings.HasPrefix(dlcErr, "dlcs: ") {
		t.Fatalf("DLC wizard error %q (%v)", dlcErr, err)
	}
	if name, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + "|" + document.querySelector('#dlc-wizard input[name="name"]').value`)); name != "/dlcs/new|Empty basis" {
		t.Fatalf("DLC wizard after the error: %q", name)
	}
	t.Logf("sweep: %q; values: %q; DLC wizard: %q", stopErr, valuesErr, dlcErr)
}

// A browser that posts a form without JavaScript gets the error inside
// the site's layout, with its navigation, not a bare error page.
func TestFormErrorPageHasNavigation(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	form := url.Values{"turbine_id": {be.turbineID}, "param1": {"wind_speed"}, "start1": {"6"}, "step1": {"2"}}
	resp, body := be.do(nil, request{method: "POST", path: "/parametric/batch-submit", body: form.Encode(),
		header: map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html",
			"Content-Type": "application/x-www-form-urlencoded"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "stop1: required") ||
		!strings.Contains(body, `id="whoami"`) || !strings.Contains(body, `href="/jobs"`) {
		t.Fatalf("error page %d without the layout's navigation: %.600s", resp.StatusCode, body)
	}
}
