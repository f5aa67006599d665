package db_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

type turbineFixture struct {
	db     *db.DB
	svc    *db.TurbineService
	store  *blobstore.Local
	orgA   string
	orgB   string
	userA  string
	tmpDir string
}

func newTurbineFixture(t *testing.T) *turbineFixture {
	t.Helper()
	d := dbtest.New(t)
	ctx := context.Background()
	store, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "trees"))
	if err != nil {
		t.Fatal(err)
	}
	f := &turbineFixture{db: d, store: store, svc: db.NewTurbineService(d, store, decks.Editor{}), tmpDir: t.TempDir()}
	for _, name := range []string{"A", "B"} {
		o := &turbinesim.Organization{Name: "Org " + name}
		if err := db.NewOrganizationService(d).CreateOrganization(ctx, o); err != nil {
			t.Fatal(err)
		}
		if name == "A" {
			f.orgA = o.ID
		} else {
			f.orgB = o.ID
		}
	}
	u := &turbinesim.User{OrganizationID: f.orgA, Email: "k@example.com", Role: turbinesim.RoleMember, Verified: true}
	if err := db.NewUserService(d).CreateUser(ctx, u, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	f.userA = u.ID
	return f
}

func fptr(v float64) *float64 { return &v }

// deckDir writes a two-file tree standing in for a deck.
func (f *turbineFixture) deckDir(t *testing.T, marker string) string {
	t.Helper()
	dir, err := os.MkdirTemp(f.tmpDir, "deck-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"Main.fst": "main " + marker, "sub/ElastoDyn.dat": "ed " + marker} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (f *turbineFixture) storedTrees(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(f.store.Root())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestTurbineCreateFindListScoped(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	main := "Main.fst"
	tb := &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Alpha", Description: "first",
		TurbineParams: turbinesim.TurbineParams{RatedPowerKW: fptr(5000), HubHeightM: fptr(90)},
		BladeConfig:   turbinesim.ConfigBlob(`{"num_blades":3}`), MainFile: &main}
	if err := f.svc.CreateTurbine(ctx, tb, f.deckDir(t, "alpha")); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.FindTurbine(ctx, f.orgA, tb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Alpha" || *got.RatedPowerKW != 5000 || *got.HubHeightM != 90 || got.RotorDiameterM != nil || got.IsValidated {
		t.Fatalf("round trip: %+v", got)
	}
	var bc map[string]int
	if err := json.Unmarshal(got.BladeConfig, &bc); err != nil || bc["num_blades"] != 3 {
		t.Fatalf("blade_config = %s", got.BladeConfig)
	}
	// Another organization sees nothing: not found, like a random id.
	if _, err := f.svc.FindTurbine(ctx, f.orgB, tb.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("other org find: %v", err)
	}
	if _, err := f.svc.FindTurbine(ctx, f.orgA, "not-a-uuid"); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("malformed id: %v", err)
	}
	// Same name in the same organization: 409 from the unique index, and
	// the tree stored for the refused row is removed.
	before := len(f.storedTrees(t))
	dup := &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Alpha", MainFile: &main}
	if err := f.svc.CreateTurbine(ctx, dup, f.deckDir(t, "dup")); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("duplicate name: %v", err)
	}
	if after := len(f.storedTrees(t)); after != before {
		t.Fatalf("refused create left a tree behind: %d -> %d", before, after)
	}
	// The same name in another organization is fine.
	if err := f.svc.CreateTurbine(ctx, &turbinesim.Turbine{OrganizationID: f.orgB, Name: "Alpha"}, ""); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Beta", "Gamma 50%", "Delta"} {
		if err := f.svc.CreateTurbine(ctx, &turbinesim.Turbine{OrganizationID: f.orgA, Name: name,
			TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(float64(100 + i))}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	page, total, err := f.svc.ListTurbines(ctx, f.orgA, turbinesim.TurbineFilter{Page: 1, PageSize: 3})
	if err != nil || total != 4 || len(page) != 3 {
		t.Fatalf("page 1: %d items, total %d, %v", len(page), total, err)
	}
	page2, _, err := f.svc.ListTurbines(ctx, f.orgA, turbinesim.TurbineFilter{Page: 2, PageSize: 3})
	if err != nil || len(page2) != 1 {
		t.Fatalf("page 2: %d items, %v", len(page2), err)
	}
	seen := map[string]bool{}
	for _, x := range append(page, page2...) {
		if x.OrganizationID != f.orgA || seen[x.ID] {
			t.Fatalf("list leaks or repeats: %+v", x)
		}
		seen[x.ID] = true
	}
	found, total, err := f.svc.ListTurbines(ctx, f.orgA, turbinesim.TurbineFilter{Search: "50%", Page: 1, PageSize: 20})
	if err != nil || total != 1 || found[0].Name != "Gamma 50%" {
		t.Fatalf("search 50%%: %d %v %v", total, found, err)
	}
	if _, total, _ := f.svc.ListTurbines(ctx, f.orgA, turbinesim.TurbineFilter{Search: "%", Page: 1, PageSize: 20}); total != 1 {
		t.Fatalf("search for a literal %% matched %d rows, want 1", total)
	}
}

