package analysis

import (
	"errors"
	"fmt"
	"math"
)

// FatigueInput is one run of a fatigue batch (e.g. DLC 1.2: wind speeds ×
// seeds × yaw cases).
type FatigueInput struct {
	ID string
	// WindSpeed is the run's bin speed: the nominal grid speed of the
	// inflow, or the run's mean hub-height speed. Runs with the same speed
	// (within 1e-6) share their bin's probability equally.
	WindSpeed float64
	Record    *Record
	Window    Window // analysis window, after the transient
}

// RunDELs are one run's short-term DELs of one channel.
type RunDELs struct {
	ID        string  `json:"id"`
	WindSpeed float64 `json:"wind_speed"`
	Duration  float64 `json:"duration"` // s
	DELs      []DEL   `json:"dels"`     // one per exponent
}

// ChannelFatigue is the fatigue summary of one channel over a batch.
type ChannelFatigue struct {
	Channel string `json:"channel"`
	Unit    string `json:"unit,omitempty"`
	// Goodman says whether the Goodman mean-load correction was applied
	// to this channel's cycles, against UltimateLoad S_u.
	Goodman      bool          `json:"goodman"`
	UltimateLoad float64       `json:"ultimate_load,omitempty"`
	Runs         []RunDELs     `json:"runs"`
	Lifetime     []LifetimeDEL `json:"lifetime"` // one per exponent
	// EventRuns are the runs of the transient-event cases
	// (LifetimeFatigue), each DEL with the damage sum of its one event.
	EventRuns []RunDELs `json:"event_runs,omitempty"`
}

// BatchDEL computes, for each named channel, the short-term DEL of every run
// for every Wöhler exponent and their damage-consistent lifetime aggregate
// (AggregateDEL) for the wind distribution. It needs the f_eq convention
// (opt.EquivalentCycles must be 0): with f_eq fixed, DELⱼᵐ is run j's damage
// rate, so the runs may have different durations.
func BatchDEL(runs []FatigueInput, channels []string, opt DELOptions, dist WindDistribution) ([]ChannelFatigue, error) {
	if len(runs) == 0 {
		return nil, errors.New("batch DEL: no runs")
	}
	if len(channels) == 0 {
		return nil, errors.New("batch DEL: no channels")
	}
	if opt.EquivalentCycles > 0 {
		return nil, errors.New("batch DEL: use an equivalent frequency, not a fixed number of equivalent cycles, so runs of different lengths combine by damage rate")
	}
	out := make([]ChannelFatigue, len(channels))
	for ci, name := range channels {
		su := opt.ultimateFor(name)
		cf := ChannelFatigue{Channel: name, Runs: make([]RunDELs, len(runs)), Goodman: su > 0, UltimateLoad: max(su, 0)}
		for ri, r := range runs {
			if err := r.Record.Validate(); err != nil {
				return nil, fmt.Errorf("batch DEL: run %q: %w", r.ID, err)
			}
			c, err := r.Record.Index(name)
			if err != nil {
				return nil, fmt.Errorf("batch DEL: run %q: %w", r.ID, err)
			}
			if cf.Unit == "" {
				cf.Unit = r.Record.Unit(c)
			}
			lo, hi, err := r.Window.Range(r.Record.Time)
			if err != nil {
				return nil, fmt.Errorf("batch DEL: run %q: %w", r.ID, err)
			}
			dels, err := ChannelDEL(r.Record, name, r.Window, opt)
			if err != nil {
				var ge *GoodmanError
				if errors.As(err, &ge) {
					ge.Run = r.ID
				}
				return nil, fmt.Errorf("batch DEL: run %q: %w", r.ID, err)
			}
			cf.Runs[ri] = RunDELs{ID: r.ID, WindSpeed: r.WindSpeed, Duration: r.Record.Time[hi-1] - r.Record.Time[lo], DELs: dels}
		}
		for k, m := range opt.Exponents {
			fr := make([]FatigueRun, len(runs))
			for ri, rd := range cf.Runs {
				fr[ri] = FatigueRun{ID: rd.ID, WindSpeed: rd.WindSpeed, DEL: rd.DELs[k].Value}
			}
			agg, err := AggregateDEL(fr, m, dist)
			if err != nil {
				return nil, fmt.Errorf("batch DEL: channel %q: %w", name, err)
			}
			cf.Lifetime = append(cf.Lifetime, agg)
		}
		out[ci] = cf
	}
	return out, nil
}

