package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/turbinesim/turbinesim"
)

// JobService implements turbinesim.JobService: jobs rows, their charge and
// their queue entry.
type JobService struct {
	db    *DB
	trees turbinesim.TreeStore
	caps  *CapService
	queue *Queue
}

var _ turbinesim.JobService = (*JobService)(nil)

// NewJobService returns the job store. queue is an insert-capable River
// client on the same database (NewQueue).
func NewJobService(db *DB, trees turbinesim.TreeStore, caps *CapService, queue *Queue) *JobService {
	return &JobService{db: db, trees: trees, caps: caps, queue: queue}
}

// Trees is the blob store holding job inputs and outputs.
func (s *JobService) Trees() turbinesim.TreeStore { return s.trees }

const jobColumns = `id, organization_id, status, turbine_id, batch_id, entrypoint, submitted_by, client_id,
	created_at, started_at, finished_at, updated_at, sim_time, t_max, eta_seconds, attempt, max_attempts,
	detail, price_cents, tokens, refunded_at, input_key, output_key, log, output_files, warnings, checks, name, tags, setup`

// jobRefColumns name what a job refers to (its turbine, batch and
// submitter), for reads FROM jobs; scalar subqueries, so jobColumns stay
// unqualified.
const jobRefColumns = `coalesce((SELECT t.name FROM turbines t WHERE t.id = jobs.turbine_id), '') AS turbine_name,
	coalesce((SELECT b.name FROM batches b WHERE b.id = jobs.batch_id), '') AS batch_name,
	coalesce((SELECT u.email FROM users u WHERE u.id = jobs.submitted_by), '') AS submitted_by_email`

// jobRow is a jobs row as scanned; output_files, warnings, checks and
// setup are JSON (checks NULL for a run that was not checked), tags a
// text array.
type jobRow struct {
	turbinesim.Job
	OutputFilesJSON []byte         `db:"output_files"`
	WarningsJSON    []byte         `db:"warnings"`
	ChecksJSON      []byte         `db:"checks"`
	TagsArray       pq.StringArray `db:"tags"`
	SetupJSON       []byte         `db:"setup"`
}

func (r *jobRow) job() *turbinesim.Job {
	j := r.Job
	_ = json.Unmarshal(r.OutputFilesJSON, &j.OutputFiles)
	if j.OutputFiles == nil {
		j.OutputFiles = []string{}
	}
	_ = json.Unmarshal(r.WarningsJSON, &j.Warnings)
	if j.Warnings == nil {
		j.Warnings = []string{}
	}
	if r.ChecksJSON != nil {
		_ = json.Unmarshal(r.ChecksJSON, &j.Checks)
		if j.Checks == nil {
			j.Checks = []turbinesim.RunCheck{}
		}
	}
	j.Tags = []string(r.TagsArray)
	if j.Tags == nil {
		j.Tags = []string{}
	}
	if len(r.SetupJSON) > 0 {
		var setup turbinesim.RunSetup
		if json.Unmarshal(r.SetupJSON, &setup) == nil {
			j.Setup = &setup
		}
	}
	j.SetPercent()
	return &j
}

// DefaultJobMaxAttempts is how often a job is started before it fails for
// good (worker crashes, service-side failures).
const DefaultJobMaxAttempts = 3

// SubmitJob implements turbinesim.JobService. The input tree is stored
// first (outside the transaction); the charge, the row and the River entry
// then commit together, and the tree is deleted again when they do not.
func (s *JobService) SubmitJob(ctx context.Context, nj *turbinesim.NewJob) (*turbinesim.Job, bool, error) {
	if !isUUID(nj.OrganizationID) {
		return nil, false, turbinesim.Errorf(turbinesim.ENOTFOUND, "organization not found")
	}
	if nj.TMax <= 0 {
		return nil, false, turbinesim.Errorf(turbinesim.EINVALID, "t_max: must be positive")
	}
	key, err := s.trees.Put(ctx, nj.InputDir)
	if err != nil {
		return nil, false, fmt.Errorf("storing job inputs: %w", err)
	}
	job, replayed, err := s.submitTx(ctx, nj, key)
	if err != nil || replayed {
		s.trees.Delete(context.WithoutCancel(ctx), key)
	}
	return job, replayed, err
}

