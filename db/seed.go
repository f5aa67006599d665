package db

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/turbinesim/turbinesim"
)

// SeedOptions describe the first organization and its administrator.
type SeedOptions struct {
	OrganizationName string // default "Default organization"
	AdminEmail       string // default "admin@turbinesim.local"
	AdminPassword    string // empty: generate one
}

// SeedResult tells what Seed did so that the caller can print it.
type SeedResult struct {
	Created  bool   // a fresh organization and admin were created
	Reset    bool   // the existing admin's password was set to AdminPassword
	Email    string // the admin's address
	Password string // the password, when Created or Reset; otherwise empty
}

// Seed creates one organization and one verified administrator when the
// database has no users yet. On a database that has users it only sets the
// administrator's password when one is given explicitly, so that a
// developer who lost a generated password can set ADMIN_PASSWORD.
func Seed(ctx context.Context, db *DB, opts SeedOptions) (*SeedResult, error) {
	if opts.OrganizationName == "" {
		opts.OrganizationName = "Default organization"
	}
	if opts.AdminEmail == "" {
		opts.AdminEmail = "admin@turbinesim.local"
	}
	opts.AdminEmail = turbinesim.NormalizeEmail(opts.AdminEmail)
	users := NewUserService(db)

	var n int
	if err := db.GetContext(ctx, &n, `SELECT count(*) FROM users`); err != nil {
		return nil, translate(err, "counting users")
	}
	if n > 0 {
		res := &SeedResult{Email: opts.AdminEmail}
		if opts.AdminPassword == "" {
			return res, nil
		}
		u, err := users.FindUserByEmail(ctx, opts.AdminEmail)
		if isNotFound(err) {
			return res, nil
		} else if err != nil {
			return nil, err
		}
		if err := users.SetPassword(ctx, u.ID, opts.AdminPassword); err != nil {
			return nil, fmt.Errorf("setting the admin password: %w", err)
		}
		res.Reset, res.Password = true, opts.AdminPassword
		return res, nil
	}

	password := opts.AdminPassword
	if password == "" {
		password = rand.Text() // 26 base32 characters, 130 bits
	}
	org := &turbinesim.Organization{Name: opts.OrganizationName, Plan: turbinesim.PlanBeta}
	if err := NewOrganizationService(db).CreateOrganization(ctx, org); err != nil {
		return nil, fmt.Errorf("seeding organization: %w", err)
	}
	admin := &turbinesim.User{
		OrganizationID: org.ID, Email: opts.AdminEmail, Name: "Administrator",
		Role: turbinesim.RoleAdmin, Verified: true,
	}
	if err := users.CreateUser(ctx, admin, password); err != nil {
		return nil, fmt.Errorf("seeding admin: %w", err)
	}
	return &SeedResult{Created: true, Email: admin.Email, Password: password}, nil
}
