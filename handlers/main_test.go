package handlers_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/internal/mailtest"
	"github.com/turbinesim/turbinesim/jobs"
	"github.com/turbinesim/turbinesim/results"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

const testSecret = "test-secret-0123456789-0123456789-abcdef"

// env is one application on a fresh database behind a real TCP server.
type env struct {
	t      *testing.T
	db     *db.DB
	srv    *handlers.Server
	http   *httptest.Server
	clock  atomic.Int64 // UnixNano of the token issuer's clock; tests move it
	admin  *turbinesim.User
	org    *turbinesim.Organization
	passwd string
	// logs holds the server's log lines (newIdentityEnv only).
	logs *lockedBuffer
	// mail receives the service's mail (newIdentityEnv only): the
	// recipients' mailboxes.
	mail *mailtest.Mailbox
}

type envOption func(*handlers.Config, *handlers.Services)

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	d := dbtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(time.Now().UnixNano())
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

func (e *env) now() time.Time { return time.Unix(0, e.clock.Load()) }

func (e *env) advance(d time.Duration) { e.clock.Add(int64(d)) }

func (e *env) config(d *db.DB) (handlers.Config, handlers.Services) {
	auth, err := db.NewAuthServiceWithParams(d, testPasswordParams)
	if err != nil {
		e.t.Fatal(err)
	}
	return handlers.Config{
			JWTSecret: []byte(testSecret),
			BodyLimit: 64 << 10,
			Now:       e.now,
			Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		}, handlers.Services{
			Auth:          auth,
			Users:         testUsers(d),
			Organizations: db.NewOrganizationService(d),
			Dashboard:     db.NewDashboardService(d),
			Sessions:      db.NewSessionStore(d),
			Ready:         d.Ready,
		}
}

// withDatabaseDown points every service at a server that does not answer.
func withDatabaseDown(t *testing.T) envOption {
	return func(cfg *handlers.Config, svc *handlers.Services) {
		sqlDB, err := sql.Open("postgres", "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sqlDB.Close() })
		down := db.New(sqlDB)
		auth, err := db.NewAuthService(down)
		if err != nil {
			t.Fatal(err)
		}
		svc.Auth, svc.Users, svc.Organizations = auth, db.NewUserService(down), db.NewOrganizationService(down)
		svc.Dashboard, svc.Sessions, svc.Ready = db.NewDashboardService(down), db.NewSessionStore(down), down.Ready
	}
}

// request is a compact request description.
type request struct {
	method, path string
	body         string
	header       map[string]string
}

// client returns an HTTP client with a cookie jar that does not follow
// redirects.
func (e *env) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (e *env) do(c *http.Client, r request) (*http.Response, string) {
	e.t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, e.http.URL+r.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	if c == nil {
		c = e.client()
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// loginJSON returns a token pair for the admin.
func (e *env) loginJSON() handlers.TokenPair {
	e.t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/auth/login",
		body:   `{"email":"ada@example.com","password":"` + e.passwd + `"}`,
		header: map[string]string{"Content-Type": "application/json"}})
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	var pair handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &pair); err != nil {
		e.t.Fatal(err)
	}
	return pair
}

// assertDetail checks the error shape: the status, a JSON content type,
// a body that is exactly {"detail": non-empty}, and nothing that leaks
// internals.
func assertDetail(t *testing.T, resp *http.Response, body string, wantStatus int) string {
	t.Helper()
	if resp.StatusCode != wantStatus {
		t.Fatalf("status = %d, want %d (body %s)", resp.StatusCode, wantStatus, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want application/json (body %s)", ct, body)
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var got struct {
		Detail string `json:"detail"`
	}
	if err := dec.Decode(&got); err != nil || got.Detail == "" {
		t.Fatalf("body %q is not {\"detail\": \"...\"}: %v", body, err)
	}
	for _, leak := range []string{"goroutine", "panic", "pq:", "SQLSTATE", "/home/", "/tmp/", testSecret, "dial tcp"} {
		if strings.Contains(body, leak) {
			t.Fatalf("error body leaks %q: %s", leak, body)
		}
	}
	return got.Detail
}

// newServer is handlers.New with the services built on the stores wired
// as cmd/turbined wires them (serve.go), for the stores the test set.
func newServer(cfg handlers.Config, svc handlers.Services) (*handlers.Server, error) {
	if svc.Turbines != nil && svc.StoredDecks == nil {
		svc.StoredDecks = &decks.StoredDecks{Turbines: svc.Turbines}
	}
	if svc.Jobs != nil && svc.JobSubmissions == nil {
		svc.JobSubmissions = &jobs.Submissions{Jobs: svc.Jobs, Turbines: svc.Turbines, ScratchDir: cfg.ScratchDir}
	}
	if svc.Batches != nil && svc.Turbines != nil {
		if svc.DLCBatches == nil {
			svc.DLCBatches = &batches.DLCBatches{Turbines: svc.Turbines, Batches: svc.Batches}
		}
		if svc.ParametricBatches == nil {
			svc.ParametricBatches = &batches.ParametricBatches{Turbines: svc.Turbines, Batches: svc.Batches, ScratchDir: cfg.ScratchDir}
		}
	}
	if svc.Results != nil {
		if svc.Analyses == nil {
			svc.Analyses = &results.ResultAnalysis{Results: svc.Results, Batches: svc.Batches, Turbines: svc.Turbines, Jobs: svc.Jobs}
		}
		if svc.Batches != nil && svc.Reports == nil {
			svc.Reports = &results.CertificationReports{Batches: svc.Batches, Results: svc.Results, Turbines: svc.Turbines}
		}
	}
	return handlers.New(cfg, svc)
}