func (s *JobService) submitTx(ctx context.Context, nj *turbinesim.NewJob, inputKey string) (*turbinesim.Job, bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, false, translate(err, "starting submit")
	}
	defer tx.Rollback()

	if nj.IdempotencyKey != "" {
		// One submission per (organization, key) at a time: a second one
		// while the first is still in its transaction is "in flight".
		var locked bool
		if err := tx.GetContext(ctx, &locked, `SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`,
			nj.OrganizationID, nj.IdempotencyKey); err != nil {
			return nil, false, translate(err, "locking idempotency key")
		}
		if !locked {
			return nil, false, turbinesim.Errorf(turbinesim.ECONFLICT, "a submission with this Idempotency-Key is in progress")
		}
		var prev struct {
			jobRow
			RequestHash *string `db:"request_hash"`
		}
		err := tx.GetContext(ctx, &prev, `SELECT `+jobColumns+`, request_hash FROM jobs
			WHERE organization_id = $1 AND idempotency_key = $2`, nj.OrganizationID, nj.IdempotencyKey)
		switch {
		case err == nil:
			if prev.RequestHash == nil || *prev.RequestHash != nj.RequestHash {
				return nil, false, turbinesim.Errorf(turbinesim.EINVALID,
					"Idempotency-Key was already used with a different request")
			}
			return prev.job(), true, nil
		case !errors.Is(err, sql.ErrNoRows):
			return nil, false, translate(err, "looking up idempotency key")
		}
	}

	var plan turbinesim.Plan
	if err := tx.GetContext(ctx, &plan, `SELECT plan FROM organizations WHERE id = $1`, nj.OrganizationID); err != nil {
		return nil, false, translate(err, "reading plan")
	}
	tokens, err := nj.Work.Tokens()
	if err != nil {
		return nil, false, err
	}
	price, err := plan.JobPriceCents(tokens)
	if err != nil {
		return nil, false, err
	}
	warnings, err := json.Marshal(nonNil(nj.Warnings))
	if err != nil {
		return nil, false, fmt.Errorf("encoding job warnings: %w", err)
	}
	setup, err := setupJSON(nj.Setup)
	if err != nil {
		return nil, false, err
	}
	name := nj.Name
	if name == "" {
		name = nj.Entrypoint
	}
	var row jobRow
	err = tx.GetContext(ctx, &row, `
		INSERT INTO jobs (organization_id, turbine_id, batch_id, entrypoint, submitted_by, client_id,
		                  input_key, t_max, max_attempts, price_cents, tokens, charge_month,
		                  idempotency_key, request_hash, warnings, name, tags, setup)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, current_date, $12, $13, $14, $15, $16, $17)
		RETURNING `+jobColumns,
		nj.OrganizationID, nullString(nj.TurbineID), nullString(nj.BatchID), nj.Entrypoint,
		nullString(nj.SubmittedBy), nullString(nj.ClientID), inputKey, nj.TMax, DefaultJobMaxAttempts,
		price, tokens, nullString(nj.IdempotencyKey), nullString(nj.RequestHash), warnings,
		name, pq.StringArray(nonNil(nj.Tags)), setup)
	if err != nil {
		return nil, false, translate(err, "inserting job")
	}
	entry, err := s.queue.InsertTx(ctx, tx.Tx, SimulationArgs{JobID: row.ID},
		&river.InsertOpts{MaxAttempts: DefaultJobMaxAttempts})
	if err != nil {
		return nil, false, translate(err, "queueing job")
	}
	// The charge comes last: its row lock on the organization's usage is
	// then held only until the commit, so concurrent submissions of one
	// organization serialize on the shortest possible section.
	usage, err := s.caps.ChargeTx(ctx, tx, nj.OrganizationID, price, tokens)
	if err != nil {
		return nil, false, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET charge_month = $2, queue_id = $3 WHERE id = $1`,
		row.ID, usage.Month, entry.Job.ID); err != nil {
		return nil, false, translate(err, "recording charge month")
	}
	if nj.TurbineID != "" {
		// The caller validated the turbine's deck for this submission
		// (is_validated: the deck passed the validator at the last submission;
		// an edit clears it and the next submission checks again).
		if _, err := tx.ExecContext(ctx, `UPDATE turbines SET is_validated = true
			WHERE id = $1 AND organization_id = $2`, nj.TurbineID, nj.OrganizationID); err != nil {
			return nil, false, translate(err, "marking turbine validated")
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, false, translate(err, "committing submit")
	}
	return row.job(), false, nil
}

// setupJSON encodes a run's setup for the jobs.setup column (NULL when
// nil).
func setupJSON(s *turbinesim.RunSetup) (*string, error) {
	if s == nil {
		return nil, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding run setup: %w", err)
	}
	return new(string(b)), nil
}

// nonNil is xs, or an empty slice for nil (JSON [] rather than null).
func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// FindJob implements turbinesim.JobService.
func (s *JobService) FindJob(ctx context.Context, orgID, id string) (*turbinesim.Job, error) {
	if !isUUID(orgID) || !isUUID(id) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "job not found")
	}
	var row jobRow
	err := s.db.GetContext(ctx, &row, `SELECT `+jobColumns+`, `+jobRefColumns+` FROM jobs WHERE id = $1 AND organization_id = $2`, id, orgID)
	if err = translate(err, "finding job"); err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
			return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "job not found")
		}
		return nil, err
	}
	return row.job(), nil
}

// jobOrder maps turbinesim.JobSorts to ORDER BY clauses; every order
// ends on the id, so pages do not overlap.
var jobOrder = map[string]string{
	"-created": "created_at DESC, id DESC",
	"created":  "created_at, id",
	"name":     "lower(name), created_at DESC, id DESC",
	"-name":    "lower(name) DESC, created_at DESC, id DESC",
	"status":   "status, created_at DESC, id DESC",
	"-status":  "status DESC, created_at DESC, id DESC",
	"turbine":  "lower(turbine_name), created_at DESC, id DESC",
	"-turbine": "lower(turbine_name) DESC, created_at DESC, id DESC",
	"price":    "price_cents, created_at DESC, id DESC",
	"-price":   "price_cents DESC, created_at DESC, id DESC",
}

// ListJobs implements turbinesim.JobService.
func (s *JobService) ListJobs(ctx context.Context, orgID string, f turbinesim.JobFilter) ([]*turbinesim.Job, int, error) {
	if !isUUID(orgID) {
		return []*turbinesim.Job{}, 0, nil
	}
	if f.Status != "" && !f.Status.Valid() {
		return nil, 0, turbinesim.Errorf(turbinesim.EINVALID, "status: %q is not a job status", string(f.Status))
	}
	if !turbinesim.ValidJobSort(f.Sort) {
		return nil, 0, turbinesim.Errorf(turbinesim.EINVALID, "sort: %q is not one of %s", f.Sort, strings.Join(turbinesim.JobSorts, ", "))
	}
	for field, id := range map[string]string{"turbine_id": f.TurbineID, "batch_id": f.BatchID} {
		if id != "" && !isUUID(id) {
			return nil, 0, turbinesim.Errorf(turbinesim.EINVALID, "%s: %q is not an id", field, clipID(id))
		}
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize < 1 {
		f.PageSize = 20
	}
	order := jobOrder[f.Sort]
	if order == "" {
		order = jobOrder["-created"]
	}
	// Empty filters are NULL and pass every row.
	where := `organization_id = $1
		AND ($2::text IS NULL OR status = $2)
		AND ($3::text IS NULL OR strpos(lower(name), lower($3)) > 0)
		AND ($4::text IS NULL OR $4 = ANY(tags))
		AND ($5::uuid IS NULL OR turbine_id = $5)
		AND ($6::uuid IS NULL OR batch_id = $6)
		AND ($7::timestamptz IS NULL OR created_at >= $7)
		AND ($8::timestamptz IS NULL OR created_at < $8)`
	args := []any{orgID, nullString(string(f.Status)), nullString(f.Name), nullString(f.Tag),
		nullString(f.TurbineID), nullString(f.BatchID), f.From, f.To}
	var rows []jobRow
	err := s.db.SelectContext(ctx, &rows, `SELECT * FROM (SELECT `+jobColumns+`, `+jobRefColumns+` FROM jobs
		WHERE `+where+`) j ORDER BY `+order+` LIMIT $9 OFFSET $10`,
		append(args, f.PageSize, (f.Page-1)*f.PageSize)...)
	if err != nil {
		return nil, 0, translate(err, "listing jobs")
	}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM jobs WHERE `+where, args...); err != nil {
		return nil, 0, translate(err, "counting jobs")
	}
	jobs := make([]*turbinesim.Job, len(rows))
	for i := range rows {
		jobs[i] = rows[i].job()
	}
	return jobs, total, nil
}

