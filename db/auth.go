package db

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/alexedwards/argon2id"

	"github.com/turbinesim/turbinesim"
)

// AuthService implements turbinesim.AuthService.
type AuthService struct {
	db *DB
	// dummyHash is compared against when the address is unknown, so that an
	// unknown address costs the same argon2id time as a wrong password
	// (ASVS 5.0 6.3.8: no user enumeration by timing).
	dummyHash string
}

var _ turbinesim.AuthService = (*AuthService)(nil)

// NewAuthService returns the PostgreSQL credential checker.
func NewAuthService(db *DB) (*AuthService, error) {
	return NewAuthServiceWithParams(db, argon2id.DefaultParams)
}

// NewAuthServiceWithParams is NewAuthService whose stand-in hash for
// unknown addresses uses params: the same parameters as the stored hashes,
// so that both cost the same time (tests pass cheap ones).
func NewAuthServiceWithParams(db *DB, params *argon2id.Params) (*AuthService, error) {
	hash, err := argon2id.CreateHash(rand.Text(), params)
	if err != nil {
		return nil, fmt.Errorf("db: preparing auth service: %w", err)
	}
	return &AuthService{db: db, dummyHash: hash}, nil
}

var errBadCredentials = turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid email or password")

// Authenticate implements turbinesim.AuthService.
func (s *AuthService) Authenticate(ctx context.Context, email, password string) (*turbinesim.User, error) {
	var row struct {
		turbinesim.User
		PasswordHash *string `db:"password_hash"`
	}
	err := s.db.GetContext(ctx, &row, `SELECT `+userColumns+`, password_hash FROM users WHERE email = $1`,
		turbinesim.NormalizeEmail(email))
	err = translate(err, "finding user for login")
	switch turbinesim.ErrorCode(err) {
	case "":
	case turbinesim.ENOTFOUND:
		_, _ = argon2id.ComparePasswordAndHash(password, s.dummyHash)
		return nil, errBadCredentials
	default:
		return nil, err
	}
	hash := s.dummyHash
	if row.PasswordHash != nil {
		hash = *row.PasswordHash
	}
	match, err := argon2id.ComparePasswordAndHash(password, hash)
	if err != nil {
		return nil, fmt.Errorf("checking password of user %s: %w", row.ID, err)
	}
	if !match || row.PasswordHash == nil || !row.User.CanSignIn() {
		return nil, errBadCredentials
	}
	return &row.User, nil
}

// LoadAuth implements turbinesim.AuthService.
func (s *AuthService) LoadAuth(ctx context.Context, userID string, method turbinesim.AuthMethod) (*turbinesim.Auth, error) {
	if !isUUID(userID) {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid credentials")
	}
	var row struct {
		turbinesim.User
		OrgName      string          `db:"org_name"`
		OrgPlan      turbinesim.Plan `db:"org_plan"`
		OrgCreatedAt sqlTime         `db:"org_created_at"`
		OrgUpdatedAt sqlTime         `db:"org_updated_at"`
		OrgActive    bool            `db:"org_active"`
		ValidAfter   *time.Time      `db:"tokens_valid_after"`
	}
	err := s.db.GetContext(ctx, &row, `
		SELECT o.active AS org_active, u.tokens_valid_after, u.id, u.organization_id, u.email, u.name, u.role, u.verified, u.active, u.deleted_at,
		       u.created_at, u.updated_at,
		       o.name AS org_name, o.plan AS org_plan, o.created_at AS org_created_at, o.updated_at AS org_updated_at
		  FROM users u
		  JOIN organizations o ON o.id = u.organization_id
		 WHERE u.id = $1`, userID)
	err = translate(err, "loading caller")
	switch turbinesim.ErrorCode(err) {
	case "":
	case turbinesim.ENOTFOUND:
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "invalid credentials")
	default:
		return nil, err
	}
	if !row.User.CanSignIn() {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "account is deactivated")
	}
	if !row.OrgActive {
		return nil, turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "organization is deactivated")
	}
	u := row.User
	return &turbinesim.Auth{
		User: &u,
		Organization: &turbinesim.Organization{
			ID: u.OrganizationID, Name: row.OrgName, Plan: row.OrgPlan,
			CreatedAt: row.OrgCreatedAt.Time, UpdatedAt: row.OrgUpdatedAt.Time,
		},
		Method:           method,
		TokensValidAfter: row.ValidAfter,
	}, nil
}
