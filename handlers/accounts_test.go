package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

// testPasswordParams are argon2id parameters for tests only (production
// uses argon2id.DefaultParams).
var testPasswordParams = &argon2id.Params{Memory: 1024, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// mailToken waits for the next mail with a one-time link to `to` (in the
// recipient's mailbox; the service keeps no copy) and returns its token.
func (e *env) mailToken(to string) string {
	e.t.Helper()
	_, tok := e.mail.Next(e.t, to)
	return tok
}

func totpCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Sign-up gives a demo account (403 on verified-only endpoints); the
// e-mailed link verifies it; invitations, role changes, deactivation and
// soft deletion take effect on the next request; other orgs' users are 404.
func TestSignUpVerifyAndMembers(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	resp, body := e.do(nil, request{method: "POST", path: "/auth/signup", header: jsonHeaders,
		body: `{"org_name":"Gust Labs","name":"Gus","email":"gus@example.com","password":"long enough pw"}`})
	if resp.StatusCode != 202 || !strings.Contains(body, `"email":"gus@example.com"`) {
		t.Fatalf("signup: %d %s", resp.StatusCode, body)
	}
	// The new (demo) account signs in right away.
	su := e.loginAs("gus@example.com", "long enough pw")
	var gusID string
	if err := e.db.GetContext(context.Background(), &gusID, `SELECT id FROM users WHERE email = 'gus@example.com'`); err != nil {
		t.Fatal(err)
	}
	// The demo account is refused by a verified-only endpoint.
	e.srv.Echo().POST("/test/verified-only", func(c handlers.EchoContext) error { return c.NoContent(204) }, handlers.VerifiedOnly(e.srv)...)
	resp, body = e.do(nil, request{method: "POST", path: "/test/verified-only", header: bearer(su.AccessToken)})
	assertDetail(t, resp, body, 403)
	tok := e.mailToken("gus@example.com")
	resp, body = e.do(nil, request{method: "POST", path: "/auth/verify-email", header: jsonHeaders, body: fmt.Sprintf(`{"token":%q}`, tok)})
	if resp.StatusCode != 200 || !strings.Contains(body, `"verified":true`) {
		t.Fatalf("verify: %d %s", resp.StatusCode, body)
	}
	// The same access token now passes: the user is reloaded per request.
	if resp, body := e.do(nil, request{method: "POST", path: "/test/verified-only", header: bearer(su.AccessToken)}); resp.StatusCode != 204 {
		t.Fatalf("verified: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/auth/verify-email", header: jsonHeaders, body: fmt.Sprintf(`{"token":%q}`, tok)})
	assertDetail(t, resp, body, 401)

	// Invite a member, who accepts and signs in.
	resp, body = e.do(nil, request{method: "POST", path: "/org/members", header: withJSON(bearer(su.AccessToken)), body: `{"email":"mia@example.com"}`})
	if resp.StatusCode != 201 {
		t.Fatalf("invite: %d %s", resp.StatusCode, body)
	}
	var mia turbinesim.User
	_ = json.Unmarshal([]byte(body), &mia)
	itok := e.mailToken("mia@example.com")
	resp, body = e.do(nil, request{method: "POST", path: "/auth/accept-invite", header: jsonHeaders, body: fmt.Sprintf(`{"token":%q,"password":"mia's password"}`, itok)})
	if resp.StatusCode != 200 {
		t.Fatalf("accept: %d %s", resp.StatusCode, body)
	}
	mp := e.loginAs("mia@example.com", "mia's password")
	// A member cannot manage members or read the outbox.
	for _, r := range []request{
		{method: "POST", path: "/org/members", body: `{"email":"x@example.com"}`},
		{method: "PUT", path: "/org/members/" + gusID, body: `{"role":"org_member"}`},
		{method: "DELETE", path: "/org/members/" + gusID},
		{method: "GET", path: "/org/outbox"},
	} {
		r.header = withJSON(bearer(mp.AccessToken))
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 403)
	}
	// Users of another organization are 404 to this admin.
	resp, body = e.do(nil, request{method: "PUT", path: "/org/members/" + e.admin.ID, header: withJSON(bearer(su.AccessToken)), body: `{"active":false}`})
	assertDetail(t, resp, body, 404)
	// Promote, then deactivate: the member's token stops on the next request.
	resp, body = e.do(nil, request{method: "PUT", path: "/org/members/" + mia.ID, header: withJSON(bearer(su.AccessToken)), body: `{"role":"org_admin"}`})
	if resp.StatusCode != 200 || !strings.Contains(body, `"role":"org_admin"`) {
		t.Fatalf("promote: %d %s", resp.StatusCode, body)
	}
	resp, _ = e.do(nil, request{method: "GET", path: "/org/outbox", header: bearer(mp.AccessToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("promoted member reads the outbox: %d", resp.StatusCode)
	}
	resp, _ = e.do(nil, request{method: "PUT", path: "/org/members/" + mia.ID, header: withJSON(bearer(su.AccessToken)), body: `{"active":false}`})
	if resp.StatusCode != 200 {
		t.Fatalf("deactivate: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(mp.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, _ = e.do(nil, request{method: "DELETE", path: "/org/members/" + mia.ID, header: bearer(su.AccessToken)})
	if resp.StatusCode != 204 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/org/members", header: bearer(su.AccessToken)})
	if resp.StatusCode != 200 || strings.Contains(body, "mia@example.com") {
		t.Fatalf("members after delete: %s", body)
	}
	// Admins cannot lock themselves out.
	resp, body = e.do(nil, request{method: "PUT", path: "/org/members/" + gusID, header: withJSON(bearer(su.AccessToken)), body: `{"role":"org_member"}`})
	assertDetail(t, resp, body, 409)
}

// D1–D6, D8 over HTTP: enrolment, mfa_required, TOTP login, replay, brute
// force throttled per account across addresses, recovery codes, disable
// with re-authentication; keys cannot touch MFA.
func TestMFAOverHTTP(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	resp, body := e.do(nil, request{method: "POST", path: "/account/mfa/enrol", header: bearer(p.AccessToken)})
	var enr handlers.MFAEnrolmentResponse
	if err := json.Unmarshal([]byte(body), &enr); err != nil || resp.StatusCode != 200 ||
		!strings.HasPrefix(enr.URI, "otpauth://totp/") || !strings.HasPrefix(enr.QRCode, "data:image/png;base64,") {
		t.Fatalf("enrol: %d %.200s", resp.StatusCode, body)
	}
	now := e.now()
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/confirm", header: withJSON(bearer(p.AccessToken)),
		body: `{"code":"` + totpCode(t, enr.Secret, now) + `"}`})
	var rc handlers.MFAConfirmResponse
	if err := json.Unmarshal([]byte(body), &rc); err != nil || resp.StatusCode != 200 || len(rc.RecoveryCodes) != 10 || rc.TokenPair == nil {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	p = *rc.TokenPair // enabling MFA ended the earlier sign-ins
	login := func(otp string) (int, string) {
		b := fmt.Sprintf(`{"email":"ada@example.com","password":%q`, e.passwd)
		if otp != "" {
			b += fmt.Sprintf(`,"otp_code":%q`, otp)
		}
		resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders, body: b + "}"})
		return resp.StatusCode, body
	}
	if st, body := login(""); st != 200 || strings.TrimSpace(body) != `{"mfa_required":true}` {
		t.Fatalf("without code: %d %s", st, body)
	}
	// The confirmation step is spent: the next step's code works once.
	e.advance(30 * time.Second)
	code := totpCode(t, enr.Secret, e.now())
	if st, body := login(code); st != 200 || !strings.Contains(body, "access_token") {
		t.Fatalf("with code: %d %s", st, body)
	}
	if st, _ := login(code); st != 401 {
		t.Fatalf("replayed code: %d", st)
	}
	// Recovery code, once.
	if st, _ := login(rc.RecoveryCodes[0]); st != 200 {
		t.Fatalf("recovery code: %d", st)
	}
	if st, _ := login(rc.RecoveryCodes[0]); st != 401 {
		t.Fatalf("recovery code reused: %d", st)
	}
	// D8: disable needs the password and a current code.
	e.advance(30 * time.Second)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/disable", header: withJSON(bearer(p.AccessToken)),
		body: `{"password":"wrong password!","code":"` + totpCode(t, enr.Secret, e.now()) + `"}`})
	assertDetail(t, resp, body, 401)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/disable", header: withJSON(bearer(p.AccessToken)),
		body: `{"password":"` + e.passwd + `"}`})
	assertDetail(t, resp, body, 401)
	// E8: a key cannot touch MFA.
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys", header: withJSON(bearer(p.AccessToken)), body: `{"name":"k"}`})
	var k turbinesim.NewAPIKey
	_ = json.Unmarshal([]byte(body), &k)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/disable", header: keyHeader(k.Key),
		body: `{"password":"` + e.passwd + `","code":"` + totpCode(t, enr.Secret, e.now()) + `"}`})
	assertDetail(t, resp, body, 403)
	// D4: wrong codes back off the (account, address) pair after 5
	// failures (forwarded addresses are not trusted here, so rotating them
	// changes nothing); a success first clears the earlier failures.
	e.advance(30 * time.Second)
	e.loginWith(t, enr.Secret)
	for i := 0; i < 5; i++ {
		r := request{method: "POST", path: "/auth/login", header: map[string]string{"Content-Type": "application/json", "X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i)},
			body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":"00000%d"}`, e.passwd, i%10)}
		resp, _ := e.do(nil, r)
		if resp.StatusCode == 429 {
			t.Fatalf("backed off after only %d failures", i+1)
		}
	}
	resp, body = e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":%q}`, e.passwd, totpCode(t, enr.Secret, e.now()))})
	assertDetail(t, resp, body, 429)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// After the back-off, a correct code works, and disabling with
	// password + code succeeds.
	e.advance(30 * time.Second)
	resp, _ = e.do(nil, request{method: "POST", path: "/account/mfa/disable", header: withJSON(bearer(e.loginWith(t, enr.Secret))),
		body: `{"password":"` + e.passwd + `","code":"` + rc.RecoveryCodes[1] + `"}`})
	if resp.StatusCode != 204 {
		t.Fatalf("disable: %d", resp.StatusCode)
	}
	if st, body := login(""); st != 200 || !strings.Contains(body, "access_token") {
		t.Fatalf("after disable: %d %s", st, body)
	}
	_ = context.Background
}

// loginWith signs the admin in with a fresh TOTP code and returns the access token.
func (e *env) loginWith(t *testing.T, secret string) string {
	t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":%q}`, e.passwd, totpCode(t, secret, e.now()))})
	var p handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &p); err != nil || resp.StatusCode != 200 {
		t.Fatalf("login with code: %d %s", resp.StatusCode, body)
	}
	return p.AccessToken
}
