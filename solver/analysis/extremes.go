package analysis

import (
	"errors"
	"fmt"
	"math"
)

// ExtremeRun is one run of a batch offered to the extreme-load table.
type ExtremeRun struct {
	ID     string  // run or file identifier reported with each extreme
	DLC    string  // design load case, e.g. "1.3"; keys SafetyFactors
	Record *Record // the run's channels
	Window Window  // samples considered (skip the start-up transient)
}

// ExtremeOptions select what the table reports.
type ExtremeOptions struct {
	// Channels whose maximum and minimum are sought; empty means every
	// channel of the first run.
	Channels []string
	// Concurrent channels are reported at the instant of each extreme, the
	// "concurrent values" of a certification load table (e.g. all six
	// components of a blade-root load). Empty means the Channels themselves.
	Concurrent []string
	// SafetyFactors are the partial safety factors for loads γ_f per DLC
	// (IEC 61400-1: 1.35 normal, 1.1 abnormal, 1.5 transport/erection;
	// see SafetyFactorForClass). Nil means characteristic loads only
	// (γ_f = 1). When given, every run's DLC must have an entry: a silent
	// default of 1 would understate design loads.
	SafetyFactors map[string]float64
}

// SafetyFactorForClass returns the IEC 61400-1 partial safety factor for
// loads of a DLC class: "N" normal 1.35, "A" abnormal 1.1, "T" transport and
// erection 1.5, "F" fatigue 1.0. (Ed. 4 uses 1.25 for DLC 1.1 with
// extrapolated loads; pass that explicitly.)
func SafetyFactorForClass(class string) (float64, error) {
	switch class {
	case "N":
		return 1.35, nil
	case "A":
		return 1.1, nil
	case "T":
		return 1.5, nil
	case "F":
		return 1.0, nil
	}
	return 0, fmt.Errorf("unknown partial-safety-factor class %q (want N, A, T or F)", class)
}

// ConcurrentValue is one other channel's value at the instant of an extreme.
type ConcurrentValue struct {
	Channel string  `json:"channel"`
	Unit    string  `json:"unit,omitempty"`
	Value   float64 `json:"value"`
}

// Extreme is one row of the extreme-load table.
type Extreme struct {
	Channel        string            `json:"channel"`
	Unit           string            `json:"unit,omitempty"`
	Kind           string            `json:"kind"`           // "max" or "min"
	Characteristic float64           `json:"characteristic"` // as simulated
	SafetyFactor   float64           `json:"safety_factor"`  // γ_f of the governing run's DLC
	Design         float64           `json:"design"`         // γ_f · characteristic
	RunID          string            `json:"run_id"`
	DLC            string            `json:"dlc"`
	Time           float64           `json:"time"` // s
	Concurrent     []ConcurrentValue `json:"concurrent"`
}

