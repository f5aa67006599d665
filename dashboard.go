package turbinesim

import "context"

// Dashboard is the overview shown on the landing page and returned by
// GET /dashboard.
type Dashboard struct {
	Organization   *Organization `json:"organization"`
	MemberCount    int           `json:"member_count"`
	TurbineCount   int           `json:"turbine_count"`
	JobCount       int           `json:"job_count"`
	ActiveJobCount int           `json:"active_job_count"` // queued, running or cancelling
	StudyCount     int           `json:"study_count"`
}

// DashboardService computes the dashboard of an organization.
type DashboardService interface {
	// Dashboard returns ENOTFOUND for an unknown organization.
	Dashboard(ctx context.Context, orgID string) (*Dashboard, error)
}
