package db

import (
	"context"
	"fmt"

	"github.com/turbinesim/turbinesim"
)

// DashboardService implements turbinesim.DashboardService.
type DashboardService struct {
	db    *DB
	orgs  *OrganizationService
	users *UserService
}

var _ turbinesim.DashboardService = (*DashboardService)(nil)

// NewDashboardService returns the dashboard computed from PostgreSQL.
func NewDashboardService(db *DB) *DashboardService {
	return &DashboardService{db: db, orgs: NewOrganizationService(db), users: NewUserService(db)}
}

// Dashboard implements turbinesim.DashboardService.
func (s *DashboardService) Dashboard(ctx context.Context, orgID string) (*turbinesim.Dashboard, error) {
	org, err := s.orgs.FindOrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	d := &turbinesim.Dashboard{Organization: org}
	if d.MemberCount, err = s.users.CountMembers(ctx, orgID); err != nil {
		return nil, err
	}
	if d.TurbineCount, err = s.countIfPresent(ctx, "turbines", orgID); err != nil {
		return nil, err
	}
	if d.JobCount, err = s.countIfPresent(ctx, "jobs", orgID); err != nil {
		return nil, err
	}
	return d, nil
}

// countIfPresent counts an organization's rows of table, or returns nil when
// the table (with an organization_id column) has not been created yet by a
// later migration: a dashboard must not show "0 jobs" for a feature that
// does not exist.
func (s *DashboardService) countIfPresent(ctx context.Context, table, orgID string) (*int, error) {
	var present bool
	err := s.db.GetContext(ctx, &present, `
		SELECT EXISTS (
			SELECT 1 FROM information_schema.columns
			 WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'organization_id')`, table)
	if err != nil {
		return nil, translate(err, "checking table "+table)
	}
	if !present {
		return nil, nil
	}
	var n int
	// table is one of the fixed names above, never user input.
	if err := s.db.GetContext(ctx, &n, fmt.Sprintf(`SELECT count(*) FROM %s WHERE organization_id = $1`, table), orgID); err != nil {
		return nil, translate(err, "counting "+table)
	}
	return &n, nil
}
