// Package db implements the service interfaces of package turbinesim on
// PostgreSQL with sqlx over lib/pq. SQL is written out in each method.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/migrations"
)

// DB is the one connection pool of the process, shared by the services,
// the session store and the migrator.
type DB struct {
	*sqlx.DB
	// migrateDSN, when set, is the server's address without the session
	// timeouts: migrations may hold locks and run longer than a request.
	migrateDSN string
}

// Timeouts are PostgreSQL session settings of every pooled connection. They
// keep one slow statement or one held lock from exhausting the pool: a
// statement waiting longer than Lock for a lock, or running longer than
// Statement, fails (and the request answers 503 with Retry-After) instead
// of holding its connection while other requests queue behind it; a
// transaction left idle longer than IdleInTransaction is ended by the
// server, releasing its locks. Zero leaves PostgreSQL's default (none).
type Timeouts struct {
	Statement         time.Duration
	Lock              time.Duration
	IdleInTransaction time.Duration
}

// DefaultTimeouts suit the service's requests, each a handful of short
// statements: 15 s for a statement, 2 s for a lock, 1 min idle in a
// transaction.
var DefaultTimeouts = Timeouts{Statement: 15 * time.Second, Lock: 2 * time.Second, IdleInTransaction: time.Minute}

// Open opens a pool on dsn (a lib/pq URL or key=value string) with the
// DefaultTimeouts and checks that the server answers.
func Open(ctx context.Context, dsn string) (*DB, error) {
	return OpenWith(ctx, dsn, DefaultTimeouts)
}

// OpenWith is Open with other session timeouts.
func OpenWith(ctx context.Context, dsn string, t Timeouts) (*DB, error) {
	withTimeouts, err := sessionTimeouts(dsn, t)
	if err != nil {
		return nil, fmt.Errorf("db: opening: %w", err)
	}
	sqlDB, err := sql.Open("postgres", withTimeouts)
	if err != nil {
		return nil, fmt.Errorf("db: opening: %w", err)
	}
	sqlDB.SetMaxOpenConns(25)
	sqlDB.SetMaxIdleConns(25)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	db := New(sqlDB)
	db.migrateDSN = dsn
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("db: connecting: %w", err)
	}
	return db, nil
}

// sessionTimeouts adds the timeouts to dsn as run-time parameters, which
// lib/pq sends in the start-up message of each connection (PostgreSQL
// documentation, "Client Connection Defaults": statement_timeout,
// lock_timeout, idle_in_transaction_session_timeout, in milliseconds).
func sessionTimeouts(dsn string, t Timeouts) (string, error) {
	params := [][2]string{}
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"statement_timeout", t.Statement}, {"lock_timeout", t.Lock}, {"idle_in_transaction_session_timeout", t.IdleInTransaction}} {
		if p.d > 0 {
			params = append(params, [2]string{p.name, strconv.FormatInt(p.d.Milliseconds(), 10)})
		}
	}
	if len(params) == 0 {
		return dsn, nil
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", errors.New("the database URL cannot be parsed")
		}
		q := u.Query()
		for _, p := range params {
			q.Set(p[0], p[1])
		}
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	for _, p := range params {
		dsn += " " + p[0] + "=" + p[1]
	}
	return dsn, nil
}

// New wraps an open *sql.DB (for example one from pgtestdb).
func New(sqlDB *sql.DB) *DB {
	return &DB{DB: sqlx.NewDb(sqlDB, "postgres")}
}

// Migrate applies every pending embedded migration. Migrations are
// numbered by area (identity 0001x, turbines 00020, jobs 00030, ...), so a
// later change to an area adds a number below versions a database may
// already have; those are applied too (goose's out-of-order mode) instead
// of stopping the server. Each migration only adds to the schema, so the
// order between areas does not matter.
func (db *DB) Migrate(ctx context.Context) ([]*goose.MigrationResult, error) {
	pool := db.DB.DB
	if db.migrateDSN != "" {
		// Without the request timeouts: a migration may wait for locks and
		// rewrite large tables.
		raw, err := sql.Open("postgres", db.migrateDSN)
		if err != nil {
			return nil, fmt.Errorf("db: opening for migrations: %w", err)
		}
		defer raw.Close()
		pool = raw
	}
	p, err := goose.NewProvider(goose.DialectPostgres, pool, migrations.FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return nil, fmt.Errorf("db: loading migrations: %w", err)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return res, fmt.Errorf("db: migrating: %w", err)
	}
	return res, nil
}

// Ready reports whether the database answers a trivial query.
func (db *DB) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var one int
	if err := db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return translate(err, "checking the database")
	}
	return nil
}

// translate turns a driver error into an application error: connection
// failures become EUNAVAILABLE (so that an outage is a 503, never a 401 or a
// 404), a missing row ENOTFOUND, a unique violation ECONFLICT; anything else
// is wrapped with what was being done and stays internal.
func translate(err error, doing string) error {
	if err == nil {
		return nil
	}
	var appErr *turbinesim.Error
	switch {
	case errors.As(err, &appErr):
		return err
	case errors.Is(err, sql.ErrNoRows):
		return turbinesim.WrapError(turbinesim.ENOTFOUND, "not found", err)
	case isUnavailable(err):
		return turbinesim.WrapError(turbinesim.EUNAVAILABLE, "database unavailable", fmt.Errorf("%s: %w", doing, err))
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		return turbinesim.WrapError(turbinesim.ECONFLICT, "already exists", err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// isUnavailable recognises the ways a lost or refused connection surfaces
// through database/sql and lib/pq.
func isUnavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch pqErr.Code.Class() {
		case "08", // connection exception
			"53", // insufficient resources (too many connections, out of memory, disk full)
			"57": // operator intervention: admin shutdown, crash shutdown, cannot connect now; statement_timeout (57014)
			return true
		}
		switch pqErr.Code {
		case "55P03", // lock_not_available: lock_timeout passed
			"25P03": // idle_in_transaction_session_timeout ended the session
			return true
		}
	}
	return false
}

func isNotFound(err error) bool { return turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND }
