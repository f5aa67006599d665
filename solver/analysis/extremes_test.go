package analysis

import (
	"math"
	"testing"
)

func extremeRuns() []ExtremeRun {
	a := &Record{
		Time:     []float64{0, 1, 2, 3, 4},
		Names:    []string{"RootMxb1", "RootMyb1", "RotSpeed"},
		Units:    []string{"(kN·m)", "(kN·m)", "(rpm)"},
		Channels: [][]float64{{900, 10, 50, 40, -30}, {1, 2, 3, 4, 5}, {11, 12, 13, 14, 15}},
	}
	b := &Record{
		Time:     []float64{0, 0.5, 1, 1.5},
		Names:    []string{"RootMxb1", "RootMyb1", "RotSpeed"},
		Units:    []string{"(kN·m)", "(kN·m)", "(rpm)"},
		Channels: [][]float64{{0, 45, -60, 20}, {7, 8, 9, 10}, {5, 6, 7, 8}},
	}
	// Run a's 900 at t = 0 is start-up transient: its window starts at 1 s.
	return []ExtremeRun{
		{ID: "dlc13_s1", DLC: "1.3", Record: a, Window: After(1)},
		{ID: "dlc21_s1", DLC: "2.1", Record: b},
	}
}

// Hand table. Characteristic only: max RootMxb1 = 50 (run a, t = 2, RootMyb1 3,
// RotSpeed 13); min = −60 (run b, t = 1, RootMyb1 9, RotSpeed 7).
func TestExtremesCharacteristic(t *testing.T) {
	ex, err := Extremes(extremeRuns(), ExtremeOptions{Channels: []string{"RootMxb1"}, Concurrent: []string{"RootMyb1", "RotSpeed"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 2 {
		t.Fatalf("%d rows, want 2", len(ex))
	}
	mx, mn := ex[0], ex[1]
	if mx.Kind != "max" || mx.Characteristic != 50 || mx.RunID != "dlc13_s1" || mx.Time != 2 || mx.Design != 50 || mx.SafetyFactor != 1 || mx.Unit != "(kN·m)" {
		t.Errorf("max row %+v", mx)
	}
	if mx.Concurrent[0].Value != 3 || mx.Concurrent[1].Value != 13 || mx.Concurrent[1].Unit != "(rpm)" {
		t.Errorf("max concurrent %+v", mx.Concurrent)
	}
	if mn.Kind != "min" || mn.Characteristic != -60 || mn.RunID != "dlc21_s1" || mn.Time != 1 || mn.Concurrent[0].Value != 9 || mn.Concurrent[1].Value != 7 {
		t.Errorf("min row %+v", mn)
	}
}

// With γ_f = 1.35 for DLC 1.3 (class N) and 1.1 for DLC 2.1 (class A):
// max design = max(1.35·50, 1.1·45) = 67.5 (run a); min design =
// min(1.35·(−30), 1.1·(−60)) = −66 (run b). Now make DLC 2.1's max govern by
// raising its factor: with γ = 1.6, 1.6·45 = 72 > 67.5, so the governing run
// changes although its characteristic value is lower.
func TestExtremesSafetyFactors(t *testing.T) {
	gN, _ := SafetyFactorForClass("N")
	gA, _ := SafetyFactorForClass("A")
	ex, err := Extremes(extremeRuns(), ExtremeOptions{Channels: []string{"RootMxb1"}, SafetyFactors: map[string]float64{"1.3": gN, "2.1": gA}})
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "design max", ex[0].Design, 67.5, 1e-15)
	approx(t, "design min", ex[1].Design, -66, 1e-15)
	if ex[0].RunID != "dlc13_s1" || ex[1].RunID != "dlc21_s1" || ex[1].SafetyFactor != 1.1 {
		t.Errorf("rows %+v", ex)
	}
	ex, err = Extremes(extremeRuns(), ExtremeOptions{Channels: []string{"RootMxb1"}, SafetyFactors: map[string]float64{"1.3": 1.35, "2.1": 1.6}})
	if err != nil {
		t.Fatal(err)
	}
	if ex[0].RunID != "dlc21_s1" || ex[0].Characteristic != 45 || math.Abs(ex[0].Design-72) > 1e-12 {
		t.Errorf("governing max with γ 1.6: %+v", ex[0])
	}
	if _, err := Extremes(extremeRuns(), ExtremeOptions{SafetyFactors: map[string]float64{"1.3": 1.35}}); err == nil {
		t.Error("missing DLC factor: no error")
	}
}

func TestWithResultant(t *testing.T) {
	runs := extremeRuns()
	rec, err := WithResultant(runs[1].Record, "RootMxy1", "(kN·m)", "RootMxb1", "RootMyb1")
	if err != nil {
		t.Fatal(err)
	}
	y, err := rec.Channel("RootMxy1")
	if err != nil {
		t.Fatal(err)
	}
	// √(45² + 8²) = √2089.
	approx(t, "resultant", y[1], math.Sqrt(2089), 1e-15)
	if len(runs[1].Record.Names) != 3 {
		t.Error("input record modified")
	}
}