// Markov is a rainflow matrix: Counts[i][j] cycles (half cycles as 0.5) with
// range in [RangeEdges[i], RangeEdges[i+1]) and mean in [MeanEdges[j],
// MeanEdges[j+1]); the last bin of each axis includes its upper edge. It is
// the "Markov matrix" of a certification fatigue-load report.
type Markov struct {
	RangeEdges []float64   `json:"range_edges"`
	MeanEdges  []float64   `json:"mean_edges"`
	Counts     [][]float64 `json:"counts"`
}

// Total is Σ Counts, the number of cycles in the matrix.
func (mk Markov) Total() float64 {
	sum := 0.0
	for _, row := range mk.Counts {
		for _, c := range row {
			sum += c
		}
	}
	return sum
}

// WeightedCycles are the cycles of one record and the factor each of its
// counts is multiplied by in a combined matrix (1 for a single record; a
// run's lifetime scale in a batch, BatchMarkov).
type WeightedCycles struct {
	Cycles []Cycle
	Weight float64
}

// MarkovMatrix bins cycles into rangeBins equal range bins from 0 to the
// largest range and meanBins equal mean bins from the smallest to the
// largest mean.
func MarkovMatrix(cycles []Cycle, rangeBins, meanBins int) (Markov, error) {
	return WeightedMarkovMatrix([]WeightedCycles{{Cycles: cycles, Weight: 1}}, rangeBins, meanBins)
}

// WeightedMarkovMatrix bins the cycles of several records into one matrix
// on common edges: rangeBins equal bins from 0 to the largest range of any
// record, meanBins equal bins from the smallest to the largest mean; each
// cycle adds Count × its record's Weight.
func WeightedMarkovMatrix(sets []WeightedCycles, rangeBins, meanBins int) (Markov, error) {
	if rangeBins < 1 || meanBins < 1 {
		return Markov{}, fmt.Errorf("markov matrix: bin counts %d × %d must be at least 1", rangeBins, meanBins)
	}
	rMax := 0.0
	mLo, mHi := math.Inf(1), math.Inf(-1)
	n := 0
	for k, set := range sets {
		if !(set.Weight >= 0) || math.IsInf(set.Weight, 0) {
			return Markov{}, fmt.Errorf("markov matrix: record %d has weight %v", k, set.Weight)
		}
		for _, c := range set.Cycles {
			rMax = math.Max(rMax, c.Range)
			mLo, mHi = math.Min(mLo, c.Mean), math.Max(mHi, c.Mean)
			n++
		}
	}
	if n == 0 {
		return Markov{}, errors.New("markov matrix: no cycles (the signal is constant over the window)")
	}
	if rMax == 0 {
		rMax = 1 // all ranges zero: one meaningful bin [0, 1)
	}
	if mHi == mLo {
		mLo, mHi = mLo-0.5, mHi+0.5
	}
	mk := Markov{RangeEdges: linspace(0, rMax, rangeBins+1), MeanEdges: linspace(mLo, mHi, meanBins+1), Counts: make([][]float64, rangeBins)}
	for i := range mk.Counts {
		mk.Counts[i] = make([]float64, meanBins)
	}
	for _, set := range sets {
		for _, c := range set.Cycles {
			i := binIndex(c.Range, 0, rMax, rangeBins)
			j := binIndex(c.Mean, mLo, mHi, meanBins)
			mk.Counts[i][j] += c.Count * set.Weight
		}
	}
	return mk, nil
}

