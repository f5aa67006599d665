// Package runner executes simulation jobs: a River worker that claims a
// job row, runs the solver in a child process with resource limits (and
// inside bubblewrap when it is installed), streams the child's progress
// into the job row, and publishes the outputs only when the run succeeded.
//
// The child is `turbined simulate` of the same binary (Simulate in this
// package), started with a cleared environment: no database credentials or
// other secrets reach it. It prints progress as JSON lines on stdout and its
// log on stderr.
package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/riverqueue/river"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
)

// runSlotRetry is how long a job waiting for a run slot of its
// organization waits before it asks again.
const runSlotRetry = time.Second

// Limits bound one attempt's child process.
type Limits struct {
	WallTime    time.Duration // killed after this (default 1 h)
	CPUTime     time.Duration // RLIMIT_CPU (default: the wall time)
	MemoryBytes uint64        // RLIMIT_AS (default 4 GiB)
	OutputBytes uint64        // RLIMIT_FSIZE per file and the total published (default 1 GiB)
	Processes   uint64        // RLIMIT_NPROC (default 4096; per user, so generous)
}

func (l *Limits) defaults() {
	if l.WallTime <= 0 {
		l.WallTime = time.Hour
	}
	if l.CPUTime <= 0 {
		l.CPUTime = l.WallTime
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = 4 << 30
	}
	if l.OutputBytes == 0 {
		l.OutputBytes = 1 << 30
	}
	if l.Processes == 0 {
		l.Processes = 4096
	}
}

// Config configures a Worker.
type Config struct {
	Jobs *db.JobService
	// WorkDir holds one directory per attempt (created, removed after).
	WorkDir string
	// BoxDir holds one folder per DLC batch with its runs' turbulence
	// boxes, shared by its runs (default WorkDir/boxes); a batch's folder
	// is removed when its last run finishes.
	BoxDir string
	// Command is the child's argv before the simulate arguments; default
	// {os.Executable(), "simulate"}.
	Command []string
	Limits  Limits
	// Sandbox: "auto" (bubblewrap when installed; the default), "bwrap"
	// (required) or "none".
	Sandbox string
	// ProgressInterval is how often progress is written to the job row and
	// a cancel request looked for (default 500 ms).
	ProgressInterval time.Duration
	// TimeoutMargin is added to the wall-time limit for River's timeout of
	// an attempt (time to stage inputs and publish outputs). Default 1 min.
	TimeoutMargin time.Duration
	// HeartbeatInterval is how often a running attempt writes its
	// heartbeat (default 5 s), and how often Rescue looks for attempts
	// whose heartbeat is older than StaleAfter (default 30 s; at least
	// three intervals) to hand them to another worker.
	HeartbeatInterval time.Duration
	StaleAfter        time.Duration
	Logger            *slog.Logger
}

// Worker is the River worker of SimulationArgs.
type Worker struct {
	river.WorkerDefaults[db.SimulationArgs]
	cfg   Config
	bwrap string
	// draining is set by Shutdown: an attempt interrupted from then on
	// was stopped by the service, and its job is requeued without using
	// one of its attempts.
	draining atomic.Bool
	// children are the process groups of the running solver children.
	children sync.Map // pid → struct{}
}

var _ river.Worker[db.SimulationArgs] = (*Worker)(nil)

