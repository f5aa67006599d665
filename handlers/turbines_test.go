package handlers_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	turbineassets "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// turbineEnv is env with the turbine inventory wired in, plus an
// unverified member of the same organization and a user of another one.
type turbineEnv struct {
	*env
	turbines   *db.TurbineService
	store      *blobstore.Local // nil when the env runs on another store (newTurbineEnvOn)
	verified   string           // bearer tokens
	unverified string
	outsider   string
	otherOrg   *turbinesim.Organization
	scratch    string // Config.ScratchDir of this test's server
}

// fakeDemos is a DemoCatalog of one small demo whose "deck" is a copy of a
// directory prepared by the test.
type fakeDemos struct {
	deckDir, mainFile string
}

func (f fakeDemos) Demos() []turbinesim.DemoTurbine {
	return []turbinesim.DemoTurbine{{ID: "test-demo", Label: "Test demo", Name: "Test Demo Turbine"}}
}

func (f fakeDemos) Build(id, dir string) (*turbinesim.Turbine, error) {
	if f.deckDir != "" {
		d, err := deck.Load(filepath.Join(f.deckDir, f.mainFile))
		if err != nil {
			return nil, err
		}
		if _, err := deck.Write(dir, d); err != nil {
			return nil, err
		}
	} else if err := os.WriteFile(filepath.Join(dir, "Main.fst"), []byte("x"), 0o644); err != nil {
		return nil, err
	}
	main := f.mainFile
	if main == "" {
		main = "Main.fst"
	}
	hub := 90.0
	return &turbinesim.Turbine{Name: "Test Demo Turbine", Description: "a test demo", MainFile: &main,
		TurbineParams: turbinesim.TurbineParams{HubHeightM: &hub}}, nil
}

func newTurbineEnv(t *testing.T, demos turbinesim.DemoCatalog) *turbineEnv {
	t.Helper()
	store, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "trees"))
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnvOn(t, demos, store)
	te.store = store
	return te
}

// newTurbineEnvOn is newTurbineEnv with the deck trees in store.
func newTurbineEnvOn(t *testing.T, demos turbinesim.DemoCatalog, store turbinesim.TreeStore) *turbineEnv {
	t.Helper()
	d := dbtest.New(t)
	e := &env{t: t, db: d, passwd: "correct horse battery"}
	e.clock.Store(timeNowUnixNano())
	ctx := context.Background()
	orgs, users := db.NewOrganizationService(d), db.NewUserService(d)
	e.org = &turbinesim.Organization{Name: "Acme Wind"}
	if err := orgs.CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.admin = &turbinesim.User{OrganizationID: e.org.ID, Email: "ada@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := users.CreateUser(ctx, e.admin, e.passwd); err != nil {
		t.Fatal(err)
	}
	te := &turbineEnv{env: e}
	te.otherOrg = &turbinesim.Organization{Name: "Other Wind"}
	if err := orgs.CreateOrganization(ctx, te.otherOrg); err != nil {
		t.Fatal(err)
	}
	for _, u := range []*turbinesim.User{
		{OrganizationID: e.org.ID, Email: "demo@example.com", Role: turbinesim.RoleMember, Verified: false},
		{OrganizationID: te.otherOrg.ID, Email: "eve@example.com", Role: turbinesim.RoleMember, Verified: true},
	} {
		if err := users.CreateUser(ctx, u, e.passwd); err != nil {
			t.Fatal(err)
		}
	}
	te.turbines = db.NewTurbineService(d, store, decks.Editor{})
	cfg, svc := e.config(d)
	cfg.BodyLimit = 32 << 20
	// A scratch root of this test's own, so leftovers() counts only the
	// folders its own requests left, not those of tests running beside it.
	te.scratch = t.TempDir()
	cfg.ScratchDir = te.scratch
	svc.Turbines, svc.Demos = te.turbines, demos
	srv, err := newServer(cfg, svc)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.http = httptest.NewServer(srv)
	t.Cleanup(e.http.Close)
	te.verified = te.token("ada@example.com")
	te.unverified = te.token("demo@example.com")
	te.outsider = te.token("eve@example.com")
	return te
}

func (te *turbineEnv) token(email string) string {
	te.t.Helper()
	resp, body := te.do(nil, request{method: "POST", path: "/auth/login",
		body:   `{"email":"` + email + `","password":"` + te.passwd + `"}`,
		header: map[string]string{"Content-Type": "application/json"}})
	if resp.StatusCode != http.StatusOK {
		te.t.Fatalf("login %s: %d %s", email, resp.StatusCode, body)
	}
	var pair handlers.TokenPair
	if err := json.Unmarshal([]byte(body), &pair); err != nil {
		te.t.Fatal(err)
	}
	return pair.AccessToken
}

