package dlc

import (
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strings"

	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/windgen"
)

// Turbine holds the key numbers of a turbine that a load basis needs.
type Turbine struct {
	Name            string  `json:"name,omitempty"`
	HubHeight       float64 `json:"hub_height"`        // m
	RotorDiameter   float64 `json:"rotor_diameter"`    // m
	VIn             float64 `json:"v_in"`              // cut-in, m/s
	VRated          float64 `json:"v_rated"`           // rated, m/s
	VOut            float64 `json:"v_out"`             // cut-out, m/s
	RatedRotorSpeed float64 `json:"rated_rotor_speed"` // rpm
	// VMaint is the maintenance wind speed of DLC 8.1 [m/s]; zero means
	// 15 m/s (a common manufacturer value [U]).
	VMaint float64 `json:"v_maint,omitempty"`
}

// Override replaces table values of one DLC. Nil or empty fields keep the
// table's (or the request's) value.
type Override struct {
	Speeds    []float64 `json:"speeds,omitempty"` // m/s
	Seeds     *int      `json:"seeds,omitempty"`
	Yaw       []float64 `json:"yaw,omitempty"`       // deg
	Duration  *float64  `json:"duration,omitempty"`  // analysis window, s
	Transient *float64  `json:"transient,omitempty"` // s
}

// GridOptions size the turbulence boxes; zero values take the defaults.
type GridOptions struct {
	Points int     `json:"points,omitempty"` // n × n grid, default 25
	Margin float64 `json:"margin,omitempty"` // relative margin around the rotor, default 0.15
	Dt     float64 `json:"dt,omitempty"`     // time step of boxes and event files, default 0.05 s
}

// Grid defaults.
const (
	DefaultGridPoints = 25
	DefaultGridMargin = 0.15
	DefaultWindDt     = 0.05
	DefaultSpeedStep  = 2.0 // m/s (ΔV ≤ 2 m/s, as the DTU DLB)
	// MaxRuns caps one expansion; a larger load basis is an error.
	MaxRuns = 20000
)

// Request asks for the runs of a load basis.
type Request struct {
	Turbine  Turbine  `json:"turbine"`
	DLCs     []string `json:"dlcs"`     // e.g. ["1.2", "6.1"]
	Class    string   `json:"class"`    // "I", "II", "III"
	Category string   `json:"category"` // "A+", "A", "B", "C"
	// SeedsPerBin replaces the table's seeds of every turbulent DLC when
	// positive.
	SeedsPerBin int `json:"seeds_per_bin,omitempty"`
	// SpeedStep is ΔV of the stepped ranges [m/s]; zero means 2 m/s.
	SpeedStep float64 `json:"speed_step,omitempty"`
	// BatchSeed makes the turbulence seeds; the same request and batch
	// seed always give the same seeds.
	BatchSeed uint64              `json:"batch_seed"`
	Overrides map[string]Override `json:"overrides,omitempty"` // by DLC id
	Grid      GridOptions         `json:"grid,omitempty"`
	// SeaStates is the site's normal sea state per wind speed (offshore
	// turbines): every run gets the irregular sea of its wind speed
	// (NormalSeaState); empty keeps the deck's own sea state.
	SeaStates []SeaStateBin `json:"sea_states,omitempty"`
	// ExtremeSeaState is the site's extreme sea state (IEC 61400-3-1
	// ESS) that the runs in the extreme wind model get (DLC 6.1, 6.2 the
	// 50-year one, 6.3, 7.1 the 1-year one) instead of the normal sea
	// state of their wind speed.
	ExtremeSeaState *ExtremeSeaState `json:"extreme_sea_state,omitempty"`
	// FloatingPlatform raises every DLC's transient to at least
	// FloatingParkedTransient unless the request's override sets it (the
	// turbine's deck has a floating platform: FloatingPlatform), or to at
	// least FloatingTransient for the DLCs that start operating when
	// LoadedPlatformStart is set too.
	FloatingPlatform bool `json:"floating_platform,omitempty"`
	// LoadedPlatformStart says the operating runs start with the floating
	// platform at its equilibrium under the rotor's load (the deck has a
	// performance table with thrust coefficients: LoadedPlatformStart).
	LoadedPlatformStart bool `json:"loaded_platform_start,omitempty"`
	// Table replaces the standard table when not nil.
	Table []DLC `json:"-"`
}

