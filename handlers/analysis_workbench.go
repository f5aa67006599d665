package handlers

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/views"
)

// The results workbench: the results page of a job and the comparison of
// several runs are one page (views.WorkbenchPage, drawn by
// assets/js/analysis.js from the result endpoints). These handlers find
// the runs, name them for people and hand the page its channels.

// maxCompareJobs bounds the runs of one workbench page.
const maxCompareJobs = 8

// maxRunCandidates bounds the recent runs offered to add to a page.
const maxRunCandidates = 100

var jobIDPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// runNamer names jobs as their pages title them: the job's name; for
// jobs without one, views.JobNames.Title (run name in its batch, else
// turbine, else main input file), asking for
// each batch's runs and each turbine once per request.
type runNamer struct {
	s        *Server
	ctx      context.Context
	orgID    string
	batches  map[string][]turbinesim.BatchRunJob
	turbines map[string]string
}

func (s *Server) newRunNamer(c echo.Context) *runNamer {
	return &runNamer{s: s, ctx: c.Request().Context(), orgID: authFrom(c).Organization.ID,
		batches: map[string][]turbinesim.BatchRunJob{}, turbines: map[string]string{}}
}

func (n *runNamer) name(j *turbinesim.Job) string {
	if j.Name != "" {
		// The run's own name (given at submission or derived from
		// turbine, DLC, wind and seed), as its job page is titled.
		return j.Name
	}
	var names views.JobNames
	if j.BatchID != nil && n.s.svc.Batches != nil {
		runs, ok := n.batches[*j.BatchID]
		if !ok {
			runs, _ = n.s.svc.Batches.BatchJobs(n.ctx, n.orgID, *j.BatchID)
			n.batches[*j.BatchID] = runs
		}
		for _, r := range runs {
			if r.Job != nil && r.Job.ID == j.ID {
				names.Run = r.Run
				break
			}
		}
	}
	if names.Run == "" && j.TurbineID != nil && n.s.svc.Turbines != nil {
		t, ok := n.turbines[*j.TurbineID]
		if !ok {
			if tb, err := n.s.svc.Turbines.FindTurbine(n.ctx, n.orgID, *j.TurbineID); err == nil {
				t = tb.Name
			}
			n.turbines[*j.TurbineID] = t
		}
		names.Turbine = t
	}
	return names.Title(j)
}

// uniqueNames gives each run a name no other run of the list has: a
// shared name gets the first eight characters of the job id appended, so
// that a URL naming runs resolves to exactly one.
func uniqueNames(runs []views.WorkbenchRun) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Name]++
	}
	for i, r := range runs {
		if count[r.Name] > 1 {
			runs[i].Name = r.Name + " · " + r.ID[:min(8, len(r.ID))]
		}
	}
}

// recentRuns are the organization's latest succeeded runs, named: the
// candidates a page offers to add and the names a URL may use.
func (s *Server) recentRuns(c echo.Context, namer *runNamer) ([]views.WorkbenchRun, error) {
	js := s.svc.Jobs
	if js == nil {
		return nil, nil
	}
	jobs, _, err := js.ListJobs(c.Request().Context(), authFrom(c).Organization.ID,
		turbinesim.JobFilter{Status: turbinesim.JobSucceeded, Page: 1, PageSize: maxRunCandidates})
	if err != nil {
		return nil, err
	}
	runs := make([]views.WorkbenchRun, len(jobs))
	for i, j := range jobs {
		runs[i] = views.WorkbenchRun{ID: j.ID, Name: namer.name(j)}
	}
	uniqueNames(runs)
	return runs, nil
}

