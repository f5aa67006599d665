package db

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// Queue is the River client over the process's database/sql pool
// (riverdatabasesql, poll-only: go-stack.md §2). Every process that
// submits jobs holds one; worker processes add workers to it.
type Queue = river.Client[*sql.Tx]

// SimulationArgs is the payload of a queued simulation: only the job id;
// everything else is read from the jobs row when the job is worked, so a
// retried or rescued job always runs the row's current settings.
type SimulationArgs struct {
	JobID string `json:"job_id"`
}

// Kind implements river.JobArgs.
func (SimulationArgs) Kind() string { return "simulation" }

// QueueConfig configures the River client.
type QueueConfig struct {
	// Workers is the number of simulations run at once by this process;
	// 0 makes an insert-only client (no workers started).
	Workers int
	// Worker executes simulations; required when Workers > 0.
	Worker river.Worker[SimulationArgs]
	// JobTimeout bounds one attempt (the wall-time limit plus a margin).
	JobTimeout time.Duration
	// RescueAfter is when a job whose worker vanished is retried; it must
	// exceed JobTimeout (River refuses otherwise).
	RescueAfter time.Duration
	// PollInterval is how often idle workers look for work (default
	// DefaultPollInterval).
	PollInterval time.Duration
	// RetryDelay is the delay before retry n (times n); default 2 s.
	RetryDelay time.Duration
	Logger     *slog.Logger
}

// DefaultPollInterval is how often an idle worker process asks for work.
// River over database/sql cannot LISTEN, so a job submitted to idle
// workers waits up to this long; River's default of 1 s left one of two
// workers idle for up to a second at the start of a batch
// (docs/benchmarks.md). An empty poll is one indexed query.
const DefaultPollInterval = 200 * time.Millisecond

// retryPolicy retries after n·delay: simulations are retried because a
// worker or machine failed, not because of a transient remote error, so
// River's default attempt⁴ back-off (16 s, 81 s, …) only adds latency.
type retryPolicy struct{ delay time.Duration }

func (p retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(time.Duration(max(job.Attempt, 1)) * p.delay)
}

// MigrateQueue creates or upgrades River's tables.
func MigrateQueue(ctx context.Context, sqlDB *sql.DB) error {
	m, err := rivermigrate.New(riverdatabasesql.New(sqlDB), nil)
	if err != nil {
		return fmt.Errorf("db: queue migrator: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("db: migrating queue tables: %w", err)
	}
	return nil
}

// NewQueue returns a River client on db. Call Start to run its workers.
func NewQueue(db *DB, cfg QueueConfig) (*Queue, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RetryDelay <= 0 {
		cfg.RetryDelay = 2 * time.Second
	}
	rc := &river.Config{
		PollOnly:          true,
		Logger:            cfg.Logger,
		RetryPolicy:       retryPolicy{cfg.RetryDelay},
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     min(cfg.PollInterval, 100*time.Millisecond),
		JobTimeout:        cfg.JobTimeout,
	}
	if cfg.RescueAfter > 0 {
		rc.RescueStuckJobsAfter = cfg.RescueAfter
	}
	if rc.FetchPollInterval == 0 {
		rc.FetchPollInterval = DefaultPollInterval
		rc.FetchCooldown = 50 * time.Millisecond
	}
	if cfg.Workers > 0 {
		if cfg.Worker == nil {
			return nil, fmt.Errorf("db: queue with %d workers but no Worker", cfg.Workers)
		}
		workers := river.NewWorkers()
		if err := river.AddWorkerSafely(workers, cfg.Worker); err != nil {
			return nil, fmt.Errorf("db: registering the simulation worker: %w", err)
		}
		rc.Workers = workers
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}}
	}
	q, err := river.NewClient(riverdatabasesql.New(db.DB.DB), rc)
	if err != nil {
		return nil, fmt.Errorf("db: queue client: %w", err)
	}
	return q, nil
}
