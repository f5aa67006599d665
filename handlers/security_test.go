package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/handlers"
)

// Probes of docs/security.md, one test per finding.

// behindProxy trusts X-Forwarded-For from the test client, so that a test
// can speak from several client addresses.
func behindProxy(cfg *handlers.Config, _ *handlers.Services) {
	cfg.TrustedProxies = []string{"127.0.0.1/32"}
}

func from(addr string) map[string]string {
	return map[string]string{"Content-Type": "application/json", "Accept": "application/json", "X-Forwarded-For": addr}
}

// enableMFA turns on the admin's second factor and returns the TOTP seed
// and the recovery codes; the confirmation's time step is spent.
func (e *env) enableMFA(access string) (string, []string) {
	e.t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/account/mfa/enrol", header: bearer(access)})
	var enr handlers.MFAEnrolmentResponse
	if err := json.Unmarshal([]byte(body), &enr); err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("enrol: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/confirm", header: withJSON(bearer(access)),
		body: `{"code":"` + totpCode(e.t, enr.Secret, e.now()) + `"}`})
	var rc handlers.MFAConfirmResponse
	if err := json.Unmarshal([]byte(body), &rc); err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	e.advance(30 * time.Second)
	return enr.Secret, rc.RecoveryCodes
}

// Finding "anyone can lock any account out": failures at one address
// back off that (account, address) pair only. On the fixed-window
// throttle this failed: 10 failures locked the account everywhere, and
// 100 failures from one address (a proxy without TRUSTED_PROXIES) locked
// every account's sign-in there.
func TestLoginFailuresNeverLockOutTheOwner(t *testing.T) {
	t.Parallel()
	e := newEnvOn(t, dbtest.New(t), false, behindProxy)
	secret, _ := e.enableMFA(e.loginJSON().AccessToken)
	const attacker, owner, proxy = "203.0.113.9", "198.51.100.7", "192.0.2.50"
	login := func(addr, password, code string) (*http.Response, string) {
		return e.do(nil, request{method: "POST", path: "/auth/login", header: from(addr),
			body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":%q}`, password, code)})
	}
	refused := 0
	for i := range 30 {
		resp, body := login(attacker, fmt.Sprintf("guess number %d", i), "123456")
		switch resp.StatusCode {
		case 401:
		case 429:
			refused++
			if resp.Header.Get("Retry-After") == "" {
				t.Fatalf("429 without Retry-After: %s", body)
			}
		default:
			t.Fatalf("guess %d: %d %s", i, resp.StatusCode, body)
		}
	}
	if refused != 25 {
		t.Fatalf("%d of 30 guesses refused by the back-off, want 25 (5 free)", refused)
	}
	// The attacker's correct password is refused while backed off ...
	if resp, body := login(attacker, e.passwd, totpCode(t, secret, e.now())); resp.StatusCode != 429 {
		t.Fatalf("backed-off pair: %d %s", resp.StatusCode, body)
	}
	// ... but the owner at their own address signs in.
	if resp, body := login(owner, e.passwd, totpCode(t, secret, e.now())); resp.StatusCode != 200 {
		t.Fatalf("owner locked out: %d %s", resp.StatusCode, body)
	}

	// 100 failures for other accounts from one address (a shared proxy),
	// then a member behind the same proxy signs in.
	e.addUser("bob@example.com", "org_member")
	for i := range 100 {
		resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: from(proxy),
			body: fmt.Sprintf(`{"email":"x%d@example.com","password":"not the password"}`, i)})
		if resp.StatusCode != 401 {
			t.Fatalf("failure %d: %d %s", i, resp.StatusCode, body)
		}
	}
	// Sign-ups from that address have their own budget and do not count.
	for i := range 20 {
		resp, body := e.do(nil, request{method: "POST", path: "/auth/signup", header: from(proxy),
			body: fmt.Sprintf(`{"email":"new%d@example.com","password":"long enough pw","name":"N"}`, i)})
		if resp.StatusCode >= 300 {
			t.Fatalf("sign-up %d: %d %s", i, resp.StatusCode, body)
		}
	}
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: from(proxy),
		body: fmt.Sprintf(`{"email":"bob@example.com","password":%q}`, e.passwd)})
	if resp.StatusCode != 200 {
		t.Fatalf("bob behind the proxy: %d %s", resp.StatusCode, body)
	}
	// The 21st sign-up from the address is refused, naming sign-ups.
	resp, body = e.do(nil, request{method: "POST", path: "/auth/signup", header: from(proxy),
		body: `{"email":"one.more@example.com","password":"long enough pw","name":"N"}`})
	if d := assertDetail(t, resp, body, 429); resp.Header.Get("Retry-After") == "" || !strings.Contains(d, "sign-up") {
		t.Fatalf("sign-up 429: %q Retry-After %q", d, resp.Header.Get("Retry-After"))
	}

	// Password-reset confirmation from the owner's address works while the
	// attacker's pair is backed off.
	e.do(nil, request{method: "POST", path: "/auth/password-reset", header: from(owner), body: `{"email":"ada@example.com"}`})
	tok := e.mailToken("ada@example.com")
	e.advance(30 * time.Second)
	b, _ := json.Marshal(handlers.PasswordResetConfirm{Token: tok, Password: "a brand new password", OTPCode: totpCode(t, secret, e.now())})
	resp, body = e.do(nil, request{method: "POST", path: "/auth/password-reset/confirm", header: from(owner), body: string(b)})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reset from the owner's address: %d %s", resp.StatusCode, body)
	}
}

