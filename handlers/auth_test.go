package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim/handlers"
)

func bearer(tok string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + tok, "Accept": "application/json"}
}

func TestLoginIssuesContractTokenPair(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pair := e.loginJSON()
	if pair.TokenType != "bearer" || pair.ExpiresIn != 900 || pair.AccessToken == "" || pair.RefreshToken == "" {
		t.Fatalf("token pair = %+v", pair)
	}
	tok, _, err := jwt.NewParser().ParseUnverified(pair.AccessToken, jwt.MapClaims{})
	if err != nil {
		t.Fatal(err)
	}
	mc := tok.Claims.(jwt.MapClaims)
	if tok.Header["alg"] != "HS256" || mc["sub"] != e.admin.ID || mc["email"] != "ada@example.com" ||
		mc["org_id"] != e.org.ID || mc["role"] != "org_admin" {
		t.Fatalf("access token header %v claims %v", tok.Header, mc)
	}
	exp, _ := mc.GetExpirationTime()
	if d := exp.Sub(e.now()); d < 14*time.Minute || d > 15*time.Minute+time.Second {
		t.Fatalf("access token lifetime %v, want 15 min", d)
	}
	rt, _, _ := jwt.NewParser().ParseUnverified(pair.RefreshToken, jwt.MapClaims{})
	rexp, _ := rt.Claims.(jwt.MapClaims).GetExpirationTime()
	if d := rexp.Sub(e.now()); d < 30*24*time.Hour-time.Minute || d > 30*24*time.Hour+time.Second {
		t.Fatalf("refresh token lifetime %v, want 30 days", d)
	}

	resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(pair.AccessToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("account with the access token: %d %s", resp.StatusCode, body)
	}
	var acct handlers.AccountResponse
	if err := json.Unmarshal([]byte(body), &acct); err != nil || acct.User.ID != e.admin.ID || acct.Organization.Name != "Acme Wind" || acct.AuthMethod != "bearer" {
		t.Fatalf("account = %s (%v)", body, err)
	}
	// A refresh token is not an access token.
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(pair.RefreshToken)})
	assertDetail(t, resp, body, 401)
}

// RFC 8725 §3.1: only HS256 with our key; no "none", no other algorithm.
func TestBearerRejectsForgedTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	claims := jwt.MapClaims{"sub": e.admin.ID, "email": "ada@example.com", "org_id": e.org.ID, "role": "org_admin",
		"iss": "turbinesim", "aud": "api", "iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hs384, _ := jwt.NewWithClaims(jwt.SigningMethodHS384, claims).SignedString([]byte(testSecret))
	wrongKey, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte("another-secret-0123456789-0123456789"))
	noExp := jwt.MapClaims{"sub": e.admin.ID, "iss": "turbinesim", "aud": "api"}
	withoutExp, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, noExp).SignedString([]byte(testSecret))
	good, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(testSecret))
	for name, tok := range map[string]string{"none": none, "HS384": hs384, "wrong key": wrongKey, "no exp": withoutExp} {
		resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(tok)})
		if resp.StatusCode != 401 {
			t.Errorf("%s: status %d, want 401", name, resp.StatusCode)
		}
		assertDetail(t, resp, body, 401)
		if resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", name)
		}
	}
	// The same claims signed properly are accepted: the rejections above
	// are about the signature, not the claims.
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(good)}); resp.StatusCode != 200 {
		t.Fatalf("well-signed token: %d %s", resp.StatusCode, body)
	}
}

func TestAccessTokenExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pair := e.loginJSON()
	e.advance(14 * time.Minute)
	if resp, _ := e.do(nil, request{method: "GET", path: "/account", header: bearer(pair.AccessToken)}); resp.StatusCode != 200 {
		t.Fatalf("after 14 min: %d, want 200", resp.StatusCode)
	}
	e.advance(2 * time.Minute)
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(pair.AccessToken)})
	assertDetail(t, resp, body, 401)
}

