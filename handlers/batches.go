package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// Batch endpoints (issue 11): POST /dlcs/batch-submit (a design load
// basis), POST /dlcs/preview (run count and price before submitting),
// POST /parametric/batch-submit (a full-factorial sweep, verified only),
// GET /batches and GET /batches/{id}.
//
// Where the runs are prepared: every run's input deck and wind file (a
// TurbSim box for turbulent DLCs, a uniform-wind file for events) are
// written by solver/dlc.PrepareRun while the submit request is served, and
// stored in the blob store as that job's input tree; the job runner then
// runs it like any other job. The price is quoted first, so a batch over a
// cap is refused (402) before any wind is generated; the charge for the
// whole batch, the batch row and every job commit in one transaction
// (db.BatchService.SubmitBatch). turbinesim.MaxBatchRuns bounds the work
// of one request.

func (s *Server) batchService() (turbinesim.BatchService, error) {
	if s.svc.Batches == nil || s.svc.Turbines == nil || s.svc.JobTrees == nil {
		return nil, notImplemented
	}
	return s.svc.Batches, nil
}

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
}

// dlcRequestFromForm reads the wizard's form fields.
func dlcRequestFromForm(c echo.Context) (*DLCBatchRequest, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, invalid("form: unreadable")
	}
	req := &DLCBatchRequest{TurbineID: form.Get("turbine_id"), Name: form.Get("name"), DLCs: form["dlcs"],
		Class: form.Get("class"), Category: form.Get("category")}
	num := func(field string, dst *float64) error {
		if v := strings.TrimSpace(form.Get(field)); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return invalid("%s: not a number", field)
			}
			*dst = f
		}
		return nil
	}
	var seeds, tMax float64
	if err := num("seeds_per_bin", &seeds); err != nil {
		return nil, err
	}
	req.SeedsPerBin = int(seeds)
	if err := num("speed_step", &req.SpeedStep); err != nil {
		return nil, err
	}
	// The wizard offers one analysis window for every chosen DLC.
	if err := num("duration", &tMax); err != nil {
		return nil, err
	}
	if tMax > 0 {
		req.Overrides = map[string]dlc.Override{}
		for _, id := range req.DLCs {
			req.Overrides[id] = dlc.Override{Duration: &tMax}
		}
	}
	return req, nil
}

func (s *Server) readDLCRequest(c echo.Context) (*DLCBatchRequest, error) {
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		return dlcRequestFromForm(c)
	}
	var req DLCBatchRequest
	if err := decodeJSONStrict(c, &req); err != nil {
		return nil, err
	}
	return &req, nil
}

// turbineDeck opens the organization's turbine and loads its stored deck
// (validated as POST /jobs does); release must be called when done.
func (s *Server) turbineDeck(ctx context.Context, orgID, turbineID string) (*turbinesim.Turbine, *deck.Deck, func(), error) {
	if turbineID == "" {
		return nil, nil, nil, invalid("turbine_id: required")
	}
	t, err := s.svc.Turbines.FindTurbine(ctx, orgID, turbineID)
	if err != nil {
		return nil, nil, nil, err
	}
	if !t.HasDeck() {
		return nil, nil, nil, invalid("turbine_id: this turbine has no input deck to run")
	}
	src, release, err := s.svc.JobTrees.Open(ctx, *t.SourceKey)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("opening turbine deck: %w", err)
	}
	d, err := validateDeck(src, *t.MainFile)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	if d.InflowWind == nil || d.ElastoDyn == nil {
		release()
		return nil, nil, nil, invalid("turbine_id: the turbine's deck needs ElastoDyn and InflowWind for batch runs")
	}
	return t, d, release, nil
}

// dlcTurbine gathers the key numbers of a load basis: the request's, else
// the turbine's parameters, else what the deck says (hub height, rotor
// diameter).
func dlcTurbine(t *turbinesim.Turbine, d *deck.Deck, over *dlc.Turbine) (dlc.Turbine, error) {
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
		return k, invalid("turbine: the load basis needs %s: set them on the turbine or in the request's turbine object", strings.Join(missing, ", "))
	}
	return k, nil
}

