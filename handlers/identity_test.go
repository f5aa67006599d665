package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/pgcluster"
	"github.com/turbinesim/turbinesim/internal/mailtest"
)

// newIdentityEnv is newEnv with the identity services wired in; limited
// also turns on the PostgreSQL rate limiter.
func newIdentityEnv(t *testing.T, limited bool) *env {
	t.Helper()
	return newEnvOn(t, dbtest.New(t), limited)
}

func newEnvOn(t *testing.T, d *db.DB, limited bool, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(time.Date(2026, 5, 4, 10, 0, 5, 0, time.UTC).UnixNano())
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
	e.logs = &lockedBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	keys := db.NewAPIKeyService(d)
	svc.RefreshTokens, svc.APIKeys, svc.Audit = db.NewRefreshTokenService(d), keys, keys
	svc.Caps = db.NewCapService(d, e.now)
	e.mail = &mailtest.Mailbox{}
	svc.Accounts = db.NewAccountService(d, db.AccountConfig{BaseURL: "http://app.test", PasswordParams: testPasswordParams, Now: e.now, Mailer: e.mail})
	mfa, err := db.NewMFAService(d, "TurbineSim test", []byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	svc.MFA = mfa
	svc.LoginThrottle = db.NewLoginThrottle(d)
	svc.SignUpThrottle = db.NewSignUpThrottle(d)
	svc.LoginSessions = db.NewLoginSessionService(d, 12*time.Hour, 2*time.Hour)
	svc.PasswordResets = &turbinesim.PasswordResets{Store: svc.Accounts.(*db.AccountService), MFA: mfa,
		RequestThrottle: db.NewPasswordResetThrottle(d), LoginThrottle: svc.LoginThrottle, Now: e.now}
	if limited {
		svc.RateLimiter = db.NewRateLimiter(d)
	}
	for _, o := range opts {
		o(&cfg, &svc)
	}
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.http = httptest.NewServer(srv)
	t.Cleanup(e.http.Close)
	return e
}

var jsonHeaders = map[string]string{"Content-Type": "application/json", "Accept": "application/json"}

func (e *env) loginAs(email, password string) handlers.TokenPair {
	e.t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login", header: jsonHeaders,
		body: fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)})
	if resp.StatusCode != 200 {
		e.t.Fatalf("login %s: %d %s", email, resp.StatusCode, body)
	}
	var p handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) refresh(tok string) (*http.Response, string) {
	return e.do(nil, request{method: "POST", path: "/auth/token/refresh", header: jsonHeaders,
		body: fmt.Sprintf(`{"refresh_token":%q}`, tok)})
}

func (e *env) addUser(email string, role turbinesim.Role) *turbinesim.User {
	e.t.Helper()
	u := &turbinesim.User{OrganizationID: e.org.ID, Email: email, Role: role, Verified: true}
	if err := testUsers(e.db).CreateUser(context.Background(), u, e.passwd); err != nil {
		e.t.Fatal(err)
	}
	return u
}

// testUsers is the user store with the tests' cheap argon2id parameters
// (production keeps argon2id.DefaultParams).
func testUsers(d *db.DB) *db.UserService {
	u := db.NewUserService(d)
	u.PasswordParams = testPasswordParams
	return u
}

func keyHeader(k string) map[string]string {
	return map[string]string{"X-API-Key": k, "Accept": "application/json", "Content-Type": "application/json"}
}

func withJSON(h map[string]string) map[string]string {
	h["Content-Type"] = "application/json"
	return h
}

