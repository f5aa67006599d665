package handlers

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// maxCompareJobs bounds the jobs of one comparison chart.
const maxCompareJobs = 8

// jobResultsPage: GET /analysis/jobs/{id}, the results view of a job
// (browsers only; the data comes from the JSON endpoints).
func (s *Server) jobResultsPage(c echo.Context) error {
	out, err := s.jobOutputOf(c)
	if err != nil {
		return err
	}
	rec := out.Record
	r := views.JobResults{JobID: out.JobID, File: out.File, Rows: len(rec.Time)}
	for i, n := range rec.Names {
		r.Channels = append(r.Channels, views.ResultsChannel{Name: n, Unit: rec.Unit(i)})
	}
	for _, n := range []string{"RotSpeed", "GenPwr"} {
		if slices.Contains(rec.Names, n) {
			r.Selected = append(r.Selected, n)
		}
	}
	if len(r.Selected) == 0 && len(rec.Names) > 0 {
		r.Selected = rec.Names[:1]
	}
	if n := len(rec.Time); n > 0 {
		r.TStart, r.TEnd = rec.Time[0], rec.Time[n-1]
		if n > 1 {
			r.Dt = rec.Time[1] - rec.Time[0]
		}
	}
	p := s.page(c, "Results", "jobs")
	p.Charts = true
	return render(c, http.StatusOK, views.JobResultsPage(p, r))
}

// compareJobsPage: GET /analysis/compare?jobs=a,b&channel=GenPwr, one
// channel of several jobs on one chart.
func (s *Server) compareJobsPage(c echo.Context) error {
	rs, err := s.results()
	if err != nil {
		return err
	}
	jobs := queryList(c, "jobs")
	channel := c.QueryParam("channel")
	if len(jobs) == 0 || len(jobs) > maxCompareJobs || channel == "" {
		return turbinesim.Errorf(turbinesim.EINVALID, "give jobs (1 to %d ids, comma-separated) and a channel", maxCompareJobs)
	}
	for _, id := range jobs {
		out, err := rs.JobOutput(c.Request().Context(), authFrom(c).Organization.ID, id)
		if err != nil {
			return err
		}
		if err := checkChannels(out.Record, []string{channel}); err != nil {
			return turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", id, turbinesim.ErrorMessage(err))
		}
	}
	p := s.page(c, "Compare", "jobs")
	p.Charts = true
	return render(c, http.StatusOK, views.CompareJobsPage(p, jobs, channel))
}
