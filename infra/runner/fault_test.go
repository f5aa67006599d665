package runner_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/jobtest"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/pgcluster"
	"github.com/turbinesim/turbinesim/infra/runner"
)

// Fault tests with real processes (a worker killed mid-run, a restart with
// queued jobs, a database restart during a run): the worker is
// this test binary started as "child:worker URL BLOBDIR WORKDIR N", a
// River client running N workers until SIGTERM (graceful: running
// attempts are cancelled and retried elsewhere) or SIGKILL.

// faultQueue is the River configuration of the fault tests: a job whose
// worker vanished is rescued after 3 s (production: the wall-time limit
// plus a margin).
func faultQueue(d *db.DB, w *runner.Worker, n int) (*db.Queue, error) {
	return db.NewQueue(d, db.QueueConfig{Workers: n, Worker: w, Logger: quiet, PollInterval: 50 * time.Millisecond,
		RetryDelay: 50 * time.Millisecond, JobTimeout: time.Second, RescueAfter: 3 * time.Second})
}

// The fault tests' runs take about 2 s on a quiet machine and over 8 s when
// the two cores are shared by a dozen busy processes, hence a wall-time
// limit of 30 s. A vanished worker's job is rescued from its heartbeat
// (faultStale); River's rescuer would wait out the limit plus the margin.
var faultLimits, faultMargin = runner.Limits{WallTime: 30 * time.Second}, 500 * time.Millisecond

// The fault tests' heartbeat: written every 200 ms, stale after 2 s
// (production: 5 s and 30 s).
const faultHeartbeat, faultStale = 200 * time.Millisecond, 2 * time.Second

// newFaultWorker is the simulation worker of the fault tests.
func newFaultWorker(jobs *db.JobService, workDir string) (*runner.Worker, error) {
	return runner.New(runner.Config{Jobs: jobs, WorkDir: workDir, Command: []string{os.Args[0], "child:simulate-fault"},
		Sandbox: "none", Logger: quiet, ProgressInterval: 100 * time.Millisecond, Limits: faultLimits,
		TimeoutMargin: faultMargin, HeartbeatInterval: faultHeartbeat, StaleAfter: faultStale})
}