// New returns a worker.
func New(cfg Config) (*Worker, error) {
	if cfg.Jobs == nil || cfg.WorkDir == "" {
		return nil, errors.New("runner: Jobs and WorkDir are required")
	}
	cfg.Limits.defaults()
	if cfg.ProgressInterval <= 0 {
		cfg.ProgressInterval = 500 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.TimeoutMargin <= 0 {
		cfg.TimeoutMargin = time.Minute
	}
	if cfg.HeartbeatInterval <= 0 {
		cfg.HeartbeatInterval = 5 * time.Second
	}
	if cfg.StaleAfter <= 0 {
		cfg.StaleAfter = 30 * time.Second
	}
	if cfg.StaleAfter < 3*cfg.HeartbeatInterval {
		return nil, fmt.Errorf("runner: StaleAfter %s must be at least three heartbeat intervals (%s)",
			cfg.StaleAfter, cfg.HeartbeatInterval)
	}
	if len(cfg.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("runner: finding the executable: %w", err)
		}
		cfg.Command = []string{exe, "simulate"}
	}
	// The attempt directories and the solver binary are bound into the
	// sandbox at the same path inside and outside it, and bubblewrap
	// resolves a relative bind source against its own working directory:
	// a relative path would fail every run, so it is refused here, once.
	if !filepath.IsAbs(cfg.WorkDir) {
		return nil, fmt.Errorf("runner: work directory %q is relative; give an absolute path (WORK_DIR or DATA_DIR)", cfg.WorkDir)
	}
	if !filepath.IsAbs(cfg.Command[0]) {
		return nil, fmt.Errorf("runner: solver command %q is relative; give an absolute path", cfg.Command[0])
	}
	if err := os.MkdirAll(cfg.WorkDir, 0o700); err != nil {
		return nil, fmt.Errorf("runner: creating work directory: %w", err)
	}
	if cfg.BoxDir == "" {
		cfg.BoxDir = filepath.Join(cfg.WorkDir, "boxes")
	}
	if !filepath.IsAbs(cfg.BoxDir) {
		return nil, fmt.Errorf("runner: box directory %q is relative; give an absolute path", cfg.BoxDir)
	}
	w := &Worker{cfg: cfg}
	switch cfg.Sandbox {
	case "", "auto":
		w.bwrap, _ = exec.LookPath("bwrap")
	case "bwrap":
		p, err := exec.LookPath("bwrap")
		if err != nil {
			return nil, errors.New("runner: sandbox bwrap requested but bubblewrap is not installed")
		}
		w.bwrap = p
	case "none":
	default:
		return nil, fmt.Errorf("runner: unknown sandbox %q (want auto, bwrap or none)", cfg.Sandbox)
	}
	return w, nil
}

// Sandboxed reports whether runs go through bubblewrap.
func (w *Worker) Sandboxed() bool { return w.bwrap != "" }

// Timeout is River's bound on one attempt: the wall-time limit plus time to
// stage and publish files. River's rescuer leaves a running job alone for
// this long; a dead worker's job is normally handed on much sooner by
// Rescue, from its heartbeat.
func (w *Worker) Timeout(*river.Job[db.SimulationArgs]) time.Duration {
	return w.cfg.Limits.WallTime + w.cfg.TimeoutMargin
}