// expandDLC turns the request into runs (422 on a bad request).
func expandDLC(req *DLCBatchRequest, key dlc.Turbine) (dlc.Request, []dlc.Run, error) {
	r := dlc.Request{Turbine: key, DLCs: req.DLCs, Class: req.Class, Category: req.Category, SeedsPerBin: req.SeedsPerBin,
		SpeedStep: req.SpeedStep, BatchSeed: req.BatchSeed, Overrides: req.Overrides, Grid: req.Grid}
	if len(req.DLCs) == 0 {
		return r, nil, invalid("dlcs: name at least one design load case (%s)", strings.Join(dlc.IDs(), ", "))
	}
	if len(req.Name) > 200 {
		return r, nil, invalid("name: at most 200 characters")
	}
	runs, err := dlc.Expand(r)
	if err != nil {
		return r, nil, invalid("%s", err.Error())
	}
	if len(runs) > turbinesim.MaxBatchRuns {
		return r, nil, invalid("the load basis expands to %d runs; one batch holds at most %d (split it by DLC)", len(runs), turbinesim.MaxBatchRuns)
	}
	return r, runs, nil
}

// DLCPreview answers POST /dlcs/preview.
type DLCPreview struct {
	Runs  int                    `json:"runs"`
	Basis []dlc.BasisRow         `json:"basis"`
	Quote *turbinesim.BatchQuote `json:"quote"`
}

// previewDLC: POST /dlcs/preview, the load-basis table, run count and
// price of a request, without submitting anything.
func (s *Server) previewDLC(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	orgID := authFrom(c).Organization.ID
	req, err := s.readDLCRequest(c)
	if err == nil && req.TurbineID == "" {
		err = invalid("turbine_id: required")
	}
	var pv *DLCPreview
	if err == nil {
		pv, err = s.dlcPreview(ctx, bs, orgID, req)
	}
	if negotiate(c.Request()) == formatJSON {
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, pv)
	}
	if err != nil {
		return render(c, http.StatusOK, views.DLCPreviewFragment(nil, nil, err.Error()))
	}
	return render(c, http.StatusOK, views.DLCPreviewFragment(pv.Basis, pv.Quote, ""))
}

func (s *Server) dlcPreview(ctx context.Context, bs turbinesim.BatchService, orgID string, req *DLCBatchRequest) (*DLCPreview, error) {
	t, d, release, err := s.turbineDeck(ctx, orgID, req.TurbineID)
	if err != nil {
		return nil, err
	}
	defer release()
	key, err := dlcTurbine(t, d, req.Turbine)
	if err != nil {
		return nil, err
	}
	_, runs, err := expandDLC(req, key)
	if err != nil {
		return nil, err
	}
	q, err := bs.QuoteBatch(ctx, orgID, runTMax(runs))
	if err != nil {
		return nil, err
	}
	return &DLCPreview{Runs: len(runs), Basis: dlc.LoadBasisTable(runs), Quote: q}, nil
}

func runTMax(runs []dlc.Run) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = r.TMax
	}
	return out
}

// storedDLCRequest is what a DLC batch keeps as its request: the expanded
// request (with the turbine's key numbers) and the runs, for the report.
type storedDLCRequest struct {
	Request dlc.Request `json:"request"`
	Runs    []dlc.Run   `json:"runs"`
}