func TestTurbineUpdateRules(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	tb := &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Editable", IsValidated: true,
		TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(90), CutInWindSpeedMS: fptr(3), RatedWindSpeedMS: fptr(11.4), CutOutWindSpeedMS: fptr(25)}}
	if err := f.svc.CreateTurbine(ctx, tb, ""); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.CreateTurbine(ctx, &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Other"}, ""); err != nil {
		t.Fatal(err)
	}
	up, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(120)}})
	if err != nil {
		t.Fatal(err)
	}
	if *up.HubHeightM != 120 || up.IsValidated || *up.RatedWindSpeedMS != 11.4 {
		t.Fatalf("update: %+v", up)
	}
	if got, _ := f.svc.FindTurbine(ctx, f.orgA, tb.ID); got.IsValidated || *got.HubHeightM != 120 {
		t.Fatalf("stored after update: %+v", got)
	}
	other := "Other"
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{Name: &other}); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("rename onto a taken name: %v", err)
	}
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedWindSpeedMS: fptr(30)}}); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("rated above cut-out: %v", err)
	}
	demoDesc := turbinesim.DemoPrefix + " sneaky"
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, tb.ID, &turbinesim.TurbineUpdate{Description: &demoDesc}); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("reserved prefix: %v", err)
	}
	if _, err := f.svc.UpdateTurbine(ctx, f.orgB, tb.ID, &turbinesim.TurbineUpdate{}); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("other org update: %v", err)
	}
	if err := f.svc.DeleteTurbine(ctx, f.orgB, tb.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("other org delete: %v", err)
	}
}

// demoCreator writes a small tree and returns a demo row.
func (f *turbineFixture) demoCreator(t *testing.T, calls *int, mu *sync.Mutex) func(string) (*turbinesim.Turbine, error) {
	return func(dir string) (*turbinesim.Turbine, error) {
		mu.Lock()
		*calls++
		mu.Unlock()
		if err := os.WriteFile(filepath.Join(dir, "Main.fst"), []byte("demo"), 0o644); err != nil {
			return nil, err
		}
		main := "Main.fst"
		return &turbinesim.Turbine{Name: "NREL 5MW", Description: "NREL 5 MW land-based", MainFile: &main,
			TurbineParams: turbinesim.TurbineParams{RatedPowerKW: fptr(5000)}}, nil
	}
}

func TestTurbineDemoLoadCloneDelete(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	var calls int
	var mu sync.Mutex
	// Eight concurrent first loads make exactly one row.
	var wg sync.WaitGroup
	start := make(chan struct{})
	ids := make([]string, 8)
	reusedCount := 0
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			tb, reused, err := f.svc.LoadDemo(ctx, f.orgA, f.userA, "nrel-5mw", f.demoCreator(t, &calls, &mu))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			ids[i] = tb.ID
			if reused {
				reusedCount++
			}
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent loads gave different rows: %v", ids)
		}
	}
	if reusedCount != 7 {
		t.Fatalf("reused = true for %d of 8 loads, want 7", reusedCount)
	}
	if n := len(f.storedTrees(t)); n != 1 {
		t.Fatalf("%d trees stored after 8 loads of one demo, want 1", n)
	}
	demo, reused, err := f.svc.LoadDemo(ctx, f.orgA, f.userA, "nrel-5mw", f.demoCreator(t, &calls, &mu))
	if err != nil || !reused || demo.ID != ids[0] {
		t.Fatalf("later load: reused=%v %v", reused, err)
	}
	if !demo.IsDemo() || demo.Description != turbinesim.DemoPrefix+" NREL 5 MW land-based" {
		t.Fatalf("demo description %q", demo.Description)
	}
	// Demo rows refuse update and delete.
	if _, err := f.svc.UpdateTurbine(ctx, f.orgA, demo.ID, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{HubHeightM: fptr(1)}}); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("update demo: %v", err)
	}
	if err := f.svc.DeleteTurbine(ctx, f.orgA, demo.ID); turbinesim.ErrorCode(err) != turbinesim.EFORBIDDEN {
		t.Fatalf("delete demo: %v", err)
	}
	// Clones: "(copy)", "(copy 2)", "(copy 3)"; prefix dropped; own tree.
	var clones []*turbinesim.Turbine
	for i := 0; i < 3; i++ {
		c, err := f.svc.CloneTurbine(ctx, f.orgA, demo.ID, f.userA)
		if err != nil {
			t.Fatal(err)
		}
		clones = append(clones, c)
	}
	for i, want := range []string{"NREL 5MW (copy)", "NREL 5MW (copy 2)", "NREL 5MW (copy 3)"} {
		c := clones[i]
		if c.Name != want || c.Description != "NREL 5 MW land-based" || c.IsDemo() || c.DemoID != nil || *c.RatedPowerKW != 5000 {
			t.Fatalf("clone %d: %+v", i, c)
		}
		if *c.SourceKey == *demo.SourceKey {
			t.Fatalf("clone %d shares the demo's tree", i)
		}
	}
	mainPath, release, err := dbtest.OpenDeck(ctx, f.svc, f.orgA, clones[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(mainPath)
	release()
	if err != nil || string(b) != "demo" {
		t.Fatalf("cloned tree content %q %v", b, err)
	}
	// Deleting the middle clone frees its name: the next clone takes it.
	if err := f.svc.DeleteTurbine(ctx, f.orgA, clones[1].ID); err != nil {
		t.Fatal(err)
	}
	if c, err := f.svc.CloneTurbine(ctx, f.orgA, demo.ID, f.userA); err != nil || c.Name != "NREL 5MW (copy 2)" {
		t.Fatalf("clone after delete: %v %v", c, err)
	}
	// Cloning a clone: "<clone name> (copy)".
	if c, err := f.svc.CloneTurbine(ctx, f.orgA, clones[0].ID, f.userA); err != nil || c.Name != "NREL 5MW (copy) (copy)" {
		t.Fatalf("clone of clone: %v %v", c, err)
	}
	if n := len(f.storedTrees(t)); n != 5 { // demo + copy, copy 3, copy 2 again, copy (copy)
		t.Fatalf("%d trees stored, want 5", n)
	}
	if _, err := f.svc.CloneTurbine(ctx, f.orgB, demo.ID, ""); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("clone from another org: %v", err)
	}
}

