package db

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/turbinesim/turbinesim"
)

// BatchService implements turbinesim.BatchService on top of the job store:
// a batch's jobs are ordinary jobs rows (batch_id set), charged, inserted
// and queued exactly as JobService.SubmitJob does for one, but all in one
// transaction with one charge for the whole batch.
type BatchService struct {
	jobs *JobService
	now  func() time.Time
}

var _ turbinesim.BatchService = (*BatchService)(nil)

// NewBatchService returns the batch store over the job store (its
// database, blob store, cap ledger and queue client).
func NewBatchService(jobs *JobService) *BatchService {
	return &BatchService{jobs: jobs, now: time.Now}
}

const batchColumns = `id, organization_id, kind, turbine_id, name, request, run_count, price_cents, tokens,
	submitted_by, created_at, updated_at`

// batchRow is a batches row as scanned (request is jsonb).
type batchRow struct {
	turbinesim.Batch
	RequestJSON []byte `db:"request"`
}

func (r *batchRow) batch() *turbinesim.Batch {
	b := r.Batch
	b.Request = json.RawMessage(r.RequestJSON)
	return &b
}

// priceRuns prices each run under the plan: the same rule as a single job
// (RunWork.Tokens, Plan.JobPriceCents), so a batch costs exactly the sum
// of its runs submitted one by one.
func priceRuns(plan turbinesim.Plan, work []turbinesim.RunWork) (prices, tokens []int64, totalPrice, totalTokens int64, err error) {
	prices, tokens = make([]int64, len(work)), make([]int64, len(work))
	for i, w := range work {
		if tokens[i], err = w.Tokens(); err != nil {
			return nil, nil, 0, 0, err
		}
		if prices[i], err = plan.JobPriceCents(tokens[i]); err != nil {
			return nil, nil, 0, 0, err
		}
		totalPrice += prices[i]
		totalTokens += tokens[i]
	}
	return prices, tokens, totalPrice, totalTokens, nil
}

// QuoteBatch implements turbinesim.BatchService.
func (s *BatchService) QuoteBatch(ctx context.Context, orgID string, work []turbinesim.RunWork) (*turbinesim.BatchQuote, error) {
	if !isUUID(orgID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	var plan turbinesim.Plan
	if err := s.jobs.db.GetContext(ctx, &plan, `SELECT plan FROM organizations WHERE id = $1`, orgID); err != nil {
		return nil, translate(err, "reading plan")
	}
	_, _, price, tokens, err := priceRuns(plan, work)
	if err != nil {
		return nil, err
	}
	u, err := s.jobs.caps.CurrentUsage(ctx, orgID)
	if err != nil {
		return nil, err
	}
	q := &turbinesim.BatchQuote{Runs: len(work), Tokens: tokens, PriceCents: price,
		RemainingCents: max(u.SpendCapCents-u.SpentCents, 0), RemainingTokens: max(u.TokenCap-u.Tokens, 0), Usage: *u}
	q.Fits = price <= q.RemainingCents && tokens <= q.RemainingTokens
	return q, nil
}

// SubmitBatch implements turbinesim.BatchService. The input trees are
// stored first, outside the transaction (as SubmitJob does), each distinct
// InputDir once (a DLC batch's runs share the turbine's deck and differ by
// their recipes); the charge of the whole batch, the batch row, every job
// row with its recipe, the run names and every queue entry then commit
// together, and the trees are deleted again when they do not. A batch over
// a cap is refused before any tree is stored.
func (s *BatchService) SubmitBatch(ctx context.Context, nb *turbinesim.NewBatch) (*turbinesim.Batch, error) {
	switch {
	case !isUUID(nb.OrganizationID):
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	case len(nb.Runs) == 0:
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "the batch has no runs")
	case len(nb.Runs) > turbinesim.MaxBatchRuns:
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "the batch has %d runs, at most %d", len(nb.Runs), turbinesim.MaxBatchRuns)
	case nb.Kind != turbinesim.BatchDLC && nb.Kind != turbinesim.BatchParametric:
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "kind: %q is not dlc or parametric", nb.Kind)
	}
	work := make([]turbinesim.RunWork, len(nb.Runs))
	for i, r := range nb.Runs {
		if !(r.TMax > 0) {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "run %s: t_max must be positive", r.Name)
		}
		work[i] = r.Work
	}
	// Early refusal, so that an over-cap batch stores nothing; the
	// authoritative check is the charge inside the transaction.
	quote, err := s.QuoteBatch(ctx, nb.OrganizationID, work)
	if err != nil {
		return nil, err
	}
	if !quote.Fits {
		return nil, quote.Refusal()
	}
	keys := make([]string, len(nb.Runs))
	stored := map[string]string{} // InputDir → key
	cleanup := func() {
		for _, k := range stored {
			s.jobs.trees.Delete(context.WithoutCancel(ctx), k)
		}
	}
	for i, r := range nb.Runs {
		if r.Recipe != nil && !json.Valid(r.Recipe) {
			cleanup()
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "run %s: the recipe is not JSON", r.Name)
		}
		k, ok := stored[r.InputDir]
		if !ok {
			if k, err = s.jobs.trees.Put(ctx, r.InputDir); err != nil {
				cleanup()
				return nil, fmt.Errorf("storing inputs of run %s: %w", r.Name, err)
			}
			stored[r.InputDir] = k
		}
		keys[i] = k
	}
	b, err := s.submitTx(ctx, nb, keys)
	if err != nil {
		cleanup()
		return nil, err
	}
	return b, nil
}

