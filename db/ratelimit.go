package db

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/turbinesim/turbinesim"
)

// RateLimiter implements turbinesim.RateLimiter with fixed one-minute
// windows in PostgreSQL, so that every server process sharing the database
// enforces the same limits.
type RateLimiter struct{ db *DB }

var _ turbinesim.RateLimiter = (*RateLimiter)(nil)

// NewRateLimiter returns the PostgreSQL rate limiter.
func NewRateLimiter(db *DB) *RateLimiter { return &RateLimiter{db: db} }

// RateWindow is the length of a counting window.
const RateWindow = time.Minute

// Allow implements turbinesim.RateLimiter. One transaction increments the
// user's window, then the organization's (always in that order, so there is
// no lock cycle), each with a single INSERT ... ON CONFLICT DO UPDATE ...
// RETURNING; the row lock of each upsert is held to commit. When either
// count passes its limit the transaction rolls back, so a refused request
// consumes no quota and the accepted count is exact under concurrency.
func (r *RateLimiter) Allow(ctx context.Context, userID, orgID string, limits turbinesim.RateLimits, now time.Time) (*turbinesim.RateDecision, error) {
	window := now.UTC().Truncate(RateWindow)
	reset := window.Add(RateWindow).Sub(now)
	tx, err := r.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting rate count")
	}
	defer tx.Rollback()

	count := func(bucket string) (int, error) {
		var n int
		err := tx.GetContext(ctx, &n, `
			INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES ($1, $2, 1)
			ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
			RETURNING count`, bucket, window)
		return n, translate(err, "counting request")
	}
	refuse := func(limit int, scope string) *turbinesim.RateDecision {
		return &turbinesim.RateDecision{Limit: limit, Remaining: 0, Reset: reset, Scope: scope}
	}
	nUser, err := count("u:" + userID)
	if err != nil {
		return nil, err
	}
	if nUser > limits.PerUser {
		return refuse(limits.PerUser, "user"), nil
	}
	nOrg, err := count("o:" + orgID)
	if err != nil {
		return nil, err
	}
	if nOrg > limits.PerOrg {
		return refuse(limits.PerOrg, "organization"), nil
	}
	// Old windows go in the same transaction, at most once per window and
	// process-independent: only the request that opens an org's window
	// (count 1) sweeps, and only windows older than the previous one.
	if nOrg == 1 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_limit_windows WHERE window_start < $1`, window.Add(-RateWindow)); err != nil {
			return nil, translate(err, "sweeping old rate windows")
		}
	}
	if err := tx.Commit(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return nil, translate(err, "committing rate count")
	}
	d := &turbinesim.RateDecision{Allowed: true, Limit: limits.PerUser, Remaining: limits.PerUser - nUser, Reset: reset}
	if rest := limits.PerOrg - nOrg; rest < d.Remaining {
		d.Limit, d.Remaining = limits.PerOrg, rest
	}
	return d, nil
}