// C1, C3, C4, B7 (access token at the refresh endpoint), logout.
func TestRefreshRotationOverHTTP(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p1 := e.loginJSON()
	resp, body := e.refresh(p1.RefreshToken)
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("refresh: %d %s", resp.StatusCode, body)
	}
	var p2 handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &p2); err != nil || p2.RefreshToken == p1.RefreshToken || p2.ExpiresIn != 900 || p2.TokenType != "bearer" {
		t.Fatalf("rotated pair %s", body)
	}
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: bearer(p2.AccessToken)}); resp.StatusCode != 200 {
		t.Fatalf("new access token: %d %s", resp.StatusCode, body)
	}
	// The access token is not a refresh token.
	resp, body = e.refresh(p2.AccessToken)
	assertDetail(t, resp, body, 401)
	// Replay of the consumed R1 revokes the family: R2 dies too.
	resp, body = e.refresh(p1.RefreshToken)
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(p2.RefreshToken)
	assertDetail(t, resp, body, 401)

	// Another login is another family, unaffected; logout revokes it.
	p3 := e.loginJSON()
	resp, body = e.do(nil, request{method: "POST", path: "/auth/logout", header: jsonHeaders, body: `{"refresh_token":"` + p3.RefreshToken + `"}`})
	if resp.StatusCode != 204 {
		t.Fatalf("logout: %d %s", resp.StatusCode, body)
	}
	resp, body = e.refresh(p3.RefreshToken)
	assertDetail(t, resp, body, 401)

	// C3: rotating daily keeps the login's absolute 30-day end.
	p := e.loginJSON()
	for day := 1; day <= 31; day++ {
		e.advance(24 * time.Hour)
		resp, body := e.refresh(p.RefreshToken)
		if day < 30 {
			if resp.StatusCode != 200 {
				t.Fatalf("day %d: %d %s", day, resp.StatusCode, body)
			}
			_ = json.Unmarshal([]byte(body), &p)
			continue
		}
		assertDetail(t, resp, body, 401)
		break
	}

	// C4: a deactivated user cannot refresh.
	p4 := e.loginJSON()
	if _, err := e.db.ExecContext(context.Background(), `UPDATE users SET active = false WHERE id = $1`, e.admin.ID); err != nil {
		t.Fatal(err)
	}
	resp, body = e.refresh(p4.RefreshToken)
	assertDetail(t, resp, body, 401)
}

// E1, E2, E4, E5, E7-style 404, E8, revocation on the next request.
func TestAPIKeysOverHTTP(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	resp, body := e.do(nil, request{method: "POST", path: "/api-keys", header: withJSON(bearer(p.AccessToken)), body: `{"name":"ci runner"}`})
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	var k turbinesim.NewAPIKey
	if err := json.Unmarshal([]byte(body), &k); err != nil || !strings.HasPrefix(k.Key, "ofk_") || k.ClientID != k.Key[:12] {
		t.Fatalf("created key %s", body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	if resp.StatusCode != 200 || !strings.Contains(body, `"auth_method":"api_key"`) || !strings.Contains(body, e.org.ID) {
		t.Fatalf("account with key: %d %s", resp.StatusCode, body)
	}
	// E1: the secret never appears again.
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys", header: bearer(p.AccessToken)})
	if resp.StatusCode != 200 || strings.Contains(body, k.Key) || !strings.Contains(body, k.ClientID) || !strings.Contains(body, `"total":1`) {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	// E2/E8: a key cannot manage keys.
	for _, r := range []request{
		{method: "POST", path: "/api-keys", body: `{"name":"child"}`},
		{method: "GET", path: "/api-keys"},
		{method: "POST", path: "/api-keys/" + k.ID + "/deactivate"},
		{method: "DELETE", path: "/api-keys/" + k.ID},
	} {
		r.header = keyHeader(k.Key)
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 403)
	}
	// E5: malformed keys.
	for _, bad := range []string{k.ClientID + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", k.Key[:20], "ofk_" + strings.Repeat("x", 300), "nope"} {
		resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(bad)})
		assertDetail(t, resp, body, 401)
	}
	// Another user's key id is 404.
	e.addUser("bob@example.com", turbinesim.RoleMember)
	bob := e.loginAs("bob@example.com", e.passwd)
	resp, body = e.do(nil, request{method: "DELETE", path: "/api-keys/" + k.ID, header: bearer(bob.AccessToken)})
	assertDetail(t, resp, body, 404)
	// E4: deactivate → 401 on the next request; reactivate → 200.
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + k.ID + "/deactivate", header: bearer(p.AccessToken)})
	if resp.StatusCode != 200 || !strings.Contains(body, `"active":false`) {
		t.Fatalf("deactivate: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 401)
	resp, _ = e.do(nil, request{method: "POST", path: "/api-keys/" + k.ID + "/reactivate", header: bearer(p.AccessToken)})
	if resp.StatusCode != 200 {
		t.Fatalf("reactivate: %d", resp.StatusCode)
	}
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)}); resp.StatusCode != 200 {
		t.Fatalf("reactivated key: %d %s", resp.StatusCode, body)
	}
	// Key of a deactivated user → 401; back when reactivated.
	ctx := context.Background()
	_, _ = e.db.ExecContext(ctx, `UPDATE users SET active = false WHERE id = $1`, e.admin.ID)
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 401)
	_, _ = e.db.ExecContext(ctx, `UPDATE users SET active = true WHERE id = $1`, e.admin.ID)
	// Revoke → 401 on the next request, for good.
	resp, _ = e.do(nil, request{method: "DELETE", path: "/api-keys/" + k.ID, header: bearer(p.AccessToken)})
	if resp.StatusCode != 204 {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 401)
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + k.ID + "/reactivate", header: bearer(p.AccessToken)})
	assertDetail(t, resp, body, 409)
}

// E3: requests started after the revocation response are refused.
func TestAPIKeyRevokeRace(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "race")
	if err != nil {
		t.Fatal(err)
	}
	var revokedAt atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var lateOK, fivexx atomic.Int32
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				started := time.Now().UnixNano()
				req, _ := http.NewRequest("GET", e.http.URL+"/account", nil)
				req.Header.Set("X-API-Key", k.Key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				resp.Body.Close()
				if resp.StatusCode >= 500 {
					fivexx.Add(1)
				}
				if r := revokedAt.Load(); r != 0 && started > r && resp.StatusCode != 401 {
					lateOK.Add(1)
				}
			}
		})
	}
	time.Sleep(100 * time.Millisecond)
	resp, _ := e.do(nil, request{method: "DELETE", path: "/api-keys/" + k.ID, header: bearer(p.AccessToken)})
	revokedAt.Store(time.Now().UnixNano())
	if resp.StatusCode != 204 {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	time.Sleep(150 * time.Millisecond)
	close(stop)
	wg.Wait()
	if lateOK.Load() != 0 || fivexx.Load() != 0 {
		t.Fatalf("%d requests started after revocation were not 401; %d 5xx", lateOK.Load(), fivexx.Load())
	}
}

// Every key-authenticated write lands in the audit log with the Client ID;
// only administrators read the log and the settings.
func TestKeyWritesAreAuditedAndAdminOnly(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	p := e.loginJSON()
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "audit")
	if err != nil {
		t.Fatal(err)
	}
	// An administrator's key cannot change settings (interactive only),
	// and the refusal is audited.
	resp, body := e.do(nil, request{method: "PUT", path: "/org/settings", header: keyHeader(k.Key),
		body: `{"caps":{"spend_cap_cents":1234,"token_cap":5678}}`})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "PUT", path: "/org/settings", header: withJSON(bearer(p.AccessToken)),
		body: `{"caps":{"spend_cap_cents":1234,"token_cap":5678}}`})
	if resp.StatusCode != 200 || !strings.Contains(body, `"spend_cap_cents":1234`) {
		t.Fatalf("settings signed in: %d %s", resp.StatusCode, body)
	}
	// A refused write is recorded too.
	resp, _ = e.do(nil, request{method: "POST", path: "/api-keys", header: keyHeader(k.Key), body: `{"name":"x"}`})
	if resp.StatusCode != 403 {
		t.Fatalf("key creates key: %d", resp.StatusCode)
	}
	// Reads are not audited.
	e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	resp, body = e.do(nil, request{method: "GET", path: "/org/audit-log?event=api_request", header: bearer(p.AccessToken)})
	var page handlers.Page[turbinesim.AuditEntry]
	if err := json.Unmarshal([]byte(body), &page); err != nil || resp.StatusCode != 200 || page.Total != 2 {
		t.Fatalf("audit log: %d %s", resp.StatusCode, body)
	}
	if a := page.Items[1]; a.ClientID != k.ClientID || a.Method != "PUT" || a.Path != "/org/settings" || a.Status != 403 || a.UserID != e.admin.ID {
		t.Fatalf("audit entry %+v", a)
	}
	if a := page.Items[0]; a.Status != 403 || a.Path != "/api-keys" {
		t.Fatalf("audit entry %+v", a)
	}
	// Members: 403 on settings and the log.
	e.addUser("mem@example.com", turbinesim.RoleMember)
	m := e.loginAs("mem@example.com", e.passwd)
	for _, r := range []request{
		{method: "GET", path: "/org/settings"}, {method: "PUT", path: "/org/settings", body: `{"caps":{"spend_cap_cents":1,"token_cap":1}}`},
		{method: "GET", path: "/org/audit-log"},
	} {
		r.header = withJSON(bearer(m.AccessToken))
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 403)
	}
	// Members may read the usage.
	resp, body = e.do(nil, request{method: "GET", path: "/org/usage", header: bearer(m.AccessToken)})
	if resp.StatusCode != 200 || !strings.Contains(body, `"spend_cap_cents":1234`) || !strings.Contains(body, `"per_org":60`) {
		t.Fatalf("usage: %d %s", resp.StatusCode, body)
	}
}

