package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/turbinesim/turbinesim/db"
)

// B1, B5, B6, B8, B11, B13: the bearer check against hand-made tokens.
func TestBearerMatrix(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	now := e.now()
	sign := func(mod func(jwt.MapClaims)) string {
		c := jwt.MapClaims{"sub": e.admin.ID, "email": "ada@example.com", "org_id": e.org.ID, "role": "org_admin",
			"iss": "turbinesim", "aud": "api", "iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix()}
		mod(c)
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := sign(func(jwt.MapClaims) {})
	for name, h := range map[string]map[string]string{
		"B1 no credentials":      {"Accept": "application/json"},
		"B1 empty bearer":        {"Authorization": "Bearer ", "Accept": "application/json"},
		"B1 one segment":         {"Authorization": "Bearer abc", "Accept": "application/json"},
		"B1 basic":               {"Authorization": "Basic YWRhOnB3", "Accept": "application/json"},
		"B5 iat far future":      bearer(sign(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })),
		"B5 nbf future":          bearer(sign(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() })),
		"B5 expired beyond 30 s": bearer(sign(func(c jwt.MapClaims) { c["exp"] = now.Add(-31 * time.Second).Unix() })),
		"B6 wrong aud":           bearer(sign(func(c jwt.MapClaims) { c["aud"] = "refresh" })),
		"B6 missing aud":         bearer(sign(func(c jwt.MapClaims) { delete(c, "aud") })),
		"B6 wrong iss":           bearer(sign(func(c jwt.MapClaims) { c["iss"] = "someone-else" })),
		"B11 token in query":     {"Accept": "application/json", "X-Query": good},
	} {
		path := "/account"
		if name == "B11 token in query" {
			path += "?access_token=" + good
		}
		resp, body := e.do(nil, request{method: "GET", path: path, header: h})
		if resp.StatusCode != 401 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
			continue
		}
		assertDetail(t, resp, body, 401)
		if h["Authorization"] != "" && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", name)
		}
	}
	// B5: a token one second before expiry still works; B13: the scheme is
	// case-insensitive.
	almost := sign(func(c jwt.MapClaims) { c["exp"] = now.Add(time.Second).Unix() })
	for _, h := range []map[string]string{bearer(almost), {"Authorization": "bearer " + good, "Accept": "application/json"}} {
		if resp, body := e.do(nil, request{method: "GET", path: "/account", header: h}); resp.StatusCode != 200 {
			t.Fatalf("valid token refused: %d %s", resp.StatusCode, body)
		}
	}
	// B8: the same token after the organization is switched off.
	if _, err := e.db.ExecContext(context.Background(), `UPDATE organizations SET active = false WHERE id = $1`, e.org.ID); err != nil {
		t.Fatal(err)
	}
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(good)})
	assertDetail(t, resp, body, 401)
	if _, err := e.db.ExecContext(context.Background(), `UPDATE organizations SET active = true WHERE id = $1`, e.org.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.ExecContext(context.Background(), `UPDATE users SET deleted_at = now() WHERE id = $1`, e.admin.ID); err != nil {
		t.Fatal(err)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(good)})
	assertDetail(t, resp, body, 401)
}

