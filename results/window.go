package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/turbinesim/turbinesim/solver/analysis"
)

// The analysis window of every answer. A run starts from the deck's
// initial conditions, not from the operating state, so its first seconds
// are a start-up transient (analysis.DefaultTransient): statistics, DELs,
// extremes, spectra and curves leave it out unless the caller gives
// t_start (t_start=0 keeps the whole run). Each answer says which window
// it used in its AnalysisWindow.

// Reasons of an AnalysisWindow.
const (
	// WindowStartupRemoved: no t_start was given and the start-up
	// transient was left out.
	WindowStartupRemoved = "start-up transient removed"
	// WindowGiven: the caller's t_start (and t_end) chose the window.
	WindowGiven = "window given (t_start, t_end)"
)

// AnalysisWindow is the part of each run an answer used: from TStart to
// TEnd (s). A batch whose runs start their windows at different times
// (DLCs with different transients) has TStart nil and TStartByDLC or
// TStartMin/TStartMax; TEnd nil means each run to its end. Reason is
// WindowStartupRemoved or WindowGiven; Detail says how the start was
// chosen.
type AnalysisWindow struct {
	TStart      *float64           `json:"t_start"`
	TEnd        *float64           `json:"t_end"`
	TStartByDLC map[string]float64 `json:"t_start_by_dlc,omitempty"`
	TStartMin   *float64           `json:"t_start_min,omitempty"`
	TStartMax   *float64           `json:"t_start_max,omitempty"`
	Reason      string             `json:"reason"`
	Detail      string             `json:"detail"`
}

// Default reports whether the window is the default one (no t_start).
func (w AnalysisWindow) Default() bool { return w.Reason == WindowStartupRemoved }

// String is the window in words, for pages and the report: "t = 30–600 s
// (start-up transient removed: the first 30 s of each run)".
func (w AnalysisWindow) String() string {
	span := ""
	switch {
	case w.TStart != nil && w.TEnd != nil:
		span = fmt.Sprintf("t = %s–%s s", fmtSeconds(*w.TStart), fmtSeconds(*w.TEnd))
	case w.TStart != nil:
		span = fmt.Sprintf("t ≥ %s s", fmtSeconds(*w.TStart))
	case len(w.TStartByDLC) > 0:
		span = "t ≥"
		for i, id := range slices.Sorted(maps.Keys(w.TStartByDLC)) {
			if i > 0 {
				span += ","
			}
			span += fmt.Sprintf(" %s s (DLC %s)", fmtSeconds(w.TStartByDLC[id]), id)
		}
	case w.TStartMin != nil && w.TStartMax != nil:
		span = fmt.Sprintf("t ≥ %s–%s s", fmtSeconds(*w.TStartMin), fmtSeconds(*w.TStartMax))
	}
	if w.TStart == nil && w.TEnd != nil {
		span += fmt.Sprintf(", to %s s", fmtSeconds(*w.TEnd))
	}
	if w.Detail == "" {
		return span + " (" + w.Reason + ")"
	}
	return span + " (" + w.Reason + ": " + w.Detail + ")"
}

func fmtSeconds(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// runWindow is the window of one run's answer: t_start and t_end when the
// caller gave t_start, else the run after its start-up transient
// (analysis.StartupWindow), up to tEnd when given.
func runWindow(time []float64, tStart, tEnd *float64) analysis.Window {
	if tStart != nil || len(time) == 0 {
		return analysis.NewWindow(tStart, tEnd)
	}
	from, _ := analysis.StartupWindow(time).Bounds()
	return analysis.NewWindow(&from, tEnd)
}

// describeRunWindow states the window of one run's answer, with the
// samples it held (time[lo] to time[hi-1]).
func describeRunWindow(time []float64, lo, hi int, tStart *float64) AnalysisWindow {
	s, e := time[lo], time[hi-1]
	w := AnalysisWindow{TStart: &s, TEnd: &e, Reason: WindowGiven}
	if tStart == nil {
		w.Reason, w.Detail = WindowStartupRemoved, startupDetail(time)
	}
	return w
}

// startupDetail says how much of a run StartupWindow leaves out.
func startupDetail(time []float64) string {
	if len(time) == 0 {
		return ""
	}
	if span := time[len(time)-1] - time[0]; span < 2*analysis.DefaultTransient {
		return fmt.Sprintf("the first half of a run shorter than %g s; t_start=0 keeps the whole run", 2*analysis.DefaultTransient)
	}
	return fmt.Sprintf("the first %g s; t_start=0 keeps the whole run", analysis.DefaultTransient)
}

// describeBatchWindows states the windows of a batch answer's runs: one
// start when they share it, else per DLC when each DLC's runs share one,
// else the range of starts.
func describeBatchWindows(q analysis.Window, windows []analysis.Window, names []string, records []*analysis.Record, dlcTransients bool) AnalysisWindow {
	qs, qe := q.Bounds()
	var w AnalysisWindow
	if !math.IsInf(qe, 1) {
		w.TEnd = &qe
	}
	if !math.IsInf(qs, -1) {
		w.TStart, w.Reason = &qs, WindowGiven
		return w
	}
	w.Reason = WindowStartupRemoved
	switch {
	case dlcTransients:
		w.Detail = "each run after its DLC's start-up transient (the batch's DLC table); t_start=0 keeps the whole runs"
	case len(records) > 0:
		w.Detail = startupDetail(records[0].Time)
		for _, r := range records[1:] {
			if d := startupDetail(r.Time); d != w.Detail {
				w.Detail = fmt.Sprintf("the first %g s of each run, the first half of runs shorter than %g s; t_start=0 keeps the whole runs",
					analysis.DefaultTransient, 2*analysis.DefaultTransient)
				break
			}
		}
	}
	starts := map[float64]bool{}
	byDLC := map[string]float64{}
	perDLC := true
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, rw := range windows {
		s, _ := rw.Bounds()
		if math.IsInf(s, -1) {
			s = 0
			if i < len(records) && len(records[i].Time) > 0 {
				s = records[i].Time[0]
			}
		}
		starts[s] = true
		lo, hi = math.Min(lo, s), math.Max(hi, s)
		id := DLCOfRunName(names[i])
		if prev, ok := byDLC[id]; id == "" || (ok && prev != s) {
			perDLC = false
		}
		byDLC[id] = s
	}
	switch {
	case len(starts) == 1:
		w.TStart = &lo
	case perDLC:
		w.TStartByDLC = byDLC
	case len(starts) > 1:
		w.TStartMin, w.TStartMax = &lo, &hi
	}
	return w
}
