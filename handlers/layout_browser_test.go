package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// On a 390 px phone screen the pages fit the screen: the navigation wraps
// instead of widening the page (it was 866 px wide, so every page scrolled
// sideways), and a table wider than the screen scrolls by itself. A new
// organization's dashboard says what to do first.
func TestBrowserPhoneWidthPagesFit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(e.http.URL+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), e.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
	)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	steps, err := pollText(ctx, "#getting-started", func(s string) bool { return strings.Contains(s, "Add a reference turbine") }, 5*time.Second)
	if err != nil || !strings.Contains(steps, "Run a simulation") {
		t.Fatalf("getting-started steps on a new organization's dashboard: %q (%v)", steps, err)
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#getting-started a").getAttribute("href")`))
	if err != nil || href != "/turbines/demos" {
		t.Fatalf("first step links to %q (%v), want /turbines/demos", href, err)
	}
	// /account has the wide sessions table.
	for _, path := range []string{"/dashboard", "/account"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(e.http.URL+path)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h, err := pollText(ctx, "main h1", func(s string) bool { return s != "" }, 10*time.Second); err != nil || h == "" {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s shows no heading (%v): %s", path, err, body)
		}
		width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		if err != nil || width > 390 {
			t.Errorf("%s is %d px wide on a 390 px screen (%v)", path, width, err)
		}
	}
}

// Every page names its icon inline, so browsers do not ask for
// /favicon.ico (a 404 in the log on every page load).
func TestPagesDeclareAnInlineIcon(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, page := e.do(e.client(), request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	if !strings.Contains(page, `<link rel="icon" href="data:image/svg+xml,`) {
		t.Fatalf("login page declares no inline icon: %s", page)
	}
}
