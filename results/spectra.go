package results

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
)

// Load spectra of a job and of a batch: rainflow
// Markov matrices (range × mean) and, for drivetrain channels, the
// load-duration (LDD) and load-revolution (LRD) distributions. A job's
// spectra count its window; a batch's are lifetime spectra, each run
// weighted as the lifetime DEL weights it (its wind-speed bin's
// probability split over the bin's runs, normalised over the batch, per
// second of the run: analysis.LifetimeMarkovMatrix).

// Defaults and bounds of the load-spectrum questions, documented in the
// OpenAPI entries.
const (
	// DefaultRangeBins: 100 range bins, the usual resolution of a rainflow
	// histogram.
	DefaultRangeBins = 100
	// DefaultMeanBins: the mean axis of a Markov matrix needs far fewer
	// classes than the range axis (the mean of a load channel moves with
	// the operating point, its range with turbulence); 20 resolves the
	// operating points of a DLC 1.2 batch while keeping 2000 cells per
	// channel.
	DefaultMeanBins = 20
	// DefaultLevelBins of an LDD/LRD: as many as the range axis.
	DefaultLevelBins = 100
	// MaxSpectrumBins bounds each axis; MaxSpectrumCells bounds channels ×
	// cells of one answer.
	MaxSpectrumBins  = 1000
	MaxSpectrumCells = 1_000_000
	// MaxLoadSpectrumChannels bounds the channels of one request.
	MaxLoadSpectrumChannels = 20
	// DefaultLifetimeYears is the design lifetime of the batch spectra:
	// IEC 61400-1's minimum of 20 years.
	DefaultLifetimeYears = 20.0
	// DefaultSpeedChannel is the rotor (low-speed shaft) speed whose
	// integral gives an LRD's revolutions.
	DefaultSpeedChannel = "RotSpeed"
)

// MainLoadChannels are the load channels a Markov request without
// channels covers, when the output records them: blade root, low-speed
// shaft, yaw bearing and tower base (overviewLoadChannels).
func MainLoadChannels() []string { return slices.Clone(overviewLoadChannels) }

// DrivetrainChannels are the torque channels an LDD/LRD request without
// channels covers, when the output records them: rotor torque, low-speed
// shaft torque (both OpenFAST names) and generator torque.
func DrivetrainChannels() []string {
	return []string{"RotTorq", "LSShftTq", "LSShftMxa", "GenTq"}
}

// present is the names of candidates the record has, in order.
func present(rec *analysis.Record, candidates []string) []string {
	var out []string
	for _, n := range candidates {
		if slices.Contains(rec.Names, n) {
			out = append(out, n)
		}
	}
	return out
}

// spectrumChannels is the channels of a load-spectrum request: the named
// ones (checked against the record), else those of defaults the record has
// (what names the defaults in a 422 when it has none).
func spectrumChannels(rec *analysis.Record, named, defaults []string, what string) ([]string, error) {
	if len(named) > MaxLoadSpectrumChannels {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "channels: at most %d channels per request", MaxLoadSpectrumChannels)
	}
	if len(named) > 0 {
		if err := CheckChannels(rec, named); err != nil {
			return nil, err
		}
		return named, nil
	}
	got := present(rec, defaults)
	if len(got) == 0 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "channels: the output has none of the default %s channels (%s); name the channels", what, strings.Join(defaults, ", "))
	}
	return got, nil
}

// spectrumBins validates a bin count (0: def) and names the parameter.
func spectrumBins(name string, n, def int) (int, error) {
	if n == 0 {
		return def, nil
	}
	if n < 1 || n > MaxSpectrumBins {
		return 0, turbinesim.Errorf(turbinesim.EINVALID, "%s: %d is not in [1, %d]", name, n, MaxSpectrumBins)
	}
	return n, nil
}

func checkCells(channels, cells int) error {
	if channels*cells > MaxSpectrumCells {
		return turbinesim.Errorf(turbinesim.EINVALID, "%d channels × %d cells exceed %d; ask for fewer channels or bins", channels, cells, MaxSpectrumCells)
	}
	return nil
}

