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
		archive := jobs.Archive{File: ra, Size: fh.Size, Entrypoint: strings.TrimSpace(c.FormValue("entrypoint"))}
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

// listJobs: GET /jobs?status=&page=&page_size=, the organization's jobs,
// newest first.
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
	f := turbinesim.JobFilter{Status: turbinesim.JobStatus(c.QueryParam("status")), Page: page, PageSize: size}
	jobs, total, err := js.ListJobs(c.Request().Context(), authFrom(c).Organization.ID, f)
	if err != nil {
		return err
	}
	p := newPage(jobs, total, page, size)
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, p)
	case formatFragment:
		return render(c, http.StatusOK, views.JobRows(jobs))
	default:
		return render(c, http.StatusOK, views.JobListPage(s.page(c, "Jobs", "jobs"), jobs, views.Pager{
			Page: p.Page, TotalPages: p.TotalPages, Total: p.Total, Status: string(f.Status)}))
	}
}

// newJobPage: GET /jobs/new, the submit form.
func (s *Server) newJobPage(c echo.Context) error {
	var turbines []*turbinesim.Turbine
	if s.svc.Turbines != nil {
		ts, _, err := s.svc.Turbines.ListTurbines(c.Request().Context(), authFrom(c).Organization.ID,
			turbinesim.TurbineFilter{Page: 1, PageSize: 100})
		if err == nil {
			turbines = ts
		}
	}
	return render(c, http.StatusOK, views.JobSubmitPage(s.page(c, "Submit a run", "jobs"), turbines, c.QueryParam("turbine_id")))
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
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, j)
	default:
		names := s.jobNames(c, j)
		return render(c, http.StatusOK, views.JobDetailPage(s.page(c, names.Title(j), "jobs"), j, names))
	}
}

// jobNames finds what people call a job: its run name in its batch and
// the name of the stored turbine it ran. A lookup that fails leaves the
// name empty (the page then falls back to the entrypoint): the heading is
// no reason to refuse the page.
func (s *Server) jobNames(c echo.Context, j *turbinesim.Job) views.JobNames {
	ctx, orgID := c.Request().Context(), authFrom(c).Organization.ID
	var n views.JobNames
	if j.BatchID != nil && s.svc.Batches != nil {
		if runs, err := s.svc.Batches.BatchJobs(ctx, orgID, *j.BatchID); err == nil {
			for _, r := range runs {
				if r.Job != nil && r.Job.ID == j.ID {
					n.Run = r.Run
					break
				}
			}
		}
	}
	if j.TurbineID != nil && s.svc.Turbines != nil {
		if t, err := s.svc.Turbines.FindTurbine(ctx, orgID, *j.TurbineID); err == nil {
			n.Turbine, n.TurbineID = t.Name, t.ID
		}
	}
	return n
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
