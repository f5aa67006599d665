package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// newStudyEnv is newEnv with the study, note and rate-limit services on
// the same database, and an artifact limit of maxArtifact bytes.
func newStudyEnv(t *testing.T, maxArtifact int64, opts ...envOption) (*env, *db.StudyService) {
	t.Helper()
	d := dbtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(time.Now().UnixNano())
	ctx := context.Background()
	e.org = &turbinesim.Organization{Name: "Acme Wind"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.admin = &turbinesim.User{OrganizationID: e.org.ID, Email: "ada@example.com", Name: "Ada", Role: turbinesim.RoleAdmin, Verified: true}
	if err := db.NewUserService(d).CreateUser(ctx, e.admin, e.passwd); err != nil {
		t.Fatal(err)
	}
	store, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	studies := db.NewStudyService(d, store)
	studies.MaxArtifactBytes = maxArtifact
	cfg, svc := e.config(d)
	svc.Studies, svc.Notes, svc.RateLimiter = studies, db.NewNoteService(d), db.NewRateLimiter(d)
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
	return e, studies
}

// bearerJSON is bearer (auth_test.go) with a JSON body type.
func bearerJSON(tok string) map[string]string {
	return with(bearer(tok), "Content-Type", "application/json")
}

// member adds a verified member to the env's organization and signs in.
func (e *env) member(email string) map[string]string {
	e.t.Helper()
	e.addUser(email, turbinesim.RoleMember)
	return bearerJSON(e.loginAs(email, e.passwd).AccessToken)
}

// outsider creates a second organization with one user and signs in.
func (e *env) outsider() map[string]string {
	e.t.Helper()
	ctx := context.Background()
	org := &turbinesim.Organization{Name: "Other Wind"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, org); err != nil {
		e.t.Fatal(err)
	}
	u := &turbinesim.User{OrganizationID: org.ID, Email: "eve@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := db.NewUserService(e.db).CreateUser(ctx, u, e.passwd); err != nil {
		e.t.Fatal(err)
	}
	return bearerJSON(e.loginAs("eve@example.com", e.passwd).AccessToken)
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	return v
}

func with(h map[string]string, k, v string) map[string]string {
	out := map[string]string{}
	for a, b := range h {
		out[a] = b
	}
	out[k] = v
	return out
}

const boundary = "studyboundary42"

// multipartFile is a multipart body with one "file" part whose
// Content-Disposition filename is written raw (no client normalisation).
func multipartFile(filename, content string) string {
	return "--" + boundary + "\r\n" +
		`Content-Disposition: form-data; name="file"; filename="` + filename + `"` + "\r\n" +
		"Content-Type: text/csv\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n"
}

func (e *env) upload(h map[string]string, studyID, filename, content string) (*http.Response, string) {
	e.t.Helper()
	return e.do(nil, request{method: "POST", path: "/studies/" + studyID + "/artifacts", body: multipartFile(filename, content),
		header: with(h, "Content-Type", "multipart/form-data; boundary="+boundary)})
}

func (e *env) createStudy(h map[string]string, title string) *turbinesim.Study {
	e.t.Helper()
	resp, body := e.do(nil, request{method: "POST", path: "/studies", header: h, body: fmt.Sprintf(`{"title":%q,"description":"DLC 1.2 fatigue"}`, title)})
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("create study: %d %s", resp.StatusCode, body)
	}
	return decode[*turbinesim.Study](e.t, body)
}

