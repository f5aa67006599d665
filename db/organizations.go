package db

import (
	"context"

	"github.com/turbinesim/turbinesim"
)

// OrganizationService implements turbinesim.OrganizationService.
type OrganizationService struct{ db *DB }

var _ turbinesim.OrganizationService = (*OrganizationService)(nil)

// NewOrganizationService returns the PostgreSQL organization store.
func NewOrganizationService(db *DB) *OrganizationService { return &OrganizationService{db: db} }

// FindOrganizationByID implements turbinesim.OrganizationService.
func (s *OrganizationService) FindOrganizationByID(ctx context.Context, id string) (*turbinesim.Organization, error) {
	if !isUUID(id) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	var org turbinesim.Organization
	err := s.db.GetContext(ctx, &org, `
		SELECT id, name, plan, created_at, updated_at
		  FROM organizations
		 WHERE id = $1`, id)
	if err != nil {
		if turbinesim.ErrorCode(translate(err, "")) == turbinesim.ENOTFOUND {
			return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
		}
		return nil, translate(err, "finding organization")
	}
	return &org, nil
}

// CreateOrganization implements turbinesim.OrganizationService.
func (s *OrganizationService) CreateOrganization(ctx context.Context, org *turbinesim.Organization) error {
	if org.Plan == "" {
		org.Plan = turbinesim.PlanBeta
	}
	if err := org.Validate(); err != nil {
		return err
	}
	err := s.db.QueryRowxContext(ctx, `
		INSERT INTO organizations (name, plan)
		VALUES ($1, $2)
		RETURNING id, created_at, updated_at`, org.Name, org.Plan).
		Scan(&org.ID, &org.CreatedAt, &org.UpdatedAt)
	return translate(err, "creating organization")
}
