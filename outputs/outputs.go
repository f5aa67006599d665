// Package outputs is the vocabulary of simulation outputs: a job's main
// output file in columnar form (JobOutput), the runs of a batch (BatchRun)
// and the service that reads them (ResultService, implemented by
// db.ResultService over infra/resultcache). It stands apart from the root
// package because JobOutput carries a solver/analysis record.
package outputs

import (
	"context"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// JobOutput is a succeeded job's main output file (the first .outb, else
// the first .out of its output list) in columnar form. Record is shared by
// every caller of the cache and must not be modified.
type JobOutput struct {
	JobID   string
	BatchID *string
	// File is the output's name inside the job's output tree.
	File   string
	Record *analysis.Record
	// Setup is what the run simulates (Job.Setup; nil when it was not
	// recorded): a floating platform's or a DLC run's start-up transient
	// sets the run's default analysis window.
	Setup *turbinesim.RunSetup
}

// BatchRun is one job of a batch; Output is nil unless the job succeeded
// with an output file.
type BatchRun struct {
	JobID string `json:"job_id"`
	// RunName is the run's name in the batch (batch_runs.run_name, e.g.
	// DLC1.2_V12.0_S3_Y+0); empty for a job not listed there.
	RunName string               `json:"run_name"`
	Status  turbinesim.JobStatus `json:"status"`
	// Checks are the plausibility checks the run failed (Job.Checks; nil
	// when it was not checked).
	Checks []turbinesim.RunCheck `json:"checks"`
	Output *JobOutput            `json:"-"`
}

// ResultService gives the results of an organization's jobs. Every method
// is organization-scoped: another organization's job is ENOTFOUND.
type ResultService interface {
	// JobOutput returns the job's output columns, parsing the file only on
	// first access. A job that has not (or not yet) produced an output is
	// ECONFLICT with a detail naming its status.
	JobOutput(ctx context.Context, orgID, jobID string) (*JobOutput, error)
	// OpenOutputFile returns the path of the job's original output file,
	// readable until release, and its name.
	OpenOutputFile(ctx context.Context, orgID, jobID string) (path, name string, release func(), err error)
	// BatchRuns returns the jobs of the organization whose batch_id is
	// batchID, oldest first, with the outputs of the succeeded ones
	// (ENOTFOUND when the batch has no job).
	BatchRuns(ctx context.Context, orgID, batchID string) ([]BatchRun, error)
}