func TestStudiesCRUD(t *testing.T) {
	t.Parallel()
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes)
	bob := e.member("bob@example.com")
	eve := e.outsider()

	resp, body := e.do(nil, request{method: "GET", path: "/studies", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, http.StatusUnauthorized)

	// Validation: media type, malformed JSON, unknown (mass-assigned) field,
	// missing title, foreign ids.
	for _, c := range []struct {
		body, ctype string
		want        int
	}{
		{`{"title":"x"}`, "text/plain", http.StatusUnsupportedMediaType},
		{`{"title":`, "application/json", http.StatusBadRequest},
		{`{"title":"x","author_id":"00000000-0000-0000-0000-000000000000"}`, "application/json", http.StatusUnprocessableEntity},
		{`{"title":"   "}`, "application/json", http.StatusUnprocessableEntity},
		{`{"title":"x","turbine_id":"6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001"}`, "application/json", http.StatusUnprocessableEntity},
		{`{"title":"x","job_ids":["not-a-uuid"]}`, "application/json", http.StatusUnprocessableEntity},
		{`{"title":"x","job_ids":["6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001"]}`, "application/json", http.StatusUnprocessableEntity},
	} {
		resp, body := e.do(nil, request{method: "POST", path: "/studies", header: with(bob, "Content-Type", c.ctype), body: c.body})
		assertDetail(t, resp, body, c.want)
	}

	var ids []string
	for _, title := range []string{"First", "Second", "Third"} {
		st := e.createStudy(bob, title)
		if st.AuthorName != "" || st.AuthorID == nil || st.ShareEnabled || st.OrganizationID != e.org.ID {
			t.Fatalf("created %+v", st)
		}
		ids = append(ids, st.ID)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies?page=1&page_size=2", header: bob})
	page := decode[handlers.StudyPage](t, body)
	if resp.StatusCode != 200 || page.Total != 3 || len(page.Items) != 2 || page.TotalPages != 2 || page.Items[0].Title != "Third" {
		t.Fatalf("page 1: %d %+v", resp.StatusCode, page)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies?page=2&page_size=2", header: bob})
	page = decode[handlers.StudyPage](t, body)
	if len(page.Items) != 1 || page.Items[0].Title != "First" {
		t.Fatalf("page 2: %+v", page)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies?page_size=0", header: bob})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	// Over the maximum is refused (one pagination rule for every list).
	resp, body = e.do(nil, request{method: "GET", path: "/studies?page_size=1000", header: bob})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	resp, body = e.do(nil, request{method: "GET", path: fmt.Sprintf("/studies?page_size=%d", turbinesim.MaxStudyPageSize), header: bob})
	if page = decode[handlers.StudyPage](t, body); resp.StatusCode != 200 || page.PageSize != turbinesim.MaxStudyPageSize {
		t.Fatalf("page_size at the maximum: %d %+v", resp.StatusCode, page.PageSize)
	}
	// Another organization sees nothing: list empty, read/update/delete 404.
	resp, body = e.do(nil, request{method: "GET", path: "/studies", header: eve})
	if page = decode[handlers.StudyPage](t, body); page.Total != 0 {
		t.Fatalf("outsider lists %d studies", page.Total)
	}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		resp, body = e.do(nil, request{method: m, path: "/studies/" + ids[0], header: eve, body: `{"title":"mine now"}`})
		assertDetail(t, resp, body, http.StatusNotFound)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies/not-an-id", header: bob})
	assertDetail(t, resp, body, http.StatusNotFound)

	resp, body = e.do(nil, request{method: "PUT", path: "/studies/" + ids[0], header: bob, body: `{"title":"First, revised","description":"new"}`})
	if st := decode[*turbinesim.Study](t, body); resp.StatusCode != 200 || st.Title != "First, revised" || st.Description != "new" {
		t.Fatalf("update: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies/" + ids[0], header: bob})
	if st := decode[*turbinesim.Study](t, body); resp.StatusCode != 200 || st.Title != "First, revised" {
		t.Fatalf("read back: %d %s", resp.StatusCode, body)
	}
	// Deletion: another member 403, the author 204, then 404.
	carol := e.member("carol@example.com")
	resp, body = e.do(nil, request{method: "DELETE", path: "/studies/" + ids[0], header: carol})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, _ = e.do(nil, request{method: "DELETE", path: "/studies/" + ids[0], header: bob})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies/" + ids[0], header: bob})
	assertDetail(t, resp, body, http.StatusNotFound)
	// An administrator may delete anyone's study.
	admin := bearerJSON(e.loginJSON().AccessToken)
	resp, _ = e.do(nil, request{method: "DELETE", path: "/studies/" + ids[1], header: admin})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("admin delete: %d", resp.StatusCode)
	}
}

func TestStudyArtifactsAPI(t *testing.T) {
	t.Parallel()
	e, _ := newStudyEnv(t, 1000)
	bob := e.member("bob@example.com")
	eve := e.outsider()
	st := e.createStudy(bob, "Loads")
	other := e.createStudy(bob, "Other")

	resp, body := e.upload(bob, st.ID, "DEL summary é.csv", "channel,DEL\nRootMyb1,1.5e4\n")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	a := decode[*turbinesim.Artifact](t, body)
	if a.Name != "DEL summary é.csv" || a.Size != 27 || a.ContentType != "text/csv" {
		t.Fatalf("artifact %+v", a)
	}
	resp, body = e.upload(bob, st.ID, "DEL summary é.csv", "again")
	assertDetail(t, resp, body, http.StatusConflict)
	resp, body = e.upload(bob, st.ID, "big.bin", strings.Repeat("x", 1001))
	assertDetail(t, resp, body, http.StatusRequestEntityTooLarge)
	resp, body = e.upload(eve, st.ID, "x.csv", "x")
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = e.do(nil, request{method: "POST", path: "/studies/" + st.ID + "/artifacts", header: bob, body: `{}`})
	assertDetail(t, resp, body, http.StatusUnsupportedMediaType)
	resp, body = e.do(nil, request{method: "POST", path: "/studies/" + st.ID + "/artifacts",
		header: with(bob, "Content-Type", "multipart/form-data; boundary="+boundary), body: "--" + boundary + "--\r\n"})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)

	// Path traversal in every encoding (plain, percent- and double-encoded,
	// absolute) is
	// refused with 422, before anything is stored.
	for _, name := range []string{"../../etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f", "%252e%252e%252f", "/etc/passwd",
		"a/../../b", `..\\..\\x`, "\u2215etc\u2215passwd", ".htaccess", strings.Repeat("a", 4096), "C:evil.txt"} {
		resp, body := e.upload(bob, st.ID, name, "root:x:0:0")
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("name %q: %d %s, want 422", name, resp.StatusCode, body)
		}
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies/" + st.ID + "/artifacts", header: bob})
	list := decode[handlers.ArtifactList](t, body)
	if resp.StatusCode != 200 || len(list.Items) != 1 || list.Items[0].ID != a.ID || strings.Contains(body, "blob") {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}

	resp, body = e.do(nil, request{method: "GET", path: "/studies/" + st.ID + "/artifacts/" + a.ID + "/download", header: bob})
	if resp.StatusCode != 200 || body != "channel,DEL\nRootMyb1,1.5e4\n" {
		t.Fatalf("download: %d %q", resp.StatusCode, body)
	}
	wantCD := `attachment; filename="DEL summary _.csv"; filename*=UTF-8''DEL%20summary%20%C3%A9.csv`
	if cd := resp.Header.Get("Content-Disposition"); cd != wantCD {
		t.Fatalf("Content-Disposition = %q, want %q", cd, wantCD)
	}
	if resp.Header.Get("Content-Type") != "application/octet-stream" || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("download headers %v", resp.Header)
	}
	// Through another study, another organization, or a made-up id: 404.
	for _, p := range []struct {
		h    map[string]string
		path string
	}{
		{bob, "/studies/" + other.ID + "/artifacts/" + a.ID + "/download"},
		{eve, "/studies/" + st.ID + "/artifacts/" + a.ID + "/download"},
		{bob, "/studies/" + st.ID + "/artifacts/6f1c1a52-2f5e-4b7e-9a55-0d5c7c0ad001/download"},
		{bob, "/studies/" + st.ID + "/artifacts/..%2F..%2Fetc%2Fpasswd/download"},
	} {
		resp, body := e.do(nil, request{method: "GET", path: p.path, header: p.h})
		assertDetail(t, resp, body, http.StatusNotFound)
	}
	resp, body = e.do(nil, request{method: "DELETE", path: "/studies/" + other.ID + "/artifacts/" + a.ID, header: bob})
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, _ = e.do(nil, request{method: "DELETE", path: "/studies/" + st.ID + "/artifacts/" + a.ID, header: bob})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete artifact: %d", resp.StatusCode)
	}
	resp, body = e.do(nil, request{method: "GET", path: "/studies/" + st.ID + "/artifacts/" + a.ID + "/download", header: bob})
	assertDetail(t, resp, body, http.StatusNotFound)
}

