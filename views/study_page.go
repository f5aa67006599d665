package views

import (
	"fmt"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"net/url"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// StudyList is what the study list page shows.
type StudyList struct {
	Items      []*turbinesim.Study
	Page       int
	TotalPages int
	Total      int
}

// StudyEditor is what the study editor shows.
type StudyEditor struct {
	Study     *turbinesim.Study
	Artifacts []*turbinesim.Artifact
	Share     *turbinesim.ShareStatus
	// CanManage: the caller is the author or an administrator (share link,
	// deletion).
	CanManage bool
	// MaxArtifactMiB is the documented upload limit, shown next to the
	// file input and checked by the script before sending.
	MaxArtifactMiB int
	// Turbines, Jobs and Batches are what the study can link, picked by
	// name (Picked: linked now).
	Turbines, Jobs, Batches []PickItem
}

// CompareLinkedRuns is the results workbench's address that opens the
// study's linked runs together (as the jobs list's and the batch page's
// "Compare selected runs" do), or "" when the study links no run.
func (ed StudyEditor) CompareLinkedRuns() string {
	q := url.Values{}
	for _, it := range ed.Jobs {
		if it.Picked {
			q.Add("run", it.ID)
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "/analysis/compare?" + q.Encode()
}

// PickItem is one linkable item of the study editor's lists.
type PickItem struct {
	ID, Label string
	Picked    bool
}

// pickSearch is the lower-case text the editor's filter matches.
func pickSearch(it PickItem) string { return strings.ToLower(it.Label) }

// PublicStudyView is what the reviewer's page shows: allowlisted fields
// only, and the token to build download links.
type PublicStudyView struct {
	Study     turbinesim.PublicStudy
	Artifacts []turbinesim.PublicArtifact
	Token     string
	// Runs are the key results of the linked jobs (empty when the study
	// links none or results are not served).
	Runs []PublicRun
	// Batches are the linked batches' summaries (curves and their table).
	Batches []PublicBatch
}

// PublicBatch is one linked batch on the reviewer's page: its name and
// kind, runs, and the binned curves (power, thrust, pitch, rotor speed by
// wind speed) as a table and charts. No ids.
type PublicBatch struct {
	Label       string
	Name, Kind  string
	Runs        int
	DLCs        []string
	Note        string // why there are no curves
	Bins        []analysis.CurveBin
	HasThrust   bool
	PowerChart  any
	ThrustChart any
	ChartID     string
}

// PublicRun is one linked job on the reviewer's page.
type PublicRun struct {
	Label    string
	File     string
	Note     string // why there are no results
	Channels []PublicChannel
}

// PublicChannel is one key channel of a run: statistics over every sample
// and a decimated chart.
type PublicChannel struct {
	Name, Unit     string
	Min, Mean, Max float64
	ChartID        string
	Option         any
	Points         int
}

// hasCharts reports whether any run has a chart (ECharts is then loaded).
func (v PublicStudyView) hasCharts() bool {
	for _, b := range v.Batches {
		if b.PowerChart != nil {
			return true
		}
	}
	for _, r := range v.Runs {
		if len(r.Channels) > 0 {
			return true
		}
	}
	return false
}

// num prints a statistic with 4 significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// humanSize prints a byte count in binary units.
func humanSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
