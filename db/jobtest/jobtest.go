// Package jobtest gives job tests a real PostgreSQL database with the
// service's migrations and River's queue tables, cloned per test from one
// template (db/dbtest's cluster; call dbtest.Main from TestMain).
package jobtest

import (
	"context"
	"database/sql"
	"math"
	"testing"

	"github.com/peterldowns/pgtestdb"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/db/dbtest"
)

// New returns a fresh database with every migration and River's tables.
func New(t testing.TB) *db.DB {
	t.Helper()
	return db.New(pgtestdb.New(t, dbtest.Config(t), Migrator()))
}

// NewURL is New for code that opens its own pool (a worker subprocess).
func NewURL(t testing.TB) string {
	t.Helper()
	return pgtestdb.Custom(t, dbtest.Config(t), Migrator()).URL()
}

// Migrator applies the goose migrations, then River's.
func Migrator() pgtestdb.Migrator { return withQueue{dbtest.Migrator()} }

type withQueue struct{ base pgtestdb.Migrator }

func (m withQueue) Hash() (string, error) {
	h, err := m.base.Hash()
	return h + "+river-v0.41.0", err
}

func (m withQueue) Migrate(ctx context.Context, sqlDB *sql.DB, conf pgtestdb.Config) error {
	if err := m.base.Migrate(ctx, sqlDB, conf); err != nil {
		return err
	}
	return db.MigrateQueue(ctx, sqlDB)
}

// Work is the work of a test run of tMax simulated seconds as a deck with
// DT 0.01 s and 200 model nodes would have it: one token per started
// simulated second (turbinesim.RunWork), which keeps the tests' prices
// easy to check by hand.
func Work(tMax float64) turbinesim.RunWork {
	return turbinesim.RunWork{Steps: int64(math.Ceil(tMax*100 - 1e-9)), ModelSize: 200}
}