func TestShareLinksAndPublicEndpoints(t *testing.T) {
	t.Parallel()
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes)
	bob := e.member("bob@example.com")
	carol := e.member("carol@example.com")
	eve := e.outsider()
	st := e.createStudy(bob, "Yaw study")
	other := e.createStudy(bob, "Unshared")
	resp, body := e.upload(bob, st.ID, "report.txt", "loads within limits")
	a := decode[*turbinesim.Artifact](t, body)
	resp, body = e.upload(bob, other.ID, "secret.txt", "not for reviewers")
	foreign := decode[*turbinesim.Artifact](t, body)

	share := "/studies/" + st.ID + "/share"
	resp, body = e.do(nil, request{method: "GET", path: share, header: bob})
	if s := decode[turbinesim.ShareStatus](t, body); resp.StatusCode != 200 || s.Enabled {
		t.Fatalf("initial share status: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: share, header: carol})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = e.do(nil, request{method: "POST", path: share, header: eve})
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = e.do(nil, request{method: "POST", path: share + "/rotate", header: bob})
	assertDetail(t, resp, body, http.StatusConflict)
	// The editor offers Enable while sharing is off, Rotate and Disable
	// only while a link exists.
	shareButtons := func(enabled bool) {
		t.Helper()
		html := map[string]string{"Authorization": bob["Authorization"], "Accept": "text/html"}
		resp, body := e.do(nil, request{method: "GET", path: "/studies/" + st.ID, header: html})
		if resp.StatusCode != 200 {
			t.Fatalf("editor page: %d", resp.StatusCode)
		}
		for id, shown := range map[string]bool{"share-enable": !enabled, "share-rotate": enabled, "share-disable": enabled} {
			tag := regexp.MustCompile(`<button id="` + id + `"[^>]*>`).FindString(body)
			if tag == "" || strings.Contains(tag, "hidden") == shown {
				t.Errorf("sharing %v: %s shown %v, want %v: %s", enabled, id, !strings.Contains(tag, "hidden"), shown, tag)
			}
		}
	}
	shareButtons(false)

	resp, body = e.do(nil, request{method: "POST", path: share, header: bob})
	first := decode[handlers.ShareLink](t, body)
	shareButtons(true)
	if resp.StatusCode != http.StatusCreated || len(first.Token) != 64 || !first.Enabled ||
		first.URL != e.http.URL+"/s/"+first.Token || !strings.HasPrefix(first.QRCode, "data:image/png;base64,") {
		t.Fatalf("enable: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: share, header: bob})
	assertDetail(t, resp, body, http.StatusConflict)
	resp, body = e.do(nil, request{method: "GET", path: share, header: bob})
	if strings.Contains(body, first.Token) || !decode[turbinesim.ShareStatus](t, body).Enabled {
		t.Fatalf("status after enable: %s", body)
	}

	anon := map[string]string{"Accept": "application/json"}
	pub := "/api/public/studies/"
	resp, body = e.do(nil, request{method: "GET", path: pub + first.Token, header: anon})
	if resp.StatusCode != 200 {
		t.Fatalf("public study: %d %s", resp.StatusCode, body)
	}
	// Exactly the allowlisted keys, and nothing identifying inside.
	var fields map[string]any
	_ = json.Unmarshal([]byte(body), &fields)
	var keys []string
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"author", "created_at", "description", "job_count", "title", "turbine", "updated_at"}; !slices.Equal(keys, want) {
		t.Fatalf("public fields %v, want %v", keys, want)
	}
	for _, leak := range []string{"@example.com", e.org.ID, *st.AuthorID, st.ID} {
		if strings.Contains(body, leak) {
			t.Fatalf("public study leaks %q: %s", leak, body)
		}
	}
	if fields["title"] != "Yaw study" {
		t.Fatalf("public title %v", fields["title"])
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(resp.Header.Get("X-Robots-Tag"), "noindex") {
		t.Fatalf("public headers %v", resp.Header)
	}
	resp, body = e.do(nil, request{method: "GET", path: pub + first.Token + "/artifacts", header: anon})
	plist := decode[handlers.PublicArtifactList](t, body)
	if resp.StatusCode != 200 || len(plist.Items) != 1 || plist.Items[0].ID != a.ID || strings.Contains(body, "uploaded_by") || strings.Contains(body, st.ID) {
		t.Fatalf("public artifacts: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: pub + first.Token + "/artifacts/" + a.ID + "/download"})
	if resp.StatusCode != 200 || body != "loads within limits" || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="report.txt"`) {
		t.Fatalf("public download: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	// Another study's artifact through a valid token: 404.
	resp, body = e.do(nil, request{method: "GET", path: pub + first.Token + "/artifacts/" + foreign.ID + "/download", header: anon})
	assertDetail(t, resp, body, http.StatusNotFound)
	if strings.Contains(body, "not for reviewers") {
		t.Fatal("foreign artifact served")
	}
	// Write methods on public paths: 405 with the error shape.
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		resp, body := e.do(nil, request{method: m, path: pub + first.Token, header: anon})
		assertDetail(t, resp, body, http.StatusMethodNotAllowed)
	}
	// Browsers get the reviewer's page, without navigation into the app.
	for _, p := range []string{"/s/" + first.Token, pub + first.Token} {
		resp, body = e.do(nil, request{method: "GET", path: p, header: map[string]string{"Accept": "text/html"}})
		if resp.StatusCode != 200 || !strings.Contains(body, "Yaw study") || !strings.Contains(body, "report.txt") ||
			strings.Contains(body, "/dashboard") || strings.Contains(body, "<nav") || strings.Contains(body, "bob@example.com") {
			t.Fatalf("public page %s: %d %s", p, resp.StatusCode, body)
		}
	}

	// Unknown, malformed, rotated-away and disabled tokens: one identical 404.
	_, unknownBody := e.do(nil, request{method: "GET", path: pub + strings.Repeat("A", 64), header: anon})
	resp, body = e.do(nil, request{method: "POST", path: share + "/rotate", header: e.adminHeaders()})
	second := decode[handlers.ShareLink](t, body)
	if resp.StatusCode != 200 || second.Token == first.Token || len(second.Token) != 64 {
		t.Fatalf("rotate: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "GET", path: pub + second.Token, header: anon})
	if resp.StatusCode != 200 {
		t.Fatalf("new token: %d", resp.StatusCode)
	}
	check404 := func(what, path string) {
		t.Helper()
		resp, body := e.do(nil, request{method: "GET", path: path, header: anon})
		assertDetail(t, resp, body, http.StatusNotFound)
		if body != unknownBody {
			t.Fatalf("%s: body %s differs from the unknown token's %s", what, body, unknownBody)
		}
	}
	check404("rotated-away token", pub+first.Token)
	check404("rotated-away token, artifacts", pub+first.Token+"/artifacts")
	check404("rotated-away token, download", pub+first.Token+"/artifacts/"+a.ID+"/download")
	check404("malformed token", pub+"short")
	check404("traversal in token", pub+"..%2F..%2Fstudies")
	resp, _ = e.do(nil, request{method: "DELETE", path: share, header: bob})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("disable: %d", resp.StatusCode)
	}
	check404("disabled token", pub+second.Token)
	check404("disabled token, download", pub+second.Token+"/artifacts/"+a.ID+"/download")
	resp, body = e.do(nil, request{method: "GET", path: "/s/" + second.Token, header: map[string]string{"Accept": "text/html"}})
	if resp.StatusCode != 404 || strings.Contains(body, "Yaw study") {
		t.Fatalf("disabled token page: %d", resp.StatusCode)
	}
	resp, _ = e.do(nil, request{method: "DELETE", path: share, header: bob})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("disable twice: %d", resp.StatusCode)
	}
}

func (e *env) adminHeaders() map[string]string { return bearerJSON(e.loginJSON().AccessToken) }

// Public endpoints are limited per client address: the 61st request in a
// minute is 429 with Retry-After, whatever the token.
func TestPublicEndpointsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes)
	path := "/api/public/studies/" + strings.Repeat("b", 64)
	for i := 1; i <= handlers.PublicRequestsPerMinute; i++ {
		resp, body := e.do(nil, request{method: "GET", path: path, header: map[string]string{"Accept": "application/json"}})
		assertDetail(t, resp, body, http.StatusNotFound)
		if got := resp.Header.Get("X-RateLimit-Remaining"); got != fmt.Sprint(handlers.PublicRequestsPerMinute-i) {
			t.Fatalf("request %d: X-RateLimit-Remaining %q", i, got)
		}
	}
	resp, body := e.do(nil, request{method: "GET", path: path, header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, http.StatusTooManyRequests)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}

// The access log never holds a share token.
func TestPublicTokenRedactedInAccessLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes, func(cfg *handlers.Config, _ *handlers.Services) {
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	bob := e.member("bob@example.com")
	st := e.createStudy(bob, "Logged")
	resp, body := e.do(nil, request{method: "POST", path: "/studies/" + st.ID + "/share", header: bob})
	link := decode[handlers.ShareLink](t, body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("enable: %d %s", resp.StatusCode, body)
	}
	for _, p := range []string{link.Token, link.Token + "/artifacts", strings.Repeat("Z", 64)} {
		e.do(nil, request{method: "GET", path: "/api/public/studies/" + p, header: map[string]string{"Accept": "application/json"}})
		e.do(nil, request{method: "GET", path: "/s/" + p})
	}
	out := logs.String()
	if !strings.Contains(out, "/api/public/studies/[token]/artifacts") || !strings.Contains(out, "/s/[token]") {
		t.Fatalf("public requests not logged with a redacted path:\n%s", out)
	}
	if strings.Contains(out, link.Token) || strings.Contains(out, strings.Repeat("Z", 64)) {
		t.Fatalf("access log holds a token:\n%s", out)
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// fakeResults serves one job's output and answers ECONFLICT (no output)
// for every other job.
type fakeResults struct {
	jobID string
	rec   *analysis.Record
}

func (f fakeResults) JobOutput(_ context.Context, _, jobID string) (*outputs.JobOutput, error) {
	if jobID != f.jobID {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "job has no output")
	}
	return &outputs.JobOutput{JobID: jobID, File: "Main.outb", Record: f.rec}, nil
}

func (fakeResults) OpenOutputFile(context.Context, string, string) (string, string, func(), error) {
	return "", "", nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "not found")
}

func (fakeResults) BatchRuns(context.Context, string, string) ([]outputs.BatchRun, error) {
	return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "not found")
}

// The reviewer's page shows the linked runs' key channels: statistics over
// every sample and charts decimated to at most 400 points, with no job id.
func TestPublicPageShowsKeyResultsOfLinkedJobs(t *testing.T) {
	t.Parallel()
	// GenPwr ramps 0..999 kW over 1000 samples at 0.01 s: min 0, mean
	// 499.5, max 999; the stride is ceil(1000/400) = 3, so the chart holds
	// samples 0, 3, ..., 999 (334 points) ending at (9.99 s, 999).
	rec := &analysis.Record{Names: []string{"Time", "GenPwr", "RotSpeed"}, Units: []string{"(s)", "(kW)", "(rpm)"}}
	rec.Time = make([]float64, 1000)
	rec.Channels = [][]float64{make([]float64, 1000), make([]float64, 1000), make([]float64, 1000)}
	for i := range rec.Time {
		rec.Time[i] = float64(i) / 100
		rec.Channels[0][i] = rec.Time[i]
		rec.Channels[1][i] = float64(i)
		rec.Channels[2][i] = 12.1
	}
	results := &fakeResults{rec: rec}
	e, _ := newStudyEnv(t, turbinesim.MaxArtifactBytes, func(_ *handlers.Config, svc *handlers.Services) { svc.Results = results })
	bob := e.member("bob@example.com")
	var jobs []string
	for range 2 {
		var id string
		err := e.db.Get(&id, `INSERT INTO jobs (organization_id, status, entrypoint, input_key, t_max, price_cents, tokens, charge_month)
			VALUES ($1, 'queued', 'Main.fst', 'inputs', 10, 0, 0, date_trunc('month', now())) RETURNING id`, e.org.ID)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, id)
	}
	results.jobID = jobs[0]
	st := e.createStudy(bob, "Ramp")
	resp, body := e.do(nil, request{method: "PUT", path: "/studies/" + st.ID, header: bob,
		body: fmt.Sprintf(`{"title":"Ramp","job_ids":[%q,%q]}`, jobs[0], jobs[1])})
	if resp.StatusCode != 200 {
		t.Fatalf("link jobs: %d %s", resp.StatusCode, body)
	}
	resp, body = e.do(nil, request{method: "POST", path: "/studies/" + st.ID + "/share", header: bob})
	link := decode[handlers.ShareLink](t, body)
	resp, page := e.do(nil, request{method: "GET", path: "/s/" + link.Token})
	if resp.StatusCode != 200 {
		t.Fatalf("public page: %d", resp.StatusCode)
	}
	for _, want := range []string{"Run 1", "Main.outb", "Run 2", "no results available", "GenPwr (kW)", "<td class=\"pr-4\">499.5</td>",
		"<td class=\"pr-4\">999</td>", "RotSpeed (rpm)", "<td class=\"pr-4\">12.1</td>", "/assets/js/echarts.min.js"} {
		if !strings.Contains(page, want) {
			t.Errorf("public page lacks %q", want)
		}
	}
	for _, leak := range append(jobs, st.ID, "bob@example.com") {
		if strings.Contains(page, leak) {
			t.Errorf("public page leaks %q", leak)
		}
	}
	// The chart's option block: 334 points from (0, 0) to (9.99, 999).
	_, after, ok := strings.Cut(page, `id="run1-GenPwr-opt"`)
	if !ok {
		t.Fatal("no GenPwr chart")
	}
	_, block, _ := strings.Cut(after, ">")
	block, _, _ = strings.Cut(block, "</script>")
	var opt struct {
		Series []struct {
			Data []struct {
				Value [2]float64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(block), &opt); err != nil {
		t.Fatalf("chart option %q: %v", block, err)
	}
	d := make([][2]float64, len(opt.Series[0].Data))
	for i, item := range opt.Series[0].Data {
		d[i] = item.Value
	}
	if len(d) != 334 || d[0] != [2]float64{0, 0} || d[1] != [2]float64{0.03, 3} || d[333] != [2]float64{9.99, 999} {
		t.Fatalf("chart data: %d points, first %v, last %v", len(d), d[0], d[len(d)-1])
	}
}
