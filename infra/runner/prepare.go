package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// A DLC batch run is made from its recipe (jobs.recipe,
// batches.RunRecipe) and the turbine's base deck (the job's staged input
// tree) by the child process itself, `turbined simulate -recipe`: the
// worker only writes the recipe into the attempt folder (recipeArgs). So
// the wind generation (one velocity component in memory at a time, a
// 140-MB peak and seconds of CPU for a 600-s 25 × 25 TurbSim box,
// docs/benchmarks.md) runs under the child's rlimits, its wall-time
// limit and bubblewrap, like the simulation of the deck it makes. The wind
// is a pure function of the recipe (its seed included), so a retried
// attempt makes the same files.

// PrepareFailure starts the error of a child whose recipe could not be
// made into a run; the worker's job detail names it too.
const PrepareFailure = "could not generate the run's wind file and deck"

// recipeFile is the recipe's name in the attempt folder; the child writes
// the run into preparedDir beside it (the attempt folder is the only one
// bubblewrap lets it write; in/ is read-only).
const (
	recipeFile  = "recipe.json"
	preparedDir = "prepared"
)

// recipeArgs writes the job's recipe into the attempt folder dir and
// returns the child's extra arguments (nil for a job without a recipe)
// and the batch's box folder the child may write ("" for none): the
// turbulence boxes of a batch's runs are kept there (dlc.BoxCache), so a
// box shared by several runs — the yaw angles of a speed and seed, the
// DLCs of one turbulence model — is generated once per (speed, seed), by
// whichever run needs it first, and linked into the others.
func (w *Worker) recipeArgs(ctx context.Context, job *turbinesim.Job, dir, in string) ([]string, string, error) {
	raw, err := w.cfg.Jobs.RunRecipe(ctx, job.ID)
	if err != nil || raw == nil {
		return nil, "", err
	}
	// Refuse a broken recipe here: it is the service's own data, so the
	// failure is ours, not the run's.
	var recipe batches.RunRecipe
	if err := json.Unmarshal(raw, &recipe); err != nil {
		return nil, "", fmt.Errorf("reading the run recipe: %w", err)
	}
	p := filepath.Join(dir, recipeFile)
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		return nil, "", fmt.Errorf("writing the run recipe: %w", err)
	}
	args := []string{"-recipe", p, "-base", in, "-prepared", filepath.Join(dir, preparedDir)}
	boxes := ""
	if job.BatchID != nil && recipe.Run.Turbulence != nil {
		boxes = w.boxFolder(*job.BatchID)
		if err := os.MkdirAll(boxes, 0o700); err != nil {
			return nil, "", fmt.Errorf("creating the batch's box folder: %w", err)
		}
		args = append(args, "-boxes", boxes)
	}
	return args, boxes, nil
}

// boxFolder is the folder of a batch's turbulence boxes.
func (w *Worker) boxFolder(batchID string) string {
	return filepath.Join(w.cfg.BoxDir, filepath.Base(batchID))
}

// dropBoxesWhenDone removes the batch's box folder once none of its runs
// is left to need it (every job finished). Two runs finishing at once may
// both remove it; a run still queued keeps it.
func (w *Worker) dropBoxesWhenDone(ctx context.Context, log *slog.Logger, job *turbinesim.Job) {
	if job.BatchID == nil {
		return
	}
	dir := w.boxFolder(*job.BatchID)
	if _, err := os.Stat(dir); err != nil {
		return
	}
	n, err := w.cfg.Jobs.BatchRunsUnfinished(context.WithoutCancel(ctx), *job.BatchID)
	if err != nil || n > 0 {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		log.Warn("removing a finished batch's box folder", "err", err)
	}
}

// prepareFromRecipe is the child's side: it reads the recipe, makes the
// run from the base deck whose main file is fst (inside base) into
// prepared, and returns the run's main .fst, the job log's line naming
// the generated wind and the run's start-up transient (s, its DLC's).
func prepareFromRecipe(ctx context.Context, recipePath, base, fst, prepared, boxes string) (string, string, float64, error) {
	if base == "" {
		return "", "", 0, fmt.Errorf("-recipe needs -base, the base deck's folder")
	}
	raw, err := os.ReadFile(recipePath)
	if err != nil {
		return "", "", 0, fmt.Errorf("reading the run recipe: %w", err)
	}
	var recipe batches.RunRecipe
	if err := json.Unmarshal(raw, &recipe); err != nil {
		return "", "", 0, fmt.Errorf("reading the run recipe %s: %w", filepath.Base(recipePath), err)
	}
	entry, err := filepath.Rel(base, fst)
	if err != nil || entry == ".." || filepath.IsAbs(entry) || len(entry) > 2 && entry[:3] == ".."+string(filepath.Separator) {
		return "", "", 0, fmt.Errorf("the deck %s is not inside -base %s", fst, base)
	}
	start := time.Now()
	var cache *dlc.BoxCache
	if boxes != "" {
		cache = &dlc.BoxCache{Dir: boxes}
	}
	runFst, note, err := PrepareRecipe(ctx, &recipe, base, filepath.ToSlash(entry), prepared, cache)
	if err != nil {
		return "", "", 0, err
	}
	how := "generated"
	if cache != nil && cache.Reused() > 0 {
		how = "box reused from the batch's folder, prepared"
	}
	return filepath.Join(prepared, filepath.FromSlash(runFst)),
		fmt.Sprintf("%s (%s in %.1f s)", note, how, time.Since(start).Seconds()), recipe.Run.Transient, nil
}

// PrepareRecipe writes the run of recipe, made from the base deck at entry
// inside in, into prepared (emptied first, so a retried attempt starts
// clean). It returns the run's main .fst relative to prepared and a
// description of what was generated.
func PrepareRecipe(ctx context.Context, recipe *batches.RunRecipe, in, entry, prepared string, boxes *dlc.BoxCache) (string, string, error) {
	if err := os.RemoveAll(prepared); err != nil {
		return "", "", err
	}
	fst, note, err := recipe.PrepareWith(ctx, in, entry, prepared, boxes)
	if err != nil {
		return "", "", fmt.Errorf("generating run %s: %w", recipe.Run.ID, err)
	}
	return fst, note, nil
}
