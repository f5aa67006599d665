package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Load spectra of a certification fatigue report: rainflow Markov matrices
// per run and over a batch, and for the drivetrain the load-duration
// distribution (LDD: time spent at each load level) and load-revolution
// distribution (LRD: shaft revolutions at each load level), the inputs of
// gear and bearing life calculations (ISO 6336-6 / ISO 281 use the time or
// revolutions per load level).

// SecondsPerYear is 365 days of 24 h (8760 h, the year of the AEP).
const SecondsPerYear = 8760 * 3600.0

// LevelEdges are n+1 equal-width bin edges from lo to hi; a zero span
// (constant load) becomes one unit wide around the value so every sample
// falls in a bin.
func LevelEdges(lo, hi float64, n int) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("level bins: %d must be at least 1", n)
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi < lo {
		return nil, fmt.Errorf("level bins: span [%v, %v] is not a finite interval", lo, hi)
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	return linspace(lo, hi, n+1), nil
}

// LevelDistribution is a load-duration distribution and, when a rotor
// speed is known, the load-revolution distribution on the same level bins:
// Duration[i] and Revolutions[i] are spent with the load in [Edges[i],
// Edges[i+1]) (the last bin includes its upper edge).
type LevelDistribution struct {
	Edges       []float64 `json:"edges"`
	Duration    []float64 `json:"duration"`
	Revolutions []float64 `json:"revolutions,omitempty"`
}

// LoadDuration distributes the time, and with speedRPM the shaft
// revolutions, of a sampled load over the level bins given by equal-width
// edges. The load is taken as piecewise linear between samples (what a
// plot of the record shows): each interval [tₖ, tₖ₊₁] spends in a bin the
// share of its duration during which the straight line from yₖ to yₖ₊₁ is
// in that bin, so a ramp from a to b spends (bin width)/(b − a) of its
// time in each bin it crosses, exactly. The interval's revolutions are
// ∫|Ω|dt/60 by the trapezoid rule (Ω in rpm; the shaft's turns regardless
// of direction, which is what wears a bearing or a gear), shared over the
// bins in the same proportion as the time. Loads outside the edges are
// clamped to them (callers pass edges spanning the record, LevelEdges).
func LoadDuration(time, load, speedRPM, edges []float64) (LevelDistribution, error) {
	n := len(edges) - 1
	if n < 1 {
		return LevelDistribution{}, errors.New("load duration: fewer than two bin edges")
	}
	if len(load) != len(time) || (speedRPM != nil && len(speedRPM) != len(time)) {
		return LevelDistribution{}, fmt.Errorf("load duration: %d times, %d loads, %d speeds", len(time), len(load), len(speedRPM))
	}
	if len(time) < 2 {
		return LevelDistribution{}, errors.New("load duration: fewer than two samples")
	}
	for _, col := range [][]float64{time, load, speedRPM} {
		if i := firstNonFinite(col); i >= 0 {
			return LevelDistribution{}, fmt.Errorf("load duration: sample %d is not finite (%v)", i, col[i])
		}
	}
	lo, hi := edges[0], edges[n]
	if !(hi > lo) {
		return LevelDistribution{}, fmt.Errorf("load duration: edges [%g, %g] do not increase", lo, hi)
	}
	width := (hi - lo) / float64(n)
	ld := LevelDistribution{Edges: edges, Duration: make([]float64, n)}
	if speedRPM != nil {
		ld.Revolutions = make([]float64, n)
	}
	add := func(bin int, share, dt, rev float64) {
		ld.Duration[bin] += share * dt
		if speedRPM != nil {
			ld.Revolutions[bin] += share * rev
		}
	}
	for k := 0; k+1 < len(time); k++ {
		dt := time[k+1] - time[k]
		if !(dt > 0) {
			return LevelDistribution{}, fmt.Errorf("load duration: time does not increase at sample %d (%g → %g)", k, time[k], time[k+1])
		}
		rev := 0.0
		if speedRPM != nil {
			rev = 0.5 * (math.Abs(speedRPM[k]) + math.Abs(speedRPM[k+1])) / 60 * dt
		}
		a := math.Min(math.Max(load[k], lo), hi)
		b := math.Min(math.Max(load[k+1], lo), hi)
		if a > b {
			a, b = b, a
		}
		ia, ib := binIndex(a, lo, hi, n), binIndex(b, lo, hi, n)
		if ia == ib || b == a {
			// Inside one bin (or a constant load): all of it there.
			add(ia, 1, dt, rev)
			continue
		}
		span := b - a
		for bin := ia; bin <= ib; bin++ {
			bl, bh := lo+float64(bin)*width, lo+float64(bin+1)*width
			if bin == n-1 {
				bh = hi
			}
			if overlap := math.Min(b, bh) - math.Max(a, bl); overlap > 0 {
				add(bin, overlap/span, dt, rev)
			}
		}
	}
	return ld, nil
}

// BatchSpectrumOptions configure the lifetime load spectra of a batch.
type BatchSpectrumOptions struct {
	// LifetimeSeconds is the operating time the spectra are scaled to
	// (e.g. 20 years × SecondsPerYear).
	LifetimeSeconds float64
	// RangeBins × MeanBins of the Markov matrix; LevelBins of the LDD/LRD.
	RangeBins, MeanBins, LevelBins int
	// SpeedChannel (rpm) gives the revolutions of the LRD; "" leaves them
	// out.
	SpeedChannel string
}

// lifetimeScales returns each run's factor from its own counts (or seconds,
// or revolutions) to the lifetime's: wⱼ·L/Tⱼ, wⱼ the run's wind-speed weight
// (WindSpeedWeights, Σ wⱼ = 1) and Tⱼ its analysed duration. This is the
// weighting of the lifetime DEL: there a run's damage rate Dⱼ/Tⱼ is weighted
// by wⱼ, so counting each run's cycles at wⱼ·L/Tⱼ makes Σ n·Sᵐ over the
// lifetime matrix equal L·f_eq·DEL_lifeᵐ.
func lifetimeScales(runs []FatigueInput, dist WindDistribution, lifetime float64) ([]float64, []int, []int, SpeedWeights, error) {
	if len(runs) == 0 {
		return nil, nil, nil, SpeedWeights{}, errors.New("no runs")
	}
	if !(lifetime > 0) || math.IsInf(lifetime, 0) {
		return nil, nil, nil, SpeedWeights{}, fmt.Errorf("lifetime %v s must be positive", lifetime)
	}
	speeds := make([]float64, len(runs))
	los, his := make([]int, len(runs)), make([]int, len(runs))
	for i, r := range runs {
		speeds[i] = r.WindSpeed
		if err := r.Record.Validate(); err != nil {
			return nil, nil, nil, SpeedWeights{}, fmt.Errorf("run %q: %w", r.ID, err)
		}
		lo, hi, err := r.Window.Range(r.Record.Time)
		if err != nil {
			return nil, nil, nil, SpeedWeights{}, fmt.Errorf("run %q: %w", r.ID, err)
		}
		if !(r.Record.Time[hi-1] > r.Record.Time[lo]) {
			return nil, nil, nil, SpeedWeights{}, fmt.Errorf("run %q: the window holds a single sample", r.ID)
		}
		los[i], his[i] = lo, hi
	}
	w, err := WindSpeedWeights(speeds, dist)
	if err != nil {
		return nil, nil, nil, SpeedWeights{}, err
	}
	scales := make([]float64, len(runs))
	for i, r := range runs {
		scales[i] = w.Weights[i] * lifetime / (r.Record.Time[his[i]-1] - r.Record.Time[los[i]])
	}
	return scales, los, his, w, nil
}

// eventScales returns each event run's number of occurrences in the
// lifetime L: n_d·(L/year) events of the case, shared over its runs as
// LifetimeFatigue shares the damage of one event (meanEventDamage: the
// wind speeds equally, the seeds of a speed equally), so that Σ n·Sᵐ of
// the event cycles counted this often is the event term of the lifetime
// DEL times f_eq·L (events add per count, not by time weight).
func eventScales(ec EventCase, lifetime float64) ([]float64, []int, []int, error) {
	if !(ec.EventsPerYear >= 0) || math.IsInf(ec.EventsPerYear, 0) {
		return nil, nil, nil, fmt.Errorf("DLC %s: events per year %v must be a finite number ≥ 0", ec.DLC, ec.EventsPerYear)
	}
	if len(ec.Runs) == 0 {
		return nil, nil, nil, fmt.Errorf("DLC %s has no runs", ec.DLC)
	}
	speeds := make([]float64, len(ec.Runs))
	los, his := make([]int, len(ec.Runs)), make([]int, len(ec.Runs))
	for i, r := range ec.Runs {
		speeds[i] = r.WindSpeed
		if err := r.Record.Validate(); err != nil {
			return nil, nil, nil, fmt.Errorf("DLC %s run %q: %w", ec.DLC, r.ID, err)
		}
		lo, hi, err := r.Window.Range(r.Record.Time)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("DLC %s run %q: %w", ec.DLC, r.ID, err)
		}
		los[i], his[i] = lo, hi
	}
	events := ec.EventsPerYear * lifetime / SecondsPerYear
	scales := EventRunShares(speeds)
	for i := range scales {
		scales[i] *= events
	}
	return scales, los, his, nil
}

// EventRunShares is each event run's share of one event, given the runs'
// wind speeds: the speeds equally, the seeds (and yaw cases) of a speed
// equally, as meanEventDamage averages their damage. Σ = 1.
func EventRunShares(speeds []float64) []float64 {
	if len(speeds) == 0 {
		return nil
	}
	grid := distinctSpeeds(speeds)
	perSpeed := make([]int, len(grid))
	for _, v := range speeds {
		perSpeed[nearestIndex(grid, v)]++
	}
	shares := make([]float64, len(speeds))
	for i, v := range speeds {
		shares[i] = 1 / float64(len(grid)*perSpeed[nearestIndex(grid, v)])
	}
	return shares
}

// spectrumRuns gathers the runs of a lifetime spectrum: the time-weighted
// runs (lifetimeScales; may be empty when events are given) and the event
// runs (eventScales), each with its count per lifetime and window.
func spectrumRuns(runs []FatigueInput, events []EventCase, dist WindDistribution, lifetime float64) ([]FatigueInput, []float64, []int, []int, SpeedWeights, error) {
	all := slices.Clone(runs)
	var scales []float64
	var los, his []int
	w := SpeedWeights{Weights: []float64{}}
	if len(runs) > 0 || len(events) == 0 {
		var err error
		if scales, los, his, w, err = lifetimeScales(runs, dist, lifetime); err != nil {
			return nil, nil, nil, nil, SpeedWeights{}, err
		}
	} else if !(lifetime > 0) || math.IsInf(lifetime, 0) {
		return nil, nil, nil, nil, SpeedWeights{}, fmt.Errorf("lifetime %v s must be positive", lifetime)
	}
	for _, ec := range events {
		s, l, h, err := eventScales(ec, lifetime)
		if err != nil {
			return nil, nil, nil, nil, SpeedWeights{}, err
		}
		all, scales, los, his = append(all, ec.Runs...), append(scales, s...), append(los, l...), append(his, h...)
	}
	return all, scales, los, his, w, nil
}

