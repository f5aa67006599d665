package db

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

var _ turbinesim.PasswordResetStore = (*AccountService)(nil)

// RequestPasswordReset implements turbinesim.PasswordResetStore. The link
// goes to the address on record (never one taken from the request beyond
// the lookup), through the outbox and SMTP when configured.
func (s *AccountService) RequestPasswordReset(ctx context.Context, email string, now time.Time) error {
	var mail *pendingMail
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var u turbinesim.User
		err := tx.GetContext(ctx, &u, `
			SELECT `+userColumns+` FROM users
			 WHERE email = $1 AND active AND deleted_at IS NULL`, turbinesim.NormalizeEmail(email))
		if err = translate(err, "finding user for password reset"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil // same answer as for a known address
		} else if err != nil {
			return err
		}
		tok, err := s.newTokenAt(ctx, tx, u.ID, "reset", now.Add(turbinesim.PasswordResetLifetime))
		if err != nil {
			return err
		}
		mail, err = queueMail(ctx, tx, u.OrganizationID, u.Email, "Reset your TurbineSim password",
			"Someone (hopefully you) asked to reset the password of your TurbineSim account. Open this link to choose a new one:\n\n"+
				s.cfg.BaseURL+"/reset-password?token="+url.QueryEscape(tok)+
				"\n\nThe link works once and for one hour. If you did not ask for it, ignore this message: your password stays as it is.")
		return err
	})
	if err != nil {
		return err
	}
	if mail != nil && s.cfg.Mailer != nil {
		// Sent after the answer, so that the response time does not tell
		// whether the address has an account (an SMTP round trip would).
		go func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			s.deliver(ctx, mail)
		}()
	}
	return nil
}

// PasswordResetUser implements turbinesim.PasswordResetStore.
func (s *AccountService) PasswordResetUser(ctx context.Context, tok string, now time.Time) (*turbinesim.User, error) {
	var u turbinesim.User
	err := s.db.GetContext(ctx, &u, `
		SELECT `+prefixed("u.", userColumns)+` FROM email_tokens t JOIN users u ON u.id = t.user_id
		 WHERE t.token_hash = $1 AND t.purpose = 'reset' AND t.used_at IS NULL AND t.expires_at > $2
		   AND u.active AND u.deleted_at IS NULL`, tokenHash(tok), now)
	if err = translate(err, "finding password reset"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, errBadLink
	} else if err != nil {
		return nil, err
	}
	return &u, nil
}

// CompletePasswordReset implements turbinesim.PasswordResetStore: one
// transaction, so the password never changes without every older
// credential being revoked, and two concurrent uses of one link cannot
// both succeed (the conditional UPDATE of the token decides).
func (s *AccountService) CompletePasswordReset(ctx context.Context, tok, password string, now time.Time) (*turbinesim.User, error) {
	if err := turbinesim.ValidatePassword(password); err != nil {
		return nil, err
	}
	hash, err := argon2id.CreateHash(password, s.cfg.PasswordParams)
	if err != nil {
		return nil, fmt.Errorf("hashing password: %w", err)
	}
	var u turbinesim.User
	var mail *pendingMail
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		var userID string
		err := tx.GetContext(ctx, &userID, `
			UPDATE email_tokens SET used_at = $2
			 WHERE token_hash = $1 AND purpose = 'reset' AND used_at IS NULL AND expires_at > $2
			RETURNING user_id`, tokenHash(tok), now)
		if err = translate(err, "consuming password reset"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return errBadLink
		} else if err != nil {
			return err
		}
		err = tx.GetContext(ctx, &u, `
			UPDATE users SET password_hash = $2, tokens_valid_after = $3, updated_at = now()
			 WHERE id = $1 AND active AND deleted_at IS NULL RETURNING `+userColumns, userID, hash, now)
		if err = translate(err, "setting new password"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return errBadLink
		} else if err != nil {
			return err
		}
		for _, q := range []struct{ sql, doing string }{
			{`UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'reset' AND used_at IS NULL`, "voiding other reset links"},
			{`UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, "revoking refresh tokens"},
			{`UPDATE user_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, "revoking browser sessions"},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, userID, now); err != nil {
				return translate(err, q.doing)
			}
		}
		mail, err = queueMail(ctx, tx, u.OrganizationID, u.Email, "Your TurbineSim password was changed",
			"The password of your TurbineSim account was just reset with an e-mailed link. Every signed-in browser "+
				"and app was signed out; API keys keep working (review them on the API keys page).\n\n"+
				"If this was not you, reset the password again at "+s.cfg.BaseURL+"/forgot-password and tell your administrator.")
		return err
	})
	if err != nil {
		return nil, err
	}
	s.deliver(ctx, mail)
	return &u, nil
}