// clipID shortens a malformed id for an error detail.
func clipID(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// UpdateJob implements turbinesim.JobService. The tag changes apply in
// one statement (replace, then add, then remove), so concurrent edits of
// different tags do not lose each other's.
func (s *JobService) UpdateJob(ctx context.Context, orgID, id string, u turbinesim.JobUpdate) (*turbinesim.Job, error) {
	if _, err := s.FindJob(ctx, orgID, id); err != nil {
		return nil, err
	}
	var name *string
	if u.Name != nil {
		n, err := turbinesim.CleanJobName("name", *u.Name)
		if err != nil {
			return nil, err
		}
		if n == "" {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "name: may not be empty")
		}
		name = &n
	}
	var replace any
	if u.Tags != nil {
		tags, err := turbinesim.CleanJobTags("tags", u.Tags)
		if err != nil {
			return nil, err
		}
		replace = pq.StringArray(tags)
	}
	add, err := turbinesim.CleanJobTags("add_tags", u.AddTags)
	if err != nil {
		return nil, err
	}
	remove, err := turbinesim.CleanJobTags("remove_tags", u.RemoveTags)
	if err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting job update")
	}
	defer tx.Rollback()
	var tags pq.StringArray
	err = tx.GetContext(ctx, &tags, `
		UPDATE jobs SET name = coalesce($3, name),
		       tags = ARRAY(SELECT t FROM unnest(coalesce($4::text[], tags) || $5::text[]) WITH ORDINALITY AS x(t, n)
		                    WHERE t <> ALL($6::text[])
		                    GROUP BY t ORDER BY min(n)),
		       updated_at = now()
		 WHERE id = $1 AND organization_id = $2
		RETURNING tags`, id, orgID, name, replace, pq.StringArray(add), pq.StringArray(remove))
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Constraint == "jobs_tags_check" {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "add_tags: at most %d tags per job", turbinesim.MaxJobTags)
	} else if err != nil {
		return nil, translate(err, "updating job")
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing job update")
	}
	return s.FindJob(ctx, orgID, id)
}

// CancelJob implements turbinesim.JobService. A queued job becomes
// cancelled and is refunded in the same transaction (its River entry is
// left to find the row cancelled and do nothing); a running job becomes
// cancelling, which its worker notices at its next progress write.
func (s *JobService) CancelJob(ctx context.Context, orgID, id string) (*turbinesim.Job, error) {
	if _, err := s.FindJob(ctx, orgID, id); err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting cancel")
	}
	defer tx.Rollback()
	var status turbinesim.JobStatus
	err = tx.GetContext(ctx, &status, `
		UPDATE jobs SET status = CASE status WHEN 'queued' THEN 'cancelled' ELSE 'cancelling' END,
		       finished_at = CASE status WHEN 'queued' THEN now() END,
		       detail = CASE status WHEN 'queued' THEN 'cancelled before start' ELSE 'cancellation requested' END,
		       updated_at = now()
		 WHERE id = $1 AND organization_id = $2 AND status IN ('queued', 'running')
		RETURNING status`, id, orgID)
	if errors.Is(err, sql.ErrNoRows) {
		j, ferr := s.FindJob(ctx, orgID, id)
		if ferr != nil {
			return nil, ferr
		}
		if j.Status == turbinesim.JobCancelling {
			return j, nil // already being cancelled: the request is satisfied
		}
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "job is %s; only queued or running jobs can be cancelled", j.Status)
	} else if err != nil {
		return nil, translate(err, "cancelling job")
	}
	if status == turbinesim.JobCancelled {
		if err := refundTx(ctx, tx, id); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing cancel")
	}
	return s.FindJob(ctx, orgID, id)
}

// refundTx returns a job's charge to the month it was charged in, at most
// once: the guard on refunded_at and the usage update are one statement.
func refundTx(ctx context.Context, q sqlx.ExtContext, jobID string) error {
	_, err := q.ExecContext(ctx, `
		WITH j AS (
			UPDATE jobs SET refunded_at = now()
			 WHERE id = $1 AND refunded_at IS NULL
			RETURNING organization_id, charge_month, price_cents, tokens)
		UPDATE org_usage u
		   SET spent_cents = greatest(u.spent_cents - j.price_cents, 0),
		       tokens = greatest(u.tokens - j.tokens, 0)
		  FROM j
		 WHERE u.organization_id = j.organization_id AND u.month = j.charge_month`, jobID)
	return translate(err, "refunding job")
}

// settleCancelledTx charges a job cancelled while running the share of
// its charge that its simulated time covers (sim_time / t_max, price and
// tokens rounded up to the cent and token) and returns the rest to the
// month it was charged in. Callers run it once, in the transaction that
// moves the job from cancelling to cancelled (that transition happens
// once); a refunded job is left alone.
func settleCancelledTx(ctx context.Context, q sqlx.ExtContext, jobID string) error {
	_, err := q.ExecContext(ctx, `
		WITH j AS (
			SELECT id, charge_month, price_cents, tokens,
			       least(greatest(coalesce(sim_time / nullif(t_max, 0), 0), 0), 1) AS share
			  FROM jobs WHERE id = $1 AND status = 'cancelled' AND refunded_at IS NULL),
		n AS (
			UPDATE jobs SET price_cents = ceil(j.price_cents * j.share)::bigint, tokens = ceil(j.tokens * j.share)::bigint,
			       detail = format('cancelled while running at %s %% of the simulated time: charged that share, %s of %s cents and %s of %s tokens',
			                       round((100 * j.share)::numeric, 1), ceil(j.price_cents * j.share)::bigint, j.price_cents,
			                       ceil(j.tokens * j.share)::bigint, j.tokens)
			  FROM j WHERE jobs.id = j.id
			RETURNING jobs.organization_id, j.charge_month, j.price_cents - jobs.price_cents AS cents, j.tokens - jobs.tokens AS tokens)
		UPDATE org_usage u
		   SET spent_cents = greatest(u.spent_cents - n.cents, 0), tokens = greatest(u.tokens - n.tokens, 0)
		  FROM n
		 WHERE u.organization_id = n.organization_id AND u.month = n.charge_month`, jobID)
	return translate(err, "settling a cancelled job")
}

