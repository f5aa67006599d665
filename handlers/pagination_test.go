package handlers_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

// pageShape is the paginated response with the items left raw.
type pageShape struct {
	Items      []json.RawMessage `json:"items"`
	Total      *int              `json:"total"`
	Page       *int              `json:"page"`
	PageSize   *int              `json:"page_size"`
	TotalPages *int              `json:"total_pages"`
}

// assertPages checks that a list endpoint holding total items answers
// page 2 of page_size 1 with exactly the second item, carries every field
// of the paginated response, uses the default page_size 20, and
// refuses page=0 and a page_size over its maximum with 422.
func (e *env) assertPages(h map[string]string, path string, total int) {
	e.t.Helper()
	get := func(query string) pageShape {
		e.t.Helper()
		resp, body := e.do(nil, request{method: "GET", path: path + query, header: h})
		if resp.StatusCode != 200 {
			e.t.Fatalf("GET %s%s: %d %s", path, query, resp.StatusCode, body)
		}
		var p pageShape
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			e.t.Fatalf("GET %s%s: %v in %s", path, query, err, body)
		}
		if p.Total == nil || p.Page == nil || p.PageSize == nil || p.TotalPages == nil {
			e.t.Fatalf("GET %s%s: not the paginated response (items, total, page, page_size, total_pages): %s", path, query, body)
		}
		return p
	}
	all := get("")
	if *all.Total != total || len(all.Items) != min(total, 20) || *all.Page != 1 || *all.PageSize != 20 || *all.TotalPages != (total+19)/20 {
		e.t.Errorf("GET %s: total %d page %d page_size %d total_pages %d with %d items, want total %d on page 1 of size 20",
			path, *all.Total, *all.Page, *all.PageSize, *all.TotalPages, len(all.Items), total)
	}
	second := get("?page=2&page_size=1")
	if *second.Total != total || *second.Page != 2 || *second.PageSize != 1 || *second.TotalPages != total ||
		len(second.Items) != 1 || len(all.Items) < 2 || string(second.Items[0]) != string(all.Items[1]) {
		e.t.Errorf("GET %s?page=2&page_size=1: total %d page %d page_size %d total_pages %d items %s, want the second of %d items alone",
			path, *second.Total, *second.Page, *second.PageSize, *second.TotalPages, second.Items, total)
	}
	beyond := get(fmt.Sprintf("?page=%d&page_size=1", total+1))
	if len(beyond.Items) != 0 || *beyond.Total != total {
		e.t.Errorf("GET %s past the last page: %d items, total %d", path, len(beyond.Items), *beyond.Total)
	}
	for _, bad := range []string{"?page=0", "?page_size=100000"} {
		resp, body := e.do(nil, request{method: "GET", path: path + bad, header: h})
		assertDetail(e.t, resp, body, 422)
	}
}

// The organization's members and its outbox are lists: the paginated
// response with page and page_size honoured (they used to answer
// every row as one page whatever was asked, with page_size = row count).
func TestMembersAndOutboxPaginate(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	admin := bearer(e.loginAs(e.admin.Email, e.passwd).AccessToken)
	for _, email := range []string{"m1@example.com", "m2@example.com"} {
		resp, body := e.do(nil, request{method: "POST", path: "/org/members", header: withJSON(admin), body: fmt.Sprintf(`{"email":%q}`, email)})
		if resp.StatusCode != 201 {
			t.Fatalf("invite %s: %d %s", email, resp.StatusCode, body)
		}
	}
	e.assertPages(admin, "/org/members", 3)
	e.assertPages(admin, "/org/outbox", 2)
}

// threeDemos is a catalog of three bundled turbines.
type threeDemos struct{ fakeDemos }

func (threeDemos) Demos() []turbinesim.DemoTurbine {
	return []turbinesim.DemoTurbine{{ID: "demo-a", Label: "A"}, {ID: "demo-b", Label: "B"}, {ID: "demo-c", Label: "C"}}
}

// GET /turbines/demos, a study's artifacts (private and public) and the
// caller's sessions are lists: they answer the paginated response and take
// page and page_size (they answered {"items": [...]} alone and ignored both
// parameters).
func TestShortListsAnswerThePaginatedResponse(t *testing.T) {
	t.Parallel()
	t.Run("demos", func(t *testing.T) {
		t.Parallel()
		te := newTurbineEnv(t, threeDemos{})
		te.assertPages(map[string]string{"Authorization": "Bearer " + te.unverified, "Accept": "application/json"}, "/turbines/demos", 3)
	})
	t.Run("artifacts", func(t *testing.T) {
		t.Parallel()
		e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes)
		bob := e.member("bob@example.com")
		st := e.createStudy(bob, "Paged")
		for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
			if resp, body := e.upload(bob, st.ID, name, "x"); resp.StatusCode != 201 {
				t.Fatalf("upload %s: %d %s", name, resp.StatusCode, body)
			}
		}
		e.assertPages(bob, "/studies/"+st.ID+"/artifacts", 3)
		resp, body := e.do(nil, request{method: "POST", path: "/studies/" + st.ID + "/share", header: bob})
		if resp.StatusCode != 201 {
			t.Fatalf("enable share: %d %s", resp.StatusCode, body)
		}
		link := decode[handlers.ShareLink](t, body)
		e.assertPages(map[string]string{"Accept": "application/json"}, "/api/public/studies/"+link.Token+"/artifacts", 3)
	})
	t.Run("sessions", func(t *testing.T) {
		t.Parallel()
		e := newIdentityEnv(t, false)
		var access string
		for range 3 { // one refresh-token family per login
			access = e.loginAs(e.admin.Email, e.passwd).AccessToken
		}
		e.assertPages(bearer(access), "/account/sessions", 3)
	})
}
