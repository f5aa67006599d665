package views

import (
	"fmt"
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
}

// PublicStudyView is what the reviewer's page shows: allowlisted fields
// only, and the token to build download links.
type PublicStudyView struct {
	Study     turbinesim.PublicStudy
	Artifacts []turbinesim.PublicArtifact
	Token     string
	// Runs are the key results of the linked jobs (empty when the study
	// links none or results are not served).
	Runs []PublicRun
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

func joinIDs(ids []string) string { return strings.Join(ids, "\n") }

func derefOr(s *string, def string) string {
	if s == nil || *s == "" {
		return def
	}
	return *s
}
