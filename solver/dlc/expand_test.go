package dlc

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// nrel5MW holds the NREL 5 MW key numbers (Jonkman et al. 2009, Table 1-1:
// hub height 90 m, rotor diameter 126 m, cut-in 3, rated 11.4, cut-out
// 25 m/s, rated rotor speed 12.1 rpm).
var nrel5MW = Turbine{Name: "NREL 5MW", HubHeight: 90, RotorDiameter: 126, VIn: 3, VRated: 11.4, VOut: 25, RatedRotorSpeed: 12.1}

func intp(v int) *int { return &v }

func TestExpandReducedDLC12(t *testing.T) {
	req := Request{Turbine: nrel5MW, DLCs: []string{"1.2"}, Class: "I", Category: "B", BatchSeed: 42,
		Overrides: map[string]Override{"1.2": {Speeds: []float64{8, 12, 16}, Seeds: intp(2), Yaw: []float64{0}, Duration: ptr(60.0)}}}
	runs, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("runs = %d, want 3 speeds × 2 seeds = 6", len(runs))
	}
	wantIDs := []string{"DLC1.2_V8.0_S1_Y+0", "DLC1.2_V8.0_S2_Y+0", "DLC1.2_V12.0_S1_Y+0",
		"DLC1.2_V12.0_S2_Y+0", "DLC1.2_V16.0_S1_Y+0", "DLC1.2_V16.0_S2_Y+0"}
	seeds := map[uint64]bool{}
	var sumW float64
	for i, r := range runs {
		if r.ID != wantIDs[i] {
			t.Errorf("run %d id %q, want %q", i, r.ID, wantIDs[i])
		}
		if r.Turbulence == nil || r.Event != nil {
			t.Fatalf("%s: want a turbulence spec", r.ID)
		}
		if r.Turbulence.Seed != r.Seed || r.Seed == 0 {
			t.Errorf("%s: seed %d, spec seed %d", r.ID, r.Seed, r.Turbulence.Seed)
		}
		if seeds[r.Seed] {
			t.Errorf("%s: seed %d repeats", r.ID, r.Seed)
		}
		seeds[r.Seed] = true
		if r.TMax != 60+TurbulentTransient || r.Transient != TurbulentTransient || r.Turbulence.Duration != r.TMax {
			t.Errorf("%s: TMax %g transient %g box %g", r.ID, r.TMax, r.Transient, r.Turbulence.Duration)
		}
		if r.Analysis != Fatigue || r.Gamma != 1.0 {
			t.Errorf("%s: analysis %s γ %g", r.ID, r.Analysis, r.Gamma)
		}
		sumW += r.Weight
	}
	if math.Abs(sumW-1) > 1e-12 {
		t.Errorf("Σ weight = %g, want 1", sumW)
	}
	again, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		if again[i].Seed != runs[i].Seed || again[i].ID != runs[i].ID {
			t.Errorf("run %d differs on repeat: %s/%d vs %s/%d", i, again[i].ID, again[i].Seed, runs[i].ID, runs[i].Seed)
		}
	}
	req.BatchSeed = 43
	other, err := Expand(req)
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		if other[i].Seed == runs[i].Seed {
			t.Errorf("run %d: batch seed 43 gives the same seed as 42", i)
		}
	}
}

func ptr(v float64) *float64 { return &v }

