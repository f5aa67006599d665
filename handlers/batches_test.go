package handlers_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/turbinesim/turbinesim"
	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/resultcache"
	"github.com/turbinesim/turbinesim/infra/runner"
)

type batchAPIEnv struct {
	*env
	caps       *db.CapService
	trees      *blobstore.Local
	jobs       *db.JobService
	turbineID  string
	verified   map[string]string // headers of the verified admin
	unverified map[string]string // headers of an unverified member
}

func float(v float64) *float64 { return &v }

// claim takes queued job id as a worker's attempt would, for a test that
// plays the worker's side by hand (ReportProgress, FinishJob).
func (be *batchAPIEnv) claim(id string) *turbinesim.Job {
	be.t.Helper()
	ctx := context.Background()
	var queueID int64
	if err := be.db.GetContext(ctx, &queueID, `SELECT coalesce(queue_id, 0) FROM jobs WHERE id = $1`, id); err != nil {
		be.t.Fatal(err)
	}
	j, err := be.jobs.ClaimJob(ctx, id, queueID)
	if err != nil || j == nil {
		be.t.Fatalf("claim %s: %v %v", id, j, err)
	}
	return j
}

// newBatchAPIEnv is the application with turbines, jobs and batches on a
// database with River's tables, the NREL 5 MW land deck stored as a
// turbine, the bundled demo catalogue, and (when workers) two in-process
// workers running the real solver in child processes (jobs_test.go's
// child:simulate).
func newBatchAPIEnv(t *testing.T, workers bool) *batchAPIEnv {
	t.Helper()
	d := jobtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(time.Now().UnixNano())
	ctx := context.Background()
	e.org = &turbinesim.Organization{Name: "Acme Wind"}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	users := db.NewUserService(d)
	e.admin = &turbinesim.User{OrganizationID: e.org.ID, Email: "ada@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := users.CreateUser(ctx, e.admin, e.passwd); err != nil {
		t.Fatal(err)
	}
	if err := users.CreateUser(ctx, &turbinesim.User{OrganizationID: e.org.ID, Email: "demo@example.com", Role: turbinesim.RoleMember}, e.passwd); err != nil {
		t.Fatal(err)
	}
	be := &batchAPIEnv{env: e, caps: db.NewCapService(d, nil)}
	cfg, svc := e.config(d)
	cfg.BodyLimit = 1 << 20
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	be.trees = trees
	quiet := cfg.Logger
	inserter, err := db.NewQueue(d, db.QueueConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	be.jobs = db.NewJobService(d, trees, be.caps, inserter)
	turbines := db.NewTurbineService(d, trees, decks.Editor{})
	// The bundled NREL 5 MW turbine, as a user loads it from the demos.
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	deckDir := t.TempDir()
	tb, err := catalog.Build("nrel-5mw-land", deckDir)
	if err != nil {
		t.Fatal(err)
	}
	tb.OrganizationID = e.org.ID
	if err := turbines.CreateTurbine(ctx, tb, deckDir); err != nil {
		t.Fatal(err)
	}
	be.turbineID = tb.ID
	if workers {
		w, err := runner.New(runner.Config{Jobs: be.jobs, WorkDir: filepath.Join(t.TempDir(), "work"),
			Command: []string{os.Args[0], "child:simulate"}, Sandbox: "none", Logger: quiet,
			ProgressInterval: 200 * time.Millisecond, Limits: runner.Limits{WallTime: 5 * time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		q, err := db.NewQueue(d, db.QueueConfig{Workers: 2, Worker: w, Logger: quiet, PollInterval: 50 * time.Millisecond})
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
	svc.Caps, svc.Turbines, svc.Jobs, svc.Demos = be.caps, turbines, be.jobs, catalog
	svc.Batches = db.NewBatchService(be.jobs)
	cache, err := resultcache.New(filepath.Join(t.TempDir(), "results"), 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	svc.Results = db.NewResultService(d, be.jobs, trees, cache)
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.http = httptest.NewServer(srv)
	t.Cleanup(e.http.Close)
	be.verified = be.bearer("ada@example.com")
	be.unverified = be.bearer("demo@example.com")
	return be
}

func (be *batchAPIEnv) bearer(email string) map[string]string {
	be.t.Helper()
	resp, body := be.do(nil, request{method: "POST", path: "/auth/login",
		body:   `{"email":"` + email + `","password":"` + be.passwd + `"}`,
		header: map[string]string{"Content-Type": "application/json"}})
	if resp.StatusCode != http.StatusOK {
		be.t.Fatalf("login %s: %d %s", email, resp.StatusCode, body)
	}
	var pair handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &pair); err != nil {
		be.t.Fatal(err)
	}
	return map[string]string{"Authorization": "Bearer " + pair.AccessToken, "Accept": "application/json", "Content-Type": "application/json"}
}

func (be *batchAPIEnv) count(query string, args ...any) int {
	be.t.Helper()
	var n int
	if err := be.db.GetContext(context.Background(), &n, query, args...); err != nil {
		be.t.Fatal(err)
	}
	return n
}

// reducedDLC12 is DLC 1.2 at 3 wind speeds × 2 seeds, no yaw, with a short
// window and a coarse turbulence grid so that the test stays fast.
func reducedDLC12(turbineID string, duration float64) string {
	b, _ := json.Marshal(map[string]any{
		"turbine_id": turbineID, "dlcs": []string{"1.2"}, "class": "I", "category": "B", "batch_seed": 11,
		"overrides": map[string]any{"1.2": map[string]any{"speeds": []float64{8, 12, 16}, "seeds": 2, "yaw": []float64{0},
			"duration": duration, "transient": 0}},
		"grid": map[string]any{"points": 7, "dt": 0.25},
	})
	return string(b)
}

func TestDLCBatchOverCapIs402AndCreatesNothing(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	// Six 60-s runs need 348 tokens (each 6,000 steps × 191 nodes /
	// 20,000 = 57.3, rounded up to 58); 300 remain. Each run alone would
	// fit.
	if err := be.caps.SetCaps(context.Background(), be.org.ID, turbinesim.Caps{SpendCapCents: 1_000_000, TokenCap: 300}); err != nil {
		t.Fatal(err)
	}
	resp, body := be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: reducedDLC12(be.turbineID, 60), header: be.verified})
	detail := assertDetail(t, resp, body, http.StatusPaymentRequired)
	if !strings.Contains(detail, "6 runs") {
		t.Errorf("detail %q does not name the batch size", detail)
	}
	for _, q := range []string{`SELECT count(*) FROM batches`, `SELECT count(*) FROM jobs`, `SELECT count(*) FROM river_job`} {
		if n := be.count(q); n != 0 {
			t.Fatalf("%s = %d after a 402", q, n)
		}
	}
	u, err := be.caps.CurrentUsage(context.Background(), be.org.ID)
	if err != nil || u.Tokens != 0 || u.SpentCents != 0 {
		t.Fatalf("usage %+v, %v: want nothing charged", u, err)
	}
	// The preview says the same before anything is submitted.
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: reducedDLC12(be.turbineID, 60), header: be.verified})
	var pv handlers.DLCPreview
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &pv) != nil {
		t.Fatalf("preview: %d %s", resp.StatusCode, body)
	}
	if pv.Runs != 6 || pv.Quote.Tokens != 348 || pv.Quote.Fits || pv.Quote.RemainingTokens != 300 || len(pv.Basis) != 1 || pv.Basis[0].Seeds != 2 {
		t.Fatalf("preview = %+v quote %+v", pv, pv.Quote)
	}
}

