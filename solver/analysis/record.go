package analysis

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Record is one run's output in columnar form, as read from an OpenFAST
// .outb/.out file: a time vector and one slice of samples per channel.
// Channels[c][i] is channel c at Time[i]. The time channel itself is not
// repeated in Channels.
type Record struct {
	Time     []float64   // s, strictly increasing
	Names    []string    // channel names, e.g. "GenPwr"
	Units    []string    // optional; when given, one per channel, e.g. "(kW)"
	Channels [][]float64 // one column per name, each as long as Time
}

// Validate checks the shape of the record and that time is finite and
// strictly increasing. Channel samples are checked by the functions that use
// them (a NaN in a channel nobody asks for is not an error).
func (r *Record) Validate() error {
	if r == nil {
		return errors.New("record is nil")
	}
	if len(r.Time) == 0 {
		return errors.New("record has no time samples")
	}
	if len(r.Names) != len(r.Channels) {
		return fmt.Errorf("record has %d channel names but %d channel columns", len(r.Names), len(r.Channels))
	}
	if len(r.Units) != 0 && len(r.Units) != len(r.Names) {
		return fmt.Errorf("record has %d units for %d channels", len(r.Units), len(r.Names))
	}
	for c, col := range r.Channels {
		if len(col) != len(r.Time) {
			return fmt.Errorf("channel %q has %d samples, time has %d", r.Names[c], len(col), len(r.Time))
		}
	}
	if err := checkTime(r.Time); err != nil {
		return err
	}
	return nil
}

// checkTime reports the first non-finite or non-increasing time sample.
func checkTime(time []float64) error {
	for i, t := range time {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("time sample %d is not finite (%v)", i, t)
		}
		if i > 0 && t <= time[i-1] {
			return fmt.Errorf("time is not strictly increasing at sample %d (%v after %v)", i, t, time[i-1])
		}
	}
	return nil
}

// Index returns the column of the named channel.
func (r *Record) Index(name string) (int, error) {
	for i, n := range r.Names {
		if n == name {
			return i, nil
		}
	}
	return -1, fmt.Errorf("channel %q not in record", name)
}

// Channel returns the samples of the named channel.
func (r *Record) Channel(name string) ([]float64, error) {
	i, err := r.Index(name)
	if err != nil {
		return nil, err
	}
	return r.Channels[i], nil
}

// Unit returns the unit of column c, or "" when the record carries none.
func (r *Record) Unit(c int) string {
	if c < len(r.Units) {
		return r.Units[c]
	}
	return ""
}

// Window selects the samples with Start ≤ t ≤ End. The zero value selects the
// whole record. Use it to skip the start-up transient (After(30) for the
// NREL 5 MW reference runs, After(60) for the IEA 15 MW ones).
type Window struct {
	start, end       float64
	hasStart, hasEnd bool
}

// DefaultTransient is the start-up transient (s) left out of a run's
// analysis when nothing says otherwise: a run starts from the deck's
// initial conditions (rotor speed, pitch, no generator torque before
// ServoDyn's TimGenOn) rather than from the operating state, and the
// response settles within about 30 s (the NREL 5 MW reference runs;
// OpenFAST's regression tests and WEIS discard 30-120 s, more for floating
// platforms).
const DefaultTransient = 30.0

// StartupWindow is the window of a record with times time that leaves out
// the start-up transient: the first DefaultTransient seconds, or the first
// half of a record shorter than twice that, so that a short run keeps a
// window.
func StartupWindow(time []float64) Window { return StartupWindowOf(time, DefaultTransient) }

// StartupWindowOf is StartupWindow for a run whose start-up transient
// lasts transient seconds (a floating platform settles far more slowly
// than a rotor): the record after its first transient seconds, or its
// second half when it is shorter than twice that.
func StartupWindowOf(time []float64, transient float64) Window {
	if len(time) == 0 {
		return Window{}
	}
	span := time[len(time)-1] - time[0]
	return After(time[0] + math.Min(transient, span/2))
}

// WholeRecord selects every sample (same as the zero Window).
func WholeRecord() Window { return Window{} }

// After selects samples with t ≥ start.
func After(start float64) Window { return Window{start: start, hasStart: true} }

// Between selects samples with start ≤ t ≤ end.
func Between(start, end float64) Window {
	return Window{start: start, end: end, hasStart: true, hasEnd: true}
}

// NewWindow builds a window from optional bounds (nil = unbounded), the shape
// a JSON request body decodes into.
func NewWindow(start, end *float64) Window {
	var w Window
	if start != nil {
		w.start, w.hasStart = *start, true
	}
	if end != nil {
		w.end, w.hasEnd = *end, true
	}
	return w
}

// Bounds returns the window's limits, ±Inf when unbounded.
func (w Window) Bounds() (start, end float64) {
	start, end = math.Inf(-1), math.Inf(1)
	if w.hasStart {
		start = w.start
	}
	if w.hasEnd {
		end = w.end
	}
	return start, end
}

// String describes the window for error messages.
func (w Window) String() string {
	s, e := w.Bounds()
	return fmt.Sprintf("[%g, %g] s", s, e)
}

// timeTolerance absorbs the rounding of reconstructed output times
// (t = t0 + i·dt in .outb files), so After(30) keeps a sample stored as
// 29.999999999996 s.
func timeTolerance(t float64) float64 { return 1e-9 * math.Max(1, math.Abs(t)) }

// Range returns the half-open index range [lo, hi) of time inside the window.
// time must be increasing (Record.Validate checks it). A window that holds no
// sample is an error.
func (w Window) Range(time []float64) (lo, hi int, err error) {
	if len(time) == 0 {
		return 0, 0, errors.New("no time samples")
	}
	s, e := w.Bounds()
	if s > e {
		return 0, 0, fmt.Errorf("window %v: start is after end", w)
	}
	if math.IsNaN(s) || math.IsNaN(e) {
		return 0, 0, fmt.Errorf("window %v: bound is NaN", w)
	}
	lo = 0
	if w.hasStart {
		limit := s - timeTolerance(s)
		lo = sort.Search(len(time), func(i int) bool { return time[i] >= limit })
	}
	hi = len(time)
	if w.hasEnd {
		limit := e + timeTolerance(e)
		hi = sort.Search(len(time), func(i int) bool { return time[i] > limit })
	}
	if hi <= lo {
		return 0, 0, fmt.Errorf("window %v holds no samples (record spans %g to %g s)", w, time[0], time[len(time)-1])
	}
	return lo, hi, nil
}
