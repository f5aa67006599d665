package views

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// Choice is one option of a select: an id and what people call it.
type Choice struct {
	ID, Label string
}

// JobQuery is the search of the job list as the URL states it.
type JobQuery struct {
	Name, Tag, TurbineID, BatchID, Status, From, To, Sort string
}

// Values is the query string of the search; page is added when > 1.
func (q JobQuery) Values(page int) string {
	v := url.Values{}
	for k, x := range map[string]string{"name": q.Name, "tag": q.Tag, "turbine_id": q.TurbineID, "batch_id": q.BatchID,
		"status": q.Status, "from": q.From, "to": q.To, "sort": q.Sort} {
		if x != "" {
			v.Set(k, x)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v.Encode()
}

// SortBy is the list sorted by field (a column heading's link: the same
// field again flips the order).
func (q JobQuery) SortBy(field string) string {
	next := field
	if q.Sort == field {
		next = "-" + field
	}
	q.Sort = next
	return "/jobs?" + q.Values(1)
}

// JobList is the job list page: the page of jobs, the search, and the
// choices of its turbine and batch filters.
type JobList struct {
	Jobs                    []*turbinesim.Job
	Query                   JobQuery
	Page, TotalPages, Total int
	Turbines, Batches       []Choice
}

// JobTitle is what a job's pages are called: its name, else its main
// input file.
func JobTitle(j *turbinesim.Job) string {
	if j.Name != "" {
		return j.Name
	}
	return j.Entrypoint
}

// setting formats a run setting as people write it (6 significant
// digits, no trailing zeros).
func setting(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// WindLabel says in a few words what wind a run had, e.g. "steady 8 m/s,
// shear 0.2" or "12 m/s NTM, class 1B (IEC Kaimal)"; "" when not
// recorded.
func WindLabel(s *turbinesim.RunSetup) string {
	if s == nil {
		return ""
	}
	w := s.Wind
	var parts []string
	switch w.Kind {
	case "steady":
		p := "steady"
		if w.Speed != nil {
			p += " " + setting(*w.Speed) + " m/s"
		}
		parts = append(parts, p)
		if w.Shear != nil {
			parts = append(parts, "shear "+setting(*w.Shear))
		}
	case "file":
		parts = append(parts, strings.TrimSpace("wind file "+w.File))
	case "turbulent":
		p := "turbulent"
		if w.Speed != nil {
			p = setting(*w.Speed) + " m/s"
		}
		if w.Turbulence != "" {
			p += " " + w.Turbulence
		}
		parts = append(parts, p)
	case "event":
		p := w.Event
		if w.Speed != nil {
			p += " at " + setting(*w.Speed) + " m/s"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// WavesLabel says what waves an offshore run had; "" on land.
func WavesLabel(s *turbinesim.RunSetup) string {
	if s == nil || s.Waves == nil {
		return ""
	}
	w := s.Waves
	parts := []string{w.Model}
	if w.Hs != nil {
		parts = append(parts, "Hs "+setting(*w.Hs)+" m")
	}
	if w.Tp != nil {
		parts = append(parts, "Tp "+setting(*w.Tp)+" s")
	}
	if w.Direction != nil {
		parts = append(parts, "from "+setting(*w.Direction)+"°")
	}
	return strings.Join(parts, ", ")
}

// SweepLabel lists a sweep run's parameter values.
func SweepLabel(s *turbinesim.RunSetup) string {
	if s == nil || len(s.Sweep) == 0 {
		return ""
	}
	var parts []string
	for k, v := range s.Sweep {
		parts = append(parts, k+" = "+setting(v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// RanBy says who submitted a job: the user's e-mail and, with a key,
// its Client ID.
func RanBy(j *turbinesim.Job) string {
	who := j.SubmittedByEmail
	if who == "" {
		who = "a former member"
	}
	if j.ClientID != nil {
		who += " (API key " + *j.ClientID + ")"
	}
	return who
}

// RunForm is the state of the run form: what the fields show, as text
// (an empty optional field stays empty).
type RunForm struct {
	TurbineID, Name, Tags, TMax, DT, Speed, Shear string
	// WindKind is steady, upload or job (a wind file of job WindJobID at
	// WindPath).
	WindKind, WindJobID, WindPath string
	// From is the job the form was filled from ("re-run with changes").
	From string
}

// RunFormFrom fills the run form with a job's settings: its turbine,
// name, tags, t_max, time step and wind (steady, or its wind file).
func RunFormFrom(j *turbinesim.Job) RunForm {
	f := RunForm{Name: j.Name, Tags: strings.Join(j.Tags, ", "), TMax: setting(j.TMax), WindKind: "steady", From: j.ID}
	if j.TurbineID != nil {
		f.TurbineID = *j.TurbineID
	}
	if s := j.Setup; s != nil {
		if s.DT > 0 {
			f.DT = setting(s.DT)
		}
		w := s.Wind
		if w.Speed != nil {
			f.Speed = setting(*w.Speed)
		}
		if w.Shear != nil {
			f.Shear = setting(*w.Shear)
		}
		if w.Kind == "file" && w.File != "" && j.BatchID == nil && j.TurbineID != nil {
			// A run of a stored turbine keeps its wind file under Wind/
			// beside the run's main file.
			f.WindKind, f.WindJobID, f.WindPath = "job", j.ID, path.Join(path.Dir(j.Entrypoint), "Wind", w.File)
		}
	}
	if f.Speed == "" && f.WindKind == "steady" {
		f.Speed = "8"
	}
	return f
}

// pageOf is the list's "n jobs · page p of q" line.
func pageOf(v JobList) string {
	return fmt.Sprintf("%d jobs · page %d of %d", v.Total, v.Page, max(v.TotalPages, 1))
}

// tagVals is the hx-vals JSON of a tag button.
func tagVals(field, tag string) string {
	b, _ := json.Marshal(map[string]string{field: tag})
	return string(b)
}