// call sends a JSON request with a bearer token.
func (te *turbineEnv) call(token, method, path, body string) (*http.Response, string) {
	te.t.Helper()
	h := map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	return te.do(nil, request{method: method, path: path, body: body, header: h})
}

func decodeInto[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decoding %.300s: %v", body, err)
	}
	return v
}

func (te *turbineEnv) treeCount() int {
	ents, err := os.ReadDir(te.store.Root())
	if err != nil {
		te.t.Fatal(err)
	}
	return len(ents)
}

func TestTurbineEndpointsStatusCodes(t *testing.T) {
	t.Parallel()
	te := newTurbineEnv(t, fakeDemos{})
	v, u, o := te.verified, te.unverified, te.outsider

	// POST /turbines: 201, 403 unverified, 409 name, 422 field, 400, 415.
	create := `{"name":"Rotor A","description":"test","rated_power_kw":5000,"hub_height_m":90,
		"cut_in_wind_speed_ms":3,"rated_wind_speed_ms":11.4,"cut_out_wind_speed_ms":25,"blade_config":{"num_blades":3}}`
	resp, body := te.call(v, "POST", "/turbines", create)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	a := decodeInto[turbinesim.Turbine](t, body)
	if a.Name != "Rotor A" || *a.HubHeightM != 90 || a.IsValidated || string(a.BladeConfig) != `{"num_blades":3}` {
		t.Fatalf("created: %s", body)
	}
	resp, body = te.call(u, "POST", "/turbines", strings.Replace(create, "Rotor A", "Rotor U", 1))
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = te.call(v, "POST", "/turbines", create)
	if d := assertDetail(t, resp, body, http.StatusConflict); !strings.Contains(d, "Rotor A") {
		t.Fatalf("409 detail %q does not name the turbine", d)
	}
	for field, payload := range map[string]string{
		"rated_wind_speed_ms": `{"name":"X","cut_in_wind_speed_ms":3,"rated_wind_speed_ms":30,"cut_out_wind_speed_ms":25}`,
		"hub_height_m":        `{"name":"X","hub_height_m":-1}`,
		"name":                `{"name":"a\u0000b"}`,
		"blade_config":        `{"name":"X","blade_config":[1,2]}`,
		"is_validated":        `{"name":"X","is_validated":true}`,
		"org_id":              `{"name":"X","org_id":"` + te.otherOrg.ID + `"}`,
		"description":         `{"name":"X","description":"Pre-built demo: fake"}`,
	} {
		resp, body = te.call(v, "POST", "/turbines", payload)
		if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, field) {
			t.Errorf("422 for %s: detail %q does not name the field", field, d)
		}
	}
	resp, body = te.call(v, "POST", "/turbines", `{"name":`)
	assertDetail(t, resp, body, http.StatusBadRequest)
	resp, body = te.do(nil, request{method: "POST", path: "/turbines", body: create,
		header: map[string]string{"Authorization": "Bearer " + v, "Content-Type": "text/plain"}})
	assertDetail(t, resp, body, http.StatusUnsupportedMediaType)
	resp, body = te.do(nil, request{method: "GET", path: "/turbines", header: map[string]string{"Accept": "application/json"}})
	assertDetail(t, resp, body, http.StatusUnauthorized)

	// GET /turbines/{id}: 200, 404 other org and random id (same detail).
	resp, body = te.call(u, "GET", "/turbines/"+a.ID, "")
	if resp.StatusCode != 200 || decodeInto[turbinesim.Turbine](t, body).ID != a.ID {
		t.Fatalf("get: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(o, "GET", "/turbines/"+a.ID, "")
	d1 := assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = te.call(v, "GET", "/turbines/00000000-0000-4000-8000-000000000000", "")
	if d2 := assertDetail(t, resp, body, http.StatusNotFound); d1 != d2 {
		t.Fatalf("other org %q and absent %q differ", d1, d2)
	}

	// PUT: 200 (is_validated false), 404 other org, 409 name, 422.
	if _, err := te.db.ExecContext(context.Background(), `UPDATE turbines SET is_validated = true WHERE id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	resp, body = te.call(v, "PUT", "/turbines/"+a.ID, `{"hub_height_m":120}`)
	if up := decodeInto[turbinesim.Turbine](t, body); resp.StatusCode != 200 || *up.HubHeightM != 120 || up.IsValidated || *up.RatedPowerKW != 5000 {
		t.Fatalf("put: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(o, "PUT", "/turbines/"+a.ID, `{"hub_height_m":1}`)
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = te.call(v, "POST", "/turbines", `{"name":"Rotor B"}`)
	b := decodeInto[turbinesim.Turbine](t, body)
	resp, body = te.call(v, "PUT", "/turbines/"+b.ID, `{"name":"Rotor A"}`)
	assertDetail(t, resp, body, http.StatusConflict)
	resp, body = te.call(v, "PUT", "/turbines/"+b.ID, `{"precone_deg":"steep"}`)
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "precone_deg") {
		t.Fatalf("type error detail %q", d)
	}
	resp, body = te.call(v, "PUT", "/turbines/"+b.ID, `{"is_validated":true}`)
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)

	// GET /turbines: pagination and its 422s.
	for i := 0; i < 3; i++ {
		te.call(v, "POST", "/turbines", `{"name":"Extra `+strconv.Itoa(i)+`"}`)
	}
	resp, body = te.call(v, "GET", "/turbines?page=2&page_size=2", "")
	pg := decodeInto[handlers.TurbinePage](t, body)
	if resp.StatusCode != 200 || pg.Total != 5 || len(pg.Items) != 2 || pg.Page != 2 || pg.PageSize != 2 || pg.TotalPages != 3 {
		t.Fatalf("page 2: %d %+v", resp.StatusCode, pg)
	}
	resp, body = te.call(v, "GET", "/turbines", "")
	if pg = decodeInto[handlers.TurbinePage](t, body); pg.PageSize != 20 || pg.Page != 1 || len(pg.Items) != 5 {
		t.Fatalf("defaults: %+v", pg)
	}
	resp, body = te.call(v, "GET", "/turbines?q=extra", "")
	if pg = decodeInto[handlers.TurbinePage](t, body); pg.Total != 3 {
		t.Fatalf("search: %+v", pg)
	}
	resp, body = te.call(o, "GET", "/turbines", "")
	if pg = decodeInto[handlers.TurbinePage](t, body); pg.Total != 0 || len(pg.Items) != 0 {
		t.Fatalf("other org sees %+v", pg)
	}
	resp, _ = te.call(v, "GET", "/turbines?page_size=100", "")
	if resp.StatusCode != 200 {
		t.Fatalf("page_size=100: %d", resp.StatusCode)
	}
	for _, q := range []string{"page_size=101", "page_size=0", "page_size=-1", "page_size=abc", "page_size=1.5", "page=0", "page_size=1&page_size=1000"} {
		resp, body = te.call(v, "GET", "/turbines?"+q, "")
		assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	}

	// Clone: 201, 403 unverified, 404 other org.
	resp, body = te.call(v, "POST", "/turbines/"+a.ID+"/clone", "")
	if c := decodeInto[turbinesim.Turbine](t, body); resp.StatusCode != 201 || c.Name != "Rotor A (copy)" {
		t.Fatalf("clone: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(u, "POST", "/turbines/"+a.ID+"/clone", "")
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = te.call(o, "POST", "/turbines/"+a.ID+"/clone", "")
	assertDetail(t, resp, body, http.StatusNotFound)

	// Without input files: detailed properties 404, fst-defaults from
	// OpenFAST's documented defaults.
	resp, body = te.call(v, "GET", "/turbines/"+a.ID+"/detailed-properties", "")
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = te.call(v, "GET", "/turbines/"+a.ID+"/fst-defaults", "")
	fd := decodeInto[handlers.FSTDefaults](t, body)
	if resp.StatusCode != 200 || len(fd.Parameters) < 10 {
		t.Fatalf("fst-defaults: %d %s", resp.StatusCode, body)
	}
	for _, p := range fd.Parameters {
		if p.Name == "AirDens" && p.Default != "1.225" {
			t.Fatalf("AirDens default %q, want OpenFAST's 1.225", p.Default)
		}
	}
	resp, body = te.call(o, "GET", "/turbines/"+a.ID+"/fst-defaults", "")
	assertDetail(t, resp, body, http.StatusNotFound)

	// DELETE: 204, then 404; other org 404.
	resp, body = te.call(o, "DELETE", "/turbines/"+b.ID, "")
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, _ = te.call(u, "DELETE", "/turbines/"+b.ID, "")
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	resp, body = te.call(v, "GET", "/turbines/"+b.ID, "")
	assertDetail(t, resp, body, http.StatusNotFound)
}

func TestTurbineDemoEndpoints(t *testing.T) {
	t.Parallel()
	te := newTurbineEnv(t, fakeDemos{})
	v, u := te.verified, te.unverified
	resp, body := te.call(u, "GET", "/turbines/demos", "")
	demos := decodeInto[handlers.DemoList](t, body)
	if resp.StatusCode != 200 || len(demos.Items) != 1 || demos.Items[0].ID != "test-demo" {
		t.Fatalf("demos: %d %s", resp.StatusCode, body)
	}
	// Unverified accounts may load demos (not a verified-only endpoint).
	resp, body = te.call(u, "POST", "/turbines/demos/test-demo/load", "")
	first := decodeInto[handlers.DemoLoadResult](t, body)
	if resp.StatusCode != http.StatusCreated || first.Reused || !strings.HasPrefix(first.Description, "Pre-built demo:") {
		t.Fatalf("first load: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(v, "POST", "/turbines/demos/test-demo/load", "")
	again := decodeInto[handlers.DemoLoadResult](t, body)
	if resp.StatusCode != http.StatusOK || !again.Reused || again.ID != first.ID {
		t.Fatalf("second load: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(v, "POST", "/turbines/demos/nope/load", "")
	assertDetail(t, resp, body, http.StatusNotFound)
	// The literal /turbines/demos is not an id.
	resp, body = te.call(v, "GET", "/turbines/demos", "")
	if resp.StatusCode != 200 || !strings.Contains(body, `"items"`) {
		t.Fatalf("GET /turbines/demos: %d %s", resp.StatusCode, body)
	}
	// For browsers the gallery's button says what it does.
	resp, body = te.do(nil, request{method: "GET", path: "/turbines/demos", header: map[string]string{"Authorization": "Bearer " + v, "Accept": "text/html"}})
	if button := regexp.MustCompile(`<button [^>]*id="load-test-demo"[^>]*>([^<]*)</button>`).FindStringSubmatch(body); resp.StatusCode != 200 || button == nil || button[1] != "Add to my turbines" {
		t.Fatalf("gallery page %d, button %q", resp.StatusCode, button)
	}
	// Demo rows: PUT and DELETE 403, for verified accounts too.
	resp, body = te.call(v, "PUT", "/turbines/"+first.ID, `{"hub_height_m":100}`)
	assertDetail(t, resp, body, http.StatusForbidden)
	resp, body = te.call(v, "DELETE", "/turbines/"+first.ID, "")
	assertDetail(t, resp, body, http.StatusForbidden)
	// Clone: editable, prefix dropped, own tree.
	trees := te.treeCount()
	resp, body = te.call(v, "POST", "/turbines/"+first.ID+"/clone", "")
	c := decodeInto[turbinesim.Turbine](t, body)
	if resp.StatusCode != 201 || c.Name != "Test Demo Turbine (copy)" || c.Description != "a test demo" || c.DemoID != nil {
		t.Fatalf("clone: %d %s", resp.StatusCode, body)
	}
	if te.treeCount() != trees+1 {
		t.Fatalf("clone did not copy the tree")
	}
	resp, body = te.call(v, "POST", "/turbines/"+first.ID+"/clone", "")
	if c2 := decodeInto[turbinesim.Turbine](t, body); c2.Name != "Test Demo Turbine (copy 2)" {
		t.Fatalf("second clone: %s", body)
	}
	resp, body = te.call(v, "PUT", "/turbines/"+c.ID, `{"name":"Edited clone","cut_out_wind_speed_ms":24}`)
	if resp.StatusCode != 200 {
		t.Fatalf("put clone: %d %s", resp.StatusCode, body)
	}
	// The fake demo's "deck" is not an input deck, so a hub height edit
	// cannot be applied to it: 422 naming the field, never a silent no-op.
	resp, body = te.call(v, "PUT", "/turbines/"+c.ID, `{"hub_height_m":100}`)
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "hub_height_m: the turbine's stored input files cannot be read") {
		t.Fatalf("put clone hub height: %s", body)
	}
	// Another organization's load makes its own row.
	resp, body = te.call(te.outsider, "POST", "/turbines/demos/test-demo/load", "")
	if other := decodeInto[handlers.DemoLoadResult](t, body); resp.StatusCode != 201 || other.ID == first.ID {
		t.Fatalf("other org load: %d %s", resp.StatusCode, body)
	}
}

// TestTurbineDeleteActiveJob409 plugs a stand-in jobs table into the
// database hook (migration 00020) and checks the API's 409.
func TestTurbineDeleteActiveJob409(t *testing.T) {
	t.Parallel()
	te := newTurbineEnv(t, fakeDemos{})
	resp, body := te.call(te.verified, "POST", "/turbines", `{"name":"Busy"}`)
	busy := decodeInto[turbinesim.Turbine](t, body)
	ctx := context.Background()
	for _, stmt := range []string{
		`CREATE TABLE jobs_standin (turbine_id uuid REFERENCES turbines (id) ON DELETE SET NULL, status text)`,
		`CREATE OR REPLACE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean LANGUAGE sql STABLE AS
			$$ SELECT EXISTS (SELECT 1 FROM jobs_standin WHERE turbine_id = turbine AND status = 'running') $$`,
		`INSERT INTO jobs_standin VALUES ('` + busy.ID + `', 'running')`,
	} {
		if _, err := te.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	resp, body = te.call(te.verified, "DELETE", "/turbines/"+busy.ID, "")
	if d := assertDetail(t, resp, body, http.StatusConflict); !strings.Contains(d, "active job") {
		t.Fatalf("409 detail %q", d)
	}
	if _, err := te.db.ExecContext(ctx, `UPDATE jobs_standin SET status = 'done'`); err != nil {
		t.Fatal(err)
	}
	if resp, _ = te.call(te.verified, "DELETE", "/turbines/"+busy.ID, ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete after the job finished: %d", resp.StatusCode)
	}
}

// TestTurbineDetailedPropertiesNREL5MW stores the NREL 5 MW deck (written
// by solver/deck from ../shared) as a demo and reads its detailed
// properties back through the API, comparing with the published figures of
// the NREL 5 MW blade (Jonkman et al. 2009, NREL/TP-500-38060, Table 2-1
// and its AeroDyn blade table: 61.5 m span, root chord 3.542 m, tip chord 1.419 m, twist 13.308 deg at
// the root) and the shared tower file read directly.
func TestTurbineDetailedPropertiesNREL5MW(t *testing.T) {
	t.Parallel()
	main := testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst")
	te := newTurbineEnv(t, fakeDemos{deckDir: filepath.Dir(main), mainFile: "Main_Onshore.fst"})
	resp, body := te.call(te.verified, "POST", "/turbines/demos/test-demo/load", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load: %d %s", resp.StatusCode, body)
	}
	id := decodeInto[handlers.DemoLoadResult](t, body).ID
	resp, body = te.call(te.unverified, "GET", "/turbines/"+id+"/detailed-properties", "")
	if resp.StatusCode != 200 {
		t.Fatalf("detailed properties: %d %.500s", resp.StatusCode, body)
	}
	p := decodeInto[decks.DetailedProperties](t, body)
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %g, want %g", what, got, want)
		}
	}
	n := len(p.Blade.BlSpn)
	if n < 10 || len(p.Blade.BlChord) != n || len(p.Blade.BlTwist) != n || len(p.Blade.AirfoilIdx) != n {
		t.Fatalf("blade stations: %d spans, %d chords, %d twists", n, len(p.Blade.BlChord), len(p.Blade.BlTwist))
	}
	// The AeroDyn file states 61.4999 m for the 61.5 m tip (a comment in
	// it explains the rounding for BeamDyn coupling).
	near("tip BlSpn", p.Blade.BlSpn[n-1], 61.5, 2e-4)
	near("root BlChord", p.Blade.BlChord[0], 3.542, 1e-6)
	near("tip BlChord", p.Blade.BlChord[n-1], 1.419, 1e-6)
	near("root BlTwist", p.Blade.BlTwist[0], 13.308, 1e-6)
	if len(p.Airfoils) != 8 {
		t.Fatalf("%d airfoils, want the 8 of the NREL 5 MW blade", len(p.Airfoils))
	}
	for _, af := range p.Airfoils {
		if len(af.AlphaDeg) == 0 || len(af.Cl) != len(af.AlphaDeg) || len(af.Cd) != len(af.AlphaDeg) {
			t.Fatalf("airfoil %d %s: %d alphas, %d Cl, %d Cd", af.Index, af.Name, len(af.AlphaDeg), len(af.Cl), len(af.Cd))
		}
	}
	// Tower: compare with the shared tower file read on its own.
	tw, err := deck.ReadEDTower(filepath.Join(filepath.Dir(main), "5MW_Baseline", "NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tower.HtFract) != len(tw.HtFract) || len(p.Tower.TMassDen) != len(tw.TMassDen) {
		t.Fatalf("tower stations %d, want %d", len(p.Tower.HtFract), len(tw.HtFract))
	}
	for i := range tw.HtFract {
		near("HtFract", p.Tower.HtFract[i], tw.HtFract[i], 0)
		near("TMassDen", p.Tower.TMassDen[i], tw.TMassDen[i], 0)
		near("TwFAStif", p.Tower.TwFAStif[i], tw.TwFAStif[i], 0)
	}
	near("tower top height", p.Tower.HeightM[len(p.Tower.HeightM)-1], 87.6, 1e-6)
	if p.Controller.Kind == "none" || len(p.Controller.Parameters) == 0 {
		t.Fatalf("controller: %+v", p.Controller)
	}

	// One polar: airfoil 7 (NACA64_A17 in AFNames order, 0-based 7).
	resp, body = te.call(te.verified, "GET", "/turbines/"+id+"/airfoil-polar/7", "")
	polar := decodeInto[decks.AirfoilPolar](t, body)
	if resp.StatusCode != 200 || polar.Index != 7 || len(polar.Cl) != len(p.Airfoils[7].Cl) || len(polar.Cm) == 0 {
		t.Fatalf("polar 7: %d %.300s", resp.StatusCode, body)
	}
	resp, body = te.call(te.verified, "GET", "/turbines/"+id+"/airfoil-polar/8", "")
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = te.call(te.verified, "GET", "/turbines/"+id+"/airfoil-polar/-1", "")
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	resp, body = te.call(te.outsider, "GET", "/turbines/"+id+"/airfoil-polar/0", "")
	assertDetail(t, resp, body, http.StatusNotFound)
	resp, body = te.call(te.outsider, "GET", "/turbines/"+id+"/detailed-properties", "")
	assertDetail(t, resp, body, http.StatusNotFound)

	// fst-defaults reads the turbine's own main file.
	resp, body = te.call(te.verified, "GET", "/turbines/"+id+"/fst-defaults", "")
	fd := decodeInto[handlers.FSTDefaults](t, body)
	src, err := deck.ReadMain(main)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, prm := range fd.Parameters {
		if prm.Name == "TMax" {
			found = true
			if v, ok := prm.Value.(float64); !ok || v != src.TMax {
				t.Fatalf("TMax = %v, want the file's %g", prm.Value, src.TMax)
			}
		}
	}
	if !found {
		t.Fatalf("fst-defaults without TMax: %s", body)
	}
}

func timeNowUnixNano() int64 { return time.Now().UnixNano() }

// TestTurbineBundledDemosLoadCloneRead loads each of the five bundled
// reference turbines, clones it and reads the clone's detailed properties;
// then builds a turbine from scratch and reads its deck back.
func TestTurbineBundledDemosLoadCloneRead(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, catalog)
	resp, body := te.call(te.verified, "GET", "/turbines/demos", "")
	demos := decodeInto[handlers.DemoList](t, body)
	if resp.StatusCode != 200 || len(demos.Items) != 5 {
		t.Fatalf("demos: %d %s", resp.StatusCode, body)
	}
	for _, d := range demos.Items {
		resp, body = te.call(te.verified, "POST", "/turbines/demos/"+d.ID+"/load", "")
		loaded := decodeInto[handlers.DemoLoadResult](t, body)
		if resp.StatusCode != http.StatusCreated || loaded.Reused || loaded.Name != d.Name || *loaded.RatedPowerKW != *d.Specs.RatedPowerKW {
			t.Fatalf("%s load: %d %.300s", d.ID, resp.StatusCode, body)
		}
		resp, body = te.call(te.verified, "POST", "/turbines/"+loaded.ID+"/clone", "")
		clone := decodeInto[turbinesim.Turbine](t, body)
		if resp.StatusCode != http.StatusCreated || clone.Name != d.Name+" (copy)" {
			t.Fatalf("%s clone: %d %.300s", d.ID, resp.StatusCode, body)
		}
		resp, body = te.call(te.verified, "GET", "/turbines/"+clone.ID+"/detailed-properties", "")
		p := decodeInto[decks.DetailedProperties](t, body)
		if resp.StatusCode != 200 || len(p.Blade.BlChord) == 0 || len(p.Airfoils) == 0 || len(p.Tower.TMassDen) == 0 {
			t.Fatalf("%s detailed properties: %d %.300s", d.ID, resp.StatusCode, body)
		}
		// The blade tip is at the rotor radius minus the hub radius.
		if tip := p.Blade.BlSpn[len(p.Blade.BlSpn)-1]; tip > *d.Specs.RotorDiameterM/2 || tip < *d.Specs.RotorDiameterM/2-5 {
			t.Errorf("%s: blade tip span %g m for a %g m rotor", d.ID, tip, *d.Specs.RotorDiameterM)
		}
	}

	payload := `{"name":"Scratch 6 MW","rated_power_kw":6000,"rotor_diameter_m":140,"hub_height_m":100,"rated_rotor_speed_rpm":11,
		"cut_in_wind_speed_ms":3,"rated_wind_speed_ms":11,"cut_out_wind_speed_ms":25,"nacelle_config":{"gearbox_ratio":100}}`
	resp, body = te.call(te.verified, "POST", "/turbines", payload)
	built := decodeInto[turbinesim.Turbine](t, body)
	if resp.StatusCode != http.StatusCreated || built.MainFile == nil {
		t.Fatalf("build: %d %s", resp.StatusCode, body)
	}
	resp, body = te.call(te.verified, "GET", "/turbines/"+built.ID+"/detailed-properties", "")
	p := decodeInto[decks.DetailedProperties](t, body)
	if resp.StatusCode != 200 || math.Abs(p.Blade.BlSpn[len(p.Blade.BlSpn)-1]-(70-1.5)) > 1e-9 {
		t.Fatalf("built deck: %d tip span %v", resp.StatusCode, p.Blade.BlSpn)
	}
	resp, body = te.call(te.verified, "POST", "/turbines", `{"name":"No rotor","hub_height_m":100}`)
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); !strings.Contains(d, "rotor_diameter_m") {
		t.Fatalf("missing rotor: %q", d)
	}
}

// TestTurbinePutAppliesDeckEdits edits a clone of a real deck (NREL 5 MW
// land, as uploaded) through PUT and reads the result back through
// detailed-properties: a hub height edit moves the tower top by the same
// amount, an invalid blob is the POST /turbines 422 and changes nothing.
func TestTurbinePutAppliesDeckEdits(t *testing.T) {
	t.Parallel()
	main := testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst")
	orig, err := deck.Load(main)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := deck.Summarize(orig)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, fakeDemos{deckDir: filepath.Dir(main), mainFile: "Main_Onshore.fst"})
	v := te.verified
	resp, body := te.call(v, "POST", "/turbines/demos/test-demo/load", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("load: %d %s", resp.StatusCode, body)
	}
	demoID := decodeInto[handlers.DemoLoadResult](t, body).ID
	resp, body = te.call(v, "POST", "/turbines/"+demoID+"/clone", "")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("clone: %d %s", resp.StatusCode, body)
	}
	id := decodeInto[turbinesim.Turbine](t, body).ID
	towerTop := func() float64 {
		t.Helper()
		resp, body := te.call(v, "GET", "/turbines/"+id+"/detailed-properties", "")
		if resp.StatusCode != 200 {
			t.Fatalf("detailed properties: %d %.300s", resp.StatusCode, body)
		}
		h := decodeInto[decks.DetailedProperties](t, body).Tower.HeightM
		return h[len(h)-1]
	}
	top0 := towerTop()
	trees := te.treeCount()

	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"blade_config":{"stations":{"span_m":"x"}}}`)
	if d := assertDetail(t, resp, body, http.StatusUnprocessableEntity); d != "blade_config: stations.span_m: expected an array" {
		t.Fatalf("invalid blob detail %q", d)
	}
	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"hub_height_m":120,"blade_config":{"stations":{"span_m":[0,50],"chord_m":[3,1],"twist_deg":[1,0]}}}`)
	assertDetail(t, resp, body, http.StatusUnprocessableEntity)
	if top := towerTop(); top != top0 || te.treeCount() != trees {
		t.Fatalf("a refused edit changed the deck: tower top %g -> %g, trees %d -> %d", top0, top, trees, te.treeCount())
	}
	resp, body = te.call(v, "GET", "/turbines/"+id, "")
	if got := decodeInto[turbinesim.Turbine](t, body); got.BladeConfig != nil || *got.HubHeightM != 90 {
		t.Fatalf("a refused edit changed the row: %s", body)
	}

	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"hub_height_m":100}`)
	if resp.StatusCode != 200 {
		t.Fatalf("hub height edit: %d %s", resp.StatusCode, body)
	}
	if top, want := towerTop(), top0+100-sum.HubHeight; math.Abs(top-want) > 1e-4 {
		t.Fatalf("tower top after the hub height edit %g m, want %g (hub %g -> 100)", top, want, sum.HubHeight)
	}
	if te.treeCount() != trees {
		t.Fatalf("%d stored trees after the edit, want %d (new one in, old one out)", te.treeCount(), trees)
	}
}