// OpenOutputs implements turbinesim.JobService.
func (s *JobService) OpenOutputs(ctx context.Context, orgID, id string) (string, func(), error) {
	j, err := s.FindJob(ctx, orgID, id)
	if err != nil {
		return "", nil, err
	}
	if j.OutputKey == nil {
		return "", nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "job has no outputs")
	}
	return s.trees.Open(ctx, *j.OutputKey)
}

// OpenInputs implements turbinesim.JobService.
func (s *JobService) OpenInputs(ctx context.Context, orgID, id string) (string, func(), error) {
	j, err := s.FindJob(ctx, orgID, id)
	if err != nil {
		return "", nil, err
	}
	return s.trees.Open(ctx, j.InputKey)
}

// The methods below are the worker's side of the state machine. Every
// write after the claim is guarded by the attempt number, so an attempt
// that was given up (its worker presumed dead) cannot change the job.

// ClaimJob starts a new attempt of job id for its queue entry queueID
// (River's job id): queued (or running, when the previous attempt's worker
// died) becomes running with attempt+1 and a fresh heartbeat. It returns
// nil when there is nothing to run: the job was cancelled, is finished,
// was being cancelled when its worker died (then it is finished as
// cancelled here), or queueID is not the job's current queue entry (an
// entry RescueStaleJobs replaced; jobs.queue_id is pinned by the first
// claim when the inserter did not record it).
func (s *JobService) ClaimJob(ctx context.Context, id string, queueID int64) (*turbinesim.Job, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, translate(err, "starting claim")
	}
	defer tx.Rollback()
	if err := runSlotFree(ctx, tx, id); err != nil {
		return nil, err
	}
	var row jobRow
	err = tx.GetContext(ctx, &row, `
		UPDATE jobs SET status = 'running', attempt = attempt + 1, started_at = coalesce(started_at, now()),
		       sim_time = 0, eta_seconds = NULL, updated_at = now(), heartbeat_at = now(), queue_id = $2
		 WHERE id = $1 AND status IN ('queued', 'running') AND (queue_id IS NULL OR queue_id = $2)
		RETURNING `+jobColumns, id, queueID)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := tx.ExecContext(ctx, `
			UPDATE jobs SET status = 'cancelled', finished_at = now(), detail = 'cancelled', updated_at = now()
			 WHERE id = $1 AND status = 'cancelling' AND (queue_id IS NULL OR queue_id = $2)`, id, queueID)
		if err != nil {
			return nil, translate(err, "finishing a cancelled job")
		}
		if n, _ := res.RowsAffected(); n > 0 {
			if err := settleCancelledTx(ctx, tx, id); err != nil {
				return nil, err
			}
		}
		return nil, translate(tx.Commit(), "committing a cancelled job")
	} else if err != nil {
		return nil, translate(err, "claiming job")
	}
	if err := tx.Commit(); err != nil {
		return nil, translate(err, "committing claim")
	}
	return row.job(), nil
}

// ErrRunSlotBusy is ClaimJob's answer when the job must wait for a run
// slot: its organization runs as many jobs as its plan allows
// (Plan.MaxRunningJobs), or another organization with fewer runs going
// has one waiting. The worker snoozes the queue entry (no attempt used).
var ErrRunSlotBusy = errors.New("the job waits for a run slot of its organization")

// runSlotFree decides, under one advisory lock shared by every claim,
// whether job id may start now: a job that is already running (a
// rescued attempt) keeps its slot; a queued one needs its organization
// under its plan's limit of runs at once, and no other organization with
// fewer runs going (and under its own limit) may have a job ready to
// start — that organization gets the worker first, so free workers are
// shared out evenly rather than in submission order.
func runSlotFree(ctx context.Context, tx *sqlx.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('turbinesim run slots', 0))`); err != nil {
		return translate(err, "locking run slots")
	}
	var j struct {
		Org    string               `db:"organization_id"`
		Status turbinesim.JobStatus `db:"status"`
		Plan   turbinesim.Plan      `db:"plan"`
	}
	err := tx.GetContext(ctx, &j, `SELECT j.organization_id, j.status, o.plan FROM jobs j
		JOIN organizations o ON o.id = j.organization_id WHERE j.id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) || err == nil && j.Status != turbinesim.JobQueued {
		return nil // nothing to start, or a rescued attempt: ClaimJob decides
	} else if err != nil {
		return translate(err, "reading the job to claim")
	}
	var running int
	if err := tx.GetContext(ctx, &running, `SELECT count(*) FROM jobs
		WHERE organization_id = $1 AND status IN ('running', 'cancelling')`, j.Org); err != nil {
		return translate(err, "counting running jobs")
	}
	if running >= j.Plan.MaxRunningJobs() {
		return ErrRunSlotBusy
	}
	var fewer bool
	err = tx.GetContext(ctx, &fewer, `
		WITH busy AS (
			SELECT organization_id, count(*) AS n FROM jobs
			 WHERE status IN ('running', 'cancelling') GROUP BY organization_id)
		SELECT EXISTS (
			SELECT 1 FROM jobs q
			  JOIN organizations o ON o.id = q.organization_id
			  LEFT JOIN busy b ON b.organization_id = q.organization_id
			 WHERE q.status = 'queued' AND q.organization_id <> $1
			   AND coalesce(b.n, 0) < $2 AND coalesce(b.n, 0) < `+planLimitSQL("o.plan")+`
			   AND EXISTS (SELECT 1 FROM river_job r
			                WHERE r.state = 'available' AND r.scheduled_at <= now()
			                  AND (r.id = q.queue_id
			                       OR q.queue_id IS NULL AND r.kind = 'simulation' AND r.args->>'job_id' = q.id::text)))`,
		j.Org, running)
	if err != nil {
		return translate(err, "looking for organizations with fewer runs")
	}
	if fewer {
		return ErrRunSlotBusy
	}
	return nil
}