// submitDLCBatch: POST /dlcs/batch-submit.
func (s *Server) submitDLCBatch(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	ctx := c.Request().Context()
	req, err := s.readDLCRequest(c)
	if err != nil {
		return err
	}
	t, d, release, err := s.turbineDeck(ctx, a.Organization.ID, req.TurbineID)
	if err != nil {
		return err
	}
	defer release()
	key, err := dlcTurbine(t, d, req.Turbine)
	if err != nil {
		return err
	}
	dreq, runs, err := expandDLC(req, key)
	if err != nil {
		return err
	}
	// Refuse an over-cap batch before generating any wind.
	q, err := bs.QuoteBatch(ctx, a.Organization.ID, runTMax(runs))
	if err != nil {
		return err
	}
	if !q.Fits {
		return turbinesim.Errorf(turbinesim.EPAYMENT, "the batch of %d runs costs %d cents and %d tokens; %d cents and %d tokens remain this month",
			q.Runs, q.PriceCents, q.Tokens, q.RemainingCents, q.RemainingTokens)
	}
	var opt dlc.PrepareOptions
	if ss, err := dlc.SteadyStateFromDeck(d); err == nil {
		opt.SteadyState = ss
	} else if !errors.Is(err, dlc.ErrNoSteadyState) {
		return invalid("turbine deck: %s", err.Error())
	}
	work, err := s.scratchFolder("batch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	nb := &turbinesim.NewBatch{OrganizationID: a.Organization.ID, SubmittedBy: a.User.ID, TurbineID: t.ID,
		Kind: turbinesim.BatchDLC, Name: req.Name}
	if a.Method == turbinesim.AuthAPIKey {
		nb.ClientID = a.ClientID
	}
	if nb.Name == "" {
		nb.Name = "DLC " + strings.Join(req.DLCs, ", ") + " · " + t.Name
	}
	if nb.Runs, err = prepareRuns(ctx, d, runs, work, opt); err != nil {
		return err
	}
	if nb.Request, err = json.Marshal(storedDLCRequest{Request: dreq, Runs: runs}); err != nil {
		return err
	}
	b, err := bs.SubmitBatch(ctx, nb)
	if err != nil {
		return err
	}
	return s.batchCreated(c, b)
}

// prepareRuns writes every run's deck and wind file under work, on as
// many goroutines as there are CPUs (wind generation is CPU-bound): each
// run gets its own directory, and the Deck is only read (PrepareRun does
// not modify it).
func prepareRuns(ctx context.Context, d *deck.Deck, runs []dlc.Run, work string, opt dlc.PrepareOptions) ([]turbinesim.NewBatchRun, error) {
	out := make([]turbinesim.NewBatchRun, len(runs))
	errs := make([]error, len(runs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(min(runtime.NumCPU(), len(runs)), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run := runs[i]
				dir := filepath.Join(work, strconv.Itoa(i))
				fst, err := dlc.PrepareRunWith(ctx, d, run, dir, opt)
				if err != nil {
					errs[i] = invalid("run %s: %s", run.ID, err.Error())
					continue
				}
				entry, err := filepath.Rel(dir, fst)
				if err != nil {
					errs[i] = err
					continue
				}
				out[i] = turbinesim.NewBatchRun{Name: run.ID, InputDir: dir, Entrypoint: filepath.ToSlash(entry), TMax: run.TMax}
			}
		}()
	}
	for i := range runs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Server) batchCreated(c echo.Context, b *turbinesim.Batch) error {
	switch negotiate(c.Request()) {
	case formatJSON:
		c.Response().Header().Set(echo.HeaderLocation, "/batches/"+b.ID)
		return c.JSON(http.StatusCreated, b)
	case formatFragment:
		c.Response().Header().Set("HX-Redirect", "/batches/"+b.ID)
		return c.NoContent(http.StatusCreated)
	default:
		return c.Redirect(http.StatusSeeOther, "/batches/"+b.ID)
	}
}

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

