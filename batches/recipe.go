package batches

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// RunRecipe is how a job's child process makes one run of a DLC batch from the
// turbine's base deck (the job's input tree): stored with the job
// (jobs.recipe) and applied by RunRecipe.Prepare at the start of every
// attempt. The wind is a pure function of the run spec (its seed
// included), so every attempt makes the same files.
type RunRecipe struct {
	Run dlc.Run `json:"run"`
	// SteadyState starts an operating rotor from the base deck's
	// steady-state table at the run's mean wind speed
	// (dlc.SteadyStateFromDeck); false leaves the deck's initial
	// conditions (the deck has no table).
	SteadyState bool `json:"steady_state"`
}

// Prepare writes the run into outDir: its wind file under Wind/ and its
// deck, made from the base deck at entry inside baseDir (dlc.PrepareRunWith).
// It returns the run's main .fst relative to outDir (slash-separated) and
// one line for the job's log naming what was generated and where a
// floating platform starts.
func (r *RunRecipe) Prepare(ctx context.Context, baseDir, entry, outDir string) (string, string, error) {
	return r.PrepareWith(ctx, baseDir, entry, outDir, nil)
}

// PrepareWith is Prepare taking the run's turbulence box from the batch's
// box cache when boxes is not nil (generated there if it is not yet).
func (r *RunRecipe) PrepareWith(ctx context.Context, baseDir, entry, outDir string, boxes *dlc.BoxCache) (string, string, error) {
	d, err := deck.LoadIn(baseDir, entry)
	if err != nil {
		return "", "", fmt.Errorf("loading the base deck: %w", err)
	}
	var notes []string
	opt := dlc.PrepareOptions{Boxes: boxes, Notes: &notes}
	if r.SteadyState {
		if opt.SteadyState, err = dlc.SteadyStateFromDeck(d); err != nil {
			return "", "", fmt.Errorf("steady-state table of the base deck: %w", err)
		}
	}
	fst, err := dlc.PrepareRunWith(ctx, d, r.Run, outDir, opt)
	if err != nil {
		return "", "", err
	}
	rel, err := filepath.Rel(outDir, fst)
	if err != nil {
		return "", "", fmt.Errorf("run deck path: %w", err)
	}
	line := r.describe()
	for _, n := range notes {
		line += "; " + n
	}
	return filepath.ToSlash(rel), line, nil
}

// describe says what Prepare generated, for the job's log.
func (r *RunRecipe) describe() string {
	run := r.Run
	sea := ""
	if ss := run.SeaState; ss != nil {
		kind := ""
		if ss.Kind != "" {
			kind = string(ss.Kind) + ": "
		}
		sea = fmt.Sprintf(", irregular sea (%sJONSWAP, Hs %g m, Tp %g s, heading %g°, seed %d)", kind, ss.Hs, ss.Tp, ss.WaveDir, ss.Seed)
	}
	if ts := run.Turbulence; ts != nil {
		return fmt.Sprintf("prepared run %s: %s turbulent wind box (IEC Kaimal, class %v%v, V_hub %g m/s, seed %d, %d × %d grid, dt %g s, %g s), yaw %+g°, t_max %g s%s",
			run.ID, run.Wind, ts.Class, ts.Category, run.WindSpeed, ts.Seed, ts.Grid.NY, ts.Grid.NZ, ts.Dt, ts.Duration, run.Yaw, run.TMax, sea)
	}
	ev := run.Event
	return fmt.Sprintf("prepared run %s: %s uniform wind (V_hub %g m/s, variant %q, event at %g s), yaw %+g°, t_max %g s%s",
		run.ID, ev.Kind, ev.Site.VHub, run.Variant, run.EventTime, run.Yaw, run.TMax, sea)
}