func rateHeaders(t *testing.T, resp *http.Response) (limit, remaining, reset int) {
	t.Helper()
	var err error
	for _, h := range []struct {
		name string
		dst  *int
	}{{"X-RateLimit-Limit", &limit}, {"X-RateLimit-Remaining", &remaining}, {"X-RateLimit-Reset", &reset}} {
		if *h.dst, err = strconv.Atoi(resp.Header.Get(h.name)); err != nil {
			t.Fatalf("%s = %q", h.name, resp.Header.Get(h.name))
		}
	}
	return
}

// J1, J3: one user bucket across JWT and API key; 429 with Retry-After; the next
// window is fresh.
func TestRateLimitPerUser(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, true)
	p := e.loginJSON()
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "rl")
	if err != nil {
		t.Fatal(err)
	}
	// The clock is 5 s into a minute: the window resets in 55 s.
	for i := 1; i <= 30; i++ {
		h := bearer(p.AccessToken)
		if i%2 == 0 {
			h = keyHeader(k.Key)
		}
		resp, body := e.do(nil, request{method: "GET", path: "/account", header: h})
		limit, remaining, reset := rateHeaders(t, resp)
		if resp.StatusCode != 200 || limit != 30 || remaining != 30-i || reset != 55 {
			t.Fatalf("request %d: %d limit %d remaining %d reset %d %s", i, resp.StatusCode, limit, remaining, reset, body)
		}
	}
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	detail := assertDetail(t, resp, body, 429)
	limit, remaining, reset := rateHeaders(t, resp)
	if limit != 30 || remaining != 0 || reset != 55 || resp.Header.Get("Retry-After") != "55" || !strings.Contains(detail, "per user") {
		t.Fatalf("429: limit %d remaining %d reset %d retry %q detail %q", limit, remaining, reset, resp.Header.Get("Retry-After"), detail)
	}
	e.advance(55 * time.Second)
	resp, _ = e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	if _, remaining, _ := rateHeaders(t, resp); resp.StatusCode != 200 || remaining != 29 {
		t.Fatalf("after Retry-After: %d remaining %d", resp.StatusCode, remaining)
	}
}

// A signed-in browser counts in its own buckets at ten times the plan's
// limits (Plan.BrowserLimits): an engineer clicking through pages on the
// Beta plan is not stopped at the API's 30 requests per user, the API's
// bucket is left untouched, and the browser's own bucket still ends in 429.
func TestRateLimitBrowserAllowance(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, true)
	c := e.client()
	browserLogin(t, e, c)
	html := map[string]string{"Accept": "text/html"}
	browser := turbinesim.PlanBeta.BrowserLimits()
	if api := turbinesim.PlanBeta.Limits(); browser.PerUser != 10*api.PerUser || browser.PerOrg != 10*api.PerOrg {
		t.Fatalf("browser limits %+v, API limits %+v", browser, api)
	}
	// Signing in already loaded a page; the count goes on from there.
	first := -1
	for i := 0; i < 40; i++ {
		resp, body := e.do(c, request{method: "GET", path: "/account", header: html})
		limit, remaining, _ := rateHeaders(t, resp)
		if first < 0 {
			first = remaining
		}
		if resp.StatusCode != 200 || limit != browser.PerUser || remaining != first-i || first < browser.PerUser-5 {
			t.Fatalf("browser request %d: %d limit %d remaining %d (first %d) %.200s", i+1, resp.StatusCode, limit, remaining, first, body)
		}
	}
	// The API bucket of the same user is still full.
	p := e.loginJSON()
	resp, _ := e.do(nil, request{method: "GET", path: "/account", header: bearer(p.AccessToken)})
	if limit, remaining, _ := rateHeaders(t, resp); resp.StatusCode != 200 || limit != 30 || remaining != 29 {
		t.Fatalf("API request after 40 browser requests: %d limit %d remaining %d", resp.StatusCode, limit, remaining)
	}
	for i := 40; i <= first; i++ {
		if resp, body := e.do(c, request{method: "GET", path: "/account", header: html}); resp.StatusCode != 200 {
			t.Fatalf("browser request %d of %d: %d %.200s", i+1, first+1, resp.StatusCode, body)
		}
	}
	resp, body := e.do(c, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}})
	detail := assertDetail(t, resp, body, 429)
	if !strings.Contains(detail, "in the browser") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("browser 429: detail %q, Retry-After %q", detail, resp.Header.Get("Retry-After"))
	}
}

