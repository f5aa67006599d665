package handlers_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim/handlers"
)

// B2, B3, B4, B10 (and C5): algorithm and encoding attacks on the bearer
// token. Only HS256 with the server's key is accepted; "none" in any
// spelling, RS256, HS256 keyed with a public key, HS384/HS512, a flipped
// signature byte and re-encoded signatures are 401. The kid header is not
// consulted (one symmetric key), so hostile kid values change nothing: a
// bad signature stays 401 without a 5xx, a good one stays valid.
func TestBearerAlgorithmMatrix(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	now := e.now()
	claims := jwt.MapClaims{"sub": e.admin.ID, "email": "ada@example.com", "org_id": e.org.ID, "role": "org_admin",
		"iss": "turbinesim", "aud": "api", "iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix()}
	seg := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	body := seg(claims)
	signWith := func(m jwt.SigningMethod, key any, hdr map[string]any) string {
		tok := jwt.NewWithClaims(m, claims)
		for k, v := range hdr {
			tok.Header[k] = v
		}
		s, err := tok.SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	good := signWith(jwt.SigningMethodHS256, []byte(testSecret), nil)
	parts := strings.Split(good, ".")
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	flipped := append([]byte{}, sig...)
	flipped[0] ^= 1
	longKid := strings.Repeat("k", 10_000)

	for name, tok := range map[string]string{
		"B2 alg none":          seg(map[string]string{"alg": "none", "typ": "JWT"}) + "." + body + ".",
		"B2 alg noNE":          seg(map[string]string{"alg": "noNE", "typ": "JWT"}) + "." + body + ".",
		"B2 alg None":          seg(map[string]string{"alg": "None", "typ": "JWT"}) + "." + body + ".",
		"B2 none, no dot":      seg(map[string]string{"alg": "none"}) + "." + body,
		"B3 RS256":             signWith(jwt.SigningMethodRS256, rsaKey, nil),
		"B3 HS256 with PEM":    signWith(jwt.SigningMethodHS256, pubPEM, nil),
		"B4 HS384":             signWith(jwt.SigningMethodHS384, []byte(testSecret), nil),
		"B4 HS512":             signWith(jwt.SigningMethodHS512, []byte(testSecret), nil),
		"B4 flipped signature": parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(flipped),
		"B4 padded signature":  good + "=",
		"B4 std base64 sig":    parts[0] + "." + parts[1] + "." + base64.StdEncoding.EncodeToString(sig),
		"B4 padded header":     parts[0] + "==." + parts[1] + "." + parts[2],
		"B4 padded claims":     parts[0] + "." + parts[1] + "=." + parts[2],
		"B10 kid traversal":    signWith(jwt.SigningMethodHS256, []byte("wrong-key-0123456789-0123456789-xx"), map[string]any{"kid": "../../dev/null"}),
		"B10 kid SQL":          signWith(jwt.SigningMethodHS256, []byte("wrong-key-0123456789-0123456789-xx"), map[string]any{"kid": "' OR 1=1--"}),
		"B10 kid 10 kB":        signWith(jwt.SigningMethodHS256, []byte("wrong-key-0123456789-0123456789-xx"), map[string]any{"kid": longKid}),
	} {
		resp, b := e.do(nil, request{method: "GET", path: "/account", header: bearer(tok)})
		if resp.StatusCode != 401 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, b)
			continue
		}
		assertDetail(t, resp, b, 401)
	}
	// The kid is ignored: with the right key the token is valid whatever
	// kid says.
	for _, kid := range []string{"../../dev/null", "' OR 1=1--"} {
		if resp, b := e.do(nil, request{method: "GET", path: "/account", header: bearer(signWith(jwt.SigningMethodHS256, []byte(testSecret), map[string]any{"kid": kid}))}); resp.StatusCode != 200 {
			t.Fatalf("kid %q: %d %s", kid, resp.StatusCode, b)
		}
	}
	// C5: a refresh token at a resource endpoint.
	p := e.loginJSON()
	resp, b := e.do(nil, request{method: "GET", path: "/account", header: bearer(p.RefreshToken)})
	assertDetail(t, resp, b, 401)
}