// Work runs one attempt of a job. It returns nil when the job reached a
// final state (or there was nothing to do) and an error when River should
// retry: the service failed, not the user's deck.
func (w *Worker) Work(ctx context.Context, rj *river.Job[db.SimulationArgs]) error {
	jobs := w.cfg.Jobs
	job, err := jobs.ClaimJob(ctx, rj.Args.JobID, rj.ID)
	if errors.Is(err, db.ErrRunSlotBusy) {
		// Its organization is at its plan's limit of runs at once, or
		// another one with fewer runs goes first: the entry waits without
		// using an attempt.
		return river.JobSnooze(runSlotRetry)
	}
	if err != nil || job == nil {
		return err
	}
	log := w.cfg.Logger.With("job", job.ID, "attempt", job.Attempt)
	defer w.heartbeat(ctx, log, job)()
	// The job's attempts, not the queue entry's: a rescued job continues
	// on a new entry with the attempts it has left.
	lastAttempt := job.Attempt >= job.MaxAttempts
	// serviceFailure: retry, or on the last attempt fail with a refund.
	serviceFailure := func(detail string, cause error) error {
		log.Warn("simulation attempt failed", "detail", detail, "err", cause)
		if !lastAttempt {
			return fmt.Errorf("%s: %w", detail, cause)
		}
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Detail: detail + " (after " + strconv.Itoa(job.Attempt) + " attempts; refunded)", Refund: true})
		return err
	}

	dir := filepath.Join(w.cfg.WorkDir, job.ID, "attempt-"+strconv.Itoa(job.Attempt))
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	defer os.RemoveAll(dir)
	os.RemoveAll(dir) // leftovers of a crashed worker on this machine
	if err := w.stageInputs(ctx, job.InputKey, in, out); err != nil {
		return serviceFailure("could not prepare the run", err)
	}
	// A batch run with a recipe: the child generates its wind file and
	// deck (prepare.go).
	extra, boxes, err := w.recipeArgs(ctx, job, dir, in)
	if err != nil && ctx.Err() != nil && w.draining.Load() {
		return w.requeue(ctx, log, job)
	} else if err != nil && ctx.Err() != nil {
		return fmt.Errorf("run interrupted: %w", ctx.Err())
	} else if err != nil {
		return serviceFailure(PrepareFailure, err)
	}

	res := w.runChild(ctx, log, job, dir, in, out, extra, boxes)
	defer w.dropBoxesWhenDone(ctx, log, job)
	switch {
	case res.lost:
		log.Info("attempt superseded; stopping without writing")
		return nil
	case res.cancelled:
		_, err := w.finish(ctx, job.ID, job.Attempt,
			db.JobOutcome{Status: turbinesim.JobCancelled, Log: res.log})
		return err
	case res.timedOut:
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log,
			Detail: fmt.Sprintf("the run exceeded its wall-time limit of %s and was stopped", w.cfg.Limits.WallTime)})
		return err
	case ctx.Err() != nil && w.draining.Load():
		// The service is shutting down (Shutdown): the run is not the
		// job's fault and the attempt does not count; the job goes back to
		// the queue for the next worker.
		return w.requeue(ctx, log, job)
	case ctx.Err() != nil:
		// River's timeout fired: the job stays running and River retries
		// it, as after a crash.
		return fmt.Errorf("run interrupted: %w", ctx.Err())
	case res.startErr != nil:
		return serviceFailure("could not start the solver", res.startErr)
	case res.signal == syscall.SIGXCPU || res.signal == syscall.SIGKILL && res.cpuExceeded:
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log,
			Detail: fmt.Sprintf("the run exceeded its CPU-time limit of %s", w.cfg.Limits.CPUTime)})
		return err
	case res.signal == syscall.SIGXFSZ:
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log,
			Detail: fmt.Sprintf("the run exceeded the output size limit of %d bytes", w.cfg.Limits.OutputBytes)})
		return err
	case res.signal != 0:
		return serviceFailure(fmt.Sprintf("the solver crashed (%s)", res.signal), errors.New(res.log))
	case res.exitCode != 0 && w.bwrap != "" && strings.HasPrefix(res.log, "bwrap: "):
		// Bubblewrap itself refused to start (a bind path missing, no
		// namespaces): the service's set-up, not the run; retried, and
		// refunded when it fails every attempt.
		// Its message names server paths: logged, not shown.
		return serviceFailure("the sandbox could not start the solver (a fault of the service, not of your input)", errors.New(res.log))
	case res.exitCode != 0 && solverDefect(res.log):
		// The solver crashed on an internal error (a Go panic, caught by
		// coupling.Run or not): a defect of the service's solver, not the
		// user's deck, so the run is refunded. Not retried: the same deck
		// meets the same defect.
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log, Refund: true,
			Detail: "the solver stopped on an internal error, a defect of the service and not of your input (refunded): " + clip(panicLine(res.log), 300)})
		return err
	case res.exitCode != 0 && extra != nil && !strings.HasPrefix(res.log, "prepared run "):
		// The child could not make the run from its recipe (it logs the
		// "prepared run" line only once it has): the recipe is the
		// service's, so the job is refunded; not retried, as the same
		// recipe makes the same files within the same limits.
		detail := res.failure
		if outOfMemory(res.log) {
			detail = fmt.Sprintf("%s: it exceeded the run's memory limit of %d bytes", PrepareFailure, w.cfg.Limits.MemoryBytes)
		} else if !strings.HasPrefix(detail, PrepareFailure) {
			detail = PrepareFailure + ": " + detail
		}
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log, Detail: detail + " (refunded)", Refund: true})
		return err
	case res.exitCode != 0:
		// The solver refused the deck or the physics failed: the user's
		// run, final, not refunded.
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log, Detail: res.failure})
		return err
	}

	files, size, err := listOutputs(out)
	if err != nil {
		return serviceFailure("could not read the outputs", err)
	}
	if size > w.cfg.Limits.OutputBytes {
		_, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
			Status: turbinesim.JobFailed, Log: res.log,
			Detail: fmt.Sprintf("the outputs (%d bytes) exceed the limit of %d bytes", size, w.cfg.Limits.OutputBytes)})
		return err
	}
	key, err := jobs.Trees().Put(ctx, out)
	if err != nil {
		return serviceFailure("could not publish the outputs", err)
	}
	ok, err := w.finish(ctx, job.ID, job.Attempt, db.JobOutcome{
		Status: turbinesim.JobSucceeded, Log: res.log, OutputKey: key, OutputFiles: files, Checks: res.checks})
	if !ok || err != nil {
		// Another attempt owns the job, or it was cancelled meanwhile:
		// these outputs are never published.
		jobs.Trees().Delete(context.WithoutCancel(ctx), key)
	}
	return err
}

