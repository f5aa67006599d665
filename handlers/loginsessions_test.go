package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/handlers"
)

func (e *env) sessions(h map[string]string, c *http.Client) []*turbinesim.LoginSession {
	e.t.Helper()
	resp, body := e.do(c, request{method: "GET", path: "/account/sessions", header: h})
	var l handlers.SessionList
	if err := json.Unmarshal([]byte(body), &l); err != nil || resp.StatusCode != 200 {
		e.t.Fatalf("sessions: %d %s", resp.StatusCode, body)
	}
	return l.Items
}

// The account's sessions: browser sessions and refresh-token families are
// listed with created/last-used/IP/user agent, the requesting browser is
// marked, and each can be revoked (its next request is 401); API keys may
// not list or revoke (E8); other users' ids are 404; the account page
// shows the list with revoke buttons, and revoking this browser signs it
// out.
func TestSessionsListAndRevoke(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	b1, b2 := e.client(), e.client()
	csrf := browserLogin(t, e, b1)
	browserLogin(t, e, b2)
	p := e.loginJSON()

	items := e.sessions(bearer(p.AccessToken), nil)
	kinds := map[string]int{}
	for _, it := range items {
		kinds[it.Kind]++
		if it.IP != "127.0.0.1" || !strings.HasPrefix(it.UserAgent, "Go-http-client") || it.CreatedAt.IsZero() || it.LastUsedAt.IsZero() || it.Current {
			t.Fatalf("session %+v", it)
		}
	}
	if len(items) != 3 || kinds["browser"] != 2 || kinds["token"] != 1 {
		t.Fatalf("sessions %v", kinds)
	}
	// b1 sees itself marked.
	var mine, theirs, family string
	for _, it := range e.sessions(map[string]string{"Accept": "application/json"}, b1) {
		switch {
		case it.Current:
			mine = it.ID
		case it.Kind == "browser":
			theirs = it.ID
		default:
			family = it.ID
		}
	}
	if mine == "" || theirs == "" || family == "" {
		t.Fatal("current browser session not marked")
	}

	// E8: an API key can do neither.
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "no sessions")
	if err != nil {
		t.Fatal(err)
	}
	resp, body := e.do(nil, request{method: "GET", path: "/account/sessions", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "DELETE", path: "/account/sessions/" + theirs, header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 403)

	// Another user's family is 404, like a random id.
	e.addUser("bob@example.com", turbinesim.RoleMember)
	bob := e.loginAs("bob@example.com", e.passwd)
	bobs := e.sessions(bearer(bob.AccessToken), nil)
	if len(bobs) != 1 {
		t.Fatalf("bob's sessions %v", bobs)
	}
	resp, foreign := e.do(nil, request{method: "DELETE", path: "/account/sessions/" + bobs[0].ID, header: bearer(p.AccessToken)})
	assertDetail(t, resp, foreign, 404)
	_, random := e.do(nil, request{method: "DELETE", path: "/account/sessions/6f1c1a57-7a38-4c4e-9d53-0a0d7a6c2f11", header: bearer(p.AccessToken)})
	if foreign != random {
		t.Fatalf("foreign id %s vs random id %s", foreign, random)
	}
	if resp, body := e.refresh(bob.RefreshToken); resp.StatusCode != 200 {
		t.Fatalf("bob's login was touched: %d %s", resp.StatusCode, body)
	}

	// Revoke b2 and the script login.
	for _, id := range []string{theirs, family} {
		if resp, body := e.do(nil, request{method: "DELETE", path: "/account/sessions/" + id, header: bearer(p.AccessToken)}); resp.StatusCode != 204 {
			t.Fatalf("revoke %s: %d %s", id, resp.StatusCode, body)
		}
	}
	resp, body = e.do(b2, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 401)
	resp, body = e.refresh(p.RefreshToken)
	assertDetail(t, resp, body, 401)
	// b1 is untouched and sees only itself.
	if left := e.sessions(map[string]string{"Accept": "application/json"}, b1); len(left) != 1 || left[0].ID != mine {
		t.Fatalf("left %v", left)
	}

	// The account page lists it; its button signs this browser out.
	resp, page := e.do(b1, request{method: "GET", path: "/account", header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != 200 || !strings.Contains(page, `id="sessions"`) || !strings.Contains(page, "(this browser)") ||
		!strings.Contains(page, `action="/account/sessions/`+mine+`/revoke"`) {
		t.Fatalf("account page: %d", resp.StatusCode)
	}
	resp, _ = e.do(b1, request{method: "POST", path: "/account/sessions/" + mine + "/revoke", body: url.Values{"_csrf": {csrf}}.Encode(),
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Fatalf("revoke form: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body = e.do(b1, request{method: "GET", path: "/account", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, 401)
}