// G1: session fixation. The anonymous session of the login page (S0), and
// a cookie value an attacker planted, are replaced at sign-in; afterwards
// S0 authenticates nothing.
func TestSessionFixation(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	c := e.client()
	u, _ := url.Parse(e.http.URL)
	c.Jar.SetCookies(u, []*http.Cookie{{Name: "turbinesim_session", Value: "attacker-chosen-value", Path: "/"}})
	browserLogin(t, e, c) // fails unless the cookie changed at sign-in
	s1 := sessionCookie(e, c)
	if s1 == "attacker-chosen-value" {
		t.Fatal("planted session value kept")
	}
	// S0: the anonymous session of another browser's login page.
	c2 := e.client()
	e.do(c2, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	s0 := sessionCookie(e, c2)
	if s0 == "" {
		t.Fatal("no anonymous session on the login page")
	}
	csrf := browserLogin(t, e, c2)
	if s := sessionCookie(e, c2); s == s0 {
		t.Fatal("session token not renewed at login")
	}
	for _, old := range []string{s0, "attacker-chosen-value"} {
		resp, b := e.do(nil, request{method: "GET", path: "/account",
			header: map[string]string{"Cookie": "turbinesim_session=" + old, "Accept": "application/json"}})
		assertDetail(t, resp, b, 401)
	}
	if csrf == "" {
		t.Fatal("no CSRF token in the new session")
	}
}

// G2: with HTTPS (SecureCookies), the session cookie is
// __Host-turbinesim_session; Secure; HttpOnly; SameSite=Lax; Path=/; no
// Domain.
func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(cfg *handlers.Config, _ *handlers.Services) { cfg.SecureCookies = true })
	resp, _ := e.do(nil, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	var found bool
	for _, raw := range resp.Header.Values("Set-Cookie") {
		ck, err := http.ParseSetCookie(raw)
		if err != nil || ck.Name != "__Host-turbinesim_session" {
			continue
		}
		found = true
		if !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Domain != "" ||
			strings.Contains(strings.ToLower(raw), "domain=") {
			t.Fatalf("cookie attributes: %q", raw)
		}
	}
	if !found {
		t.Fatalf("no __Host- session cookie in %v", resp.Header.Values("Set-Cookie"))
	}
}

// F6: the post-login target honours only same-origin relative paths.
func TestOpenRedirectVariants(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for next, want := range map[string]string{
		"https://evil.example":   "/dashboard",
		"//evil.example":         "/dashboard",
		`/\evil.example`:         "/dashboard",
		`\/\/evil.example`:       "/dashboard",
		"https:evil.example":     "/dashboard",
		"javascript:alert(1)":    "/dashboard",
		"/\r\nLocation: //evil":  "/dashboard",
		"/%2F%2Fevil.example":    "/%2F%2Fevil.example", // a same-origin path: %2F stays in the path
		"/ok":                    "/ok",
		"/turbines?page=2#frag":  "/turbines?page=2#frag",
		"":                       "/dashboard",
		"http://127.0.0.1/other": "/dashboard",
	} {
		c := e.client()
		_, page := e.do(c, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
		m := csrfField.FindStringSubmatch(page)
		form := url.Values{"email": {"ada@example.com"}, "password": {e.passwd}, "_csrf": {m[1]}, "next": {next}}
		resp, _ := e.do(c, request{method: "POST", path: "/auth/login", body: form.Encode(),
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("next=%q: %d to %q, want %q", next, resp.StatusCode, loc, want)
		}
	}
}

// J4: rotating X-Forwarded-For does not escape the sign-in back-off (the
// header is not trusted without TRUSTED_PROXIES): the pair is the socket
// peer's.
func TestLoginThrottleIgnoresForwardedFor(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	for i := range 5 {
		resp, _ := e.do(nil, request{method: "POST", path: "/auth/login",
			header: map[string]string{"Content-Type": "application/json", "X-Forwarded-For": fmt.Sprintf("203.0.113.%d", i), "X-Real-IP": fmt.Sprintf("198.51.100.%d", i)},
			body:   `{"email":"ada@example.com","password":"wrong password!"}`})
		if resp.StatusCode != 401 {
			t.Fatalf("failure %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, b := e.do(nil, request{method: "POST", path: "/auth/login",
		header: map[string]string{"Content-Type": "application/json", "X-Forwarded-For": "192.0.2.200"},
		body:   fmt.Sprintf(`{"email":"ada@example.com","password":%q}`, e.passwd)})
	assertDetail(t, resp, b, http.StatusTooManyRequests)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	var clients []string
	if err := e.db.SelectContext(context.Background(), &clients, `SELECT client FROM login_backoff`); err != nil || len(clients) != 1 || clients[0] != "127.0.0.1" {
		t.Fatalf("back-off keyed by a forwarded address: %v %v", clients, err)
	}
}

// J11: unauthenticated and badly authenticated requests carry no
// rate-limit headers (nothing about anybody's quota) and consume none.
func TestRefusedRequestsConsumeNoQuota(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, true)
	p := e.loginJSON()
	expired := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": e.admin.ID, "iss": "turbinesim", "aud": "api",
		"iat": e.now().Add(-time.Hour).Unix(), "exp": e.now().Add(-30 * time.Minute).Unix()})
	exp, _ := expired.SignedString([]byte(testSecret))
	for range 40 { // more than the Beta per-user limit of 30
		for _, h := range []map[string]string{{"Accept": "application/json"}, bearer(exp), keyHeader("ofk_nope")} {
			resp, b := e.do(nil, request{method: "GET", path: "/account", header: h})
			assertDetail(t, resp, b, 401)
			for _, name := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
				if resp.Header.Get(name) != "" {
					t.Fatalf("401 carries %s", name)
				}
			}
		}
	}
	resp, _ := e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	if _, remaining, _ := rateHeaders(t, resp); resp.StatusCode != 200 || remaining != 29 {
		t.Fatalf("after 120 refused requests: %d remaining %d, want 200 and 29", resp.StatusCode, remaining)
	}
}