// LifetimeMarkovMatrix is the lifetime Markov matrix of one channel over a
// batch, with transient events as in LifetimeFatigue: each time-weighted
// run's rainflow cycles (ASTM E1049 §5.4.4, half cycles 0.5) counted wⱼ·L/Tⱼ
// times and each event case's cycles counted n_d·(L/year) times per event
// (eventScales), on edges common to every run. The weights returned are the
// time-weighted runs' (empty when there are none).
func LifetimeMarkovMatrix(runs []FatigueInput, events []EventCase, channel string, opt BatchSpectrumOptions, dist WindDistribution) (Markov, SpeedWeights, error) {
	all, scales, los, his, w, err := spectrumRuns(runs, events, dist, opt.LifetimeSeconds)
	if err != nil {
		return Markov{}, SpeedWeights{}, fmt.Errorf("batch markov matrix: %w", err)
	}
	sets := make([]WeightedCycles, len(all))
	for i, r := range all {
		y, err := r.Record.Channel(channel)
		if err != nil {
			return Markov{}, SpeedWeights{}, fmt.Errorf("batch markov matrix: run %q: %w", r.ID, err)
		}
		cycles, err := Rainflow(y[los[i]:his[i]])
		if err != nil {
			return Markov{}, SpeedWeights{}, fmt.Errorf("batch markov matrix: run %q: %w", r.ID, err)
		}
		sets[i] = WeightedCycles{Cycles: cycles, Weight: scales[i]}
	}
	mk, err := WeightedMarkovMatrix(sets, opt.RangeBins, opt.MeanBins)
	if err != nil {
		return Markov{}, SpeedWeights{}, fmt.Errorf("batch %w", err)
	}
	return mk, w, nil
}

// LifetimeLoadDuration is the lifetime LDD (seconds) and LRD (revolutions,
// with opt.SpeedChannel) of one channel over a batch: each time-weighted
// run's distribution (LoadDuration) on level edges spanning every run's
// minimum to maximum, scaled by wⱼ·L/Tⱼ (lifetimeScales), and each
// event run's time and revolutions at level counted n_d·(L/year) times per
// event (eventScales), as LifetimeMarkovMatrix counts its cycles. The
// durations then add up to L (the operating time) plus the events' own
// time, which is not taken from the operating time, as LifetimeFatigue
// adds the events' damage to the time-weighted damage.
func LifetimeLoadDuration(runs []FatigueInput, events []EventCase, channel string, opt BatchSpectrumOptions, dist WindDistribution) (LevelDistribution, SpeedWeights, error) {
	all, scales, los, his, w, err := spectrumRuns(runs, events, dist, opt.LifetimeSeconds)
	if err != nil {
		return LevelDistribution{}, SpeedWeights{}, fmt.Errorf("batch load duration: %w", err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range all {
		y, err := r.Record.Channel(channel)
		if err != nil {
			return LevelDistribution{}, SpeedWeights{}, fmt.Errorf("batch load duration: run %q: %w", r.ID, err)
		}
		for _, v := range y[los[i]:his[i]] {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	edges, err := LevelEdges(lo, hi, opt.LevelBins)
	if err != nil {
		return LevelDistribution{}, SpeedWeights{}, fmt.Errorf("batch load duration: channel %q: %w", channel, err)
	}
	total := LevelDistribution{Edges: edges, Duration: make([]float64, len(edges)-1)}
	if opt.SpeedChannel != "" {
		total.Revolutions = make([]float64, len(edges)-1)
	}
	for i, r := range all {
		y, _ := r.Record.Channel(channel)
		var speed []float64
		if opt.SpeedChannel != "" {
			s, err := r.Record.Channel(opt.SpeedChannel)
			if err != nil {
				return LevelDistribution{}, SpeedWeights{}, fmt.Errorf("batch load duration: run %q: %w", r.ID, err)
			}
			speed = s[los[i]:his[i]]
		}
		ld, err := LoadDuration(r.Record.Time[los[i]:his[i]], y[los[i]:his[i]], speed, edges)
		if err != nil {
			return LevelDistribution{}, SpeedWeights{}, fmt.Errorf("batch load duration: run %q, channel %q: %w", r.ID, channel, err)
		}
		for b := range ld.Duration {
			total.Duration[b] += scales[i] * ld.Duration[b]
			if speed != nil {
				total.Revolutions[b] += scales[i] * ld.Revolutions[b]
			}
		}
	}
	return total, w, nil
}
