package handlers_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/handlers"
)

// mockIdP is a small OAuth 2.0 / OpenID Connect provider: /authorize
// issues a code for the challenge (and remembers the nonce), /token checks
// client credentials, the redirect URI and the S256 PKCE verifier and
// returns an RS256 ID token signed with the key /jwks publishes, /userinfo
// answers for the access token.
type mockIdP struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	user     map[string]any               // claims of the ID token and what /userinfo returns
	codes    map[string]map[string]string // code → challenge, redirect_uri, nonce
	verified int                          // successful PKCE checks
	key      *rsa.PrivateKey
	kid      string
	now      func() time.Time
	// forge, when set, rewrites the ID token (claims, then the signed
	// string) to test the relying party's checks.
	forge func(claims jwt.MapClaims) string
	// userinfo, when set, is what /userinfo answers instead of user.
	userinfo map[string]any
	// log collects the relying party's log lines (newSSOEnv).
	log lockedBuffer
}

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newMockIdP(t *testing.T) *mockIdP {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	m := &mockIdP{t: t, codes: map[string]map[string]string{}, key: key, kid: "k1", now: time.Now}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "client-1" || q.Get("response_type") != "code" {
			http.Error(w, "bad authorize request", 400)
			return
		}
		code := "code-" + q.Get("state")
		m.mu.Lock()
		m.codes[code] = map[string]string{"challenge": q.Get("code_challenge"), "redirect_uri": q.Get("redirect_uri"), "nonce": q.Get("nonce")}
		m.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		m.mu.Lock()
		c, ok := m.codes[r.PostForm.Get("code")]
		delete(m.codes, r.PostForm.Get("code"))
		m.mu.Unlock()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || r.PostForm.Get("client_secret") != "secret-1" || r.PostForm.Get("redirect_uri") != c["redirect_uri"] ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != c["challenge"] {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		m.mu.Lock()
		m.verified++
		claims := jwt.MapClaims{"iss": m.srv.URL, "aud": "client-1", "nonce": c["nonce"],
			"iat": m.now().Unix(), "exp": m.now().Add(5 * time.Minute).Unix()}
		for k, v := range m.user {
			claims[k] = v
		}
		forge, key, kid := m.forge, m.key, m.kid
		m.mu.Unlock()
		var idToken string
		if forge != nil {
			idToken = forge(claims)
		} else {
			idToken = m.sign(claims, key, kid)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "idp-token", "token_type": "Bearer", "id_token": idToken})
	})
	mux.HandleFunc("GET /userinfo", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer idp-token" {
			http.Error(w, "no", 401)
			return
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.userinfo != nil {
			_ = json.NewEncoder(w).Encode(m.userinfo)
			return
		}
		_ = json.NewEncoder(w).Encode(m.user)
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		pub, kid := m.key.PublicKey, m.kid
		m.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": []map[string]string{{
			"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
			"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
			"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
		}}})
	})
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	return m
}

// sign makes an RS256 JWT with key and kid.
func (m *mockIdP) sign(claims jwt.MapClaims, key *rsa.PrivateKey, kid string) string {
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		m.t.Fatal(err)
	}
	return s
}

func (m *mockIdP) setForge(f func(jwt.MapClaims) string) {
	m.mu.Lock()
	m.forge = f
	m.mu.Unlock()
}

func (m *mockIdP) setUser(u map[string]any) {
	m.mu.Lock()
	m.user = u
	m.mu.Unlock()
}