// EventSteady is the kind of an EventSpec holding a steady normal wind
// profile (NWP, DLC 3.1/4.1) rather than an IEC transient.
const EventSteady windgen.EventKind = "NWP"

// EventSpec is the deterministic wind of a run, written as a uniform-wind
// file by windgen.GenerateEvent (or a steady NWP profile).
type EventSpec struct {
	Kind   windgen.EventKind   `json:"kind"`
	Sign   int                 `json:"sign"`
	Site   windgen.EventSite   `json:"site"`
	Timing windgen.EventTiming `json:"timing"`
}

// Run is one simulation of a load basis.
type Run struct {
	ID        string       `json:"id"` // e.g. "DLC1.2_V12.0_S3_Y+0"
	DLC       string       `json:"dlc"`
	State     TurbineState `json:"state"`
	Wind      WindModel    `json:"wind"`
	WindSpeed float64      `json:"wind_speed"` // hub-height mean, m/s
	// SeedIndex counts from 1 for turbulent runs; 0 for deterministic ones.
	SeedIndex int     `json:"seed_index,omitempty"`
	Seed      uint64  `json:"seed,omitempty"`
	Yaw       float64 `json:"yaw"`               // misalignment, deg
	Variant   string  `json:"variant,omitempty"` // event sub-case
	TMax      float64 `json:"t_max"`             // s
	Transient float64 `json:"transient"`         // s to discard
	// EventTime is when the event or state change starts [s], 0 if none.
	EventTime float64 `json:"event_time,omitempty"`
	// Fault is the DLC's fault (ProductionFault runs; empty: grid loss).
	Fault    FaultKind `json:"fault,omitempty"`
	Analysis Analysis  `json:"analysis"`
	PSF      PSFClass  `json:"psf"`
	Gamma    float64   `json:"gamma_f"`
	// Weight is the run's occurrence weight within its DLC for fatigue
	// aggregation (Σ = 1 over a fatigue DLC's runs; 0 for ultimate runs and
	// for start/stop cases, which count events per year instead).
	Weight float64 `json:"weight"`
	// Probability is the run's share of the year: Weight times the Rayleigh
	// probability of the DLC's whole wind-speed range.
	Probability float64                 `json:"probability"`
	Turbulence  *windgen.TurbulenceSpec `json:"turbulence,omitempty"`
	Event       *EventSpec              `json:"event,omitempty"`
	// SeaState is the run's irregular sea (nil: the deck's own).
	SeaState *SeaState `json:"sea_state,omitempty"`
	Notes    string    `json:"notes,omitempty"`
}