// ChannelMarkov is one channel's rainflow Markov matrix: Counts[i][j] is
// the number of cycles (half cycles as 0.5) with range in [RangeEdges[i],
// RangeEdges[i+1]) and mean in [MeanEdges[j], MeanEdges[j+1]) (last bins
// closed), edges in the channel's Unit.
type ChannelMarkov struct {
	Channel string `json:"channel"`
	Unit    string `json:"unit"`
	analysis.Markov
	// CountUnit is "cycles" (a job's window) or "cycles per lifetime" (a
	// batch).
	CountUnit   string  `json:"count_unit"`
	TotalCycles float64 `json:"total_cycles"`
}

// MarkovRequest asks for the Markov matrices of a job's channels.
type MarkovRequest struct {
	Channels  []string `json:"channels"`
	RangeBins int      `json:"range_bins"`
	MeanBins  int      `json:"mean_bins"`
	TStart    *float64 `json:"t_start"`
	TEnd      *float64 `json:"t_end"`
}

// MarkovResponse is the answer to a MarkovRequest.
type MarkovResponse struct {
	JobID     string          `json:"-"`
	Start     float64         `json:"t_start"`  // first sample used, s
	End       float64         `json:"t_end"`    // last sample used, s
	Duration  float64         `json:"duration"` // s
	RangeBins int             `json:"range_bins"`
	MeanBins  int             `json:"mean_bins"`
	Channels  []ChannelMarkov `json:"channels"`
	// Window is the part of the run counted (the start-up transient left
	// out unless t_start was given).
	Window AnalysisWindow `json:"analysis_window"`
}