// TestTurbineDeleteWithActiveJob plugs a stand-in jobs table into the hook
// of migration 00020 the way the jobs migration will, and checks that the
// database itself refuses the delete.
func TestTurbineDeleteWithActiveJob(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	main := "Main.fst"
	tb := &turbinesim.Turbine{OrganizationID: f.orgA, Name: "Busy", MainFile: &main}
	if err := f.svc.CreateTurbine(ctx, tb, f.deckDir(t, "busy")); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE jobs_standin (id serial PRIMARY KEY,
			turbine_id uuid REFERENCES turbines (id) ON DELETE SET NULL, status text NOT NULL)`,
		`CREATE OR REPLACE FUNCTION turbine_has_active_job(turbine uuid) RETURNS boolean
			LANGUAGE sql STABLE AS $$ SELECT EXISTS (SELECT 1 FROM jobs_standin
				WHERE turbine_id = turbine AND status IN ('queued', 'running')) $$`,
	} {
		if _, err := f.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.db.ExecContext(ctx, `INSERT INTO jobs_standin (turbine_id, status) VALUES ($1, 'done'), ($1, 'running')`, tb.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteTurbine(ctx, f.orgA, tb.ID); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("delete with a running job: %v", err)
	}
	// A plain SQL delete is refused as well: the rule lives in the database.
	if _, err := f.db.ExecContext(ctx, `DELETE FROM turbines WHERE id = $1`, tb.ID); err == nil {
		t.Fatal("SQL DELETE of a turbine with an active job succeeded")
	}
	if _, err := f.svc.FindTurbine(ctx, f.orgA, tb.ID); err != nil {
		t.Fatalf("turbine gone after refused delete: %v", err)
	}
	if n := len(f.storedTrees(t)); n != 1 {
		t.Fatalf("refused delete removed the tree: %d trees", n)
	}
	if _, err := f.db.ExecContext(ctx, `UPDATE jobs_standin SET status = 'done'`); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteTurbine(ctx, f.orgA, tb.ID); err != nil {
		t.Fatalf("delete once the job finished: %v", err)
	}
	var orphans int
	if err := f.db.GetContext(ctx, &orphans, `SELECT count(*) FROM jobs_standin WHERE turbine_id IS NULL`); err != nil || orphans != 2 {
		t.Fatalf("finished jobs keep their rows with turbine_id NULL: %d %v", orphans, err)
	}
	if n := len(f.storedTrees(t)); n != 0 {
		t.Fatalf("delete left %d trees", n)
	}
}

// A demo whose name another turbine of the organization already has is a
// conflict, not a reused demo (LoadDemo reads a name-index violation as a
// lost race only when the demo's row exists).
func TestTurbineDemoNameTakenIsAConflict(t *testing.T) {
	t.Parallel()
	f := newTurbineFixture(t)
	ctx := context.Background()
	main := "Main.fst"
	own := &turbinesim.Turbine{OrganizationID: f.orgA, Name: "NREL 5MW", Description: "mine",
		TurbineParams: turbinesim.TurbineParams{RatedPowerKW: fptr(5000)}, MainFile: &main}
	if err := f.svc.CreateTurbine(ctx, own, f.deckDir(t, "own")); err != nil {
		t.Fatal(err)
	}
	var calls int
	var mu sync.Mutex
	_, _, err := f.svc.LoadDemo(ctx, f.orgA, f.userA, "nrel-5mw", f.demoCreator(t, &calls, &mu))
	if turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("loading a demo whose name is taken: %v, want a conflict", err)
	}
	if n := len(f.storedTrees(t)); n != 1 {
		t.Fatalf("%d trees stored, want only the own turbine's", n)
	}
}