// Expand turns a request into its runs, in DLC order (as requested), then
// wind speed, variant, yaw and seed. It is deterministic.
func Expand(req Request) ([]Run, error) {
	t := req.Turbine
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("dlc: expand: %w", err)
	}
	class, err := windgen.ParseTurbineClass(req.Class)
	if err != nil {
		return nil, fmt.Errorf("dlc: expand: class: %w", err)
	}
	cat, err := windgen.ParseTurbulenceCategory(req.Category)
	if err != nil {
		return nil, fmt.Errorf("dlc: expand: category: %w", err)
	}
	vref, _ := class.VRef()
	vave, _ := class.VAve()
	step := req.SpeedStep
	if step == 0 {
		step = DefaultSpeedStep
	}
	if !(step > 0) || step > 10 || math.IsNaN(step) {
		return nil, fmt.Errorf("dlc: expand: speed step %g m/s must be in (0, 10]", step)
	}
	if req.SeedsPerBin < 0 || req.SeedsPerBin > 100 {
		return nil, fmt.Errorf("dlc: expand: seeds per bin %d must be in 0..100", req.SeedsPerBin)
	}
	grid, err := req.Grid.resolve(t)
	if err != nil {
		return nil, fmt.Errorf("dlc: expand: %w", err)
	}
	if len(req.DLCs) == 0 {
		return nil, fmt.Errorf("dlc: expand: no DLC requested")
	}
	if err := checkSeaStates(req.SeaStates); err != nil {
		return nil, fmt.Errorf("dlc: expand: %w", err)
	}
	if err := checkExtremeSeaState(req.ExtremeSeaState); err != nil {
		return nil, fmt.Errorf("dlc: expand: %w", err)
	}
	table := req.Table
	if table == nil {
		table = Standard()
	}
	byID := map[string]DLC{}
	for _, d := range table {
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("dlc: expand: table: %w", err)
		}
		if _, dup := byID[d.ID]; dup {
			return nil, fmt.Errorf("dlc: expand: table: DLC %s listed twice", d.ID)
		}
		byID[d.ID] = d
	}
	ovIDs := map[string]bool{}
	for id := range req.Overrides {
		n := normaliseID(id)
		if _, ok := byID[n]; !ok {
			return nil, fmt.Errorf("dlc: expand: override for unknown DLC %q (valid: %s)", id, strings.Join(tableIDs(table), ", "))
		}
		if ovIDs[n] {
			return nil, fmt.Errorf("dlc: expand: two overrides for DLC %s", n)
		}
		ovIDs[n] = true
	}
	dt := req.Grid.Dt
	if dt == 0 {
		dt = DefaultWindDt
	}
	rayleigh := analysis.Rayleigh{MeanSpeed: vave}
	var runs []Run
	seen := map[string]bool{}
	for _, raw := range req.DLCs {
		id := normaliseID(raw)
		d, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("dlc: expand: unknown DLC %q (valid: %s)", raw, strings.Join(tableIDs(table), ", "))
		}
		if seen[id] {
			return nil, fmt.Errorf("dlc: expand: DLC %s requested twice", id)
		}
		seen[id] = true
		ov := findOverride(req.Overrides, id)
		speeds, err := speedsFor(d.Speeds, t, vref, step)
		if err != nil {
			return nil, fmt.Errorf("dlc: expand: DLC %s: %w", id, err)
		}
		if len(ov.Speeds) > 0 {
			speeds = append([]float64(nil), ov.Speeds...)
		}
		for _, v := range speeds {
			if !(v > 0) || v > 100 || math.IsNaN(v) {
				return nil, fmt.Errorf("dlc: expand: DLC %s: wind speed %g m/s out of (0, 100]", id, v)
			}
		}
		seeds := d.Seeds
		if d.Wind.Turbulent() && req.SeedsPerBin > 0 {
			seeds = req.SeedsPerBin
		}
		if ov.Seeds != nil {
			if *ov.Seeds < 1 || *ov.Seeds > 100 {
				return nil, fmt.Errorf("dlc: expand: DLC %s: seeds %d must be in 1..100", id, *ov.Seeds)
			}
			seeds = *ov.Seeds
		}
		if !d.Wind.Turbulent() {
			seeds = 0
		} else if seeds < 1 {
			seeds = 1
		}
		yaws := d.Yaw
		if len(ov.Yaw) > 0 {
			yaws = ov.Yaw
		}
		if len(yaws) == 0 {
			yaws = []float64{0}
		}
		for _, y := range yaws {
			if math.IsNaN(y) || math.Abs(y) > 180 {
				return nil, fmt.Errorf("dlc: expand: DLC %s: yaw %g° out of [−180, 180]", id, y)
			}
		}
		dur, trans := d.Duration, d.Transient
		if ov.Duration != nil {
			dur = *ov.Duration
		}
		if ov.Transient != nil {
			trans = *ov.Transient
		} else if req.FloatingPlatform && req.LoadedPlatformStart && operating(d.State) {
			trans = math.Max(trans, FloatingTransient)
		} else if req.FloatingPlatform {
			trans = math.Max(trans, FloatingParkedTransient)
		}
		if !(dur > 0) || dur > 7200 || !(trans >= 0) || trans > 3600 {
			return nil, fmt.Errorf("dlc: expand: DLC %s: duration %g s must be in (0, 7200] and transient %g s in [0, 3600]", id, dur, trans)
		}
		eventAt := 0.0
		if d.EventStart > 0 || !d.Wind.Turbulent() {
			eventAt = trans + d.EventStart
			if eventAt >= trans+dur {
				eventAt = trans + dur/2
			}
		}
		variants := d.Variants
		if len(variants) == 0 {
			variants = []Variant{{}}
		}
		// Seeds depend on the batch seed, the wind model, the speed and the
		// seed index only — not on the DLC or the yaw angle — so the runs
		// that differ only in yaw (applied through the wind direction, not
		// the box) or belong to DLCs with the same turbulence share one box
		// (BoxCache generates it once per batch).
		batch := dlcBatchSeed(req.BatchSeed, string(d.Wind))
		first := len(runs)
		for _, v := range speeds {
			for _, va := range variants {
				for _, y := range yaws {
					nSeeds := seeds
					if nSeeds == 0 {
						nSeeds = 1
					}
					for s := 0; s < nSeeds; s++ {
						r := Run{DLC: id, State: d.State, Wind: d.Wind, WindSpeed: v, Yaw: y,
							Variant: va.Name, TMax: trans + dur, Transient: trans, EventTime: eventAt, Fault: d.Fault,
							Analysis: d.Analysis, PSF: d.PSF, Gamma: d.Gamma, Notes: d.Notes}
						if d.Wind.Turbulent() {
							r.SeedIndex = s + 1
							r.Seed = windgen.CaseSeed(batch, v, s)
							model, _ := windgen.ParseTurbulenceModel(string(d.Wind))
							spec := windgen.TurbulenceSpec{Class: class, Category: cat, Model: model,
								VHub: v, Grid: grid, Dt: dt, Duration: r.TMax, Seed: r.Seed}
							if _, err := spec.Targets(); err != nil {
								return nil, fmt.Errorf("dlc: expand: DLC %s at %g m/s: %w", id, v, err)
							}
							r.Turbulence = &spec
						} else {
							r.Event = &EventSpec{Kind: eventKind(d.Wind, va), Sign: va.Sign,
								Site: windgen.EventSite{Class: class, Category: cat, HubHeight: t.HubHeight,
									RotorDiameter: t.RotorDiameter, VHub: v},
								Timing: windgen.EventTiming{Start: eventAt, Length: r.TMax, Dt: dt}}
						}
						r.ID = runName(r)
						runs = append(runs, r)
						if len(runs) > MaxRuns {
							return nil, fmt.Errorf("dlc: expand: more than %d runs; reduce speeds, seeds or yaw angles", MaxRuns)
						}
					}
				}
			}
		}
		if d.Analysis == Fatigue && d.State != StartUp && d.State != NormalShutdown {
			if err := weigh(runs[first:], rayleigh); err != nil {
				return nil, fmt.Errorf("dlc: expand: DLC %s: %w", id, err)
			}
		}
	}
	if err := assignSeaStates(req, runs); err != nil {
		return nil, fmt.Errorf("dlc: expand: %w", err)
	}
	return runs, nil
}

