package results

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/outputs"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// The analysis window of every answer. A run starts from the deck's
// initial conditions, not from the operating state, so its first seconds
// are a start-up transient (decks.StartupTransient: 30 s, 200 s on a
// floating platform): statistics, DELs,
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
// (startupOf: 30 s, 200 s on a floating platform, a DLC run's own; the
// first half of a shorter run), up to tEnd when given.
func runWindow(out *outputs.JobOutput, tStart, tEnd *float64) analysis.Window {
	time := out.Record.Time
	if tStart != nil || len(time) == 0 {
		return analysis.NewWindow(tStart, tEnd)
	}
	from, _ := startupOf(out).window(time).Bounds()
	return analysis.NewWindow(&from, tEnd)
}

// describeRunWindow states the window of one run's answer, with the
// samples it held (time[lo] to time[hi-1]).
func describeRunWindow(out *outputs.JobOutput, lo, hi int, tStart *float64) AnalysisWindow {
	time := out.Record.Time
	s, e := time[lo], time[hi-1]
	w := AnalysisWindow{TStart: &s, TEnd: &e, Reason: WindowGiven}
	if tStart == nil {
		w.Reason, w.Detail = WindowStartupRemoved, startupOf(out).detail(time)+"; t_start=0 keeps the whole run"
	}
	return w
}

// startup is the start-up transient a run's default window leaves out:
// seconds, and why: a floating platform's from rest, or a DLC run's own
// (dlc "1.2").
type startup struct {
	seconds  float64
	floating bool
	dlc      string
}

// startupOf is out's start-up transient: a DLC run's own, as its batch's
// analyses and report use it (RunSetup.Transient; it may start at the
// platform's equilibrium), else decks.StartupTransient: a floating
// platform released at rest at its undisplaced position drifts and
// oscillates at its surge and pitch periods long after the rotor has
// settled (docs/events.md §6).
func startupOf(out *outputs.JobOutput) startup {
	s := out.Setup
	switch {
	case s == nil:
		return startup{seconds: decks.StartupTransient(false)}
	case s.Transient != nil && *s.Transient >= 0:
		return startup{seconds: *s.Transient, floating: s.Floating, dlc: cmp.Or(s.DLC, "?")}
	}
	return startup{seconds: decks.StartupTransient(s.Floating), floating: s.Floating}
}

// kind names the runs whose transient s is, for the detail of a batch
// whose runs differ.
func (s startup) kind() string {
	switch {
	case s.dlc != "":
		return "of DLC " + s.dlc
	case s.floating:
		return "on a floating platform"
	}
	return "on land or a fixed foundation"
}

// halved reports whether a run with times time is too short for its
// transient and keeps its second half instead (StartupWindowOf). A DLC
// run lasts its transient and its window, so it keeps its window
// whatever their ratio, as its batch's analyses do.
func (s startup) halved(time []float64) bool {
	span := time[len(time)-1] - time[0]
	if s.dlc != "" {
		return s.seconds >= span
	}
	return span < 2*s.seconds
}

// window is the window of a run with times time after its start-up
// transient.
func (s startup) window(time []float64) analysis.Window {
	if len(time) > 0 && !s.halved(time) {
		return analysis.After(time[0] + s.seconds)
	}
	return analysis.StartupWindowOf(time, s.seconds)
}

// detail says how much of a run with times time its window leaves out:
// "the first 200 s: the start-up transient of a floating platform".
func (s startup) detail(time []float64) string {
	if len(time) == 0 {
		return ""
	}
	d := fmt.Sprintf("the first %g s", s.seconds)
	switch {
	case s.halved(time) && s.dlc != "":
		d = fmt.Sprintf("the first half of a run not longer than its %g-s transient", s.seconds)
	case s.halved(time):
		d = fmt.Sprintf("the first half of a run shorter than %g s", 2*s.seconds)
	}
	switch {
	case s.dlc != "":
		d += ": the start-up transient of its DLC (" + s.dlc + ")"
	case s.floating:
		d += ": the start-up transient of a floating platform"
	}
	return d
}

// describeBatchWindows states the windows of a batch answer's runs: one
// start when they share it, else per DLC when each DLC's runs share one,
// else the range of starts.
func describeBatchWindows(q analysis.Window, windows []analysis.Window, names []string, runs []*outputs.JobOutput, dlcTransients bool) AnalysisWindow {
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
	case len(runs) > 0:
		w.Detail = startupsDetail(runs)
	}
	records := make([]*analysis.Record, len(runs))
	for i, r := range runs {
		records[i] = r.Record
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

// startupsDetail says how much of each run of a batch its default window
// leaves out: one run's detail when every run's is the same, else each
// kind of platform's transient, with the first half of the shorter runs.
func startupsDetail(runs []*outputs.JobOutput) string {
	first := startupOf(runs[0]).detail(runs[0].Record.Time)
	same, short := true, false
	var kinds []startup
	for _, r := range runs {
		s := startupOf(r)
		if !slices.Contains(kinds, s) {
			kinds = append(kinds, s)
		}
		time := r.Record.Time
		if len(time) > 0 && s.halved(time) {
			short = true
		}
		same = same && s.detail(time) == first
	}
	if same {
		return first + "; t_start=0 keeps the whole runs"
	}
	slices.SortFunc(kinds, func(a, b startup) int {
		return cmp.Or(cmp.Compare(a.seconds, b.seconds), strings.Compare(a.dlc, b.dlc))
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("the first %g s of each run %s", k.seconds, k.kind())
	}
	d := strings.Join(parts, ", ")
	if short {
		d += ", the first half of a shorter run"
	}
	return d + " (its start-up transient); t_start=0 keeps the whole runs"
}