func (s *BatchService) submitTx(ctx context.Context, nb *turbinesim.NewBatch, keys []string) (*turbinesim.Batch, error) {
	tx, err := s.jobs.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting batch submit")
	}
	defer tx.Rollback()

	var plan turbinesim.Plan
	if err := tx.GetContext(ctx, &plan, `SELECT plan FROM organizations WHERE id = $1`, nb.OrganizationID); err != nil {
		return nil, translate(err, "reading plan")
	}
	work := make([]turbinesim.RunWork, len(nb.Runs))
	for i, r := range nb.Runs {
		work[i] = r.Work
	}
	prices, tokens, totalPrice, totalTokens, err := priceRuns(plan, work)
	if err != nil {
		return nil, err
	}
	// One check-and-charge for the whole batch: all or nothing.
	usage, err := s.jobs.caps.ChargeTx(ctx, tx, nb.OrganizationID, totalPrice, totalTokens)
	if err != nil {
		return nil, err
	}
	req := nb.Request
	if len(req) == 0 {
		req = json.RawMessage("{}")
	}
	var row batchRow
	err = tx.GetContext(ctx, &row, `
		INSERT INTO batches (organization_id, kind, turbine_id, name, request, run_count, price_cents, tokens, submitted_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		RETURNING `+batchColumns,
		nb.OrganizationID, string(nb.Kind), nullString(nb.TurbineID), nb.Name, string(req), len(nb.Runs),
		totalPrice, totalTokens, nullString(nb.SubmittedBy))
	if err != nil {
		return nil, translate(err, "inserting batch")
	}
	params := make([]river.InsertManyParams, len(nb.Runs))
	for i, r := range nb.Runs {
		var jobID string
		var recipe *string
		if r.Recipe != nil {
			recipe = new(string(r.Recipe))
		}
		name := r.JobName
		if name == "" {
			name = r.Name
		}
		setup, err := setupJSON(r.Setup)
		if err != nil {
			return nil, err
		}
		err = tx.GetContext(ctx, &jobID, `
			INSERT INTO jobs (organization_id, turbine_id, batch_id, entrypoint, submitted_by, client_id,
			                  input_key, t_max, max_attempts, price_cents, tokens, charge_month, recipe, name, setup)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
			RETURNING id`,
			nb.OrganizationID, nullString(nb.TurbineID), row.ID, r.Entrypoint, nullString(nb.SubmittedBy),
			nullString(nb.ClientID), keys[i], r.TMax, DefaultJobMaxAttempts, prices[i], tokens[i], usage.Month, recipe,
			turbinesim.ClipJobName(name), setup)
		if err != nil {
			return nil, translate(err, "inserting job of run "+r.Name)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO batch_runs (batch_id, position, run_name, job_id) VALUES ($1, $2, $3, $4)`,
			row.ID, i, r.Name, jobID); err != nil {
			return nil, translate(err, "recording run "+r.Name)
		}
		params[i] = river.InsertManyParams{Args: SimulationArgs{JobID: jobID},
			InsertOpts: &river.InsertOpts{MaxAttempts: DefaultJobMaxAttempts}}
	}
	if _, err := s.jobs.queue.InsertManyTx(ctx, tx.Tx, params); err != nil {
		return nil, translate(err, "queueing batch jobs")
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing batch submit")
	}
	b := row.batch()
	b.Progress = turbinesim.BatchProgress{Total: len(nb.Runs), Queued: len(nb.Runs)}
	for _, r := range nb.Runs {
		b.Progress.TMax += r.TMax
	}
	b.Progress.Derive()
	return b, nil
}

// progressRow aggregates a batch's jobs.
type progressRow struct {
	BatchID string `db:"batch_id"`
	turbinesim.BatchProgress
	// Wall is the seconds since the first job started; SimDone the
	// simulated seconds reached; both feed the ETA.
	Wall *float64 `db:"wall"`
}

// progress reads the progress of the given batches.
func (s *BatchService) progress(ctx context.Context, ids []string) (map[string]turbinesim.BatchProgress, error) {
	out := map[string]turbinesim.BatchProgress{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []progressRow
	err := s.jobs.db.SelectContext(ctx, &rows, `
		SELECT batch_id::text AS batch_id, count(*) AS total,
		       count(*) FILTER (WHERE status = 'queued') AS queued,
		       count(*) FILTER (WHERE status IN ('running', 'cancelling')) AS running,
		       count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
		       count(*) FILTER (WHERE status = 'failed') AS failed,
		       count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
		       coalesce(sum(CASE WHEN status IN ('succeeded', 'failed', 'cancelled') THEN t_max ELSE sim_time END), 0) AS sim_time,
		       coalesce(sum(t_max), 0) AS t_max,
		       extract(epoch FROM now() - min(started_at))::float8 AS wall
		  FROM jobs WHERE batch_id = ANY($1::uuid[])
		 GROUP BY batch_id`, pqStringArray(ids))
	if err != nil {
		return nil, translate(err, "reading batch progress")
	}
	for _, r := range rows {
		p := r.BatchProgress
		p.Derive()
		// ETA from the batch's own pace since its first job started:
		// remaining simulated seconds over simulated seconds per wall
		// second (this counts every worker running the batch in parallel).
		if !p.Finished() && r.Wall != nil && *r.Wall > 0 && p.SimTime > 0 {
			rate := p.SimTime / *r.Wall
			eta := (p.TMax - p.SimTime) / rate
			p.ETASeconds = &eta
		}
		out[r.BatchID] = p
	}
	return out, nil
}

// pqStringArray renders ids as a PostgreSQL array literal (they are
// checked UUIDs, so no quoting is needed).
func pqStringArray(ids []string) string {
	b := []byte{'{'}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, id...)
	}
	return string(append(b, '}'))
}

// FindBatch implements turbinesim.BatchService.
func (s *BatchService) FindBatch(ctx context.Context, orgID, id string) (*turbinesim.Batch, error) {
	if !isUUID(orgID) || !isUUID(id) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "batch not found")
	}
	var row batchRow
	err := s.jobs.db.GetContext(ctx, &row, `SELECT `+batchColumns+` FROM batches WHERE id = $1 AND organization_id = $2`, id, orgID)
	if err = translate(err, "finding batch"); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "batch not found")
		}
		return nil, err
	}
	b := row.batch()
	prog, err := s.progress(ctx, []string{b.ID})
	if err != nil {
		return nil, err
	}
	b.Progress = prog[b.ID]
	b.Progress.Derive()
	return b, nil
}

// ListBatches implements turbinesim.BatchService.
func (s *BatchService) ListBatches(ctx context.Context, orgID string, page, pageSize int) ([]*turbinesim.Batch, int, error) {
	if !isUUID(orgID) {
		return []*turbinesim.Batch{}, 0, nil
	}
	page, pageSize = max(page, 1), max(pageSize, 1)
	var rows []batchRow
	if err := s.jobs.db.SelectContext(ctx, &rows, `SELECT `+batchColumns+` FROM batches
		WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
		orgID, pageSize, (page-1)*pageSize); err != nil {
		return nil, 0, translate(err, "listing batches")
	}
	var total int
	if err := s.jobs.db.GetContext(ctx, &total, `SELECT count(*) FROM batches WHERE organization_id = $1`, orgID); err != nil {
		return nil, 0, translate(err, "counting batches")
	}
	ids := make([]string, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	prog, err := s.progress(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*turbinesim.Batch, len(rows))
	for i := range rows {
		out[i] = rows[i].batch()
		out[i].Progress = prog[out[i].ID]
		out[i].Progress.Derive()
	}
	return out, total, nil
}

// BatchJobs implements turbinesim.BatchService.
func (s *BatchService) BatchJobs(ctx context.Context, orgID, id string) ([]turbinesim.BatchRunJob, error) {
	if _, err := s.FindBatch(ctx, orgID, id); err != nil {
		return nil, err
	}
	var rows []struct {
		RunName string `db:"run_name"`
		jobRow
	}
	err := s.jobs.db.SelectContext(ctx, &rows, `SELECT r.run_name, `+prefixed("j.", jobColumns)+`
		  FROM batch_runs r JOIN jobs j ON j.id = r.job_id
		 WHERE r.batch_id = $1 AND j.organization_id = $2 ORDER BY r.position`, id, orgID)
	if err != nil {
		return nil, translate(err, "listing batch jobs")
	}
	out := make([]turbinesim.BatchRunJob, len(rows))
	for i := range rows {
		out[i] = turbinesim.BatchRunJob{Run: rows[i].RunName, Job: rows[i].job()}
	}
	return out, nil
}

// BatchRunsUnfinished counts the jobs of a batch not yet finished
// (queued, running or cancelling), for the worker's clean-up of the
// batch's shared box folder (infra/runner).
func (s *JobService) BatchRunsUnfinished(ctx context.Context, batchID string) (int, error) {
	if !isUUID(batchID) {
		return 0, turbinesim.Errorf(turbinesim.ENOTFOUND, "batch not found")
	}
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM jobs WHERE batch_id = $1 AND status IN ('queued', 'running', 'cancelling')`, batchID)
	return n, translate(err, "counting a batch's unfinished jobs")
}

// RunRecipe returns the job's run recipe (batches.RunRecipe JSON), or
// nil when the job's input tree is the run as it is. The worker reads it
// after claiming the job (infra/runner/prepare.go).
func (s *JobService) RunRecipe(ctx context.Context, jobID string) (json.RawMessage, error) {
	if !isUUID(jobID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "job not found")
	}
	var recipe *string
	if err := s.db.GetContext(ctx, &recipe, `SELECT recipe FROM jobs WHERE id = $1`, jobID); err != nil {
		return nil, translate(err, "reading the run recipe")
	}
	if recipe == nil {
		return nil, nil
	}
	return json.RawMessage(*recipe), nil
}
