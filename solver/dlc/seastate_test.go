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

// The parked extreme-wind DLCs get the site's extreme sea state of their
// wind's recurrence period (IEC 61400-3-1 ESS): 6.1 and 6.2 (EWM50) the
// 50-year Hs and Tp, 6.3 (EWM1) the 1-year ones, while 6.4 (parked, NTM)
// and 1.2 keep the normal sea state of their wind speed; the run deck of a
// 6.1 run carries Hs50 and Tp50. A basis whose runs need an extreme sea
// state the request does not give, or the normal table when only the
// extreme sea state is given, is refused naming the DLC and the missing
// input, and inconsistent extreme values are refused.
func TestExtremeSeaStatesForParkedExtremeWind(t *testing.T) {
	table := []SeaStateBin{{WindSpeed: 4, Hs: 1.1, Tp: 8.5}, {WindSpeed: 24, Hs: 6, Tp: 12}}
	ess := &ExtremeSeaState{Hs50: 10.9, Tp50: 15.5, Hs1: 8.2, Tp1: 13.6, WaveDir: 15}
	iea15 := Turbine{Name: "IEA 15 MW", HubHeight: 150, RotorDiameter: 240, VIn: 3, VRated: 10.59, VOut: 25}
	one := Override{Seeds: intp(1), Duration: ptr(20), Transient: ptr(5)}
	req := Request{Turbine: iea15, DLCs: []string{"1.2", "6.1", "6.2", "6.3", "6.4"}, Class: "I", Category: "B", BatchSeed: 3, Grid: smallGrid,
		SeaStates: table, ExtremeSeaState: ess, SpeedStep: 10,
		Overrides: map[string]Override{"1.2": one, "6.1": one, "6.2": one, "6.3": one, "6.4": one}}
	runs, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var parked50 Run
	for _, r := range runs {
		ss := r.SeaState
		var want SeaState
		switch r.DLC {
		case "6.1", "6.2":
			want = SeaState{Hs: 10.9, Tp: 15.5, WaveDir: 15, Kind: ExtremeSea50}
			parked50 = r
		case "6.3":
			want = SeaState{Hs: 8.2, Tp: 13.6, WaveDir: 15, Kind: ExtremeSea1}
		default:
			b := NormalSeaState(table, r.WindSpeed)
			want = SeaState{Hs: b.Hs, Tp: b.Tp, WaveDir: b.WaveDir, Kind: NormalSea}
		}
		if ss == nil || ss.Hs != want.Hs || ss.Tp != want.Tp || ss.WaveDir != want.WaveDir || ss.Kind != want.Kind {
			t.Fatalf("run %s (%s, %g m/s): sea state %+v, want %+v", r.ID, r.Wind, r.WindSpeed, ss, want)
		}
		seen[r.DLC] = true
	}
	if len(seen) != 5 {
		t.Fatalf("DLCs expanded: %v", seen)
	}
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "iea15_semi_steady10_still", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	fst, err := PrepareRun(context.Background(), d, parked50, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	if ss, err := got.Offshore.SeaState.SeaState(); err != nil || ss.WaveMod != "2" || ss.WaveHs != 10.9 || ss.WaveTp != 15.5 || ss.WaveDir != 15 {
		t.Errorf("DLC %s run deck's sea state %+v (%v), want JONSWAP Hs 10.9 m, Tp 15.5 s, heading 15°", parked50.DLC, ss, err)
	}

	for _, tc := range []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"no extreme sea state", func(r *Request) { r.ExtremeSeaState = nil }, "DLC 6.1"},
		{"no 1-year sea state", func(r *Request) { e := *ess; e.Hs1, e.Tp1 = 0, 0; r.ExtremeSeaState = &e }, "DLC 6.3"},
		{"no normal table", func(r *Request) { r.SeaStates = nil }, "DLC 1.2"},
		{"1-year above 50-year", func(r *Request) { e := *ess; e.Hs1 = 12; r.ExtremeSeaState = &e }, "hs1 12 m exceeds"},
		{"hs1 without tp1", func(r *Request) { e := *ess; e.Tp1 = 0; r.ExtremeSeaState = &e }, "both given"},
		{"zero hs50", func(r *Request) { e := *ess; e.Hs50 = 0; r.ExtremeSeaState = &e }, "hs50 0 m"},
	} {
		r := req
		tc.edit(&r)
		if _, err := Expand(r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	// Only the extreme-wind DLCs: the extreme sea state alone suffices.
	r := req
	r.DLCs, r.SeaStates = []string{"6.1", "6.3"}, nil
	if _, err := Expand(r); err != nil {
		t.Errorf("6.1 and 6.3 with the extreme sea state only: %v", err)
	}
}

// On a floating platform every DLC's transient is at least
// FloatingTransient when it starts operating and FloatingParkedTransient
// when it starts parked or idling (an override still wins), and an event
// moves with it;
// a bottom-fixed or land deck keeps the table's. FloatingPlatform tells
// the semi from the monopile and the land turbine.
func TestFloatingPlatformLengthensTheTransient(t *testing.T) {
	iea15 := Turbine{Name: "IEA 15 MW", HubHeight: 150, RotorDiameter: 240, VIn: 3, VRated: 10.59, VOut: 25, RatedRotorSpeed: 7.56}
	base := Request{Turbine: iea15, DLCs: []string{"1.2", "2.3", "3.1", "4.1", "6.4"}, Class: "I", Category: "B", BatchSeed: 3,
		SeaStates: []SeaStateBin{{WindSpeed: 10, Hs: 2, Tp: 8}}}
	fixed, err := Expand(base)
	if err != nil {
		t.Fatal(err)
	}
	fl := base
	fl.FloatingPlatform, fl.LoadedPlatformStart = true, true
	floating, err := Expand(fl)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixed) != len(floating) || len(fixed) == 0 {
		t.Fatalf("%d and %d runs", len(fixed), len(floating))
	}
	seen := map[float64]bool{}
	for i, f := range fixed {
		g := floating[i]
		least := float64(FloatingTransient)
		if !operating(g.State) {
			least = FloatingParkedTransient
		}
		seen[least] = true
		if g.Transient != math.Max(f.Transient, least) || g.TMax-g.Transient != f.TMax-f.Transient {
			t.Fatalf("%s: transient %g s, run %g s on the floating platform; fixed %g s, %g s", f.ID, g.Transient, g.TMax, f.Transient, f.TMax)
		}
		if f.EventTime > 0 && g.EventTime-f.EventTime != g.Transient-f.Transient {
			t.Errorf("%s: event at %g s, fixed at %g s: it must move with the transient", f.ID, g.EventTime, f.EventTime)
		}
	}
	if !seen[FloatingTransient] || !seen[FloatingParkedTransient] {
		t.Errorf("transients checked %v: want both an operating and a parked start", seen)
	}
	// Without a loaded start (no thrust table) operating runs too keep
	// the transient of a platform starting unloaded.
	unloaded := fl
	unloaded.LoadedPlatformStart = false
	ul, err := Expand(unloaded)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fixed {
		if ul[i].Transient != math.Max(f.Transient, FloatingParkedTransient) {
			t.Fatalf("%s: transient %g s without a loaded start", ul[i].ID, ul[i].Transient)
		}
	}
	fl.Overrides = map[string]Override{"1.2": {Transient: ptr(90)}}
	over, err := Expand(fl)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range over {
		if r.DLC == "1.2" && r.Transient != 90 {
			t.Fatalf("%s: transient %g s, the override says 90 s", r.ID, r.Transient)
		}
	}
	for _, c := range []struct {
		path []string
		want bool
	}{
		{[]string{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"}, true},
		{[]string{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"}, false},
		{[]string{"reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"}, false},
	} {
		d, err := deck.Load(testshared.Path(t, c.path...))
		if err != nil {
			t.Fatal(err)
		}
		if got := FloatingPlatform(d); got != c.want {
			t.Errorf("%s: FloatingPlatform %v, want %v", c.path[len(c.path)-1], got, c.want)
		}
		if got := LoadedPlatformStart(d); got != c.want {
			t.Errorf("%s: LoadedPlatformStart %v, want %v", c.path[len(c.path)-1], got, c.want)
		}
	}
}
