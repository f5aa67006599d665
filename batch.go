package turbinesim

import (
	"context"
	"encoding/json"
	"time"
)

// BatchKind says what expanded a batch into its runs.
type BatchKind string

const (
	// BatchDLC is a design load basis (IEC 61400-1 DLCs, solver/dlc.Expand).
	BatchDLC BatchKind = "dlc"
	// BatchParametric is a full-factorial parameter sweep
	// (solver/dlc.ExpandSweep).
	BatchParametric BatchKind = "parametric"
)

// MaxBatchRuns caps the runs of one batch. Every run's deck and wind file
// are prepared while the submit request is served (see db.BatchService),
// so the cap bounds the request's work as much as the bill.
const MaxBatchRuns = 500

// Batch is a set of jobs submitted together: one charge, one transaction.
type Batch struct {
	ID             string    `json:"id" db:"id"`
	OrganizationID string    `json:"org_id" db:"organization_id"`
	Kind           BatchKind `json:"kind" db:"kind"`
	TurbineID      *string   `json:"turbine_id" db:"turbine_id"`
	Name           string    `json:"name" db:"name"`
	// Request is the submitted request as stored (the DLC or sweep
	// request, after defaults), so that the report can restate the design
	// basis.
	Request     json.RawMessage `json:"request" db:"request"`
	RunCount    int             `json:"run_count" db:"run_count"`
	PriceCents  int64           `json:"price_cents" db:"price_cents"`
	Tokens      int64           `json:"tokens" db:"tokens"`
	SubmittedBy *string         `json:"submitted_by" db:"submitted_by"`
	CreatedAt   time.Time       `json:"created_at" db:"created_at"`
	UpdatedAt   time.Time       `json:"updated_at" db:"updated_at"`

	// Progress is derived from the batch's jobs when the batch is read.
	Progress BatchProgress `json:"progress" db:"-"`
}

// BatchProgress counts a batch's jobs by state. Status is derived:
// queued (nothing started), running (some job not finished), succeeded
// (every job succeeded), failed (finished, at least one failed), cancelled
// (finished, none failed, at least one cancelled).
type BatchProgress struct {
	Status    string  `json:"status"`
	Total     int     `json:"total" db:"total"`
	Queued    int     `json:"queued" db:"queued"`
	Running   int     `json:"running" db:"running"`
	Succeeded int     `json:"succeeded" db:"succeeded"`
	Failed    int     `json:"failed" db:"failed"`
	Cancelled int     `json:"cancelled" db:"cancelled"`
	Done      int     `json:"done" db:"-"` // finished in any way
	Percent   float64 `json:"percent" db:"-"`
	// SimTime and TMax sum the simulated and the requested seconds over
	// the jobs; Percent is their ratio (finished jobs count in full).
	SimTime float64 `json:"sim_time" db:"sim_time"`
	TMax    float64 `json:"t_max" db:"t_max"`
	// ETASeconds estimates the wall time to the end: the remaining
	// simulated seconds at the simulated-per-wall rate the finished and
	// running jobs have shown so far; nil before any job has progressed.
	ETASeconds *float64 `json:"eta_seconds" db:"-"`
}

// Finished reports whether every job of the batch is final.
func (p BatchProgress) Finished() bool { return p.Total > 0 && p.Done == p.Total }

// Derive fills Status, Done and Percent from the counts.
func (p *BatchProgress) Derive() {
	p.Done = p.Succeeded + p.Failed + p.Cancelled
	if p.TMax > 0 {
		p.Percent = float64(int(1000*min(p.SimTime/p.TMax, 1))) / 10
	}
	switch {
	case p.Total == 0:
		p.Status = "empty"
	case p.Done == p.Total && p.Failed > 0:
		p.Status = "failed"
	case p.Done == p.Total && p.Cancelled > 0:
		p.Status = "cancelled"
	case p.Done == p.Total:
		p.Status, p.Percent = "succeeded", 100
	case p.Queued == p.Total:
		p.Status = "queued"
	default:
		p.Status = "running"
	}
}

// NewBatchRun is one run of a batch: its prepared input tree and settings.
type NewBatchRun struct {
	// Name identifies the run inside the batch (a dlc.Run or
	// dlc.SweepPoint id).
	Name string
	// InputDir holds the run's deck and wind file; Entrypoint is the main
	// .fst relative to it.
	InputDir   string
	Entrypoint string
	TMax       float64
}

// NewBatch is a validated batch submission.
type NewBatch struct {
	OrganizationID string
	SubmittedBy    string
	ClientID       string
	TurbineID      string
	Kind           BatchKind
	Name           string
	Request        json.RawMessage
	Runs           []NewBatchRun
}

// BatchQuote is the price of a batch before it is submitted.
type BatchQuote struct {
	Runs       int   `json:"runs"`
	Tokens     int64 `json:"tokens"`
	PriceCents int64 `json:"price_cents"`
	// RemainingCents and RemainingTokens are what the organization has
	// left this month; Fits says whether the batch would be accepted now.
	RemainingCents  int64 `json:"remaining_cents"`
	RemainingTokens int64 `json:"remaining_tokens"`
	Fits            bool  `json:"fits"`
}

// BatchRunJob is one job of a batch with its run name.
type BatchRunJob struct {
	Run string `json:"run" db:"run_name"`
	Job *Job   `json:"job" db:"-"`
}

// BatchService stores batches and submits their jobs.
type BatchService interface {
	// QuoteBatch prices runs simulating tMax seconds each under the
	// organization's plan and says whether they fit its caps now.
	QuoteBatch(ctx context.Context, orgID string, tMax []float64) (*BatchQuote, error)
	// SubmitBatch stores every run's input tree, then in one transaction
	// charges the whole batch once (EPAYMENT over a cap: nothing is
	// created), inserts the batch row, every job and their queue entries.
	SubmitBatch(ctx context.Context, nb *NewBatch) (*Batch, error)
	// FindBatch returns one batch of the organization with its progress
	// (ENOTFOUND otherwise).
	FindBatch(ctx context.Context, orgID, id string) (*Batch, error)
	// ListBatches returns a page of the organization's batches, newest
	// first, with progress, and the total count.
	ListBatches(ctx context.Context, orgID string, page, pageSize int) ([]*Batch, int, error)
	// BatchJobs returns the batch's jobs in submission order with their
	// run names.
	BatchJobs(ctx context.Context, orgID, id string) ([]BatchRunJob, error)
}
