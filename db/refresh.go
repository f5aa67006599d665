package db

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// RefreshTokenService implements turbinesim.RefreshTokenService.
type RefreshTokenService struct{ db *DB }

var _ turbinesim.RefreshTokenService = (*RefreshTokenService)(nil)

// NewRefreshTokenService returns the PostgreSQL refresh-token store.
func NewRefreshTokenService(db *DB) *RefreshTokenService { return &RefreshTokenService{db: db} }

func jtiHash(jti string) []byte {
	h := sha256.Sum256([]byte(jti))
	return h[:]
}

var errRefreshInvalid = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid or expired refresh token")

// StartFamily implements turbinesim.RefreshTokenService.
func (s *RefreshTokenService) StartFamily(ctx context.Context, userID, jti string, expiresAt time.Time) error {
	if !isUUID(userID) || jti == "" {
		return turbinesim.Errorf(turbinesim.EINVALID, "refresh token needs a user and a jti")
	}
	c := turbinesim.ClientFromContext(ctx)
	_, err := s.db.ExecContext(ctx, `
		INSERT INTO refresh_tokens (jti_hash, family_id, user_id, expires_at, ip, user_agent)
		VALUES ($1, gen_random_uuid(), $2, $3, $4, $5)`, jtiHash(jti), userID, expiresAt, clip(c.IP, 64), clip(c.UserAgent, 400))
	return translate(err, "recording refresh token")
}

// Rotate implements turbinesim.RefreshTokenService. The consumption of the
// old token and the insertion of its successor commit together, so a
// failure in between (database restart) leaves the old token usable and a
// client retry is not mistaken for reuse.
func (s *RefreshTokenService) Rotate(ctx context.Context, userID, oldJTI, newJTI string, now time.Time) (time.Time, error) {
	if !isUUID(userID) || oldJTI == "" || newJTI == "" {
		return time.Time{}, errRefreshInvalid
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return time.Time{}, translate(err, "starting refresh rotation")
	}
	defer tx.Rollback()

	var row struct {
		FamilyID  string  `db:"family_id"`
		UserID    string  `db:"user_id"`
		ExpiresAt sqlTime `db:"expires_at"`
		Used      bool    `db:"used"`
		Revoked   bool    `db:"revoked"`
	}
	// Row lock: of two concurrent rotations of one token, the second waits
	// and then sees the token used.
	err = tx.GetContext(ctx, &row, `
		SELECT family_id, user_id, expires_at, used_at IS NOT NULL AS used, revoked_at IS NOT NULL AS revoked
		  FROM refresh_tokens WHERE jti_hash = $1 FOR UPDATE`, jtiHash(oldJTI))
	if err = translate(err, "finding refresh token"); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return time.Time{}, errRefreshInvalid
		}
		return time.Time{}, err
	}
	switch {
	case row.UserID != userID || row.Revoked || !now.Before(row.ExpiresAt.Time):
		return time.Time{}, errRefreshInvalid
	case row.Used:
		// Reuse of a rotated token: someone else holds a copy. Revoke the
		// whole family (the legitimate holder logs in again).
		if _, err := tx.ExecContext(ctx, `
			UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
			row.FamilyID, now); err != nil {
			return time.Time{}, translate(err, "revoking refresh family")
		}
		if err := tx.Commit(); err != nil {
			return time.Time{}, translate(err, "revoking refresh family")
		}
		return time.Time{}, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "refresh token was already used; every session of this login is revoked")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET used_at = $2 WHERE jti_hash = $1`, jtiHash(oldJTI), now); err != nil {
		return time.Time{}, translate(err, "consuming refresh token")
	}
	c := turbinesim.ClientFromContext(ctx)
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO refresh_tokens (jti_hash, family_id, user_id, expires_at, ip, user_agent)
		VALUES ($1, $2, $3, $4, $5, $6)`, jtiHash(newJTI), row.FamilyID, userID, row.ExpiresAt.Time,
		clip(c.IP, 64), clip(c.UserAgent, 400)); err != nil {
		return time.Time{}, translate(err, "recording successor refresh token")
	}
	if err := tx.Commit(); err != nil {
		return time.Time{}, translate(err, "committing refresh rotation")
	}
	return row.ExpiresAt.Time, nil
}

// RevokeFamilyOf implements turbinesim.RefreshTokenService.
func (s *RefreshTokenService) RevokeFamilyOf(ctx context.Context, jti string) error {
	_, err := s.db.ExecContext(ctx, `
		UPDATE refresh_tokens SET revoked_at = now()
		 WHERE revoked_at IS NULL
		   AND family_id = (SELECT family_id FROM refresh_tokens WHERE jti_hash = $1)`, jtiHash(jti))
	if err != nil {
		return translate(err, "revoking refresh family")
	}
	return nil
}

// SignOutEverywhere implements turbinesim.RefreshTokenService.
func (s *RefreshTokenService) SignOutEverywhere(ctx context.Context, userID string, at time.Time) error {
	if !isUUID(userID) {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "starting sign-out")
	}
	defer tx.Rollback()
	if err := endSessions(ctx, tx, userID, at); err != nil {
		return err
	}
	return translate(tx.Commit(), "committing sign-out")
}

// endSessions, in tx, refuses the access tokens and browser sessions of
// userID that signed in before at (users.tokens_valid_after) and revokes
// every refresh token and recorded browser session: sign-out everywhere,
// a second factor added, an account deactivated or reactivated. API keys
// are not touched (they are revoked one by one).
func endSessions(ctx context.Context, tx *sqlx.Tx, userID string, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE users SET tokens_valid_after = $2, updated_at = now() WHERE id = $1`, userID, at); err != nil {
		return translate(err, "marking sign-out")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, userID, at); err != nil {
		return translate(err, "revoking refresh tokens")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE user_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, userID, at); err != nil {
		return translate(err, "revoking browser sessions")
	}
	return nil
}
