package batches

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// ParametricBatchRequest is the body of POST /parametric/batch-submit.
type ParametricBatchRequest struct {
	TurbineID string `json:"turbine_id"`
	Name      string `json:"name,omitempty"`
	// TMax is the simulated time of every run unless t_max is swept.
	TMax float64 `json:"t_max"`
	// Base holds values of parameters set in every run (names of
	// solver/dlc.SweepParamNames).
	Base       map[string]float64 `json:"base,omitempty"`
	Parameters []dlc.SweepParam   `json:"parameters"`
}

// ParametricBatches submits full-factorial parameter sweeps of stored
// turbines. Each point's deck is written (dlc.ApplySweepPoint, deck.Write:
// milliseconds, no wind generation) under ScratchDir and stored as that
// job's input.
type ParametricBatches struct {
	Turbines turbinesim.TurbineService
	Batches  turbinesim.BatchService
	// ScratchDir holds the decks while the request is served ("" : the
	// system's temporary folder).
	ScratchDir string
}

// Submit expands the sweep (EINVALID on a bad request), quotes it
// (EPAYMENT over a cap) and submits it as one batch with one charge.
func (s *ParametricBatches) Submit(ctx context.Context, by BatchSubmitter, req *ParametricBatchRequest) (*turbinesim.Batch, error) {
	if len(req.Parameters) == 0 {
		return nil, invalidf("parameters: sweep at least one of %s", strings.Join(dlc.SweepParamNames(), ", "))
	}
	if len(req.Name) > 200 {
		return nil, invalidf("name: at most 200 characters")
	}
	base := map[string]float64{}
	for k, v := range req.Base {
		base[k] = v
	}
	if _, ok := base["t_max"]; !ok && req.TMax > 0 {
		base["t_max"] = req.TMax
	}
	points, err := dlc.ExpandSweep(base, req.Parameters)
	if err != nil {
		return nil, invalidf("%s", userText(err))
	}
	if len(points) > turbinesim.MaxBatchRuns {
		return nil, invalidf("the sweep has %d points; one batch holds at most %d", len(points), turbinesim.MaxBatchRuns)
	}
	t, d, warnings, _, release, err := openBatchDeck(ctx, s.Turbines, s.ScratchDir, by.OrganizationID, req.TurbineID)
	if err != nil {
		return nil, err
	}
	defer release()
	// Every point within the run bounds of any submission (RunSteps),
	// priced by its work, before anything is written or charged.
	tMax := make([]float64, len(points))
	runWork := make([]turbinesim.RunWork, len(points))
	for i, p := range points {
		tMax[i] = d.Main.TMax
		if v, ok := p.Values["t_max"]; ok {
			tMax[i] = v
		}
		if _, option, problem := turbinesim.RunSteps(tMax[i], turbinesim.MaxRunDT); option == "TMax" {
			return nil, invalidf("point %s: t_max: %s", p.ID, problem)
		}
		nd := *d // ApplySweepPoint replaces what it changes: d stays intact
		if err := dlc.ApplySweepPoint(&nd, p); err != nil {
			return nil, invalidf("point %s: %s", p.ID, userText(err))
		}
		steps, option, problem := turbinesim.RunSteps(tMax[i], nd.Main.DT)
		if option != "" {
			return nil, invalidf("point %s: %s: %s", p.ID, option, problem)
		}
		runWork[i] = turbinesim.RunWork{Steps: steps, ModelSize: decks.ModelSize(&nd)}
	}
	q, err := s.Batches.QuoteBatch(ctx, by.OrganizationID, runWork)
	if err != nil {
		return nil, err
	}
	if !q.Fits {
		return nil, q.Refusal()
	}
	work, err := os.MkdirTemp(s.ScratchDir, "sweep-")
	if err != nil {
		return nil, fmt.Errorf("sweep scratch folder: %w", err)
	}
	defer os.RemoveAll(work)
	nb := &turbinesim.NewBatch{OrganizationID: by.OrganizationID, SubmittedBy: by.UserID, ClientID: by.ClientID, TurbineID: t.ID,
		Kind: turbinesim.BatchParametric, Name: req.Name}
	if nb.Name == "" {
		nb.Name = "Sweep of " + strings.Join(points[0].Swept, " × ") + " · " + t.Name
	}
	for i, p := range points {
		nd := *d // ApplySweepPoint replaces what it changes: d stays intact
		if err := dlc.ApplySweepPoint(&nd, p); err != nil {
			return nil, invalidf("point %s: %s", p.ID, userText(err))
		}
		dir := filepath.Join(work, strconv.Itoa(i))
		fst, err := deck.Write(dir, &nd)
		if err != nil {
			return nil, fmt.Errorf("writing the deck of point %s: %w", p.ID, err)
		}
		entry, err := filepath.Rel(dir, fst)
		if err != nil {
			return nil, err
		}
		setup := decks.RunSetupOf(&nd)
		setup.Sweep = map[string]float64{}
		for _, k := range p.Swept {
			setup.Sweep[k] = p.Values[k]
		}
		nb.Runs = append(nb.Runs, turbinesim.NewBatchRun{Name: p.ID, InputDir: dir, Entrypoint: filepath.ToSlash(entry), TMax: tMax[i], Work: runWork[i],
			Setup: setup, JobName: turbinesim.JobName(t.Name, setup)})
	}
	if nb.Request, err = json.Marshal(struct {
		ParametricBatchRequest
		Points []dlc.SweepPoint `json:"points"`
	}{*req, points}); err != nil {
		return nil, err
	}
	b, err := s.Batches.SubmitBatch(ctx, nb)
	if err != nil {
		return nil, err
	}
	b.Warnings = warnings
	return b, nil
}
