package dlc

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// SeaStateBin is the site's normal sea state (NSS of IEC 61400-3-1: the
// significant wave height expected at a mean wind speed, with its peak
// period and the wave heading) at one hub-height wind speed.
// A batch's table of bins is the site's metocean input; runs between two
// bins take the values interpolated linearly in wind speed, runs outside
// the table those of its nearest end.
type SeaStateBin struct {
	WindSpeed float64 `json:"wind_speed"` // hub-height mean, m/s
	Hs        float64 `json:"hs"`         // significant wave height, m
	Tp        float64 `json:"tp"`         // peak spectral period, s
	WaveDir   float64 `json:"wave_dir"`   // propagation heading, deg (SeaState WaveDir)
}

// SeaState is a run's irregular sea: JONSWAP waves (SeaState WaveMod 2)
// of height Hs and peak period Tp from WaveDir, with its own seed
// (WaveSeed(1)).
type SeaState struct {
	Hs      float64 `json:"hs"`
	Tp      float64 `json:"tp"`
	WaveDir float64 `json:"wave_dir"`
	Seed    int32   `json:"seed"`
	// Kind is which sea state of IEC 61400-3-1 this is (empty: NSS, as
	// recipes stored before the kinds were named).
	Kind SeaStateKind `json:"kind,omitempty"`
}

// ExtremeSeaState is the site's extreme sea state (ESS of IEC 61400-3-1):
// the significant wave height of a recurrence period with its peak period,
// which the parked extreme-wind DLCs combine with the turbulent extreme
// wind model of the same recurrence period: the 50-year ESS with EWM50
// (DLC 6.1, 6.2), the 1-year ESS with EWM1 (DLC 6.3, 7.1). The values are
// the site's metocean data; the solver assumes none of them.
type ExtremeSeaState struct {
	Hs50    float64 `json:"hs50"`          // 50-year significant wave height, m
	Tp50    float64 `json:"tp50"`          // peak period with Hs50, s
	Hs1     float64 `json:"hs1,omitempty"` // 1-year significant wave height, m
	Tp1     float64 `json:"tp1,omitempty"` // peak period with Hs1, s
	WaveDir float64 `json:"wave_dir"`      // propagation heading, deg
}

// SeaStateKind says which sea state of IEC 61400-3-1 a run gets.
type SeaStateKind string

// Sea-state kinds.
const (
	NormalSea    SeaStateKind = "NSS"         // normal sea state of the run's wind speed
	ExtremeSea50 SeaStateKind = "ESS 50-year" // extreme sea state, 50-year recurrence
	ExtremeSea1  SeaStateKind = "ESS 1-year"  // extreme sea state, 1-year recurrence
)

// seaStateKind is the sea state IEC 61400-3-1 combines with a wind model:
// the extreme sea state of the extreme wind's recurrence period, the
// normal sea state otherwise.
func seaStateKind(w WindModel) SeaStateKind {
	switch w {
	case EWM50:
		return ExtremeSea50
	case EWM1:
		return ExtremeSea1
	}
	return NormalSea
}

// checkExtremeSeaState validates the ESS values given: Hs and Tp in the
// ranges of the normal sea-state table, the 1-year pair both given or both
// left out and not above the 50-year one.
func checkExtremeSeaState(e *ExtremeSeaState) error {
	if e == nil {
		return nil
	}
	if err := checkSeaStates([]SeaStateBin{{WindSpeed: 1, Hs: e.Hs50, Tp: e.Tp50, WaveDir: e.WaveDir}}); err != nil || !(e.Hs50 > 0) {
		return fmt.Errorf("extreme_sea_state: hs50 %g m must be in (0, 30], tp50 %g s in (0, 50], wave_dir %g° in [−180, 180]", e.Hs50, e.Tp50, e.WaveDir)
	}
	if e.Hs1 == 0 && e.Tp1 == 0 {
		return nil
	}
	if err := checkSeaStates([]SeaStateBin{{WindSpeed: 1, Hs: e.Hs1, Tp: e.Tp1}}); err != nil || !(e.Hs1 > 0) {
		return fmt.Errorf("extreme_sea_state: hs1 %g m must be in (0, 30] and tp1 %g s in (0, 50], both given or both left out", e.Hs1, e.Tp1)
	}
	if e.Hs1 > e.Hs50 {
		return fmt.Errorf("extreme_sea_state: the 1-year hs1 %g m exceeds the 50-year hs50 %g m", e.Hs1, e.Hs50)
	}
	return nil
}

// MaxSeaStateBins bounds a request's sea-state table.
const MaxSeaStateBins = 100

