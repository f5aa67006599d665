package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	bundled "github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// submitRecipeRun submits one DLC 1.2 run (12 m/s, one seed) of the bundled
// NREL 5 MW as a batch job with its recipe over the base deck, simulating
// tMax seconds, and returns the job's id.
func submitRecipeRun(t *testing.T, e *env, grid dlc.GridOptions, duration *float64, tMax float64) string {
	t.Helper()
	base, tb, d, key := bundledNREL5MW(t)
	runs, err := dlc.Expand(dlc.Request{Turbine: key, DLCs: []string{"1.2"}, Class: "I", Category: "B", BatchSeed: 3,
		Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{12}, Seeds: new(1), Yaw: []float64{0}, Duration: duration, Transient: new(0.0)}},
		Grid:      grid})
	if err != nil || len(runs) != 1 || runs[0].Turbulence == nil {
		t.Fatalf("runs %v, %v: want one turbulent run", runs, err)
	}
	_, noTable := dlc.SteadyStateFromDeck(d)
	recipe, err := json.Marshal(batches.RunRecipe{Run: runs[0], SteadyState: noTable == nil})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.NewBatchService(e.jobs).SubmitBatch(context.Background(), &turbinesim.NewBatch{
		OrganizationID: e.org.ID, SubmittedBy: e.user.ID, Kind: turbinesim.BatchDLC, Name: "recipe test",
		Request: json.RawMessage(`{}`),
		Runs:    []turbinesim.NewBatchRun{{Name: runs[0].ID, InputDir: base, Entrypoint: *tb.MainFile, TMax: tMax, Work: jobtest.Work(tMax), Recipe: recipe}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := db.NewBatchService(e.jobs).BatchJobs(context.Background(), e.org.ID, b.ID)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("batch jobs %v, %v", jobs, err)
	}
	return jobs[0].Job.ID
}

// bundledNREL5MW builds the bundled NREL 5 MW into a temporary folder and
// returns the folder, the turbine, its deck and its DLC key numbers.
func bundledNREL5MW(t *testing.T) (string, *turbinesim.Turbine, *deck.Deck, dlc.Turbine) {
	t.Helper()
	catalog, err := decks.NewBundledDemos(bundled.FS)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	tb, err := catalog.Build("nrel-5mw-land", base)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := decks.LoadRunnableDeck(base, *tb.MainFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := batches.DLCTurbine(tb, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	return base, tb, d, key
}

// The child process, not the worker, makes a recipe's run: with a memory
// limit (RLIMIT_AS, JOB_MEMORY_BYTES) under which a small box is made and
// simulated but a large one does not fit, generating the large one fails
// inside the child, and the job fails, refunded, with a detail naming the
// wind generation and the memory limit. Were the box made by the worker,
// which has no such limit, the run would have started.
func TestRecipeRunIsPreparedInsideTheChildLimits(t *testing.T) {
	// 2 GiB: the Go runtime of this binary starts reliably under it (it
	// does not under some smaller limits, e.g. 1–1.5 GiB, whose address
	// space reservations fail now and then).
	const limit = 2 << 30
	e := newEnv(t, "child:simulate", 1, runner.Limits{WallTime: 2 * time.Minute, MemoryBytes: limit})
	// Control: under the same limit a small box is made and the base
	// deck loads and runs, so the limit is not simply too small for the
	// child to work at all.
	small := e.waitFor(t, submitRecipeRun(t, e, dlc.GridOptions{Points: 7, Dt: 0.25}, new(20.0), 0.5), 2*time.Minute, terminal)
	if small.Status != turbinesim.JobSucceeded {
		t.Fatalf("small recipe under a %d-byte limit: %s (%s); log:\n%.3000s", limit, small.Status, deref(small.Detail), small.Log)
	}
	// A 3600-s 31 × 31 box at 0.01 s: its Fourier coefficients alone
	// (~1000 points × 180 001 frequencies × 16 B ≈ 2.8 GB per component)
	// exceed the limit; the worker process, which has none, could make it.
	j := e.waitFor(t, submitRecipeRun(t, e, dlc.GridOptions{Points: 31, Dt: 0.01}, new(3600.0), 0.5), 2*time.Minute, terminal)
	if j.Status != turbinesim.JobFailed {
		t.Fatalf("job %s (%s), want failed by the memory limit; log:\n%.3000s", j.Status, deref(j.Detail), j.Log)
	}
	detail := deref(j.Detail)
	if !strings.Contains(detail, runner.PrepareFailure) || !strings.Contains(detail, fmt.Sprintf("memory limit of %d bytes", limit)) {
		t.Errorf("detail %q: want the wind generation's memory-limit failure; log:\n%.3000s", detail, j.Log)
	}
	if j.RefundedAt == nil {
		t.Errorf("a run whose wind could not be generated is not refunded")
	}
	if j.Attempt != 1 {
		t.Errorf("attempt %d: a deterministic preparation failure is not retried", j.Attempt)
	}
}

// A small recipe's run is made by the child and simulated (with and
// without bubblewrap, whose sandbox lets the child write only its attempt
// folder): the job log's first line names the generated wind box, no
// attempt folder paths leak into it, and the .outb is published.
func TestRecipeRunPreparedByChildSucceeds(t *testing.T) {
	sandboxes := []string{"none"}
	if bwrapUnusable() == "" {
		sandboxes = append(sandboxes, "bwrap")
	}
	for _, sandbox := range sandboxes {
		t.Run(sandbox, func(t *testing.T) {
			e := newEnvWith(t, jobtest.New(t), "child:simulate", 1, runner.Limits{WallTime: 2 * time.Minute},
				envOptions{sandbox: sandbox})
			id := submitRecipeRun(t, e, dlc.GridOptions{Points: 7, Dt: 0.25}, new(20.0), 0.5)
			j := e.waitFor(t, id, 2*time.Minute, terminal)
			if j.Status != turbinesim.JobSucceeded {
				t.Fatalf("job %s (%s); log:\n%s", j.Status, deref(j.Detail), j.Log)
			}
			first, _, _ := strings.Cut(j.Log, "\n")
			if !strings.HasPrefix(first, "prepared run ") || !strings.Contains(first, "turbulent wind box") || !strings.Contains(first, "generated in") {
				t.Errorf("log's first line %q: want the generated wind box", first)
			}
			if strings.Contains(j.Log, "attempt-") || strings.Contains(j.Log, "/prepared/") {
				t.Errorf("the log shows attempt folder paths:\n%s", j.Log)
			}
			dir, release, err := e.jobs.OpenOutputs(context.Background(), e.org.ID, j.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			outs, _ := filepath.Glob(filepath.Join(dir, "*.outb"))
			if len(outs) != 1 {
				entries, _ := os.ReadDir(dir)
				t.Errorf("outputs %v: want one .outb", entries)
			}
			t.Logf("%s: %s", sandbox, first)
		})
	}
}

// The runs of a batch share its box folder: two yaw angles of one speed
// and seed need the same turbulence box, which the first run's child
// generates into the batch's folder and the second's takes from it (its log
// says so), with and without bubblewrap; once the batch's last run has
// finished, the folder is gone. Before, each run synthesised its own box.
func TestBatchRunsShareTheirBoxFolder(t *testing.T) {
	sandboxes := []string{"none"}
	if bwrapUnusable() == "" {
		sandboxes = append(sandboxes, "bwrap")
	}
	for _, sandbox := range sandboxes {
		t.Run(sandbox, func(t *testing.T) {
			e := newEnvWith(t, jobtest.New(t), "child:simulate", 1, runner.Limits{WallTime: 2 * time.Minute},
				envOptions{sandbox: sandbox})
			base, tb, _, key := bundledNREL5MW(t)
			runs, err := dlc.Expand(dlc.Request{Turbine: key, DLCs: []string{"1.2"}, Class: "I", Category: "B", BatchSeed: 3,
				Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{12}, Seeds: new(1), Yaw: []float64{0, 10}, Duration: new(20.0), Transient: new(0.0)}},
				Grid:      dlc.GridOptions{Points: 7, Dt: 0.25}})
			if err != nil || len(runs) != 2 || runs[0].Turbulence == nil || runs[0].Turbulence.Seed != runs[1].Turbulence.Seed {
				t.Fatalf("runs %v, %v: want two turbulent runs sharing a seed", runs, err)
			}
			var nbr []turbinesim.NewBatchRun
			for _, r := range runs {
				recipe, err := json.Marshal(batches.RunRecipe{Run: r})
				if err != nil {
					t.Fatal(err)
				}
				nbr = append(nbr, turbinesim.NewBatchRun{Name: r.ID, InputDir: base, Entrypoint: *tb.MainFile, TMax: 0.5, Work: jobtest.Work(0.5), Recipe: recipe})
			}
			b, err := db.NewBatchService(e.jobs).SubmitBatch(context.Background(), &turbinesim.NewBatch{
				OrganizationID: e.org.ID, SubmittedBy: e.user.ID, Kind: turbinesim.BatchDLC, Name: "shared boxes",
				Request: json.RawMessage(`{}`), Runs: nbr})
			if err != nil {
				t.Fatal(err)
			}
			jobs, err := db.NewBatchService(e.jobs).BatchJobs(context.Background(), e.org.ID, b.ID)
			if err != nil || len(jobs) != 2 {
				t.Fatalf("batch jobs %v, %v", jobs, err)
			}
			var firstLines []string
			for _, bj := range jobs {
				j := e.waitFor(t, bj.Job.ID, 2*time.Minute, terminal)
				if j.Status != turbinesim.JobSucceeded {
					t.Fatalf("job %s (%s); log:\n%s", j.Status, deref(j.Detail), j.Log)
				}
				first, _, _ := strings.Cut(j.Log, "\n")
				firstLines = append(firstLines, first)
			}
			generated, reused := 0, 0
			for _, l := range firstLines {
				switch {
				case strings.Contains(l, "(box reused from the batch's folder"):
					reused++
				case strings.Contains(l, "(generated in"):
					generated++
				}
			}
			if generated != 1 || reused != 1 {
				t.Fatalf("first log lines %q: want one run generating the box and one reusing it", firstLines)
			}
			boxes := filepath.Join(e.workDir, "boxes", b.ID)
			deadline := time.Now().Add(10 * time.Second)
			for {
				if _, err := os.Stat(boxes); os.IsNotExist(err) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the finished batch's box folder %s is still there", boxes)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