// requeue hands a job whose attempt the shutdown interrupted back to the
// queue with that attempt uncounted (JobService.RequeueInterrupted); it
// runs after the solver child was stopped, even though ctx is cancelled.
func (w *Worker) requeue(ctx context.Context, log *slog.Logger, job *turbinesim.Job) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := w.cfg.Jobs.RequeueInterrupted(ctx, job.ID, job.Attempt); err != nil {
		log.Warn("requeueing a run interrupted by the shutdown", "err", err)
		return fmt.Errorf("run interrupted by the shutdown: %w", err)
	}
	log.Info("run interrupted by the shutdown; requeued without using an attempt")
	return nil
}

// Shutdown stops the worker's queue q within a bounded time: runs that
// end within grace finish normally; then every running solver child is
// stopped and its job requeued without using one of its attempts
// (JobService.RequeueInterrupted), and after a further 15 s any child
// still alive is killed. It returns once the queue has stopped or those
// bounds have passed.
func (w *Worker) Shutdown(q *db.Queue, grace time.Duration) {
	w.draining.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	err := q.Stop(ctx)
	cancel()
	if err == nil {
		return
	}
	w.cfg.Logger.Info("runs still going after the shutdown grace period; stopping them and requeueing their jobs", "grace", grace)
	ctx, cancel = context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := q.StopAndCancel(ctx); err != nil {
		w.cfg.Logger.Warn("workers did not stop in time; killing the solver children", "err", err)
	}
	w.children.Range(func(pid, _ any) bool {
		_ = syscall.Kill(-pid.(int), syscall.SIGKILL)
		return true
	})
}

// finish records an attempt's outcome, retrying for up to half a minute
// while the database is unreachable (a restart during a run must not
// throw the finished run away). It runs even when ctx is cancelled.
func (w *Worker) finish(ctx context.Context, id string, attempt int, o db.JobOutcome) (bool, error) {
	ctx = context.WithoutCancel(ctx)
	deadline := time.Now().Add(30 * time.Second)
	for delay := 200 * time.Millisecond; ; delay = min(2*delay, 5*time.Second) {
		ok, err := w.cfg.Jobs.FinishJob(ctx, id, attempt, o)
		if turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE || time.Now().After(deadline) {
			return ok, err
		}
		w.cfg.Logger.Warn("database unavailable while finishing a job; retrying", "job", id, "err", err)
		time.Sleep(delay)
	}
}

