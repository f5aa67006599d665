package batches_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/assets/turbines"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
)

// The production-fault DLCs run in the solver with the fault they name, on
// the bundled NREL 5 MW with its baseline pitch controller (the recipes
// the workers apply, RunRecipe.Prepare): after the event at 10 s,
//   - 2.1 (grid loss): the generator is off and all three blades pitch to
//     feather at 8°/s;
//   - 2.2b (stuck blade): the same, except blade 1, which keeps the pitch
//     it had at the event while the controller would move it;
//   - 2.4 (yaw error): production goes on at ±20° misalignment, no
//     manoeuvre.
func TestProductionFaultDLCsRunTheirFault(t *testing.T) {
	if testing.Short() {
		t.Skip("three 20-s simulations")
	}
	base, tb, key := bundledNRELForDLC(t)
	one, zero, window := 1, 0.0, 20.0
	ov := dlc.Override{Speeds: []float64{16}, Seeds: &one, Yaw: []float64{0}, Duration: &window, Transient: &zero}
	ov24 := ov
	ov24.Yaw = []float64{20}
	runs, err := dlc.Expand(dlc.Request{Turbine: key, DLCs: []string{"2.1", "2.2b", "2.4"}, Class: "I", Category: "B", BatchSeed: 3,
		Overrides: map[string]dlc.Override{"2.1": ov, "2.2b": ov, "2.4": ov24}, Grid: dlc.GridOptions{Points: 7, Dt: 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	const event = 10.0
	for _, run := range runs {
		t.Run(run.DLC, func(t *testing.T) {
			if run.DLC != "2.4" && run.EventTime != event {
				t.Fatalf("event at %g s, want %g", run.EventTime, event)
			}
			out := t.TempDir()
			recipe := batches.RunRecipe{Run: run}
			fst, _, err := recipe.Prepare(context.Background(), base, *tb.MainFile, out)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runDeckFile(context.Background(), filepath.Join(out, filepath.FromSlash(fst)), coupling.Options{OutPath: "-", KeepData: true,
				Channels: []string{"BldPitch1", "BldPitch2", "BldPitch3", "GenPwr", "RotSpeed"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			col := func(name string) []float64 {
				for i, ch := range res.Channels {
					if ch.Name == name {
						return res.Data[i]
					}
				}
				t.Fatalf("no %s in %v", name, res.Channels)
				return nil
			}
			at := func(x []float64, tm float64) float64 {
				k := 0
				for k < len(res.Time)-1 && res.Time[k] < tm {
					k++
				}
				return x[k]
			}
			p1, p2, p3, pwr := col("BldPitch1"), col("BldPitch2"), col("BldPitch3"), col("GenPwr")
			end := res.Time[len(res.Time)-1]
			t.Logf("%s: pitch at event %.2f/%.2f/%.2f°, at end %.2f/%.2f/%.2f°; power before %.0f kW, at end %.0f kW, rotor %.2f rpm",
				run.ID, at(p1, event), at(p2, event), at(p3, event), at(p1, end), at(p2, end), at(p3, end), at(pwr, event-0.5), at(pwr, end), at(col("RotSpeed"), end))
			if at(pwr, event-0.5) < 1000 {
				t.Fatalf("the turbine is not producing before the event (%.0f kW)", at(pwr, event-0.5))
			}
			switch run.DLC {
			case "2.1", "2.2b":
				if at(pwr, event+0.5) != 0 || at(pwr, end) != 0 {
					t.Errorf("power after the event %.0f kW, at the end %.0f kW: want the generator off", at(pwr, event+0.5), at(pwr, end))
				}
				for k, p := range [][]float64{p2, p3} {
					// 8°/s from the pitch at the event: feathered after
					// (90 − pitch)/8 s, well before the end.
					if math.Abs(at(p, end)-90) > 0.5 {
						t.Errorf("blade %d at %.2f° at the end, want feathered (90°)", k+2, at(p, end))
					}
					if rate := (at(p, event+2) - at(p, event)) / 2; math.Abs(rate-dlc.EmergencyPitchRate) > 1 {
						t.Errorf("blade %d pitches at %.2f°/s, want %g°/s", k+2, rate, dlc.EmergencyPitchRate)
					}
				}
				held := math.Abs(at(p1, end) - at(p1, event))
				if run.DLC == "2.2b" && held > 0.05 {
					t.Errorf("stuck blade 1 moved %.3f° after the event", held)
				}
				if run.DLC == "2.1" && math.Abs(at(p1, end)-90) > 0.5 {
					t.Errorf("blade 1 at %.2f° at the end, want feathered", at(p1, end))
				}
			case "2.4":
				rd, err := deck.Load(filepath.Join(out, filepath.FromSlash(fst)))
				if err != nil || rd.InflowWind.PropagationDir != 20 || rd.ServoDyn.TPitManS[0] < res.Time[len(res.Time)-1] {
					t.Fatalf("2.4 deck: %v; want the wind turned 20° and no pitch manoeuvre", err)
				}
				if at(pwr, end) < 1000 || at(p1, end) > 60 {
					t.Errorf("at the end %.0f kW, pitch %.2f°: want production to go on", at(pwr, end), at(p1, end))
				}
			}
		})
	}
}

// Parked and start-up DLCs on the bundled NREL 5 MW: a parked rotor (6.4
// at 12 m/s, and 6.1 at the table's 50-year extreme wind, where the
// feathered, idling rotor once made the BEMT and UA_Mod 3 diverge in the
// first steps) keeps its blades feathered for the whole
// run and makes no power; a
// start-up (3.1) idles feathered until the generator comes on at 10 s,
// then the baseline controller pitches the blades in and the rotor
// speeds up.
func TestParkedAndStartUpDLCsKeepFeatherUntilTheirEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("two simulations")
	}
	base, tb, key := bundledNRELForDLC(t)
	one, zero, parkedWindow, extremeWindow, startWindow := 1, 0.0, 20.0, 10.0, 30.0
	runs, err := dlc.Expand(dlc.Request{Turbine: key, DLCs: []string{"6.4", "6.1", "3.1"}, Class: "I", Category: "B", BatchSeed: 5,
		Overrides: map[string]dlc.Override{
			"6.4": {Speeds: []float64{12}, Seeds: &one, Yaw: []float64{0}, Duration: &parkedWindow, Transient: &zero},
			"6.1": {Seeds: &one, Yaw: []float64{0}, Duration: &extremeWindow, Transient: &zero},
			"3.1": {Speeds: []float64{12}, Duration: &startWindow, Transient: &zero}},
		Grid: dlc.GridOptions{Points: 7, Dt: 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	for _, run := range runs {
		t.Run(run.DLC, func(t *testing.T) {
			out := t.TempDir()
			recipe := batches.RunRecipe{Run: run}
			fst, _, err := recipe.Prepare(context.Background(), base, *tb.MainFile, out)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runDeckFile(context.Background(), filepath.Join(out, filepath.FromSlash(fst)), coupling.Options{OutPath: "-", KeepData: true,
				Channels: []string{"BldPitch1", "GenPwr", "RotSpeed"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			col := map[string][]float64{}
			for i, ch := range res.Channels {
				col[ch.Name] = res.Data[i]
			}
			pitch, pwr, rpm := col["BldPitch1"], col["GenPwr"], col["RotSpeed"]
			end := len(res.Time) - 1
			minPitch := 90.0
			before := 0 // last row before the event
			for k, tm := range res.Time {
				if run.DLC != "3.1" || tm < run.EventTime {
					minPitch = math.Min(minPitch, pitch[k])
					before = k
				}
			}
			t.Logf("%s: lowest pitch before the event %.2f°, at the end %.2f°, %.0f kW, %.2f rpm", run.ID, minPitch, pitch[end], pwr[end], rpm[end])
			if minPitch < 89.9 {
				t.Errorf("blades left feather (%.2f°) while parked or before the start-up", minPitch)
			}
			if pwr[before] != 0 {
				t.Errorf("power %.0f kW while parked or before the start-up", pwr[before])
			}
			if run.DLC == "3.1" && (pitch[end] > 45 || rpm[end] < rpm[before]+1) {
				t.Errorf("after the start-up: pitch %.2f°, rotor %.2f rpm (%.2f before): want the blades pitched in and the rotor speeding up",
					pitch[end], rpm[end], rpm[before])
			}
		})
	}
}

// bundledNRELForDLC writes the bundled NREL 5 MW land-based deck into a
// temporary folder and returns the folder, the turbine and its DLC key
// figures.
func bundledNRELForDLC(t *testing.T) (string, *turbinesim.Turbine, dlc.Turbine) {
	t.Helper()
	c, err := decks.NewBundledDemos(turbines.FS)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	tb, err := c.Build("nrel-5mw-land", base)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := decks.LoadRunnableDeck(base, *tb.MainFile)
	if err != nil {
		t.Fatal(err)
	}
	key, err := batches.DLCTurbine(tb, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	return base, tb, key
}

// runDeckFile loads the deck at path and runs it (coupling.Run).
func runDeckFile(ctx context.Context, path string, opts coupling.Options, progress func(simTime, tMax float64)) (*coupling.Result, error) {
	d, err := deck.Load(path)
	if err != nil {
		return nil, err
	}
	return coupling.Run(ctx, d, opts, progress)
}
