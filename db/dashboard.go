package db

import (
	"context"
	"time"

	"github.com/turbinesim/turbinesim"
)

// DashboardService implements turbinesim.DashboardService.
type DashboardService struct {
	db      *DB
	orgs    *OrganizationService
	users   *UserService
	caps    *CapService
	batches *BatchService
	now     func() time.Time
}

var _ turbinesim.DashboardService = (*DashboardService)(nil)

// NewDashboardService returns the dashboard computed from PostgreSQL.
func NewDashboardService(db *DB) *DashboardService {
	return &DashboardService{db: db, orgs: NewOrganizationService(db), users: NewUserService(db),
		caps: NewCapService(db, nil), batches: NewBatchService(&JobService{db: db}), now: time.Now}
}

// Dashboard implements turbinesim.DashboardService.
func (s *DashboardService) Dashboard(ctx context.Context, orgID string) (*turbinesim.Dashboard, error) {
	org, err := s.orgs.FindOrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	d := &turbinesim.Dashboard{Organization: org, Since: s.now().Add(-24 * time.Hour).UTC()}
	if d.MemberCount, err = s.users.CountMembers(ctx, orgID); err != nil {
		return nil, err
	}
	// One statement, so the counts are of one snapshot.
	err = s.db.QueryRowxContext(ctx, `
		SELECT (SELECT count(*) FROM turbines WHERE organization_id = $1),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1
		                                    AND status IN ('queued', 'running', 'cancelling')),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1 AND status = 'queued'),
		       (SELECT count(*) FROM jobs WHERE organization_id = $1 AND status = 'failed' AND finished_at >= $2),
		       (SELECT count(*) FROM studies WHERE organization_id = $1)`, orgID, d.Since).
		Scan(&d.TurbineCount, &d.JobCount, &d.ActiveJobCount, &d.QueuedCount, &d.FailedCount, &d.StudyCount)
	if err != nil {
		return nil, translate(err, "counting the dashboard")
	}
	if err := s.dayLists(ctx, orgID, d); err != nil {
		return nil, err
	}
	if d.Usage, err = s.caps.CurrentUsage(ctx, orgID); err != nil {
		return nil, err
	}
	return d, nil
}

// dayLists reads the running and queued runs (with their queue
// positions: workers take an organization's queued runs in the order
// they were queued, a batch's runs in their batch order), the failed and the latest succeeded
// runs, and the batches in progress.
func (s *DashboardService) dayLists(ctx context.Context, orgID string, d *turbinesim.Dashboard) error {
	limit := turbinesim.DashboardListLimit
	var active []struct {
		jobRow
		Position int `db:"queue_position"`
	}
	err := s.db.SelectContext(ctx, &active, `
		SELECT * FROM (
			SELECT `+jobColumns+`, `+jobRefColumns+`,
			       CASE WHEN status = 'queued'
			            THEN row_number() OVER (PARTITION BY status = 'queued'
			                 ORDER BY created_at, (SELECT r.position FROM batch_runs r WHERE r.job_id = jobs.id), id) ELSE 0 END AS queue_position
			  FROM jobs WHERE organization_id = $1 AND status IN ('queued', 'running', 'cancelling')) j
		 ORDER BY queue_position, started_at, created_at, id LIMIT $2`, orgID, limit)
	if err != nil {
		return translate(err, "listing active runs")
	}
	d.Active = make([]*turbinesim.DashboardJob, len(active))
	for i := range active {
		d.Active[i] = &turbinesim.DashboardJob{Job: active[i].job(), QueuePosition: active[i].Position}
	}
	read := func(where string, args ...any) ([]*turbinesim.Job, error) {
		var rows []jobRow
		if err := s.db.SelectContext(ctx, &rows, `SELECT `+jobColumns+`, `+jobRefColumns+` FROM jobs
			WHERE organization_id = $1 AND `+where+` ORDER BY finished_at DESC, id DESC LIMIT $2`, args...); err != nil {
			return nil, translate(err, "listing the day's runs")
		}
		out := make([]*turbinesim.Job, len(rows))
		for i := range rows {
			out[i] = rows[i].job()
		}
		return out, nil
	}
	if d.Failed, err = read(`status = 'failed' AND finished_at >= $3`, orgID, limit, d.Since); err != nil {
		return err
	}
	if d.Recent, err = read(`status = 'succeeded'`, orgID, limit); err != nil {
		return err
	}
	var ids []string
	if err := s.db.SelectContext(ctx, &ids, `
		SELECT b.id FROM batches b
		 WHERE b.organization_id = $1
		   AND EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = b.id AND j.status IN ('queued', 'running', 'cancelling'))
		 ORDER BY b.created_at DESC, b.id DESC LIMIT $2`, orgID, limit); err != nil {
		return translate(err, "listing batches in progress")
	}
	d.Batches = []*turbinesim.Batch{}
	for _, id := range ids {
		b, err := s.batches.FindBatch(ctx, orgID, id)
		if err != nil {
			return err
		}
		d.Batches = append(d.Batches, b)
	}
	return nil
}
