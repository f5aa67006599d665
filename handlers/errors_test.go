package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/handlers"
)

var jsonHeader = map[string]string{"Accept": "application/json"}

func TestErrorContract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := strings.Repeat("x", 70<<10)
	tests := []struct {
		name   string
		req    request
		status int
	}{
		{"unknown route", request{method: "GET", path: "/no-such-path", header: jsonHeader}, 404},
		{"unknown route without Accept", request{method: "GET", path: "/no-such-path"}, 404},
		{"wrong method", request{method: "DELETE", path: "/healthz", header: jsonHeader}, 405},
		{"body over the limit", request{method: "POST", path: "/auth/login", body: big,
			header: map[string]string{"Content-Type": "application/json"}}, 413},
		{"unsupported media type", request{method: "POST", path: "/auth/login", body: "email=a",
			header: map[string]string{"Content-Type": "text/plain"}}, 415},
		{"malformed JSON", request{method: "POST", path: "/auth/login", body: `{"email":`,
			header: map[string]string{"Content-Type": "application/json"}}, 400},
		{"validation", request{method: "POST", path: "/auth/login", body: `{"email":"a@example.com"}`,
			header: map[string]string{"Content-Type": "application/json"}}, 422},
		{"wrong password", request{method: "POST", path: "/auth/login", body: `{"email":"ada@example.com","password":"nope nope nope"}`,
			header: map[string]string{"Content-Type": "application/json"}}, 401},
		{"no credentials", request{method: "GET", path: "/dashboard"}, 401},
		{"garbage bearer", request{method: "GET", path: "/dashboard", header: map[string]string{"Authorization": "Bearer abc"}}, 401},
		{"not a bearer", request{method: "GET", path: "/dashboard", header: map[string]string{"Authorization": "Basic abc"}}, 401},
		{"login page is HTML only", request{method: "GET", path: "/login", header: jsonHeader}, 406},
	}
	// A client that accepts anything (curl's */*) gets the page itself.
	if resp, body := e.do(nil, request{method: "GET", path: "/login", header: map[string]string{"Accept": "*/*"}}); resp.StatusCode != 200 || !strings.Contains(body, "<form") {
		t.Fatalf("GET /login with Accept */*: %d", resp.StatusCode)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do(nil, tt.req)
			assertDetail(t, resp, body, tt.status)
		})
	}
}

func TestPlaceholderSectionsAreHonest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.loginJSON().AccessToken
	for _, path := range []string{"/turbines", "/jobs", "/studies"} {
		resp, body := e.do(nil, request{method: "GET", path: path, header: map[string]string{"Authorization": "Bearer " + tok}})
		assertDetail(t, resp, body, http.StatusNotImplemented)
	}
}

func TestPanicIsA500AndServerKeepsServing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.Echo().GET("/test-panic", func(c handlers.EchoContext) error { panic("boom /tmp/secret") })
	resp, body := e.do(nil, request{method: "GET", path: "/test-panic"})
	if got := assertDetail(t, resp, body, 500); got != "internal error" {
		t.Fatalf("detail = %q, want internal error", got)
	}
	resp, _ = e.do(nil, request{method: "GET", path: "/healthz"})
	if resp.StatusCode != 200 {
		t.Fatalf("healthz after a panic = %d", resp.StatusCode)
	}
}

func TestBrowserGetsHTMLErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, body := e.do(nil, request{method: "GET", path: "/no-such-path", header: map[string]string{"Accept": "text/html,application/xhtml+xml"}})
	if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "<html") {
		t.Fatalf("browser 404: %d %s %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	// A page that needs a login sends the browser to the login page.
	resp, _ = e.do(nil, request{method: "GET", path: "/dashboard", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next=%2Fdashboard" {
		t.Fatalf("anonymous dashboard: %d Location=%q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// htmx gets a redirect header instead of a login page swapped into its target.
	resp, _ = e.do(nil, request{method: "GET", path: "/dashboard", header: map[string]string{"HX-Request": "true"}})
	if resp.StatusCode != 401 || resp.Header.Get("HX-Redirect") == "" {
		t.Fatalf("anonymous htmx: %d HX-Redirect=%q", resp.StatusCode, resp.Header.Get("HX-Redirect"))
	}
}

// A database outage is a 503 with Retry-After everywhere: never a 401 that
// would make clients throw their tokens away.
func TestDatabaseDownIs503NotUnauthorized(t *testing.T) {
	t.Parallel()
	healthy := newEnv(t)
	pair := healthy.loginJSON()
	e := newEnv(t, withDatabaseDown(t))
	for _, r := range []request{
		{method: "GET", path: "/readyz"},
		{method: "GET", path: "/dashboard", header: map[string]string{"Authorization": "Bearer " + pair.AccessToken}},
		{method: "POST", path: "/auth/login", body: `{"email":"ada@example.com","password":"correct horse battery"}`,
			header: map[string]string{"Content-Type": "application/json"}},
		{method: "GET", path: "/dashboard", header: map[string]string{"Cookie": "turbinesim_session=abc"}},
	} {
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, http.StatusServiceUnavailable)
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s: 503 without Retry-After", r.method, r.path)
		}
	}
	resp, _ := e.do(nil, request{method: "GET", path: "/healthz"})
	if resp.StatusCode != 200 {
		t.Fatalf("healthz must not depend on the database: %d", resp.StatusCode)
	}
	if err := healthy.db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, _ = healthy.do(nil, request{method: "GET", path: "/readyz"})
	if resp.StatusCode != 200 {
		t.Fatalf("readyz with the database up = %d", resp.StatusCode)
	}
}

func TestRequestID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, _ := e.do(nil, request{method: "GET", path: "/healthz", header: map[string]string{"X-Request-ID": "abc-123"}})
	if got := resp.Header.Get("X-Request-ID"); got != "abc-123" {
		t.Fatalf("X-Request-ID = %q, want the client's abc-123", got)
	}
	resp, _ = e.do(nil, request{method: "GET", path: "/healthz", header: map[string]string{"X-Request-ID": "bad id\twith spaces"}})
	if got := resp.Header.Get("X-Request-ID"); got == "" || strings.ContainsAny(got, " \t") {
		t.Fatalf("malformed X-Request-ID was not replaced: %q", got)
	}
}

func TestAssetsAreEmbedded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, p := range []string{"/assets/js/htmx.min.js", "/assets/js/ext/ws.js", "/assets/js/echarts.min.js", "/assets/js/charts.js", "/assets/css/app.css"} {
		resp, body := e.do(nil, request{method: "GET", path: p})
		if resp.StatusCode != 200 || len(body) < 500 {
			t.Errorf("%s: %d, %d bytes", p, resp.StatusCode, len(body))
		}
	}
	resp, body := e.do(nil, request{method: "GET", path: "/assets/js/nothing.js"})
	assertDetail(t, resp, body, 404)
}
