package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/infra/pgcluster"
)

// database is the pool plus, when we started it, the private cluster.
type database struct {
	*db.DB
	cluster *pgcluster.Cluster
	logFile *os.File
}

// supervise restarts the private cluster whenever it exits on its own,
// until ctx ends (pgcluster.Cluster.Supervise); an external server
// (DATABASE_URL) is the operator's to supervise.
func (d *database) supervise(ctx context.Context, log *slog.Logger) {
	if d.cluster != nil {
		go d.cluster.Supervise(ctx, log)
	}
}

// Close closes the pool, then stops the private cluster (fast shutdown).
func (d *database) Close() error {
	err := d.DB.Close()
	if d.cluster != nil {
		if stopErr := d.cluster.Stop(); stopErr != nil && err == nil {
			err = stopErr
		}
	}
	if d.logFile != nil {
		d.logFile.Close()
	}
	return err
}

// openDatabase connects to DATABASE_URL, or starts the private cluster in
// DATA_DIR/pg (initialised on first use, reused afterwards) and connects to
// its "turbinesim" database.
func openDatabase(ctx context.Context, env *Env, cfg *Config) (*database, error) {
	if cfg.DatabaseURL != "" {
		pool, err := db.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, err
		}
		return &database{DB: pool}, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", cfg.DataDir, err)
	}
	logPath := filepath.Join(cfg.DataDir, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", logPath, err)
	}
	env.Log.Info("starting private PostgreSQL", "dir", filepath.Join(cfg.DataDir, "pg"), "log", logPath)
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(cfg.DataDir, "pg"), Durable: true, Log: logFile})
	if err != nil {
		logFile.Close()
		return nil, fmt.Errorf("%w (server log: %s)", err, logPath)
	}
	fail := func(err error) (*database, error) {
		_ = cluster.Stop()
		logFile.Close()
		return nil, err
	}
	if err := cluster.CreateDatabase(ctx, "turbinesim"); err != nil {
		return fail(err)
	}
	pool, err := db.Open(ctx, cluster.URL("turbinesim"))
	if err != nil {
		return fail(err)
	}
	env.Log.Info("private PostgreSQL ready", "port", cluster.Port())
	return &database{DB: pool, cluster: cluster, logFile: logFile}, nil
}

// runMigrate: `turbined migrate`.
func runMigrate(ctx context.Context, env *Env, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("migrate takes no arguments")
	}
	cfg, err := loadConfig(env.Getenv)
	if err != nil {
		return err
	}
	d, err := openDatabase(ctx, env, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	res, err := d.Migrate(ctx)
	for _, r := range res {
		fmt.Fprintf(env.Stdout, "applied %s (%s)\n", r.Source.Path, r.Duration)
	}
	if err != nil {
		return err
	}
	if len(res) == 0 {
		fmt.Fprintln(env.Stdout, "database is up to date")
	}
	return nil
}