// weigh sets the fatigue weights with analysis.WindSpeedWeights (the
// damage-consistent weighting), so they match the
// weights analysis.AggregateDEL uses for the same speeds.
func weigh(runs []Run, dist analysis.WindDistribution) error {
	speeds := make([]float64, len(runs))
	for i, r := range runs {
		speeds[i] = r.WindSpeed
	}
	w, err := analysis.WindSpeedWeights(speeds, dist)
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	for i := range runs {
		runs[i].Weight = w.Weights[i]
		runs[i].Probability = w.Weights[i] * w.Coverage
	}
	return nil
}

func eventKind(m WindModel, v Variant) windgen.EventKind {
	switch m {
	case EOG:
		return windgen.EventEOG
	case EDC:
		return windgen.EventEDC
	case ECD:
		return windgen.EventECD
	case EWS:
		if v.Vertical {
			return windgen.EventEWSV
		}
		return windgen.EventEWSH
	}
	return EventSteady
}

// runName builds the stable id: DLC, speed with one decimal, seed or
// variant, yaw with its sign.
func runName(r Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "DLC%s_V%.1f", r.DLC, r.WindSpeed)
	if r.Variant != "" {
		b.WriteString("_" + r.Variant)
	}
	if r.SeedIndex > 0 {
		fmt.Fprintf(&b, "_S%d", r.SeedIndex)
	}
	fmt.Fprintf(&b, "_Y%s", signed(r.Yaw))
	return b.String()
}

