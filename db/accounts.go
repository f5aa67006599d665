package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/argon2id"
	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// AccountConfig configures AccountService.
type AccountConfig struct {
	// BaseURL is where links in e-mails point (https://sim.example.com).
	BaseURL string
	// Mailer delivers mail (SMTP, or the operator's log without SMTP);
	// nil sends nothing. The outbox keeps only recipients and subjects.
	Mailer turbinesim.Mailer
	// PasswordParams are the argon2id parameters of new password hashes;
	// nil means argon2id.DefaultParams (RFC 9106 second recommendation,
	// 64 MiB). Tests pass smaller ones.
	PasswordParams *argon2id.Params
	// Now is the clock of token expiry; nil means time.Now.
	Now func() time.Time
}

// Token lifetimes of e-mail links.
const (
	VerifyTokenLifetime = 48 * time.Hour
	InviteTokenLifetime = 7 * 24 * time.Hour
)

// AccountService implements turbinesim.AccountService.
type AccountService struct {
	db  *DB
	cfg AccountConfig
}

var _ turbinesim.AccountService = (*AccountService)(nil)

// NewAccountService returns the PostgreSQL account manager.
func NewAccountService(db *DB, cfg AccountConfig) *AccountService {
	if cfg.PasswordParams == nil {
		cfg.PasswordParams = argon2id.DefaultParams
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &AccountService{db: db, cfg: cfg}
}

func tokenHash(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// SignUp implements turbinesim.AccountService.
func (s *AccountService) SignUp(ctx context.Context, req turbinesim.SignUpRequest) (*turbinesim.User, error) {
	org := &turbinesim.Organization{Name: strings.TrimSpace(req.OrganizationName), Plan: turbinesim.PlanBeta}
	if org.Name == "" {
		org.Name = strings.TrimSpace(req.Name)
	}
	if err := org.Validate(); err != nil {
		return nil, err
	}
	u := &turbinesim.User{Email: turbinesim.NormalizeEmail(req.Email), Name: strings.TrimSpace(req.Name),
		Role: turbinesim.RoleAdmin, OrganizationID: "pending"}
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := turbinesim.ValidatePassword(req.Password); err != nil {
		return nil, err
	}
	hash, err := argon2id.CreateHash(req.Password, s.cfg.PasswordParams)
	if err != nil {
		return nil, fmt.Errorf("hashing password: %w", err)
	}
	var mail *pendingMail
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.QueryRowxContext(ctx, `INSERT INTO organizations (name, plan) VALUES ($1, $2) RETURNING id`,
			org.Name, org.Plan).Scan(&org.ID); err != nil {
			return translate(err, "creating organization")
		}
		u.OrganizationID = org.ID
		if err := insertUser(ctx, tx, u, &hash); err != nil {
			return err
		}
		tok, err := s.newToken(ctx, tx, u.ID, "verify", VerifyTokenLifetime)
		if err != nil {
			return err
		}
		mail, err = queueMail(ctx, tx, org.ID, u.Email, "Verify your TurbineSim account",
			"Open this link to verify your e-mail address and unlock the full service:\n\n"+
				s.cfg.BaseURL+"/verify-email?token="+url.QueryEscape(tok)+"\n\nThe link is valid for 48 hours.")
		return err
	})
	if turbinesim.ErrorCode(err) == turbinesim.ECONFLICT {
		return nil, s.signUpTaken(ctx, u.Email)
	} else if err != nil {
		return nil, err
	}
	s.deliver(ctx, mail)
	return u, nil
}

// signUpTaken tells the owner of a taken address that someone tried to sign
// up with it; the caller of SignUp learns nothing.
func (s *AccountService) signUpTaken(ctx context.Context, email string) error {
	var mail *pendingMail
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var orgID string
		err := tx.GetContext(ctx, &orgID, `SELECT organization_id FROM users WHERE email = $1`, email)
		if err != nil {
			return translate(err, "finding the address's account")
		}
		mail, err = queueMail(ctx, tx, orgID, email, "Someone tried to sign up with your address",
			"Someone (hopefully you) tried to open a TurbineSim account with this address, which already has one. "+
				"Nothing was changed.\n\nSign in at "+s.cfg.BaseURL+"/login, or choose a new password at "+s.cfg.BaseURL+"/forgot-password.")
		return err
	})
	if err != nil {
		return err
	}
	s.deliver(ctx, mail)
	return nil
}