// planLimitSQL is Plan.MaxRunningJobs as an SQL expression of column.
func planLimitSQL(column string) string {
	var b strings.Builder
	b.WriteString("CASE " + column)
	for _, p := range turbinesim.Plans {
		fmt.Fprintf(&b, " WHEN '%s' THEN %d", p, p.MaxRunningJobs())
	}
	fmt.Fprintf(&b, " ELSE %d END", turbinesim.Plan("").MaxRunningJobs())
	return b.String()
}

// ReportProgress records an attempt's progress (and its heartbeat) and
// returns the job's status: cancelling tells the worker to stop; "" means
// the attempt is no longer the job's current one (stop, and publish
// nothing).
func (s *JobService) ReportProgress(ctx context.Context, id string, attempt int, simTime float64, eta *float64) (turbinesim.JobStatus, error) {
	var status turbinesim.JobStatus
	err := s.db.GetContext(ctx, &status, `
		UPDATE jobs SET sim_time = greatest(sim_time, $3), eta_seconds = $4, updated_at = now(), heartbeat_at = now()
		 WHERE id = $1 AND attempt = $2 AND status IN ('running', 'cancelling')
		RETURNING status`, id, attempt, simTime, eta)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return status, translate(err, "reporting progress")
}

// Heartbeat tells RescueStaleJobs that the attempt's worker is alive. The
// worker calls it every few seconds for the whole attempt (staging,
// preparing, running, publishing); a write of an attempt that is no
// longer current changes nothing.
func (s *JobService) Heartbeat(ctx context.Context, id string, attempt int) error {
	_, err := s.db.ExecContext(ctx, `
		UPDATE jobs SET heartbeat_at = now()
		 WHERE id = $1 AND attempt = $2 AND status IN ('running', 'cancelling')`, id, attempt)
	return translate(err, "writing heartbeat")
}

// Ping checks that the database answers (the rescuer's health check).
func (s *JobService) Ping(ctx context.Context) error {
	return translate(s.db.PingContext(ctx), "pinging the database")
}