// G4, G5, G7, G9: cookie-authenticated writes to the identity routes need
// the same origin (Sec-Fetch-Site cross-site, or a foreign Origin, is 403)
// and the CSRF token; JSON routes refuse simple content types.
func TestIdentityRoutesCSRFAndContentType(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	c := e.client()
	csrf := browserLogin(t, e, c)
	// G9: cross-site POST with a valid cookie.
	resp, body := e.do(c, request{method: "POST", path: "/api-keys", body: `{"name":"x"}`,
		header: map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", "X-CSRF-Token": csrf}})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(c, request{method: "POST", path: "/api-keys", body: `{"name":"x"}`,
		header: map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}})
	assertDetail(t, resp, body, 403)
	// Same origin without the token.
	resp, body = e.do(c, request{method: "POST", path: "/account/security/enrol",
		header: map[string]string{"Sec-Fetch-Site": "same-origin", "Accept": "application/json"}})
	assertDetail(t, resp, body, 403)
	// G6: same-origin htmx-style request with the token passes.
	resp, body = e.do(c, request{method: "POST", path: "/api-keys", body: `{"name":"x"}`,
		header: map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", "X-CSRF-Token": csrf, "Accept": "application/json"}})
	if resp.StatusCode != 201 {
		t.Fatalf("same-origin with token: %d %s", resp.StatusCode, body)
	}
	// G7: text/plain to a JSON endpoint.
	p := e.loginJSON()
	for _, path := range []string{"/api-keys", "/account/mfa/confirm", "/org/members"} {
		resp, body := e.do(nil, request{method: "POST", path: path, body: `{"name":"x"}`,
			header: map[string]string{"Authorization": "Bearer " + p.AccessToken, "Content-Type": "text/plain"}})
		assertDetail(t, resp, body, http.StatusUnsupportedMediaType)
	}
}

// N: the identity routes answer every failure with the error shape
// ({"detail"} and the status of its code).
func TestIdentityErrorContractSweep(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	authed := []string{"POST /api-keys", "GET /api-keys", "DELETE /api-keys/x", "POST /api-keys/x/deactivate",
		"POST /api-keys/x/reactivate", "GET /org/audit-log", "GET /org/settings", "PUT /org/settings", "GET /org/usage",
		"GET /org/members", "POST /org/members", "PUT /org/members/x", "DELETE /org/members/x", "GET /org/outbox",
		"POST /account/mfa/enrol", "POST /account/mfa/confirm", "POST /account/mfa/disable", "POST /account/mfa/recovery-codes",
		"POST /account/sign-out-everywhere", "GET /account/sessions", "DELETE /account/sessions/x"}
	for _, r := range authed {
		method, path, _ := strings.Cut(r, " ")
		for name, h := range map[string]map[string]string{
			"no auth":  {"Accept": "application/json"},
			"bad auth": {"Authorization": "Bearer x.y.z", "Accept": "application/json"},
			"bad key":  {"X-API-Key": "ofk_nope", "Accept": "application/json"},
		} {
			resp, body := e.do(nil, request{method: method, path: path, header: h})
			if resp.StatusCode != 401 {
				t.Errorf("%s %s: %d", name, r, resp.StatusCode)
				continue
			}
			assertDetail(t, resp, body, 401)
		}
	}
	// Malformed JSON and wrong ids, authenticated.
	for _, r := range []struct {
		method, path, body string
		status             int
	}{
		{"POST", "/api-keys", `{"name":`, 400},
		{"POST", "/api-keys", `{"name":""}`, 422},
		{"PUT", "/org/settings", `{"caps":{"spend_cap_cents":-1,"token_cap":1}}`, 422},
		{"DELETE", "/api-keys/not-a-uuid", "", 404},
		{"POST", "/api-keys/00000000-0000-0000-0000-000000000000/reactivate", "", 404},
		{"PUT", "/org/members/00000000-0000-0000-0000-000000000000", `{"active":false}`, 404},
		{"GET", "/org/audit-log?page=0", "", 422},
		{"POST", "/auth/token/refresh", `{"refresh_token":"nope"}`, 401},
		{"POST", "/auth/logout", `[`, 400},
		{"POST", "/auth/verify-email", `{"token":"nope"}`, 401},
		{"POST", "/auth/accept-invite", `{"token":"nope","password":"long enough pw"}`, 401},
		{"POST", "/auth/signup", `{"email":"bad","password":"long enough pw","name":"x"}`, 422},
		{"POST", "/auth/password-reset", `{"email":`, 400},
		{"POST", "/auth/password-reset", `{"email":"a@b.c","org_id":"x"}`, 422},
		{"POST", "/auth/password-reset", `{"email":"nope"}`, 422},
		{"POST", "/auth/password-reset/confirm", `[`, 400},
		{"POST", "/auth/password-reset/confirm", `{"token":"nope","password":"long enough pw"}`, 401},
		{"POST", "/auth/password-reset/confirm", `{"token":"","password":"long enough pw"}`, 422},
		{"DELETE", "/account/sessions/not-a-uuid", "", 404},
	} {
		h := withJSON(bearer(p.AccessToken))
		resp, body := e.do(nil, request{method: r.method, path: r.path, body: r.body, header: h})
		assertDetail(t, resp, body, r.status)
	}
}

// J6: a plan change takes effect on the next request (the organization is
// reloaded per request).
func TestPlanChangeMidWindow(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, true)
	p := e.loginJSON()
	resp, _ := e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	if l, _, _ := rateHeaders(t, resp); l != 30 {
		t.Fatalf("beta limit header %d", l)
	}
	if _, err := e.db.ExecContext(context.Background(), `UPDATE organizations SET plan = 'enterprise' WHERE id = $1`, e.org.ID); err != nil {
		t.Fatal(err)
	}
	resp, _ = e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	if l, r, _ := rateHeaders(t, resp); l != 1000 || r != 998 {
		t.Fatalf("after upgrade: limit %d remaining %d, want 1000 and 998", l, r)
	}
}

