// Package testbrowser starts the real Chromium that browser tests drive
// through chromedp: the handlers' page tests and the `make run` test of
// cmd/turbined share it.
package testbrowser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
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

// Click clicks the element sel from the page's own script once the page has
// finished loading and the element exists, retrying every 50 ms until wait
// has passed. chromedp's Click resolves a node id first and then clicks it;
// a page that is still finishing its load after a redirect can invalidate
// that id in between ("Could not find node with given id"), which a click
// from the page's script cannot suffer.
func Click(ctx context.Context, sel string, wait time.Duration) error {
	q, _ := json.Marshal(sel)
	js := `(function () { var el = document.readyState === "complete" && document.querySelector(` + string(q) + `); if (!el) return false; el.click(); return true; })()`
	deadline := time.Now().Add(wait)
	for {
		clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		if err == nil && clicked {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("no element %s to click after %s", sel, wait)
			}
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ClickCSS is chromedp's Click on the first element matching the CSS
// selector sel, once the page has loaded (document.readyState "complete":
// the page's deferred scripts have attached their handlers, so a click on
// a button that only a script handles is not lost on a slow machine),
// retried when the node it resolved was replaced before the click reached
// it ("Could not find node with given id", "No node with given id"): a
// redirect or an htmx swap that finishes just after the element showed
// does that. The error comes before any mouse event is sent, so a retry
// never clicks twice.
func ClickCSS(sel string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tgt *chromedp.Target) (chromedp.Void, error) {
		for {
			done, err := chromedp.Evaluate[bool](`document.readyState === "complete"`)(ctx, tgt)
			if err == nil && done {
				break
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		for attempt := 0; ; attempt++ {
			v, err := chromedp.Click(chromedp.CSS(sel))(ctx, tgt)
			if err == nil || attempt == 20 || !staleNode(err) {
				return v, err
			}
			select {
			case <-ctx.Done():
				return v, err
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

func staleNode(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Could not find node with given id") || strings.Contains(msg, "No node with given id")
}
