package handlers_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// A person signs up (demo account), follows the e-mailed verification link,
// enrols an authenticator app, logs out, logs back in with a TOTP code,
// creates an API key, and a script uses that key over HTTP.
func TestBrowserSignUpMFAAndAPIKey(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := newBrowser(t)
	const email, password = "gus@example.com", "gusty winds 42"

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/signup"),
		chromedp.WaitVisible(chromedp.CSS("#signup-form")),
		chromedp.SendKeys(chromedp.CSS("#org_name"), "Gust Labs"),
		chromedp.SendKeys(chromedp.CSS("#name"), "Gus"),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		testbrowser.ClickCSS("#signup-submit"),
		chromedp.WaitVisible(chromedp.CSS("#signup-sent")),
		testbrowser.ClickCSS("#signup-sign-in"),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#whoami")),
		chromedp.Navigate(e.http.URL+"/account"),
		chromedp.WaitVisible(chromedp.CSS("#account-email")),
	)
	if err != nil {
		t.Fatalf("sign-up: %v", err)
	}
	if v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("dd:nth-of-type(4)"))); err != nil || !strings.EqualFold(v, "no") {
		t.Fatalf("verified after sign-up = %q (%v), want No", v, err)
	}

	// The verification link from the new user's mailbox.
	tok := e.mailToken(email)
	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/verify-email?token="+url.QueryEscape(tok)),
		testbrowser.ClickCSS("#verify-submit"),
		chromedp.WaitVisible(chromedp.CSS("#account-email")),
	)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("dd:nth-of-type(4)"))); err != nil || !strings.EqualFold(v, "yes") {
		t.Fatalf("verified after the link = %q (%v), want Yes", v, err)
	}

	// Enrol MFA: QR code and key on the page, confirm with a code.
	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/account/security"),
		testbrowser.ClickCSS("#mfa-enrol"),
		chromedp.WaitVisible(chromedp.CSS("#mfa-qr")),
	)
	if err != nil {
		t.Fatalf("enrol: %v", err)
	}
	secret, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#mfa-secret")))
	if err != nil || secret == "" {
		t.Fatalf("secret: %q %v", secret, err)
	}
	qrLoaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#mfa-qr").naturalWidth > 0`))
	if err != nil || !qrLoaded {
		t.Fatalf("QR image not rendered (%v)", err)
	}
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#mfa-code"), totpCode(t, secret, e.now())),
		testbrowser.ClickCSS("#mfa-confirm"),
		chromedp.WaitVisible(chromedp.CSS("#recovery-codes")),
	)
	if err != nil {
		t.Fatalf("confirm: %v", err)
	}
	codes, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#recovery-code-list")))
	if err != nil || len(strings.Fields(codes)) != 10 {
		t.Fatalf("recovery codes %q (%v)", codes, err)
	}

	// Log out, log in: password first, then the code.
	e.advance(30 * time.Second)
	err = chromedp.Do(ctx,
		testbrowser.ClickCSS(`nav form[action="/logout"] button`),
		chromedp.WaitVisible(chromedp.CSS("#login-form")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#otp_code")),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#otp_code"), totpCode(t, secret, e.now())),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#whoami")),
	)
	if err != nil {
		t.Fatalf("login with TOTP: %v", err)
	}

	// Create an API key: the secret is shown once, with a copy button.
	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/account/api-keys"),
		chromedp.SendKeys(chromedp.CSS("#key-name"), "laptop script"),
		testbrowser.ClickCSS("#key-create"),
		chromedp.WaitVisible(chromedp.CSS("#new-key-secret")),
		chromedp.WaitVisible(chromedp.CSS("#copy-key")),
	)
	if err != nil {
		t.Fatalf("create key: %v", err)
	}
	key, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#new-key-secret")))
	if err != nil || !strings.HasPrefix(key, "ofk_") {
		t.Fatalf("key on the page %q (%v)", key, err)
	}
	// Reloading the page does not show it again.
	err = chromedp.Do(ctx, chromedp.Navigate(e.http.URL+"/account/api-keys"), chromedp.WaitVisible(chromedp.CSS("#key-table")))
	if err != nil {
		t.Fatal(err)
	}
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil || strings.Contains(html, key) || !strings.Contains(html, key[:12]) {
		t.Fatalf("key list shows the secret or lacks the Client ID (%v)", err)
	}

	// A script uses the key.
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(key)})
	if resp.StatusCode != 200 || !strings.Contains(body, `"email":"gus@example.com"`) || !strings.Contains(body, `"auth_method":"api_key"`) {
		t.Fatalf("script with the key: %d %s", resp.StatusCode, body)
	}
}
