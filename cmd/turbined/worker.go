package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/infra/blobstore"
	"github.com/turbinesim/turbinesim/infra/runner"
)

// jobConfig is the configuration of the job queue and its workers, read
// from the environment (README.md lists the variables).
type jobConfig struct {
	Workers  int           // WORKERS: simulations at once in this process; default one per core; 0 in serve: none
	WallTime time.Duration // JOB_WALL_TIME: wall-time limit of one run (default 1h)
	Memory   uint64        // JOB_MEMORY_BYTES: address-space limit of the solver (default 4 GiB)
	Output   uint64        // JOB_OUTPUT_BYTES: output size limit (default 1 GiB)
	Sandbox  string        // JOB_SANDBOX: auto (bubblewrap when installed), bwrap or none
	Grace    time.Duration // JOB_SHUTDOWN_GRACE: how long a shutdown lets running runs finish (default 10s)
	BlobDir  string        // BLOB_DIR: blob store of inputs and outputs (default DATA_DIR/blobs)
	WorkDir  string        // WORK_DIR: attempt directories (default DATA_DIR/work)
	// S3 replaces every local blob directory with prefixes of one bucket
	// when BLOB_S3_ENDPOINT is set (cmd/turbined/blobs.go); nil: local.
	S3 *blobstore.S3Config
}

// minJobMemoryBytes is the smallest address-space limit of a run that
// starts reliably (see loadJobConfig).
const minJobMemoryBytes = 2 << 30

func loadJobConfig(getenv func(string) string, dataDir string) (*jobConfig, error) {
	c := &jobConfig{Workers: runtime.NumCPU(), WallTime: time.Hour, Sandbox: getenv("JOB_SANDBOX"),
		BlobDir: getenv("BLOB_DIR"), WorkDir: getenv("WORK_DIR")}
	if v := getenv("WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1024 {
			return nil, fmt.Errorf("WORKERS=%q: want an integer from 0 to 1024", v)
		}
		c.Workers = n
	}
	c.Grace = 10 * time.Second
	if v := getenv("JOB_SHUTDOWN_GRACE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Hour {
			return nil, fmt.Errorf("JOB_SHUTDOWN_GRACE=%q: want a duration from 0s to 1h, e.g. 30s", v)
		}
		c.Grace = d
	}
	if v := getenv("JOB_WALL_TIME"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return nil, fmt.Errorf("JOB_WALL_TIME=%q: want a duration of at least 1s, e.g. 2h", v)
		}
		c.WallTime = d
	}
	// JOB_MEMORY_BYTES is an address-space limit (RLIMIT_AS), and the Go
	// runtime of the solver reserves address space well beyond its heap:
	// measured on 2026-11-24, a 0.1-s NREL 5 MW run started 0 of 4 times
	// under 700 MB and not every time at 1–1.5 GiB, always from 1.8 GiB.
	// Below 2 GiB runs would fail at random, so it is refused.
	for _, v := range []struct {
		name string
		dst  *uint64
		min  uint64
	}{{"JOB_MEMORY_BYTES", &c.Memory, minJobMemoryBytes}, {"JOB_OUTPUT_BYTES", &c.Output, 1 << 20}} {
		if s := getenv(v.name); s != "" {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || n < v.min {
				return nil, fmt.Errorf("%s=%q: want a byte count of at least %d (%d MiB)", v.name, s, v.min, v.min>>20)
			}
			*v.dst = n
		}
	}
	if c.BlobDir == "" {
		c.BlobDir = filepath.Join(dataDir, "blobs")
	}
	if c.WorkDir == "" {
		c.WorkDir = filepath.Join(dataDir, "work")
	}
	var err error
	if c.BlobDir, err = absDir("BLOB_DIR", c.BlobDir); err != nil {
		return nil, err
	}
	if c.WorkDir, err = absDir("WORK_DIR", c.WorkDir); err != nil {
		return nil, err
	}
	s3, err := loadS3Config(getenv, c.WorkDir)
	if err != nil {
		return nil, err
	}
	c.S3 = s3
	return c, nil
}