// resolveRun finds the run a page's URL names: a job id, the start of
// one (at least 8 characters) or a name from the recent runs.
func resolveRun(ref string, recent []views.WorkbenchRun) (string, error) {
	if jobIDPattern.MatchString(ref) {
		return strings.ToLower(ref), nil
	}
	var found []string
	for _, r := range recent {
		if r.Name == ref || (len(ref) >= 8 && strings.HasPrefix(r.ID, strings.ToLower(ref))) {
			found = append(found, r.ID)
		}
	}
	if len(found) == 0 {
		// A base name shared by several runs is ambiguous; a unique one
		// (uniqueNames left it as it was) has matched above.
		for _, r := range recent {
			if base, _, ok := strings.Cut(r.Name, " · "); ok && base == ref {
				found = append(found, r.ID)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", turbinesim.Errorf(turbinesim.EINVALID, "run: no succeeded run is named %q (give its name as the jobs list shows it, or its job id)", ref)
	}
	return "", turbinesim.Errorf(turbinesim.EINVALID, "run: %d runs are named %q; add the first 8 characters of the job id (%q)", len(found), ref, ref+" · "+found[0][:8])
}

// jobResultsPage: GET /analysis/jobs/{id}, the results workbench of a job
// (browsers only; the data comes from the JSON endpoints). Further runs
// to overlay come as run=<name or id> parameters, as on the compare page.
func (s *Server) jobResultsPage(c echo.Context) error {
	return s.workbenchPage(c, []string{c.Param("id")}, "/analysis/jobs/"+c.Param("id"))
}

// compareJobsPage: GET /analysis/compare?run=<name>&run=<name>, the
// workbench over several runs; jobs=<id>,<id> (and channel=) is the older
// form. Without runs it offers the recent runs to choose from.
func (s *Server) compareJobsPage(c echo.Context) error {
	return s.workbenchPage(c, nil, "/analysis/compare")
}

// workbenchPage renders the workbench over the fixed runs (a job page's
// own) and those the query names.
func (s *Server) workbenchPage(c echo.Context, fixed []string, path string) error {
	ra, err := s.resultAnalysis()
	if err != nil {
		return err
	}
	ctx, orgID := c.Request().Context(), authFrom(c).Organization.ID
	namer := s.newRunNamer(c)
	recent, err := s.recentRuns(c, namer)
	if err != nil {
		return err
	}
	refs := append(queryList(c, "jobs"), c.QueryParams()["run"]...)
	ids := slices.Clone(fixed)
	for _, ref := range refs {
		id, err := resolveRun(strings.TrimSpace(ref), recent)
		if err != nil {
			return err
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > maxCompareJobs {
		return turbinesim.Errorf(turbinesim.EINVALID, "run: at most %d runs on one page", maxCompareJobs)
	}
	w := views.Workbench{Path: path, Fixed: len(fixed), Candidates: recent, Channel: c.QueryParam("channel")}
	for k, id := range ids {
		out, err := ra.JobOutput(ctx, orgID, id)
		if err != nil {
			return err
		}
		run := views.WorkbenchRun{ID: out.JobID, Name: "run " + out.JobID[:min(8, len(out.JobID))], File: out.File}
		if s.svc.Jobs != nil {
			j, err := s.svc.Jobs.FindJob(ctx, orgID, out.JobID)
			if err != nil {
				return err
			}
			run.Name = namer.name(j)
		}
		rec := out.Record
		if k == 0 {
			for i := range rec.Names {
				w.Channels = append(w.Channels, results.NewChannelInfo(rec, i))
			}
			if n := len(rec.Time); n > 0 {
				w.TStart, w.TEnd, w.Rows = rec.Time[0], rec.Time[n-1], n
				if n > 1 {
					w.Dt = rec.Time[1] - rec.Time[0]
				}
			}
			for _, n := range []string{"RotSpeed", "GenPwr"} {
				if slices.Contains(rec.Names, n) {
					w.Default = append(w.Default, n)
				}
			}
			w.Groups = results.OffshoreChannelSets(rec.Names)
			if len(w.Default) == 0 {
				for _, ch := range w.Channels {
					if !ch.Invalid {
						w.Default = []string{ch.Name}
						break
					}
				}
			}
		} else {
			// The page offers the first run's channels; a later run that
			// lacks some is not asked for them.
			for _, ch := range w.Channels {
				if !slices.Contains(rec.Names, ch.Name) {
					run.Missing = append(run.Missing, ch.Name)
				}
			}
			if n := len(rec.Time); n > 0 {
				w.TStart, w.TEnd = min(w.TStart, rec.Time[0]), max(w.TEnd, rec.Time[n-1])
				w.Rows = max(w.Rows, n)
			}
		}
		w.Runs = append(w.Runs, run)
	}
	uniqueNames(w.Runs)
	if len(w.Runs) > 1 {
		ids := make([]string, len(w.Runs))
		for i, r := range w.Runs {
			ids[i] = r.ID
		}
		if w.Differences, w.DifferenceNotes, err = ra.SettingsDifferences(ctx, orgID, ids); err != nil {
			return err
		}
		w.Compared = true
	}
	if w.Channel != "" && len(w.Runs) > 0 && !slices.ContainsFunc(w.Channels, func(ch results.ChannelInfo) bool { return ch.Name == w.Channel }) {
		return turbinesim.Errorf(turbinesim.EINVALID, "channel: %q is not a channel of %s", w.Channel, w.Runs[0].Name)
	}
	title := "Compare runs"
	if len(fixed) > 0 && len(w.Runs) > 0 {
		title = "Results · " + w.Runs[0].Name
	}
	p := s.page(c, title, "jobs")
	p.Charts = true
	return render(c, http.StatusOK, views.WorkbenchPage(p, w))
}
