package views

import (
	"fmt"
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
}

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