// B9, C4, G3: "sign out everywhere" ends access tokens, refresh tokens and
// browser sessions started before it; API keys keep working; a new login
// works.
func TestSignOutEverywhere(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	browser := e.client()
	browserLogin(t, e, browser)
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "survives")
	if err != nil {
		t.Fatal(err)
	}
	e.advance(2 * time.Second)
	resp, body := e.do(nil, request{method: "POST", path: "/account/sign-out-everywhere", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "POST", path: "/account/sign-out-everywhere", header: bearer(p.AccessToken)})
	if resp.StatusCode != 204 {
		t.Fatalf("sign out everywhere: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(p.RefreshToken)
	assertDetail(t, resp, body, 401)
	resp, body = e.do(browser, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 401)
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)}); resp.StatusCode != 200 {
		t.Fatalf("API key after sign-out: %d %s", resp.StatusCode, body)
	}
	e.advance(time.Second)
	p2 := e.loginJSON()
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(p2.AccessToken)}); resp.StatusCode != 200 {
		t.Fatalf("new login: %d %s", resp.StatusCode, body)
	}
}

// The organization page's settings form (htmx PUT with the session's CSRF
// token) sets the caps; members see no form and get 403.
func TestOrgSettingsForm(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	c := e.client()
	csrf := browserLogin(t, e, c)
	resp, body := e.do(c, request{method: "GET", path: "/org", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != 200 || !strings.Contains(body, `id="settings-form"`) || !strings.Contains(body, "ada@example.com") {
		t.Fatalf("org page: %d", resp.StatusCode)
	}
	resp, body = e.do(c, request{method: "PUT", path: "/org/settings", body: "spend_cap_cents=700&token_cap=9000",
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
			"X-CSRF-Token": csrf, "Sec-Fetch-Site": "same-origin"}})
	if resp.StatusCode != 200 || resp.Header.Get("HX-Redirect") != "/org" {
		t.Fatalf("settings form: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(c, request{method: "GET", path: "/org/usage", header: map[string]string{"Accept": "application/json"}})
	if !strings.Contains(body, `"spend_cap_cents":700`) || !strings.Contains(body, `"token_cap":9000`) {
		t.Fatalf("usage after the form: %s", body)
	}
}

// G8: the identity GET routes change nothing (rate-limit counters aside).
func TestIdentityGETsDoNotWrite(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	if _, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "k"); err != nil {
		t.Fatal(err)
	}
	snapshot := func() string {
		var parts []string
		for _, table := range []string{"organizations", "users", "api_keys", "refresh_tokens", "audit_log", "org_caps",
			"org_usage", "email_outbox", "email_tokens", "login_failures", "user_mfa", "recovery_codes", "sso_identities", "user_sessions"} {
			var sum *string
			if err := e.db.GetContext(context.Background(), &sum, `SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM `+table+` t`); err != nil {
				t.Fatal(err)
			}
			if sum == nil {
				parts = append(parts, table+":empty")
			} else {
				parts = append(parts, table+":"+*sum)
			}
		}
		return strings.Join(parts, " ")
	}
	before := snapshot()
	for range 2 {
		for _, path := range []string{"/account", "/api-keys", "/org/audit-log", "/org/settings", "/org/usage", "/org/members", "/org/outbox", "/account/sessions"} {
			if resp, body := e.do(nil, request{method: "GET", path: path, header: bearer(p.AccessToken)}); resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
			}
		}
		for _, path := range []string{"/account/security", "/account/api-keys", "/org", "/signup", "/verify-email?token=x", "/forgot-password", "/reset-password?token=x"} {
			h := bearer(p.AccessToken)
			h["Accept"] = "text/html"
			if resp, _ := e.do(nil, request{method: "GET", path: path, header: h}); resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d", path, resp.StatusCode)
			}
		}
	}
	if after := snapshot(); after != before {
		t.Fatalf("GET requests changed the database:\nbefore %s\nafter  %s", before, after)
	}
}