func signed(v float64) string {
	if v == 0 {
		return "+0"
	}
	return fmt.Sprintf("%+g", v)
}

func (t Turbine) validate() error {
	pos := map[string]float64{"hub height": t.HubHeight, "rotor diameter": t.RotorDiameter,
		"V_in": t.VIn, "V_rated": t.VRated, "V_out": t.VOut}
	keys := make([]string, 0, len(pos))
	for k := range pos {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := pos[k]; !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("turbine %s %g must be positive and finite", k, v)
		}
	}
	if !(t.VIn < t.VRated && t.VRated < t.VOut) {
		return fmt.Errorf("turbine speeds must satisfy V_in < V_rated < V_out (got %g, %g, %g m/s)", t.VIn, t.VRated, t.VOut)
	}
	if t.RatedRotorSpeed < 0 || math.IsNaN(t.RatedRotorSpeed) {
		return fmt.Errorf("turbine rated rotor speed %g rpm must not be negative", t.RatedRotorSpeed)
	}
	if t.RotorDiameter/2 >= t.HubHeight {
		return fmt.Errorf("turbine rotor radius %g m reaches the ground (hub height %g m)", t.RotorDiameter/2, t.HubHeight)
	}
	return nil
}

func (g GridOptions) resolve(t Turbine) (windgen.GridSpec, error) {
	n, margin, dt := g.Points, g.Margin, g.Dt
	if n == 0 {
		n = DefaultGridPoints
	}
	if margin == 0 {
		margin = DefaultGridMargin
	}
	if dt == 0 {
		dt = DefaultWindDt
	}
	if n < 3 || n > 255 {
		return windgen.GridSpec{}, fmt.Errorf("grid points %d must be in 3..255", n)
	}
	if !(dt > 0) || dt > 1 {
		return windgen.GridSpec{}, fmt.Errorf("wind time step %g s must be in (0, 1]", dt)
	}
	spec, err := windgen.GridForRotor(t.RotorDiameter, t.HubHeight, n, margin)
	if err != nil {
		return windgen.GridSpec{}, err
	}
	return spec, nil
}

// speedsFor resolves a speed range to a sorted list of hub speeds.
func speedsFor(r SpeedRange, t Turbine, vref, step float64) ([]float64, error) {
	switch r {
	case RangeInOut:
		return stepped(t.VIn, t.VOut, step), nil
	case RangeRatedPM2:
		return clean([]float64{t.VRated - 2, t.VRated, t.VRated + 2}), nil
	case RangeRatedOut:
		return clean([]float64{t.VRated - 2, t.VRated, t.VRated + 2, t.VOut}), nil
	case RangeInRatedOut:
		return clean([]float64{t.VIn, t.VRated - 2, t.VRated, t.VRated + 2, t.VOut}), nil
	case RangeRef:
		return []float64{vref}, nil
	case RangeV1:
		return []float64{round6(0.8 * vref)}, nil
	case RangeParkedFat:
		top := round6(0.7 * vref)
		if top <= t.VOut {
			return []float64{top}, nil
		}
		return stepped(t.VOut+step, top, step), nil
	case RangeMaint:
		v := t.VMaint
		if v == 0 {
			v = 15
		}
		return []float64{v}, nil
	}
	return nil, fmt.Errorf("unknown speed range %q", r)
}

