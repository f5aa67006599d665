package batches

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// Design-load-case batches: DLCBatches turns a request into an
// IEC 61400-1 load basis for a stored turbine, previews it and submits it.
//
// Where the runs are made: the submit request only expands the runs and
// checks them (dlc.CheckRun: wind spec, yaw, timing, the deck's hub
// height), quotes the batch against the caps, and submits one batch whose
// jobs all share one stored copy of the turbine's deck and each carry a
// RunRecipe. Each attempt's child process (`turbined simulate -recipe`,
// under the run's limits) generates the run's wind file (a TurbSim box, or
// a uniform-wind event file) and its deck from the recipe before it
// simulates (infra/runner/prepare.go). A box takes seconds to synthesise
// (9.5–20 s for the default 660-s 25 × 25 box, docs/benchmarks.md), so
// doing it in the request made a 100-run basis time out; a recipe costs
// microseconds.

// DLCBatchRequest is the body of POST /dlcs/batch-submit and /dlcs/preview.
type DLCBatchRequest struct {
	TurbineID string `json:"turbine_id"`
	Name      string `json:"name,omitempty"`
	// DLCs, Class, Category, SeedsPerBin, SpeedStep, BatchSeed, Overrides
	// and Grid are solver/dlc.Request's.
	DLCs        []string                `json:"dlcs"`
	Class       string                  `json:"class"`
	Category    string                  `json:"category"`
	SeedsPerBin int                     `json:"seeds_per_bin,omitempty"`
	SpeedStep   float64                 `json:"speed_step,omitempty"`
	BatchSeed   uint64                  `json:"batch_seed,omitempty"`
	Overrides   map[string]dlc.Override `json:"overrides,omitempty"`
	Grid        dlc.GridOptions         `json:"grid,omitempty"`
	// Turbine replaces the key numbers taken from the stored turbine
	// (its parameters, else its deck) field by field when non-zero.
	Turbine *dlc.Turbine `json:"turbine,omitempty"`
	// SeaStates is the site's normal sea state (IEC 61400-3-1 NSS) per
	// hub-height wind speed, for an offshore turbine: every run gets the
	// JONSWAP sea of its wind speed (interpolated between rows) with its
	// own seed, written into its SeaState file. An offshore turbine's
	// basis needs it (IEC 61400-3-1 gives no formula for the NSS; it is
	// the site's), except for a basis of extreme-wind DLCs only.
	SeaStates []dlc.SeaStateBin `json:"sea_states,omitempty"`
	// ExtremeSeaState is the site's extreme sea state (IEC 61400-3-1
	// ESS), which the runs in the extreme wind model get (DLC 6.1, 6.2:
	// 50-year; 6.3, 7.1: 1-year).
	ExtremeSeaState *dlc.ExtremeSeaState `json:"extreme_sea_state,omitempty"`
}

// DLCPreview is the load-basis table, run count and price of a request,
// and the turbine deck's warnings (LoadRunnableDeck, as the submission
// returns them in Batch.Warnings), so the engineer reads them before
// paying for the batch.
type DLCPreview struct {
	Runs     int                    `json:"runs"`
	Basis    []dlc.BasisRow         `json:"basis"`
	Quote    *turbinesim.BatchQuote `json:"quote"`
	Warnings []string               `json:"warnings"`
	// SeaStates are the sea states the runs get, one per sea-state kind
	// and wind speed of the basis, with the DLCs that get it (empty when
	// the request gives none).
	SeaStates []dlc.BasisSeaState `json:"sea_states,omitempty"`
}

// StoredDLCRequest is what a DLC batch keeps as its request
// (Batch.Request): the expanded request (with the turbine's key numbers)
// and the runs, for the report.
type StoredDLCRequest struct {
	Request dlc.Request `json:"request"`
	Runs    []dlc.Run   `json:"runs"`
}

// BatchSubmitter is who submits a batch.
type BatchSubmitter struct {
	OrganizationID string
	UserID         string
	ClientID       string // empty unless submitted with an API key
}

// DLCBatches previews and submits design load bases of stored turbines.
// It needs the turbine store (with the turbines' decks) and the batch
// store.
type DLCBatches struct {
	Turbines turbinesim.TurbineService
	Batches  turbinesim.BatchService
}

// dlcPlan is a request resolved against its turbine: the turbine, its
// validated deck (open in dir until release) and the expanded runs.
type dlcPlan struct {
	turbine *turbinesim.Turbine
	deck    *deck.Deck
	// warnings are the turbine deck's (LoadRunnableDeck).
	warnings []string
	dir      string
	release  func()
	request  dlc.Request
	runs     []dlc.Run
	// steady says whether the runs start from the deck's steady-state
	// table (set by check).
	steady bool
}

