package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/turbinesim/turbinesim/internal/testbrowser"
)

// An administrator creates an API key, invites a member and raises the
// caps in the browser; the audit-log page lists each change with who made
// it and the old and new values, and its filters narrow the list. The
// organization's JSON endpoints answer browsers with pages (members, usage
// with its chart, settings, API keys).
func TestBrowserAuditLogAfterKeyAndInvite(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := newBrowser(t)

	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#email"), e.admin.Email),
		chromedp.SendKeys(chromedp.CSS("#password"), e.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#whoami")),
		// A key, on the API keys page (GET /api-keys for a browser).
		chromedp.Navigate(e.http.URL+"/api-keys"),
		chromedp.SendKeys(chromedp.CSS("#key-name"), "nightly runs"),
		testbrowser.ClickCSS("#key-create"),
		chromedp.WaitVisible(chromedp.CSS("#new-key-secret")),
		// An invitation, on the members page (GET /org/members).
		chromedp.Navigate(e.http.URL+"/org/members"),
		chromedp.WaitVisible(chromedp.CSS("#members-table")),
		chromedp.SendKeys(chromedp.CSS(`#member-invite-form input[name="email"]`), "bea@example.com"),
		testbrowser.ClickCSS(`#member-invite-form button[type="submit"]`),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-member="bea@example.com"]`)),
		// New caps, on the settings page (GET /org/settings).
		chromedp.Navigate(e.http.URL+"/org/settings"),
		chromedp.WaitVisible(chromedp.CSS("#caps-form")),
		chromedp.SetValue(chromedp.CSS("#caps-spend"), "25000"),
		testbrowser.ClickCSS("#caps-save"),
	)
	if err != nil {
		t.Fatalf("key, invitation and caps: %v", err)
	}
	if v, err := pollText(ctx, "#caps-spend", equalTo("25000"), 10*time.Second); err != nil {
		t.Fatalf("caps after save: %q %v", v, err)
	}
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#caps-spend").value`)); err != nil || v != "25000" {
		t.Fatalf("spend cap after save = %q (%v)", v, err)
	}

	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/org/audit-log"),
		chromedp.WaitVisible(chromedp.CSS("#audit-table")),
	)
	if err != nil {
		t.Fatalf("audit-log page: %v", err)
	}
	table, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#audit-table")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"API key created", `API key "nightly runs" (simulation) created for ada@example.com`,
		"Member invited", "bea@example.com invited as org_member",
		"Caps changed", "→ $250.00",
	} {
		if !strings.Contains(table, want) {
			t.Fatalf("audit-log page lacks %q:\n%s", want, table)
		}
	}
	if strings.Count(table, "ada@example.com") < 3 {
		t.Fatalf("entries do not name the administrator:\n%s", table)
	}
	// Filter by event: only the invitation is left.
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#audit-event"), "member.invited"),
		testbrowser.ClickCSS("#audit-apply"),
	)
	if err != nil {
		t.Fatalf("filter: %v", err)
	}
	if v, err := pollText(ctx, "#audit-table tbody", func(s string) bool { return !strings.Contains(s, "Caps changed") }, 10*time.Second); err != nil {
		t.Fatalf("filtered table %q: %v", v, err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#audit-table tbody tr").length`))
	if err != nil || rows != 1 {
		t.Fatalf("%d rows after filtering by invitation (%v)", rows, err)
	}

	// The usage page draws its chart.
	err = chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/org/usage"),
		chromedp.WaitVisible(chromedp.CSS("#usage-chart canvas")),
	)
	if err != nil {
		t.Fatalf("usage page chart: %v", err)
	}
}

// A mistyped code during MFA set-up is shown next to the code field with
// the same secret and QR code; the right code then turns MFA on.
func TestBrowserMFASetUpSurvivesMistypedCode(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := newBrowser(t)
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.http.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#email"), e.admin.Email),
		chromedp.SendKeys(chromedp.CSS("#password"), e.passwd),
		testbrowser.ClickCSS("#login-submit"),
		chromedp.WaitVisible(chromedp.CSS("#whoami")),
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
	right := totpCode(t, secret, e.now())
	wrong := "000000"
	if right == wrong {
		wrong = "111111"
	}
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#mfa-code"), wrong),
		testbrowser.ClickCSS("#mfa-confirm"),
		chromedp.WaitVisible(chromedp.CSS("#mfa-code-error")),
	)
	if err != nil {
		t.Fatalf("wrong code: %v", err)
	}
	again, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#mfa-secret")))
	if err != nil || again != secret {
		t.Fatalf("secret after a wrong code = %q, want the same %q (%v)", again, secret, err)
	}
	qrLoaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("#mfa-qr").naturalWidth > 0`))
	if err != nil || !qrLoaded {
		t.Fatalf("QR image not shown again (%v)", err)
	}
	if inv, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#mfa-code").getAttribute("aria-invalid")`)); err != nil || inv != "true" {
		t.Fatalf("code field not marked invalid: %q %v", inv, err)
	}
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#mfa-code"), right),
		testbrowser.ClickCSS("#mfa-confirm"),
		chromedp.WaitVisible(chromedp.CSS("#recovery-codes")),
	)
	if err != nil {
		t.Fatalf("right code after a wrong one: %v", err)
	}
	var on bool
	if err := e.db.GetContext(context.Background(), &on, `SELECT enabled FROM user_mfa WHERE user_id = $1`, e.admin.ID); err != nil || !on {
		t.Fatalf("MFA enabled = %v (%v)", on, err)
	}
}