// heartbeat writes the attempt's heartbeat every HeartbeatInterval until
// the returned stop is called (at the end of Work), so that Rescue in any
// worker process can tell a live attempt from one whose worker died.
func (w *Worker) heartbeat(ctx context.Context, log *slog.Logger, job *turbinesim.Job) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(w.cfg.HeartbeatInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := w.cfg.Jobs.Heartbeat(ctx, job.ID, job.Attempt); err != nil && ctx.Err() == nil {
					log.Warn("writing heartbeat", "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// Rescue hands the jobs of dead workers to live ones until ctx ends: every
// HeartbeatInterval it re-queues the running jobs whose heartbeat is older
// than StaleAfter (JobService.RescueStaleJobs). Every worker process runs
// it; no leader is needed, the rows are locked with SKIP LOCKED. After
// its own connection to the database failed, it waits two intervals of
// good connection before rescuing anything, so that live workers cut off
// by the same outage have written their heartbeats again.
func (w *Worker) Rescue(ctx context.Context) {
	t := time.NewTicker(w.cfg.HeartbeatInterval)
	defer t.Stop()
	var healthySince time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := w.cfg.Jobs.Ping(ctx); err != nil {
			healthySince = time.Time{}
			continue
		}
		if healthySince.IsZero() {
			healthySince = time.Now()
		}
		if time.Since(healthySince) < 2*w.cfg.HeartbeatInterval {
			continue
		}
		requeued, finished, err := w.cfg.Jobs.RescueStaleJobs(ctx, w.cfg.StaleAfter)
		switch {
		case err != nil && ctx.Err() == nil:
			w.cfg.Logger.Warn("rescuing jobs of dead workers", "err", err)
			healthySince = time.Time{}
		case requeued+finished > 0:
			w.cfg.Logger.Warn("rescued jobs whose worker stopped heartbeating",
				"requeued", requeued, "finished", finished, "stale_after", w.cfg.StaleAfter)
		}
	}
}

// stageInputs puts the job's input tree into the attempt directory: as
// hard links to the store's files where it can, copies otherwise (another
// file system, e.g. a shared BLOB_DIR). Creating a file costs 0.5-0.7 ms
// on our machines' ext4 against 10-230 µs for a link: copying the NREL
// 5 MW deck (28 files) took 3-22 ms of CPU per job, linking it 0.6-0.7 ms
// (docs/benchmarks.md).
// A link is never written through: under bubblewrap in/ is mounted
// read-only (bwrapArgs); without a sandbox the child runs as the worker's
// user, who can write the store anyway, and the solver only reads its
// inputs. A recipe's run is written by the child into prepared/ beside in/.
func (w *Worker) stageInputs(ctx context.Context, inputKey, in, out string) error {
	src, release, err := w.cfg.Jobs.Trees().Open(ctx, inputKey)
	if err != nil {
		return err
	}
	defer release()
	if err := os.MkdirAll(filepath.Dir(in), 0o700); err != nil {
		return err
	}
	if err := linkTree(src, in); err != nil {
		return err
	}
	return os.MkdirAll(out, 0o700)
}

// linkTree recreates the directories of src under dst and hard-links (or,
// when linking fails, copies) its regular files; other entries are refused.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case !d.Type().IsRegular():
			return fmt.Errorf("input %s is not a regular file", rel)
		}
		if os.Link(p, target) == nil {
			return nil
		}
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", filepath.Base(src), err)
	}
	return out.Close()
}

// childResult is how the child process ended.
type childResult struct {
	startErr    error
	exitCode    int
	signal      syscall.Signal
	cpuExceeded bool
	timedOut    bool
	cancelled   bool // the user cancelled
	lost        bool // the attempt is no longer the job's current one
	failure     string
	log         string
	checks      []turbinesim.RunCheck // the plausibility checks it failed (nil: unchecked)
}