// Finding "e-mailed secrets are readable in the product": verification,
// invitation and reset links reach the recipient's mailbox only. The
// outbox lists recipients and subjects; no table keeps a body. On main
// GET /org/outbox returned every body with its token.
func TestOutboxShowsNoSecrets(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	admin := e.loginJSON()
	if resp, body := e.do(nil, request{method: "POST", path: "/org/members", header: withJSON(bearer(admin.AccessToken)),
		body: `{"email":"mia@example.com","role":"org_admin"}`}); resp.StatusCode != 201 {
		t.Fatalf("invite: %d %s", resp.StatusCode, body)
	}
	e.requestReset("ada@example.com")
	invite := e.mailToken("mia@example.com")
	reset := e.mailToken("ada@example.com")
	resp, body := e.do(nil, request{method: "GET", path: "/org/outbox", header: bearer(admin.AccessToken)})
	if resp.StatusCode != 200 || !strings.Contains(body, "mia@example.com") || !strings.Contains(body, "Reset your TurbineSim password") {
		t.Fatalf("outbox: %d %s", resp.StatusCode, body)
	}
	for _, secret := range []string{invite, reset, "token=", `"body"`} {
		if strings.Contains(body, secret) {
			t.Fatalf("outbox shows %q: %s", secret, body)
		}
	}
	resp, page := e.do(nil, request{method: "GET", path: "/org", header: map[string]string{"Accept": "text/html", "Authorization": "Bearer " + admin.AccessToken}})
	if resp.StatusCode != 200 || strings.Contains(page, invite) || strings.Contains(page, "token=") {
		t.Fatalf("organization page: %d shows a link", resp.StatusCode)
	}
	var columns []string
	if err := e.db.SelectContext(context.Background(), &columns,
		`SELECT column_name FROM information_schema.columns WHERE table_name = 'email_outbox'`); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(columns, "body") {
		t.Fatalf("email_outbox keeps bodies: %v", columns)
	}
}

