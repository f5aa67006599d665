package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

func (e *env) requestReset(email string) (*http.Response, string) {
	return e.do(nil, request{method: "POST", path: "/auth/password-reset", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":%q}`, email)})
}

func (e *env) confirmReset(token, password, otp string) (*http.Response, string) {
	b, _ := json.Marshal(handlers.PasswordResetConfirm{Token: token, Password: password, OTPCode: otp})
	return e.do(nil, request{method: "POST", path: "/auth/password-reset/confirm", header: jsonHeaders, body: string(b)})
}

func (e *env) outboxSubjects(access string) []string {
	e.t.Helper()
	resp, body := e.do(nil, request{method: "GET", path: "/org/outbox", header: bearer(access)})
	var page handlers.Page[turbinesim.Email]
	if err := json.Unmarshal([]byte(body), &page); err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("outbox: %d %s", resp.StatusCode, body)
	}
	var out []string
	for _, m := range page.Items {
		out = append(out, m.To+": "+m.Subject)
	}
	return out
}

// Password reset (the flow behind "Forgot password?"): the same 202 for
// known and unknown addresses, a single-use hashed token that expires, and
// on success every older credential of the account revoked: access tokens
// (B9), refresh families (C4), browser sessions (G3), other reset links.
func TestPasswordResetOverHTTP(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := context.Background()
	old := e.loginJSON()
	browser := e.client()
	browserLogin(t, e, browser)

	resp, known := e.requestReset("Ada@Example.com")
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("reset request: %d %s", resp.StatusCode, known)
	}
	resp, unknown := e.requestReset("nobody@example.com")
	if resp.StatusCode != http.StatusAccepted || unknown != known {
		t.Fatalf("unknown address answered differently: %d %q vs %q", resp.StatusCode, unknown, known)
	}
	var n int
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM email_tokens WHERE purpose = 'reset'`); err != nil || n != 1 {
		t.Fatalf("reset tokens stored: %d %v", n, err)
	}
	if subj := e.outboxSubjects(old.AccessToken); len(subj) == 0 || subj[0] != "ada@example.com: Reset your TurbineSim password" {
		t.Fatalf("outbox %v", subj)
	}
	tok := e.mailToken("ada@example.com")
	// Only the SHA-256 is stored.
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM email_tokens t WHERE t::text LIKE '%' || $1 || '%' OR token_hash = convert_to($1, 'UTF8')`, tok); err != nil || n != 0 {
		t.Fatalf("raw reset token found in the database: %d %v", n, err)
	}

	// Bad input: short password (422), unknown token (401), strict JSON.
	resp, body := e.confirmReset(tok, "short", "")
	assertDetail(t, resp, body, 422)
	resp, body = e.confirmReset("not-a-token", "a new long password", "")
	assertDetail(t, resp, body, 401)
	resp, body = e.do(nil, request{method: "POST", path: "/auth/password-reset/confirm", header: jsonHeaders,
		body: `{"token":"x","password":"a new long password","user_id":"` + e.admin.ID + `"}`})
	assertDetail(t, resp, body, 422)

	e.advance(2 * time.Second)
	resp, body = e.confirmReset(tok, "a new long password", "")
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	// Single use.
	resp, body = e.confirmReset(tok, "another long password", "")
	assertDetail(t, resp, body, 401)
	// Everything issued before the reset is dead.
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(old.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(old.RefreshToken)
	assertDetail(t, resp, body, 401)
	resp, body = e.do(browser, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 401)
	// The old password no longer works, the new one does.
	resp, body = e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":"ada@example.com","password":%q}`, e.passwd)})
	assertDetail(t, resp, body, 401)
	e.advance(time.Second)
	p := e.loginAs("ada@example.com", "a new long password")
	if subj := e.outboxSubjects(p.AccessToken); subj[0] != "ada@example.com: Your TurbineSim password was changed" {
		t.Fatalf("no change notice: %v", subj)
	}

	// A second link dies with the first reset; an expired one is refused.
	e.requestReset("ada@example.com")
	first := e.mailToken("ada@example.com")
	e.requestReset("ada@example.com")
	second := e.mailToken("ada@example.com")
	if resp, body := e.confirmReset(second, "third long password", ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("second link: %d %s", resp.StatusCode, body)
	}
	resp, body = e.confirmReset(first, "fourth long password", "")
	assertDetail(t, resp, body, 401)
	e.advance(time.Second)
	p = e.loginAs("ada@example.com", "third long password")
	e.requestReset("ada@example.com")
	late := e.mailToken("ada@example.com")
	e.advance(turbinesim.PasswordResetLifetime + time.Second)
	resp, body = e.confirmReset(late, "fifth long password", "")
	assertDetail(t, resp, body, 401)

	// A deactivated account gets no link (and the same answer).
	u := e.addUser("gone@example.com", turbinesim.RoleMember)
	if _, err := e.db.ExecContext(ctx, `UPDATE users SET active = false WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if resp, body := e.requestReset("gone@example.com"); resp.StatusCode != http.StatusAccepted || body != known {
		t.Fatalf("deactivated: %d %s", resp.StatusCode, body)
	}
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM email_tokens WHERE user_id = $1`, u.ID); err != nil || n != 0 {
		t.Fatalf("link for a deactivated account: %d %v", n, err)
	}
}

