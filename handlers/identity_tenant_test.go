package handlers_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
)

// E7 (with A2/A4 for the identity resources): an API key of organization
// A, and A's administrator's token, get on organization B's members, keys
// and sessions the byte-identical 404 of a random id, change nothing of
// B's, and list only A's rows.
func TestIdentityCrossTenant(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	ctx := context.Background()
	// Organization B with an administrator, a member, a key and a login.
	orgB := &turbinesim.Organization{Name: "Other Wind"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, orgB); err != nil {
		t.Fatal(err)
	}
	users := testUsers(e.db)
	bAdmin := &turbinesim.User{OrganizationID: orgB.ID, Email: "boss@other.example", Role: turbinesim.RoleAdmin, Verified: true}
	bMember := &turbinesim.User{OrganizationID: orgB.ID, Email: "mem@other.example", Role: turbinesim.RoleMember, Verified: true}
	for _, u := range []*turbinesim.User{bAdmin, bMember} {
		if err := users.CreateUser(ctx, u, e.passwd); err != nil {
			t.Fatal(err)
		}
	}
	keys := db.NewAPIKeyService(e.db)
	kB, err := keys.CreateAPIKey(ctx, bAdmin, "b's key")
	if err != nil {
		t.Fatal(err)
	}
	bLogin := e.loginAs("boss@other.example", e.passwd)
	bFamily := e.sessions(bearer(bLogin.AccessToken), nil)[0].ID
	// B's audit log and outbox get a row each (a key's settings change is
	// refused, and audited).
	if resp, _ := e.do(nil, request{method: "PUT", path: "/org/settings", header: keyHeader(kB.Key),
		body: `{"caps":{"spend_cap_cents":5,"token_cap":5}}`}); resp.StatusCode != 403 {
		t.Fatalf("B's settings: %d", resp.StatusCode)
	}
	e.requestReset("mem@other.example")
	e.requestReset("ada@example.com") // so that A has an outbox to list

	kA, err := keys.CreateAPIKey(ctx, e.admin, "a's key", turbinesim.ScopeSimulation, turbinesim.ScopeOrgRead)
	if err != nil {
		t.Fatal(err)
	}
	aLogin := e.loginJSON()
	snapshot := func() string {
		var s string
		err := e.db.GetContext(ctx, &s, `
			SELECT concat_ws('|',
			  (SELECT string_agg(u::text, ',' ORDER BY u.id) FROM users u WHERE organization_id = $1),
			  (SELECT string_agg(k::text, ',' ORDER BY k.id) FROM api_keys k WHERE organization_id = $1),
			  (SELECT string_agg(r::text, ',' ORDER BY r.jti_hash) FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE u.organization_id = $1))`, orgB.ID)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := snapshot()
	const randomID = "3d0b7a9e-5a4f-4a7e-8f7e-2b9c3e1d0a55"
	cases := []struct {
		method, path, body string
		key                bool // with kA; otherwise A's administrator's bearer token
	}{
		{"PUT", "/org/members/" + bMember.ID, `{"active":false}`, false},
		{"DELETE", "/org/members/" + bMember.ID, "", false},
		{"PUT", "/org/members/" + bAdmin.ID, `{"role":"org_member"}`, false},
		{"DELETE", "/org/members/" + bAdmin.ID, "", false},
		{"DELETE", "/api-keys/" + kB.ID, "", false},
		{"POST", "/api-keys/" + kB.ID + "/deactivate", "", false},
		{"POST", "/api-keys/" + kB.ID + "/reactivate", "", false},
		{"DELETE", "/account/sessions/" + bFamily, "", false},
	}
	for _, c := range cases {
		h := withJSON(bearer(aLogin.AccessToken))
		if c.key {
			h = keyHeader(kA.Key)
		}
		resp, got := e.do(nil, request{method: c.method, path: c.path, body: c.body, header: h})
		assertDetail(t, resp, got, 404)
		id := c.path[strings.LastIndex(c.path, "/")+1:]
		if strings.HasSuffix(c.path, "activate") {
			id = strings.Split(c.path, "/")[2]
		}
		_, want := e.do(nil, request{method: c.method, path: strings.Replace(c.path, id, randomID, 1), body: c.body, header: h})
		if got != want {
			t.Errorf("%s %s: %s, random id: %s", c.method, c.path, got, want)
		}
	}
	if after := snapshot(); after != before {
		t.Fatal("organization B's users, keys or logins changed")
	}
	// A's audit log gets a row: a key's (refused) settings change.
	if resp, _ := e.do(nil, request{method: "PUT", path: "/org/settings", header: keyHeader(kA.Key),
		body: `{"caps":{"spend_cap_cents":5,"token_cap":5}}`}); resp.StatusCode != 403 {
		t.Fatalf("A's key changes settings: %d", resp.StatusCode)
	}
	// Lists carry only A's rows, whatever the query says.
	for _, path := range []string{"/org/members?org_id=" + orgB.ID, "/org/audit-log?org_id=" + orgB.ID, "/org/outbox", "/api-keys?user_id=" + bAdmin.ID} {
		h := keyHeader(kA.Key)
		if strings.HasPrefix(path, "/api-keys") {
			h = bearer(aLogin.AccessToken)
		}
		resp, body := e.do(nil, request{method: "GET", path: path, header: h})
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		for _, leak := range []string{orgB.ID, "other.example", kB.ClientID, bAdmin.ID} {
			if strings.Contains(body, leak) {
				t.Fatalf("GET %s shows organization B's %q: %s", path, leak, body)
			}
		}
		var page struct {
			Total int `json:"total"`
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil || page.Total == 0 {
			t.Fatalf("GET %s: empty or not a page: %s", path, body)
		}
	}
	// B's key still works: nothing above touched it.
	if resp, body := e.do(nil, request{method: "GET", path: "/account", header: keyHeader(kB.Key)}); resp.StatusCode != 200 {
		t.Fatalf("B's key: %d %s", resp.StatusCode, body)
	}
}
