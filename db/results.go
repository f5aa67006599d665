package db

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/infra/resultcache"
	"github.com/turbinesim/turbinesim/outputs"
)

// ResultService implements outputs.ResultService on the jobs table (job
// lookup through JobService, so scoping is the jobs issue's), the blob
// store holding output trees, and a read-once column cache.
type ResultService struct {
	db    *DB
	jobs  turbinesim.JobService
	trees turbinesim.TreeStore
	cache *resultcache.Cache
}

var _ outputs.ResultService = (*ResultService)(nil)

// NewResultService returns the result service. trees is the blob store of
// the jobs' output trees (JobService.Trees()).
func NewResultService(db *DB, jobs turbinesim.JobService, trees turbinesim.TreeStore, cache *resultcache.Cache) *ResultService {
	return &ResultService{db: db, jobs: jobs, trees: trees, cache: cache}
}

// outputJob finds the job and checks it has an output tree.
func (s *ResultService) outputJob(ctx context.Context, orgID, jobID string) (*turbinesim.Job, error) {
	j, err := s.jobs.FindJob(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	return j, hasOutput(j)
}

func hasOutput(j *turbinesim.Job) error {
	if j.Status != turbinesim.JobSucceeded {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "job %s is %s; it has no output yet", j.ID, j.Status)
	}
	if j.OutputKey == nil {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "job %s has no output tree", j.ID)
	}
	return nil
}

// mainOutput picks the file the result endpoints read: the first .outb of
// the published list, else the first .out; when the list is empty the tree
// is searched in lexical order.
func mainOutput(listed []string, dir string) string {
	names := listed
	if len(names) == 0 {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if rel, err := filepath.Rel(dir, p); err == nil {
					names = append(names, filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	for _, ext := range []string{".outb", ".out"} {
		for _, n := range names {
			if strings.EqualFold(filepath.Ext(n), ext) {
				return n
			}
		}
	}
	return ""
}

// OpenOutputFile implements outputs.ResultService.
func (s *ResultService) OpenOutputFile(ctx context.Context, orgID, jobID string) (string, string, func(), error) {
	j, err := s.outputJob(ctx, orgID, jobID)
	if err != nil {
		return "", "", nil, err
	}
	return s.openFile(ctx, j)
}

func (s *ResultService) openFile(ctx context.Context, j *turbinesim.Job) (string, string, func(), error) {
	dir, release, err := s.trees.Open(ctx, *j.OutputKey)
	if err != nil {
		return "", "", nil, err
	}
	name := mainOutput(j.OutputFiles, dir)
	if name == "" {
		release()
		return "", "", nil, turbinesim.Errorf(turbinesim.ECONFLICT, "job %s has no .outb or .out output", j.ID)
	}
	// Published names are relative slash paths checked by the jobs worker;
	// refuse anything that would leave the tree all the same.
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		release()
		return "", "", nil, turbinesim.Errorf(turbinesim.EINTERNAL, "output name %q leaves the tree", name)
	}
	return filepath.Join(dir, filepath.FromSlash(name)), name, release, nil
}

// JobOutput implements outputs.ResultService.
func (s *ResultService) JobOutput(ctx context.Context, orgID, jobID string) (*outputs.JobOutput, error) {
	j, err := s.outputJob(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	return s.output(ctx, j)
}

func (s *ResultService) output(ctx context.Context, j *turbinesim.Job) (*outputs.JobOutput, error) {
	var name string
	// The output key names an immutable tree, so it identifies the content.
	key := *j.OutputKey + "\x00" + strings.Join(j.OutputFiles, "\x00")
	rec, err := s.cache.Record(ctx, key, func(ctx context.Context) (string, func(), error) {
		path, n, release, err := s.openFile(ctx, j)
		name = n
		return path, release, err
	})
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = mainOutput(j.OutputFiles, "")
	}
	return &outputs.JobOutput{JobID: j.ID, BatchID: j.BatchID, File: name, Record: rec, Setup: j.Setup}, nil
}

// BatchRuns implements outputs.ResultService. There is no batches table
// yet: a batch is the set of the organization's jobs sharing batch_id.
func (s *ResultService) BatchRuns(ctx context.Context, orgID, batchID string) ([]outputs.BatchRun, error) {
	if !isUUID(batchID) {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "batch not found")
	}
	var rows []jobRow
	err := s.db.SelectContext(ctx, &rows, `SELECT `+jobColumns+` FROM jobs
		WHERE organization_id = $1 AND batch_id = $2 ORDER BY created_at, id`, orgID, batchID)
	if err != nil {
		return nil, translate(err, "listing batch jobs")
	}
	if len(rows) == 0 {
		return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "batch not found")
	}
	// Run names from batch_runs (migration 00060), when the batch was
	// submitted through the batch service.
	var named []struct {
		JobID   string `db:"job_id"`
		RunName string `db:"run_name"`
	}
	if err := s.db.SelectContext(ctx, &named, `SELECT job_id, run_name FROM batch_runs WHERE batch_id = $1`, batchID); err != nil {
		return nil, translate(err, "listing batch run names")
	}
	names := make(map[string]string, len(named))
	for _, n := range named {
		names[n.JobID] = n.RunName
	}
	runs := make([]outputs.BatchRun, len(rows))
	for i := range rows {
		j := rows[i].job()
		runs[i] = outputs.BatchRun{JobID: j.ID, RunName: names[j.ID], Status: j.Status, Checks: j.Checks}
		if hasOutput(j) != nil {
			continue
		}
		out, err := s.output(ctx, j)
		if err != nil {
			if turbinesim.ErrorCode(err) == turbinesim.ECONFLICT {
				continue
			}
			return nil, err
		}
		runs[i].Output = out
	}
	return runs, nil
}