// Finding "a leaked administrator API key mints a permanent
// administrator": keys carry scopes (simulation work by default) and no
// key changes members, roles, invitations, caps or settings. On main the
// administrator's key invited an org_admin (201), read the invitation
// token from the outbox and changed caps and roles.
func TestAdminKeyCannotManageTheOrganization(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	bob := e.addUser("bob@example.com", "org_member")
	create := func(body string) (int, turbinesim.NewAPIKey) {
		resp, b := e.do(nil, request{method: "POST", path: "/api-keys", header: withJSON(bearer(p.AccessToken)), body: body})
		var k turbinesim.NewAPIKey
		_ = json.Unmarshal([]byte(b), &k)
		return resp.StatusCode, k
	}
	st, k := create(`{"name":"ci"}`)
	if st != 201 || !slices.Equal(k.Scopes, turbinesim.Scopes{turbinesim.ScopeSimulation}) {
		t.Fatalf("default key: %d scopes %v", st, k.Scopes)
	}
	if st, _ := create(`{"name":"x","scopes":["admin"]}`); st != 422 {
		t.Fatalf("unknown scope: %d", st)
	}
	st, reader := create(`{"name":"reader","scopes":["org:read","simulation"]}`)
	if st != 201 || !slices.Equal(reader.Scopes, turbinesim.Scopes{turbinesim.ScopeSimulation, turbinesim.ScopeOrgRead}) {
		t.Fatalf("org:read key: %d scopes %v", st, reader.Scopes)
	}
	writes := []request{
		{method: "POST", path: "/org/members", body: `{"email":"eve@example.com","role":"org_admin"}`},
		{method: "PUT", path: "/org/members/" + bob.ID, body: `{"role":"org_admin"}`},
		{method: "DELETE", path: "/org/members/" + bob.ID},
		{method: "PUT", path: "/org/settings", body: `{"caps":{"spend_cap_cents":999999,"token_cap":999999}}`},
		{method: "POST", path: "/api-keys", body: `{"name":"more"}`},
	}
	for _, key := range []string{k.Key, reader.Key} {
		for _, r := range writes {
			r.header = keyHeader(key)
			resp, body := e.do(nil, r)
			assertDetail(t, resp, body, 403)
		}
	}
	// Reads: simulation work with any key; the organization with org:read.
	for _, c := range []struct {
		path          string
		plain, reader int
	}{{"/dashboard", 200, 200}, {"/org/usage", 200, 200}, {"/account", 200, 200},
		{"/org/members", 403, 200}, {"/org/outbox", 403, 200}, {"/org/settings", 403, 200}, {"/org/audit-log", 403, 200}} {
		for key, want := range map[string]int{k.Key: c.plain, reader.Key: c.reader} {
			resp, body := e.do(nil, request{method: "GET", path: c.path, header: keyHeader(key)})
			if resp.StatusCode != want {
				t.Fatalf("GET %s: %d, want %d: %s", c.path, resp.StatusCode, want, body)
			}
			if want == 403 && !strings.Contains(body, "org:read") {
				t.Fatalf("GET %s: 403 does not name the scope: %s", c.path, body)
			}
		}
	}
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT count(*) FROM users WHERE email = 'eve@example.com' OR (id = $1 AND (role <> 'org_member' OR NOT active))`, bob.ID); err != nil || n != 0 {
		t.Fatalf("a key changed the members: %d %v", n, err)
	}
	// Signed in, the administrator does all of it.
	resp, body := e.do(nil, request{method: "PUT", path: "/org/members/" + bob.ID, header: withJSON(bearer(p.AccessToken)), body: `{"role":"org_admin"}`})
	if resp.StatusCode != 200 {
		t.Fatalf("signed-in role change: %d %s", resp.StatusCode, body)
	}
}

// Finding "duplicate JSON keys are accepted": a body naming a key twice is
// 422 naming the key (on main the last value won: the invitation below
// created an org_admin).
func TestDuplicateJSONKeysAreRefused(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		`{"a":1,"a":2}`:                             "a",
		`{"caps":{"token_cap":1,"token_cap":2}}`:    "caps.token_cap",
		`{"x":{"y":1},"z":[{"k":1},{"k":2,"k":3}]}`: "z.k",
		`{"a":{"b":1},"b":2}`:                       "",
		`[{"k":1},{"k":2}]`:                         "",
		`{"a":"a","b":{"a":1}}`:                     "",
		`{"a":1,"a":`:                               "a", // named before the decoder finds the body cut short
	} {
		got, dup := handlers.FirstDuplicateKey([]byte(body))
		if got != want || dup != (want != "") {
			t.Errorf("%s: %q %v, want %q", body, got, dup, want)
		}
	}
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	resp, body := e.do(nil, request{method: "POST", path: "/org/members", header: withJSON(bearer(p.AccessToken)),
		body: `{"email":"mia@example.com","role":"org_member","role":"org_admin"}`})
	if d := assertDetail(t, resp, body, 422); !strings.Contains(d, "role") {
		t.Fatalf("detail %q does not name the key", d)
	}
	resp, body = e.do(nil, request{method: "PUT", path: "/org/settings", header: withJSON(bearer(p.AccessToken)),
		body: `{"caps":{"spend_cap_cents":1,"token_cap":1,"token_cap":2}}`})
	if d := assertDetail(t, resp, body, 422); !strings.Contains(d, "caps.token_cap") {
		t.Fatalf("detail %q does not name the key", d)
	}
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT count(*) FROM users WHERE email = 'mia@example.com'`); err != nil || n != 0 {
		t.Fatalf("the invitation went through: %d %v", n, err)
	}
}

// Finding "the foreign-Origin WebSocket 403 is plain text": every refusal
// of the progress socket's handshake is {"detail"} JSON.
func TestWebSocketRefusalsAreJSON(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	_, body := je.submitZip(deckZip(t, "1", nil), "Main_Onshore.fst", je.keyed())
	job := decodeInto[turbinesim.Job](t, body)
	upgrade := map[string]string{"X-API-Key": je.key, "Connection": "Upgrade", "Upgrade": "websocket",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "https://evil.example"}
	resp, body := je.do(nil, request{method: "GET", path: "/ws/jobs/" + job.ID, header: upgrade})
	if d := assertDetail(t, resp, body, http.StatusForbidden); !strings.Contains(d, "Origin") {
		t.Fatalf("foreign origin: %q", d)
	}
	resp, body = je.do(nil, request{method: "GET", path: "/ws/jobs/" + job.ID, header: map[string]string{"X-API-Key": je.key}})
	assertDetail(t, resp, body, http.StatusUpgradeRequired)
}

