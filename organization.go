package turbinesim

import (
	"context"
	"time"
)

// Plan is an organization's subscription plan; it sets the rate limits.
type Plan string

// Plans an organization can be on.
const (
	PlanBeta       Plan = "beta"
	PlanPro        Plan = "pro"
	PlanAcademic   Plan = "academic"
	PlanEnterprise Plan = "enterprise"
)

// Valid reports whether p is one of the known plans.
func (p Plan) Valid() bool {
	switch p {
	case PlanBeta, PlanPro, PlanAcademic, PlanEnterprise:
		return true
	}
	return false
}

// Organization is a tenant. Every user belongs to exactly one, and all turbine
// data is scoped to it.
type Organization struct {
	ID        string    `json:"id" db:"id"`
	Name      string    `json:"name" db:"name"`
	Plan      Plan      `json:"plan" db:"plan"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// Validate checks the fields a caller can set.
func (o *Organization) Validate() error {
	if o.Name == "" {
		return Errorf(EINVALID, "organization name required")
	} else if len(o.Name) > 200 {
		return Errorf(EINVALID, "organization name longer than 200 characters")
	} else if !o.Plan.Valid() {
		return Errorf(EINVALID, "unknown plan %q", o.Plan)
	}
	return nil
}

// OrganizationService reads and writes organizations.
type OrganizationService interface {
	// FindOrganizationByID returns ENOTFOUND when no organization has id.
	FindOrganizationByID(ctx context.Context, id string) (*Organization, error)

	// CreateOrganization validates org (EINVALID) and stores it, setting ID
	// and timestamps.
	CreateOrganization(ctx context.Context, org *Organization) error
}
