package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// BatchRunRow is one run of a batch on its page.
type BatchRunRow struct {
	Run, JobID, Status, Detail string
	Percent                    float64
	// Flagged says the run failed a plausibility check (Reasons: the
	// failed checks' messages).
	Flagged bool
	Reasons string
}

// checkWarnings are the checks of severity warning (INVALID channels).
func checkWarnings(checks []turbinesim.RunCheck) []turbinesim.RunCheck {
	var out []turbinesim.RunCheck
	for _, c := range checks {
		if c.Severity == turbinesim.CheckWarning {
			out = append(out, c)
		}
	}
	return out
}

func batchCents(c int64) string { return fmt.Sprintf("$%d.%02d", c/100, c%100) }

func batchStatusClass(s string) string {
	base := "rounded px-2 py-0.5 text-xs font-medium "
	switch s {
	case "succeeded":
		return base + "bg-emerald-100 text-emerald-800"
	case "failed":
		return base + "bg-red-100 text-red-800"
	case "running", "cancelling":
		return base + "bg-sky-100 text-sky-800"
	case "cancelled":
		return base + "bg-slate-200 text-slate-700"
	}
	return base + "bg-amber-100 text-amber-800"
}

func batchETA(p turbinesim.BatchProgress) string {
	if p.ETASeconds == nil {
		return "–"
	}
	s := int(*p.ETASeconds + 0.5)
	if s >= 3600 {
		return fmt.Sprintf("%d h %02d min", s/3600, s%3600/60)
	}
	return fmt.Sprintf("%d min %02d s", s/60, s%60)
}

func joinFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 4, 64)
	}
	return strings.Join(parts, ", ")
}

func dlcDefaultChecked(d dlc.DLC) bool { return d.ID == "1.2" }

func percentWidth(p float64) string { return fmt.Sprintf("width: %.1f%%", p) }