// Reset requests are throttled per submitted address, known or not (so
// the 429 reveals nothing), and per client; Retry-After is set.
func TestPasswordResetRequestsAreRateLimited(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	for _, addr := range []string{"ada@example.com", "nobody@example.com"} {
		for i := 1; i <= 5; i++ {
			if resp, body := e.requestReset(addr); resp.StatusCode != http.StatusAccepted {
				t.Fatalf("%s request %d: %d %s", addr, i, resp.StatusCode, body)
			}
		}
		resp, body := e.requestReset(addr)
		assertDetail(t, resp, body, http.StatusTooManyRequests)
		if resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: 429 without Retry-After", addr)
		}
	}
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT count(*) FROM email_tokens WHERE purpose = 'reset'`); err != nil || n != 5 {
		t.Fatalf("%d reset links for 5 accepted requests (%v)", n, err)
	}
	e.advance(15 * time.Minute)
	if resp, body := e.requestReset("ada@example.com"); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("next window: %d %s", resp.StatusCode, body)
	}
	// Malformed address: 422 naming the field.
	resp, body := e.requestReset("not an address")
	if d := assertDetail(t, resp, body, 422); !strings.HasPrefix(d, "email") {
		t.Fatalf("detail %q", d)
	}
}

// D9: resetting the password of an account with TOTP still asks for the
// second factor; a missing or wrong code leaves the link usable, wrong
// codes count against the account's sign-in throttle, and a recovery code
// works once.
func TestPasswordResetAsksForSecondFactor(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	resp, body := e.do(nil, request{method: "POST", path: "/account/mfa/enrol", header: bearer(p.AccessToken)})
	var enr handlers.MFAEnrolmentResponse
	if err := json.Unmarshal([]byte(body), &enr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("enrol: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/confirm", header: withJSON(bearer(p.AccessToken)),
		body: `{"code":"` + totpCode(t, enr.Secret, e.now()) + `"}`})
	var rc handlers.RecoveryCodesResponse
	if err := json.Unmarshal([]byte(body), &rc); err != nil || resp.StatusCode != 200 {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	e.requestReset("ada@example.com")
	tok := e.mailToken("ada@example.com")

	resp, body = e.confirmReset(tok, "a new long password", "")
	if d := assertDetail(t, resp, body, 401); !strings.Contains(d, "otp_code") {
		t.Fatalf("detail %q does not ask for the code", d)
	}
	resp, body = e.confirmReset(tok, "a new long password", "000000")
	assertDetail(t, resp, body, 401)
	// The password did not change.
	e.advance(30 * time.Second)
	e.loginWith(t, enr.Secret)
	// A current code completes the reset.
	e.advance(30 * time.Second)
	resp, body = e.confirmReset(tok, "a new long password", totpCode(t, enr.Secret, e.now()))
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reset with code: %d %s", resp.StatusCode, body)
	}
	// MFA stays on: signing in with the new password still needs a code.
	resp, body = e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: `{"email":"ada@example.com","password":"a new long password"}`})
	if resp.StatusCode != 200 || !strings.Contains(body, `"mfa_required":true`) {
		t.Fatalf("login after reset: %d %s", resp.StatusCode, body)
	}

	// Recovery code instead of TOTP; wrong codes back off the account's
	// second-factor attempts from this address like sign-in does (5
	// free, then 1 s, 2 s, ...).
	e.advance(time.Second)
	e.requestReset("ada@example.com")
	e.advance(30 * time.Second)
	e.loginWithPassword(t, enr.Secret, "a new long password")
	tok = e.mailToken("ada@example.com")
	for i := range 5 {
		resp, _ := e.confirmReset(tok, "yet another password", fmt.Sprintf("99999%d", i))
		if resp.StatusCode != 401 {
			t.Fatalf("wrong code %d: %d", i, resp.StatusCode)
		}
	}
	resp, body = e.confirmReset(tok, "yet another password", rc.RecoveryCodes[0])
	assertDetail(t, resp, body, http.StatusTooManyRequests)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	e.advance(2 * time.Second)
	if resp, body := e.confirmReset(tok, "yet another password", rc.RecoveryCodes[0]); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("recovery code: %d %s", resp.StatusCode, body)
	}
}

// loginWithPassword is loginWith with another password.
func (e *env) loginWithPassword(t *testing.T, secret, password string) string {
	t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":%q}`, password, totpCode(t, secret, e.now()))})
	var p handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &p); err != nil || resp.StatusCode != 200 {
		t.Fatalf("login with code: %d %s", resp.StatusCode, body)
	}
	return p.AccessToken
}