// submitParametricBatch: POST /parametric/batch-submit (verified only).
func (s *Server) submitParametricBatch(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	ctx := c.Request().Context()
	var req ParametricBatchRequest
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		if req, err = parametricFromForm(c); err != nil {
			return err
		}
	} else if err := decodeJSONStrict(c, &req); err != nil {
		return err
	}
	if len(req.Parameters) == 0 {
		return invalid("parameters: sweep at least one of %s", strings.Join(dlc.SweepParamNames(), ", "))
	}
	if len(req.Name) > 200 {
		return invalid("name: at most 200 characters")
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
		return invalid("%s", err.Error())
	}
	if len(points) > turbinesim.MaxBatchRuns {
		return invalid("the sweep has %d points; one batch holds at most %d", len(points), turbinesim.MaxBatchRuns)
	}
	t, d, release, err := s.turbineDeck(ctx, a.Organization.ID, req.TurbineID)
	if err != nil {
		return err
	}
	defer release()
	tMax := make([]float64, len(points))
	for i, p := range points {
		tMax[i] = d.Main.TMax
		if v, ok := p.Values["t_max"]; ok {
			tMax[i] = v
		}
		if !(tMax[i] > 0 && tMax[i] <= 7200) || math.IsNaN(tMax[i]) {
			return invalid("point %s: t_max %g is outside (0, 7200] s", p.ID, tMax[i])
		}
	}
	q, err := bs.QuoteBatch(ctx, a.Organization.ID, tMax)
	if err != nil {
		return err
	}
	if !q.Fits {
		return turbinesim.Errorf(turbinesim.EPAYMENT, "the sweep of %d runs costs %d cents and %d tokens; %d cents and %d tokens remain this month",
			q.Runs, q.PriceCents, q.Tokens, q.RemainingCents, q.RemainingTokens)
	}
	work, err := s.scratchFolder("sweep-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	nb := &turbinesim.NewBatch{OrganizationID: a.Organization.ID, SubmittedBy: a.User.ID, TurbineID: t.ID,
		Kind: turbinesim.BatchParametric, Name: req.Name}
	if a.Method == turbinesim.AuthAPIKey {
		nb.ClientID = a.ClientID
	}
	if nb.Name == "" {
		nb.Name = "Sweep of " + strings.Join(points[0].Swept, " × ") + " · " + t.Name
	}
	for i, p := range points {
		nd := *d // ApplySweepPoint replaces what it changes: d stays intact
		if err := dlc.ApplySweepPoint(&nd, p); err != nil {
			return invalid("point %s: %s", p.ID, err.Error())
		}
		dir := filepath.Join(work, strconv.Itoa(i))
		fst, err := deck.Write(dir, &nd)
		if err != nil {
			return fmt.Errorf("writing the deck of point %s: %w", p.ID, err)
		}
		entry, err := filepath.Rel(dir, fst)
		if err != nil {
			return err
		}
		nb.Runs = append(nb.Runs, turbinesim.NewBatchRun{Name: p.ID, InputDir: dir, Entrypoint: filepath.ToSlash(entry), TMax: tMax[i]})
	}
	if nb.Request, err = json.Marshal(struct {
		ParametricBatchRequest
		Points []dlc.SweepPoint `json:"points"`
	}{req, points}); err != nil {
		return err
	}
	b, err := bs.SubmitBatch(ctx, nb)
	if err != nil {
		return err
	}
	return s.batchCreated(c, b)
}

// parametricFromForm reads the sweep form: one parameter with a start,
// stop and step, or a comma-separated list of values.
func parametricFromForm(c echo.Context) (ParametricBatchRequest, error) {
	req := ParametricBatchRequest{TurbineID: c.FormValue("turbine_id"), Name: c.FormValue("name")}
	f := func(field string) (float64, error) {
		v := strings.TrimSpace(c.FormValue(field))
		if v == "" {
			return 0, nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, invalid("%s: not a number", field)
		}
		return x, nil
	}
	var err error
	if req.TMax, err = f("t_max"); err != nil {
		return req, err
	}
	for _, i := range []string{"1", "2"} {
		name := strings.TrimSpace(c.FormValue("param" + i))
		if name == "" {
			continue
		}
		p := dlc.SweepParam{Name: name}
		if vals := strings.TrimSpace(c.FormValue("values" + i)); vals != "" {
			for _, v := range strings.Split(vals, ",") {
				x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					return req, invalid("values%s: %q is not a number", i, v)
				}
				p.Values = append(p.Values, x)
			}
		} else {
			if p.Start, err = f("start" + i); err != nil {
				return req, err
			}
			if p.Stop, err = f("stop" + i); err != nil {
				return req, err
			}
			if p.Step, err = f("step" + i); err != nil {
				return req, err
			}
		}
		req.Parameters = append(req.Parameters, p)
	}
	return req, nil
}

// BatchDetail is GET /batches/{id}: the batch with its progress and runs.
type BatchDetail struct {
	*turbinesim.Batch
	Runs []BatchRun `json:"runs"`
}

// BatchRun is one run of a batch as listed with it.
type BatchRun struct {
	Run     string               `json:"run"`
	JobID   string               `json:"job_id"`
	Status  turbinesim.JobStatus `json:"status"`
	Percent float64              `json:"percent"`
	Detail  *string              `json:"detail"`
}