// A from-scratch build whose pitch-sensitivity fit is unusable (a
// four-station blade, twist 13° to 0°, that gains power when pitched from
// zero at rated) gets the scaled 5 MW pitch gains: POST /turbines says so
// in warnings, the turbine page shows it, and a PUT that rewrites the
// deck repeats the rewritten deck's warnings; a name-only PUT and a
// build whose fit is used carry none. Before, the fallback was written
// only into the parameter file's header.
func TestTurbineBuildWarnsOfFallbackPitchGains(t *testing.T) {
	t.Parallel()
	catalog, err := decks.NewBundledDemos(turbineassets.FS)
	if err != nil {
		t.Fatal(err)
	}
	te := newTurbineEnv(t, catalog)
	v := te.verified
	const fallback = "controller: the pitch controller's gains (PC_KP, PC_KI, PC_KK in Baseline_Controller.in) are not tuned to this rotor"
	warningsOf := func(body string) []string {
		t.Helper()
		var got struct {
			Warnings *[]string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		if got.Warnings == nil {
			return nil
		}
		return *got.Warnings
	}
	page := func(id string) string {
		t.Helper()
		resp, body := te.do(nil, request{method: "GET", path: "/turbines/" + id, header: map[string]string{
			"Authorization": "Bearer " + v, "Accept": "text/html"}})
		if resp.StatusCode != 200 {
			t.Fatalf("turbine page: %d", resp.StatusCode)
		}
		return body
	}

	resp, body := te.call(v, "POST", "/turbines", `{"name":"Four stations","rated_power_kw":6000,"rotor_diameter_m":140,
		"hub_height_m":100,"rated_rotor_speed_rpm":11,"nacelle_config":{"gearbox_ratio":100},
		"blade_config":{"stations":{"span_m":[0,20,40,68.5],"chord_m":[4,4.5,3,1.2],"twist_deg":[13,10,3,0]}}}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("build: %d %s", resp.StatusCode, body)
	}
	w := warningsOf(body)
	t.Logf("warnings: %q", w)
	if len(w) != 1 || !strings.HasPrefix(w[0], fallback) || !strings.Contains(w[0], "does not fall with pitch") {
		t.Fatalf("build warnings %q, want the fallback of the pitch gains with its reason", w)
	}
	id := decodeInto[turbinesim.Turbine](t, body).ID
	html := page(id)
	if !strings.Contains(html, `id="turbine-warnings"`) || !strings.Contains(html, "are not tuned to this rotor: its pitch sensitivity could not be used") {
		t.Fatalf("turbine page does not show the warning:\n%s", html)
	}
	// GET reads them back from the stored deck, as the page does: the
	// build's warning, and nothing else (the validator's Bladed-DLL
	// warning is not repeated for the builder's own parameter file).
	resp, body = te.call(v, "GET", "/turbines/"+id, "")
	if got := warningsOf(body); resp.StatusCode != 200 || !slices.Equal(got, w) {
		t.Fatalf("GET: %d warnings %q, want the build's %q", resp.StatusCode, got, w)
	}
	// A deck-rewriting edit keeps the file, and the warning with it.
	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"hub_height_m":105}`)
	if w := warningsOf(body); resp.StatusCode != 200 || len(w) != 1 || !strings.HasPrefix(w[0], fallback) {
		t.Fatalf("hub height edit: %d warnings %q", resp.StatusCode, w)
	}
	// Retuned at a new rated power, the fit is still unusable.
	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"rated_power_kw":6200}`)
	if w := warningsOf(body); resp.StatusCode != 200 || len(w) != 1 || !strings.HasPrefix(w[0], fallback) || !strings.Contains(w[0], "does not fall with pitch") {
		t.Fatalf("rated power edit: %d warnings %q %s", resp.StatusCode, w, body)
	}
	resp, body = te.call(v, "PUT", "/turbines/"+id, `{"name":"Four stations, renamed"}`)
	if resp.StatusCode != 200 || warningsOf(body) != nil {
		t.Fatalf("name-only edit: %d %s", resp.StatusCode, body)
	}

	// The template's blade scaled to 140 m: the rotor's own fit is used.
	resp, body = te.call(v, "POST", "/turbines", `{"name":"Scaled blade","rated_power_kw":6000,"rotor_diameter_m":140,"hub_height_m":100,"rated_rotor_speed_rpm":11}`)
	if resp.StatusCode != http.StatusCreated || warningsOf(body) != nil {
		t.Fatalf("build with a usable fit: %d %s", resp.StatusCode, body)
	}
	if html := page(decodeInto[turbinesim.Turbine](t, body).ID); strings.Contains(html, `id="turbine-warnings"`) {
		t.Fatal("turbine page shows warnings for a build whose pitch gains are its own")
	}
}