// Markov counts each channel's cycles (ASTM E1049 §5.4.4 rainflow, as the
// DELs) over the window into range × mean bins: RangeBins equal bins from
// 0 to the largest range, MeanBins from the smallest to the largest mean.
func (a *ResultAnalysis) Markov(ctx context.Context, orgID, jobID string, req MarkovRequest) (*MarkovResponse, error) {
	rb, err := spectrumBins("range_bins", req.RangeBins, DefaultRangeBins)
	if err != nil {
		return nil, err
	}
	mb, err := spectrumBins("mean_bins", req.MeanBins, DefaultMeanBins)
	if err != nil {
		return nil, err
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	names, err := spectrumChannels(rec, req.Channels, MainLoadChannels(), "load")
	if err != nil {
		return nil, err
	}
	if err := checkCells(len(names), rb*mb); err != nil {
		return nil, err
	}
	w := runWindow(out, req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	resp := &MarkovResponse{JobID: out.JobID, Start: rec.Time[lo], End: rec.Time[hi-1], Duration: rec.Time[hi-1] - rec.Time[lo],
		RangeBins: rb, MeanBins: mb, Window: describeRunWindow(out, lo, hi, req.TStart)}
	for _, n := range names {
		y, _ := rec.Channel(n)
		cycles, err := analysis.Rainflow(y[lo:hi])
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		mk, err := analysis.MarkovMatrix(cycles, rb, mb)
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		idx, _ := rec.Index(n)
		resp.Channels = append(resp.Channels, ChannelMarkov{Channel: n, Unit: rec.Unit(idx), Markov: mk, CountUnit: "cycles", TotalCycles: mk.Total()})
	}
	return resp, nil
}

// ChannelLoadDuration is one channel's load-duration distribution
// (Duration at each level bin [Edges[i], Edges[i+1]), in DurationUnit) and,
// with a speed channel, its load-revolution distribution (Revolutions,
// shaft turns at each level).
type ChannelLoadDuration struct {
	Channel          string    `json:"channel"`
	Unit             string    `json:"unit"`
	Edges            []float64 `json:"edges"`
	Duration         []float64 `json:"duration"`
	DurationUnit     string    `json:"duration_unit"` // "s" (job) or "h" (batch lifetime)
	Revolutions      []float64 `json:"revolutions,omitempty"`
	TotalDuration    float64   `json:"total_duration"`
	TotalRevolutions float64   `json:"total_revolutions,omitempty"`
}

func channelLoadDuration(name, unit string, ld analysis.LevelDistribution, durationUnit string, perUnit float64) ChannelLoadDuration {
	c := ChannelLoadDuration{Channel: name, Unit: unit, Edges: ld.Edges, DurationUnit: durationUnit,
		Duration: make([]float64, len(ld.Duration)), Revolutions: ld.Revolutions}
	for i, d := range ld.Duration {
		c.Duration[i] = d / perUnit
		c.TotalDuration += c.Duration[i]
	}
	for _, r := range ld.Revolutions {
		c.TotalRevolutions += r
	}
	return c
}

// LoadDurationRequest asks for the LDD/LRD of a job's channels.
// SpeedChannel (rpm) gives the revolutions: nil is RotSpeed when the
// output has it (else no LRD); "" asks for none.
type LoadDurationRequest struct {
	Channels     []string `json:"channels"`
	Bins         int      `json:"bins"`
	SpeedChannel *string  `json:"speed_channel"`
	TStart       *float64 `json:"t_start"`
	TEnd         *float64 `json:"t_end"`
}

// LoadDurationResponse is the answer to a LoadDurationRequest.
type LoadDurationResponse struct {
	JobID        string                `json:"-"`
	Start        float64               `json:"t_start"`
	End          float64               `json:"t_end"`
	Bins         int                   `json:"bins"`
	SpeedChannel string                `json:"speed_channel,omitempty"` // "" when no revolutions were counted
	SpeedUnit    string                `json:"speed_unit,omitempty"`
	Channels     []ChannelLoadDuration `json:"channels"`
	// Window is the part of the run distributed (the start-up transient
	// left out unless t_start was given).
	Window AnalysisWindow `json:"analysis_window"`
}

// speedChannel resolves a request's speed channel against a record: nil is
// DefaultSpeedChannel when recorded (else none), "" none, a name must be
// recorded.
func speedChannel(rec *analysis.Record, named *string) (string, error) {
	if named == nil {
		if slices.Contains(rec.Names, DefaultSpeedChannel) {
			return DefaultSpeedChannel, nil
		}
		return "", nil
	}
	if *named == "" {
		return "", nil
	}
	if !slices.Contains(rec.Names, *named) {
		return "", turbinesim.Errorf(turbinesim.EINVALID, "speed_channel: the output has no channel %q", *named)
	}
	return *named, nil
}

// LoadDuration distributes each channel's time over the window (and, with
// a speed channel, its shaft revolutions ∫|Ω|dt/60) over Bins equal level
// bins from the channel's minimum to its maximum (analysis.LoadDuration).
func (a *ResultAnalysis) LoadDuration(ctx context.Context, orgID, jobID string, req LoadDurationRequest) (*LoadDurationResponse, error) {
	bins, err := spectrumBins("bins", req.Bins, DefaultLevelBins)
	if err != nil {
		return nil, err
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, err
	}
	rec := out.Record
	names, err := spectrumChannels(rec, req.Channels, DrivetrainChannels(), "drivetrain torque")
	if err != nil {
		return nil, err
	}
	speed, err := speedChannel(rec, req.SpeedChannel)
	if err != nil {
		return nil, err
	}
	w := runWindow(out, req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, invalidAnalysis(err)
	}
	if hi-lo < 2 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "t_start/t_end: the window holds a single sample")
	}
	resp := &LoadDurationResponse{JobID: out.JobID, Start: rec.Time[lo], End: rec.Time[hi-1], Bins: bins, SpeedChannel: speed,
		Window: describeRunWindow(out, lo, hi, req.TStart)}
	var omega []float64
	if speed != "" {
		s, _ := rec.Channel(speed)
		omega = s[lo:hi]
		idx, _ := rec.Index(speed)
		resp.SpeedUnit = rec.Unit(idx)
	}
	for _, n := range names {
		y, _ := rec.Channel(n)
		ymin, ymax := math.Inf(1), math.Inf(-1)
		for _, v := range y[lo:hi] {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
		edges, err := analysis.LevelEdges(ymin, ymax, bins)
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		ld, err := analysis.LoadDuration(rec.Time[lo:hi], y[lo:hi], omega, edges)
		if err != nil {
			return nil, invalidAnalysis(fmt.Errorf("channel %s: %w", n, err))
		}
		idx, _ := rec.Index(n)
		resp.Channels = append(resp.Channels, channelLoadDuration(n, rec.Unit(idx), ld, "s", 1))
	}
	return resp, nil
}

// SpectrumQuery selects the channels and bins of a batch's lifetime load
// spectra and the lifetime they are scaled to.
type SpectrumQuery struct {
	BatchQuery
	Channels            []string
	RangeBins, MeanBins int // Markov
	LevelBins           int // LDD/LRD
	LifetimeYears       *float64
	SpeedChannel        *string // LDD/LRD, as LoadDurationRequest
	Distribution        WindDistributionSpec
	// EventsPerYear counts start-up and shut-down events (DLC 3.1, 4.1;
	// ParseEventsPerYear), as BatchDELs.
	EventsPerYear map[string]float64
}

// SpectrumRun is one run of a batch's lifetime spectra with its weight
// (Σ = 1 over the time-weighted runs; an event run's share of one event)
// and analysed duration.
type SpectrumRun struct {
	ID        string  `json:"id"`
	WindSpeed float64 `json:"wind_speed"`
	Weight    float64 `json:"weight"`
	Duration  float64 `json:"duration"` // s
}

// SpectrumEvents is a start-up or shut-down case of the spectra, counted
// per event: EventsPerYear × the lifetime's years events, one event the
// mean of its runs (the speeds equally, the seeds of a speed equally).
type SpectrumEvents struct {
	DLC               string        `json:"dlc"`
	EventsPerYear     float64       `json:"events_per_year"`
	EventsPerLifetime float64       `json:"events_per_lifetime"`
	Runs              []SpectrumRun `json:"runs"`
}

// BatchSpectraBasis is what every lifetime spectrum of a batch states: the
// runs and their weights, the wind distribution, the lifetime and the
// coverage (the share of the distribution the batch's wind speeds span;
// the lifetime is spread over that span, as the lifetime DEL does), the
// event cases counted per event and notes on the runs left out.
type BatchSpectraBasis struct {
	BatchID       string           `json:"batch_id"`
	Skipped       []string         `json:"skipped"`
	DLCs          []string         `json:"dlcs,omitempty"`
	Distribution  DistributionInfo `json:"distribution"`
	LifetimeYears float64          `json:"lifetime_years"`
	Coverage      float64          `json:"coverage"`
	Runs          []SpectrumRun    `json:"runs"`
	Events        []SpectrumEvents `json:"events,omitempty"`
	Notes         []string         `json:"notes,omitempty"`
	// Window is the part of each run counted: after its start-up
	// transient unless t_start was given.
	Window AnalysisWindow `json:"analysis_window"`
}

// BatchMarkov is the lifetime Markov answer of a batch.
type BatchMarkov struct {
	BatchSpectraBasis
	RangeBins int             `json:"range_bins"`
	MeanBins  int             `json:"mean_bins"`
	Channels  []ChannelMarkov `json:"channels"`
}

// BatchLoadDuration is the lifetime LDD/LRD answer of a batch.
type BatchLoadDuration struct {
	BatchSpectraBasis
	Bins         int                   `json:"bins"`
	SpeedChannel string                `json:"speed_channel,omitempty"`
	Channels     []ChannelLoadDuration `json:"channels"`
}

// spectrumBatch is what both batch spectra need: the runs BatchDELs would
// use (fatigueSelection: the same dlc= and default choice, start-up and
// shut-down cases counted per event with events_per_year, else left out
// with its note), as fatigue inputs with their bin speeds, the channels,
// the wind distribution and the lifetime.
type spectrumBatch struct {
	runs     *batchRuns
	sel      *fatigueSelection
	inputs   []analysis.FatigueInput // time-weighted
	events   []analysis.EventCase
	channels []string
	record   *analysis.Record // of the first run: units
	dist     analysis.WindDistribution
	info     DistributionInfo
	years    float64
}

func (a *ResultAnalysis) spectrumBatch(ctx context.Context, orgID, batchID string, q SpectrumQuery, defaults []string, what string) (*spectrumBatch, error) {
	years := DefaultLifetimeYears
	if q.LifetimeYears != nil {
		years = *q.LifetimeYears
		if !(years > 0) || years > 100 {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "lifetime_years: %g is not in (0, 100]", years)
		}
	}
	if err := checkEventsPerYear(q.EventsPerYear); err != nil {
		return nil, err
	}
	dist, info, err := a.windDistribution(ctx, orgID, batchID, q.Distribution)
	if err != nil {
		return nil, err
	}
	all := q.BatchQuery
	all.DLCs = nil
	b, err := a.batchRuns(ctx, orgID, batchID, all)
	if err != nil {
		return nil, err
	}
	sel, err := b.fatigueSelection(q.DLCs, q.EventsPerYear)
	if err != nil {
		return nil, err
	}
	first := sel.timeWeighted
	if first == nil {
		first = sel.events[0].runs
	}
	rec := first.runs[0].Record
	channels, err := spectrumChannels(rec, q.Channels, defaults, what)
	if err != nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", first.runs[0].JobID, turbinesim.ErrorMessage(err))
	}
	sb := &spectrumBatch{runs: b, sel: sel, channels: channels, record: rec, dist: dist, info: info, years: years}
	if sel.timeWeighted != nil {
		if sb.inputs, err = sel.timeWeighted.fatigueInputs(channels); err != nil {
			return nil, err
		}
	}
	for _, e := range sel.events {
		in, err := e.runs.fatigueInputs(channels)
		if err != nil {
			return nil, err
		}
		sb.events = append(sb.events, analysis.EventCase{DLC: e.dlc, EventsPerYear: e.eventsPerYear, Runs: in})
	}
	return sb, nil
}