// Finding "old tokens come back": deactivating then reactivating a user,
// and enabling MFA, end every earlier access token, refresh token and
// browser session (a password reset already did). On main bob's access
// and refresh tokens from before his deactivation worked again after the
// reactivation, and tokens from before MFA stayed valid.
func TestCredentialChangesEndOldSessions(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	admin := e.loginJSON()
	e.addUser("bob@example.com", "org_member")
	bobID := ""
	if err := e.db.GetContext(context.Background(), &bobID, `SELECT id FROM users WHERE email = 'bob@example.com'`); err != nil {
		t.Fatal(err)
	}
	bob := e.loginAs("bob@example.com", e.passwd)
	bobBrowser := e.client()
	browserLoginAs(t, e, bobBrowser, "bob@example.com")
	setActive := func(active bool) {
		e.advance(time.Second)
		resp, body := e.do(nil, request{method: "PUT", path: "/org/members/" + bobID, header: withJSON(bearer(admin.AccessToken)),
			body: fmt.Sprintf(`{"active":%v}`, active)})
		if resp.StatusCode != 200 {
			t.Fatalf("active=%v: %d %s", active, resp.StatusCode, body)
		}
	}
	setActive(false)
	setActive(true)
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(bob.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(bob.RefreshToken)
	assertDetail(t, resp, body, 401)
	if resp, _ := e.do(bobBrowser, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}}); resp.StatusCode != 401 {
		t.Fatalf("bob's browser session after reactivation: %d", resp.StatusCode)
	}
	e.loginAs("bob@example.com", e.passwd) // a new sign-in works

	// Enabling MFA: the caller gets a new pair; the old one is dead.
	e.advance(time.Second)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/enrol", header: bearer(admin.AccessToken)})
	var enr handlers.MFAEnrolmentResponse
	if err := json.Unmarshal([]byte(body), &enr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("enrol: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/confirm", header: withJSON(bearer(admin.AccessToken)),
		body: `{"code":"` + totpCode(t, enr.Secret, e.now()) + `"}`})
	var confirmed handlers.MFAConfirmResponse
	if err := json.Unmarshal([]byte(body), &confirmed); err != nil || resp.StatusCode != 200 || confirmed.TokenPair == nil || len(confirmed.RecoveryCodes) != 10 {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(admin.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(admin.RefreshToken)
	assertDetail(t, resp, body, 401)
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(confirmed.AccessToken)}); resp.StatusCode != 200 {
		t.Fatalf("the new token: %d %s", resp.StatusCode, body)
	}
	if resp, body := e.refresh(confirmed.RefreshToken); resp.StatusCode != 200 {
		t.Fatalf("the new refresh token: %d %s", resp.StatusCode, body)
	}
}

// Finding "sign-up tells which addresses have accounts": a sign-up for a
// taken address answers exactly as for a new one and mails the owner. On
// main it answered 409 "an account with this e-mail address exists".
func TestSignUpDoesNotRevealAccounts(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	signUp := func(email string) (int, string) {
		resp, body := e.do(nil, request{method: "POST", path: "/auth/signup", header: jsonHeaders,
			body: fmt.Sprintf(`{"name":"N","email":%q,"password":"attacker's password"}`, email)})
		return resp.StatusCode, strings.ReplaceAll(body, email, "<email>")
	}
	newStatus, newBody := signUp("fresh@example.com")
	takenStatus, takenBody := signUp("ada@example.com")
	if newStatus != http.StatusAccepted || takenStatus != newStatus || takenBody != newBody {
		t.Fatalf("new address: %d %s; taken address: %d %s", newStatus, newBody, takenStatus, takenBody)
	}
	msgs := e.mail.Messages()
	last := msgs[len(msgs)-1]
	if last.To != "ada@example.com" || !strings.HasPrefix(last.Subject, "Someone tried to sign up") || strings.Contains(last.Body, "token=") {
		t.Fatalf("owner's notice: %+v", last)
	}
	// Nothing changed for the owner: the attacker's password does not sign in.
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: `{"email":"ada@example.com","password":"attacker's password"}`})
	assertDetail(t, resp, body, 401)
	e.loginJSON()
	// The browser form answers the same page for both.
	c := e.client()
	_, page := e.do(c, request{method: "GET", path: "/signup", header: map[string]string{"Accept": "text/html"}})
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF field on the sign-up page")
	}
	form := func(email string) (int, string) {
		v := url.Values{"name": {"N"}, "email": {email}, "password": {"attacker's password"}, "_csrf": {m[1]}}
		resp, body := e.do(c, request{method: "POST", path: "/signup", body: v.Encode(),
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Origin": e.http.URL}})
		return resp.StatusCode, strings.ReplaceAll(body, email, "<email>")
	}
	s1, p1 := form("fresh2@example.com")
	s2, p2 := form("ada@example.com")
	if s1 != 200 || s2 != 200 || p1 != p2 || !strings.Contains(p1, `id="signup-sent"`) {
		t.Fatalf("form: %d vs %d, same page %v", s1, s2, p1 == p2)
	}
}
