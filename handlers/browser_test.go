package handlers_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
	"github.com/turbinesim/turbinesim/views"
)

// pollText reads an element's text until it is accepted (testbrowser.PollText).
var pollText = testbrowser.PollText

// equalTo accepts a text equal to want.
func equalTo(want string) func(string) bool { return func(s string) bool { return s == want } }

// newBrowser starts a headless Chromium with a fresh profile; a test has
// four minutes in it (two were too little for TestBrowserStudySharing on a
// machine at load 20, while CI on an idle machine needs seconds: the limit
// only has to stop a test that hangs).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return testbrowser.New(t, 4*time.Minute)
}

// A person opens the site, mistypes the password (htmx swaps the form with
// the error in place), then signs in and sees the dashboard with their
// organization read from the database.
func TestBrowserLoginShowsDashboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := newBrowser(t)

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "not the password"),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#login-error")),
	)
	if err != nil {
		t.Fatalf("failed login attempt: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.HasSuffix(loc, "/login?next=%2Fdashboard") {
		t.Fatalf("after a failed htmx login the page should stay put; location %q (%v)", loc, err)
	}

	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#password"), e.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#org-name")),
	)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	org, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#org-name")))
	if err != nil || org != "Acme Wind" {
		t.Fatalf("organization on the dashboard = %q (%v), want Acme Wind", org, err)
	}
	members, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#member-count")))
	if err != nil || members != "1" {
		t.Fatalf("member count = %q (%v), want 1", members, err)
	}
	loc, err = chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.HasSuffix(loc, "/dashboard") {
		t.Fatalf("location after login = %q (%v)", loc, err)
	}
	// The vendored scripts loaded from the embedded assets.
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof htmx === "object" && typeof htmx.onLoad === "function"`))
	if err != nil || !loaded {
		t.Fatalf("htmx not loaded on the dashboard (%v)", err)
	}

	// Logging out through the navigation form ends at the login page.
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS(`nav form[action="/logout"] button`),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
	)
	if err != nil {
		t.Fatalf("logout: %v", err)
	}
}

// chartOption is an ECharts option whose strings try to break out of the
// JSON block; they must be drawn as text, never run.
func chartOption(title string) map[string]any {
	return map[string]any{
		"animation": false,
		"title":     map[string]any{"text": title},
		"xAxis":     map[string]any{"type": "category", "data": []string{"a", "b", "c"}},
		"yAxis":     map[string]any{"type": "value"},
		"series":    []any{map[string]any{"type": "line", "name": title, "data": []float64{1, 3, 2}}},
	}
}

func renderComponent(c handlers.EchoContext, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}

// charts.js draws a views.Chart on page load and after an htmx swap (where
// the chart element is the swapped root itself), and hostile strings in the
// option stay data.
func TestBrowserChartsFromJSONBlocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	evil := `</script><script>window.pwned=1</script>`
	e.srv.Echo().GET("/test-chart", func(c handlers.EchoContext) error {
		page := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
			body := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
				if err := views.Chart("first", chartOption(evil), "").Render(ctx, w); err != nil {
					return err
				}
				_, err := io.WriteString(w, `<button id="more" hx-get="/test-chart-fragment" hx-target="#slot">more</button><div id="slot"></div>`)
				return err
			})
			return views.Layout(views.Page{Title: "Chart", Charts: true}).Render(templ.WithChildren(ctx, body), w)
		})
		return renderComponent(c, page)
	})
	e.srv.Echo().GET("/test-chart-fragment", func(c handlers.EchoContext) error {
		return renderComponent(c, views.Chart("second", chartOption("swapped in"), "h-64 w-full"))
	})

	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/test-chart"),
		chromedp.WaitVisible(chromedp.CSS("#first canvas")),
		testbrowser.ClickCSS("#more"),
		chromedp.WaitVisible(chromedp.CSS("#second canvas")),
	)
	if err != nil {
		t.Fatalf("charts were not drawn: %v", err)
	}
	pwned, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.pwned === 1`))
	if err != nil || pwned {
		t.Fatalf("a string in the chart option ran as script (pwned=%v, %v)", pwned, err)
	}
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`echarts.getInstanceByDom(document.getElementById("first")).getOption().title[0].text`))
	if err != nil || title != evil {
		t.Fatalf("chart title = %q (%v), want the literal string", title, err)
	}
}