func insertUser(ctx context.Context, tx *sqlx.Tx, u *turbinesim.User, hash *string) error {
	u.Active = true
	err := tx.QueryRowxContext(ctx, `
		INSERT INTO users (organization_id, email, name, password_hash, role, verified, active)
		VALUES ($1, $2, $3, $4, $5, $6, true)
		RETURNING id, created_at, updated_at`,
		u.OrganizationID, u.Email, u.Name, hash, u.Role, u.Verified).Scan(&u.ID, &u.CreatedAt, &u.UpdatedAt)
	err = translate(err, "creating user")
	if turbinesim.ErrorCode(err) == turbinesim.ECONFLICT {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "an account with this e-mail address exists")
	}
	return err
}

func (s *AccountService) inTx(ctx context.Context, fn func(*sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "starting transaction")
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return translate(tx.Commit(), "committing")
}

func (s *AccountService) newToken(ctx context.Context, tx *sqlx.Tx, userID, purpose string, life time.Duration) (string, error) {
	return s.newTokenAt(ctx, tx, userID, purpose, s.cfg.Now().Add(life))
}

// newTokenAt stores a one-time e-mail token (only its SHA-256) expiring at
// expires and returns it.
func (s *AccountService) newTokenAt(ctx context.Context, tx *sqlx.Tx, userID, purpose string, expires time.Time) (string, error) {
	tok := rand.Text() + rand.Text()
	_, err := tx.ExecContext(ctx, `
		INSERT INTO email_tokens (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`,
		tokenHash(tok), userID, purpose, expires)
	return tok, translate(err, "creating e-mail token")
}

// pendingMail is a message recorded in the outbox (recipient and subject
// only) whose body, which may carry a one-time link, exists only in memory
// until the mailer takes it.
type pendingMail struct {
	id                int64
	to, subject, body string
}

func queueMail(ctx context.Context, tx *sqlx.Tx, orgID, to, subject, body string) (*pendingMail, error) {
	m := &pendingMail{to: to, subject: subject, body: body}
	err := tx.QueryRowxContext(ctx, `
		INSERT INTO email_outbox (organization_id, to_address, subject) VALUES ($1, $2, $3)
		RETURNING id`, orgID, to, subject).Scan(&m.id)
	return m, translate(err, "queueing e-mail")
}

// deliver hands a queued message to the mailer (SMTP, or the operator's
// log in development) and marks it sent. A failed delivery leaves sent_at
// empty and is logged without the body; the body is not kept anywhere.
func (s *AccountService) deliver(ctx context.Context, m *pendingMail) {
	if s.cfg.Mailer == nil || m == nil {
		return
	}
	if err := s.cfg.Mailer.Send(ctx, m.to, m.subject, m.body); err != nil {
		slog.ErrorContext(ctx, "mail delivery failed", "outbox_id", m.id, "to", m.to, "subject", m.subject, "err", err)
		return
	}
	_, _ = s.db.ExecContext(ctx, `UPDATE email_outbox SET sent_at = now() WHERE id = $1`, m.id)
}

var errBadLink = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid, used or expired link")

// consumeToken marks a token used and returns its user id, in tx.
func (s *AccountService) consumeToken(ctx context.Context, tx *sqlx.Tx, tok, purpose string) (string, error) {
	var userID string
	err := tx.GetContext(ctx, &userID, `
		UPDATE email_tokens SET used_at = $3
		 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
		RETURNING user_id`, tokenHash(tok), purpose, s.cfg.Now())
	if err = translate(err, "consuming e-mail token"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return "", errBadLink
	}
	return userID, err
}

