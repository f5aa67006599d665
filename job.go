package turbinesim

import (
	"context"
	"math"
	"time"
)

// JobStatus is the state of a simulation job. The state machine is
//
//	queued ──► running ──► succeeded | failed
//	   │          │
//	   │          └──► cancelling ──► cancelled   (POST /jobs/{id}/cancel while running)
//	   └──► cancelled                             (POST /jobs/{id}/cancel before start)
//
// A running job whose worker dies goes back to running under a new attempt
// (attempt+1) on another worker; after MaxAttempts it fails.
type JobStatus string

const (
	JobQueued     JobStatus = "queued"
	JobRunning    JobStatus = "running"
	JobCancelling JobStatus = "cancelling"
	JobSucceeded  JobStatus = "succeeded"
	JobFailed     JobStatus = "failed"
	JobCancelled  JobStatus = "cancelled"
)

// JobStatuses lists every status, in state-machine order.
var JobStatuses = []JobStatus{JobQueued, JobRunning, JobCancelling, JobSucceeded, JobFailed, JobCancelled}

// Terminal reports whether s is final (no transition leaves it).
func (s JobStatus) Terminal() bool {
	return s == JobSucceeded || s == JobFailed || s == JobCancelled
}

// Valid reports whether s is one of JobStatuses.
func (s JobStatus) Valid() bool {
	for _, v := range JobStatuses {
		if s == v {
			return true
		}
	}
	return false
}

// Job is one simulation run of an organization.
type Job struct {
	ID             string    `json:"id" db:"id"`
	OrganizationID string    `json:"org_id" db:"organization_id"`
	Status         JobStatus `json:"status" db:"status"`
	TurbineID      *string   `json:"turbine_id" db:"turbine_id"`
	BatchID        *string   `json:"batch_id" db:"batch_id"`
	// Entrypoint is the slash-separated path of the main .fst inside the
	// job's input tree.
	Entrypoint string `json:"entrypoint" db:"entrypoint"`
	// SubmittedBy is the user; ClientID the API key's Client ID when the
	// job was submitted with a key.
	SubmittedBy *string `json:"submitted_by" db:"submitted_by"`
	ClientID    *string `json:"client_id" db:"client_id"`

	CreatedAt  time.Time  `json:"created_at" db:"created_at"`
	StartedAt  *time.Time `json:"started_at" db:"started_at"`
	FinishedAt *time.Time `json:"finished_at" db:"finished_at"`
	UpdatedAt  time.Time  `json:"updated_at" db:"updated_at"`

	// Progress: simulated time reached, end time, percent and the ETA the
	// solver extrapolates (seconds of wall time; nil when unknown).
	SimTime    float64  `json:"sim_time" db:"sim_time"`
	TMax       float64  `json:"t_max" db:"t_max"`
	Percent    float64  `json:"percent" db:"-"`
	ETASeconds *float64 `json:"eta_seconds" db:"eta_seconds"`

	Attempt     int `json:"attempt" db:"attempt"`
	MaxAttempts int `json:"max_attempts" db:"max_attempts"`
	// Detail says why a job failed or was cancelled.
	Detail *string `json:"detail" db:"detail"`

	// PriceCents is what the run was charged; Tokens what it consumed of
	// the token cap (RunWork.Tokens: steps × model size / WorkPerToken).
	// A run cancelled while running keeps the share of both that its
	// simulated time covers. Refunded is
	// set when the charge was returned (cancelled before start, or a
	// failure caused by the service).
	PriceCents int64      `json:"price_cents" db:"price_cents"`
	Tokens     int64      `json:"tokens" db:"tokens"`
	RefundedAt *time.Time `json:"refunded_at" db:"refunded_at"`

	// OutputFiles lists the published output files (succeeded jobs only).
	OutputFiles []string `json:"output_files" db:"-"`
	// Warnings are the submitted deck's (decks.Warnings), recorded with the
	// job: "file:line: variable: message" findings that OpenFAST would
	// run with, the file relative to the deck folder. Empty, not null,
	// when there were none.
	Warnings []string `json:"warnings" db:"-"`
	// Checks are the plausibility checks the finished run failed (the
	// solver's physical bounds of its outputs, RunCheck): empty when it
	// passed them all, nil when it was not checked (a run that did not
	// succeed, or one finished before runs were checked).
	Checks []RunCheck `json:"checks" db:"-"`

	InputKey  string  `json:"-" db:"input_key"`
	OutputKey *string `json:"-" db:"output_key"`
	Log       string  `json:"-" db:"log"`
}

