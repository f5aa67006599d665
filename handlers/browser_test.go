package handlers_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's Chromium. CI installs it (.ci/run), so there
// a missing browser fails the test; on a developer machine without it the
// test skips with a message.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := exec.LookPath(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found; .ci/run should have installed it")
	}
	t.Skip("chromium not installed (apt-get install -y chromium)")
	return ""
}

// newBrowser starts a headless Chromium with a fresh profile.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to sandbox as root
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
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
		chromedp.Click(chromedp.CSS("#login-submit")),
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
		chromedp.Click(chromedp.CSS("#login-submit")),
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
		chromedp.Click(chromedp.CSS(`nav form[action="/logout"] button`)),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
	)
	if err != nil {
		t.Fatalf("logout: %v", err)
	}
}
