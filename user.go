package turbinesim

import (
	"context"
	"net/mail"
	"strings"
	"time"
)

// Role of a user within an organization: org_member, or org_admin, who may
// also change organization settings.
type Role string

// Known roles.
const (
	RoleMember Role = "org_member"
	RoleAdmin  Role = "org_admin"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleMember || r == RoleAdmin }

// User is an account. Unverified (demo) accounts get 403 on verified-only
// endpoints; inactive or soft-deleted users are refused on their next request.
type User struct {
	ID             string     `json:"id" db:"id"`
	OrganizationID string     `json:"org_id" db:"organization_id"`
	Email          string     `json:"email" db:"email"`
	Name           string     `json:"name" db:"name"`
	Role           Role       `json:"role" db:"role"`
	Verified       bool       `json:"verified" db:"verified"`
	Active         bool       `json:"active" db:"active"`
	DeletedAt      *time.Time `json:"-" db:"deleted_at"`
	CreatedAt      time.Time  `json:"created_at" db:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at" db:"updated_at"`
}

// CanSignIn reports whether the account may authenticate at all.
func (u *User) CanSignIn() bool { return u.Active && u.DeletedAt == nil }

// NormalizeEmail trims and lower-cases an address; addresses are compared
// case-insensitively everywhere.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Validate checks the fields a caller can set.
func (u *User) Validate() error {
	if u.OrganizationID == "" {
		return Errorf(EINVALID, "user organization required")
	}
	if u.Email == "" {
		return Errorf(EINVALID, "email required")
	}
	if a, err := mail.ParseAddress(u.Email); err != nil || a.Address != u.Email {
		return Errorf(EINVALID, "email %q is not a plain e-mail address", u.Email)
	}
	if !u.Role.Valid() {
		return Errorf(EINVALID, "unknown role %q", u.Role)
	}
	return nil
}

// MinPasswordLength is the shortest password accepted when an account is
// created or its password is changed (NIST SP 800-63B §5.1.1.2: at least 8).
const MinPasswordLength = 10

// ValidatePassword checks a new password.
func ValidatePassword(pw string) error {
	if len(pw) < MinPasswordLength {
		return Errorf(EINVALID, "password shorter than %d characters", MinPasswordLength)
	} else if len(pw) > 1024 {
		return Errorf(EINVALID, "password longer than 1024 characters")
	}
	return nil
}

// UserService reads and writes user accounts.
type UserService interface {
	// FindUserByID returns ENOTFOUND when no user has id (soft-deleted users
	// are still found; callers check CanSignIn).
	FindUserByID(ctx context.Context, id string) (*User, error)

	// FindUserByEmail returns ENOTFOUND when no user has the address.
	FindUserByEmail(ctx context.Context, email string) (*User, error)

	// CreateUser validates u (EINVALID), hashes password and stores the
	// account; a taken e-mail address gives ECONFLICT.
	CreateUser(ctx context.Context, u *User, password string) error

	// SetPassword replaces the password of user id (ENOTFOUND, EINVALID).
	SetPassword(ctx context.Context, id, password string) error

	// CountMembers returns the number of active users in an organization.
	CountMembers(ctx context.Context, orgID string) (int, error)
}
