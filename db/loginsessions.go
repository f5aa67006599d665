package db

import (
	"context"
	"sort"
	"time"

	"github.com/turbinesim/turbinesim"
)

// LoginSessionService implements turbinesim.LoginSessionService on the
// user_sessions table (browser sessions) and refresh_tokens (families).
type LoginSessionService struct {
	db *DB
	// Lifetime and Idle mirror the session manager's absolute and idle
	// timeouts, so that sessions the cookie layer has expired are not
	// listed as live.
	Lifetime, Idle time.Duration
}

var _ turbinesim.LoginSessionService = (*LoginSessionService)(nil)

// touchEvery bounds how often a session's last use is written: at most
// once a minute per session, not on every request.
const touchEvery = time.Minute

// NewLoginSessionService returns the PostgreSQL session registry; lifetime
// and idle are the browser session's absolute and idle timeouts.
func NewLoginSessionService(db *DB, lifetime, idle time.Duration) *LoginSessionService {
	return &LoginSessionService{db: db, Lifetime: lifetime, Idle: idle}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// StartBrowserSession implements turbinesim.LoginSessionService.
func (s *LoginSessionService) StartBrowserSession(ctx context.Context, userID string, c turbinesim.ClientInfo, now time.Time) (string, error) {
	if !isUUID(userID) {
		return "", turbinesim.Errorf(turbinesim.EINVALID, "session needs a user")
	}
	var id string
	err := s.db.GetContext(ctx, &id, `
		INSERT INTO user_sessions (user_id, created_at, last_seen_at, ip, user_agent)
		VALUES ($1, $2, $2, $3, $4) RETURNING id`, userID, now, clip(c.IP, 64), clip(c.UserAgent, 400))
	return id, translate(err, "recording browser session")
}

var errSessionEnded = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "this session was signed out; sign in again")

// TouchBrowserSession implements turbinesim.LoginSessionService in one
// round trip: the check, and the write of the last use when the stored
// one is older than touchEvery.
func (s *LoginSessionService) TouchBrowserSession(ctx context.Context, id, userID string, c turbinesim.ClientInfo, now time.Time) error {
	if !isUUID(id) || !isUUID(userID) {
		return errSessionEnded
	}
	var n int
	err := s.db.GetContext(ctx, &n, `
		WITH live AS (
			SELECT id FROM user_sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL
		), touched AS (
			UPDATE user_sessions SET last_seen_at = $3, ip = $4, user_agent = $5
			 WHERE id IN (SELECT id FROM live) AND last_seen_at < $6
			RETURNING id
		)
		SELECT count(*) FROM live`, id, userID, now, clip(c.IP, 64), clip(c.UserAgent, 400), now.Add(-touchEvery))
	if err != nil {
		return translate(err, "checking browser session")
	}
	if n == 0 {
		return errSessionEnded
	}
	return nil
}

// EndBrowserSession implements turbinesim.LoginSessionService.
func (s *LoginSessionService) EndBrowserSession(ctx context.Context, id string, now time.Time) error {
	if !isUUID(id) {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `UPDATE user_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, id, now)
	return translate(err, "ending browser session")
}

// ListLoginSessions implements turbinesim.LoginSessionService. Sessions
// and families started before the user's "sign out everywhere" (or
// password reset) are not live and are left out.
func (s *LoginSessionService) ListLoginSessions(ctx context.Context, userID string, now time.Time) ([]*turbinesim.LoginSession, error) {
	if !isUUID(userID) {
		return nil, nil
	}
	var browsers []*turbinesim.LoginSession
	err := s.db.SelectContext(ctx, &browsers, `
		SELECT s.id, 'browser' AS kind, s.created_at, s.last_seen_at AS last_used_at, s.ip, s.user_agent, NULL::timestamptz AS expires_at
		  FROM user_sessions s JOIN users u ON u.id = s.user_id
		 WHERE s.user_id = $1 AND s.revoked_at IS NULL
		   AND s.created_at > $2 AND s.last_seen_at > $3
		   AND (u.tokens_valid_after IS NULL OR s.created_at >= date_trunc('second', u.tokens_valid_after))`,
		userID, now.Add(-s.Lifetime), now.Add(-s.Idle-touchEvery))
	if err != nil {
		return nil, translate(err, "listing browser sessions")
	}
	// A family is live while its newest token is neither used nor revoked
	// and its absolute end is ahead.
	var families []*turbinesim.LoginSession
	err = s.db.SelectContext(ctx, &families, `
		SELECT family_id AS id, 'token' AS kind, min(created_at) AS created_at, max(created_at) AS last_used_at,
		       (array_agg(ip ORDER BY created_at DESC))[1] AS ip,
		       (array_agg(user_agent ORDER BY created_at DESC))[1] AS user_agent,
		       max(expires_at) AS expires_at
		  FROM refresh_tokens
		 WHERE user_id = $1
		 GROUP BY family_id
		HAVING bool_or(used_at IS NULL AND revoked_at IS NULL) AND max(expires_at) > $2`, userID, now)
	if err != nil {
		return nil, translate(err, "listing refresh-token families")
	}
	all := append(browsers, families...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].LastUsedAt.After(all[j].LastUsedAt) })
	return all, nil
}

// RevokeLoginSession implements turbinesim.LoginSessionService.
func (s *LoginSessionService) RevokeLoginSession(ctx context.Context, userID, id string, now time.Time) error {
	notFound := turbinesim.Errorf(turbinesim.ENOTFOUND, "session not found")
	if !isUUID(userID) || !isUUID(id) {
		return notFound
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "starting session revocation")
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `
		UPDATE user_sessions SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`, id, userID, now)
	if err != nil {
		return translate(err, "revoking browser session")
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		res, err = tx.ExecContext(ctx, `
			UPDATE refresh_tokens SET revoked_at = $3 WHERE family_id = $1 AND user_id = $2 AND revoked_at IS NULL`, id, userID, now)
		if err != nil {
			return translate(err, "revoking refresh-token family")
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return notFound
		}
	}
	return translate(tx.Commit(), "committing session revocation")
}
