package views

import (
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/turbinesim/turbinesim/results"
)

// WorkbenchRun is one run of the results workbench: its job, the name
// people know it by (unique on the page) and the channels of the first
// run it lacks.
type WorkbenchRun struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	File    string   `json:"file,omitempty"`
	Missing []string `json:"missing,omitempty"`
}

// Workbench is what the results workbench shows (the results page of a
// job, and the comparison of runs); it is handed to
// assets/js/analysis.js as a JSON block. The page's state (runs,
// channels, window, plot type) lives in its URL, which the script reads
// and keeps current.
type Workbench struct {
	// Path is the page's own path; the first Fixed runs are named by it
	// (a job's results page), the others by run= parameters.
	Path  string         `json:"path"`
	Fixed int            `json:"fixed"`
	Runs  []WorkbenchRun `json:"runs"`
	// Channels are the first run's, with their module groups.
	Channels []results.ChannelInfo `json:"channels"`
	// Default are plotted when the URL names no channel (RotSpeed and
	// GenPwr when present); Channel is the older compare form's one.
	Default []string `json:"default"`
	Channel string   `json:"channel,omitempty"`
	Rows    int      `json:"rows"`
	TStart  float64  `json:"t_start"`
	TEnd    float64  `json:"t_end"`
	// Dt is the first run's output time step, s; the zoom asks for about
	// 2000 points per channel in the visible window.
	Dt float64 `json:"dt"`
	// Candidates are the organization's recent succeeded runs, offered to
	// add to the page.
	Candidates []WorkbenchRun `json:"candidates"`
	// Differences are the settings in which the runs differ (several
	// runs only: Compared), shown above the plots; DifferenceNotes say
	// what could not be compared.
	Compared        bool                         `json:"-"`
	Differences     []results.SettingsDifference `json:"-"`
	DifferenceNotes []string                     `json:"-"`
	// Groups are the offshore channel sets the first run's output fills
	// (results.OffshoreChannelSets: platform motions, mooring tensions,
	// wave elevation, substructure reactions, mudline moments, tower-base
	// loads), each a link plotting its channels.
	Groups []results.OffshoreChannelSet `json:"groups,omitempty"`
}

// groupURL is the page at path plotting the group's channels (the
// workbench reads them from ch=).
func groupURL(path string, g results.OffshoreChannelSet) templ.SafeURL {
	return templ.SafeURL(path + "?ch=" + url.QueryEscape(strings.Join(g.Channels, ",")))
}

// ChartSpec is one server-built ECharts option.
type ChartSpec struct {
	ID     string
	Option any
}

// BatchResults is what the batch results page shows: curve charts, the
// bin table, lifetime DELs and the extreme-load table, each table with a
// CSV link to the matching endpoint.
type BatchResults struct {
	BatchID string
	Runs    int
	Skipped int
	// Query is the page's query string, passed on to the CSV links.
	Query  string
	Charts []ChartSpec
	// CurveNote says why there is no curve (a batch of events only).
	CurveNote string
	// Partial: some runs are still queued or running; the page is from
	// RunsFinished of RunsTotal runs.
	Partial                 bool
	RunsFinished, RunsTotal int
	Bins                    [][]string // header first
	DELs                    [][]string // header first; empty when not computed
	DELNote                 string
	Extremes                [][]string // header first; the job in column extremeJobColumn
	// ExtremesNote says when the extremes are not from type-U DLCs.
	ExtremesNote string
	// ExtremeRuns are the runs of the extreme rows (aligned with
	// Extremes[1:]), shown in its job column as a link to the job.
	ExtremeRuns []RunLink
	// LoadDuration are the lifetime load-duration charts of the drivetrain
	// channels (hours per level); SpectraNote says why there are none.
	LoadDuration []ChartSpec
	SpectraNote  string
	// Events is the events_per_year field; ReportHref links the
	// certification report (DLC batches only, "" otherwise).
	Events     EventsField
	ReportHref string
	// Excluded are the runs left out as flagged (failed plausibility
	// checks); IncludeFlagged says the page was asked to use them
	// (include_flagged=true); FlaggedToggleHref is the page with the other
	// choice.
	Excluded          []results.ExcludedRun
	IncludeFlagged    bool
	FlaggedToggleHref string
	// Window states the part of each run the curves and loads use
	// (results.AnalysisWindow.String()).
	Window string
}

// EventsField is the events_per_year form field of the batch and results
// pages (start-up and shut-down events per year, e.g. 3.1:1000,4.1:1000):
// the value typed, the query it adds to the pages' report and analysis
// links ("" when empty or refused) and the server's objection to it,
// shown next to the field.
type EventsField struct {
	Value   string
	Query   string // "events_per_year=..." URL-encoded
	Problem string
	// Keep are the page's other query parameters (name, value), sent
	// again with the field.
	Keep [][2]string
}

// With appends the field's query to href.
func (e EventsField) With(href string) string {
	if e.Query == "" {
		return href
	}
	if strings.Contains(href, "?") {
		return href + "&" + e.Query
	}
	return href + "?" + e.Query
}

// spectrumHref is a batch spectrum endpoint with the page's query: JSON,
// or CSV with csv.
func spectrumHref(batchID, endpoint, query string, csv bool) string {
	if csv {
		return csvHref(batchID, endpoint, query)
	}
	if query == "" {
		return "/analysis/batches/" + batchID + "/" + endpoint
	}
	return "/analysis/batches/" + batchID + "/" + endpoint + "?" + query
}

func csvHref(batchID, endpoint, query string) string {
	q := "format=csv"
	if query != "" {
		q = query + "&" + q
	}
	return "/analysis/batches/" + batchID + "/" + endpoint + "?" + q
}

// delChannels lists the distinct first-column values of a table (the
// channels), comma-separated, for the CSV link.
func delChannels(rows [][]string) string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		if len(r) > 0 && !seen[r[0]] {
			seen[r[0]] = true
			out = append(out, url.QueryEscape(r[0]))
		}
	}
	return strings.Join(out, ",")
}

// RunLink names a batch run for people (its run name, else its job id)
// and links its job page (Href "" when no run holds the value, e.g. an
// extrapolated load).
type RunLink struct {
	Name string
	Href string
}

// extremeJobColumn is the column of the extreme table that names the run.
const extremeJobColumn = 7

// excludedName is a flagged run's name, else its job id.
func excludedName(e results.ExcludedRun) string {
	if e.Run != "" {
		return e.Run
	}
	return e.JobID
}
