package db

import (
	"context"
	"log/slog"
	"time"

	"github.com/alexedwards/scs/v2"
)

// SessionStore keeps scs browser sessions in the sessions table. (The
// upstream scs postgresstore cannot be downloaded here; this is the same
// interface (scs.Store) written against our pool.)
type SessionStore struct{ db *DB }

var _ scs.CtxStore = (*SessionStore)(nil)

// NewSessionStore returns a session store on db.
func NewSessionStore(db *DB) *SessionStore { return &SessionStore{db: db} }

// FindCtx returns the data of an unexpired session.
func (s *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM sessions WHERE token = $1 AND expiry > now()`, token).Scan(&data)
	switch err = translate(err, "finding session"); {
	case err == nil:
		return data, true, nil
	case isNotFound(err):
		return nil, false, nil
	default:
		return nil, false, err
	}
}

// CommitCtx inserts or replaces a session.
func (s *SessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO sessions (token, data, expiry) VALUES ($1, $2, $3)
		ON CONFLICT (token) DO UPDATE SET data = EXCLUDED.data, expiry = EXCLUDED.expiry`, token, data, expiry)
	return translate(err, "saving session")
}

// DeleteCtx removes a session.
func (s *SessionStore) DeleteCtx(ctx context.Context, token string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE token = $1`, token)
	return translate(err, "deleting session")
}

// Find implements scs.Store; scs calls the Ctx variants when present.
func (s *SessionStore) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

// Commit implements scs.Store.
func (s *SessionStore) Commit(token string, data []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, data, expiry)
}

// Delete implements scs.Store.
func (s *SessionStore) Delete(token string) error {
	return s.DeleteCtx(context.Background(), token)
}

// DeleteExpired removes expired sessions and returns how many.
func (s *SessionStore) DeleteExpired(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE expiry <= now()`)
	if err != nil {
		return 0, translate(err, "deleting expired sessions")
	}
	return res.RowsAffected()
}

// CleanupLoop deletes expired sessions every interval until ctx ends.
func (s *SessionStore) CleanupLoop(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := s.DeleteExpired(ctx); err != nil {
				log.Warn("session cleanup failed", "err", err)
			} else if n > 0 {
				log.Debug("expired sessions deleted", "count", n)
			}
		}
	}
}
