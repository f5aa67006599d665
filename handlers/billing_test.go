package handlers_test

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// assertNothingCharged fails when any job exists or anything was charged.
func (be *batchAPIEnv) assertNothingCharged(after string) {
	be.t.Helper()
	if n := be.count(`SELECT count(*) FROM jobs`); n != 0 {
		be.t.Fatalf("%d jobs after %s", n, after)
	}
	u, err := be.caps.CurrentUsage(context.Background(), be.org.ID)
	if err != nil || u.SpentCents != 0 || u.Tokens != 0 {
		be.t.Fatalf("usage %+v, %v after %s: want nothing charged", u, err, after)
	}
}

// storeDemo stores bundled turbine id in the organization, its main file
// edited by edit (nil: as bundled), and returns the turbine's id.
func (be *batchAPIEnv) storeDemo(id, name string, edit func([]byte) []byte) string {
	be.t.Helper()
	return be.storeDemoDir(id, name, func(dir, mainFile string) {
		if edit == nil {
			return
		}
		p := filepath.Join(dir, filepath.FromSlash(mainFile))
		b, err := os.ReadFile(p)
		if err != nil {
			be.t.Fatal(err)
		}
		if err := os.WriteFile(p, edit(b), 0o644); err != nil {
			be.t.Fatal(err)
		}
	})
}

// storeDemoDir stores bundled turbine id in the organization after
// prepare has changed its files (dir: the built deck's folder; mainFile:
// its main file, slash-separated, relative to dir) and returns the
// turbine's id.
func (be *batchAPIEnv) storeDemoDir(id, name string, prepare func(dir, mainFile string)) string {
	t := be.t
	t.Helper()
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tb, err := catalog.Build(id, dir)
	if err != nil {
		t.Fatal(err)
	}
	prepare(dir, *tb.MainFile)
	tb.OrganizationID, tb.Name = be.org.ID, name
	if err := db.NewTurbineService(be.db, be.trees, decks.Editor{}).CreateTurbine(context.Background(), tb, dir); err != nil {
		t.Fatal(err)
	}
	return tb.ID
}

var deckDTLine = regexp.MustCompile(`(?m)^(\s*)\S+(\s+DT\s)`)

