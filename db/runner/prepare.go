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
)

// prepareRun makes a DLC batch run from its recipe, after the staging step
// and before the child starts: the job's staged input tree (in) is the
// turbine's base deck, and the recipe (jobs.recipe, turbinesim.RunRecipe)
// says which wind file and deck to generate from it. They are written to a
// sibling folder of the attempt directory, which then replaces in, so the
// child sees the run exactly as if it had been submitted whole; job's
// Entrypoint is set to the run's .fst. The wind is a pure function of the
// recipe (its seed included), so a retried attempt makes the same files.
//
// The generation runs in the worker process, not in the sandboxed child:
// its input is the service's own recipe and a deck the submit request
// already validated. Its time (seconds for a turbulence box) is not
// counted against the child's wall-time limit but is part of the attempt,
// within River's timeout margin.
//
// It returns a line for the job's log ("" for a job without a recipe).
func (w *Worker) prepareRun(ctx context.Context, log *slog.Logger, job *turbinesim.Job, dir, in string) (string, error) {
	raw, err := w.cfg.Jobs.RunRecipe(ctx, job.ID)
	if err != nil || raw == nil {
		return "", err
	}
	var recipe turbinesim.RunRecipe
	if err := json.Unmarshal(raw, &recipe); err != nil {
		return "", fmt.Errorf("reading the run recipe: %w", err)
	}
	start := time.Now()
	entry, note, err := PrepareRecipe(ctx, &recipe, in, job.Entrypoint, filepath.Join(dir, "prepared"))
	if err != nil {
		return "", err
	}
	elapsed := time.Since(start)
	log.Info("prepared run from recipe", "run", recipe.Run.ID, "entrypoint", entry, "elapsed", elapsed)
	job.Entrypoint = entry
	return fmt.Sprintf("%s (generated in %.1f s)\n", note, elapsed.Seconds()), nil
}

// PrepareRecipe writes the run of recipe, made from the base deck at entry
// inside in, into prepared, then moves it into place of in. It returns the
// run's main .fst relative to in and a description of what was generated.
func PrepareRecipe(ctx context.Context, recipe *turbinesim.RunRecipe, in, entry, prepared string) (string, string, error) {
	if err := os.RemoveAll(prepared); err != nil {
		return "", "", err
	}
	fst, note, err := recipe.Prepare(ctx, in, entry, prepared)
	if err != nil {
		return "", "", fmt.Errorf("generating run %s: %w", recipe.Run.ID, err)
	}
	if err := os.RemoveAll(in); err != nil {
		return "", "", err
	}
	if err := os.Rename(prepared, in); err != nil {
		return "", "", fmt.Errorf("moving the prepared run into place: %w", err)
	}
	return fst, note, nil
}