// C1: replaying a rotated refresh token is logged as a refused request
// naming the reuse, and the log holds no token.
func TestRefreshReuseIsLogged(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	if resp, _ := e.refresh(p.RefreshToken); resp.StatusCode != 200 {
		t.Fatalf("first refresh: %d", resp.StatusCode)
	}
	resp, b := e.refresh(p.RefreshToken)
	assertDetail(t, resp, b, 401)
	logs := e.logs.String()
	if !strings.Contains(logs, "refresh token was already used") || strings.Contains(logs, p.RefreshToken) || strings.Contains(logs, p.AccessToken) {
		t.Fatalf("reuse not logged, or a token in the log:\n%s", logs)
	}
}

// D6, D8 over HTTP: regenerating recovery codes needs the password and a
// current code (an API key gets 403); the old set dies with it.
func TestRegenerateRecoveryCodesNeedsReauthentication(t *testing.T) {
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
	var old handlers.RecoveryCodesResponse
	if err := json.Unmarshal([]byte(body), &old); err != nil || resp.StatusCode != 200 {
		t.Fatalf("confirm: %d %s", resp.StatusCode, body)
	}
	e.advance(30 * time.Second)
	code := totpCode(t, enr.Secret, e.now())
	for name, b := range map[string]string{
		"wrong password": `{"password":"wrong password!","code":"` + code + `"}`,
		"no code":        fmt.Sprintf(`{"password":%q}`, e.passwd),
		"wrong code":     fmt.Sprintf(`{"password":%q,"code":"000000"}`, e.passwd),
	} {
		resp, body := e.do(nil, request{method: "POST", path: "/account/mfa/recovery-codes", header: withJSON(bearer(p.AccessToken)), body: b})
		if resp.StatusCode != 401 {
			t.Fatalf("%s: %d %s", name, resp.StatusCode, body)
		}
		assertDetail(t, resp, body, 401)
	}
	e.advance(30 * time.Second)
	code = totpCode(t, enr.Secret, e.now())
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys", header: withJSON(bearer(p.AccessToken)), body: `{"name":"k"}`})
	var k struct {
		Key string `json:"key"`
	}
	_ = json.Unmarshal([]byte(body), &k)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/recovery-codes", header: keyHeader(k.Key),
		body: fmt.Sprintf(`{"password":%q,"code":%q}`, e.passwd, code)})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "POST", path: "/account/mfa/recovery-codes", header: withJSON(bearer(p.AccessToken)),
		body: fmt.Sprintf(`{"password":%q,"code":%q}`, e.passwd, code)})
	var fresh handlers.RecoveryCodesResponse
	if err := json.Unmarshal([]byte(body), &fresh); err != nil || resp.StatusCode != 200 || len(fresh.RecoveryCodes) != 10 {
		t.Fatalf("regenerate: %d %s", resp.StatusCode, body)
	}
	login := func(otp string) int {
		resp, _ := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
			body: fmt.Sprintf(`{"email":"ada@example.com","password":%q,"otp_code":%q}`, e.passwd, otp)})
		return resp.StatusCode
	}
	if st := login(old.RecoveryCodes[0]); st != 401 {
		t.Fatalf("old recovery code after regeneration: %d", st)
	}
	if st := login(fresh.RecoveryCodes[0]); st != 200 {
		t.Fatalf("new recovery code: %d", st)
	}
}
