package runner_test

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// TestMain doubles as the simulator child: the worker starts this test
// binary with "child:<mode>" as its first argument (helper-process
// pattern), so the tests run real processes without building turbined.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "child:") {
		os.Exit(child(os.Args[1], os.Args[2:]))
	}
	dbtest.Main(m)
}

func child(mode string, args []string) int {
	switch mode {
	case "child:simulate":
		if err := runner.Simulate(context.Background(), args, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "turbined:", err)
			return 1
		}
		return 0
	case "child:worker":
		return workerProcess(args)
	case "child:simulate-fault":
		// The simulator of the fault tests (its own name, so that the
		// orphan check does not see other tests' children).
		if err := runner.Simulate(context.Background(), args, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "turbined:", err)
			return 1
		}
		return 0
	case "child:hang", "child:hang-drain", "child:hang-slots":
		fmt.Println(`{"sim_time":0.1,"t_max":1,"percent":10,"eta_seconds":100,"ratio":0.001}`)
		time.Sleep(time.Hour)
	case "child:crash":
		// A poison run: dies by a signal nobody sent on purpose.
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	case "child:probe":
		return probeChild(args)
	case "child:panic":
		// A solver defect: an index out of range, reported by the Go
		// runtime (exit status 2).
		var nodes []float64
		_ = nodes[len(args)]
	case "child:env":
		// Prints its environment into the output directory.
		for i, a := range args {
			if a == "-o" {
				os.WriteFile(filepath.Join(args[i+1], "env.txt"), []byte(strings.Join(os.Environ(), "\n")), 0o600)
			}
		}
		return 0
	}
	return 2
}

var quiet = slog.New(slog.DiscardHandler)

type env struct {
	db      *db.DB
	jobs    *db.JobService
	caps    *db.CapService
	queue   *db.Queue
	org     *turbinesim.Organization
	user    *turbinesim.User
	deck    string // directory holding Main_Onshore.fst
	blobDir string
	workDir string // the worker's WorkDir
	worker  *runner.Worker
}

// newEnv builds the job stack on a fresh database; workers > 0 starts an
// in-process River client running the worker with the given child mode.
func newEnv(t *testing.T, mode string, workers int, lim runner.Limits) *env {
	t.Helper()
	return newEnvOn(t, jobtest.New(t), mode, workers, lim)
}

func newEnvTB(t testing.TB, mode string, workers int, lim runner.Limits) *env {
	t.Helper()
	return newEnvOn(t, jobtest.New(t), mode, workers, lim)
}

func newEnvOn(t testing.TB, d *db.DB, mode string, workers int, lim runner.Limits) *env {
	t.Helper()
	return newEnvWith(t, d, mode, workers, lim, envOptions{})
}

// envOptions are the worker settings tests may change; zero values keep
// the tests' defaults (no sandbox, progress every 100 ms, polls every 50 ms).
type envOptions struct {
	sandbox          string
	progressInterval time.Duration
	pollInterval     time.Duration
}