// getBatch: GET /batches/{id}.
func (s *Server) getBatch(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	orgID := authFrom(c).Organization.ID
	b, err := bs.FindBatch(ctx, orgID, c.Param("id"))
	if err != nil {
		return err
	}
	jobs, err := bs.BatchJobs(ctx, orgID, b.ID)
	if err != nil {
		return err
	}
	detail := BatchDetail{Batch: b, Runs: make([]BatchRun, len(jobs))}
	for i, rj := range jobs {
		detail.Runs[i] = BatchRun{Run: rj.Run, JobID: rj.Job.ID, Status: rj.Job.Status, Percent: rj.Job.Percent, Detail: rj.Job.Detail}
	}
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, detail)
	case formatFragment:
		return render(c, http.StatusOK, views.BatchProgressFragment(b, batchRunViews(detail.Runs)))
	default:
		return render(c, http.StatusOK, views.BatchPage(s.page(c, b.Name, "batches"), b, batchRunViews(detail.Runs)))
	}
}

func batchRunViews(runs []BatchRun) []views.BatchRunRow {
	out := make([]views.BatchRunRow, len(runs))
	for i, r := range runs {
		out[i] = views.BatchRunRow{Run: r.Run, JobID: r.JobID, Status: string(r.Status), Percent: r.Percent}
		if r.Detail != nil {
			out[i].Detail = *r.Detail
		}
	}
	return out
}

// listBatches: GET /batches?page=&page_size=.
func (s *Server) listBatches(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	page, size, err := pageParams(c, 100)
	if err != nil {
		return err
	}
	list, total, err := bs.ListBatches(c.Request().Context(), authFrom(c).Organization.ID, page, size)
	if err != nil {
		return err
	}
	p := newPage(list, total, page, size)
	if negotiate(c.Request()) == formatJSON {
		return c.JSON(http.StatusOK, p)
	}
	return render(c, http.StatusOK, views.BatchListPage(s.page(c, "Batches", "batches"), list, p.Page, p.TotalPages))
}

// dlcWizard: GET /dlcs/new, the load-basis wizard.
func (s *Server) dlcWizard(c echo.Context) error {
	return render(c, http.StatusOK, views.DLCWizardPage(s.page(c, "Design load basis", "batches"), s.orgTurbines(c), dlc.Standard()))
}

// parametricForm: GET /parametric/new, the sweep form.
func (s *Server) parametricForm(c echo.Context) error {
	params := dlc.SweepParamNames()
	docs := make([]string, len(params))
	for i, p := range params {
		docs[i], _ = dlc.SweepParamDoc(p)
	}
	return render(c, http.StatusOK, views.ParametricPage(s.page(c, "Parametric sweep", "batches"), s.orgTurbines(c), params, docs))
}

func (s *Server) orgTurbines(c echo.Context) []*turbinesim.Turbine {
	if s.svc.Turbines == nil {
		return nil
	}
	ts, _, err := s.svc.Turbines.ListTurbines(c.Request().Context(), authFrom(c).Organization.ID,
		turbinesim.TurbineFilter{Page: 1, PageSize: 100})
	if err != nil {
		return nil
	}
	return ts
}

// batchRoutes registers the batch endpoints (called from routes.go).
func (s *Server) batchRoutes(authed []echo.MiddlewareFunc) {
	e := s.echo
	verified := append(append([]echo.MiddlewareFunc{}, authed...), s.requireVerified)
	e.POST("/dlcs/batch-submit", s.submitDLCBatch, authed...)
	e.POST("/dlcs/preview", s.previewDLC, authed...)
	e.GET("/dlcs/new", s.dlcWizard, authed...)
	e.POST("/parametric/batch-submit", s.submitParametricBatch, verified...)
	e.GET("/parametric/new", s.parametricForm, authed...)
	e.GET("/batches", s.listBatches, authed...)
	e.GET("/batches/:id", s.getBatch, authed...)
	e.GET("/ws/batches/:id", s.batchSocket, authed...) // handlers/batches_ws.go
	s.reportRoutes(authed)                             // handlers/report.go
}
