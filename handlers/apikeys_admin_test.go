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
		// Key creations and the owner's own changes are audited too.
		if a.Event == turbinesim.AuditAPIKeyCreated || a.UserID == bob.ID {
			continue
		}
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

// An administrator's deactivation of a member's key sticks: the owner's
// reactivation is 403 with a detail saying why (JSON and the account
// page's form), the key stays refused, and the owner's own deactivation on
// top keeps the administrator's mark; the member's key list and the
// organization page say who stopped it; an administrator reactivates it.
// The owner's own deactivation stays reversible by the owner, and an
// administrator whose key another administrator deactivated reactivates it
// (audited). Before deactivated_by (migration 00015) the owner's
// reactivation was a 200 and the leaked key worked again.
func TestAdminDeactivationOfMembersKeySticks(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := context.Background()
	keys := db.NewAPIKeyService(e.db)
	bob := e.addUser("bob@example.com", turbinesim.RoleMember)
	leaked, err := keys.CreateAPIKey(ctx, bob, "leaked")
	if err != nil {
		t.Fatal(err)
	}
	own, err := keys.CreateAPIKey(ctx, bob, "paused by bob")
	if err != nil {
		t.Fatal(err)
	}
	admin := bearer(e.loginJSON().AccessToken)
	bobAuth := bearer(e.loginAs("bob@example.com", e.passwd).AccessToken)
	works := func(secret string) bool {
		resp, _ := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(secret)})
		return resp.StatusCode == 200
	}
	keyOf := func(body string) turbinesim.APIKey {
		t.Helper()
		var k turbinesim.APIKey
		if err := json.Unmarshal([]byte(body), &k); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return k
	}

	resp, body := e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate", header: admin})
	if k := keyOf(body); resp.StatusCode != 200 || k.Active || !k.DeactivatedByAdmin || k.DeactivatedBy == nil || *k.DeactivatedBy != e.admin.ID {
		t.Fatalf("admin deactivates: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/reactivate", header: bobAuth})
	if detail := assertDetail(t, resp, body, 403); !strings.Contains(detail, "administrator") {
		t.Fatalf("owner's reactivation detail %q does not name the administrator's deactivation", detail)
	}
	if works(leaked.Key) {
		t.Fatal("the owner reactivated a key an administrator deactivated")
	}
	// Deactivating it again, then reactivating, does not launder the mark.
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate", header: bobAuth})
	if k := keyOf(body); resp.StatusCode != 200 || !k.DeactivatedByAdmin {
		t.Fatalf("owner deactivates the stopped key again: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/reactivate", header: bobAuth})
	assertDetail(t, resp, body, 403)
	resp, body = e.do(nil, request{method: "GET", path: "/api-keys", header: bobAuth})
	if resp.StatusCode != 200 || !strings.Contains(body, `"deactivated_by_admin":true`) {
		t.Fatalf("member's key list: %d %s", resp.StatusCode, body)
	}

	// The member's page says so and offers no reactivation; the form is
	// refused the same way.
	b := e.client()
	csrf := browserLogin(t, e, b) // ada, the administrator
	bb := e.client()
	bobCSRF := browserLoginAs(t, e, bb, "bob@example.com")
	html := map[string]string{"Accept": "text/html"}
	resp, page := e.do(bb, request{method: "GET", path: "/account/api-keys", header: html})
	if resp.StatusCode != 200 || !strings.Contains(page, "deactivated by an administrator") ||
		strings.Contains(page, `formaction="/account/api-keys/`+leaked.ID+`/reactivate"`) {
		t.Fatalf("member's key page: %d %s", resp.StatusCode, page)
	}
	// The page points scripts at the API description (no page linked it).
	if !strings.Contains(page, `href="/openapi.json"`) {
		t.Errorf("API keys page does not link the OpenAPI document")
	}
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", "Accept": "text/html"}
	resp, page = e.do(bb, request{method: "POST", path: "/account/api-keys/" + leaked.ID + "/reactivate", body: url.Values{"_csrf": {bobCSRF}}.Encode(), header: form})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, "only an administrator can reactivate it") {
		t.Fatalf("member's reactivate form: %d %s", resp.StatusCode, page)
	}
	if works(leaked.Key) {
		t.Fatal("the owner's form reactivated a key an administrator deactivated")
	}
	// The organization page names the administrator.
	resp, page = e.do(b, request{method: "GET", path: "/org", header: html})
	if resp.StatusCode != 200 || !strings.Contains(page, "deactivated by an administrator (ada@example.com)") ||
		!strings.Contains(page, `formaction="/org/api-keys/`+leaked.ID+`/reactivate"`) {
		t.Fatalf("org page: %d %s", resp.StatusCode, page)
	}
	// An administrator reactivates it (the organization page's button).
	resp, _ = e.do(b, request{method: "POST", path: "/org/api-keys/" + leaked.ID + "/reactivate", body: url.Values{"_csrf": {csrf}}.Encode(), header: form})
	if resp.StatusCode != http.StatusSeeOther || !works(leaked.Key) {
		t.Fatalf("admin reactivates from the org page: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + leaked.ID + "/deactivate", header: bobAuth})
	if k := keyOf(body); resp.StatusCode != 200 || k.DeactivatedByAdmin || k.DeactivatedBy == nil || *k.DeactivatedBy != bob.ID {
		t.Fatalf("owner deactivates after the administrator's reactivation: %d %s", resp.StatusCode, body)
	}

	// The owner's own deactivation is the owner's to undo.
	for _, action := range []string{"deactivate", "reactivate"} {
		resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + own.ID + "/" + action, header: bobAuth})
		if k := keyOf(body); resp.StatusCode != 200 || k.DeactivatedByAdmin || k.Active != (action == "reactivate") {
			t.Fatalf("owner %ss own key: %d %s", action, resp.StatusCode, body)
		}
	}
	if !works(own.Key) {
		t.Fatal("owner-reactivated key refused")
	}

	// An administrator's own key stopped by another administrator: its
	// owner, an administrator too, reactivates it, audited.
	grace := e.addUser("grace@example.com", turbinesim.RoleAdmin)
	graceKey, err := keys.CreateAPIKey(ctx, grace, "grace's script")
	if err != nil {
		t.Fatal(err)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + graceKey.ID + "/deactivate", header: admin})
	if k := keyOf(body); resp.StatusCode != 200 || !k.DeactivatedByAdmin {
		t.Fatalf("admin deactivates another admin's key: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/api-keys/" + graceKey.ID + "/reactivate",
		header: bearer(e.loginAs("grace@example.com", e.passwd).AccessToken)})
	if resp.StatusCode != 200 || !works(graceKey.Key) {
		t.Fatalf("administrator reactivates own key another administrator stopped: %d %s", resp.StatusCode, body)
	}
	var n int
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM audit_log WHERE user_id = $1 AND target_client_id = $2 AND path LIKE '%/reactivate'`,
		grace.ID, graceKey.ClientID); err != nil || n != 1 {
		t.Fatalf("audit rows of grace's reactivation: %d (%v)", n, err)
	}
}