// checkSeaStates validates a sea-state table: wind speeds increasing, Hs ≥
// 0, Tp > 0, heading within ±180°.
func checkSeaStates(bins []SeaStateBin) error {
	if len(bins) > MaxSeaStateBins {
		return fmt.Errorf("sea_states: %d rows, at most %d", len(bins), MaxSeaStateBins)
	}
	for i, b := range bins {
		finite := !math.IsNaN(b.WindSpeed+b.Hs+b.Tp+b.WaveDir) && !math.IsInf(b.WindSpeed+b.Hs+b.Tp+b.WaveDir, 0)
		switch {
		case !finite:
			return fmt.Errorf("sea_states[%d]: values must be finite numbers", i)
		case !(b.WindSpeed > 0) || b.WindSpeed > 100:
			return fmt.Errorf("sea_states[%d]: wind_speed %g m/s must be in (0, 100]", i, b.WindSpeed)
		case i > 0 && !(b.WindSpeed > bins[i-1].WindSpeed):
			return fmt.Errorf("sea_states[%d]: wind speeds must increase (%g after %g m/s)", i, b.WindSpeed, bins[i-1].WindSpeed)
		case b.Hs < 0 || b.Hs > 30:
			return fmt.Errorf("sea_states[%d]: hs %g m must be in [0, 30]", i, b.Hs)
		case !(b.Tp > 0) || b.Tp > 50:
			return fmt.Errorf("sea_states[%d]: tp %g s must be in (0, 50]", i, b.Tp)
		case math.Abs(b.WaveDir) > 180:
			return fmt.Errorf("sea_states[%d]: wave_dir %g° must be in [−180, 180]", i, b.WaveDir)
		}
	}
	return nil
}

// NormalSeaState returns the sea state of the table at wind speed v
// (linear between bins, the nearest end outside the table).
func NormalSeaState(bins []SeaStateBin, v float64) SeaStateBin {
	if len(bins) == 0 {
		return SeaStateBin{WindSpeed: v}
	}
	i, _ := slices.BinarySearchFunc(bins, v, func(b SeaStateBin, v float64) int {
		switch {
		case b.WindSpeed < v:
			return -1
		case b.WindSpeed > v:
			return 1
		}
		return 0
	})
	switch {
	case i == 0:
		b := bins[0]
		b.WindSpeed = v
		return b
	case i >= len(bins):
		b := bins[len(bins)-1]
		b.WindSpeed = v
		return b
	}
	lo, hi := bins[i-1], bins[i]
	f := (v - lo.WindSpeed) / (hi.WindSpeed - lo.WindSpeed)
	lerp := func(a, b float64) float64 { return a + f*(b-a) }
	return SeaStateBin{WindSpeed: v, Hs: lerp(lo.Hs, hi.Hs), Tp: lerp(lo.Tp, hi.Tp), WaveDir: lerp(lo.WaveDir, hi.WaveDir)}
}

// seaStateSeed is the wave seed of a run: one per batch seed, wind speed
// and turbulence seed index, so that the yaw cases of a wind seed share
// their waves as they share their wind box, and different seeds differ.
func seaStateSeed(batchSeed uint64, r Run) int32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "waves|%d|%g|%d", batchSeed, r.WindSpeed, r.SeedIndex)
	return int32(h.Sum32() & 0x7fffffff)
}

// assignSeaStates gives every run the sea state IEC 61400-3-1 combines
// with its wind: the extreme sea state of its recurrence period for the
// extreme wind model (EWM50, EWM1), the NSS of its wind speed otherwise.
// Once the request asks for sea states (a table or an extreme sea state),
// every run must get one: a run whose sea state the request does not give
// is an error naming its DLC and the missing input.
func assignSeaStates(req Request, runs []Run) error {
	if len(req.SeaStates) == 0 && req.ExtremeSeaState == nil {
		return nil
	}
	e := req.ExtremeSeaState
	for i := range runs {
		r := &runs[i]
		seed := seaStateSeed(req.BatchSeed, *r)
		switch seaStateKind(r.Wind) {
		case ExtremeSea50:
			if e == nil {
				return fmt.Errorf("DLC %s (%s, parked in the 50-year extreme wind) needs the site's 50-year extreme sea state: extreme_sea_state.hs50 and tp50 (IEC 61400-3-1 ESS); the normal sea-state table does not reach it", r.DLC, r.Wind)
			}
			r.SeaState = &SeaState{Hs: e.Hs50, Tp: e.Tp50, WaveDir: e.WaveDir, Seed: seed, Kind: ExtremeSea50}
		case ExtremeSea1:
			if e == nil || e.Hs1 == 0 {
				return fmt.Errorf("DLC %s (%s, the 1-year extreme wind) needs the site's 1-year extreme sea state: extreme_sea_state.hs1 and tp1 (IEC 61400-3-1 ESS)", r.DLC, r.Wind)
			}
			r.SeaState = &SeaState{Hs: e.Hs1, Tp: e.Tp1, WaveDir: e.WaveDir, Seed: seed, Kind: ExtremeSea1}
		default:
			if len(req.SeaStates) == 0 {
				return fmt.Errorf("DLC %s (%s) needs the site's normal sea state: sea_states, a table of wind_speed, hs, tp and wave_dir (IEC 61400-3-1 NSS)", r.DLC, r.Wind)
			}
			b := NormalSeaState(req.SeaStates, r.WindSpeed)
			r.SeaState = &SeaState{Hs: b.Hs, Tp: b.Tp, WaveDir: b.WaveDir, Seed: seed, Kind: NormalSea}
		}
	}
	return nil
}

