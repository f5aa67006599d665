// Package pdfprint prints HTML documents to PDF with Debian's headless
// Chromium (the certification report's PDF). It is the only package that
// drives a browser outside the tests.
package pdfprint

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds the browser: /usr/bin/chromium (Debian's package) or
// whatever of the usual names is on PATH.
func chromium() (string, error) {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium is not installed")
}

// HeadlessOptions start Chromium exe headless with its own profile
// directory and none of its background services (network checks,
// component updates, sync); as root without its sandbox, which Chromium
// refuses to run as root. The browser tests start Chromium the same way.
func HeadlessOptions(exe, profile string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	return opts
}

// HTML prints a self-contained HTML document (inline styles and images, no
// network) to A4 PDF in a fresh headless Chromium with its own profile
// directory, removed after. ready is a CSS selector of an element that is
// visible once the document has rendered (e.g. its last element).
func HTML(ctx context.Context, html, ready string) ([]byte, error) {
	exe, err := chromium()
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "report-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	opts := HeadlessOptions(exe, profile)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	// A data: URL needs no server; the page is self-contained.
	doc := "data:text/html;base64," + base64.StdEncoding.EncodeToString([]byte(html))
	if err := chromedp.Do(bctx, chromedp.Navigate(doc), chromedp.WaitVisible(chromedp.CSS(ready))); err != nil {
		return nil, err
	}
	pdf, err := chromedp.Run(bctx, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFMargin(0.5), chromedp.PDFPrintBackground()))
	if err != nil {
		return nil, err
	}
	return pdf, nil
}
