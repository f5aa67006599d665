package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/handlers"
)

// An organization administrator lists every member's key and revokes,
// deactivates or reactivates any of them (audited, naming the administrator
// and the owner); members still manage only their own keys, another
// organization's key stays 404 and key callers stay refused.
func TestAdminManagesMembersAPIKeys(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := context.Background()
	keys := db.NewAPIKeyService(e.db)
	bob := e.addUser("bob@example.com", turbinesim.RoleMember)
	e.addUser("carol@example.com", turbinesim.RoleMember)
	leaked, err := keys.CreateAPIKey(ctx, bob, "leaked")
	if err != nil {
		t.Fatal(err)
	}
	paused, err := keys.CreateAPIKey(ctx, bob, "paused")
	if err != nil {
		t.Fatal(err)
	}
	adminKey, err := keys.CreateAPIKey(ctx, e.admin, "admin's script")
	if err != nil {
		t.Fatal(err)
	}
	admin := bearer(e.loginJSON().AccessToken)
	bobAuth := bearer(e.loginAs("bob@example.com", e.passwd).AccessToken)
	carol := bearer(e.loginAs("carol@example.com", e.passwd).AccessToken)
	works := func(secret string) bool {
		resp, _ := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(secret)})
		return resp.StatusCode == 200
	}

	// The organization's keys with their owners, never a secret.
	resp, body := e.do(nil, request{method: "GET", path: "/api-keys?scope=org", header: admin})
	var page handlers.Page[turbinesim.OrgAPIKey]
	if err := json.Unmarshal([]byte(body), &page); err != nil || resp.StatusCode != 200 || page.Total != 3 {
		t.Fatalf("org keys: %d %s", resp.StatusCode, body)
	}
	owners := map[string]string{}
	for _, k := range page.Items {
		owners[k.ClientID] = k.OwnerEmail
	}
	if owners[leaked.ClientID] != "bob@example.com" || owners[adminKey.ClientID] != "ada@example.com" {
		t.Fatalf("owners %v", owners)
	}
	for _, secret := range []string{leaked.Key, paused.Key, adminKey.Key} {
		if strings.Contains(body, secret) {
			t.Fatalf("org listing shows a secret: %s", body)
		}
	}
	// Without the scope, the administrator's own keys only.
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys", header: admin})
	if resp.StatusCode != 200 || !strings.Contains(body, `"total":1`) || strings.Contains(body, leaked.ClientID) {
		t.Fatalf("own keys: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys?scope=org", header: bobAuth})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys?scope=everyone", header: admin})
	assertDetail(t, resp, body, 422)

	// A member cannot touch another member's key; a key-authenticated
	// administrator is refused as for every key-management request.
	for _, r := range []request{
		{method: "DELETE", path: "/api-keys/" + leaked.ID, header: carol},
		{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate", header: carol},
		{method: "POST", path: "/api-keys/" + paused.ID + "/reactivate", header: carol},
	} {
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 404)
	}
	for _, r := range []request{
		{method: "GET", path: "/api-keys?scope=org"},
		{method: "DELETE", path: "/api-keys/" + leaked.ID},
		{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate"},
	} {
		r.header = keyHeader(adminKey.Key)
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 403)
	}
	if !works(leaked.Key) || !works(paused.Key) {
		t.Fatal("refused requests changed a key")
	}

	// The administrator of another organization gets 404.
	orgB := &turbinesim.Organization{Name: "Other Wind"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, orgB); err != nil {
		t.Fatal(err)
	}
	bAdmin := &turbinesim.User{OrganizationID: orgB.ID, Email: "boss@other.example", Role: turbinesim.RoleAdmin, Verified: true}
	if err := testUsers(e.db).CreateUser(ctx, bAdmin, e.passwd); err != nil {
		t.Fatal(err)
	}
	other := bearer(e.loginAs("boss@other.example", e.passwd).AccessToken)
	for _, r := range []request{
		{method: "DELETE", path: "/api-keys/" + leaked.ID},
		{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate"},
	} {
		r.header = other
		resp, body := e.do(nil, r)
		assertDetail(t, resp, body, 404)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys?scope=org", header: other})
	if resp.StatusCode != 200 || strings.Contains(body, leaked.ClientID) || !strings.Contains(body, `"total":0`) {
		t.Fatalf("other org's keys: %d %s", resp.StatusCode, body)
	}

	// Deactivate and reactivate a member's key.
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + paused.ID + "/deactivate", header: admin})
	if resp.StatusCode != 200 || !strings.Contains(body, `"active":false`) {
		t.Fatalf("admin deactivates: %d %s", resp.StatusCode, body)
	}
	if works(paused.Key) {
		t.Fatal("deactivated key still works")
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + paused.ID + "/reactivate", header: admin})
	if resp.StatusCode != 200 || !works(paused.Key) {
		t.Fatalf("admin reactivates: %d %s", resp.StatusCode, body)
	}
	// Revoke: the member's next request with it is 401, for good.
	resp, body = e.do(nil, request{method: "DELETE", path: "/api-keys/" + leaked.ID, header: admin})
	if resp.StatusCode != 204 {
		t.Fatalf("admin revokes: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/account", header: keyHeader(leaked.Key)})
	assertDetail(t, resp, body, 401)
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/reactivate", header: admin})
	assertDetail(t, resp, body, 409)
	// The member still manages the own key (not audited, as before).
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + paused.ID + "/deactivate", header: bobAuth})
	if resp.StatusCode != 200 {
		t.Fatalf("member deactivates own key: %d %s", resp.StatusCode, body)
	}

	// The audit log: the three administrator actions, naming the
	// administrator and the owner, besides the key-authenticated refusals.
	resp, body = e.do(nil, request{method: "GET", path: "/org/audit-log", header: admin})
	var audit handlers.Page[turbinesim.AuditEntry]
	if err := json.Unmarshal([]byte(body), &audit); err != nil || resp.StatusCode != 200 {
		t.Fatalf("audit log: %d %s", resp.StatusCode, body)
	}
	var actions []string
	for _, a := range audit.Items {
		if a.TargetClientID == nil {
			if a.ClientID != adminKey.ClientID || a.Status != 403 {
				t.Fatalf("unexpected audit entry %+v", a)
			}
			continue
		}
		if a.UserID != e.admin.ID || a.ClientID != "" || a.TargetUserID == nil || *a.TargetUserID != bob.ID {
			t.Fatalf("admin action entry %+v", a)
		}
		actions = append(actions, a.Method+" "+a.Path+" "+*a.TargetClientID+" "+strconv.Itoa(a.Status))
	}
	want := []string{
		"DELETE /api-keys/" + leaked.ID + " " + leaked.ClientID + " 204",
		"POST /api-keys/" + paused.ID + "/reactivate " + paused.ClientID + " 200",
		"POST /api-keys/" + paused.ID + "/deactivate " + paused.ClientID + " 200",
	}
	if strings.Join(actions, "\n") != strings.Join(want, "\n") {
		t.Fatalf("admin actions in the audit log:\n%s\nwant\n%s", strings.Join(actions, "\n"), strings.Join(want, "\n"))
	}
}

