package turbinesim

import (
	"context"
	"time"
)

// Dashboard is the overview shown on the landing page and returned by
// GET /dashboard.
type Dashboard struct {
	Organization   *Organization `json:"organization"`
	MemberCount    int           `json:"member_count"`
	TurbineCount   int           `json:"turbine_count"`
	JobCount       int           `json:"job_count"`
	ActiveJobCount int           `json:"active_job_count"` // queued, running or cancelling
	StudyCount     int           `json:"study_count"`

	// The day's work. Active are the running and queued runs, running
	// first, then in the order they will start (QueuePosition 1 is next);
	// Failed the runs that failed in the last 24 hours (FailedCount of
	// them in all), newest first; Batches those with runs not finished;
	// Recent the latest succeeded runs; Usage this month's spend and
	// tokens against the caps. Lists are bounded (DashboardListLimit).
	Active      []*DashboardJob `json:"active"`
	QueuedCount int             `json:"queued_count"`
	Failed      []*Job          `json:"failed"`
	FailedCount int             `json:"failed_count"`
	Batches     []*Batch        `json:"batches"`
	Recent      []*Job          `json:"recent"`
	Usage       *Usage          `json:"usage"`
	// Since is the start of the failed-runs window.
	Since time.Time `json:"failed_since"`
}

// DashboardListLimit bounds each list of the dashboard.
const DashboardListLimit = 10

// DashboardJob is a running or queued run with its place in the
// organization's queue (0 once it runs).
type DashboardJob struct {
	*Job
	QueuePosition int `json:"queue_position,omitempty"`
}

// DashboardService computes the dashboard of an organization.
type DashboardService interface {
	// Dashboard returns ENOTFOUND for an unknown organization.
	Dashboard(ctx context.Context, orgID string) (*Dashboard, error)
}