// J2: 50 keys of one Beta organization, spread over three users, firing
// concurrently: exactly 60 requests are accepted in the minute.
func TestFiftyKeysOfOneOrgShareTheOrgLimit(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, true)
	users := []*turbinesim.User{e.admin, e.addUser("b@example.com", turbinesim.RoleMember), e.addUser("c@example.com", turbinesim.RoleMember)}
	ks := db.NewAPIKeyService(e.db)
	var keys []string
	for i := range 50 {
		k, err := ks.CreateAPIKey(context.Background(), users[i%3], fmt.Sprintf("k%d", i))
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.Key)
	}
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for _, key := range keys {
		wg.Go(func() {
			for range 4 {
				req, _ := http.NewRequest("GET", e.http.URL+"/account", nil)
				req.Header.Set("X-API-Key", key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				switch resp.StatusCode {
				case 200:
					ok.Add(1)
				case 429:
					limited.Add(1)
				default:
					t.Errorf("status %d", resp.StatusCode)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 60 || limited.Load() != 140 {
		t.Fatalf("accepted %d, limited %d; want exactly 60 and 140", ok.Load(), limited.Load())
	}
}

// A database outage is 503 with Retry-After for every credential kind,
// never 401: this test stops a real PostgreSQL under a running server.
func TestStoppedDatabaseIs503(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Not t.TempDir: the postgres OS user must be able to enter the parent
	// (as in db/dbtest).
	dir, err := os.MkdirTemp("", "outage-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg")})
	if err != nil {
		t.Fatalf("starting a private PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	d, err := db.Open(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	e := newEnvOn(t, d, true)
	p := e.loginJSON()
	k, err := db.NewAPIKeyService(d).CreateAPIKey(ctx, e.admin, "outage")
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)}); resp.StatusCode != 200 {
		t.Fatalf("before the outage: %d %s", resp.StatusCode, body)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []request{
		{method: "GET", path: "/account", header: bearer(p.AccessToken)},
		{method: "GET", path: "/account", header: keyHeader(k.Key)},
		{method: "POST", path: "/auth/token/refresh", header: jsonHeaders, body: `{"refresh_token":"` + p.RefreshToken + `"}`},
		{method: "POST", path: "/auth/login", header: jsonHeaders, body: `{"email":"ada@example.com","password":"correct horse battery"}`},
	} {
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, http.StatusServiceUnavailable)
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s: 503 without Retry-After", r.method, r.path)
		}
	}

	// C7: the refresh that failed during the outage did not consume the
	// token, so the client's retry after the restart is not taken for
	// reuse (which would revoke the login).
	c2, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg"), Port: c.Port()})
	if err != nil {
		t.Fatalf("restarting PostgreSQL: %v", err)
	}
	t.Cleanup(func() { _ = c2.Stop() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, _ := e.do(nil, request{method: "GET", path: "/readyz"})
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("database not ready after restart: %d", resp.StatusCode)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var resp *http.Response
	var body string
	for range 3 { // the pool may hand out a connection that died with the old server
		if resp, body = e.refresh(p.RefreshToken); resp.StatusCode != http.StatusServiceUnavailable {
			break
		}
	}
	if resp.StatusCode != 200 {
		t.Fatalf("refresh retried after the restart: %d %s", resp.StatusCode, body)
	}
}