// solverPrefix matches the package and step names solver/dlc puts before
// its messages ("dlc: expand: ", "dlc: apply sweep point P001_...: "):
// useful in logs, noise to the engineer, who is told the run or point
// the message is about.
var solverPrefix = regexp.MustCompile(`^dlc: (?:(?:expand|sweep|check run [^:]+|apply sweep point [^:]+): )?`)

// userText is a solver error as an engineer reads it.
func userText(err error) string { return solverPrefix.ReplaceAllString(err.Error(), "") }

func invalidf(format string, args ...any) error {
	return turbinesim.Errorf(turbinesim.EINVALID, format, args...)
}

// plan loads the turbine's deck and expands the request (EINVALID on a
// bad request or deck, ENOTFOUND for another organization's turbine). The
// caller must call p.release.
func (s *DLCBatches) plan(ctx context.Context, orgID string, req *DLCBatchRequest) (*dlcPlan, error) {
	if req.TurbineID == "" {
		return nil, invalidf("turbine_id: required")
	}
	if len(req.DLCs) == 0 {
		return nil, invalidf("dlcs: name at least one design load case (%s)", strings.Join(dlc.IDs(), ", "))
	}
	if len(req.Name) > 200 {
		return nil, invalidf("name: at most 200 characters")
	}
	t, d, warnings, dir, release, err := openBatchDeck(ctx, s.Turbines, "", orgID, req.TurbineID)
	if err != nil {
		return nil, err
	}
	p := &dlcPlan{turbine: t, deck: d, warnings: warnings, dir: dir, release: release}
	key, err := DLCTurbine(t, p.deck, req.Turbine)
	if err != nil {
		release()
		return nil, err
	}
	p.request = dlc.Request{Turbine: key, DLCs: req.DLCs, Class: req.Class, Category: req.Category, SeedsPerBin: req.SeedsPerBin,
		SpeedStep: req.SpeedStep, BatchSeed: req.BatchSeed, Overrides: req.Overrides, Grid: req.Grid, SeaStates: req.SeaStates,
		ExtremeSeaState: req.ExtremeSeaState, FloatingPlatform: dlc.FloatingPlatform(d), LoadedPlatformStart: dlc.LoadedPlatformStart(d)}
	offshore := d.Main.CompSeaSt == 1 && d.Offshore.SeaState != nil
	if (len(req.SeaStates) > 0 || req.ExtremeSeaState != nil) && !offshore {
		release()
		return nil, invalidf("sea_states: the turbine's deck has no sea state (CompSeaSt = %d): sea states are for offshore turbines", d.Main.CompSeaSt)
	}
	// An offshore load basis needs the site's sea states: IEC 61400-3-1
	// defines the normal sea state as the significant wave height
	// expected at each wind speed from the site's long-term joint
	// distribution of wind and waves, with its peak period, and gives no
	// formula for either, so none is assumed (and the deck's one sea
	// state is not every wind speed's).
	if offshore && len(req.SeaStates) == 0 && req.ExtremeSeaState == nil {
		release()
		return nil, invalidf("sea_states: an offshore turbine's load basis needs the site's normal sea state per wind speed (rows of wind_speed, hs, tp, wave_dir): IEC 61400-3-1 takes the normal sea state from the site's long-term wind and wave data and gives no formula for Hs or Tp at a wind speed, so none is assumed")
	}
	if p.runs, err = dlc.Expand(p.request); err != nil {
		release()
		return nil, invalidf("%s", userText(err))
	}
	if len(p.runs) > turbinesim.MaxBatchRuns {
		release()
		return nil, invalidf("the load basis expands to %d runs; one batch holds at most %d (split it by DLC)", len(p.runs), turbinesim.MaxBatchRuns)
	}
	return p, nil
}