// One token bought an hour of a worker: {"t_max":1,"dt":1e-9} was
// accepted for one token, and a ZIP deck with DT=1e-9 or TMax=1e308 too
// (charged 1 token, "succeeded" at sim_time 1e308). Every submission
// path (JSON run, ZIP deck, DLC batch and its preview, parametric sweep)
// now refuses a run outside the bounds with 422 naming the field, or the
// file, line and option, and the bound; nothing is stored or charged.
func TestRunBoundsOnEverySubmissionPath(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	zipHeader := map[string]string{"Authorization": be.verified["Authorization"]}
	je := &jobEnv{env: be.env}
	for _, c := range []struct {
		zip  []byte
		want []string
	}{
		{deckZip(t, "2", func(name string, b []byte) []byte {
			if name == "Main_Onshore.fst" {
				return bytes.Replace(b, []byte("0.0100   DT "), []byte("  1e-9   DT "), 1)
			}
			return b
		}), []string{"Main_Onshore.fst:7: DT", "1e-09 s is below the smallest time step of 0.0001 s"}},
		{deckZip(t, "1e308", nil), []string{"Main_Onshore.fst:6: TMax", "above the longest run of 7200 s"}},
	} {
		resp, body := je.submitZip(c.zip, "Main_Onshore.fst", zipHeader)
		d := assertDetail(t, resp, body, http.StatusUnprocessableEntity)
		for _, w := range c.want {
			if !strings.Contains(d, w) {
				t.Errorf("ZIP: detail %q does not contain %q", d, w)
			}
		}
	}
	post := func(path, body string) string {
		t.Helper()
		resp, b := be.do(nil, request{method: "POST", path: path, body: body, header: be.verified})
		return assertDetail(t, resp, b, http.StatusUnprocessableEntity)
	}
	if d := post("/jobs", `{"turbine_id":"`+be.turbineID+`","settings":{"t_max":1,"dt":1e-9,"wind":{"speed":8}}}`); !strings.Contains(d, "settings.dt") || !strings.Contains(d, "0.0001") {
		t.Errorf("JSON dt 1e-9: detail %q, want settings.dt and the bound", d)
	}
	if d := post("/jobs", `{"turbine_id":"`+be.turbineID+`","settings":{"t_max":7200,"dt":0.0002,"wind":{"speed":8}}}`); !strings.Contains(d, "settings.dt") || !strings.Contains(d, "10000000 steps") {
		t.Errorf("JSON 36 million steps: detail %q, want settings.dt and the step limit", d)
	}

	// A stored turbine whose own deck has DT 1e-9: every path that runs
	// it names DT and the bound.
	tiny := be.storeDemo("nrel-5mw-land", "tiny steps", func(b []byte) []byte {
		return deckDTLine.ReplaceAll(b, []byte("${1}1e-9${2}"))
	})
	if d := post("/jobs", `{"turbine_id":"`+tiny+`","settings":{"t_max":1,"wind":{"speed":8}}}`); !strings.Contains(d, "settings.dt: the turbine deck's DT 1e-09 s is below") {
		t.Errorf("JSON run of a DT 1e-9 turbine: detail %q", d)
	}
	for _, path := range []string{"/dlcs/preview", "/dlcs/batch-submit"} {
		if d := post(path, reducedDLC12(tiny, 10)); !strings.Contains(d, "DT: 1e-09 s is below the smallest time step") {
			t.Errorf("%s of a DT 1e-9 turbine: detail %q", path, d)
		}
	}
	sweep := `{"turbine_id":"` + tiny + `","t_max":5,"parameters":[{"name":"wind_speed","values":[6,8]}]}`
	if d := post("/parametric/batch-submit", sweep); !strings.Contains(d, "DT: 1e-09 s is below the smallest time step") {
		t.Errorf("sweep of a DT 1e-9 turbine: detail %q", d)
	}
	sweep = `{"turbine_id":"` + be.turbineID + `","parameters":[{"name":"t_max","values":[5,1e308]}]}`
	if d := post("/parametric/batch-submit", sweep); !strings.Contains(d, "t_max") || !strings.Contains(d, "7200") {
		t.Errorf("sweep to t_max 1e308: detail %q", d)
	}
	be.assertNothingCharged("runs outside the bounds")
}

// A run is priced by its work (steps × model size), not its simulated
// time alone: the same 2-s run at half the time step costs twice the
// tokens (2 and 4 for the NREL 5 MW land deck: 200 and 400 steps × 191
// nodes / 20,000, rounded up). Before, both cost 2 tokens.
func TestPriceFollowsTheWork(t *testing.T) {
	t.Parallel()
	be := newBatchAPIEnv(t, false)
	tokens := func(dt string) int64 {
		t.Helper()
		resp, body := be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
			body: `{"turbine_id":"` + be.turbineID + `","settings":{"t_max":2,"dt":` + dt + `,"wind":{"speed":8}}}`})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("submit dt %s: %d %s", dt, resp.StatusCode, body)
		}
		j := decodeInto[turbinesim.Job](t, body)
		return j.Tokens
	}
	if a, b := tokens("0.01"), tokens("0.005"); a != 2 || b != 4 {
		t.Fatalf("tokens at DT 0.01 s and 0.005 s: %d and %d, want 2 and 4", a, b)
	}
}

