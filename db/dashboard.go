package db

import (
	"context"

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
	// One statement, so the counts are of one snapshot.
	err = s.db.QueryRowxContext(ctx, `
		SELECT (SELECT count(*) FROM turbines WHERE organization_id = $1),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1
		                                    AND status IN ('queued', 'running', 'cancelling')),
		       (SELECT count(*) FROM studies WHERE organization_id = $1)`, orgID).
		Scan(&d.TurbineCount, &d.JobCount, &d.ActiveJobCount, &d.StudyCount)
	if err != nil {
		return nil, translate(err, "counting the dashboard")
	}
	return d, nil
}