// startRescue runs w's rescuer of dead workers' jobs until the test ends.
func startRescue(t *testing.T, w *runner.Worker) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Rescue(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

func workerProcess(args []string) int {
	if len(args) != 4 {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	d, err := db.Open(ctx, args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	trees, err := blobstore.NewLocal(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	inserter, _ := db.NewQueue(d, db.QueueConfig{Logger: quiet})
	jobs := db.NewJobService(d, trees, db.NewCapService(d, nil), inserter)
	w, err := newFaultWorker(jobs, args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var n int
	fmt.Sscan(args[3], &n)
	q, err := faultQueue(d, w, n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := q.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go w.Rescue(ctx)
	<-ctx.Done()
	// As turbined does on SIGTERM: a bounded drain that requeues the
	// interrupted runs without using their attempts.
	w.Shutdown(q, 200*time.Millisecond)
	return 0
}

// startWorkerProcess starts a worker process on e's database.
func startWorkerProcess(t *testing.T, url string, e *env, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "child:worker", url, e.blobDir, filepath.Join(t.TempDir(), "work"), fmt.Sprint(n))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// R1/R2: a worker killed with SIGKILL mid-run takes its solver child with
// it; the job is rescued from its stale heartbeat and completes on another
// worker as attempt 2, charged once. River's own rescuer is set to wait 10
// minutes here, so only the heartbeat rescue can pass the bound below.
func TestWorkerKilledMidRunCompletesElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("real-process fault and race tests take 30-60 s; run without -short")
	}
	t.Parallel()
	ctx := context.Background()
	url := jobtest.NewURL(t)
	d, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	e := newEnvOn(t, d, "", 0, runner.Limits{})
	w1 := startWorkerProcess(t, url, e, 1)
	job := e.submit(t, 10)
	e.waitFor(t, job.ID, 30*time.Second, func(j *turbinesim.Job) bool { return j.SimTime > 0 })
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w1.Wait()
	killed := time.Now()
	assertNoChild(t, "child:simulate-fault")
	if j, _ := e.jobs.FindJob(ctx, e.org.ID, job.ID); j.Status != turbinesim.JobRunning || j.Attempt != 1 {
		t.Fatalf("right after the kill: %s attempt %d, want running attempt 1", j.Status, j.Attempt)
	}

	// The surviving worker (in process) sees the job's heartbeat go stale,
	// re-queues it and runs it.
	w2, err := newFaultWorker(e.jobs, filepath.Join(t.TempDir(), "work2"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.NewQueue(e.db, db.QueueConfig{Workers: 1, Worker: w2, Logger: quiet, PollInterval: 50 * time.Millisecond,
		RetryDelay: 50 * time.Millisecond, JobTimeout: time.Second, RescueAfter: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.StopAndCancel(context.Background()) })
	startRescue(t, w2)
	// Rescued within the stale bound plus generous slack for a loaded
	// machine (rescuer ticks, a poll, the claim): a correctness bound
	// against River's 10 minutes, not a speed target.
	const rescueBound = faultStale + 20*time.Second
	e.waitFor(t, job.ID, rescueBound, func(j *turbinesim.Job) bool { return j.Attempt >= 2 })
	t.Logf("attempt 2 started %s after the kill (heartbeat stale after %s)",
		time.Since(killed).Round(100*time.Millisecond), faultStale)
	j := e.waitFor(t, job.ID, 60*time.Second, terminal)
	t.Logf("completed %s after the kill", time.Since(killed).Round(100*time.Millisecond))
	if j.Status != turbinesim.JobSucceeded || j.Attempt != 2 || j.SimTime != 10 {
		t.Fatalf("job %s attempt %d sim %g (%s); want succeeded on attempt 2", j.Status, j.Attempt, j.SimTime, deref(j.Detail))
	}
	// 10 s on the beta plan: 10 + 5 = 15 cents, 10 tokens, once.
	if u := e.usage(t); u.SpentCents != 15 || u.Tokens != 10 {
		t.Fatalf("usage %+v, want one charge of 15 cents / 10 tokens", u)
	}
	if j.RefundedAt != nil {
		t.Fatal("a rescued job was refunded")
	}
}

// R6: 20 queued jobs survive a graceful restart of their worker process
// (SIGTERM mid-batch) and then an abrupt one (SIGKILL): each reaches a
// terminal state exactly once, with one charge each.
func TestRestartWithQueuedJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("real-process fault and race tests take 30-60 s; run without -short")
	}
	t.Parallel()
	ctx := context.Background()
	url := jobtest.NewURL(t)
	d, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	e := newEnvOn(t, d, "", 0, runner.Limits{})
	var ids []string
	for range 20 {
		ids = append(ids, e.submit(t, 2).ID)
	}
	countDone := func() int {
		var n int
		e.db.GetContext(ctx, &n, `SELECT count(*) FROM jobs WHERE status IN ('succeeded', 'failed', 'cancelled')`)
		return n
	}
	waitDone := func(atLeast int, timeout time.Duration) {
		deadline := time.Now().Add(timeout)
		for countDone() < atLeast {
			if time.Now().After(deadline) {
				t.Fatalf("only %d of %d jobs finished", countDone(), atLeast)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	w := startWorkerProcess(t, url, e, 2)
	waitDone(3, 60*time.Second)
	w.Process.Signal(syscall.SIGTERM)
	w.Wait()
	w = startWorkerProcess(t, url, e, 2)
	waitDone(8, 60*time.Second)
	w.Process.Signal(syscall.SIGKILL)
	w.Wait()
	// A fresh worker, as after a restart of the service.
	w2, err := newFaultWorker(e.jobs, filepath.Join(t.TempDir(), "w"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := faultQueue(e.db, w2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.StopAndCancel(context.Background()) })
	startRescue(t, w2)
	waitDone(20, 90*time.Second)
	var rows []struct {
		Status   string `db:"status"`
		Attempt  int    `db:"attempt"`
		Refunded bool   `db:"refunded"`
	}
	if err := e.db.SelectContext(ctx, &rows, `SELECT status, attempt, refunded_at IS NOT NULL AS refunded FROM jobs`); err != nil {
		t.Fatal(err)
	}
	attempts := 0
	for _, r := range rows {
		if r.Status != "succeeded" || r.Refunded {
			t.Errorf("job %+v, want succeeded and charged", r)
		}
		attempts += r.Attempt
	}
	// 2 s each: 10 + 1 = 11 cents and 2 tokens per job, 20 jobs.
	if u := e.usage(t); len(rows) != 20 || u.SpentCents != 20*11 || u.Tokens != 20*2 {
		t.Fatalf("%d jobs, usage %+v; want 20 charges of 11 cents", len(rows), u)
	}
	t.Logf("20 jobs finished with %d attempts in total", attempts)
	_ = ids
}

// R3: the database restarts while a run is in progress (progress writes
// fail meanwhile); the run finishes once it is back, the job is neither
// lost nor left running, and it is charged once.
func TestDatabaseRestartDuringRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts a private PostgreSQL; run without -short")
	}
	t.Parallel()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "jobs-restart-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755) // the postgres OS user must reach the data directory
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Stop() })
	if err := cluster.CreateDatabase(ctx, "jobs"); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, cluster.URL("jobs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateQueue(ctx, d.DB.DB); err != nil {
		t.Fatal(err)
	}
	e := newEnvOn(t, d, "", 0, runner.Limits{})
	w, err := newFaultWorker(e.jobs, filepath.Join(t.TempDir(), "w"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := faultQueue(e.db, w, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.StopAndCancel(context.Background()) })
	// The rescuer runs through the restart: it must not take the live
	// attempt's job away (its heartbeat is stale while the server is down).
	startRescue(t, w)

	job := e.submit(t, 10)
	e.waitFor(t, job.ID, 30*time.Second, func(j *turbinesim.Job) bool { return j.SimTime > 0 })
	port := cluster.Port()
	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	cluster, err = pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg"), Port: port})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Stop() })
	deadline := time.Now().Add(60 * time.Second)
	var j *turbinesim.Job
	for {
		j, err = e.jobs.FindJob(ctx, e.org.ID, job.ID)
		if err == nil && j.Status.Terminal() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not finished a minute after the restart: %+v %v", j, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if j.Status != turbinesim.JobSucceeded || len(j.OutputFiles) != 1 {
		t.Fatalf("job %s attempt %d (%s)", j.Status, j.Attempt, deref(j.Detail))
	}
	if u := e.usage(t); u.SpentCents != 15 || u.Tokens != 10 {
		t.Fatalf("usage %+v, want one charge of 15 cents / 10 tokens", u)
	}
	t.Logf("succeeded on attempt %d after the restart", j.Attempt)
}