// A run the solver could never start is refused at submission (422
// naming why) and charges nothing; before, it was charged and failed in
// the worker. The turbine is the first bundled one the solver refuses
// (coupling.Check); the test skips once the solver runs them all.
func TestUnrunnableTurbineIsRefusedAndCharged0(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	unrunnable := ""
	for _, d := range catalog.Demos() {
		dir := t.TempDir()
		tb, err := catalog.Build(d.ID, dir)
		if err != nil {
			t.Fatal(err)
		}
		dk, err := deck.Load(filepath.Join(dir, filepath.FromSlash(*tb.MainFile)))
		if err == nil && coupling.Check(dk) != nil {
			unrunnable = d.ID
			break
		}
	}
	if unrunnable == "" {
		t.Skip("the solver runs every bundled turbine; no unrunnable deck to submit")
	}
	be := newBatchAPIEnv(t, false)
	id := be.storeDemo(unrunnable, "unrunnable", nil)
	resp, body := be.do(nil, request{method: "POST", path: "/jobs", header: be.verified,
		body: `{"turbine_id":"` + id + `","settings":{"t_max":1,"wind":{"speed":8}}}`})
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "the solver cannot run") {
		t.Fatalf("%s: detail %q", unrunnable, d)
	}
	be.assertNothingCharged("a run the solver cannot start")
}