func newSSOEnv(t *testing.T, idp *mockIdP) *env {
	t.Helper()
	d := dbtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(int64(1_780_000_000) * 1e9)
	ctx := context.Background()
	e.org = &turbinesim.Organization{Name: "Acme Wind"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.admin = &turbinesim.User{OrganizationID: e.org.ID, Email: "ada@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := testUsers(d).CreateUser(ctx, e.admin, e.passwd); err != nil {
		t.Fatal(err)
	}
	cfg, svc := e.config(d)
	svc.SSO = db.NewSSOService(d)
	svc.RefreshTokens = db.NewRefreshTokenService(d)
	// The callback URL depends on the test server's address: route through
	// a handler that is set once the server exists.
	var h http.Handler
	e.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(e.http.Close)
	cfg.SSO = map[string]handlers.SSOProvider{"google": {
		ClientID: "client-1", ClientSecret: "secret-1", Kind: "oidc",
		AuthURL: idp.srv.URL + "/authorize", TokenURL: idp.srv.URL + "/token", UserInfoURL: idp.srv.URL + "/userinfo",
		Scopes: []string{"openid", "email"}, RedirectURL: e.http.URL + "/auth/sso/google/callback",
		Issuers: []string{idp.srv.URL}, JWKSURL: idp.srv.URL + "/jwks",
	}}
	idp.now = e.now
	cfg.Logger = slog.New(slog.NewTextHandler(&idp.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	e.srv, h = srv, srv
	return e
}

// ssoFlow runs login → IdP → callback in the browser c and returns the
// callback response.
func ssoFlow(t *testing.T, e *env, c *http.Client) (*http.Response, string) {
	t.Helper()
	resp, _ := e.do(c, request{method: "GET", path: "/auth/sso/google/login", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if q := loc.Query(); q.Get("state") == "" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" || q.Get("nonce") == "" {
		t.Fatalf("authorize URL %s", loc)
	}
	idpResp, err := c.Get(loc.String()) // the IdP redirects back; the client does not follow
	if err != nil {
		t.Fatal(err)
	}
	idpResp.Body.Close()
	cb, _ := url.Parse(idpResp.Header.Get("Location"))
	return e.do(c, request{method: "GET", path: cb.Path + "?" + cb.RawQuery, header: map[string]string{"Accept": "application/json"}})
}

// F1, F2, F3, F5, F7, F8 and the unconfigured-provider 404, end to end
// against a local identity provider.
func TestSSOEndToEnd(t *testing.T) {
	t.Parallel()
	idp := newMockIdP(t)
	e := newSSOEnv(t, idp)

	// Unconfigured provider.
	resp, body := e.do(nil, request{method: "GET", path: "/auth/sso/github/login", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 404)

	// A new verified identity creates a verified account and lands with
	// the token in the fragment, never in the query.
	idp.setUser(map[string]any{"sub": "g-1", "email": "New@Example.com", "email_verified": true, "name": "Neo"})
	browser := e.client()
	resp, _ = ssoFlow(t, e, browser)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/account" || loc.RawQuery != "" || !strings.Contains(loc.Fragment, "access_token=") ||
		resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("callback: %d Location=%q headers %v", resp.StatusCode, resp.Header.Get("Location"), resp.Header)
	}
	frag, _ := url.ParseQuery(loc.Fragment)
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(frag.Get("access_token"))})
	if resp.StatusCode != 200 || !strings.Contains(body, `"email":"new@example.com"`) || !strings.Contains(body, `"verified":true`) {
		t.Fatalf("account of the SSO user: %d %s", resp.StatusCode, body)
	}
	// The browser has a session too.
	if resp, _ := e.do(browser, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}}); resp.StatusCode != 200 {
		t.Fatalf("session after SSO: %d", resp.StatusCode)
	}
	if idp.verified != 1 {
		t.Fatalf("PKCE verified %d times", idp.verified)
	}

	// F1: a callback without the state of this browser, or replayed.
	resp, _ = e.do(browser, request{method: "GET", path: "/auth/sso/google/login"})
	authorize, _ := url.Parse(resp.Header.Get("Location"))
	idpResp, err := browser.Get(authorize.String())
	if err != nil {
		t.Fatal(err)
	}
	idpResp.Body.Close()
	cb, _ := url.Parse(idpResp.Header.Get("Location"))
	cbPath := cb.Path + "?" + cb.RawQuery
	// F2: the same callback URL in another browser (login CSRF).
	resp, body = e.do(e.client(), request{method: "GET", path: cbPath, header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 403)
	// Wrong state in the right browser consumes the flow...
	bad := strings.Replace(cbPath, "state=", "state=x", 1)
	resp, body = e.do(browser, request{method: "GET", path: bad, header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 403)
	// ...so the genuine callback is now a replay.
	resp, body = e.do(browser, request{method: "GET", path: cbPath, header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 403)

	// F8: provider error, missing code.
	resp, body = e.do(browser, request{method: "GET", path: "/auth/sso/google/callback?error=access_denied", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 422)

	// F5: an unverified e-mail of an existing account neither signs in nor
	// creates anything.
	idp.setUser(map[string]any{"sub": "attacker", "email": "ada@example.com", "email_verified": false})
	resp, body = ssoFlow(t, e, e.client())
	assertDetail(t, resp, body, 403)
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT count(*) FROM sso_identities WHERE subject = 'attacker'`); err != nil || n != 0 {
		t.Fatalf("identity linked by an unverified address: %d %v", n, err)
	}
	// A verified address links the existing account; the link then holds
	// by subject even if the e-mail changes at the provider.
	idp.setUser(map[string]any{"sub": "g-ada", "email": "ada@example.com", "email_verified": "true"})
	resp, _ = ssoFlow(t, e, e.client())
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("linking by verified e-mail: %d", resp.StatusCode)
	}
	idp.setUser(map[string]any{"sub": "g-ada", "email": "changed@example.com", "email_verified": false})
	resp, _ = ssoFlow(t, e, e.client())
	loc, _ = url.Parse(resp.Header.Get("Location"))
	frag, _ = url.ParseQuery(loc.Fragment)
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(frag.Get("access_token"))})
	if resp.StatusCode != 200 || !strings.Contains(body, e.admin.ID) {
		t.Fatalf("linked sign-in: %d %s", resp.StatusCode, body)
	}
}

// F4: the callback accepts only an ID token signed by a key of the
// provider's JWKS, for our client, from the provider's issuer, unexpired,
// carrying this browser's nonce; every forgery is a 401 that creates
// nothing and signs nobody in. F7: the token in the landing URL never
// reaches the server's log.
func TestSSOIDTokenVerification(t *testing.T) {
	t.Parallel()
	idp := newMockIdP(t)
	e := newSSOEnv(t, idp)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	hsWithPublicKey := func(c jwt.MapClaims) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
		tok.Header["kid"] = "k1"
		s, err := tok.SignedString(idp.key.PublicKey.N.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for name, forge := range map[string]func(jwt.MapClaims) string{
		"wrong aud": func(c jwt.MapClaims) string { c["aud"] = "someone-else"; return idp.sign(c, idp.key, "k1") },
		"extra aud, no azp": func(c jwt.MapClaims) string {
			c["aud"] = []string{"client-1", "someone-else"}
			return idp.sign(c, idp.key, "k1")
		},
		"wrong iss":   func(c jwt.MapClaims) string { c["iss"] = "https://evil.example"; return idp.sign(c, idp.key, "k1") },
		"wrong nonce": func(c jwt.MapClaims) string { c["nonce"] = "replayed"; return idp.sign(c, idp.key, "k1") },
		"no nonce":    func(c jwt.MapClaims) string { delete(c, "nonce"); return idp.sign(c, idp.key, "k1") },
		"expired": func(c jwt.MapClaims) string {
			c["exp"] = e.now().Add(-2 * time.Minute).Unix()
			return idp.sign(c, idp.key, "k1")
		},
		"no exp":        func(c jwt.MapClaims) string { delete(c, "exp"); return idp.sign(c, idp.key, "k1") },
		"unknown key":   func(c jwt.MapClaims) string { return idp.sign(c, other, "k1") },
		"unknown kid":   func(c jwt.MapClaims) string { return idp.sign(c, other, "k2") },
		"HS256 pub key": hsWithPublicKey,
		"alg none": func(c jwt.MapClaims) string {
			s, _ := jwt.NewWithClaims(jwt.SigningMethodNone, c).SignedString(jwt.UnsafeAllowNoneSignatureType)
			return s
		},
		"flipped signature": func(c jwt.MapClaims) string {
			s := idp.sign(c, idp.key, "k1")
			last := s[len(s)-2]
			flip := byte('A')
			if last == 'A' {
				flip = 'B'
			}
			return s[:len(s)-2] + string(flip) + s[len(s)-1:]
		},
		"no id_token": func(jwt.MapClaims) string { return "" },
	} {
		idp.setUser(map[string]any{"sub": "forged-" + name, "email": "forged@example.com", "email_verified": true})
		idp.setForge(forge)
		browser := e.client()
		resp, body := ssoFlow(t, e, browser)
		if resp.StatusCode != 401 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
			continue
		}
		assertDetail(t, resp, body, 401)
		if resp, _ := e.do(browser, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}}); resp.StatusCode != 401 {
			t.Errorf("%s: the browser got a session (%d)", name, resp.StatusCode)
		}
	}
	var n int
	if err := e.db.GetContext(context.Background(), &n, `SELECT count(*) FROM users WHERE email = 'forged@example.com'`); err != nil || n != 0 {
		t.Fatalf("forged ID tokens created %d accounts (%v)", n, err)
	}

	// User info of another subject than the verified ID token is refused.
	idp.setForge(nil)
	idp.setUser(map[string]any{"sub": "id-token-sub", "email": "id@example.com", "email_verified": true})
	idp.mu.Lock()
	idp.userinfo = map[string]any{"sub": "someone-else", "email": "other@example.com", "email_verified": true}
	idp.mu.Unlock()
	resp, body := ssoFlow(t, e, e.client())
	assertDetail(t, resp, body, 401)
	idp.mu.Lock()
	idp.userinfo = nil
	idp.mu.Unlock()

	// The genuine token works, also when the key set rotates: an unknown
	// kid makes the relying party fetch the JWKS again.
	idp.setForge(nil)
	idp.setUser(map[string]any{"sub": "real", "email": "real@example.com", "email_verified": true})
	if resp, body := ssoFlow(t, e, e.client()); resp.StatusCode != http.StatusFound {
		t.Fatalf("genuine ID token: %d %s", resp.StatusCode, body)
	}
	rotated, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	idp.mu.Lock()
	idp.key, idp.kid = rotated, "k2"
	idp.mu.Unlock()
	e.advance(2 * time.Minute) // past the refetch guard
	resp, body = ssoFlow(t, e, e.client())
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("after key rotation: %d %s", resp.StatusCode, body)
	}
	// F7: the access token is in the fragment only and is not logged.
	loc, _ := url.Parse(resp.Header.Get("Location"))
	frag, _ := url.ParseQuery(loc.Fragment)
	if frag.Has("refresh_token") || frag.Get("token_type") != "bearer" {
		t.Fatalf("fragment %q: only the 15-minute access token belongs there", loc.Fragment)
	}
	if tok := frag.Get("access_token"); tok == "" || strings.Contains(idp.log.String(), tok) || strings.Contains(idp.log.String(), "idp-token") ||
		!strings.Contains(idp.log.String(), "/auth/sso/google/callback") {
		t.Fatalf("token missing from the fragment or present in the log")
	}
}

// The login page shows a button for each configured provider, and none
// for the others.
func TestLoginPageShowsConfiguredSSOButtons(t *testing.T) {
	t.Parallel()
	e := newSSOEnv(t, newMockIdP(t))
	resp, page := e.do(nil, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != 200 || !strings.Contains(page, `id="sso-google" href="/auth/sso/google/login"`) ||
		!strings.Contains(page, "Sign in with Google") || strings.Contains(page, "sso-github") || strings.Contains(page, "sso-microsoft") {
		t.Fatalf("login page: %d, Google button only expected", resp.StatusCode)
	}
}

// The production provider table: Google and Microsoft carry what ID-token
// verification needs (the server refuses to start otherwise), GitHub stays
// plain OAuth 2.0, and the login page offers the three.
func TestSSOProvidersFromEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{"SSO_GOOGLE_CLIENT_ID": "g", "SSO_GITHUB_CLIENT_ID": "h", "SSO_MICROSOFT_CLIENT_ID": "m", "SSO_MICROSOFT_TENANT": "contoso.example"}
	ps := handlers.SSOProvidersFromEnv(func(k string) string { return env[k] }, "https://sim.example/")
	g, ms, gh := ps["google"], ps["microsoft"], ps["github"]
	if g.Kind != "oidc" || g.JWKSURL == "" || len(g.Issuers) == 0 || g.RedirectURL != "https://sim.example/auth/sso/google/callback" {
		t.Fatalf("google %+v", g)
	}
	if ms.Kind != "oidc" || ms.Issuers[0] != "https://login.microsoftonline.com/{tenantid}/v2.0" ||
		ms.JWKSURL != "https://login.microsoftonline.com/contoso.example/discovery/v2.0/keys" {
		t.Fatalf("microsoft %+v", ms)
	}
	if gh.Kind != "github" || gh.JWKSURL != "" {
		t.Fatalf("github %+v", gh)
	}
	// handlers.New validates the table; the sign-in service is not reached
	// by the login page.
	e := newEnv(t, func(cfg *handlers.Config, svc *handlers.Services) {
		cfg.SSO = ps
		svc.SSO = unusedSSO{}
	})
	resp, page := e.do(nil, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	for _, name := range []string{"google", "microsoft", "github"} {
		if resp.StatusCode != 200 || !strings.Contains(page, `id="sso-`+name+`"`) {
			t.Fatalf("login page lacks the %s button (%d)", name, resp.StatusCode)
		}
	}
	// An OIDC provider without keys to verify ID tokens is a configuration
	// error, not a silently unverified sign-in.
	bad := map[string]handlers.SSOProvider{"google": {Kind: "oidc", ClientID: "g"}}
	cfg, svc := e.config(e.db)
	cfg.SSO, svc.SSO = bad, unusedSSO{}
	if _, err := newServer(cfg, svc); err == nil {
		t.Fatal("an OIDC provider without JWKS was accepted")
	}
}

type unusedSSO struct{}

func (unusedSSO) SignInSSO(context.Context, turbinesim.SSOIdentity) (*turbinesim.User, error) {
	return nil, turbinesim.Errorf(turbinesim.EINTERNAL, "not used by this test")
}