// runSpan is the analysed duration of a fatigue input (s).
func runSpan(in analysis.FatigueInput) float64 {
	lo, hi, _ := in.Window.Range(in.Record.Time)
	return in.Record.Time[hi-1] - in.Record.Time[lo]
}

func (sb *spectrumBatch) basis(w analysis.SpeedWeights) BatchSpectraBasis {
	basis := BatchSpectraBasis{BatchID: sb.runs.id, Skipped: sb.runs.skipped, DLCs: sb.sel.dlcs(), Distribution: sb.info, Window: sb.sel.window(),
		LifetimeYears: sb.years, Coverage: w.Coverage, Runs: []SpectrumRun{}, Notes: sb.sel.notes}
	for i, in := range sb.inputs {
		basis.Runs = append(basis.Runs, SpectrumRun{ID: in.ID, WindSpeed: in.WindSpeed, Weight: w.Weights[i], Duration: runSpan(in)})
	}
	for _, ec := range sb.events {
		speeds := make([]float64, len(ec.Runs))
		for i, in := range ec.Runs {
			speeds[i] = in.WindSpeed
		}
		shares := analysis.EventRunShares(speeds)
		e := SpectrumEvents{DLC: ec.DLC, EventsPerYear: ec.EventsPerYear, EventsPerLifetime: ec.EventsPerYear * sb.years}
		for i, in := range ec.Runs {
			e.Runs = append(e.Runs, SpectrumRun{ID: in.ID, WindSpeed: in.WindSpeed, Weight: shares[i], Duration: runSpan(in)})
		}
		basis.Events = append(basis.Events, e)
	}
	return basis
}