func linspace(a, b float64, n int) []float64 {
	e := make([]float64, n)
	for i := range e {
		e[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	e[n-1] = b
	return e
}

func binIndex(v, lo, hi float64, n int) int {
	i := int(math.Floor((v - lo) / (hi - lo) * float64(n)))
	if i >= n {
		i = n - 1
	}
	if i < 0 {
		i = 0
	}
	return i
}

// EventCase is a transient-event fatigue case, start-up (IEC 61400-1 DLC
// 3.1) or normal shut-down (DLC 4.1): its damage adds per event, with the
// number of events per year, not by the time share of its runs (transient
// events add as counts per lifetime, as pCrunch's n_fault·Σ D_fault).
type EventCase struct {
	DLC           string
	EventsPerYear float64
	// Runs are the event's simulations (wind speeds × seeds). One run is
	// one event: its damage is that of its whole analysis window.
	Runs []FatigueInput
}

// EventDamage is one event case's share of a lifetime DEL of one exponent.
type EventDamage struct {
	DLC           string  `json:"dlc"`
	EventsPerYear float64 `json:"events_per_year"`
	Runs          int     `json:"runs"`
	// DamagePerEvent is the mean Σ nᵢ·Sᵢᵐ of one event: the mean over the
	// case's wind speeds of the mean over each speed's seeds.
	DamagePerEvent float64 `json:"damage_per_event"`
	// Term is the event's addition to DELᵐ: EventsPerYear·DamagePerEvent /
	// (f_eq·SecondsPerYear), its damage per second of the lifetime in the
	// units of a DEL at f_eq.
	Term float64 `json:"del_m_term"`
}

// meanEventDamage averages the damage sums of one event case's runs: the
// seeds (and yaw cases) of one wind speed equally, then the speeds equally.
// Event counts come without a wind-speed weighting; a count per
// year for the DLC is spread evenly over the speeds it was simulated at,
// as the speeds of a start-up or shut-down case (cut-in, rated, cut-out)
// are where it happens, not bins of the wind distribution.
func meanEventDamage(speeds, damage []float64) float64 {
	grid := distinctSpeeds(speeds)
	sum := make([]float64, len(grid))
	n := make([]int, len(grid))
	for i, v := range speeds {
		k := nearestIndex(grid, v)
		sum[k] += damage[i]
		n[k]++
	}
	mean := 0.0
	for k := range grid {
		mean += sum[k] / float64(n[k])
	}
	return mean / float64(len(grid))
}

// eventRunDELs computes each event run's DELs (with their damage sums) of
// one channel; the run's DEL is the short-term one of its window, shown
// for reference only: an event's damage does not scale with its duration.
func eventRunDELs(ec EventCase, name string, opt DELOptions) ([]RunDELs, error) {
	out := make([]RunDELs, len(ec.Runs))
	for ri, r := range ec.Runs {
		if err := r.Record.Validate(); err != nil {
			return nil, fmt.Errorf("DLC %s run %q: %w", ec.DLC, r.ID, err)
		}
		lo, hi, err := r.Window.Range(r.Record.Time)
		if err != nil {
			return nil, fmt.Errorf("DLC %s run %q: %w", ec.DLC, r.ID, err)
		}
		dels, err := ChannelDEL(r.Record, name, r.Window, opt)
		if err != nil {
			var ge *GoodmanError
			if errors.As(err, &ge) {
				ge.Run = r.ID
			}
			return nil, fmt.Errorf("DLC %s run %q: %w", ec.DLC, r.ID, err)
		}
		out[ri] = RunDELs{ID: r.ID, WindSpeed: r.WindSpeed, Duration: r.Record.Time[hi-1] - r.Record.Time[lo], DELs: dels}
	}
	return out, nil
}

// LifetimeFatigue is BatchDEL with transient events: the time-weighted
// runs (normal production, weighted by the wind distribution; may be
// empty when events are given) and the event cases combine by damage into
// one lifetime DEL per channel and exponent. Over a lifetime T_L at f_eq,
//
//	DELᵐ = [ T_L·f_eq·Σⱼ pⱼ·DELⱼᵐ + Σ_d n_d·(T_L/year)·D̄_d ] / (f_eq·T_L)
//	     = Σⱼ pⱼ·DELⱼᵐ + Σ_d n_d·D̄_d / (f_eq·SecondsPerYear)
//
// with n_d the events per year and D̄_d the mean Σ nᵢ·Sᵢᵐ of one event
// (meanEventDamage): the lifetime length cancels. The production term is
// kept in LifetimeDEL.TimeWeightedDEL, each event's in Events.
func LifetimeFatigue(runs []FatigueInput, events []EventCase, channels []string, opt DELOptions, dist WindDistribution) ([]ChannelFatigue, error) {
	if len(events) == 0 {
		return BatchDEL(runs, channels, opt, dist)
	}
	if len(channels) == 0 {
		return nil, errors.New("lifetime fatigue: no channels")
	}
	if len(opt.Exponents) == 0 {
		return nil, errors.New("lifetime fatigue: no Wöhler exponents given")
	}
	if opt.EquivalentCycles > 0 {
		return nil, errors.New("lifetime fatigue: use an equivalent frequency, not a fixed number of equivalent cycles, so events and time-weighted runs combine by damage rate")
	}
	feq := opt.EquivalentFrequency
	if feq == 0 {
		feq = 1
	}
	if !(feq > 0) || math.IsInf(feq, 0) {
		return nil, fmt.Errorf("lifetime fatigue: equivalent frequency %g must be positive", feq)
	}
	for _, ec := range events {
		if !(ec.EventsPerYear >= 0) || math.IsInf(ec.EventsPerYear, 0) {
			return nil, fmt.Errorf("lifetime fatigue: DLC %s: events per year %v must be a finite number ≥ 0", ec.DLC, ec.EventsPerYear)
		}
		if len(ec.Runs) == 0 {
			return nil, fmt.Errorf("lifetime fatigue: DLC %s has no runs", ec.DLC)
		}
	}
	var out []ChannelFatigue
	if len(runs) > 0 {
		var err error
		if out, err = BatchDEL(runs, channels, opt, dist); err != nil {
			return nil, err
		}
	} else {
		out = make([]ChannelFatigue, len(channels))
		for ci, name := range channels {
			su := opt.ultimateFor(name)
			out[ci] = ChannelFatigue{Channel: name, Runs: []RunDELs{}, Goodman: su > 0, UltimateLoad: max(su, 0), Lifetime: make([]LifetimeDEL, len(opt.Exponents))}
			for k, m := range opt.Exponents {
				out[ci].Lifetime[k] = LifetimeDEL{Exponent: m}
			}
		}
	}
	for ci := range out {
		cf := &out[ci]
		for k := range cf.Lifetime {
			cf.Lifetime[k].TimeWeightedDEL = cf.Lifetime[k].DEL
		}
		for _, ec := range events {
			rd, err := eventRunDELs(ec, cf.Channel, opt)
			if err != nil {
				return nil, fmt.Errorf("lifetime fatigue: channel %q: %w", cf.Channel, err)
			}
			if cf.Unit == "" {
				if c, err := ec.Runs[0].Record.Index(cf.Channel); err == nil {
					cf.Unit = ec.Runs[0].Record.Unit(c)
				}
			}
			cf.EventRuns = append(cf.EventRuns, rd...)
			speeds := make([]float64, len(rd))
			for i, r := range rd {
				speeds[i] = r.WindSpeed
			}
			for k := range cf.Lifetime {
				damage := make([]float64, len(rd))
				for i, r := range rd {
					damage[i] = r.DELs[k].DamageSum
				}
				d := meanEventDamage(speeds, damage)
				cf.Lifetime[k].Events = append(cf.Lifetime[k].Events, EventDamage{DLC: ec.DLC, EventsPerYear: ec.EventsPerYear, Runs: len(rd),
					DamagePerEvent: d, Term: ec.EventsPerYear * d / (feq * SecondsPerYear)})
			}
		}
		for k := range cf.Lifetime {
			l := &cf.Lifetime[k]
			acc := math.Pow(l.TimeWeightedDEL, l.Exponent)
			for _, e := range l.Events {
				acc += e.Term
			}
			l.DEL = math.Pow(acc, 1/l.Exponent)
		}
	}
	return out, nil
}
