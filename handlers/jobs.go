package handlers

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/jobs"
	"github.com/turbinesim/turbinesim/views"
)

// Job endpoints: submit, list, detail, cancel, output download. The
// WebSocket progress channel is in ws.go; building and checking a job's
// input is jobs.Submissions (package jobs).

func (s *Server) jobService() (turbinesim.JobService, error) {
	if s.svc.Jobs == nil {
		return nil, notImplemented
	}
	return s.svc.Jobs, nil
}

func (s *Server) jobSubmissions() (*jobs.Submissions, error) {
	if s.svc.JobSubmissions == nil {
		return nil, notImplemented
	}
	return s.svc.JobSubmissions, nil
}

// submitJob: POST /jobs. Either multipart (file = ZIP, entrypoint = main
// .fst inside it; or turbine_id, settings and wind_file) or JSON
// TurbineRunRequest; jobs.Submissions builds the input tree, validates the
// deck before anything is charged (422 naming file and line) and submits
// the job (402 over a cap).
func (s *Server) submitJob(c echo.Context) error {
	subs, err := s.jobSubmissions()
	if err != nil {
		return err
	}
	a := authFrom(c)
	ctx := c.Request().Context()
	idem := c.Request().Header.Get("Idempotency-Key")
	if len(idem) > jobs.MaxIdempotencyKey {
		return invalid("Idempotency-Key: at most %d characters", jobs.MaxIdempotencyKey)
	}
	var job *turbinesim.Job
	var replayed bool
	switch mediaType(c.Request()) {
	case "multipart/form-data":
		if c.FormValue("turbine_id") != "" {
			// A run of a stored turbine with an uploaded wind file.
			var req jobs.TurbineRunRequest
			req.TurbineID = c.FormValue("turbine_id")
			req.Name, req.Tags = c.FormValue("name"), splitTags(c.Request().MultipartForm.Value["tags"])
			settings, err := readJSONBody(strings.NewReader(c.FormValue("settings")))
			if err != nil {
				return err
			}
			dec := json.NewDecoder(bytes.NewReader(settings))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&req.Settings); err != nil {
				return invalid("settings: %s (a JSON object in the multipart field \"settings\")", jsonProblem(err))
			}
			fh, err := c.FormFile("wind_file")
			if err != nil {
				return invalid("wind_file: required with turbine_id in a multipart request (else send JSON)")
			}
			f, err := fh.Open()
			if err != nil {
				return err
			}
			defer f.Close()
			job, replayed, err = subs.SubmitTurbineRun(ctx, a, idem, &req, &jobs.UploadedWind{File: f, Name: fh.Filename})
			if err != nil {
				return err
			}
			break
		}
		fh, err := c.FormFile("file")
		if err != nil {
			return invalid("file: a ZIP of the input files is required (multipart field \"file\"), or turbine_id, settings and wind_file")
		}
		f, err := fh.Open()
		if err != nil {
			return err
		}
		defer f.Close()
		ra, ok := f.(io.ReaderAt)
		if !ok {
			return invalid("file: not readable")
		}
		archive := jobs.Archive{File: ra, Size: fh.Size, Entrypoint: strings.TrimSpace(c.FormValue("entrypoint")),
			Name: c.FormValue("name"), Tags: splitTags(c.Request().MultipartForm.Value["tags"])}
		if job, replayed, err = subs.SubmitArchive(ctx, a, idem, archive); err != nil {
			return err
		}
	case "application/json":
		var req jobs.TurbineRunRequest
		body, err := readJSONBody(c.Request().Body)
		if err != nil {
			return err
		}
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return invalid("body: %s", jsonProblem(err))
		}
		if job, replayed, err = subs.SubmitTurbineRun(ctx, a, idem, &req, nil); err != nil {
			return err
		}
	default:
		return turbinesim.Errorf(turbinesim.EINVALID,
			"Content-Type: send multipart/form-data (file, entrypoint) or application/json (turbine_id, settings)")
	}
	s.hideInJob(job)
	status := http.StatusCreated
	if replayed {
		status = http.StatusOK
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	switch negotiate(c.Request()) {
	case formatJSON:
		c.Response().Header().Set(echo.HeaderLocation, "/jobs/"+job.ID)
		return c.JSON(status, job)
	case formatFragment:
		c.Response().Header().Set("HX-Redirect", "/jobs/"+job.ID)
		return c.NoContent(status)
	default:
		return c.Redirect(http.StatusSeeOther, "/jobs/"+job.ID)
	}
}