// BatchMarkov is the lifetime Markov matrix of each channel (default: the
// main load channels recorded) over the batch's fatigue runs: each run's
// cycles counted wⱼ·L/Tⱼ times, and each counted start-up or shut-down
// event's n_d·(L/year) times, on edges common to the runs
// (analysis.LifetimeMarkovMatrix).
func (a *ResultAnalysis) BatchMarkov(ctx context.Context, orgID, batchID string, q SpectrumQuery) (*BatchMarkov, error) {
	rb, err := spectrumBins("range_bins", q.RangeBins, DefaultRangeBins)
	if err != nil {
		return nil, err
	}
	mb, err := spectrumBins("mean_bins", q.MeanBins, DefaultMeanBins)
	if err != nil {
		return nil, err
	}
	sb, err := a.spectrumBatch(ctx, orgID, batchID, q, MainLoadChannels(), "load")
	if err != nil {
		return nil, err
	}
	if err := checkCells(len(sb.channels), rb*mb); err != nil {
		return nil, err
	}
	opt := analysis.BatchSpectrumOptions{LifetimeSeconds: sb.years * analysis.SecondsPerYear, RangeBins: rb, MeanBins: mb}
	res := &BatchMarkov{RangeBins: rb, MeanBins: mb}
	for i, n := range sb.channels {
		mk, w, err := analysis.LifetimeMarkovMatrix(sb.inputs, sb.events, n, opt, sb.dist)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "channel %s: %v", n, err)
		}
		if i == 0 {
			res.BatchSpectraBasis = sb.basis(w)
		}
		idx, _ := sb.record.Index(n)
		res.Channels = append(res.Channels, ChannelMarkov{Channel: n, Unit: sb.record.Unit(idx), Markov: mk,
			CountUnit: "cycles per lifetime", TotalCycles: mk.Total()})
	}
	return res, nil
}