// runChild runs the simulate child and relays its progress until it ends.
// extra are further arguments (recipeArgs); boxes, when not "", is the
// batch's box folder the child may write.
func (w *Worker) runChild(ctx context.Context, log *slog.Logger, job *turbinesim.Job, dir, in, out string, extra []string, boxes string) childResult {
	lim := w.cfg.Limits
	args := []string{
		filepath.Join(in, filepath.FromSlash(job.Entrypoint)), "-o", out,
		"-tmax", strconv.FormatFloat(job.TMax, 'g', -1, 64), "-progress", "json",
		"-rlimit-cpu", strconv.FormatInt(int64(lim.CPUTime.Seconds()+0.999), 10),
		"-rlimit-as", strconv.FormatUint(lim.MemoryBytes, 10),
		"-rlimit-fsize", strconv.FormatUint(lim.OutputBytes, 10),
		"-rlimit-nproc", strconv.FormatUint(lim.Processes, 10),
		// The deck may name files of its own attempt only (its inputs,
		// and a recipe's prepared run beside them).
		"-root", dir,
	}
	args = append(args, extra...)
	argv := append(append([]string{}, w.cfg.Command...), args...)
	if w.bwrap != "" {
		argv = append(w.bwrapArgs(dir, in, boxes), argv...)
	}

	runCtx, cancelRun := context.WithTimeout(ctx, lim.WallTime)
	defer cancelRun()
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = dir
	// No inherited environment: the child never sees DATABASE_URL or
	// any other secret of the worker.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LANG=C.UTF-8"}
	// Own process group, killed whole on cancel; Pdeathsig kills the child
	// if the worker dies (the creating thread is locked below).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stderr tailBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return childResult{startErr: err}
	}

	var (
		mu       sync.Mutex
		progress ProgressLine
		checks   []turbinesim.RunCheck
		stopWhy  string
	)
	// Start on a locked OS thread: Pdeathsig fires when the creating thread
	// exits (golang/go#27505), so the thread must live as long as the child.
	started := make(chan error, 1)
	waited := make(chan error, 1)
	go func() {
		// Deliberately never unlocked: the thread ends with this goroutine,
		// after Wait.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		w.children.Store(cmd.Process.Pid, struct{}{})
		defer w.children.Delete(cmd.Process.Pid)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if line := sc.Bytes(); bytes.HasPrefix(line, []byte(`{"checks":`)) {
				var c ChecksLine
				if json.Unmarshal(line, &c) == nil && c.Checks != nil {
					mu.Lock()
					checks = c.Checks
					mu.Unlock()
				}
				continue
			}
			var p ProgressLine
			if json.Unmarshal(sc.Bytes(), &p) == nil {
				mu.Lock()
				progress = p
				mu.Unlock()
			}
		}
		// A line beyond the buffer stops the scanner: the rest is
		// drained, so the child never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, stdout)
		waited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return childResult{startErr: err}
	}

	tick := time.NewTicker(w.cfg.ProgressInterval)
	defer tick.Stop()
	var waitErr error
loop:
	for {
		select {
		case waitErr = <-waited:
			break loop
		case <-tick.C:
			mu.Lock()
			p := progress
			mu.Unlock()
			var eta *float64
			if p.TMax > 0 && p.ETASeconds >= 0 {
				eta = &p.ETASeconds
			}
			status, err := w.cfg.Jobs.ReportProgress(ctx, job.ID, job.Attempt, p.SimTime, eta)
			if err != nil {
				log.Warn("writing progress", "err", err)
				continue
			}
			switch status {
			case turbinesim.JobCancelling:
				stopWhy = "cancelled"
				cancelRun()
			case "":
				stopWhy = "lost"
				cancelRun()
			}
		}
	}

	mu.Lock()
	res := childResult{log: stderr.String(), checks: checks}
	mu.Unlock()
	res.log = strings.ReplaceAll(res.log, in+string(filepath.Separator), "")
	res.log = strings.ReplaceAll(res.log, filepath.Join(dir, preparedDir)+string(filepath.Separator), "")
	res.log = strings.ReplaceAll(res.log, dir, ".")
	switch {
	case stopWhy == "cancelled":
		res.cancelled = true
		return res
	case stopWhy == "lost":
		res.lost = true
		return res
	case errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		res.timedOut = true
		return res
	}
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.signal = ws.Signal()
			if pst, ok := exitErr.SysUsage().(*syscall.Rusage); ok && res.signal == syscall.SIGKILL {
				used := time.Duration(pst.Utime.Nano() + pst.Stime.Nano())
				res.cpuExceeded = used >= lim.CPUTime
			}
		} else {
			res.exitCode = exitErr.ExitCode()
		}
		res.failure = failureDetail(res.log)
	} else if waitErr != nil {
		res.startErr = waitErr
	}
	return res
}

