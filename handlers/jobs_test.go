package handlers_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// The job worker starts this test binary as its solver child
// ("child:simulate", the helper-process pattern); init runs before
// TestMain, so the child never starts a database.
func init() {
	if len(os.Args) > 1 && os.Args[1] == "child:simulate" {
		if err := runner.Simulate(context.Background(), os.Args[2:], os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "turbined:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

type jobEnv struct {
	*env
	jobs *db.JobService
	caps *db.CapService
	key  string // API key of the admin
}

// newJobEnv is the application with the job service and one in-process
// worker on a database that has River's tables.
func newJobEnv(t *testing.T) *jobEnv {
	t.Helper()
	return newJobEnvWorkers(t, 1)
}

func newJobEnvWorkers(t *testing.T, workers int) *jobEnv {
	t.Helper()
	d := jobtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(time.Now().UnixNano())
	ctx := context.Background()
	e.org = &turbinesim.Organization{Name: "Acme Wind"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.admin = &turbinesim.User{OrganizationID: e.org.ID, Email: "ada@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := db.NewUserService(d).CreateUser(ctx, e.admin, e.passwd); err != nil {
		t.Fatal(err)
	}
	cfg, svc := e.config(d)
	cfg.BodyLimit = 32 << 20
	keys := db.NewAPIKeyService(d)
	je := &jobEnv{env: e, caps: db.NewCapService(d, nil)}
	svc.APIKeys, svc.Audit, svc.Caps = keys, keys, je.caps
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	quiet := cfg.Logger
	inserter, err := db.NewQueue(d, db.QueueConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	je.jobs = db.NewJobService(d, trees, je.caps, inserter)
	w, err := runner.New(runner.Config{Jobs: je.jobs, WorkDir: filepath.Join(t.TempDir(), "work"),
		Command: []string{os.Args[0], "child:simulate"}, Sandbox: "none", Logger: quiet,
		ProgressInterval: 100 * time.Millisecond, Limits: runner.Limits{WallTime: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if workers > 0 {
		q, err := db.NewQueue(d, db.QueueConfig{Workers: workers, Worker: w, Logger: quiet, PollInterval: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			q.StopAndCancel(c)
		})
	}
	svc.Jobs = je.jobs
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.http = httptest.NewServer(srv)
	t.Cleanup(e.http.Close)
	k, err := keys.CreateAPIKey(ctx, e.admin, "script")
	if err != nil {
		t.Fatal(err)
	}
	je.key = k.Key
	return je
}

// deckZip zips the NREL 5 MW land deck with TMax set to tMax (the copy in
// memory is edited; the shared files are only read). edit may change any
// member further.
func deckZip(t *testing.T, tMax string, edit func(name string, b []byte) []byte) []byte {
	t.Helper()
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if name == "Main_Onshore.fst" {
			b = bytes.Replace(b, []byte("        10   TMax"), []byte(fmt.Sprintf("%10s   TMax", tMax)), 1)
		}
		if edit != nil {
			b = edit(name, b)
		}
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

// submitZip posts a ZIP and entrypoint as multipart with the given headers.
func (je *jobEnv) submitZip(zipBytes []byte, entry string, header map[string]string) (*http.Response, string) {
	je.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("entrypoint", entry)
	fw, _ := mw.CreateFormFile("file", "deck.zip")
	fw.Write(zipBytes)
	mw.Close()
	h := map[string]string{"Content-Type": mw.FormDataContentType(), "Accept": "application/json"}
	for k, v := range header {
		h[k] = v
	}
	return je.do(nil, request{method: "POST", path: "/jobs", body: body.String(), header: h})
}

func (je *jobEnv) keyed(extra ...string) map[string]string {
	h := map[string]string{"X-API-Key": je.key, "Accept": "application/json"}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h
}

// End to end by API key: submit the NREL 5 MW demo deck (t_max 10 s),
// watch the WebSocket until succeeded, download the .outb; charged once.
func TestJobEndToEndByAPIKey(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	resp, body := je.submitZip(deckZip(t, "10", nil), "Main_Onshore.fst", je.keyed())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	job := decodeInto[turbinesim.Job](t, body)
	// Beta plan: 10 ¢ per run + 30 ¢ per simulated minute (10 s → 5 ¢), 10 tokens.
	if job.Status != turbinesim.JobQueued || job.PriceCents != 15 || job.Tokens != 10 || job.TMax != 10 ||
		job.ClientID == nil || !strings.HasPrefix(je.key, *job.ClientID) || len(*job.ClientID) != 12 {
		t.Fatalf("submitted job %s", body)
	}
	if loc := resp.Header.Get("Location"); loc != "/jobs/"+job.ID {
		t.Fatalf("Location %q", loc)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(je.http.URL, "http") + "/ws/jobs/" + job.ID
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"X-API-Key": {je.key}}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.CloseNow()
	var msgs []handlers.JobProgress
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Fatalf("stream ended with %v after %d messages", err, len(msgs))
			}
			break
		}
		var m handlers.JobProgress
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("message %s: %v", b, err)
		}
		msgs = append(msgs, m)
	}
	last := msgs[len(msgs)-1]
	if !last.Final || last.Status != turbinesim.JobSucceeded || last.Percent != 100 || last.SimTime != 10 || last.TMax != 10 {
		t.Fatalf("final message %+v", last)
	}
	prev, midway := -1.0, 0
	for _, m := range msgs {
		if m.SimTime < prev {
			t.Fatalf("progress went backwards: %+v", msgs)
		}
		prev = m.SimTime
		if m.Status == turbinesim.JobRunning && m.Percent > 0 && m.Percent < 100 && m.ETASeconds != nil {
			midway++
		}
	}
	if midway == 0 {
		t.Fatalf("no running message with partial progress and an ETA: %+v", msgs)
	}
	t.Logf("%d progress messages, statuses %v … %v", len(msgs), msgs[0].Status, last.Status)

	resp, body = je.do(nil, request{method: "GET", path: "/jobs/" + job.ID, header: je.keyed()})
	job = decodeInto[turbinesim.Job](t, body)
	if len(job.OutputFiles) != 1 || job.OutputFiles[0] != "Main_Onshore.outb" {
		t.Fatalf("output files %v", job.OutputFiles)
	}
	resp, body = je.do(nil, request{method: "GET", path: "/jobs/" + job.ID + "/outputs/Main_Onshore.outb", header: je.keyed()})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/octet-stream" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("download: %d %v", resp.StatusCode, resp.Header)
	}
	f, err := outfile.ParseOutb([]byte(body))
	if err != nil {
		t.Fatalf("parsing the download: %v", err)
	}
	if n := len(f.Time); f.Time[n-1] != 10 || n != 101 {
		t.Fatalf("downloaded .outb ends at %g s with %d rows; want 10 s, 101 rows (DT_Out 0.1)", f.Time[n-1], n)
	}
	u, err := je.caps.CurrentUsage(context.Background(), je.org.ID)
	if err != nil || u.SpentCents != 15 || u.Tokens != 10 {
		t.Fatalf("usage %+v %v; want exactly one charge of 15 cents", u, err)
	}

	// Listing, filters, a finished job cannot be cancelled, outputs not
	// listed are 404.
	resp, body = je.do(nil, request{method: "GET", path: "/jobs?status=succeeded", header: je.keyed()})
	if p := decodeInto[handlers.Page[turbinesim.Job]](t, body); p.Total != 1 || p.Items[0].ID != job.ID {
		t.Fatalf("list: %s", body)
	}
	resp, body = je.do(nil, request{method: "GET", path: "/jobs?status=bogus", header: je.keyed()})
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	resp, body = je.do(nil, request{method: "POST", path: "/jobs/" + job.ID + "/cancel", header: je.keyed()})
	assertDetail(t, resp, body, http.StatusConflict)
	resp, body = je.do(nil, request{method: "GET", path: "/jobs/" + job.ID + "/outputs/..%2F..%2Fetc%2Fpasswd", header: je.keyed()})
	assertDetail(t, resp, body, http.StatusNotFound)
}

// Validation happens before any charge: a deck error is 422 naming file
// and line, a ZIP with a traversal name or a shared library is 422, a
// missing entrypoint is 422; nothing is charged or stored.
func TestJobSubmitValidation(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	bad := deckZip(t, "2", func(name string, b []byte) []byte {
		if name == "Main_Onshore.fst" {
			return bytes.Replace(b, []byte("0.0100   DT "), []byte("  abc    DT "), 1)
		}
		return b
	})
	resp, body := je.submitZip(bad, "Main_Onshore.fst", je.keyed())
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "Main_Onshore.fst:7") || !strings.Contains(d, "DT") {
		t.Fatalf("deck error detail %q should name Main_Onshore.fst:7 and DT", d)
	}
	resp, body = je.submitZip(deckZip(t, "2", nil), "missing.fst", je.keyed())
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)

	for name, content := range map[string][]byte{
		"../evil.fst":  []byte("x"),
		"/abs.fst":     []byte("x"),
		"libdiscon.so": {0x7f, 'E', 'L', 'F', 2, 1, 1},
		"notes.txt":    {'M', 'Z', 0x90, 0},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		w.Write(content)
		zw.Close()
		resp, body = je.submitZip(buf.Bytes(), "main.fst", je.keyed())
		assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	}
	var n int
	je.db.GetContext(context.Background(), &n, `SELECT count(*) FROM jobs`)
	u, _ := je.caps.CurrentUsage(context.Background(), je.org.ID)
	if n != 0 || u.SpentCents != 0 {
		t.Fatalf("%d jobs and %d cents after refused submissions", n, u.SpentCents)
	}
}

// Over the spend cap is 402 with nothing stored; the Idempotency-Key
// replays the first job for the same body, refuses another body (422).
func TestJobCapsAndIdempotency(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	ctx := context.Background()
	if err := je.caps.SetCaps(ctx, je.org.ID, turbinesim.Caps{SpendCapCents: 11, TokenCap: 1000}); err != nil {
		t.Fatal(err)
	}
	z := deckZip(t, "2", nil)
	resp, body := je.submitZip(z, "Main_Onshore.fst", je.keyed("Idempotency-Key", "k-1"))
	first := decodeInto[turbinesim.Job](t, body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("first submit: %d %s", resp.StatusCode, body)
	}
	resp, body = je.submitZip(z, "Main_Onshore.fst", je.keyed("Idempotency-Key", "k-1"))
	if again := decodeInto[turbinesim.Job](t, body); resp.StatusCode != http.StatusOK || again.ID != first.ID ||
		resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %s", resp.StatusCode, body)
	}
	resp, body = je.submitZip(deckZip(t, "3", nil), "Main_Onshore.fst", je.keyed("Idempotency-Key", "k-1"))
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	resp, body = je.submitZip(z, "Main_Onshore.fst", je.keyed())
	if d := assertDetail(t, resp, body, http.StatusPaymentRequired); !strings.Contains(d, "spend cap") {
		t.Fatalf("402 detail %q", d)
	}
	var n int
	je.db.GetContext(ctx, &n, `SELECT count(*) FROM jobs`)
	if n != 1 {
		t.Fatalf("%d jobs, want 1", n)
	}
}

// Another organization's key sees 404 for the job, its cancel, its
// outputs and its WebSocket (before any upgrade); no credentials is 401.
func TestJobsAreOrganizationScoped(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	ctx := context.Background()
	resp, body := je.submitZip(deckZip(t, "1", nil), "Main_Onshore.fst", je.keyed())
	job := decodeInto[turbinesim.Job](t, body)
	other := &turbinesim.Organization{Name: "Other"}
	db.NewOrganizationService(je.db).CreateOrganization(ctx, other)
	ou := &turbinesim.User{OrganizationID: other.ID, Email: "eve@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	db.NewUserService(je.db).CreateUser(ctx, ou, je.passwd)
	ok, err := db.NewAPIKeyService(je.db).CreateAPIKey(ctx, ou, "eve")
	if err != nil {
		t.Fatal(err)
	}
	h := map[string]string{"X-API-Key": ok.Key, "Accept": "application/json"}
	for _, r := range []request{
		{method: "GET", path: "/jobs/" + job.ID, header: h},
		{method: "POST", path: "/jobs/" + job.ID + "/cancel", header: h},
		{method: "GET", path: "/jobs/" + job.ID + "/outputs/Main_Onshore.outb", header: h},
		{method: "GET", path: "/ws/jobs/" + job.ID, header: h},
	} {
		resp, body = je.do(nil, r)
		assertDetail(t, resp, body, http.StatusNotFound)
	}
	resp, body = je.do(nil, request{method: "GET", path: "/jobs", header: h})
	if p := decodeInto[handlers.Page[turbinesim.Job]](t, body); p.Total != 0 {
		t.Fatalf("other org lists %d jobs", p.Total)
	}
	_, _, err = websocket.Dial(ctx, "ws"+strings.TrimPrefix(je.http.URL, "http")+"/ws/jobs/"+job.ID, nil)
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("anonymous WebSocket: %v, want 401", err)
	}
}

// The pages render from the same routes: list (with the live-refresh
// body), submit form, detail with progress bar, cancel button, outputs
// and solver log.
func TestJobPagesRender(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	resp, body := je.submitZip(deckZip(t, "1", nil), "Main_Onshore.fst", je.keyed())
	job := decodeInto[turbinesim.Job](t, body)
	deadline := time.Now().Add(30 * time.Second)
	for {
		j, err := je.jobs.FindJob(context.Background(), je.org.ID, job.ID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status.Terminal() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", j.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tok := je.loginJSON().AccessToken
	html := map[string]string{"Authorization": "Bearer " + tok, "Accept": "text/html"}
	for path, wants := range map[string][]string{
		"/jobs":     {`id="job-rows"`, `hx-trigger="every 5s"`, `data-job-id="` + job.ID + `"`, ">" + job.Name + "<", "succeeded"},
		"/jobs/new": {`id="submit-zip"`, `name="entrypoint"`, `id="submit-turbine"`},
		"/jobs/" + job.ID: {`<h1 id="job-title" class="text-2xl font-semibold">` + job.Name + `</h1>`, `id="job-bar"`, `data-job-ws="` + job.ID + `"`, "Main_Onshore.outb", `<pre id="job-log" class="whitespace-pre-wrap break-all `, "/assets/js/jobs.js",
			`id="notes-panel"`, `data-target-type="job"`, `data-target-id="` + job.ID + `"`, "/studies/editor.js"},
	} {
		resp, body = je.do(nil, request{method: "GET", path: path, header: html})
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		for _, w := range wants {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: page lacks %q", path, w)
			}
		}
	}
	resp, body = je.do(nil, request{method: "GET", path: "/assets/js/jobs.js"})
	if resp.StatusCode != 200 || !strings.Contains(body, "/ws/jobs/") {
		t.Fatalf("jobs.js: %d", resp.StatusCode)
	}
}

// Revoking the API key that opened a progress stream closes the stream
// with 1008 within the documented bound (2 s re-check).
func TestJobSocketClosesOnRevocation(t *testing.T) {
	t.Parallel()
	je := newJobEnvWorkers(t, 0) // no worker: the job stays queued
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, body := je.submitZip(deckZip(t, "1", nil), "Main_Onshore.fst", je.keyed())
	job := decodeInto[turbinesim.Job](t, body)
	wsURL := "ws" + strings.TrimPrefix(je.http.URL, "http") + "/ws/jobs/" + job.ID
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"X-API-Key": {je.key}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	var first handlers.JobProgress
	_, b, err := conn.Read(ctx)
	if err != nil || json.Unmarshal(b, &first) != nil || first.Status != turbinesim.JobQueued || first.Final {
		t.Fatalf("first message %s, %v", b, err)
	}
	keys := db.NewAPIKeyService(je.db)
	ks, err := keys.ListAPIKeys(ctx, je.admin.ID)
	if err != nil || len(ks) != 1 {
		t.Fatalf("keys: %v %v", ks, err)
	}
	if err := keys.RevokeAPIKey(ctx, je.admin.ID, ks[0].ID); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	_, _, err = conn.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("after revocation: %v, want close 1008", err)
	}
	if el := time.Since(revoked); el > 3*time.Second {
		t.Fatalf("stream closed %s after the revocation; bound is 2 s plus a poll", el)
	}
	t.Logf("stream closed %s after the revocation", time.Since(revoked).Round(time.Millisecond))
}

// A run of a stored turbine: the service writes the turbine's deck with
// the requested end time and steady wind (11.4 m/s, no shear) and runs it;
// the output's Wind1VelX is that wind speed at every row, which shows the
// settings reached the solver; the turbine is marked validated. Out-of-range settings are 422, another
// organization's turbine 404.
func TestJobFromStoredTurbine(t *testing.T) {
	t.Parallel()
	je, tb := newTurbineRunEnv(t)
	ctx := context.Background()
	post := func(body string) (*http.Response, string) {
		return je.do(nil, request{method: "POST", path: "/jobs", body: body,
			header: je.keyed("Content-Type", "application/json")})
	}
	for _, bad := range []string{
		`{"turbine_id":"` + tb.ID + `","settings":{"t_max":0,"wind":{"speed":8}}}`,
		`{"turbine_id":"` + tb.ID + `","settings":{"t_max":1,"wind":{"speed":-3}}}`,
		`{"turbine_id":"` + tb.ID + `","settings":{"t_max":1,"wind":{"speed":8}},"org_id":"x"}`,
	} {
		resp, body := post(bad)
		assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	}
	resp, body := post(`{"turbine_id":"00000000-0000-4000-8000-000000000000","settings":{"t_max":1,"wind":{"speed":8}}}`)
	assertDetail(t, resp, body, http.StatusNotFound)

	resp, body = post(`{"turbine_id":"` + tb.ID + `","settings":{"t_max":1.5,"wind":{"speed":11.4,"shear":0}}}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	job := new(turbinesim.Job)
	*job = decodeInto[turbinesim.Job](t, body)
	if job.TurbineID == nil || *job.TurbineID != tb.ID || job.TMax != 1.5 {
		t.Fatalf("job %s", body)
	}
	var validated bool
	je.db.GetContext(ctx, &validated, `SELECT is_validated FROM turbines WHERE id = $1`, tb.ID)
	if !validated {
		t.Fatal("the submission validated the turbine's deck but is_validated is false")
	}
	wind := je.waitWind(job.ID)
	for k, v := range wind {
		if v < 11.39 || v > 11.41 { // int16 packing of the .outb: ~1e-3 resolution
			t.Fatalf("Wind1VelX[%d] = %g, want 11.4", k, v)
		}
	}
}

// newTurbineRunEnv is a job environment whose server runs stored turbines,
// with one turbine: the shared NREL 5 MW land deck.
func newTurbineRunEnv(t *testing.T) (*jobEnv, *turbinesim.Turbine) {
	t.Helper()
	je, tb, _ := newTurbineRunEnvWith(t, nil)
	return je, tb
}

// newTurbineRunEnvWith is newTurbineRunEnv whose server reads the turbine
// trees through wrap (nil: directly); it also returns the server's
// turbine service.
func newTurbineRunEnvWith(t *testing.T, wrap func(turbinesim.TreeStore) turbinesim.TreeStore) (*jobEnv, *turbinesim.Turbine, *db.TurbineService) {
	t.Helper()
	je := newJobEnv(t)
	ctx := context.Background()
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	deckDir := filepath.Join(t.TempDir(), "deck")
	if err := os.CopyFS(deckDir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	turbineTrees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "turbines"))
	if err != nil {
		t.Fatal(err)
	}
	main := "Main_Onshore.fst"
	tb := &turbinesim.Turbine{OrganizationID: je.org.ID, Name: "NREL 5MW copy", MainFile: &main}
	if err := db.NewTurbineService(je.db, turbineTrees, decks.Editor{}).CreateTurbine(ctx, tb, deckDir); err != nil {
		t.Fatal(err)
	}
	// The server under test reads turbine decks from turbineTrees.
	var trees turbinesim.TreeStore = turbineTrees
	if wrap != nil {
		trees = wrap(turbineTrees)
	}
	turbines := db.NewTurbineService(je.db, trees, decks.Editor{})
	cfg, svc := je.config(je.db)
	cfg.BodyLimit = 32 << 20
	keys := db.NewAPIKeyService(je.db)
	svc.APIKeys, svc.Audit, svc.Caps = keys, keys, je.caps
	svc.Jobs, svc.Turbines = je.jobs, turbines
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	je.http = ts
	return je, tb, turbines
}

// waitWind waits until the job succeeded and returns the hub-height wind
// speed channel (Wind1VelX) of its output; the output must end at t_max.
func (je *jobEnv) waitWind(id string) []float64 {
	t := je.t
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	job, err := je.jobs.FindJob(ctx, je.org.ID, id)
	for err == nil && !job.Status.Terminal() {
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", job.Status)
		}
		time.Sleep(100 * time.Millisecond)
		job, err = je.jobs.FindJob(ctx, je.org.ID, id)
	}
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != turbinesim.JobSucceeded {
		t.Fatalf("job %s: %s\n%s", job.Status, *job.Detail, job.Log)
	}
	_, body := je.do(nil, request{method: "GET", path: "/jobs/" + job.ID + "/outputs/" + job.OutputFiles[0], header: je.keyed()})
	f, err := outfile.ParseOutb([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, c := range f.Channels {
		if c.Name == "Wind1VelX" {
			col = i
		}
	}
	if col < 0 || f.Time[len(f.Time)-1] != job.TMax {
		t.Fatalf("output: Wind1VelX column %d, last time %g, t_max %g", col, f.Time[len(f.Time)-1], job.TMax)
	}
	return f.Data[col]
}