// VerifyEmail implements turbinesim.AccountService.
func (s *AccountService) VerifyEmail(ctx context.Context, tok string) (*turbinesim.User, error) {
	var u turbinesim.User
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		id, err := s.consumeToken(ctx, tx, tok, "verify")
		if err != nil {
			return err
		}
		return translate(tx.GetContext(ctx, &u, `
			UPDATE users SET verified = true, updated_at = now() WHERE id = $1 RETURNING `+userColumns, id), "verifying user")
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// Invite implements turbinesim.AccountService.
func (s *AccountService) Invite(ctx context.Context, orgID, email string, role turbinesim.Role) (*turbinesim.User, error) {
	u := &turbinesim.User{OrganizationID: orgID, Email: turbinesim.NormalizeEmail(email), Role: role}
	if u.Role == "" {
		u.Role = turbinesim.RoleMember
	}
	if err := u.Validate(); err != nil {
		return nil, err
	}
	var mail *pendingMail
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := insertUser(ctx, tx, u, nil); err != nil {
			return err
		}
		if err := recordEvent(ctx, tx, orgID, auditChange{Event: turbinesim.AuditMemberInvited, TargetType: "user",
			TargetID: u.ID, TargetUserID: u.ID, Summary: fmt.Sprintf("%s invited as %s", u.Email, u.Role)}); err != nil {
			return err
		}
		tok, err := s.newToken(ctx, tx, u.ID, "invite", InviteTokenLifetime)
		if err != nil {
			return err
		}
		mail, err = queueMail(ctx, tx, orgID, u.Email, "You are invited to TurbineSim",
			"An administrator of your organization invited you. Open this link to choose a password:\n\n"+
				s.cfg.BaseURL+"/accept-invite?token="+url.QueryEscape(tok)+"\n\nThe link is valid for 7 days.")
		return err
	})
	if err != nil {
		return nil, err
	}
	s.deliver(ctx, mail)
	return u, nil
}

// AcceptInvite implements turbinesim.AccountService.
func (s *AccountService) AcceptInvite(ctx context.Context, tok, password string) (*turbinesim.User, error) {
	if err := turbinesim.ValidatePassword(password); err != nil {
		return nil, err
	}
	hash, err := argon2id.CreateHash(password, s.cfg.PasswordParams)
	if err != nil {
		return nil, fmt.Errorf("hashing password: %w", err)
	}
	var u turbinesim.User
	err = s.inTx(ctx, func(tx *sqlx.Tx) error {
		id, err := s.consumeToken(ctx, tx, tok, "invite")
		if err != nil {
			return err
		}
		return translate(tx.GetContext(ctx, &u, `
			UPDATE users SET password_hash = $2, verified = true, updated_at = now()
			 WHERE id = $1 AND active AND deleted_at IS NULL RETURNING `+userColumns, id, hash), "accepting invitation")
	})
	if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
		return nil, errBadLink
	} else if err != nil {
		return nil, err
	}
	return &u, nil
}

// ListMembers implements turbinesim.AccountService (soft-deleted users are
// left out).
func (s *AccountService) ListMembers(ctx context.Context, orgID string) ([]*turbinesim.User, error) {
	users := []*turbinesim.User{}
	if !isUUID(orgID) {
		return users, nil
	}
	err := s.db.SelectContext(ctx, &users, `
		SELECT `+userColumns+` FROM users WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY email`, orgID)
	return users, translate(err, "listing members")
}

var errMemberNotFound = turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")

// SetRole implements turbinesim.AccountService.
func (s *AccountService) SetRole(ctx context.Context, orgID, userID string, role turbinesim.Role) (*turbinesim.User, error) {
	return s.UpdateMember(ctx, orgID, userID, &role, nil)
}

// SetActive implements turbinesim.AccountService.
func (s *AccountService) SetActive(ctx context.Context, orgID, userID string, active bool) (*turbinesim.User, error) {
	return s.UpdateMember(ctx, orgID, userID, nil, &active)
}