// RescueStaleJobs hands the jobs whose worker stopped heartbeating more
// than staleAfter ago to another worker, instead of waiting for River's
// rescuer (which must wait out the whole wall-time limit of an attempt,
// because it cannot tell a dead worker from a long run). Any worker
// process may call it at any time: the rows are locked with FOR UPDATE
// SKIP LOCKED, so concurrent callers split them and each stale attempt is
// handled once. Only attempts whose queue entry River still shows running
// are considered (a replacement entry waiting for a worker is not stale),
// and none while the database server has been up for less than
// staleAfter (after a restart, live workers need time to heartbeat).
//
// For each stale job, in one transaction: its queue entry is cancelled
// through River (JobCancelTx: River's rescuer later finishes it as
// cancelled instead of retrying it, and a worker that was only cut off
// gets ClaimJob's refusal); then a cancelling job is finished as
// cancelled, a job that used its last attempt fails and is refunded, and
// any other gets a new queue entry with the attempts it has left
// (status stays running, progress is reset). The charge is never touched
// except by that refund, which refundTx makes happen at most once. The
// cut-off attempt's writes are refused from the next claim on (they are
// guarded by the attempt number).
func (s *JobService) RescueStaleJobs(ctx context.Context, staleAfter time.Duration) (requeued, finished int, err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, 0, translate(err, "starting rescue")
	}
	defer tx.Rollback()
	var stale []struct {
		ID          string               `db:"id"`
		Status      turbinesim.JobStatus `db:"status"`
		Attempt     int                  `db:"attempt"`
		MaxAttempts int                  `db:"max_attempts"`
		QueueID     *int64               `db:"queue_id"`
	}
	err = tx.SelectContext(ctx, &stale, `
		SELECT j.id, j.status, j.attempt, j.max_attempts, j.queue_id
		  FROM jobs j LEFT JOIN river_job r ON r.id = j.queue_id
		 WHERE j.status IN ('running', 'cancelling')
		   AND j.heartbeat_at < now() - make_interval(secs => $1)
		   AND (r.id IS NULL OR r.state = 'running')
		   AND pg_postmaster_start_time() < now() - make_interval(secs => $1)
		 ORDER BY j.heartbeat_at
		 LIMIT 100
		   FOR UPDATE OF j SKIP LOCKED`, staleAfter.Seconds())
	if err != nil {
		return 0, 0, translate(err, "finding stale jobs")
	}
	for _, j := range stale {
		if j.QueueID != nil {
			if _, err := s.queue.JobCancelTx(ctx, tx.Tx, *j.QueueID); err != nil && !errors.Is(err, river.ErrNotFound) {
				return 0, 0, translate(err, "cancelling a stale queue entry")
			}
		}
		switch {
		case j.Status == turbinesim.JobCancelling:
			_, err = tx.ExecContext(ctx, `
				UPDATE jobs SET status = 'cancelled', detail = 'cancelled while running', finished_at = now(),
				       updated_at = now(), eta_seconds = NULL
				 WHERE id = $1`, j.ID)
			if err == nil {
				err = settleCancelledTx(ctx, tx, j.ID)
			}
			finished++
		case j.Attempt >= j.MaxAttempts:
			_, err = tx.ExecContext(ctx, `
				UPDATE jobs SET status = 'failed', finished_at = now(), updated_at = now(), eta_seconds = NULL,
				       detail = 'the run was lost on every attempt (worker stopped or crashed)'
				 WHERE id = $1`, j.ID)
			if err == nil {
				err = refundTx(ctx, tx, j.ID)
			}
			finished++
		default:
			var entry *rivertype.JobInsertResult
			entry, err = s.queue.InsertTx(ctx, tx.Tx, SimulationArgs{JobID: j.ID},
				&river.InsertOpts{MaxAttempts: j.MaxAttempts - j.Attempt})
			if err == nil {
				_, err = tx.ExecContext(ctx, `
					UPDATE jobs SET queue_id = $2, sim_time = 0, eta_seconds = NULL, updated_at = now()
					 WHERE id = $1`, j.ID, entry.Job.ID)
			}
			requeued++
		}
		if err != nil {
			return 0, 0, translate(err, "rescuing job "+j.ID)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, translate(err, "committing rescue")
	}
	return requeued, finished, nil
}

// RequeueInterrupted hands back to the queue a job whose attempt the
// service stopped on purpose (a shutdown after its grace period), without
// counting that attempt: the job becomes queued with attempt-1 and a new
// queue entry carrying the attempts it has left, its progress reset; the
// charge is untouched. A job being cancelled is finished as cancelled
// instead (charged pro rata). Only the current attempt of a running job
// is requeued; anything else is left as it is.
func (s *JobService) RequeueInterrupted(ctx context.Context, id string, attempt int) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err, "starting requeue")
	}
	defer tx.Rollback()
	var j struct {
		Status      turbinesim.JobStatus `db:"status"`
		MaxAttempts int                  `db:"max_attempts"`
	}
	err = tx.GetContext(ctx, &j, `SELECT status, max_attempts FROM jobs
		WHERE id = $1 AND attempt = $2 AND status IN ('running', 'cancelling') FOR UPDATE`, id, attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	} else if err != nil {
		return translate(err, "locking the interrupted job")
	}
	if j.Status == turbinesim.JobCancelling {
		if _, err := tx.ExecContext(ctx, `
			UPDATE jobs SET status = 'cancelled', detail = 'cancelled while running', finished_at = now(),
			       updated_at = now(), eta_seconds = NULL
			 WHERE id = $1`, id); err != nil {
			return translate(err, "finishing a cancelled job")
		}
		if err := settleCancelledTx(ctx, tx, id); err != nil {
			return err
		}
		return translate(tx.Commit(), "committing a cancelled job")
	}
	entry, err := s.queue.InsertTx(ctx, tx.Tx, SimulationArgs{JobID: id},
		&river.InsertOpts{MaxAttempts: max(j.MaxAttempts-attempt+1, 1)})
	if err != nil {
		return translate(err, "queueing the interrupted job")
	}
	if _, err := tx.ExecContext(ctx, `
		UPDATE jobs SET status = 'queued', attempt = attempt - 1, queue_id = $2, sim_time = 0, eta_seconds = NULL,
		       updated_at = now(),
		       detail = 'requeued: the service stopped during attempt ' || $3::int || ', which does not count'
		 WHERE id = $1`, id, entry.Job.ID, attempt); err != nil {
		return translate(err, "requeueing the interrupted job")
	}
	return translate(tx.Commit(), "committing requeue")
}