// bwrapArgs confines the child: no network or other namespaces, a
// read-only view of the system, a private /tmp, and only its attempt
// directory writable (and its batch's box folder, boxes, when not ""); its
// inputs (in, hard links into the blob store) are read-only.
func (w *Worker) bwrapArgs(dir, in, boxes string) []string {
	a := []string{w.bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
		"--ro-bind", "/usr", "/usr", "--ro-bind-try", "/lib", "/lib", "--ro-bind-try", "/lib64", "/lib64",
		"--ro-bind-try", "/bin", "/bin", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"}
	exe := w.cfg.Command[0]
	if boxes != "" {
		a = append(a, "--bind", boxes, boxes)
	}
	a = append(a, "--ro-bind", exe, exe, "--bind", dir, dir, "--ro-bind", in, in, "--chdir", dir,
		"--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", dir, "--")
	return a
}

// outOfMemory reports whether the child's log is the Go runtime's fatal
// error on an allocation refused by RLIMIT_AS.
func outOfMemory(log string) bool {
	// "fatal error: out of memory" (a large block, after "runtime: out of
	// memory: cannot allocate N-byte block"), "fatal error: runtime: out
	// of memory" or "... cannot allocate memory" (the heap's own metadata).
	return strings.Contains(log, "fatal error: out of memory") ||
		strings.Contains(log, "fatal error: runtime: out of memory") ||
		strings.Contains(log, "fatal error: runtime: cannot allocate memory")
}

// solverDefect reports whether the child's log shows a Go panic: the
// runtime's own report ("panic: ..." at the start of a line, exit 2) or a
// panic coupling.Run recovered, which carries the goroutine's stack
// ("goroutine N [running]:" at the start of a line). Deck text cannot
// start a line of the log, so a deck cannot pass itself off as a defect.
// Running out of the run's memory limit also prints goroutine stacks;
// that is the run's size, not a defect.
func solverDefect(log string) bool {
	if outOfMemory(log) {
		return false
	}
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(strings.TrimSpace(l), "]:") {
			return true
		}
	}
	return false
}

// panicLine is the log line naming the panic, without the command prefix.
func panicLine(log string) string {
	for _, l := range strings.Split(log, "\n") {
		if i := strings.Index(l, "panic: "); i >= 0 {
			return strings.TrimSpace(l[i:])
		}
	}
	return "panic"
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// failureDetail is the user-facing reason of a failed run: the solver's
// last error line (the deck layer's message names file, line and
// variable), without the "turbined: " prefix.
func failureDetail(log string) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "t = ") {
			continue
		}
		l = strings.TrimPrefix(l, "turbined: ")
		if len(l) > 2000 {
			l = l[:2000] + "…"
		}
		return l
	}
	return "the solver failed without a message"
}

// listOutputs returns the slash-separated names of the regular files under
// out and their total size; any other kind of entry is an error.
func listOutputs(out string) ([]string, uint64, error) {
	var files []string
	var size uint64
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("output %s is not a regular file", d.Name())
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		files = append(files, path.Clean(filepath.ToSlash(rel)))
		size += uint64(info.Size())
		return nil
	})
	return files, size, err
}

// tailBuffer keeps the last 64 KiB written to it (the solver log) and its
// first line (up to 4 KiB), which for a recipe's run names the generated
// wind and must survive a long log.
type tailBuffer struct {
	mu        sync.Mutex
	head      []byte
	headDone  bool
	buf       bytes.Buffer
	truncated bool
}

const (
	tailLimit = 64 << 10
	headLimit = 4 << 10
)

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.headDone {
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			t.head = append(t.head, p[:i+1]...)
			t.headDone = true
		} else {
			t.head = append(t.head, p...)
		}
		if len(t.head) >= headLimit {
			t.head = t.head[:headLimit]
			t.headDone = true
		}
	}
	t.buf.Write(p)
	if t.buf.Len() > 2*tailLimit {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-tailLimit:]...)
		t.buf.Reset()
		t.buf.Write(keep)
		t.truncated = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf.Bytes()
	s := string(b)
	if t.truncated || len(b) > tailLimit {
		s = string(t.head) + "[…]\n" + string(b[max(0, len(b)-tailLimit):])
	}
	// The text progress line uses carriage returns; keep the log readable.
	return strings.ReplaceAll(s, "\r", "\n")
}
