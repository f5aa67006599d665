package db

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/turbinesim/turbinesim"
)

// SSOService implements turbinesim.SSOService.
type SSOService struct{ db *DB }

var _ turbinesim.SSOService = (*SSOService)(nil)

// NewSSOService returns the PostgreSQL identity linker.
func NewSSOService(db *DB) *SSOService { return &SSOService{db: db} }

// SignInSSO implements turbinesim.SSOService.
func (s *SSOService) SignInSSO(ctx context.Context, id turbinesim.SSOIdentity) (*turbinesim.User, error) {
	if id.Provider == "" || id.Subject == "" {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "identity provider returned no user id")
	}
	var u turbinesim.User
	err := s.db.GetContext(ctx, &u, `
		SELECT `+prefixed("u.", userColumns)+` FROM sso_identities i JOIN users u ON u.id = i.user_id
		 WHERE i.provider = $1 AND i.subject = $2`, id.Provider, id.Subject)
	switch err = translate(err, "finding linked identity"); turbinesim.ErrorCode(err) {
	case "":
		if !u.CanSignIn() {
			return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "account is deactivated")
		}
		return &u, nil
	case turbinesim.ENOTFOUND:
	default:
		return nil, err
	}
	email := turbinesim.NormalizeEmail(id.Email)
	if !id.EmailVerified || email == "" {
		return nil, turbinesim.Errorf(turbinesim.EFORBIDDEN, "the identity provider has not verified this e-mail address; verify it there or sign up with a password")
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting SSO sign-in")
	}
	defer tx.Rollback()
	err = tx.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE email = $1 FOR UPDATE`, email)
	switch err = translate(err, "finding user by e-mail"); turbinesim.ErrorCode(err) {
	case "":
		if !u.CanSignIn() {
			return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "account is deactivated")
		}
		// The provider proved control of the address: the account counts
		// as verified from now on.
		if !u.Verified {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET verified = true, updated_at = now() WHERE id = $1`, u.ID); err != nil {
				return nil, translate(err, "verifying user")
			}
			u.Verified = true
		}
	case turbinesim.ENOTFOUND:
		if err := createSSOAccount(ctx, tx, &u, email, id.Name); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO sso_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)`,
		id.Provider, id.Subject, u.ID, email); err != nil {
		return nil, translate(err, "linking identity")
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing SSO sign-in")
	}
	return &u, nil
}

func createSSOAccount(ctx context.Context, tx *sqlx.Tx, u *turbinesim.User, email, name string) error {
	orgName := strings.TrimSpace(name)
	if orgName == "" {
		orgName = email
	}
	if len(orgName) > 200 {
		orgName = orgName[:200]
	}
	var orgID string
	if err := tx.GetContext(ctx, &orgID, `INSERT INTO organizations (name, plan) VALUES ($1, 'beta') RETURNING id`, orgName); err != nil {
		return translate(err, "creating organization")
	}
	*u = turbinesim.User{OrganizationID: orgID, Email: email, Name: strings.TrimSpace(name), Role: turbinesim.RoleAdmin, Verified: true}
	if err := u.Validate(); err != nil {
		return err
	}
	return insertUser(ctx, tx, u, nil)
}

// prefixed qualifies each column of a comma-separated list.
func prefixed(prefix, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}
