package db

import (
	"context"
	"fmt"
	"regexp"

	"github.com/alexedwards/argon2id"

	"github.com/turbinesim/turbinesim"
)

// UserService implements turbinesim.UserService.
type UserService struct {
	db *DB
	// PasswordParams are the argon2id parameters of new password hashes;
	// nil means argon2id.DefaultParams (64 MiB). Tests set cheaper ones;
	// verification reads the parameters from each stored hash.
	PasswordParams *argon2id.Params
}

var _ turbinesim.UserService = (*UserService)(nil)

// NewUserService returns the PostgreSQL user store.
func NewUserService(db *DB) *UserService { return &UserService{db: db} }

func (s *UserService) params() *argon2id.Params {
	if s.PasswordParams != nil {
		return s.PasswordParams
	}
	return argon2id.DefaultParams
}

const userColumns = `id, organization_id, email, name, role, verified, active, deleted_at, created_at, updated_at`

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID guards uuid columns: a malformed id is simply "not found", not a
// PostgreSQL syntax error.
func isUUID(s string) bool { return uuidPattern.MatchString(s) }

// FindUserByID implements turbinesim.UserService.
func (s *UserService) FindUserByID(ctx context.Context, id string) (*turbinesim.User, error) {
	if !isUUID(id) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")
	}
	return s.findOne(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id)
}

// FindUserByEmail implements turbinesim.UserService.
func (s *UserService) FindUserByEmail(ctx context.Context, email string) (*turbinesim.User, error) {
	return s.findOne(ctx, `SELECT `+userColumns+` FROM users WHERE email = $1`, turbinesim.NormalizeEmail(email))
}

func (s *UserService) findOne(ctx context.Context, query string, arg any) (*turbinesim.User, error) {
	var u turbinesim.User
	if err := s.db.GetContext(ctx, &u, query, arg); err != nil {
		err = translate(err, "finding user")
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")
		}
		return nil, err
	}
	return &u, nil
}

// CreateUser implements turbinesim.UserService.
func (s *UserService) CreateUser(ctx context.Context, u *turbinesim.User, password string) error {
	u.Email = turbinesim.NormalizeEmail(u.Email)
	if u.Role == "" {
		u.Role = turbinesim.RoleMember
	}
	if err := u.Validate(); err != nil {
		return err
	}
	if err := turbinesim.ValidatePassword(password); err != nil {
		return err
	}
	hash, err := argon2id.CreateHash(password, s.params())
	if err != nil {
		return fmt.Errorf("hashing password: %w", err)
	}
	u.Active = true
	err = s.db.QueryRowxContext(ctx, `
		INSERT INTO users (organization_id, email, name, password_hash, role, verified, active)
		VALUES ($1, $2, $3, $4, $5, $6, true)
		RETURNING id, created_at, updated_at`,
		u.OrganizationID, u.Email, u.Name, hash, u.Role, u.Verified).
		Scan(&u.ID, &u.CreatedAt, &u.UpdatedAt)
	err = translate(err, "creating user")
	if turbinesim.ErrorCode(err) == turbinesim.ECONFLICT {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "an account with this e-mail address exists")
	}
	return err
}

// SetPassword implements turbinesim.UserService.
func (s *UserService) SetPassword(ctx context.Context, id, password string) error {
	if err := turbinesim.ValidatePassword(password); err != nil {
		return err
	}
	if !isUUID(id) {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")
	}
	hash, err := argon2id.CreateHash(password, s.params())
	if err != nil {
		return fmt.Errorf("hashing password: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, id, hash)
	if err != nil {
		return translate(err, "setting password")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "user not found")
	}
	return nil
}

// CountMembers implements turbinesim.UserService.
func (s *UserService) CountMembers(ctx context.Context, orgID string) (int, error) {
	if !isUUID(orgID) {
		return 0, nil
	}
	var n int
	err := s.db.GetContext(ctx, &n, `
		SELECT count(*) FROM users
		 WHERE organization_id = $1 AND active AND deleted_at IS NULL`, orgID)
	return n, translate(err, "counting members")
}
