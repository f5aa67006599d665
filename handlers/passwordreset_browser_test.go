package handlers_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// A person who forgot the password follows "Forgot password?" on the
// login page, asks for a link, opens the e-mailed link, sets a new
// password, lands on the login page with a notice, signs in with the new
// password and sees this browser in the account page's Sessions list.
// (SCREENSHOT_DIR, when set, receives PNGs of the pages for a look.)
func TestBrowserForgotPasswordAndSessions(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := newBrowser(t)
	shot := func(name string) {
		dir := os.Getenv("SCREENSHOT_DIR")
		if dir == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
		}
		if err != nil {
			t.Logf("screenshot %s: %v", name, err)
		}
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/login"),
		testbrowser.ClickCSS("#forgot-link"),
		chromedp.WaitVisible(chromedp.CSS("#forgot-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		testbrowser.ClickCSS("#forgot-submit"),
		chromedp.WaitVisible(chromedp.CSS("#reset-sent")),
	)
	if err != nil {
		t.Fatalf("forgot password: %v", err)
	}
	shot("forgot-sent")
	msg, tok := e.mail.Next(t, "ada@example.com")
	if !strings.Contains(msg.Body, "http://app.test/reset-password?token=") {
		t.Fatalf("no reset link in %q", msg.Body)
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/reset-password?token="+url.QueryEscape(tok)),
		chromedp.WaitVisible(chromedp.CSS("#reset-form")),
	)
	if err != nil {
		t.Fatalf("reset page: %v", err)
	}
	shot("reset-form")
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#password"), "brand new password"),
		testbrowser.ClickCSS("#reset-submit"),
		chromedp.WaitVisible(chromedp.CSS("#login-notice")),
	)
	if err != nil {
		t.Fatalf("set the password: %v", err)
	}
	shot("login-after-reset")
	e.advance(1e9)
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "brand new password"),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#whoami")),
		chromedp.Navigate(e.http.URL+"/account"),
		chromedp.WaitVisible(chromedp.CSS("#sessions")),
	)
	if err != nil {
		t.Fatalf("sign in with the new password: %v", err)
	}
	shot("account-sessions")
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#sessions")))
	if err != nil || !strings.Contains(text, "(this browser)") || !strings.Contains(text, "Revoke") || !strings.Contains(text, "HeadlessChrome") {
		t.Fatalf("sessions list %q (%v)", text, err)
	}
	// Revoking this browser signs it out.
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS("#sessions form button"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
	)
	if err != nil {
		t.Fatalf("revoke this browser: %v", err)
	}
}