// UpdateMember implements turbinesim.AccountService: one UPDATE, where a
// NULL parameter keeps the column's value.
func (s *AccountService) UpdateMember(ctx context.Context, orgID, userID string, role *turbinesim.Role, active *bool) (*turbinesim.User, error) {
	if role == nil && active == nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "nothing to change: send role and/or active")
	}
	var roleArg, activeArg any // nil is SQL NULL
	if role != nil {
		if !role.Valid() {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "unknown role %q", *role)
		}
		roleArg = string(*role)
	}
	if active != nil {
		activeArg = *active
	}
	if !isUUID(orgID) || !isUUID(userID) {
		return nil, errMemberNotFound
	}
	var u turbinesim.User
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var was turbinesim.User
		err := tx.GetContext(ctx, &was, `
			SELECT `+userColumns+` FROM users WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL FOR UPDATE`, userID, orgID)
		if err = translate(err, "finding member"); turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return errMemberNotFound
		} else if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &u, `
			UPDATE users SET role = COALESCE($3::text, role), active = COALESCE($4::boolean, active), updated_at = now()
			 WHERE id = $1 AND organization_id = $2 RETURNING `+userColumns, userID, orgID, roleArg, activeArg); err != nil {
			return translate(err, "updating member")
		}
		if err := auditMemberUpdate(ctx, tx, &was, &u); err != nil {
			return err
		}
		// Deactivating ends every session and token; so does
		// reactivating, so that nothing issued before the deactivation
		// (a 15-minute access token, a 30-day refresh token) comes back.
		if active != nil && *active != was.Active {
			return endSessions(ctx, tx, userID, s.cfg.Now())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// DeleteUser implements turbinesim.AccountService.
func (s *AccountService) DeleteUser(ctx context.Context, orgID, userID string) error {
	if !isUUID(orgID) || !isUUID(userID) {
		return errMemberNotFound
	}
	now := s.cfg.Now()
	return s.inTx(ctx, func(tx *sqlx.Tx) error {
		var email string
		err := tx.GetContext(ctx, &email, `
			UPDATE users SET deleted_at = $3, active = false, updated_at = now()
			 WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL RETURNING email`, userID, orgID, now)
		if err = translate(err, "deleting member"); isNotFound(err) {
			return errMemberNotFound
		} else if err != nil {
			return err
		}
		if err := recordEvent(ctx, tx, orgID, auditChange{Event: turbinesim.AuditMemberRemoved, TargetType: "user",
			TargetID: userID, TargetUserID: userID, Summary: email + " removed from the organization"}); err != nil {
			return err
		}
		return endSessions(ctx, tx, userID, now)
	})
}

// auditMemberUpdate records what an update changed of a member: the role
// (old → new) and whether the account was deactivated or reactivated.
func auditMemberUpdate(ctx context.Context, tx *sqlx.Tx, was, now *turbinesim.User) error {
	ch := auditChange{TargetType: "user", TargetID: now.ID, TargetUserID: now.ID}
	if was.Role != now.Role {
		ch.Event, ch.Summary = turbinesim.AuditMemberRoleChanged, fmt.Sprintf("role of %s: %s → %s", now.Email, was.Role, now.Role)
		if err := recordEvent(ctx, tx, now.OrganizationID, ch); err != nil {
			return err
		}
	}
	if was.Active != now.Active {
		ch.Event, ch.Summary = turbinesim.AuditMemberDeactivated, now.Email+" deactivated"
		if now.Active {
			ch.Event, ch.Summary = turbinesim.AuditMemberReactivated, now.Email+" reactivated"
		}
		return recordEvent(ctx, tx, now.OrganizationID, ch)
	}
	return nil
}

// Outbox implements turbinesim.AccountService.
func (s *AccountService) Outbox(ctx context.Context, orgID string) ([]*turbinesim.Email, error) {
	mails := []*turbinesim.Email{}
	if !isUUID(orgID) {
		return mails, nil
	}
	err := s.db.SelectContext(ctx, &mails, `
		SELECT id, organization_id, to_address, subject, created_at, sent_at
		  FROM email_outbox WHERE organization_id = $1 ORDER BY id DESC LIMIT 200`, orgID)
	return mails, translate(err, "reading outbox")
}