// JobOutcome is how an attempt ended.
type JobOutcome struct {
	Status turbinesim.JobStatus // succeeded, failed or cancelled
	Detail string
	Log    string
	// OutputKey and OutputFiles name the published outputs (succeeded).
	OutputKey   string
	OutputFiles []string
	// Refund returns the charge (failures caused by the service).
	Refund bool
	// Checks are the plausibility checks a succeeded run failed (empty:
	// it passed); nil leaves the run unchecked.
	Checks []turbinesim.RunCheck
}

// FinishJob records the end of an attempt. It reports false when the
// attempt was no longer current (another attempt took over, or the job is
// already finished): then nothing changed, and the caller must discard its
// outputs. A job asked to cancel ends cancelled whatever the outcome.
func (s *JobService) FinishJob(ctx context.Context, id string, attempt int, o JobOutcome) (bool, error) {
	files, err := json.Marshal(o.OutputFiles)
	if err != nil || o.OutputFiles == nil {
		files = []byte("[]")
	}
	var checks *string
	if o.Checks != nil && o.Status == turbinesim.JobSucceeded {
		b, err := json.Marshal(o.Checks)
		if err != nil {
			return false, fmt.Errorf("encoding the run's checks: %w", err)
		}
		c := string(b)
		checks = &c
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, translate(err, "starting finish")
	}
	defer tx.Rollback()
	var status turbinesim.JobStatus
	err = tx.GetContext(ctx, &status, `
		UPDATE jobs SET status = CASE WHEN status = 'cancelling' THEN 'cancelled' ELSE $3 END,
		       detail = CASE WHEN status = 'cancelling' THEN 'cancelled while running' ELSE nullif($4, '') END,
		       output_key = CASE WHEN status = 'cancelling' THEN NULL ELSE nullif($5, '') END,
		       output_files = CASE WHEN status = 'cancelling' THEN '[]'::jsonb ELSE $6::jsonb END,
		       log = $7, finished_at = now(), updated_at = now(),
		       sim_time = CASE WHEN $3 = 'succeeded' AND status = 'running' THEN t_max ELSE sim_time END,
		       eta_seconds = NULL,
		       checks = CASE WHEN status = 'cancelling' THEN NULL ELSE $8::jsonb END
		 WHERE id = $1 AND attempt = $2 AND status IN ('running', 'cancelling')
		RETURNING status`, id, attempt, string(o.Status), o.Detail, o.OutputKey, string(files), o.Log, checks)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, translate(err, "finishing job")
	}
	if o.Refund && status == o.Status {
		if err := refundTx(ctx, tx, id); err != nil {
			return false, err
		}
	} else if status == turbinesim.JobCancelled {
		if err := settleCancelledTx(ctx, tx, id); err != nil {
			return false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return false, translate(err, "committing finish")
	}
	return status == o.Status, nil
}

// JobStatus returns a job's status in any organization (for workers).
func (s *JobService) JobStatus(ctx context.Context, id string) (turbinesim.JobStatus, error) {
	var st turbinesim.JobStatus
	err := s.db.GetContext(ctx, &st, `SELECT status FROM jobs WHERE id = $1`, id)
	return st, translate(err, "reading job status")
}

// FailLostJobs finishes, as failed and refunded, the unfinished jobs whose
// current queue entry River has given up on (discarded after its last
// attempt, or cancelled), so that no job stays running forever. It returns
// how many it finished. An entry RescueStaleJobs replaced is not the
// current one; a job whose entry was never recorded (jobs.queue_id NULL
// until its first claim) is matched by the entry's arguments.
func (s *JobService) FailLostJobs(ctx context.Context) (int, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, translate(err, "starting lost-job sweep")
	}
	defer tx.Rollback()
	var ids []string
	err = tx.SelectContext(ctx, &ids, `
		UPDATE jobs SET status = CASE WHEN jobs.status = 'cancelling' THEN 'cancelled' ELSE 'failed' END,
		       detail = CASE WHEN jobs.status = 'cancelling' THEN 'cancelled'
		                     ELSE 'the run was lost on every attempt (worker stopped or crashed)' END,
		       finished_at = now(), updated_at = now(), eta_seconds = NULL
		 WHERE jobs.status IN ('queued', 'running', 'cancelling')
		   AND EXISTS (SELECT 1 FROM river_job r
		                WHERE r.state IN ('discarded', 'cancelled')
		                  AND (r.id = jobs.queue_id
		                       OR jobs.queue_id IS NULL AND r.kind = 'simulation' AND r.args->>'job_id' = jobs.id::text))
		RETURNING jobs.id::text`)
	if err != nil {
		return 0, translate(err, "sweeping lost jobs")
	}
	for _, id := range ids {
		if err := refundTx(ctx, tx, id); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, translate(err, "committing lost-job sweep")
	}
	return len(ids), nil
}