func TestExpandFullDLC12(t *testing.T) {
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"DLC1.2"}, Class: "I", Category: "B", BatchSeed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// 3, 5, …, 25 m/s (12 bins) × 6 seeds × yaw −10/0/+10
	if len(runs) != 12*6*3 {
		t.Fatalf("runs = %d, want 216", len(runs))
	}
	// One seed per (speed, seed index), shared by the three yaw angles:
	// the yaw is the wind direction, so they share one box.
	seeds := map[uint64]bool{}
	bySpeedSeed := map[[2]float64]uint64{}
	for _, r := range runs {
		seeds[r.Seed] = true
		k := [2]float64{r.WindSpeed, float64(r.SeedIndex)}
		if s, ok := bySpeedSeed[k]; ok && s != r.Seed {
			t.Errorf("%s: seed %d, another yaw of the same speed and seed index has %d", r.ID, r.Seed, s)
		}
		bySpeedSeed[k] = r.Seed
	}
	if len(seeds) != 12*6 {
		t.Errorf("%d distinct seeds for %d runs, want 12 speeds × 6 seeds = 72", len(seeds), len(runs))
	}
	// Hand calculation of one weight: class I, V_ave = 10 m/s, Rayleigh
	// F(V) = 1 − exp(−π/4·(V/10)²); bin of 11 m/s spans 10..12 m/s, the
	// batch 2..26 m/s; 18 runs share the bin.
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/10)*(v/10)) }
	cover := F(26) - F(2)
	want := (F(12) - F(10)) / cover / 18
	for _, r := range runs {
		if r.WindSpeed == 11 {
			if math.Abs(r.Weight-want) > 1e-12 {
				t.Errorf("%s weight %.6g, want %.6g", r.ID, r.Weight, want)
			}
			if math.Abs(r.Probability-(F(12)-F(10))/18) > 1e-12 {
				t.Errorf("%s probability %.6g", r.ID, r.Probability)
			}
		}
	}
	// python-toolbox #41: DLC 1.2 from 3 to 25 m/s, 1 m/s step, 6 seeds,
	// one yaw angle = 138 runs.
	runs, err = Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2"}, Class: "I", Category: "B",
		SpeedStep: 1, Overrides: map[string]Override{"1.2": {Yaw: []float64{0}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 138 {
		t.Errorf("1 m/s step: runs = %d, want 23 × 6 = 138", len(runs))
	}
	// seeds per bin from the request
	runs, err = Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2", "1.3"}, Class: "I", Category: "B", SeedsPerBin: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*12*2*3 {
		t.Errorf("seeds per bin 2: runs = %d, want 144", len(runs))
	}
}

func TestExpandEventsAndParked(t *testing.T) {
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.4", "1.5", "6.1", "6.3", "6.4", "2.3"}, Class: "I", Category: "A"})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range runs {
		count[r.DLC]++
		switch r.DLC {
		case "1.4", "1.5", "2.3":
			if r.Event == nil || r.Turbulence != nil || r.Seed != 0 {
				t.Fatalf("%s: want an event spec", r.ID)
			}
			if r.Event.Timing.Start != EventTransient+EventDelay || r.TMax != EventTransient+EventWindow {
				t.Errorf("%s: event start %g, TMax %g", r.ID, r.Event.Timing.Start, r.TMax)
			}
		case "6.1":
			if r.WindSpeed != 50 || r.Gamma != 1.35 {
				t.Errorf("%s: V %g γ %g, want 50 (V_ref class I), 1.35", r.ID, r.WindSpeed, r.Gamma)
			}
		case "6.3":
			if r.WindSpeed != 40 {
				t.Errorf("%s: V %g, want 0.8·50", r.ID, r.WindSpeed)
			}
		case "6.4":
			if r.WindSpeed <= 25 || r.WindSpeed > 35 {
				t.Errorf("%s: V %g outside (V_out, 0.7·V_ref]", r.ID, r.WindSpeed)
			}
		}
	}
	// 1.4: V_r−2, V_r, V_r+2 × 2 directions; 1.5: 12 speeds × 4 shears;
	// 6.1: 6 seeds × 3 yaw; 6.3: 6 × 2; 6.4: 27..35 step 2 (5) × 6 × 3;
	// 2.3: V_r±2 and V_out (4).
	want := map[string]int{"1.4": 6, "1.5": 48, "6.1": 18, "6.3": 12, "6.4": 90, "2.3": 4}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("DLC %s: %d runs, want %d", k, count[k], v)
		}
	}
	if runs[0].ID != "DLC1.4_V9.4_D+_Y+0" {
		t.Errorf("first id %q", runs[0].ID)
	}
	basis := LoadBasisTable(runs)
	if len(basis) != 7 || basis[6].DLC != "total" || basis[6].Runs != len(runs) {
		t.Fatalf("basis rows %+v", basis)
	}
	if b := basis[2]; b.DLC != "6.1" || b.Seeds != 6 || len(b.Yaw) != 3 || b.SimulatedTime != 18*660 || b.AnalysedTime != 18*600 {
		t.Errorf("6.1 row %+v", b)
	}
}