// checkSeaState checks a run's sea state against the deck: it needs the
// deck's SeaState file (CompSeaSt 1) to write the waves into.
func checkSeaState(d *deck.Deck, r Run) error {
	ss := r.SeaState
	if ss == nil {
		return nil
	}
	if d.Main.CompSeaSt != 1 || d.Offshore.SeaState == nil {
		return fmt.Errorf("dlc: prepare %s: sea state given but the deck has no SeaState file (CompSeaSt = %d): only offshore turbines take sea states", r.ID, d.Main.CompSeaSt)
	}
	return checkSeaStates([]SeaStateBin{{WindSpeed: math.Max(r.WindSpeed, 1e-3), Hs: ss.Hs, Tp: ss.Tp, WaveDir: ss.WaveDir}})
}

// seaStateFile returns the deck's SeaState file with the run's irregular
// sea written in: WaveMod 2 (JONSWAP, the IEC 61400-3-1 spectrum of the
// NSS), WaveHs, WaveTp, WaveDir, WaveSeed(1), and WaveTMax at least the
// run's length so that the wave series does not repeat within it.
func seaStateFile(g *deck.Generic, ss *SeaState, tMax float64) (*deck.Generic, error) {
	waveTMax := tMax
	if x, ok, err := g.Float("WaveTMax"); ok && err == nil && x > waveTMax {
		waveTMax = x
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return g.WithValues([][2]string{{"WaveMod", "2"}, {"WaveTMax", f(waveTMax)}, {"WaveHs", f(ss.Hs)}, {"WaveTp", f(ss.Tp)},
		{"WaveDir", f(ss.WaveDir)}, {"WaveSeed(1)", strconv.Itoa(int(ss.Seed))}})
}

// BasisSeaState is one sea state of a load basis: its kind (IEC 61400-3-1
// NSS or ESS), the wind speed of its runs, Hs, Tp, heading, and the DLCs
// whose runs get it.
type BasisSeaState struct {
	SeaStateBin
	Kind SeaStateKind `json:"kind"`
	DLCs []string     `json:"dlcs"`
}

// BasisSeaStates lists the sea states of a basis's runs, one per kind and
// wind speed, each with the DLCs that get it, in increasing wind speed.
func BasisSeaStates(runs []Run) []BasisSeaState {
	type key struct {
		kind SeaStateKind
		v    float64
	}
	at := map[key]int{}
	var out []BasisSeaState
	for _, r := range runs {
		ss := r.SeaState
		if ss == nil {
			continue
		}
		kind := ss.Kind
		if kind == "" {
			kind = NormalSea
		}
		k := key{kind, r.WindSpeed}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, BasisSeaState{SeaStateBin: SeaStateBin{WindSpeed: r.WindSpeed, Hs: ss.Hs, Tp: ss.Tp, WaveDir: ss.WaveDir}, Kind: kind})
		}
		if !slices.Contains(out[i].DLCs, r.DLC) {
			out[i].DLCs = append(out[i].DLCs, r.DLC)
		}
	}
	slices.SortStableFunc(out, func(a, b BasisSeaState) int { return cmp.Compare(a.WindSpeed, b.WindSpeed) })
	return out
}

// FloatingPlatform reports whether the deck's turbine stands on a
// floating platform: hydrodynamics without a substructure model, and at
// least one platform degree of freedom free in ElastoDyn (a bottom-fixed
// deck has SubDyn or a fixed platform).
func FloatingPlatform(d *deck.Deck) bool {
	if d == nil || d.Main == nil || d.ElastoDyn == nil || d.Main.CompHydro == 0 || d.Main.CompSub != 0 {
		return false
	}
	ed := d.ElastoDyn
	return ed.PtfmSgDOF || ed.PtfmSwDOF || ed.PtfmHvDOF || ed.PtfmRDOF || ed.PtfmPDOF || ed.PtfmYDOF
}