// listJobs: GET /jobs, the organization's jobs filtered by name, tag,
// turbine, batch, status and submission date, in the order sort names
// (jobFilter). Browsers get the list page with its search form; htmx
// refreshes get the rows.
func (s *Server) listJobs(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		if !wantsJSON(c) {
			return s.coming("Jobs", "jobs")(c)
		}
		return err
	}
	page, size, err := pageParams(c, 100)
	if err != nil {
		return err
	}
	f, err := jobFilter(c)
	if err != nil {
		return err
	}
	f.Page, f.PageSize = page, size
	ctx, orgID := c.Request().Context(), authFrom(c).Organization.ID
	jobs, total, err := js.ListJobs(ctx, orgID, f)
	if err != nil {
		return err
	}
	s.hideInJobs(jobs)
	p := newPage(jobs, total, page, size)
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, p)
	case formatFragment:
		return render(c, http.StatusOK, views.JobRows(jobs))
	default:
		v := views.JobList{Jobs: jobs, Query: jobQuery(c), Page: p.Page, TotalPages: p.TotalPages, Total: p.Total,
			Turbines: s.turbineChoices(c), Batches: s.batchChoices(c)}
		return render(c, http.StatusOK, views.JobListPage(s.page(c, "Jobs", "jobs"), v))
	}
}

// jobQuery is the list's search as the page states it (the form's
// values and the links of sort and page keep it).
func jobQuery(c echo.Context) views.JobQuery {
	return views.JobQuery{Name: c.QueryParam("name"), Tag: c.QueryParam("tag"), TurbineID: c.QueryParam("turbine_id"),
		BatchID: c.QueryParam("batch_id"), Status: c.QueryParam("status"), From: c.QueryParam("from"), To: c.QueryParam("to"),
		Sort: c.QueryParam("sort")}
}

// jobFilter reads the query of GET /jobs. Every parameter is optional and
// given at most once; a bad one is 422 naming it. from and to are dates
// (YYYY-MM-DD, to inclusive) or RFC 3339 times (to exclusive).
func jobFilter(c echo.Context) (turbinesim.JobFilter, error) {
	q := c.QueryParams()
	for _, name := range []string{"name", "tag", "turbine_id", "batch_id", "status", "from", "to", "sort"} {
		if len(q[name]) > 1 {
			return turbinesim.JobFilter{}, invalid("%s: given more than once", name)
		}
	}
	f := turbinesim.JobFilter{Status: turbinesim.JobStatus(q.Get("status")), Name: strings.TrimSpace(q.Get("name")),
		Tag: strings.TrimSpace(q.Get("tag")), TurbineID: q.Get("turbine_id"), BatchID: q.Get("batch_id"), Sort: q.Get("sort")}
	switch {
	case f.Status != "" && !f.Status.Valid():
		return f, invalid("status: %q is not a job status (%s)", clipText(string(f.Status), 40), strings.Join(statusNames(), ", "))
	case len(f.Name) > turbinesim.MaxJobNameBytes:
		return f, invalid("name: at most %d bytes", turbinesim.MaxJobNameBytes)
	case len(f.Tag) > 4*turbinesim.MaxJobTagLength:
		return f, invalid("tag: at most %d characters", turbinesim.MaxJobTagLength)
	case !turbinesim.ValidJobSort(f.Sort):
		return f, invalid("sort: %q is not one of %s", clipText(f.Sort, 40), strings.Join(turbinesim.JobSorts, ", "))
	}
	for name, id := range map[string]string{"turbine_id": f.TurbineID, "batch_id": f.BatchID} {
		if id != "" && !isUUID(id) {
			return f, invalid("%s: %q is not an id", name, clipText(id, 40))
		}
	}
	var err error
	if f.From, err = queryTime(c, "from", false); err != nil {
		return f, err
	}
	if f.To, err = queryTime(c, "to", true); err != nil {
		return f, err
	}
	if f.From != nil && f.To != nil && !f.To.After(*f.From) {
		return f, invalid("to: %s is not after from (%s)", q.Get("to"), q.Get("from"))
	}
	return f, nil
}

func statusNames() []string {
	out := make([]string, len(turbinesim.JobStatuses))
	for i, st := range turbinesim.JobStatuses {
		out[i] = string(st)
	}
	return out
}

// isUUID reports whether s is a canonical UUID (the ids of every row).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", r):
			return false
		}
	}
	return true
}

// turbineChoices are the organization's turbines for the list's filter
// and the run form; a failed lookup leaves the choice empty (the page is
// still useful).
func (s *Server) turbineChoices(c echo.Context) []views.Choice {
	if s.svc.Turbines == nil {
		return nil
	}
	ts, _, err := s.svc.Turbines.ListTurbines(c.Request().Context(), authFrom(c).Organization.ID,
		turbinesim.TurbineFilter{Page: 1, PageSize: 100})
	if err != nil {
		return nil
	}
	out := make([]views.Choice, len(ts))
	for i, t := range ts {
		out[i] = views.Choice{ID: t.ID, Label: t.Name}
	}
	return out
}

