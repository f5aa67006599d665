package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The invitation e-mail links to /accept-invite?token=...: that page exists
// (it was a 404, so an invited user could not join from the e-mail) and
// sets the password, after which the user signs in.
func TestAcceptInvitePage(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	admin := e.loginJSON()
	resp, body := e.do(nil, request{method: "POST", path: "/org/members", header: withJSON(bearer(admin.AccessToken)), body: `{"email":"mia@example.com"}`})
	if resp.StatusCode != 201 {
		t.Fatalf("invite: %d %s", resp.StatusCode, body)
	}
	tok := e.mailToken("mia@example.com")
	html := map[string]string{"Accept": "text/html"}
	c := e.client()
	resp, page := e.do(c, request{method: "GET", path: "/accept-invite?token=" + url.QueryEscape(tok), header: html})
	m := csrfField.FindStringSubmatch(page)
	if resp.StatusCode != 200 || m == nil || !strings.Contains(page, `id="invite-form"`) {
		t.Fatalf("invitation page: %d", resp.StatusCode)
	}
	post := func(form url.Values) (*http.Response, string) {
		form.Set("_csrf", m[1])
		return e.do(c, request{method: "POST", path: "/accept-invite", body: form.Encode(), header: map[string]string{
			"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	}
	resp, page = post(url.Values{"token": {tok}, "password": {"short"}})
	if resp.StatusCode != 422 || !strings.Contains(page, `id="form-error"`) {
		t.Fatalf("short password: %d", resp.StatusCode)
	}
	resp, page = post(url.Values{"token": {"nope"}, "password": {"mia's long password"}})
	if resp.StatusCode != 422 || !strings.Contains(page, `id="form-error"`) {
		t.Fatalf("unknown token: %d", resp.StatusCode)
	}
	resp, _ = post(url.Values{"token": {tok}, "password": {"mia's long password"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?invited=1" {
		t.Fatalf("accept form: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, page = e.do(c, request{method: "GET", path: "/login?invited=1", header: html})
	if !strings.Contains(page, `id="login-notice"`) {
		t.Fatal("no notice after accepting the invitation")
	}
	e.loginAs("mia@example.com", "mia's long password")
	// The link is single-use.
	resp, _ = post(url.Values{"token": {tok}, "password": {"another long password"}})
	if resp.StatusCode != 422 {
		t.Fatalf("second use: %d", resp.StatusCode)
	}
}