// openBatchDeck opens the organization's turbine and loads its stored deck
// (validated as a job submission is, LoadRunnableDeck, whose warnings it
// returns); a batch needs
// ElastoDyn and InflowWind. The deck is a private copy of the stored
// files, taken while the turbine's row guards them
// (TurbineService.OpenTurbineDeck): a batch keeps reading them while it
// quotes and submits, database work the guard must not span. Its folder
// dir stays readable until release.
func openBatchDeck(ctx context.Context, turbines turbinesim.TurbineService, scratchDir, orgID, turbineID string) (t *turbinesim.Turbine, d *deck.Deck, warnings []string, dir string, release func(), err error) {
	if turbineID == "" {
		return nil, nil, nil, "", nil, invalidf("turbine_id: required")
	}
	t, src, unlock, err := turbines.OpenTurbineDeck(ctx, orgID, turbineID)
	if err != nil {
		return nil, nil, nil, "", nil, err
	}
	if src == "" {
		unlock()
		return nil, nil, nil, "", nil, invalidf("turbine_id: this turbine has no input deck to run")
	}
	dir, err = os.MkdirTemp(scratchDir, "batch-deck-")
	if err != nil {
		unlock()
		return nil, nil, nil, "", nil, fmt.Errorf("copying turbine deck: %w", err)
	}
	release = func() { os.RemoveAll(dir) }
	err = os.CopyFS(dir, os.DirFS(src))
	unlock()
	if err != nil {
		release()
		return nil, nil, nil, "", nil, fmt.Errorf("copying turbine deck: %w", err)
	}
	d, warnings, err = decks.LoadRunnableDeck(dir, *t.MainFile)
	if err != nil {
		release()
		return nil, nil, nil, "", nil, err
	}
	if d.InflowWind == nil || d.ElastoDyn == nil {
		release()
		return nil, nil, nil, "", nil, invalidf("turbine_id: the turbine's deck needs ElastoDyn and InflowWind for batch runs")
	}
	// Nothing is charged for runs the solver could never start.
	if err := coupling.Check(d); err != nil {
		release()
		return nil, nil, nil, "", nil, invalidf("turbine_id: the solver cannot run this turbine's deck: %s",
			strings.ReplaceAll(err.Error(), dir+"/", ""))
	}
	return t, d, warnings, dir, release, nil
}