// stepped returns lo, lo+step, … up to hi, with hi added when the steps miss
// it.
func stepped(lo, hi, step float64) []float64 {
	var out []float64
	for k := 0; ; k++ {
		v := round6(lo + float64(k)*step)
		if v > hi+1e-6 {
			break
		}
		out = append(out, v)
	}
	if len(out) == 0 || out[len(out)-1] < hi-1e-6 {
		out = append(out, round6(hi))
	}
	return out
}

// clean sorts, removes duplicates and non-positive speeds.
func clean(v []float64) []float64 {
	sort.Float64s(v)
	var out []float64
	for _, x := range v {
		x = round6(x)
		if x <= 0 || (len(out) > 0 && out[len(out)-1] == x) {
			continue
		}
		out = append(out, x)
	}
	return out
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func normaliseID(id string) string {
	id = strings.TrimSpace(id)
	if len(id) >= 3 && strings.EqualFold(id[:3], "DLC") {
		id = strings.TrimSpace(id[3:])
	}
	return id
}

func tableIDs(t []DLC) []string {
	ids := make([]string, len(t))
	for i, d := range t {
		ids[i] = d.ID
	}
	return ids
}

func findOverride(m map[string]Override, id string) Override {
	for k, v := range m {
		if normaliseID(k) == id {
			return v
		}
	}
	return Override{}
}

// dlcBatchSeed gives every wind model of a batch its own seed stream, so
// that DLC 1.2 (NTM) and 1.3 (ETM) at the same speed do not share phases,
// while DLCs of the same model (1.2 and 6.4, NTM) share their boxes.
func dlcBatchSeed(batch uint64, model string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(batch >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(model))
	return h.Sum64()
}

// validate checks a table entry (tables may come from callers).
func (d DLC) validate() error {
	if d.ID == "" {
		return fmt.Errorf("DLC without id")
	}
	switch d.Wind {
	case NTM, ETM, EWM50, EWM1, EOG, EDC, ECD, EWS, NWP:
	default:
		return fmt.Errorf("DLC %s: unknown wind model %q", d.ID, d.Wind)
	}
	if d.Wind == EWS {
		for _, v := range d.Variants {
			if v.Sign != 1 && v.Sign != -1 {
				return fmt.Errorf("DLC %s: variant %s sign %d must be ±1", d.ID, v.Name, v.Sign)
			}
		}
	}
	if (d.Wind == EDC || d.Wind == ECD) && len(d.Variants) == 0 {
		return fmt.Errorf("DLC %s: %s needs variants with the direction sign", d.ID, d.Wind)
	}
	for _, v := range d.Variants {
		if (d.Wind == EDC || d.Wind == ECD) && v.Sign != 1 && v.Sign != -1 {
			return fmt.Errorf("DLC %s: variant %s sign %d must be ±1", d.ID, v.Name, v.Sign)
		}
	}
	if d.Analysis != Ultimate && d.Analysis != Fatigue {
		return fmt.Errorf("DLC %s: analysis %q must be U or F", d.ID, d.Analysis)
	}
	if !(d.Gamma > 0) || d.Gamma > 3 {
		return fmt.Errorf("DLC %s: partial safety factor %g out of (0, 3]", d.ID, d.Gamma)
	}
	if d.Seeds < 0 || d.EventStart < 0 || math.IsNaN(d.EventStart) {
		return fmt.Errorf("DLC %s: negative seeds or event start", d.ID)
	}
	return nil
}
