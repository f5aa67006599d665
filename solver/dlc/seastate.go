package dlc

import (
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

// assignSeaStates gives every run the NSS of its wind speed.
func assignSeaStates(req Request, runs []Run) {
	if len(req.SeaStates) == 0 {
		return
	}
	for i := range runs {
		b := NormalSeaState(req.SeaStates, runs[i].WindSpeed)
		runs[i].SeaState = &SeaState{Hs: b.Hs, Tp: b.Tp, WaveDir: b.WaveDir, Seed: seaStateSeed(req.BatchSeed, runs[i])}
	}
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