// DLCTurbine gathers the key numbers of a load basis: the request's, else
// the turbine's parameters, else what the deck says (hub height, rotor
// diameter). Missing cut-in, rated or cut-out speeds are EINVALID.
func DLCTurbine(t *turbinesim.Turbine, d *deck.Deck, over *dlc.Turbine) (dlc.Turbine, error) {
	k := dlc.Turbine{Name: t.Name, HubHeight: dlc.HubHeight(d.ElastoDyn), RotorDiameter: 2 * d.ElastoDyn.TipRad}
	set := func(dst *float64, v *float64) {
		if v != nil && *v > 0 {
			*dst = *v
		}
	}
	set(&k.HubHeight, t.HubHeightM)
	set(&k.RotorDiameter, t.RotorDiameterM)
	set(&k.VIn, t.CutInWindSpeedMS)
	set(&k.VRated, t.RatedWindSpeedMS)
	set(&k.VOut, t.CutOutWindSpeedMS)
	set(&k.RatedRotorSpeed, t.RatedRotorSpeedRPM)
	if over != nil {
		for _, p := range []struct{ dst, v *float64 }{{&k.HubHeight, &over.HubHeight}, {&k.RotorDiameter, &over.RotorDiameter},
			{&k.VIn, &over.VIn}, {&k.VRated, &over.VRated}, {&k.VOut, &over.VOut},
			{&k.RatedRotorSpeed, &over.RatedRotorSpeed}, {&k.VMaint, &over.VMaint}} {
			set(p.dst, p.v)
		}
	}
	var missing []string
	for _, f := range []struct {
		name string
		v    float64
	}{{"cut_in_wind_speed_ms (turbine.v_in)", k.VIn}, {"rated_wind_speed_ms (turbine.v_rated)", k.VRated}, {"cut_out_wind_speed_ms (turbine.v_out)", k.VOut}} {
		if !(f.v > 0) {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return k, invalidf("turbine: the load basis needs %s: set them on the turbine or in the request's turbine object", strings.Join(missing, ", "))
	}
	return k, nil
}

// check makes, for every run, the checks the worker's generation would
// make, without the generation (dlc.CheckRun): a run that cannot be made
// is refused before anything is submitted.
func (p *dlcPlan) check() error {
	// The steady-state table is computed at submission; a deck whose
	// table cannot be read (its Cp file, its DISCON values) is refused by
	// the preview as by the submission.
	p.steady = true
	if _, err := dlc.SteadyStateFromDeck(p.deck); errors.Is(err, dlc.ErrNoSteadyState) {
		p.steady = false
	} else if err != nil {
		return invalidf("turbine deck: %s", err.Error())
	}
	for _, run := range p.runs {
		if err := dlc.CheckRun(p.deck, run); err != nil {
			return invalidf("run %s: %s", run.ID, userText(err))
		}
	}
	return nil
}

// work is the work of every run: its steps at the base deck's DT (the
// generated run deck keeps it) over the base deck's model, after the run
// bounds every submission path applies (RunSteps; EINVALID naming the
// run).
func (p *dlcPlan) work() ([]turbinesim.RunWork, error) {
	size := decks.ModelSize(p.deck)
	out := make([]turbinesim.RunWork, len(p.runs))
	for i, r := range p.runs {
		steps, option, problem := turbinesim.RunSteps(r.TMax, p.deck.Main.DT)
		if option != "" {
			return nil, invalidf("run %s: %s: %s", r.ID, option, problem)
		}
		out[i] = turbinesim.RunWork{Steps: steps, ModelSize: size}
	}
	return out, nil
}

// Preview returns the load-basis table, run count and price of a request
// without submitting anything; it refuses what Submit would refuse as
// invalid.
func (s *DLCBatches) Preview(ctx context.Context, orgID string, req *DLCBatchRequest) (*DLCPreview, error) {
	p, err := s.plan(ctx, orgID, req)
	if err != nil {
		return nil, err
	}
	defer p.release()
	if err := p.check(); err != nil {
		return nil, err
	}
	work, err := p.work()
	if err != nil {
		return nil, err
	}
	q, err := s.Batches.QuoteBatch(ctx, orgID, work)
	if err != nil {
		return nil, err
	}
	warnings := p.warnings
	if warnings == nil {
		warnings = []string{}
	}
	return &DLCPreview{Runs: len(p.runs), Basis: dlc.LoadBasisTable(p.runs), Quote: q, Warnings: warnings, SeaStates: dlc.BasisSeaStates(p.runs)}, nil
}

// Submit expands and checks the load basis (EINVALID naming the run),
// quotes it (EPAYMENT over a cap) and submits it as one batch
// (BatchService.SubmitBatch: one transaction, one charge, nothing created
// over a cap). Every job's input is the same stored copy
// of the turbine's deck plus its RunRecipe; no wind is generated here.
func (s *DLCBatches) Submit(ctx context.Context, by BatchSubmitter, req *DLCBatchRequest) (*turbinesim.Batch, error) {
	p, err := s.plan(ctx, by.OrganizationID, req)
	if err != nil {
		return nil, err
	}
	defer p.release()
	// A bad request is 422 whatever the caps: check every run first.
	nb := &turbinesim.NewBatch{OrganizationID: by.OrganizationID, SubmittedBy: by.UserID, ClientID: by.ClientID, TurbineID: p.turbine.ID,
		Kind: turbinesim.BatchDLC, Name: req.Name, Runs: make([]turbinesim.NewBatchRun, len(p.runs))}
	if nb.Name == "" {
		nb.Name = "DLC " + strings.Join(req.DLCs, ", ") + " · " + p.turbine.Name
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	work, err := p.work()
	if err != nil {
		return nil, err
	}
	for i, run := range p.runs {
		recipe, err := json.Marshal(RunRecipe{Run: run, SteadyState: p.steady})
		if err != nil {
			return nil, fmt.Errorf("run %s: recipe: %w", run.ID, err)
		}
		setup := runSetup(p.deck, run)
		nb.Runs[i] = turbinesim.NewBatchRun{Name: run.ID, InputDir: p.dir, Entrypoint: *p.turbine.MainFile, TMax: run.TMax, Work: work[i], Recipe: recipe,
			Setup: setup, JobName: turbinesim.JobName(p.turbine.Name, setup)}
	}
	if nb.Request, err = json.Marshal(StoredDLCRequest{Request: p.request, Runs: p.runs}); err != nil {
		return nil, err
	}
	// A valid batch over a cap is refused with the price in the message
	// (SubmitBatch's charge in the transaction is the authoritative check).
	q, err := s.Batches.QuoteBatch(ctx, by.OrganizationID, work)
	if err != nil {
		return nil, err
	}
	if !q.Fits {
		return nil, q.Refusal()
	}
	b, err := s.Batches.SubmitBatch(ctx, nb)
	if err != nil {
		return nil, err
	}
	b.Warnings = p.warnings
	return b, nil
}

// runSetup says what a DLC run simulates: the base deck's time step and
// waves, and the run's wind (a turbulent box of its wind model and
// turbine class, or an IEC event), DLC, seed, yaw and start-up transient.
func runSetup(base *deck.Deck, run dlc.Run) *turbinesim.RunSetup {
	s := decks.RunSetupOf(base)
	s.DLC, s.Seed, s.Yaw, s.Transient = run.DLC, run.SeedIndex, new(run.Yaw), new(run.Transient)
	speed := run.WindSpeed
	if ts := run.Turbulence; ts != nil {
		s.Wind = turbinesim.RunWind{Kind: "turbulent", Speed: &speed, Shear: ts.ShearExponent,
			Turbulence: fmt.Sprintf("%s, class %v%v (IEC Kaimal)", run.Wind, ts.Class, ts.Category)}
	} else {
		event := string(run.Wind)
		if run.Variant != "" {
			event += " " + run.Variant
		}
		s.Wind = turbinesim.RunWind{Kind: "event", Speed: &speed, Event: event}
	}
	return s
}