// BatchLoadDuration is the lifetime LDD (hours) and LRD (revolutions) of
// each channel (default: the drivetrain torque channels recorded) over the
// batch's fatigue runs, weighted as BatchMarkov
// (analysis.LifetimeLoadDuration): the hours add up to the lifetime, plus
// the counted events' own hours.
func (a *ResultAnalysis) BatchLoadDuration(ctx context.Context, orgID, batchID string, q SpectrumQuery) (*BatchLoadDuration, error) {
	bins, err := spectrumBins("bins", q.LevelBins, DefaultLevelBins)
	if err != nil {
		return nil, err
	}
	sb, err := a.spectrumBatch(ctx, orgID, batchID, q, DrivetrainChannels(), "drivetrain torque")
	if err != nil {
		return nil, err
	}
	all := slices.Clone(sb.inputs)
	for _, ec := range sb.events {
		all = append(all, ec.Runs...)
	}
	var speed string
	for _, in := range all {
		s, err := speedChannel(in.Record, q.SpeedChannel)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "job %s: %s", in.ID, turbinesim.ErrorMessage(err))
		}
		if s == "" {
			speed = "" // a run without RotSpeed: no LRD for any
			break
		}
		speed = s
	}
	opt := analysis.BatchSpectrumOptions{LifetimeSeconds: sb.years * analysis.SecondsPerYear, LevelBins: bins, SpeedChannel: speed}
	res := &BatchLoadDuration{Bins: bins, SpeedChannel: speed}
	for i, n := range sb.channels {
		ld, w, err := analysis.LifetimeLoadDuration(sb.inputs, sb.events, n, opt, sb.dist)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "channel %s: %v", n, err)
		}
		if i == 0 {
			res.BatchSpectraBasis = sb.basis(w)
		}
		idx, _ := sb.record.Index(n)
		res.Channels = append(res.Channels, channelLoadDuration(n, sb.record.Unit(idx), ld, "h", 3600))
	}
	return res, nil
}

// ParseUltimateLoads reads "Channel:S_u,Channel2:S_u" (the ultimate_loads
// query parameter) into a map; every S_u must be a positive number.
func ParseUltimateLoads(specs []string) (map[string]float64, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	for _, s := range specs {
		name, v, ok := strings.Cut(s, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: %q is not channel:value", s)
		}
		su, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: %q: the ultimate load is not a number", s)
		}
		out[name] = su
	}
	return out, checkUltimateLoads(out)
}

// checkUltimateLoads: every S_u is a positive finite number.
func checkUltimateLoads(u map[string]float64) error {
	for _, n := range slices.Sorted(maps.Keys(u)) {
		if su := u[n]; !(su > 0) || math.IsInf(su, 0) {
			return turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: channel %s: the ultimate load %g must be a positive number (the Goodman correction S/(1 − S_m/S_u) needs S_u > 0)", n, su)
		}
	}
	return nil
}

// checkUltimateChannels: every channel given an ultimate load is among
// those analysed (a misspelt name would otherwise silently leave its
// channel uncorrected).
func checkUltimateChannels(u map[string]float64, channels []string) error {
	for _, n := range slices.Sorted(maps.Keys(u)) {
		if !slices.Contains(channels, n) {
			return turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: channel %q is not among the channels analysed", n)
		}
	}
	return nil
}

// goodmanInvalid turns a cycle at or above its ultimate load into a 422
// naming the channel (and run); other errors pass through invalidAnalysis.
func goodmanInvalid(err error) error {
	var ge *analysis.GoodmanError
	if !errors.As(err, &ge) {
		return invalidAnalysis(err)
	}
	where := ""
	if ge.Run != "" {
		where = " in job " + ge.Run
	}
	return turbinesim.Errorf(turbinesim.EINVALID, "ultimate_loads: channel %s: a cycle%s has mean S_m = %g, not below the ultimate load S_u = %g, so the Goodman correction S/(1 − S_m/S_u) is undefined; give an ultimate load above the channel's cycle means or leave the channel out",
		ge.Channel, where, ge.Mean, ge.Ultimate)
}