// jobStack is the job service of a process and, when it runs workers, the
// River client executing them.
type jobStack struct {
	jobs    *db.JobService
	trees   turbinesim.TreeStore
	workers *db.Queue // nil without workers
	worker  *runner.Worker
	grace   time.Duration
	sandbox bool
}

// startJobs creates River's tables if needed, builds the job service and,
// with jc.Workers > 0, starts that many workers.
func startJobs(ctx context.Context, env *Env, d *db.DB, jc *jobConfig) (*jobStack, error) {
	if err := db.MigrateQueue(ctx, d.DB.DB); err != nil {
		return nil, err
	}
	trees, err := openTreeStore(ctx, jc.S3, "jobs", jc.BlobDir)
	if err != nil {
		return nil, err
	}
	inserter, err := db.NewQueue(d, db.QueueConfig{Logger: env.Log})
	if err != nil {
		return nil, err
	}
	st := &jobStack{jobs: db.NewJobService(d, trees, db.NewCapService(d, nil), inserter), trees: trees}
	if jc.Workers == 0 {
		return st, nil
	}
	w, err := runner.New(runner.Config{
		Jobs: st.jobs, WorkDir: jc.WorkDir, Sandbox: jc.Sandbox, Logger: env.Log,
		Limits: runner.Limits{WallTime: jc.WallTime, MemoryBytes: jc.Memory, OutputBytes: jc.Output},
	})
	if err != nil {
		return nil, err
	}
	st.sandbox, st.worker, st.grace = w.Sandboxed(), w, jc.Grace
	// A job whose worker vanished is handed to another worker once its
	// heartbeat is 30 s old (Rescue, in every worker process); River's
	// rescuer, after the longest an attempt may run, is the backstop.
	st.workers, err = db.NewQueue(d, db.QueueConfig{Workers: jc.Workers, Worker: w, Logger: env.Log,
		JobTimeout: jc.WallTime + 2*time.Minute, RescueAfter: jc.WallTime + 5*time.Minute})
	if err != nil {
		return nil, err
	}
	if err := st.workers.Start(ctx); err != nil {
		return nil, fmt.Errorf("starting workers: %w", err)
	}
	go w.Rescue(ctx)
	go st.sweepLostJobs(ctx, env)
	env.Log.Info("job workers started", "workers", jc.Workers, "sandbox", st.sandbox, "wall_time", jc.WallTime)
	return st, nil
}

// sweepLostJobs finishes jobs River gave up on, every half minute.
func (st *jobStack) sweepLostJobs(ctx context.Context, env *Env) {
	t := time.NewTicker(30 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := st.jobs.FailLostJobs(ctx); err != nil {
				env.Log.Warn("sweeping lost jobs", "err", err)
			} else if n > 0 {
				env.Log.Warn("jobs failed after every attempt was lost", "count", n)
			}
		}
	}
}

// stop drains the workers within a bounded time (runner.Worker.Shutdown):
// runs that end within JOB_SHUTDOWN_GRACE finish; the others' solver
// children are stopped and their jobs requeued without using an attempt,
// so the next start (or another worker) runs them again.
func (st *jobStack) stop(env *Env) {
	if st.workers == nil {
		return
	}
	env.Log.Info("stopping workers", "grace", st.grace)
	st.worker.Shutdown(st.workers, st.grace)
}

// runWorker: `turbined worker`, workers only (no HTTP). Any machine that
// reaches the database (DATABASE_URL) and the blob store (BLOB_DIR, a
// shared file system) adds capacity this way.
func runWorker(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("worker takes no arguments; configure it with environment variables")
	}
	cfg, err := loadConfig(env.Getenv)
	if err != nil {
		return err
	}
	jc, err := loadJobConfig(env.Getenv, cfg.DataDir)
	if err != nil {
		return err
	}
	if jc.Workers == 0 {
		jc.Workers = runtime.NumCPU()
	}
	d, err := openDatabase(ctx, env, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := d.Migrate(ctx); err != nil {
		return err
	}
	st, err := startJobs(ctx, env, d.DB, jc)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "turbined worker: %d workers running; Ctrl-C to stop\n", jc.Workers)
	<-ctx.Done()
	env.Log.Info("stopping workers")
	st.stop(env)
	return nil
}
