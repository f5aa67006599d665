package handlers_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/handlers"
)

// mockIdP is a small OAuth 2.0 / OpenID Connect provider: /authorize
// issues a code for the challenge, /token checks client credentials, the
// redirect URI and the S256 PKCE verifier, /userinfo answers for the
// token.
type mockIdP struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	user     map[string]any               // what /userinfo returns
	codes    map[string]map[string]string // code → challenge, redirect_uri
	verified int                          // successful PKCE checks
}

func newMockIdP(t *testing.T) *mockIdP {
	m := &mockIdP{t: t, codes: map[string]map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "client-1" || q.Get("response_type") != "code" {
			http.Error(w, "bad authorize request", 400)
			return
		}
		code := "code-" + q.Get("state")
		m.mu.Lock()
		m.codes[code] = map[string]string{"challenge": q.Get("code_challenge"), "redirect_uri": q.Get("redirect_uri")}
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
		m.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"idp-token","token_type":"Bearer"}`))
	})
	mux.HandleFunc("GET /userinfo", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer idp-token" {
			http.Error(w, "no", 401)
			return
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		_ = json.NewEncoder(w).Encode(m.user)
	})
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	return m
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
	if err := db.NewUserService(d).CreateUser(ctx, e.admin, e.passwd); err != nil {
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
	}}
	srv, err := handlers.New(cfg, svc)
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
	if q := loc.Query(); q.Get("state") == "" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
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