// Extremes builds the extreme table: for each channel its maximum and its
// minimum over all runs (each run restricted to its window), with the run,
// DLC and time where it occurs and the concurrent values of the other chosen
// channels at that sample. With safety factors the governing run is the one
// with the largest design value γ_f·max (smallest γ_f·min), which can differ
// from the run with the largest characteristic value when DLCs carry
// different factors. Ties go to the earlier run, then the earlier sample.
func Extremes(runs []ExtremeRun, opt ExtremeOptions) ([]Extreme, error) {
	if len(runs) == 0 {
		return nil, errors.New("extremes: no runs")
	}
	for i, r := range runs {
		if err := r.Record.Validate(); err != nil {
			return nil, fmt.Errorf("extremes: run %d (%q): %w", i, r.ID, err)
		}
	}
	channels := opt.Channels
	if len(channels) == 0 {
		channels = runs[0].Record.Names
	}
	concurrent := opt.Concurrent
	if len(concurrent) == 0 {
		concurrent = channels
	}
	type located struct {
		design, value, gamma float64
		run, row             int
	}
	out := make([]Extreme, 0, 2*len(channels))
	for _, name := range channels {
		var hiBest, loBest *located
		unit := ""
		for ri, r := range runs {
			gamma := 1.0
			if opt.SafetyFactors != nil {
				g, ok := opt.SafetyFactors[r.DLC]
				if !ok {
					return nil, fmt.Errorf("extremes: no safety factor for DLC %q of run %q", r.DLC, r.ID)
				}
				if !(g > 0) || math.IsInf(g, 0) {
					return nil, fmt.Errorf("extremes: safety factor %g for DLC %q must be positive", g, r.DLC)
				}
				gamma = g
			}
			c, err := r.Record.Index(name)
			if err != nil {
				return nil, fmt.Errorf("extremes: run %q: %w", r.ID, err)
			}
			if unit == "" {
				unit = r.Record.Unit(c)
			}
			lo, hi, err := r.Window.Range(r.Record.Time)
			if err != nil {
				return nil, fmt.Errorf("extremes: run %q: %w", r.ID, err)
			}
			y := r.Record.Channels[c]
			iMin, iMax := lo, lo
			for i := lo; i < hi; i++ {
				v := y[i]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("extremes: run %q channel %q: sample at t = %g is not finite", r.ID, name, r.Record.Time[i])
				}
				if v < y[iMin] {
					iMin = i
				}
				if v > y[iMax] {
					iMax = i
				}
			}
			if d := gamma * y[iMax]; hiBest == nil || d > hiBest.design {
				hiBest = &located{design: d, value: y[iMax], gamma: gamma, run: ri, row: iMax}
			}
			if d := gamma * y[iMin]; loBest == nil || d < loBest.design {
				loBest = &located{design: d, value: y[iMin], gamma: gamma, run: ri, row: iMin}
			}
		}
		for _, e := range []struct {
			kind string
			at   *located
		}{{"max", hiBest}, {"min", loBest}} {
			r := runs[e.at.run]
			row := Extreme{
				Channel: name, Unit: unit, Kind: e.kind,
				Characteristic: e.at.value, SafetyFactor: e.at.gamma, Design: e.at.design,
				RunID: r.ID, DLC: r.DLC, Time: r.Record.Time[e.at.row],
				Concurrent: make([]ConcurrentValue, 0, len(concurrent)),
			}
			for _, cn := range concurrent {
				c, err := r.Record.Index(cn)
				if err != nil {
					return nil, fmt.Errorf("extremes: concurrent channel in run %q: %w", r.ID, err)
				}
				row.Concurrent = append(row.Concurrent, ConcurrentValue{Channel: cn, Unit: r.Record.Unit(c), Value: r.Record.Channels[c][e.at.row]})
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// WithResultant returns a copy of rec (sharing the existing columns) with
// an added channel √(Σ cᵢ²) of the named components, e.g. the in-plane
// blade-root bending moment RootMxy1 from RootMxb1 and RootMyb1, whose
// extreme is usually the design driver rather than either component's.
func WithResultant(rec *Record, name, unit string, components ...string) (*Record, error) {
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("resultant %q: %w", name, err)
	}
	if len(components) < 2 {
		return nil, fmt.Errorf("resultant %q: need at least two components", name)
	}
	if _, err := rec.Index(name); err == nil {
		return nil, fmt.Errorf("resultant %q: channel already exists", name)
	}
	cols := make([][]float64, len(components))
	for k, cn := range components {
		c, err := rec.Channel(cn)
		if err != nil {
			return nil, fmt.Errorf("resultant %q: %w", name, err)
		}
		cols[k] = c
	}
	res := make([]float64, len(rec.Time))
	for i := range res {
		s := 0.0
		for _, c := range cols {
			s += c[i] * c[i]
		}
		res[i] = math.Sqrt(s)
	}
	out := &Record{
		Time:     rec.Time,
		Names:    append(append([]string(nil), rec.Names...), name),
		Channels: append(append([][]float64(nil), rec.Channels...), res),
	}
	if len(rec.Units) > 0 {
		out.Units = append(append([]string(nil), rec.Units...), unit)
	}
	return out, nil
}
