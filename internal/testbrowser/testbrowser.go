// Package testbrowser starts the real Chromium that browser tests drive
// through chromedp: the handlers' page tests and the `make run` test of
// cmd/turbined share it.
package testbrowser

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/turbinesim/turbinesim/internal/pdfprint"
)

// ChromiumPath finds Debian's Chromium (or $CHROMIUM). CI installs it
// (.ci/run), so there a missing browser fails the test; on a developer
// machine without it the test skips with a message.
func ChromiumPath(t testing.TB) string {
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

// New starts a headless Chromium with a fresh profile and returns its tab's
// context, cancelled after timeout or at the end of the test.
func New(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	opts := pdfprint.HeadlessOptions(ChromiumPath(t), t.TempDir())
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// PollText reads the text of the element sel every 50 ms until done accepts
// it or wait has passed, and returns the last text read. A read while a
// redirect or an htmx swap is replacing the page fails ("No node with given
// id") or finds no element, even after an element of the new page has
// shown; such reads are retried.
func PollText(ctx context.Context, sel string, done func(string) bool, wait time.Duration) (string, error) {
	q, _ := json.Marshal(sel)
	js := `(function () { var el = document.readyState === "complete" && document.querySelector(` + string(q) + `); return el ? el.innerText : ""; })()`
	deadline := time.Now().Add(wait)
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err == nil && done(got) {
			return got, nil
		}
		if time.Now().After(deadline) {
			return got, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