func TestExpandErrors(t *testing.T) {
	base := Request{Turbine: nrel5MW, DLCs: []string{"1.2"}, Class: "I", Category: "B"}
	bad := []struct {
		name string
		mod  func(*Request)
		want string
	}{
		{"unknown dlc", func(r *Request) { r.DLCs = []string{"9.9"} }, "valid: 1.1, 1.2"},
		{"class", func(r *Request) { r.Class = "IV" }, "class"},
		{"category", func(r *Request) { r.Category = "D" }, "category"},
		{"speeds order", func(r *Request) { r.Turbine.VRated = 30 }, "V_in < V_rated < V_out"},
		{"step", func(r *Request) { r.SpeedStep = -1 }, "speed step"},
		{"override", func(r *Request) { r.Overrides = map[string]Override{"7.7": {}} }, "unknown DLC"},
		{"twice", func(r *Request) { r.DLCs = []string{"1.2", "DLC1.2"} }, "twice"},
		{"yaw", func(r *Request) { r.Overrides = map[string]Override{"1.2": {Yaw: []float64{200}}} }, "yaw"},
		{"too many", func(r *Request) { r.SpeedStep = 0.01; r.SeedsPerBin = 100 }, "more than"},
		{"table wind", func(r *Request) {
			r.Table = Standard()
			r.Table[1].Wind = "GUST"
		}, "unknown wind model"},
		{"table sign", func(r *Request) {
			r.Table = Standard()
			r.Table[3].Variants[0].Sign = 0
		}, "sign"},
	}
	for _, c := range bad {
		r := base
		c.mod(&r)
		_, err := Expand(r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestStandardTable(t *testing.T) {
	need := []string{"1.1", "1.2", "1.3", "1.4", "1.5", "2.1", "2.2b", "2.4", "6.1", "6.2", "6.3", "6.4"}
	for _, id := range need {
		d, ok := Lookup(id)
		if !ok {
			t.Fatalf("DLC %s missing", id)
		}
		if d.Duration <= 0 || d.Gamma <= 0 || d.Analysis == "" || d.State == "" {
			t.Errorf("DLC %s incomplete: %+v", id, d)
		}
		if d.Wind.Turbulent() != (d.Seeds > 0) {
			t.Errorf("DLC %s: turbulent %v with %d seeds", id, d.Wind.Turbulent(), d.Seeds)
		}
		// γ_f per class (IEC 61400-1 ed.4 Table 3)
		want := map[PSFClass]float64{PSFNormal: 1.35, PSFAbnormal: 1.1, PSFTransport: 1.5, PSFFatigue: 1.0}[d.PSF]
		if id == "1.1" {
			want = 1.25
		}
		if d.Gamma != want {
			t.Errorf("DLC %s: γ_f %g, want %g", id, d.Gamma, want)
		}
	}
}

// BenchmarkExpandAll expands every DLC of the standard table for the NREL
// 5 MW turbine at 1 m/s steps.
func BenchmarkExpandAll(b *testing.B) {
	req := Request{Turbine: nrel5MW, DLCs: IDs(), Class: "I", Category: "B", SpeedStep: 1}
	for b.Loop() {
		if _, err := Expand(req); err != nil {
			b.Fatal(err)
		}
	}
}

// Runs travel through job queues as JSON: a round trip keeps them equal.
func TestRunJSONRoundTrip(t *testing.T) {
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2", "1.4"}, Class: "II", Category: "A", BatchSeed: 9,
		Overrides: map[string]Override{"1.2": {Speeds: []float64{10}, Seeds: intp(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(runs)
	if err != nil {
		t.Fatal(err)
	}
	var back []Run
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, runs) {
		t.Errorf("JSON round trip differs:\n%+v\n%+v", back[0], runs[0])
	}
}