// The browser pages: "Forgot password?" on the login page, the request
// form (same answer for any address), the e-mailed link's page (reads
// only; asks for the code when MFA is on) and the form that sets the
// password and lands on the login page with a notice.
func TestPasswordResetPages(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	e.loginJSON()
	html := map[string]string{"Accept": "text/html"}
	c := e.client()
	_, page := e.do(c, request{method: "GET", path: "/login", header: html})
	if !strings.Contains(page, `id="forgot-link" href="/forgot-password"`) || strings.Contains(page, `id="sso-buttons"`) {
		t.Fatal("login page: no Forgot password? link, or SSO buttons without configured providers")
	}
	resp, page := e.do(c, request{method: "GET", path: "/forgot-password", header: html})
	m := csrfField.FindStringSubmatch(page)
	if resp.StatusCode != 200 || m == nil || !strings.Contains(page, `id="forgot-form"`) {
		t.Fatalf("forgot page: %d", resp.StatusCode)
	}
	post := func(path string, form url.Values) (*http.Response, string) {
		form.Set("_csrf", m[1])
		return e.do(c, request{method: "POST", path: path, body: form.Encode(), header: map[string]string{
			"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	}
	// Without the CSRF token: 403.
	resp, body := e.do(c, request{method: "POST", path: "/forgot-password", body: "email=ada%40example.com",
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}})
	assertDetail(t, resp, body, 403)
	resp, known := post("/forgot-password", url.Values{"email": {"ada@example.com"}})
	_, unknown := post("/forgot-password", url.Values{"email": {"nobody@example.com"}})
	if resp.StatusCode != 200 || !strings.Contains(known, `id="reset-sent"`) || !strings.Contains(unknown, `id="reset-sent"`) {
		t.Fatalf("forgot form: %d", resp.StatusCode)
	}
	tok := e.mailToken("ada@example.com")

	resp, page = e.do(c, request{method: "GET", path: "/reset-password?token=nope", header: html})
	if resp.StatusCode != 200 || !strings.Contains(page, `id="reset-invalid"`) {
		t.Fatalf("invalid link page: %d", resp.StatusCode)
	}
	resp, page = e.do(c, request{method: "GET", path: "/reset-password?token=" + url.QueryEscape(tok), header: html})
	if resp.StatusCode != 200 || !strings.Contains(page, `id="reset-form"`) || strings.Contains(page, `id="otp_code"`) {
		t.Fatalf("reset page: %d", resp.StatusCode)
	}
	resp, page = post("/reset-password", url.Values{"token": {tok}, "password": {"short"}})
	if resp.StatusCode != 422 || !strings.Contains(page, `id="form-error"`) {
		t.Fatalf("short password: %d", resp.StatusCode)
	}
	resp, _ = post("/reset-password", url.Values{"token": {tok}, "password": {"a new long password"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?reset=1" {
		t.Fatalf("reset form: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page = e.do(c, request{method: "GET", path: "/login?reset=1", header: html})
	if !strings.Contains(page, `id="login-notice"`) {
		t.Fatal("no notice after the reset")
	}
	e.advance(time.Second)
	e.loginAs("ada@example.com", "a new long password")
}
