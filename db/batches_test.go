package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

type batchEnv struct {
	db      *db.DB
	org     *turbinesim.Organization
	user    *turbinesim.User
	caps    *db.CapService
	trees   *blobstore.Local
	batches *db.BatchService
}

func newBatchEnv(t *testing.T) *batchEnv {
	t.Helper()
	d := jobtest.New(t)
	ctx := context.Background()
	e := &batchEnv{db: d, org: &turbinesim.Organization{Name: "Batch Wind"}}
	if err := db.NewOrganizationService(d).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.user = &turbinesim.User{OrganizationID: e.org.ID, Email: "b@example.com", Role: turbinesim.RoleAdmin, Verified: true}
	if err := db.NewUserService(d).CreateUser(ctx, e.user, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	trees, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	e.trees = trees
	e.caps = db.NewCapService(d, nil)
	q, err := db.NewQueue(d, db.QueueConfig{}) // insert-only: nothing runs
	if err != nil {
		t.Fatal(err)
	}
	e.batches = db.NewBatchService(db.NewJobService(d, trees, e.caps, q))
	return e
}

// runs makes n runs of tMax seconds, each with a one-file input tree.
func (e *batchEnv) runs(t *testing.T, n int, tMax float64) []turbinesim.NewBatchRun {
	t.Helper()
	out := make([]turbinesim.NewBatchRun, n)
	for i := range out {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "run.fst"), []byte(fmt.Sprintf("run %d\n", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		out[i] = turbinesim.NewBatchRun{Name: fmt.Sprintf("R%02d", i), InputDir: dir, Entrypoint: "run.fst", TMax: tMax, Work: jobtest.Work(tMax)}
	}
	return out
}

func (e *batchEnv) count(t *testing.T, query string) int {
	t.Helper()
	var n int
	if err := e.db.GetContext(context.Background(), &n, query); err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *batchEnv) storedTrees(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir(e.trees.Root())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, en := range ents {
		if en.IsDir() && en.Name()[0] != '.' {
			n++
		}
	}
	return n
}

func TestSubmitBatchCreatesEveryJobWithOneCharge(t *testing.T) {
	e := newBatchEnv(t)
	ctx := context.Background()
	// Beta plan: 10 cents per run + 30 cents per simulated minute, rounded
	// up (Plan.JobPriceCents): a 90-s run is 90 tokens and 10 + 45 = 55 cents.
	nb := &turbinesim.NewBatch{OrganizationID: e.org.ID, SubmittedBy: e.user.ID, Kind: turbinesim.BatchDLC,
		Name: "DLC 1.2", Request: json.RawMessage(`{"dlcs":["1.2"]}`), Runs: e.runs(t, 4, 90)}
	if _, err := e.db.ExecContext(ctx, `UPDATE organizations SET plan = 'beta' WHERE id = $1`, e.org.ID); err != nil {
		t.Fatal(err)
	}
	b, err := e.batches.SubmitBatch(ctx, nb)
	if err != nil {
		t.Fatal(err)
	}
	if b.RunCount != 4 || b.PriceCents != 4*55 || b.Tokens != 4*90 || b.Kind != turbinesim.BatchDLC {
		t.Fatalf("batch = %+v; want 4 runs, 220 cents, 360 tokens", b)
	}
	if b.Progress.Status != "queued" || b.Progress.Total != 4 || b.Progress.Queued != 4 {
		t.Fatalf("progress = %+v", b.Progress)
	}
	if n := e.count(t, `SELECT count(*) FROM jobs WHERE batch_id IS NOT NULL`); n != 4 {
		t.Fatalf("%d batch jobs, want 4", n)
	}
	if n := e.count(t, `SELECT count(*) FROM river_job WHERE kind = 'simulation'`); n != 4 {
		t.Fatalf("%d queue entries, want 4", n)
	}
	if n := e.count(t, `SELECT coalesce(sum(price_cents), 0) FROM jobs`); n != 220 {
		t.Fatalf("jobs carry %d cents, want 220", n)
	}
	u, err := e.caps.CurrentUsage(ctx, e.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u.SpentCents != 220 || u.Tokens != 360 {
		t.Fatalf("usage = %d cents, %d tokens; want 220, 360", u.SpentCents, u.Tokens)
	}
	if n := e.storedTrees(t); n != 4 {
		t.Fatalf("%d input trees stored, want 4", n)
	}
	jobs, err := e.batches.BatchJobs(ctx, e.org.ID, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, rj := range jobs {
		if rj.Run != fmt.Sprintf("R%02d", i) || rj.Job.BatchID == nil || *rj.Job.BatchID != b.ID || rj.Job.Entrypoint != "run.fst" {
			t.Fatalf("run %d = %s %+v", i, rj.Run, rj.Job)
		}
	}
	got, err := e.batches.FindBatch(ctx, e.org.ID, b.ID)
	if err != nil || got.RunCount != 4 || string(got.Request) != `{"dlcs": ["1.2"]}` {
		t.Fatalf("FindBatch = %+v, %v", got, err)
	}
	list, total, err := e.batches.ListBatches(ctx, e.org.ID, 1, 10)
	if err != nil || total != 1 || len(list) != 1 || list[0].Progress.Total != 4 {
		t.Fatalf("ListBatches = %v, %d, %v", list, total, err)
	}
	// Another organization cannot see it.
	other := &turbinesim.Organization{Name: "Other"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := e.batches.FindBatch(ctx, other.ID, b.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("other org: %v, want not found", err)
	}
}

func TestSubmitBatchOverCapCreatesNothing(t *testing.T) {
	e := newBatchEnv(t)
	ctx := context.Background()
	// 1000 tokens left: each 300-s run fits alone, the batch of four
	// (1200 tokens) does not.
	if err := e.caps.SetCaps(ctx, e.org.ID, turbinesim.Caps{SpendCapCents: 1_000_000, TokenCap: 1000}); err != nil {
		t.Fatal(err)
	}
	nb := &turbinesim.NewBatch{OrganizationID: e.org.ID, Kind: turbinesim.BatchDLC, Runs: e.runs(t, 4, 300)}
	_, err := e.batches.SubmitBatch(ctx, nb)
	if turbinesim.ErrorCode(err) != turbinesim.EPAYMENT {
		t.Fatalf("err = %v, want EPAYMENT", err)
	}
	for _, q := range []string{`SELECT count(*) FROM batches`, `SELECT count(*) FROM jobs`, `SELECT count(*) FROM river_job`, `SELECT count(*) FROM batch_runs`} {
		if n := e.count(t, q); n != 0 {
			t.Fatalf("%s = %d after a refused batch", q, n)
		}
	}
	if n := e.storedTrees(t); n != 0 {
		t.Fatalf("%d input trees left after a refused batch", n)
	}
	u, err := e.caps.CurrentUsage(ctx, e.org.ID)
	if err != nil || u.Tokens != 0 || u.SpentCents != 0 {
		t.Fatalf("usage = %+v, %v; want nothing charged", u, err)
	}
	// Three runs (900 tokens) fit.
	nb.Runs = nb.Runs[:3]
	if _, err := e.batches.SubmitBatch(ctx, nb); err != nil {
		t.Fatal(err)
	}
}

// Two batches that each fit but not together, submitted at once: the
// charge inside the transaction admits exactly one, whatever the order
// of the early quotes.
func TestSubmitBatchConcurrentBatchesNeverPassTheCap(t *testing.T) {
	e := newBatchEnv(t)
	ctx := context.Background()
	if err := e.caps.SetCaps(ctx, e.org.ID, turbinesim.Caps{SpendCapCents: 1_000_000, TokenCap: 1000}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		nb := &turbinesim.NewBatch{OrganizationID: e.org.ID, Kind: turbinesim.BatchParametric, Runs: e.runs(t, 3, 200)} // 600 tokens
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.batches.SubmitBatch(ctx, nb)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch turbinesim.ErrorCode(err) {
		case "":
			ok++
		case turbinesim.EPAYMENT:
		default:
			t.Fatalf("unexpected error %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d batches admitted, want 1", ok)
	}
	if n := e.count(t, `SELECT count(*) FROM jobs`); n != 3 {
		t.Fatalf("%d jobs, want 3", n)
	}
	if n := e.storedTrees(t); n != 3 {
		t.Fatalf("%d input trees, want 3 (refused batches delete theirs)", n)
	}
}

func TestBatchProgressIsDerivedFromJobs(t *testing.T) {
	e := newBatchEnv(t)
	ctx := context.Background()
	b, err := e.batches.SubmitBatch(ctx, &turbinesim.NewBatch{OrganizationID: e.org.ID, Kind: turbinesim.BatchDLC, Runs: e.runs(t, 4, 100)})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := e.batches.BatchJobs(ctx, e.org.ID, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Job 0 succeeded, job 1 half-way (started 10 s ago), 2 and 3 queued.
	mustExec := func(q string, args ...any) {
		if _, err := e.db.ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(`UPDATE jobs SET status = 'succeeded', started_at = now() - interval '10 s', finished_at = now(), sim_time = 100 WHERE id = $1`, jobs[0].Job.ID)
	mustExec(`UPDATE jobs SET status = 'running', started_at = now() - interval '5 s', sim_time = 50 WHERE id = $1`, jobs[1].Job.ID)
	got, err := e.batches.FindBatch(ctx, e.org.ID, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := got.Progress
	if p.Status != "running" || p.Done != 1 || p.Running != 1 || p.Queued != 2 || p.SimTime != 150 || p.TMax != 400 || p.Percent != 37.5 {
		t.Fatalf("progress = %+v", p)
	}
	// 150 simulated seconds in ~10 wall seconds: 250 remaining ≈ 16.7 s.
	if p.ETASeconds == nil || *p.ETASeconds < 15 || *p.ETASeconds > 18 {
		t.Fatalf("eta = %v, want ≈ 16.7 s", p.ETASeconds)
	}
	mustExec(`UPDATE jobs SET status = 'succeeded', finished_at = now(), sim_time = t_max WHERE batch_id = $1 AND id <> $2`, b.ID, jobs[3].Job.ID)
	mustExec(`UPDATE jobs SET status = 'failed', finished_at = now() WHERE id = $1`, jobs[3].Job.ID)
	got, _ = e.batches.FindBatch(ctx, e.org.ID, b.ID)
	if got.Progress.Status != "failed" || got.Progress.Failed != 1 || got.Progress.Succeeded != 3 || !got.Progress.Finished() || got.Progress.ETASeconds != nil {
		t.Fatalf("finished progress = %+v", got.Progress)
	}
}

// Runs naming the same input directory share one stored tree, and each
// job keeps its own recipe, which RunRecipe returns to the worker; a job
// without one has none. A recipe that is not JSON stores nothing.
func TestSubmitBatchSharesInputsAndStoresRecipes(t *testing.T) {
	e := newBatchEnv(t)
	ctx := context.Background()
	if err := e.caps.SetCaps(ctx, e.org.ID, turbinesim.Caps{SpendCapCents: 1_000_000, TokenCap: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	base := e.runs(t, 1, 10)[0].InputDir
	runs := make([]turbinesim.NewBatchRun, 3)
	for i := range runs {
		runs[i] = turbinesim.NewBatchRun{Name: fmt.Sprintf("DLC1.2_S%d", i+1), InputDir: base, Entrypoint: "run.fst", TMax: 10, Work: jobtest.Work(10),
			Recipe: json.RawMessage(fmt.Sprintf(`{"run":{"id":"DLC1.2_S%d","seed":%d}}`, i+1, 100+i))}
	}
	runs = append(runs, e.runs(t, 1, 10)...) // a run without a recipe, its own tree
	nb := &turbinesim.NewBatch{OrganizationID: e.org.ID, SubmittedBy: e.user.ID, Kind: turbinesim.BatchDLC, Name: "shared", Runs: runs}
	b, err := e.batches.SubmitBatch(ctx, nb)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.storedTrees(t); n != 2 {
		t.Fatalf("%d stored trees, want 2 (one shared by the recipe runs, one for the plain run)", n)
	}
	q, err := db.NewQueue(e.db, db.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	jobs := db.NewJobService(e.db, e.trees, e.caps, q)
	rjs, err := e.batches.BatchJobs(ctx, e.org.ID, b.ID)
	if err != nil || len(rjs) != 4 {
		t.Fatalf("batch jobs %v, %v", rjs, err)
	}
	for i, rj := range rjs {
		recipe, err := jobs.RunRecipe(ctx, rj.Job.ID)
		if err != nil {
			t.Fatal(err)
		}
		if i == 3 {
			if recipe != nil {
				t.Errorf("plain run has recipe %s", recipe)
			}
			continue
		}
		var r struct {
			Run struct {
				ID   string `json:"id"`
				Seed int    `json:"seed"`
			} `json:"run"`
		}
		if json.Unmarshal(recipe, &r) != nil || r.Run.ID != rj.Run || r.Run.Seed != 100+i {
			t.Errorf("job %d (%s): recipe %s", i, rj.Run, recipe)
		}
		if rj.Job.InputKey != rjs[0].Job.InputKey {
			t.Errorf("job %d: input %s, want the shared %s", i, rj.Job.InputKey, rjs[0].Job.InputKey)
		}
	}
	bad := &turbinesim.NewBatch{OrganizationID: e.org.ID, Kind: turbinesim.BatchDLC, Runs: []turbinesim.NewBatchRun{
		{Name: "A", InputDir: base, Entrypoint: "run.fst", TMax: 10, Work: jobtest.Work(10), Recipe: json.RawMessage(`{"run":`)}}}
	if _, err := e.batches.SubmitBatch(ctx, bad); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
		t.Fatalf("bad recipe: %v, want EINVALID", err)
	}
	if n := e.count(t, `SELECT count(*) FROM batches`); n != 1 {
		t.Fatalf("%d batches after the bad recipe", n)
	}
}