// RunCheck is one plausibility check a finished run failed: its kind
// (non_finite, invalid_channel, overspeed, pitch_rate, yaw_rate,
// deflection, divergence), its severity, the output channel, the time
// and value where it failed and the bound it broke (nil where the kind has
// none), and a sentence saying so.
//
// Severity CheckError means the run's outputs are not physical (a value
// beyond a physical bound, a non-finite sample, divergence): the run is
// "flagged", and the batch analyses and the certification report leave it
// out of the design loads unless asked to include it. CheckWarning is a
// channel the deck asked for that has no values (OpenFAST's INVALID, e.g.
// a strain gage at a node the deck does not define): that channel is
// empty, the run's other loads stand.
type RunCheck struct {
	Kind     string   `json:"kind"`
	Severity string   `json:"severity"`
	Channel  string   `json:"channel"`
	Time     *float64 `json:"time"`
	Value    *float64 `json:"value"`
	Limit    *float64 `json:"limit"`
	Message  string   `json:"message"`
}

// Check severities (RunCheck.Severity).
const (
	CheckError   = "error"
	CheckWarning = "warning"
)

// RunFlagged reports whether checks hold a failed check of severity
// CheckError: the run's outputs are not physical.
func RunFlagged(checks []RunCheck) bool {
	for _, c := range checks {
		if c.Severity == CheckError {
			return true
		}
	}
	return false
}

// Flagged reports whether the run failed a plausibility check of
// severity CheckError.
func (j *Job) Flagged() bool { return RunFlagged(j.Checks) }

// SetPercent fills Percent from SimTime and TMax.
func (j *Job) SetPercent() {
	if j.TMax > 0 {
		j.Percent = math.Round(1000*min(j.SimTime/j.TMax, 1)) / 10
	}
	if j.Status == JobSucceeded {
		j.Percent = 100
	}
}

// JobPriceCents is the price of a run consuming tokens under plan p: a base
// fee per run plus a rate per 60 tokens, rounded up to the cent. Tokens
// come from the run's work (RunWork.Tokens: steps × model size); a token
// count beyond what RunWork.Tokens allows is refused, so the product
// never overflows.
func (p Plan) JobPriceCents(tokens int64) (int64, error) {
	if tokens < 0 || tokens > maxRunTokens*MaxBatchRuns {
		return 0, Errorf(EINVALID, "run price: %d tokens cannot be priced", tokens)
	}
	base, perMinute := int64(10), int64(30)
	switch p {
	case PlanPro:
		base, perMinute = 5, 20
	case PlanAcademic:
		base, perMinute = 5, 10
	case PlanEnterprise:
		base, perMinute = 2, 15
	}
	return base + (tokens*perMinute+59)/60, nil
}

// JobFilter selects a page of an organization's jobs.
type JobFilter struct {
	Status   JobStatus // empty: any
	Page     int       // 1-based
	PageSize int
}

// NewJob is a validated submission: the input tree (already checked) and
// the run's settings.
type NewJob struct {
	OrganizationID string
	SubmittedBy    string
	ClientID       string // empty unless submitted with an API key
	TurbineID      string // optional
	BatchID        string // optional
	// InputDir holds the deck; Entrypoint is the main .fst relative to it.
	InputDir   string
	Entrypoint string
	TMax       float64
	// Work is the run's work (DeckRunWork), which sets its tokens and
	// price.
	Work RunWork
	// Warnings are the deck's (LoadRunnableDeck), stored with the job.
	Warnings []string
	// IdempotencyKey and RequestHash make retried submissions safe: the
	// same key with the same hash returns the first job; another hash is
	// EINVALID; a submission still in progress under the key is ECONFLICT.
	IdempotencyKey string
	RequestHash    string
}

// JobService stores jobs, charges them and queues them.
type JobService interface {
	// SubmitJob stores the input tree, charges the organization (EPAYMENT
	// over a cap) and queues the job, all or nothing. replayed is true
	// when an idempotency key returned an earlier job.
	SubmitJob(ctx context.Context, nj *NewJob) (job *Job, replayed bool, err error)
	// FindJob returns one job of the organization (ENOTFOUND otherwise).
	FindJob(ctx context.Context, orgID, id string) (*Job, error)
	// ListJobs returns a page of the organization's jobs, newest first, and
	// the total count.
	ListJobs(ctx context.Context, orgID string, f JobFilter) ([]*Job, int, error)
	// CancelJob cancels a queued job at once (refunded) or asks the worker
	// of a running job to stop (status cancelling). A finished job is
	// ECONFLICT.
	CancelJob(ctx context.Context, orgID, id string) (*Job, error)
	// OpenOutputs makes a succeeded job's output tree readable until
	// release (ENOTFOUND when the job has none).
	OpenOutputs(ctx context.Context, orgID, id string) (dir string, release func(), err error)
	// OpenInputs makes a job's input tree (the run as submitted) readable
	// until release: a later run of a stored turbine may take its wind
	// file from there.
	OpenInputs(ctx context.Context, orgID, id string) (dir string, release func(), err error)
}
