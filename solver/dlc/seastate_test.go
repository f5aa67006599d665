package dlc

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// A load basis on an offshore turbine gets the site's normal sea state per
// wind bin: each run's Hs, Tp and heading are the table's at its wind
// speed (interpolated between bins), its wave seed is shared by the yaw
// cases of one wind seed, and the run deck's SeaState file carries them
// (WaveMod 2, WaveHs, WaveTp, WaveDir, WaveSeed(1), WaveTMax ≥ the run).
// A land deck, or a bad table, is refused.
func TestSeaStatesPerWindBinReachTheRunDeck(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "iea15_semi_steady10_still", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	table := []SeaStateBin{{WindSpeed: 4, Hs: 1.1, Tp: 8.5, WaveDir: 0}, {WindSpeed: 10, Hs: 2, Tp: 9, WaveDir: -10}, {WindSpeed: 24, Hs: 6, Tp: 12, WaveDir: 20}}
	iea15 := Turbine{Name: "IEA 15 MW", HubHeight: 150, RotorDiameter: 240, VIn: 3, VRated: 10.59, VOut: 25}
	req := Request{Turbine: iea15, DLCs: []string{"1.2"}, Class: "I", Category: "B", BatchSeed: 3, Grid: smallGrid, SeaStates: table,
		Overrides: map[string]Override{"1.2": {Speeds: []float64{7, 10, 26}, Seeds: intp(2), Yaw: []float64{-8, 8}, Duration: ptr(20), Transient: ptr(5)}}}
	runs, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	want := map[float64][3]float64{7: {1.55, 8.75, -5}, 10: {2, 9, -10}, 26: {6, 12, 20}}
	seeds := map[[2]float64]int32{}
	for _, r := range runs {
		ss, w := r.SeaState, want[r.WindSpeed]
		if ss == nil || math.Abs(ss.Hs-w[0]) > 1e-12 || math.Abs(ss.Tp-w[1]) > 1e-12 || math.Abs(ss.WaveDir-w[2]) > 1e-12 {
			t.Fatalf("run %s at %g m/s: sea state %+v, want Hs, Tp, dir %v", r.ID, r.WindSpeed, ss, w)
		}
		key := [2]float64{r.WindSpeed, float64(r.SeedIndex)}
		if s, ok := seeds[key]; ok && s != ss.Seed {
			t.Errorf("yaw cases of %v have wave seeds %d and %d", key, s, ss.Seed)
		}
		seeds[key] = ss.Seed
	}
	if len(seeds) != 6 || seeds[[2]float64{10, 1}] == seeds[[2]float64{10, 2}] {
		t.Errorf("wave seeds per wind seed: %v", seeds)
	}
	run := runs[0]
	fst, err := PrepareRun(context.Background(), d, run, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := got.Offshore.SeaState.SeaState()
	if err != nil {
		t.Fatal(err)
	}
	if ss.WaveMod != "2" || ss.WaveHs != run.SeaState.Hs || ss.WaveTp != run.SeaState.Tp || ss.WaveDir != run.SeaState.WaveDir ||
		ss.WaveSeed1 != strconv.Itoa(int(run.SeaState.Seed)) || ss.WaveTMax < run.TMax || ss.WaveDT != 0.25 {
		t.Errorf("run deck's sea state %+v, want WaveMod 2 and %+v", ss, run.SeaState)
	}
	if orig, _ := d.Offshore.SeaState.SeaState(); orig.WaveMod != "0" {
		t.Errorf("the base deck changed: WaveMod %s", orig.WaveMod)
	}

	if err := CheckRun(load5MW(t), run); err == nil || !strings.Contains(err.Error(), "no SeaState file") {
		t.Errorf("land deck with a sea state: %v", err)
	}
	for _, bad := range [][]SeaStateBin{
		{{WindSpeed: 10, Hs: 2, Tp: 9}, {WindSpeed: 8, Hs: 1, Tp: 8}},
		{{WindSpeed: 10, Hs: -1, Tp: 9}},
		{{WindSpeed: 10, Hs: 1, Tp: 0}},
		{{WindSpeed: 10, Hs: 1, Tp: 9, WaveDir: 200}},
	} {
		r := req
		r.SeaStates = bad
		if _, err := Expand(r); err == nil || !strings.Contains(err.Error(), "sea_states[") {
			t.Errorf("table %+v: %v", bad, err)
		}
	}
}
