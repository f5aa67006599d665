package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// Batch endpoints: POST /dlcs/batch-submit (a design load
// basis), POST /dlcs/preview (run count and price before submitting),
// POST /parametric/batch-submit (a full-factorial sweep, verified only),
// GET /batches and GET /batches/{id}.
//
// A design load basis is expanded, checked, quoted and submitted by
// batches.DLCBatches (batches/dlc.go): the request stores one run recipe
// per job and each attempt's child process generates the run's wind file
// and deck within the run's limits (infra/runner/prepare.go). A sweep is
// submitted by batches.ParametricBatches (batches/parametric.go). The
// handlers here parse and render only.

func (s *Server) batchService() (turbinesim.BatchService, error) {
	if s.svc.Batches == nil || s.svc.Turbines == nil {
		return nil, notImplemented
	}
	return s.svc.Batches, nil
}

// dlcBatches is the DLC batch service over the turbine, blob and batch
// stores.
func (s *Server) dlcBatches() (*batches.DLCBatches, error) {
	if s.svc.DLCBatches == nil {
		return nil, notImplemented
	}
	return s.svc.DLCBatches, nil
}

// DLCBatchRequest is the body of POST /dlcs/batch-submit and /dlcs/preview.
type DLCBatchRequest = batches.DLCBatchRequest

// DLCPreview answers POST /dlcs/preview.
type DLCPreview = batches.DLCPreview

// storedDLCRequest is a DLC batch's stored request (the report reads it).
type storedDLCRequest = batches.StoredDLCRequest

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
	seas, err := seaStatesFromText(form.Get("sea_states"))
	if err != nil {
		return nil, err
	}
	req.SeaStates = seas
	var ess dlc.ExtremeSeaState
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"hs50", &ess.Hs50}, {"tp50", &ess.Tp50}, {"hs1", &ess.Hs1}, {"tp1", &ess.Tp1}, {"ess_wave_dir", &ess.WaveDir}} {
		if strings.TrimSpace(form.Get(f.name)) == "" {
			continue
		}
		if err := num(f.name, f.dst); err != nil {
			return nil, invalid("extreme_sea_state: %s: not a number", f.name)
		}
		req.ExtremeSeaState = &ess
	}
	return req, nil
}

// seaStatesFromText reads the wizard's sea-state table: one row per line,
// wind speed, Hs, Tp and an optional wave heading (0 when left out),
// separated by blanks or commas.
func seaStatesFromText(text string) ([]dlc.SeaStateBin, error) {
	var out []dlc.SeaStateBin
	for i, line := range strings.Split(text, "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == ';' || r == '\r' })
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 || len(f) > 4 {
			return nil, invalid("sea_states: line %d: give wind speed, Hs, Tp and optionally the wave heading", i+1)
		}
		var v [4]float64
		for k, w := range f {
			x, err := strconv.ParseFloat(w, 64)
			if err != nil {
				return nil, invalid("sea_states: line %d: %q is not a number", i+1, w)
			}
			v[k] = x
		}
		out = append(out, dlc.SeaStateBin{WindSpeed: v[0], Hs: v[1], Tp: v[2], WaveDir: v[3]})
	}
	return out, nil
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

// previewDLC: POST /dlcs/preview, the load-basis table, run count and
// price of a request, without submitting anything.
func (s *Server) previewDLC(c echo.Context) error {
	svc, err := s.dlcBatches()
	if err != nil {
		return err
	}
	req, err := s.readDLCRequest(c)
	var pv *DLCPreview
	if err == nil {
		pv, err = svc.Preview(c.Request().Context(), authFrom(c).Organization.ID, req)
	}
	if negotiate(c.Request()) == formatJSON {
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, pv)
	}
	if err != nil {
		return render(c, http.StatusOK, views.DLCPreviewFragment(nil, nil, nil, nil, err.Error()))
	}
	return render(c, http.StatusOK, views.DLCPreviewFragment(pv.Basis, pv.Quote, pv.Warnings, pv.SeaStates, ""))
}

// submitDLCBatch: POST /dlcs/batch-submit.
func (s *Server) submitDLCBatch(c echo.Context) error {
	svc, err := s.dlcBatches()
	if err != nil {
		return err
	}
	req, err := s.readDLCRequest(c)
	if err != nil {
		return err
	}
	a := authFrom(c)
	by := batches.BatchSubmitter{OrganizationID: a.Organization.ID, UserID: a.User.ID}
	if a.Method == turbinesim.AuthAPIKey {
		by.ClientID = a.ClientID
	}
	b, err := svc.Submit(c.Request().Context(), by, req)
	if err != nil {
		return err
	}
	return s.batchCreated(c, b)
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
type ParametricBatchRequest = batches.ParametricBatchRequest

// submitParametricBatch: POST /parametric/batch-submit (verified only).
func (s *Server) submitParametricBatch(c echo.Context) error {
	svc := s.svc.ParametricBatches
	if svc == nil {
		return notImplemented
	}
	var req ParametricBatchRequest
	var err error
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		if req, err = parametricFromForm(c); err != nil {
			return err
		}
	} else if err := decodeJSONStrict(c, &req); err != nil {
		return err
	}
	a := authFrom(c)
	by := batches.BatchSubmitter{OrganizationID: a.Organization.ID, UserID: a.User.ID}
	if a.Method == turbinesim.AuthAPIKey {
		by.ClientID = a.ClientID
	}
	b, err := svc.Submit(c.Request().Context(), by, &req)
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
				v = strings.TrimSpace(v)
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return req, invalid("values%s: %q is not a number", i, v)
				}
				p.Values = append(p.Values, x)
			}
		} else {
			// An empty field is absent, never 0: a range needs all three.
			for _, field := range []string{"start" + i, "stop" + i, "step" + i} {
				if strings.TrimSpace(c.FormValue(field)) == "" {
					return req, invalid("%s: required for a range of %s (or give values%s, a list)", field, name, i)
				}
			}
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
	// Checks are the plausibility checks the run failed (Job.Checks).
	Checks []turbinesim.RunCheck `json:"checks"`
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
		s.hideInJob(rj.Job)
		detail.Runs[i] = BatchRun{Run: rj.Run, JobID: rj.Job.ID, Status: rj.Job.Status, Percent: rj.Job.Percent, Detail: rj.Job.Detail, Checks: rj.Job.Checks}
	}
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, detail)
	case formatFragment:
		return render(c, http.StatusOK, views.BatchProgressFragment(b, batchRunViews(detail.Runs)))
	default:
		field, _ := eventsField(c, b)
		return render(c, http.StatusOK, views.BatchPage(s.page(c, b.Name, "batches"), b, batchRunViews(detail.Runs), field))
	}
}

func batchRunViews(runs []BatchRun) []views.BatchRunRow {
	out := make([]views.BatchRunRow, len(runs))
	for i, r := range runs {
		out[i] = views.BatchRunRow{Run: r.Run, JobID: r.JobID, Status: string(r.Status), Percent: r.Percent,
			Flagged: turbinesim.RunFlagged(r.Checks)}
		var reasons []string
		for _, c := range r.Checks {
			if c.Severity == turbinesim.CheckError {
				reasons = append(reasons, c.Message)
			}
		}
		out[i].Reasons = strings.Join(reasons, "; ")
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
	return render(c, http.StatusOK, views.DLCWizardPage(s.page(c, "Design load basis", "batches"), s.orgTurbines(c), dlc.Standard(), c.QueryParam("turbine_id")))
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