// The organization page shows an administrator every member's key with
// its buttons; the revoke button cuts the key off and is audited. Members
// see no key section, and the form route is administrators-only.
func TestOrgPageRevokesMembersAPIKey(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := context.Background()
	bob := e.addUser("bob@example.com", turbinesim.RoleMember)
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(ctx, bob, "leaked")
	if err != nil {
		t.Fatal(err)
	}
	b := e.client()
	csrf := browserLogin(t, e, b)
	html := map[string]string{"Accept": "text/html"}
	resp, page := e.do(b, request{method: "GET", path: "/org", header: html})
	revoke := `formaction="/org/api-keys/` + k.ID + `/revoke"`
	if resp.StatusCode != 200 || !strings.Contains(page, `id="org-key-table"`) || !strings.Contains(page, k.ClientID) ||
		!strings.Contains(page, "bob@example.com") || !strings.Contains(page, revoke) || strings.Contains(page, k.Key) {
		t.Fatalf("org page: %d %.400s", resp.StatusCode, page)
	}
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}
	resp, _ = e.do(b, request{method: "POST", path: "/org/api-keys/" + k.ID + "/revoke", body: url.Values{"_csrf": {csrf}}.Encode(), header: form})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/org" {
		t.Fatalf("revoke form: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(k.Key)})
	assertDetail(t, resp, body, 401)
	var n int
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM audit_log WHERE user_id = $1 AND target_user_id = $2 AND target_client_id = $3 AND status = 303`,
		e.admin.ID, bob.ID, k.ClientID); err != nil || n != 1 {
		t.Fatalf("audit rows of the form revocation: %d (%v)", n, err)
	}
	// A member's page has no key section; the form route refuses members.
	resp, page = e.do(nil, request{method: "GET", path: "/org", header: map[string]string{"Accept": "text/html",
		"Authorization": "Bearer " + e.loginAs("bob@example.com", e.passwd).AccessToken}})
	if resp.StatusCode != 200 || strings.Contains(page, "org-key-table") {
		t.Fatalf("member's org page: %d", resp.StatusCode)
	}
	mine, err := db.NewAPIKeyService(e.db).CreateAPIKey(ctx, bob, "mine")
	if err != nil {
		t.Fatal(err)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/org/api-keys/" + mine.ID + "/deactivate",
		header: withJSON(bearer(e.loginAs("bob@example.com", e.passwd).AccessToken))})
	assertDetail(t, resp, body, 403)
}