// batchChoices are the organization's latest batches for the list's
// filter.
func (s *Server) batchChoices(c echo.Context) []views.Choice {
	if s.svc.Batches == nil {
		return nil
	}
	bs, _, err := s.svc.Batches.ListBatches(c.Request().Context(), authFrom(c).Organization.ID, 1, 100)
	if err != nil {
		return nil
	}
	out := make([]views.Choice, len(bs))
	for i, b := range bs {
		out[i] = views.Choice{ID: b.ID, Label: b.Name}
	}
	return out
}

// newJobPage: GET /jobs/new, the submit form; ?turbine_id= preselects a
// turbine, ?from= (a job id) fills the run form with that job's settings
// ("re-run with changes").
func (s *Server) newJobPage(c echo.Context) error {
	var turbines []*turbinesim.Turbine
	if s.svc.Turbines != nil {
		ts, _, err := s.svc.Turbines.ListTurbines(c.Request().Context(), authFrom(c).Organization.ID,
			turbinesim.TurbineFilter{Page: 1, PageSize: 100})
		if err == nil {
			turbines = ts
		}
	}
	form := views.RunForm{TurbineID: c.QueryParam("turbine_id"), TMax: "60", Speed: "8", WindKind: "steady"}
	if from := c.QueryParam("from"); from != "" {
		js, err := s.jobService()
		if err != nil {
			return err
		}
		j, err := js.FindJob(c.Request().Context(), authFrom(c).Organization.ID, from)
		if err != nil {
			return err
		}
		form = views.RunFormFrom(j)
	}
	return render(c, http.StatusOK, views.JobSubmitPage(s.page(c, "Submit a run", "jobs"), turbines, form))
}

// getJob: GET /jobs/{id}.
func (s *Server) getJob(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		return err
	}
	j, err := js.FindJob(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	s.hideInJob(j)
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, j)
	default:
		return render(c, http.StatusOK, views.JobDetailPage(s.page(c, views.JobTitle(j), "jobs"), j))
	}
}

// updateJob: PATCH /jobs/{id}, a new name or tags (JSON JobUpdate; the
// job page's tag forms send the same fields form-encoded, one tag per
// add_tags or remove_tags value).
func (s *Server) updateJob(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		return err
	}
	var u turbinesim.JobUpdate
	switch mediaType(c.Request()) {
	case echo.MIMEApplicationForm, echo.MIMEMultipartForm:
		if v := c.FormValue("name"); v != "" {
			u.Name = &v
		}
		form, err := c.FormParams()
		if err != nil {
			return invalid("body: not a readable form")
		}
		u.AddTags, u.RemoveTags = splitTags(form["add_tags"]), splitTags(form["remove_tags"])
	default:
		if err := decodeJSONStrict(c, &u); err != nil {
			return err
		}
	}
	j, err := js.UpdateJob(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), u)
	if err != nil {
		return err
	}
	s.hideInJob(j)
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, j)
	case formatFragment:
		return render(c, http.StatusOK, views.JobTags(j))
	default:
		return c.Redirect(http.StatusSeeOther, "/jobs/"+j.ID)
	}
}

// splitTags reads tags typed into one field, separated by commas.
func splitTags(values []string) []string {
	var out []string
	for _, v := range values {
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

// cancelJob: POST /jobs/{id}/cancel. 202 with the job: cancelled at once
// when it was queued, cancelling (stops within seconds) when running; 409
// when it is finished.
func (s *Server) cancelJob(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		return err
	}
	j, err := js.CancelJob(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	s.hideInJob(j)
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusAccepted, j)
	case formatFragment:
		c.Response().Header().Set("HX-Refresh", "true")
		return c.NoContent(http.StatusAccepted)
	default:
		return c.Redirect(http.StatusSeeOther, "/jobs/"+j.ID)
	}
}

// jobOutput: GET /jobs/{id}/outputs/{name}, one published output file as
// an attachment. Only names in the job's output list are served, and the
// file is opened through os.Root (no escape by links).
func (s *Server) jobOutput(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		return err
	}
	orgID := authFrom(c).Organization.ID
	name, err := url.PathUnescape(c.Param("name"))
	if err != nil {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "output not found")
	}
	j, err := js.FindJob(c.Request().Context(), orgID, c.Param("id"))
	if err != nil {
		return err
	}
	listed := false
	for _, f := range j.OutputFiles {
		listed = listed || f == name
	}
	if !listed {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "output not found")
	}
	dir, release, err := js.OpenOutputs(c.Request().Context(), orgID, j.ID)
	if err != nil {
		return err
	}
	defer release()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "output not found")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "output not found")
	}
	base := filepath.Base(name)
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": base}))
	h.Set("X-Content-Type-Options", "nosniff")
	// A fixed type: ServeContent neither sniffs nor guesses from the name.
	h.Set(echo.HeaderContentType, "application/octet-stream")
	http.ServeContent(c.Response(), c.Request(), base, st.ModTime(), f)
	return nil
}
