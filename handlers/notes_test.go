package handlers_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

func TestNotesPrivacy(t *testing.T) {
	t.Parallel()
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes)
	bob := e.member("bob@example.com")
	carol := e.member("carol@example.com")
	eve := e.outsider()
	admin := e.adminHeaders()
	st := e.createStudy(bob, "Notes target")

	post := func(h map[string]string, body string) (*http.Response, string) {
		return e.do(nil, request{method: "POST", path: "/notes", header: h, body: body})
	}
	noteBody := func(vis string) string {
		return fmt.Sprintf(`{"target_type":"study","target_id":%q,"body":"tower clearance looks tight","visibility":%q}`, st.ID, vis)
	}
	resp, body := post(bob, noteBody("private"))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create private note: %d %s", resp.StatusCode, body)
	}
	private := decode[*turbinesim.Note](t, body)
	if private.Visibility != "private" || !private.Mine {
		t.Fatalf("private note %+v", private)
	}
	resp, body = post(bob, noteBody("organization"))
	shared := decode[*turbinesim.Note](t, body)
	if resp.StatusCode != http.StatusCreated || shared.Visibility != "organization" {
		t.Fatalf("create shared note: %d %s", resp.StatusCode, body)
	}

	// Validation and targets.
	for _, c := range []struct {
		body string
		want int
	}{
		{`{"target_type":"planet","target_id":"` + st.ID + `","body":"x"}`, http.StatusUnprocessableEntity},
		{`{"target_type":"study","target_id":"` + st.ID + `","body":"  "}`, http.StatusUnprocessableEntity},
		{`{"target_type":"study","target_id":"` + st.ID + `","body":"x","visibility":"public"}`, http.StatusUnprocessableEntity},
		{`{"target_type":"study","target_id":"` + st.ID + `","body":"x","author_id":"x"}`, http.StatusUnprocessableEntity},
		{`{"target_type":"study","target_id":"6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001","body":"x"}`, http.StatusNotFound},
		{`{"target_type":"turbine","target_id":"6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001","body":"x"}`, http.StatusNotFound},
	} {
		resp, body := post(bob, c.body)
		assertDetail(t, resp, body, c.want)
	}
	// Another organization cannot attach notes to the study.
	resp, body = post(eve, noteBody("private"))
	assertDetail(t, resp, body, http.StatusNotFound)

	list := func(h map[string]string) handlers.NotePage {
		t.Helper()
		resp, body := e.do(nil, request{method: "GET", path: "/notes?target_type=study&target_id=" + st.ID, header: h})
		if resp.StatusCode != 200 {
			t.Fatalf("list: %d %s", resp.StatusCode, body)
		}
		return decode[handlers.NotePage](t, body)
	}
	if p := list(bob); p.Total != 2 {
		t.Fatalf("author lists %d notes, want 2", p.Total)
	}
	if p := list(carol); p.Total != 1 || p.Items[0].ID != shared.ID || p.Items[0].Mine {
		t.Fatalf("other member lists %+v, want only the shared note", p.Items)
	}
	if p := list(eve); p.Total != 0 {
		t.Fatalf("other organization lists %d notes", p.Total)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/notes?target_type=study", header: bob})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)

	// A private note of another member is 404 on read, update and delete,
	// with the same body as a note that does not exist.
	_, absentBody := e.do(nil, request{method: "GET", path: "/notes/6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001", header: carol})
	for _, who := range []map[string]string{carol, admin, eve} {
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			resp, body := e.do(nil, request{method: m, path: "/notes/" + private.ID, header: who, body: `{"body":"overwritten"}`})
			assertDetail(t, resp, body, http.StatusNotFound)
			if body != absentBody {
				t.Fatalf("%s of another's private note: %s, absent note: %s", m, body, absentBody)
			}
		}
	}
	// The organization note: readable by members, editable by its author
	// only, deletable by an administrator.
	resp, body = e.do(nil, request{method: "GET", path: "/notes/" + shared.ID, header: carol})
	if resp.StatusCode != 200 || decode[*turbinesim.Note](t, body).Mine {
		t.Fatalf("read shared note: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "PUT", path: "/notes/" + shared.ID, header: carol, body: `{"body":"mine now"}`})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = e.do(nil, request{method: "DELETE", path: "/notes/" + shared.ID, header: carol})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = e.do(nil, request{method: "GET", path: "/notes/" + shared.ID, header: eve})
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = e.do(nil, request{method: "PUT", path: "/notes/" + shared.ID, header: bob, body: `{}`})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)

	// The author edits the private note and makes it visible; then the
	// other member sees it.
	resp, body = e.do(nil, request{method: "PUT", path: "/notes/" + private.ID, header: bob, body: `{"body":"clearance 4.2 m","visibility":"organization"}`})
	if n := decode[*turbinesim.Note](t, body); resp.StatusCode != 200 || n.Body != "clearance 4.2 m" || n.Visibility != "organization" {
		t.Fatalf("update: %d %s", resp.StatusCode, body)
	}
	resp, _ = e.do(nil, request{method: "GET", path: "/notes/" + private.ID, header: carol})
	if resp.StatusCode != 200 {
		t.Fatalf("now-shared note for the other member: %d", resp.StatusCode)
	}
	resp, _ = e.do(nil, request{method: "DELETE", path: "/notes/" + shared.ID, header: admin})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("admin deletes shared note: %d", resp.StatusCode)
	}
	resp, _ = e.do(nil, request{method: "DELETE", path: "/notes/" + private.ID, header: bob})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("author deletes: %d", resp.StatusCode)
	}
	if p := list(bob); p.Total != 0 {
		t.Fatalf("%d notes left", p.Total)
	}
}