func newEnvWith(t testing.TB, d *db.DB, mode string, workers int, lim runner.Limits, o envOptions) *env {
	t.Helper()
	if o.sandbox == "" {
		o.sandbox = "none"
	}
	if o.progressInterval == 0 {
		o.progressInterval = 100 * time.Millisecond
	}
	if o.pollInterval == 0 {
		o.pollInterval = 50 * time.Millisecond
	}
	ctx := context.Background()
	e := &env{db: d}
	e.db.SetMaxOpenConns(30)
	e.blobDir = filepath.Join(t.TempDir(), "blobs")
	trees, err := blobstore.NewLocal(e.blobDir)
	if err != nil {
		t.Fatal(err)
	}
	e.caps = db.NewCapService(e.db, nil)
	e.org = &turbinesim.Organization{Name: "Jobs org"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	e.user = &turbinesim.User{OrganizationID: e.org.ID, Email: "runner@example.com"}
	if err := db.NewUserService(e.db).CreateUser(ctx, e.user, "correct horse"); err != nil {
		t.Fatal(err)
	}
	insertOnly, err := db.NewQueue(e.db, db.QueueConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	e.jobs = db.NewJobService(e.db, trees, e.caps, insertOnly)
	if workers > 0 {
		e.workDir = filepath.Join(t.TempDir(), "work")
		e.worker, err = runner.New(runner.Config{
			Jobs: e.jobs, WorkDir: e.workDir,
			Command: []string{os.Args[0], mode}, Limits: lim, Sandbox: o.sandbox,
			ProgressInterval: o.progressInterval, Logger: quiet,
		})
		if err != nil {
			t.Fatal(err)
		}
		e.queue, err = db.NewQueue(e.db, db.QueueConfig{Workers: workers, Worker: e.worker,
			PollInterval: o.pollInterval, RetryDelay: 50 * time.Millisecond, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.queue.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			e.queue.StopAndCancel(stopCtx)
		})
	}
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	e.deck = filepath.Join(t.TempDir(), "deck")
	if err := os.CopyFS(e.deck, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) submit(t *testing.T, tMax float64) *turbinesim.Job {
	t.Helper()
	j, _, err := e.jobs.SubmitJob(context.Background(), &turbinesim.NewJob{
		OrganizationID: e.org.ID, SubmittedBy: e.user.ID, InputDir: e.deck,
		Entrypoint: "Main_Onshore.fst", TMax: tMax, Work: jobtest.Work(tMax)})
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	return j
}

// waitFor polls the job until cond holds or the timeout passes.
func (e *env) waitFor(t *testing.T, id string, timeout time.Duration, cond func(*turbinesim.Job) bool) *turbinesim.Job {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		j, err := e.jobs.FindJob(context.Background(), e.org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		if cond(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s after %s (attempt %d, detail %v)", id, j.Status, timeout, j.Attempt, deref(j.Detail))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func terminal(j *turbinesim.Job) bool { return j.Status.Terminal() }

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func (e *env) usage(t *testing.T) *turbinesim.Usage {
	t.Helper()
	u, err := e.caps.CurrentUsage(context.Background(), e.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// A real NREL 5 MW run through the queue: charged once at submission
// (beta plan: 10 ¢ + 30 ¢/simulated minute, 1 token per started second),
// progress written while it runs, the .outb published with t_max rows.
func TestRunSucceedsAndPublishesOutputs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:simulate", 1, runner.Limits{WallTime: time.Minute})
	j := e.submit(t, 1.5)
	if j.Status != turbinesim.JobQueued || j.Tokens != 2 || j.PriceCents != 10+1 {
		t.Fatalf("submitted job %+v; want queued, 2 tokens, 11 cents", j)
	}
	if u := e.usage(t); u.SpentCents != 11 || u.Tokens != 2 {
		t.Fatalf("usage after submit %+v, want 11 cents and 2 tokens", u)
	}
	j = e.waitFor(t, j.ID, 60*time.Second, terminal)
	if j.Status != turbinesim.JobSucceeded {
		t.Fatalf("job ended %s: %s\nlog:\n%s", j.Status, deref(j.Detail), j.Log)
	}
	if j.Attempt != 1 || j.Percent != 100 || j.SimTime != 1.5 || len(j.OutputFiles) != 1 || j.OutputFiles[0] != "Main_Onshore.outb" {
		t.Fatalf("finished job: attempt %d, %g %%, sim %g, files %v", j.Attempt, j.Percent, j.SimTime, j.OutputFiles)
	}
	if !strings.Contains(j.Log, "wrote") || strings.Contains(j.Log, os.TempDir()+"/") {
		t.Errorf("solver log should report the write without server paths:\n%s", j.Log)
	}
	dir, release, err := e.jobs.OpenOutputs(context.Background(), e.org.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	f, err := outfile.ReadOutbFile(filepath.Join(dir, "Main_Onshore.outb"))
	if err != nil {
		t.Fatal(err)
	}
	// The deck writes every DT_Out = 0.1 s: rows at 0, 0.1, …, 1.5.
	if got := f.Time[len(f.Time)-1]; got != 1.5 || len(f.Time) != 16 {
		t.Fatalf("output ends at %g s with %d rows; want 1.5 s, 16 rows (DT_Out 0.1)", got, len(f.Time))
	}
	if u := e.usage(t); u.SpentCents != 11 || u.Tokens != 2 {
		t.Fatalf("usage after the run %+v: charged more than once", u)
	}
}

// A deck error found by the solver fails the job at once (no retry) with
// the deck layer's message naming file and line; the charge stays.
func TestDeckErrorFailsWithFileAndLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:simulate", 1, runner.Limits{WallTime: time.Minute})
	fst := filepath.Join(e.deck, "Main_Onshore.fst")
	b, _ := os.ReadFile(fst)
	lines := strings.Split(string(b), "\n")
	lines[6] = "     xyz   DT              - Recommended module time step (s)"
	os.WriteFile(fst, []byte(strings.Join(lines, "\n")), 0o644)
	j := e.waitFor(t, e.submit(t, 1).ID, 30*time.Second, terminal)
	if j.Status != turbinesim.JobFailed || j.Attempt != 1 || j.RefundedAt != nil {
		t.Fatalf("job %s attempt %d refunded %v; want failed on attempt 1, not refunded", j.Status, j.Attempt, j.RefundedAt)
	}
	if d := deref(j.Detail); !strings.Contains(d, "Main_Onshore.fst:7") || !strings.Contains(d, "DT") || strings.Contains(d, "attempt-") {
		t.Fatalf("detail %q should name Main_Onshore.fst:7 and DT, without server paths", d)
	}
}

// A hung run is killed by its wall-time limit and fails with a detail;
// no process of it survives.
func TestHungRunKilledByWallTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:hang", 1, runner.Limits{WallTime: 1500 * time.Millisecond})
	start := time.Now()
	j := e.waitFor(t, e.submit(t, 1).ID, 20*time.Second, terminal)
	if j.Status != turbinesim.JobFailed || !strings.Contains(deref(j.Detail), "wall-time limit of 1.5s") {
		t.Fatalf("job %s, detail %q; want failed by the wall-time limit", j.Status, deref(j.Detail))
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("hung run took %s to stop with a 1.5 s limit", el)
	}
	assertNoChild(t, "child:hang")
}

// assertNoChild checks /proc for a leftover child process of this test
// binary in the given mode.
func assertNoChild(t *testing.T, mode string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		found := ""
		ents, _ := os.ReadDir("/proc")
		for _, d := range ents {
			b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			if err == nil && strings.Contains(string(b), mode+"\x00") && strings.Contains(string(b), os.Args[0]) {
				st, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
				if !strings.Contains(string(st), ") Z ") {
					found = d.Name()
				}
			}
		}
		if found == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %s (%s) still alive", found, mode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A poison run (the child dies by a signal every time) is retried up to
// its attempts, then fails with a detail and is refunded (the service, not
// the deck, is at fault).
func TestPoisonJobStopsAfterAttempts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:crash", 1, runner.Limits{WallTime: time.Minute})
	j := e.waitFor(t, e.submit(t, 1).ID, 30*time.Second, terminal)
	if j.Status != turbinesim.JobFailed || j.Attempt != db.DefaultJobMaxAttempts || j.RefundedAt == nil {
		t.Fatalf("job %s after %d attempts, refunded %v; want failed after %d, refunded",
			j.Status, j.Attempt, j.RefundedAt, db.DefaultJobMaxAttempts)
	}
	if d := deref(j.Detail); !strings.Contains(d, "crashed") || !strings.Contains(d, "3 attempts") {
		t.Fatalf("detail %q", d)
	}
	if u := e.usage(t); u.SpentCents != 0 || u.Tokens != 0 {
		t.Fatalf("usage after the refund %+v, want zero", u)
	}
	time.Sleep(300 * time.Millisecond) // no further attempt may start
	if j2, _ := e.jobs.FindJob(context.Background(), e.org.ID, j.ID); j2.Attempt != j.Attempt {
		t.Fatalf("attempt went on to %d after the final failure", j2.Attempt)
	}
}

// Cancelling: a queued job is cancelled at once and refunded; a running
// one stops within a few seconds (cancelling → cancelled, charged pro rata
// of the simulated time it reached); a finished one is a conflict.
func TestCancelQueuedAndRunning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "child:hang", 1, runner.Limits{WallTime: time.Minute})
	running := e.submit(t, 2)
	e.waitFor(t, running.ID, 10*time.Second, func(j *turbinesim.Job) bool { return j.SimTime > 0 })
	queued := e.submit(t, 2) // the only worker is busy
	j, err := e.jobs.CancelJob(ctx, e.org.ID, queued.ID)
	if err != nil || j.Status != turbinesim.JobCancelled || j.RefundedAt == nil {
		t.Fatalf("cancel queued: %v, %+v", err, j)
	}
	start := time.Now()
	j, err = e.jobs.CancelJob(ctx, e.org.ID, running.ID)
	if err != nil || j.Status != turbinesim.JobCancelling {
		t.Fatalf("cancel running: %v, status %v", err, j)
	}
	j = e.waitFor(t, running.ID, 5*time.Second, terminal)
	if j.Status != turbinesim.JobCancelled || j.RefundedAt != nil {
		t.Fatalf("running job ended %s, refunded %v", j.Status, j.RefundedAt)
	}
	t.Logf("running job stopped %s after the cancel request", time.Since(start).Round(time.Millisecond))
	assertNoChild(t, "child:hang")
	if _, err := e.jobs.CancelJob(ctx, e.org.ID, running.ID); turbinesim.ErrorCode(err) != turbinesim.ECONFLICT {
		t.Fatalf("cancel of a cancelled job: %v, want conflict", err)
	}
	// Price of a 2 s beta run: 10 + ceil(2·30/60) = 11 cents, 2 tokens;
	// the running job was cancelled at sim_time 0.1 of 2 s, so it keeps
	// 5 % of that, rounded up: 1 cent and 1 token. The queued one is
	// refunded.
	if u := e.usage(t); u.SpentCents != 1 || u.Tokens != 1 || j.PriceCents != 1 || j.Tokens != 1 {
		t.Fatalf("usage %+v, job %d cents / %d tokens; want 1 cent / 1 token (5 %% of 11 cents / 2 tokens)", u, j.PriceCents, j.Tokens)
	}
	if d := deref(j.Detail); !strings.Contains(d, "5.0 % of the simulated time") {
		t.Fatalf("detail %q does not state the share charged", d)
	}
	other := &turbinesim.Organization{Name: "Other org"}
	db.NewOrganizationService(e.db).CreateOrganization(ctx, other)
	if _, err := e.jobs.CancelJob(ctx, other.ID, queued.ID); turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND {
		t.Fatalf("cancel from another org: %v, want not found", err)
	}
}

// The child runs with a cleared environment: no DATABASE_URL or any other
// variable of the worker reaches it.
func TestChildEnvironmentHasNoSecrets(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://secret@db/x")
	e := newEnv(t, "child:env", 1, runner.Limits{WallTime: time.Minute})
	j := e.waitFor(t, e.submit(t, 1).ID, 20*time.Second, terminal)
	if j.Status != turbinesim.JobSucceeded {
		t.Fatalf("job %s: %s", j.Status, deref(j.Detail))
	}
	dir, release, err := e.jobs.OpenOutputs(context.Background(), e.org.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	b, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	for _, kv := range strings.Split(string(b), "\n") {
		name, _, _ := strings.Cut(kv, "=")
		if name != "PATH" && name != "HOME" && name != "LANG" {
			t.Errorf("child environment has %q", kv)
		}
	}
	if len(b) == 0 {
		t.Fatal("child wrote no environment")
	}
}

// 200 concurrent submissions against caps that allow 37 runs: exactly 37
// jobs (and 37 queue entries) exist after each of 20 rounds, alternating
// between the spend cap and the token cap.
func TestConcurrentSubmitsRespectCaps(t *testing.T) {
	if testing.Short() {
		t.Skip("real-process fault and race tests take 30-60 s; run without -short")
	}
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 0, runner.Limits{})
	// A small pool: 200 goroutines queue for 8 connections, so PostgreSQL
	// does not thrash 30 backends on two cores; the race is the same (the
	// charge statements still run concurrently).
	e.db.SetMaxOpenConns(8)
	small := t.TempDir()
	os.WriteFile(filepath.Join(small, "main.fst"), []byte("x"), 0o600)
	// A 1 s beta run: 10 + 1 = 11 cents, 1 token.
	for round := range 20 {
		for _, q := range []string{`DELETE FROM jobs`, `DELETE FROM river_job`, `DELETE FROM org_usage`} {
			if _, err := e.db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		caps := turbinesim.Caps{SpendCapCents: 37*11 + 10, TokenCap: 1 << 40}
		if round%2 == 1 {
			caps = turbinesim.Caps{SpendCapCents: 1 << 40, TokenCap: 37}
		}
		if err := e.caps.SetCaps(ctx, e.org.ID, caps); err != nil {
			t.Fatal(err)
		}
		var ok, refused atomic.Int32
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range 200 {
			wg.Go(func() {
				<-start
				_, _, err := e.jobs.SubmitJob(ctx, &turbinesim.NewJob{OrganizationID: e.org.ID, SubmittedBy: e.user.ID,
					InputDir: small, Entrypoint: "main.fst", TMax: 1, Work: jobtest.Work(1)})
				switch turbinesim.ErrorCode(err) {
				case "":
					ok.Add(1)
				case turbinesim.EPAYMENT:
					refused.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		var jobs, queued int
		e.db.GetContext(ctx, &jobs, `SELECT count(*) FROM jobs`)
		e.db.GetContext(ctx, &queued, `SELECT count(*) FROM river_job WHERE kind = 'simulation'`)
		if ok.Load() != 37 || refused.Load() != 163 || jobs != 37 || queued != 37 {
			t.Fatalf("round %d: %d accepted, %d refused, %d rows, %d queue entries; want exactly 37",
				round, ok.Load(), refused.Load(), jobs, queued)
		}
	}
}

// A job whose queue entry River gave up on (discarded: every attempt's
// worker vanished) is finished by the sweep as failed and refunded, once.
func TestLostJobsAreFailedAndRefunded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "", 0, runner.Limits{})
	j := e.submit(t, 1)
	var entry int64
	if err := e.db.GetContext(ctx, &entry, `SELECT queue_id FROM jobs WHERE id = $1`, j.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.jobs.ClaimJob(ctx, j.ID, entry); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE river_job SET state = 'discarded', finalized_at = now()
		WHERE args->>'job_id' = $1`, j.ID); err != nil {
		t.Fatal(err)
	}
	for sweep, want := range []int{1, 0} { // the second sweep finds nothing
		n, err := e.jobs.FailLostJobs(ctx)
		if err != nil || n != want {
			t.Fatalf("sweep %d: %d jobs, %v; want %d", sweep+1, n, err, want)
		}
	}
	got, _ := e.jobs.FindJob(ctx, e.org.ID, j.ID)
	if got.Status != turbinesim.JobFailed || got.RefundedAt == nil || !strings.Contains(deref(got.Detail), "lost") {
		t.Fatalf("swept job %s refunded %v detail %q", got.Status, got.RefundedAt, deref(got.Detail))
	}
	if u := e.usage(t); u.SpentCents != 0 || u.Tokens != 0 {
		t.Fatalf("usage %+v after the refund", u)
	}
}

// A run the solver itself breaks on (a Go panic: the service's defect,
// not the user's deck) fails at once, refunded, and its detail says so.
func TestSolverDefectIsRefunded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:panic", 1, runner.Limits{WallTime: time.Minute})
	j := e.waitFor(t, e.submit(t, 2).ID, 30*time.Second, terminal)
	if j.Status != turbinesim.JobFailed || j.RefundedAt == nil || j.Attempt != 1 {
		t.Fatalf("job %s after %d attempts, refunded %v; want failed after 1, refunded", j.Status, j.Attempt, j.RefundedAt)
	}
	if d := deref(j.Detail); !strings.Contains(d, "refunded") || !strings.Contains(d, "index out of range") {
		t.Fatalf("detail %q: want the panic and that it was refunded", d)
	}
	if u := e.usage(t); u.SpentCents != 0 || u.Tokens != 0 {
		t.Fatalf("usage after the refund %+v, want zero", u)
	}
}

// Bubblewrap failing to start the solver (here: the solver binary it is
// told to bind does not exist) is the service's fault: retried, then
// failed and refunded, with a detail that says so and names no path.
func TestSandboxFailureIsRefunded(t *testing.T) {
	if why := bwrapUnusable(); why != "" {
		t.Skip(why)
	}
	t.Parallel()
	e := newEnvWith(t, jobtest.New(t), "child:simulate", 0, runner.Limits{WallTime: time.Minute}, envOptions{})
	w, err := runner.New(runner.Config{Jobs: e.jobs, WorkDir: filepath.Join(t.TempDir(), "work"),
		Command: []string{filepath.Join(t.TempDir(), "missing-turbined"), "simulate"}, Sandbox: "bwrap", Logger: quiet,
		ProgressInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.NewQueue(e.db, db.QueueConfig{Workers: 1, Worker: w, PollInterval: 50 * time.Millisecond,
		RetryDelay: 50 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q.StopAndCancel(ctx)
	})
	j := e.waitFor(t, e.submit(t, 2).ID, 30*time.Second, terminal)
	d := deref(j.Detail)
	if j.Status != turbinesim.JobFailed || j.RefundedAt == nil || !strings.Contains(d, "sandbox") || !strings.Contains(d, "refunded") {
		t.Fatalf("job %s, refunded %v, detail %q; want failed, refunded, naming the sandbox", j.Status, j.RefundedAt, d)
	}
	if strings.Contains(d, "/") {
		t.Fatalf("detail %q names a path", d)
	}
	if u := e.usage(t); u.SpentCents != 0 || u.Tokens != 0 {
		t.Fatalf("usage after the refund %+v, want zero", u)
	}
}

// A shutdown is bounded and costs the job nothing: a run still going after
// the grace period has its solver child stopped, and its job goes back to
// the queue with the interrupted attempt uncounted (before, a graceful
// SIGTERM used one of the job's three attempts, and a runaway run held the
// shutdown for ever). The next worker runs it as attempt 1, charged once.
func TestShutdownRequeuesWithoutUsingAnAttempt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:hang-drain", 1, runner.Limits{WallTime: time.Hour})
	job := e.submit(t, 2)
	e.waitFor(t, job.ID, 10*time.Second, func(j *turbinesim.Job) bool { return j.SimTime > 0 && j.Attempt == 1 })
	start := time.Now()
	e.worker.Shutdown(e.queue, 300*time.Millisecond)
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("shutdown took %s", took)
	}
	assertNoChild(t, "child:hang-drain")
	j, err := e.jobs.FindJob(context.Background(), e.org.ID, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != turbinesim.JobQueued || j.Attempt != 0 || j.SimTime != 0 || j.RefundedAt != nil {
		t.Fatalf("after the shutdown: %s, attempt %d, sim_time %g, refunded %v; want queued, attempt 0", j.Status, j.Attempt, j.SimTime, j.RefundedAt)
	}
	// A worker of the next start runs it to the end.
	w, err := runner.New(runner.Config{Jobs: e.jobs, WorkDir: filepath.Join(t.TempDir(), "work"),
		Command: []string{os.Args[0], "child:simulate"}, Sandbox: "none", Logger: quiet, ProgressInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.NewQueue(e.db, db.QueueConfig{Workers: 1, Worker: w, PollInterval: 50 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Shutdown(q, time.Second) })
	j = e.waitFor(t, job.ID, 60*time.Second, terminal)
	if j.Status != turbinesim.JobSucceeded || j.Attempt != 1 {
		t.Fatalf("after the restart: %s, attempt %d (%s); want succeeded as attempt 1", j.Status, j.Attempt, deref(j.Detail))
	}
	if u := e.usage(t); u.SpentCents != 11 || u.Tokens != 2 {
		t.Fatalf("usage %+v, want one charge of 11 cents / 2 tokens", u)
	}
}

// Run slots: an organization runs at most its plan's number of jobs at
// once (Beta: 2) and the rest wait queued; a worker that frees up goes
// to the organization with fewer runs going, not to the oldest entry.
// Before, one tenant's queue held every worker in submission order.
func TestRunSlotsPerOrganizationAreShared(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, "child:hang-slots", 2, runner.Limits{WallTime: time.Minute})
	other := &turbinesim.Organization{Name: "Other org"}
	if err := db.NewOrganizationService(e.db).CreateOrganization(ctx, other); err != nil {
		t.Fatal(err)
	}
	a1, a2, a3, a4 := e.submit(t, 2), e.submit(t, 2), e.submit(t, 2), e.submit(t, 2)
	running := func(j *turbinesim.Job) bool { return j.Status == turbinesim.JobRunning && j.SimTime > 0 }
	e.waitFor(t, a1.ID, 10*time.Second, running)
	e.waitFor(t, a2.ID, 10*time.Second, running)
	b, _, err := e.jobs.SubmitJob(ctx, &turbinesim.NewJob{OrganizationID: other.ID, InputDir: e.deck,
		Entrypoint: "Main_Onshore.fst", TMax: 2, Work: jobtest.Work(2)})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // both workers are busy: nothing else starts
	if _, err := e.jobs.CancelJob(ctx, e.org.ID, a1.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		jb, err := e.jobs.FindJob(ctx, other.ID, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		j3, _ := e.jobs.FindJob(ctx, e.org.ID, a3.ID)
		if j3.Status != turbinesim.JobQueued {
			t.Fatalf("the first organization's third job is %s; the freed worker should go to the organization with no run going", j3.Status)
		}
		if jb.Status == turbinesim.JobRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other organization's job is still %s 15 s after a worker freed up", jb.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// With a third worker, the first organization runs two again (its
	// third job starts) and no more: its fourth waits with a worker free.
	newSlotWorker(t, e)
	time.Sleep(3 * time.Second)
	var n int
	if err := e.db.GetContext(ctx, &n, `SELECT count(*) FROM jobs WHERE organization_id = $1 AND status = 'running'`, e.org.ID); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("%d jobs of a Beta organization running at once with a worker free; want its limit, 2", n)
	}
	if j3, _ := e.jobs.FindJob(ctx, e.org.ID, a3.ID); j3.Status != turbinesim.JobRunning || j3.Attempt != 1 {
		t.Fatalf("the third job is %s (attempt %d) once a slot of its organization is free; want running, attempt 1", j3.Status, j3.Attempt)
	}
	if j4, _ := e.jobs.FindJob(ctx, e.org.ID, a4.ID); j4.Status != turbinesim.JobQueued || j4.Attempt != 0 {
		t.Fatalf("the fourth job is %s (attempt %d); want queued, no attempt used", j4.Status, j4.Attempt)
	}
}

// newSlotWorker starts one more in-process worker on e's database.
func newSlotWorker(t *testing.T, e *env) *runner.Worker {
	t.Helper()
	w, err := runner.New(runner.Config{Jobs: e.jobs, WorkDir: filepath.Join(t.TempDir(), "work"),
		Command: []string{os.Args[0], "child:hang-slots"}, Sandbox: "none", Logger: quiet,
		ProgressInterval: 100 * time.Millisecond, Limits: runner.Limits{WallTime: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.NewQueue(e.db, db.QueueConfig{Workers: 1, Worker: w, PollInterval: 50 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Shutdown(q, 0) })
	return w
}

// Every succeeded run is checked against its deck's physical bounds and
// the failed checks are stored with the job: the NREL 5 MW as it is
// passes every physical check (its OutList's strain-gage channels, which
// the deck defines no gage for, are warnings, as OpenFAST writes them
// INVALID); started at 30 rpm, 2.5 × its rated 11.98 rpm (VS_RtGnSp
// 1162 rpm / GBRatio 97), it is flagged for overspeed against 1.3 × rated
// after the start-up transient (here the first half of the 0.5-s run).
func TestRunChecksAreStoredWithTheJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "child:simulate", 1, runner.Limits{WallTime: time.Minute})
	j := e.waitFor(t, e.submit(t, 0.5).ID, 60*time.Second, terminal)
	if j.Status != turbinesim.JobSucceeded {
		t.Fatalf("job ended %s: %s\nlog:\n%s", j.Status, deref(j.Detail), j.Log)
	}
	if j.Checks == nil || j.Flagged() {
		t.Fatalf("checks of the normal run %+v; want checked and not flagged\nlog:\n%s", j.Checks, j.Log)
	}
	for _, c := range j.Checks {
		if c.Kind != "invalid_channel" || c.Severity != turbinesim.CheckWarning || !strings.HasPrefix(c.Channel, "Spn") && c.Channel != "B1N3Clrnc" {
			t.Errorf("normal run: unexpected check %+v", c)
		}
	}
	if !strings.Contains(j.Log, "plausibility bounds: rotor speed ≤ 15.57 rpm") {
		t.Errorf("the log does not state the bounds:\n%s", j.Log)
	}

	ed := filepath.Join(e.deck, "onshore", "ElastoDyn.dat")
	b, err := os.ReadFile(ed)
	if err != nil {
		t.Fatal(err)
	}
	fast := strings.Replace(string(b), "       10.0   RotSpeed", "       30.0   RotSpeed", 1)
	if fast == string(b) {
		t.Fatal("no RotSpeed line to change")
	}
	if err := os.WriteFile(ed, []byte(fast), 0o600); err != nil {
		t.Fatal(err)
	}
	j = e.waitFor(t, e.submit(t, 0.5).ID, 60*time.Second, terminal)
	if j.Status != turbinesim.JobSucceeded {
		t.Fatalf("job ended %s: %s\nlog:\n%s", j.Status, deref(j.Detail), j.Log)
	}
	var over *turbinesim.RunCheck
	for i, c := range j.Checks {
		if c.Kind == "overspeed" && c.Channel == "RotSpeed" {
			over = &j.Checks[i]
		}
	}
	if over == nil || over.Limit == nil || math.Abs(*over.Limit-1.3*1162/97) > 0.01 || over.Severity != turbinesim.CheckError || !j.Flagged() || over.Value == nil || *over.Value < 29 || over.Time == nil || *over.Time < 0.25 {
		t.Fatalf("checks %+v; want an overspeed of RotSpeed ≈ 30 rpm after t = 0.25 s against 15.57 rpm\nlog:\n%s", j.Checks, j.Log)
	}
	if !strings.Contains(j.Log, "checked from t = 0.25 s") {
		t.Errorf("the log does not state the checked window (the second half of a 0.5-s run):\n%s", j.Log)
	}
	if !strings.Contains(j.Log, "check failed: RotSpeed reaches") {
		t.Errorf("the log does not list the failed check:\n%s", j.Log)
	}
}
