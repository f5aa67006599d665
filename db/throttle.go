package db

import (
	"context"
	"time"

	"github.com/lib/pq"

	"github.com/turbinesim/turbinesim"
)

// LoginThrottle implements turbinesim.LoginThrottle in PostgreSQL (table
// login_backoff), so that every server process sharing the database
// enforces the same back-off.
type LoginThrottle struct {
	db *DB
	// FreeFailures is the number of failures of one (account, address)
	// pair that cost nothing (mistyped passwords); each further failure
	// backs the pair off for BaseDelay·2^(failures−FreeFailures), at most
	// MaxDelay. Forget is how long a pair's failures are remembered after
	// its last one.
	FreeFailures int
	BaseDelay    time.Duration
	MaxDelay     time.Duration
	Forget       time.Duration
}

var _ turbinesim.LoginThrottle = (*LoginThrottle)(nil)

// NewLoginThrottle allows 5 free failures per (account, address) pair, then
// backs the pair off for 1 s, 2 s, 4 s, ... up to 15 minutes per failure;
// a pair's failures are forgotten a day after its last one. One address
// thus gets about a hundred guesses a day at one account.
func NewLoginThrottle(db *DB) *LoginThrottle {
	return &LoginThrottle{db: db, FreeFailures: 5, BaseDelay: time.Second, MaxDelay: 15 * time.Minute, Forget: 24 * time.Hour}
}

// Check implements turbinesim.LoginThrottle.
func (l *LoginThrottle) Check(ctx context.Context, account, ip string, now time.Time) (time.Duration, error) {
	var until []time.Time
	err := l.db.SelectContext(ctx, &until, `
		SELECT locked_until FROM login_backoff WHERE account = $1 AND client = $2 AND locked_until > $3`,
		turbinesim.NormalizeEmail(account), ip, now)
	if err != nil {
		return 0, translate(err, "checking sign-in back-off")
	}
	if len(until) == 0 {
		return 0, nil
	}
	wait := until[0].Sub(now)
	return wait, turbinesim.Errorf(turbinesim.ERATELIMIT,
		"too many failed sign-in attempts for this account from this address; try again in %d seconds", int(wait.Seconds())+1)
}

// Fail implements turbinesim.LoginThrottle: one upsert, so concurrent
// failures of a pair all count. A pair whose last failure is older than
// Forget starts again from one.
func (l *LoginThrottle) Fail(ctx context.Context, account, ip string, now time.Time) error {
	var failures int
	err := l.db.GetContext(ctx, &failures, `
		INSERT INTO login_backoff AS b (account, client, failures, last_failure, locked_until)
		VALUES ($1, $2, 1, $3, $3)
		ON CONFLICT (account, client) DO UPDATE SET
		    failures = CASE WHEN b.last_failure < $3 - $4 * interval '1 microsecond' THEN 1 ELSE b.failures + 1 END,
		    last_failure = $3
		RETURNING failures`,
		turbinesim.NormalizeEmail(account), ip, now, l.Forget.Microseconds())
	if err != nil {
		return translate(err, "recording sign-in failure")
	}
	if over := failures - l.FreeFailures; over >= 0 {
		delay := l.MaxDelay
		if over < 20 { // beyond, the shift would overflow; MaxDelay is long passed
			delay = min(l.BaseDelay<<over, l.MaxDelay)
		}
		if _, err := l.db.ExecContext(ctx, `
			UPDATE login_backoff SET locked_until = greatest(locked_until, $3) WHERE account = $1 AND client = $2`,
			turbinesim.NormalizeEmail(account), ip, now.Add(delay)); err != nil {
			return translate(err, "backing off sign-in")
		}
	}
	if failures == 1 {
		// A new pair sweeps the forgotten ones (indexed on last_failure).
		if _, err := l.db.ExecContext(ctx, `DELETE FROM login_backoff WHERE last_failure < $1`, now.Add(-l.Forget)); err != nil {
			return translate(err, "sweeping sign-in failures")
		}
	}
	return nil
}

// Succeed implements turbinesim.LoginThrottle.
func (l *LoginThrottle) Succeed(ctx context.Context, account, ip string) error {
	_, err := l.db.ExecContext(ctx, `DELETE FROM login_backoff WHERE account = $1 AND client = $2`,
		turbinesim.NormalizeEmail(account), ip)
	return translate(err, "clearing sign-in failures")
}

// WindowThrottle implements turbinesim.RequestThrottle with fixed windows
// in PostgreSQL (table login_failures, which keeps its historical name).
// Each use names its buckets with Prefix, so password-reset requests and
// sign-ups never share a budget with each other.
type WindowThrottle struct {
	db     *DB
	Prefix string
	// PerSubject and PerClient are the requests allowed per Window.
	PerSubject, PerClient int
	Window                time.Duration
}

var _ turbinesim.RequestThrottle = (*WindowThrottle)(nil)

// NewPasswordResetThrottle counts password-reset requests: 5 per submitted
// address and 30 per client address in 15-minute windows, enough for a
// person who mistypes and few enough that nobody floods a mailbox.
func NewPasswordResetThrottle(db *DB) *WindowThrottle {
	return &WindowThrottle{db: db, Prefix: "reset", PerSubject: 5, PerClient: 30, Window: 15 * time.Minute}
}

// NewSignUpThrottle counts sign-ups: 5 per submitted address (each one
// sends mail to it) and 20 per client address an hour.
func NewSignUpThrottle(db *DB) *WindowThrottle {
	return &WindowThrottle{db: db, Prefix: "signup", PerSubject: 5, PerClient: 20, Window: time.Hour}
}

// Take implements turbinesim.RequestThrottle. One transaction increments
// both counts and rolls back when either passes its budget, so a refused
// request consumes nothing.
func (w *WindowThrottle) Take(ctx context.Context, subject, ip string, now time.Time) (time.Duration, error) {
	window := now.UTC().Truncate(w.Window)
	wait := window.Add(w.Window).Sub(now)
	tx, err := w.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, translate(err, "starting request count")
	}
	defer tx.Rollback()
	type bucket struct {
		key   string
		limit int
	}
	buckets := []bucket{{w.Prefix + ":i:" + ip, w.PerClient}}
	if subject != "" {
		buckets = append(buckets, bucket{w.Prefix + ":a:" + turbinesim.NormalizeEmail(subject), w.PerSubject})
	}
	for _, b := range buckets {
		var n int
		if err := tx.GetContext(ctx, &n, `
			INSERT INTO login_failures (bucket, window_start, count) VALUES ($1, $2, 1)
			ON CONFLICT (bucket, window_start) DO UPDATE SET count = login_failures.count + 1
			RETURNING count`, b.key, window); err != nil {
			return 0, translate(err, "counting request")
		}
		if n > b.limit {
			return wait, turbinesim.Errorf(turbinesim.ERATELIMIT, "too many requests; try again in %d seconds", int(wait.Seconds())+1)
		}
	}
	keys := pq.StringArray{}
	for _, b := range buckets {
		keys = append(keys, b.key)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM login_failures WHERE bucket = ANY($1) AND window_start < $2`, keys, window); err != nil {
		return 0, translate(err, "sweeping request counts")
	}
	return 0, translate(tx.Commit(), "committing request count")
}