// Fair billing through the API: a run cancelled while running is charged
// the share of its price and tokens its simulated time covers (cancelled
// at 10 % or a little later: that share, rounded up), the rest returned
// to the month's usage; a refused submission (422 outside the bounds,
// 402 over a cap) charges nothing. Before, a cancel while running kept
// the full charge.
func TestCancelledRunIsChargedProRata(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	ctx := context.Background()
	resp, body := je.submitZip(deckZip(t, "60", nil), "Main_Onshore.fst", je.keyed())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	job := decodeInto[turbinesim.Job](t, body)
	// 60 s at DT 0.01 s: 6,000 steps × 191 nodes / 20,000 = 57.3 → 58
	// tokens; beta: 10 + ceil(58 · 30 / 60) = 39 cents.
	if job.Tokens != 58 || job.PriceCents != 39 {
		t.Fatalf("submitted for %d tokens / %d cents, want 58 / 39", job.Tokens, job.PriceCents)
	}
	deadline := time.Now().Add(60 * time.Second)
	for job.Percent < 10 {
		if time.Now().After(deadline) || job.Status.Terminal() {
			t.Fatalf("job %s at %.1f %% after 60 s", job.Status, job.Percent)
		}
		time.Sleep(50 * time.Millisecond)
		_, body = je.do(nil, request{method: "GET", path: "/jobs/" + job.ID, header: je.keyed()})
		job = decodeInto[turbinesim.Job](t, body)
	}
	resp, body = je.do(nil, request{method: "POST", path: "/jobs/" + job.ID + "/cancel", header: je.keyed()})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %d %s", resp.StatusCode, body)
	}
	for !job.Status.Terminal() {
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", job.Status)
		}
		time.Sleep(50 * time.Millisecond)
		_, body = je.do(nil, request{method: "GET", path: "/jobs/" + job.ID, header: je.keyed()})
		job = decodeInto[turbinesim.Job](t, body)
	}
	share := job.SimTime / job.TMax
	wantTokens, wantCents := int64(math.Ceil(58*share)), int64(math.Ceil(39*share))
	t.Logf("cancelled at %.1f %%: %d tokens, %d cents; detail %q", 100*share, job.Tokens, job.PriceCents, deref(job.Detail))
	if job.Status != turbinesim.JobCancelled || share < 0.1 || share >= 1 || job.Tokens != wantTokens || job.PriceCents != wantCents {
		t.Fatalf("job %s at %.3f of t_max charged %d tokens / %d cents, want %d / %d", job.Status, share, job.Tokens, job.PriceCents, wantTokens, wantCents)
	}
	if d := deref(job.Detail); !strings.Contains(d, "of the simulated time") {
		t.Fatalf("detail %q does not state the share charged", d)
	}
	u, err := je.caps.CurrentUsage(ctx, je.org.ID)
	if err != nil || u.Tokens != wantTokens || u.SpentCents != wantCents {
		t.Fatalf("usage %+v, %v; want %d tokens / %d cents", u, err, wantTokens, wantCents)
	}

	// Refused submissions change nothing.
	bad := deckZip(t, "2", func(name string, b []byte) []byte {
		if name == "Main_Onshore.fst" {
			return bytes.Replace(b, []byte("0.0100   DT "), []byte("  1e-9   DT "), 1)
		}
		return b
	})
	resp, body = je.submitZip(bad, "Main_Onshore.fst", je.keyed())
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	if err := je.caps.SetCaps(ctx, je.org.ID, turbinesim.Caps{SpendCapCents: u.SpentCents + 5, TokenCap: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	resp, body = je.submitZip(deckZip(t, "2", nil), "Main_Onshore.fst", je.keyed())
	assertDetail(t, resp, body, http.StatusPaymentRequired)
	if after, err := je.caps.CurrentUsage(ctx, je.org.ID); err != nil || after.Tokens != u.Tokens || after.SpentCents != u.SpentCents {
		t.Fatalf("usage after a 422 and a 402: %+v, %v; want unchanged %+v", after, err, u)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// A 402 states the cap, what is spent and what the request needs in the
// cap's own unit (dollars for the spend cap, tokens for the token cap;
// before, "cents" and tokens were mixed) and where an administrator
// raises it; the browser's error page links the organization page's cap
// settings, and that page states the billing rules and the plan's runs
// at once.
func TestCapRefusalStatesOneUnitAndWhereToRaise(t *testing.T) {
	t.Parallel()
	je := newJobEnv(t)
	ctx := context.Background()
	if err := je.caps.SetCaps(ctx, je.org.ID, turbinesim.Caps{SpendCapCents: 20, TokenCap: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	z := deckZip(t, "10", nil) // 10 tokens, 15 cents on Beta
	if resp, body := je.submitZip(z, "Main_Onshore.fst", je.keyed()); resp.StatusCode != http.StatusCreated {
		t.Fatalf("first run: %d %s", resp.StatusCode, body)
	}
	resp, body := je.submitZip(z, "Main_Onshore.fst", je.keyed())
	d := assertDetail(t, resp, body, http.StatusPaymentRequired)
	if want := "monthly spend cap of $0.20 reached: $0.15 spent this month, this request costs $0.15"; !strings.Contains(d, want) ||
		!strings.Contains(d, "/org") || strings.Contains(d, "cents") || strings.Contains(d, "token") {
		t.Errorf("spend-cap 402 detail %q: want %q, the organization page, and no other unit", d, want)
	}
	if err := je.caps.SetCaps(ctx, je.org.ID, turbinesim.Caps{SpendCapCents: 100_000, TokenCap: 12}); err != nil {
		t.Fatal(err)
	}
	resp, body = je.submitZip(z, "Main_Onshore.fst", je.keyed())
	d = assertDetail(t, resp, body, http.StatusPaymentRequired)
	if want := "monthly token cap of 12 tokens reached: 10 tokens used this month, this request needs 10 tokens"; !strings.Contains(d, want) ||
		strings.Contains(d, "$") || strings.Contains(d, "cent") {
		t.Errorf("token-cap 402 detail %q: want %q and no other unit", d, want)
	}

	// The browser's error page offers the way to raise the cap.
	resp, body = je.submitZip(z, "Main_Onshore.fst", map[string]string{"X-API-Key": je.key, "Accept": "text/html"})
	if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(body, `id="raise-cap"`) || !strings.Contains(body, `href="/org#settings-form"`) {
		t.Errorf("402 page: %d, raise-cap link present %v", resp.StatusCode, strings.Contains(body, "raise-cap"))
	}
	// The organization page (an environment with the identity services).
	ie := newIdentityEnv(t, false)
	b := ie.client()
	browserLogin(t, ie, b)
	_, body = ie.do(b, request{method: "GET", path: "/org", header: map[string]string{"Accept": "text/html"}})
	for _, want := range []string{`id="billing-rules"`, "steps × model size", "cancelled while running is charged pro rata", "Runs at once: 2 per organization"} {
		if !strings.Contains(body, want) {
			t.Errorf("organization page lacks %q: %.300s", want, body)
		}
	}
}