func TestDeactivatedUserIsRefusedOnNextRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pair := e.loginJSON()
	c := e.client()
	browserLogin(t, e, c)
	if _, err := e.db.ExecContext(context.Background(), `UPDATE users SET active = false WHERE id = $1`, e.admin.ID); err != nil {
		t.Fatal(err)
	}
	resp, body := e.do(nil, request{method: "GET", path: "/dashboard", header: bearer(pair.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, body = e.do(c, request{method: "GET", path: "/dashboard", header: jsonHeader})
	assertDetail(t, resp, body, 401)
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// browserLogin signs in through the login form like a browser and returns
// the CSRF token of the new session.
func browserLogin(t *testing.T, e *env, c *http.Client) string {
	t.Helper()
	return browserLoginAs(t, e, c, "ada@example.com")
}

// browserLoginAs signs c in as email through the login form and returns
// the CSRF token of its pages.
func browserLoginAs(t *testing.T, e *env, c *http.Client, email string) string {
	t.Helper()
	html := map[string]string{"Accept": "text/html"}
	resp, body := e.do(c, request{method: "GET", path: "/login", header: html})
	m := csrfField.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil {
		t.Fatalf("login page: %d, csrf field found: %v", resp.StatusCode, m != nil)
	}
	before := sessionCookie(e, c)
	form := url.Values{"email": {email}, "password": {e.passwd}, "_csrf": {m[1]}, "next": {"/account"}}
	resp, body = e.do(c, request{method: "POST", path: "/auth/login", body: form.Encode(),
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html",
			"Origin": e.http.URL, "Sec-Fetch-Site": "same-origin"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account" {
		t.Fatalf("form login: %d Location=%q %.300s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	after := sessionCookie(e, c)
	if after == "" || after == before {
		t.Fatalf("session token not renewed at login (before %q, after %q)", before, after)
	}
	resp, body = e.do(c, request{method: "GET", path: "/account", header: html})
	m = csrfField.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil || !strings.Contains(body, email) {
		t.Fatalf("account page after login: %d %.300s", resp.StatusCode, body)
	}
	return m[1]
}

func sessionCookie(e *env, c *http.Client) string {
	u, _ := url.Parse(e.http.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == "turbinesim_session" {
			return ck.Value
		}
	}
	return ""
}

func TestBrowserSessionFlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	csrf := browserLogin(t, e, c)
	oldCookie := sessionCookie(e, c)

	// Same paths for browsers: HTML page, htmx fragment, and JSON with the cookie.
	resp, body := e.do(c, request{method: "GET", path: "/dashboard", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != 200 || !strings.Contains(body, "<html") || !strings.Contains(body, "Acme Wind") {
		t.Fatalf("dashboard page: %d %.300s", resp.StatusCode, body)
	}
	resp, body = e.do(c, request{method: "GET", path: "/dashboard", header: map[string]string{"HX-Request": "true"}})
	if resp.StatusCode != 200 || strings.Contains(body, "<html") || !strings.Contains(body, `id="dashboard"`) {
		t.Fatalf("dashboard fragment: %d %.300s", resp.StatusCode, body)
	}
	resp, body = e.do(c, request{method: "GET", path: "/dashboard", header: jsonHeader})
	if resp.StatusCode != 200 || !strings.Contains(body, `"member_count":1`) || !strings.Contains(body, `"turbine_count":0`) {
		t.Fatalf("dashboard JSON: %d %s", resp.StatusCode, body)
	}

	// Logging out needs the CSRF token.
	resp, body = e.do(c, request{method: "POST", path: "/logout", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	assertDetail(t, resp, body, http.StatusForbidden)
	// A cross-site POST is refused even with the token.
	resp, body = e.do(c, request{method: "POST", path: "/logout", body: "_csrf=" + csrf,
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"}})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, _ = e.do(c, request{method: "POST", path: "/logout", header: map[string]string{"X-CSRF-Token": csrf, "HX-Request": "true"}})
	if resp.StatusCode != 200 || resp.Header.Get("HX-Redirect") != "/login" {
		t.Fatalf("htmx logout: %d HX-Redirect=%q", resp.StatusCode, resp.Header.Get("HX-Redirect"))
	}
	// The old cookie is dead server-side.
	resp, body = e.do(nil, request{method: "GET", path: "/dashboard",
		header: map[string]string{"Cookie": "turbinesim_session=" + oldCookie, "Accept": "application/json"}})
	assertDetail(t, resp, body, 401)
}

func TestLoginFormRequiresCSRFAndShowsFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	form := url.Values{"email": {"ada@example.com"}, "password": {e.passwd}}
	resp, body := e.do(c, request{method: "POST", path: "/auth/login", body: form.Encode(),
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}})
	assertDetail(t, resp, body, http.StatusForbidden)

	_, page := e.do(c, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF field on the login page")
	}
	form = url.Values{"email": {"ada@example.com"}, "password": {"wrong password!"}, "_csrf": {m[1]}}
	resp, body = e.do(c, request{method: "POST", path: "/auth/login", body: form.Encode(),
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}})
	if resp.StatusCode != 401 || !strings.Contains(body, "Invalid e-mail or password") || strings.Contains(body, "<html") {
		t.Fatalf("failed htmx login: %d %.300s", resp.StatusCode, body)
	}
}

func TestSafeRedirectAfterLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, next := range []string{"//evil.example/x", "https://evil.example", "/\\evil.example"} {
		c := e.client()
		_, page := e.do(c, request{method: "GET", path: "/login", header: map[string]string{"Accept": "text/html"}})
		m := csrfField.FindStringSubmatch(page)
		form := url.Values{"email": {"ada@example.com"}, "password": {e.passwd}, "_csrf": {m[1]}, "next": {next}}
		resp, _ := e.do(c, request{method: "POST", path: "/auth/login", body: form.Encode(),
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}})
		if loc := resp.Header.Get("Location"); loc != "/dashboard" {
			t.Errorf("next=%q redirected to %q, want /dashboard", next, loc)
		}
	}
}