func TestBatchEndpointsRefuseBadRequestsAndOtherUsers(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	sweep := `{"turbine_id":"` + be.turbineID + `","t_max":5,"parameters":[{"name":"wind_speed","values":[6,8]},{"name":"blade_pitch","start":0,"stop":2,"step":1}]}`
	// Parametric submit is for verified accounts only.
	resp, body := be.do(nil, request{method: "POST", path: "/parametric/batch-submit", body: sweep, header: be.unverified})
	assertDetail(t, resp, body, http.StatusForbidden)
	if n := be.count(`SELECT count(*) FROM jobs`); n != 0 {
		t.Fatalf("%d jobs after a 403", n)
	}
	for _, c := range []struct{ body, want string }{
		{`{"turbine_id":"` + be.turbineID + `","dlcs":["9.9"],"class":"I","category":"B"}`, "9.9"},
		{`{"turbine_id":"` + be.turbineID + `","dlcs":[],"class":"I","category":"B"}`, "dlcs"},
		{`{"turbine_id":"` + be.turbineID + `","dlcs":["1.2"],"class":"IV","category":"B"}`, "IV"},
		{`{"turbine_id":"` + be.turbineID + `","dlcs":["1.2"],"class":"I","category":"B","colour":"red"}`, "colour"},
		// Checked at submit without generating wind: a box centred 60 m
		// above the deck's hub would leave the rotor off the grid.
		{`{"turbine_id":"` + be.turbineID + `","dlcs":["1.2"],"class":"I","category":"B","turbine":{"hub_height":150}}`, "run DLC1.2_V"},
		{`{"turbine_id":"` + be.turbineID + `","dlcs":["1.2"],"class":"I","category":"B","turbine":{"hub_height":150}}`, "hub height 150 m differs"},
	} {
		resp, body := be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: c.body, header: be.verified})
		if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, c.want) {
			t.Errorf("detail %q does not mention %q", d, c.want)
		}
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", header: be.verified,
		body: `{"turbine_id":"00000000-0000-0000-0000-000000000000","dlcs":["1.2"],"class":"I","category":"B"}`})
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = be.do(nil, request{method: "GET", path: "/batches/00000000-0000-0000-0000-000000000000", header: be.verified})
	assertDetail(t, resp, body, http.StatusNotFound)

	// The verified admin's sweep: 2 × 3 points, one batch of six jobs.
	resp, body = be.do(nil, request{method: "POST", path: "/parametric/batch-submit", body: sweep, header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("sweep: %d %s", resp.StatusCode, body)
	}
	var b turbinesim.Batch
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	if b.Kind != turbinesim.BatchParametric || b.RunCount != 6 || b.Progress.Total != 6 || b.Tokens != 6*5 {
		t.Fatalf("sweep batch = %+v", b)
	}
	if n := be.count(`SELECT count(*) FROM jobs WHERE batch_id = $1 AND t_max = 5`, b.ID); n != 6 {
		t.Fatalf("%d jobs of 5 s in the batch, want 6", n)
	}
	resp, body = be.do(nil, request{method: "GET", path: "/batches/" + b.ID, header: be.verified})
	var detail handlers.BatchDetail
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &detail) != nil || len(detail.Runs) != 6 {
		t.Fatalf("GET batch: %d %s", resp.StatusCode, body)
	}
	// Last parameter fastest: wind 6 with pitch 0, 1, 2, then wind 8.
	if !strings.Contains(detail.Runs[0].Run, "wind_speed=6") || !strings.Contains(detail.Runs[2].Run, "blade_pitch=2") ||
		!strings.Contains(detail.Runs[3].Run, "wind_speed=8") {
		t.Fatalf("run order %v", detail.Runs)
	}
	resp, body = be.do(nil, request{method: "GET", path: "/batches?page=1&page_size=10", header: be.verified})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"total":1`) {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	// The report is for verified accounts; it is for DLC batches only.
	resp, body = be.do(nil, request{method: "GET", path: "/reports/batches/" + b.ID, header: be.unverified})
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = be.do(nil, request{method: "GET", path: "/reports/batches/" + b.ID, header: be.verified})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "parametric") {
		t.Errorf("detail %q", d)
	}
	// The unverified member of the same organization can read it; pages
	// render for browsers.
	resp, _ = be.do(nil, request{method: "GET", path: "/batches/" + b.ID, header: be.unverified})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("member GET batch: %d", resp.StatusCode)
	}
	for _, p := range []string{"/batches/" + b.ID, "/batches", "/dlcs/new", "/parametric/new"} {
		h := map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}
		resp, body := be.do(nil, request{method: "GET", path: p, header: h})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "<html") {
			t.Fatalf("page %s: %d", p, resp.StatusCode)
		}
		// The batch page links to its results page, not to the JSON
		// power-curve endpoint (a browser showed the raw JSON).
		if p == "/batches/"+b.ID && (!strings.Contains(body, `href="/analysis/batches/`+b.ID+`"`) || strings.Contains(body, "/power-curve")) {
			t.Fatalf("batch page links: %s", body)
		}
		// The kind reads as a name, not the stored "parametric".
		if kind := map[string]string{"/batches/" + b.ID: "Parametric sweep ·", "/batches": `<td class="px-4 py-2">Parametric sweep</td>`}[p]; kind != "" && !strings.Contains(body, kind) {
			t.Errorf("page %s lacks %s", p, kind)
		}
	}
}

// The reduced NREL 5 MW DLC 1.2 batch (3 wind speeds × 2 seeds) runs end
// to end: submitted through the API as run recipes, each run's turbulence
// box and deck generated by the worker, every job run by the real solver.
func TestDLC12BatchRunsEndToEnd(t *testing.T) {
	be := newBatchAPIEnv(t, true)
	// 60-s runs, as the load basis asks: the generator comes on at
	// TimGenOn = 5 s and the statistics below skip the first 30 s.
	resp, body := be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: reducedDLC12(be.turbineID, 60), header: be.verified})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	var b turbinesim.Batch
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	if b.RunCount != 6 || b.Kind != turbinesim.BatchDLC || resp.Header.Get("Location") != "/batches/"+b.ID {
		t.Fatalf("batch = %+v, Location %q", b, resp.Header.Get("Location"))
	}
	// The submit request generated no wind: every job's input is the same
	// stored copy of the turbine's deck, and each job carries its run's
	// recipe (the attempt's child process generates the box,
	// infra/runner/prepare.go).
	var inputs []struct {
		Key    string `db:"input_key"`
		Recipe []byte `db:"recipe"`
	}
	if err := be.db.SelectContext(context.Background(), &inputs, `SELECT input_key, recipe FROM jobs WHERE batch_id = $1`, b.ID); err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 6 {
		t.Fatalf("%d jobs", len(inputs))
	}
	for _, in := range inputs {
		var recipe batches.RunRecipe
		if in.Key != inputs[0].Key || json.Unmarshal(in.Recipe, &recipe) != nil || recipe.Run.Turbulence == nil || recipe.Run.TMax != 60 {
			t.Fatalf("job input %s, recipe %s: want one shared input and a turbulent 60-s recipe", in.Key, in.Recipe)
		}
	}
	dir, release, err := be.trees.Open(context.Background(), inputs[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	boxes, _ := filepath.Glob(filepath.Join(dir, "*", "*.bts"))
	release()
	if len(boxes) != 0 {
		t.Fatalf("the stored input holds boxes %v: the request generated wind", boxes)
	}
	// The progress WebSocket streams until every run is finished.
	wctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(be.http.URL, "http") + "/ws/batches/" + b.ID
	conn, _, err := websocket.Dial(wctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {be.verified["Authorization"]}}})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []handlers.BatchProgressMessage
	for {
		_, raw, err := conn.Read(wctx)
		if err != nil {
			t.Fatalf("after %d messages: %v", len(msgs), err)
		}
		var m handlers.BatchProgressMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		if m.Final {
			break
		}
	}
	if last := msgs[len(msgs)-1]; last.Done != 6 || last.Total != 6 || len(msgs) < 2 {
		t.Fatalf("%d messages, last %+v", len(msgs), last)
	}
	if _, _, err := conn.Read(wctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Fatalf("close: %v", err)
	}
	var detail handlers.BatchDetail
	deadline := time.Now().Add(3 * time.Minute)
	for {
		resp, body := be.do(nil, request{method: "GET", path: "/batches/" + b.ID, header: be.verified})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET batch: %d %s", resp.StatusCode, body)
		}
		detail = handlers.BatchDetail{}
		if err := json.Unmarshal([]byte(body), &detail); err != nil {
			t.Fatal(err)
		}
		if detail.Progress.Finished() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("batch not finished: %+v", detail.Progress)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if detail.Progress.Status != "succeeded" || detail.Progress.Succeeded != 6 || detail.Progress.Percent != 100 {
		t.Fatalf("progress = %+v runs %+v", detail.Progress, detail.Runs)
	}
	want := []string{"DLC1.2_V8.0_S1", "DLC1.2_V8.0_S2", "DLC1.2_V12.0_S1", "DLC1.2_V12.0_S2", "DLC1.2_V16.0_S1", "DLC1.2_V16.0_S2"}
	for i, r := range detail.Runs {
		if !strings.HasPrefix(r.Run, want[i]) {
			t.Errorf("run %d = %s, want %s…", i, r.Run, want[i])
		}
		j, err := be.jobs.FindJob(context.Background(), be.org.ID, r.JobID)
		if err != nil {
			t.Fatal(err)
		}
		hasOutb := false
		for _, f := range j.OutputFiles {
			hasOutb = hasOutb || strings.HasSuffix(f, ".outb")
		}
		if !hasOutb {
			t.Errorf("run %s: outputs %v have no .outb", r.Run, j.OutputFiles)
		}
		// The worker generated the run's box; the job's log says so.
		if !strings.HasPrefix(j.Log, "prepared run "+r.Run+": NTM turbulent wind box") {
			t.Errorf("run %s: log does not start with the wind generation: %.200q", r.Run, j.Log)
		}
	}

	// The batch's power curve, after the generator came on (TimGenOn =
	// 5 s): every bin has power, and it rises with the wind. The bundled
	// NREL 5 MW carries the baseline controller (Jonkman et al. 2009 §7),
	// so above rated the blades pitch and the power stays near 5 MW
	// (without pitch control it reached 10 MW at 16 m/s); 5.5 MW leaves room
	// for turbulence.
	resp, body = be.do(nil, request{method: "GET", path: "/analysis/batches/" + b.ID + "/power-curve?binning=grid&t_start=30", header: be.verified})
	var pc handlers.BatchCurves
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &pc) != nil || len(pc.Curve.Bins) < 3 {
		t.Fatalf("power curve: %d %s", resp.StatusCode, body)
	}
	bins := pc.Curve.Bins
	for _, bin := range bins {
		t.Logf("bin %.2f m/s: %.0f kW, %.2f rpm, pitch %.2f deg", bin.WindSpeed, bin.PowerKW, bin.RotorSpeedRPM, bin.PitchDeg)
		if bin.PowerKW <= 0 || bin.PowerKW > 5500 {
			t.Errorf("power-curve bin %.1f m/s: %.1f kW, want 0 < P ≤ 5500 kW", bin.WindSpeed, bin.PowerKW)
		}
		// Well above rated (11.4 m/s) the baseline controller holds the
		// rated point of the reference turbine: 5 MW at 12.1 rpm (Jonkman
		// et al. 2009, Table 1-1), with the blades pitched.
		if bin.WindSpeed > 12.5 {
			if math.Abs(bin.PowerKW-5000) > 250 || math.Abs(bin.RotorSpeedRPM-12.1) > 0.6 || bin.PitchDeg < 1 {
				t.Errorf("power-curve bin %.1f m/s: %.0f kW, %.2f rpm, pitch %.2f°; want 5000 ± 250 kW, 12.1 ± 0.6 rpm, pitched",
					bin.WindSpeed, bin.PowerKW, bin.RotorSpeedRPM, bin.PitchDeg)
			}
		}
	}
	if first, last := bins[0], bins[len(bins)-1]; first.PowerKW >= last.PowerKW || first.RotorSpeedRPM >= last.RotorSpeedRPM {
		t.Errorf("power/rotor speed at %.1f m/s (%.0f kW, %.1f rpm) not below those at %.1f m/s (%.0f kW, %.1f rpm)",
			first.WindSpeed, first.PowerKW, first.RotorSpeedRPM, last.WindSpeed, last.PowerKW, last.RotorSpeedRPM)
	}

	// The certification report: HTML for the verified admin, 403 for the
	// unverified member, and the same page as PDF.
	resp, body = be.do(nil, request{method: "GET", path: "/reports/batches/" + b.ID, header: be.unverified})
	assertDetail(t, resp, body, http.StatusForbidden)
	html := map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}
	resp, body = be.do(nil, request{method: "GET", path: "/reports/batches/" + b.ID, header: html})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("report: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{"Design basis", "V<sub>ref</sub> = 50 m/s", "I<sub>ref</sub> = 0.14", "<td>1.2</td>", "RootMyc1", "m = 10",
		"TwrBsMyt", "id=\"aep\"", "7. Failed runs", "<p>None.</p>"} {
		if !strings.Contains(body, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(body, "class=\"warn\"") {
		t.Errorf("report lists problems: %s", body[strings.Index(body, "class=\"warn\""):][:400])
	}
	if os.Getenv("BATCH_REPORT_OUT") != "" {
		os.WriteFile(os.Getenv("BATCH_REPORT_OUT"), []byte(body), 0o600)
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed: PDF not tested")
	}
	pdf := map[string]string{"Authorization": be.verified["Authorization"], "Accept": "application/pdf"}
	resp, body = be.do(nil, request{method: "GET", path: "/reports/batches/" + b.ID, header: pdf})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(body, "%PDF-") || len(body) < 10000 {
		t.Fatalf("PDF: %d %s, %d bytes starting %q", resp.StatusCode, resp.Header.Get("Content-Type"), len(body), body[:min(len(body), 20)])
	}
	if os.Getenv("BATCH_REPORT_OUT") != "" {
		os.WriteFile(os.Getenv("BATCH_REPORT_OUT")+".pdf", []byte(body), 0o600)
	}
}

// The wizard's form: the htmx preview shows the run count and the price,
// and the plain form submit redirects to the new batch's page.
func TestDLCWizardFormPreviewAndSubmit(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	form := "turbine_id=" + be.turbineID + "&class=II&category=A&dlcs=1.2&dlcs=6.4&seeds_per_bin=1&speed_step=4&duration=10"
	h := map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
	resp, body := be.do(nil, request{method: "POST", path: "/dlcs/preview", body: form, header: h})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="dlc-quote"`) {
		t.Fatalf("preview fragment: %d %s", resp.StatusCode, body)
	}
	// The same request as JSON gives the numbers the fragment shows.
	jreq := `{"turbine_id":"` + be.turbineID + `","class":"II","category":"A","dlcs":["1.2","6.4"],"seeds_per_bin":1,"speed_step":4,` +
		`"overrides":{"1.2":{"duration":10},"6.4":{"duration":10}}}`
	resp, jbody := be.do(nil, request{method: "POST", path: "/dlcs/preview", body: jreq, header: be.verified})
	var pv handlers.DLCPreview
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(jbody), &pv) != nil || pv.Runs == 0 {
		t.Fatalf("JSON preview: %d %s", resp.StatusCode, jbody)
	}
	for _, want := range []string{`data-runs="` + strconv.Itoa(pv.Runs) + `"`, `data-price="` + strconv.FormatInt(pv.Quote.PriceCents, 10) + `"`} {
		if !strings.Contains(body, want) {
			t.Errorf("fragment lacks %s: %s", want, body)
		}
	}
	// Each DLC row reports its runs; they add up.
	sum := 0
	for _, r := range pv.Basis {
		if r.DLC != "total" {
			sum += r.Runs
		}
	}
	if sum != pv.Runs {
		t.Errorf("basis rows add to %d runs, preview says %d", sum, pv.Runs)
	}
	if testing.Short() {
		t.Skip("submitting prepares every run's wind")
	}
	h = map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}
	// Submit the deterministic DLC 1.4 (ECD at V_r and V_r ± 2 m/s, both
	// directions: 6 runs with uniform-wind files, cheap to prepare).
	form = "turbine_id=" + be.turbineID + "&class=II&category=A&dlcs=1.4&duration=10&name=wizard"
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: form, header: h})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/batches/") {
		t.Fatalf("form submit: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if n := be.count(`SELECT count(*) FROM jobs`); n != 6 {
		t.Fatalf("%d jobs, want 6", n)
	}
	if n := be.count(`SELECT count(*) FROM batches WHERE name = 'wizard' AND run_count = 6`); n != 1 {
		t.Fatalf("batch row missing")
	}
	resp, body = be.do(nil, request{method: "GET", path: "/batches", header: map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}})
	if !strings.Contains(body, `<td class="px-4 py-2">DLC batch</td>`) {
		t.Errorf("batch list does not name the DLC batch's kind: %d", resp.StatusCode)
	}
	// A run's job page is headed by its name (turbine, DLC, wind, seed),
	// with its turbine linked and the job id small beneath, not by the
	// bare UUID.
	var run struct {
		JobID string `db:"job_id"`
		Name  string `db:"name"`
	}
	if err := be.db.GetContext(context.Background(), &run, `SELECT r.job_id, j.name FROM batch_runs r JOIN jobs j ON j.id = r.job_id
		ORDER BY r.position LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(run.Name, "NREL 5 MW (land-based) · DLC 1.4 · ") {
		t.Errorf("batch run named %q, want its turbine and DLC first", run.Name)
	}
	resp, body = be.do(nil, request{method: "GET", path: "/jobs/" + run.JobID, header: map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}})
	for _, want := range []string{`<h1 id="job-title" class="text-2xl font-semibold">` + run.Name + `</h1>`,
		`href="/turbines/` + be.turbineID + `"`, `<span id="job-id" class="font-mono">` + run.JobID + `</span>`} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("job page %d lacks %s", resp.StatusCode, want)
		}
	}
}

// The turbine page runs its turbine: "Run a simulation" opens the run form
// and "Load-case batch" the DLC wizard, each with the turbine selected.
func TestTurbinePageLinksRunFormsWithTurbineSelected(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	html := map[string]string{"Authorization": be.verified["Authorization"], "Accept": "text/html"}
	resp, body := be.do(nil, request{method: "GET", path: "/turbines/" + be.turbineID, header: html})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("turbine page: %d %s", resp.StatusCode, body)
	}
	links := map[string]string{
		`id="run-link"`: `href="/jobs/new?turbine_id=` + be.turbineID + `"`,
		`id="dlc-link"`: `href="/dlcs/new?turbine_id=` + be.turbineID + `"`,
	}
	for id, href := range links {
		i := strings.Index(body, id)
		if i < 0 {
			t.Fatalf("turbine page lacks %s", id)
		}
		if tag := body[strings.LastIndex(body[:i], "<"):][:300]; !strings.Contains(tag, href) {
			t.Errorf("%s does not link %s: %s", id, href, tag)
		}
	}
	selected := regexp.MustCompile(`<option value="` + be.turbineID + `" selected>`)
	for _, path := range []string{"/jobs/new?turbine_id=" + be.turbineID, "/dlcs/new?turbine_id=" + be.turbineID} {
		resp, body = be.do(nil, request{method: "GET", path: path, header: html})
		if resp.StatusCode != http.StatusOK || !selected.MatchString(body) {
			t.Errorf("GET %s: %d, turbine not preselected", path, resp.StatusCode)
		}
	}
}

// The bundled IEA 15 MW onshore turbine runs a 6-run DLC 1.2 batch from
// the API and a 12-run one from the wizard: its ROSCO Cp table (stored with bare '#'
// comment lines) gives the steady-state start, and the preview refuses
// what the submission would refuse, so both agree.
func TestIEA15OnshoreDemoDLC12Batch(t *testing.T) {
	be := newBatchAPIEnv(t, false)
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	deckDir := t.TempDir()
	tb, err := catalog.Build("iea-15mw-onshore", deckDir)
	if err != nil {
		t.Fatal(err)
	}
	tb.OrganizationID = be.org.ID
	if err := db.NewTurbineService(be.db, be.trees, decks.Editor{}).CreateTurbine(context.Background(), tb, deckDir); err != nil {
		t.Fatal(err)
	}
	resp, body := be.do(nil, request{method: "POST", path: "/dlcs/preview", body: reducedDLC12(tb.ID, 10), header: be.verified})
	var pv handlers.DLCPreview
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &pv) != nil || pv.Runs != 6 {
		t.Fatalf("JSON preview: %d %s", resp.StatusCode, body)
	}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: reducedDLC12(tb.ID, 10), header: be.verified})
	var b turbinesim.Batch
	if resp.StatusCode != http.StatusCreated || json.Unmarshal([]byte(body), &b) != nil || b.RunCount != 6 {
		t.Fatalf("API submit: %d %s", resp.StatusCode, body)
	}
	// The wizard (its smallest DLC 1.2: one seed, 10 m/s steps from cut-in
	// to cut-out, three yaw cases: the 12 runs of the failing report).
	form := "turbine_id=" + tb.ID + "&class=I&category=B&dlcs=1.2&seeds_per_bin=1&speed_step=10&duration=10&name=iea15wizard"
	h := map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/preview", body: form, header: h})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-runs="12"`) {
		t.Fatalf("wizard preview: %d %s", resp.StatusCode, body)
	}
	h = map[string]string{"Authorization": be.verified["Authorization"], "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}
	resp, body = be.do(nil, request{method: "POST", path: "/dlcs/batch-submit", body: form, header: h})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("wizard submit: %d %s", resp.StatusCode, body)
	}
	if n := be.count(`SELECT count(*) FROM batches WHERE name = 'iea15wizard' AND run_count = 12`); n != 1 {
		t.Errorf("wizard batch of 12 runs missing")
	}
}
