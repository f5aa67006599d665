package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// countsByRange sums the counts per range.
func countsByRange(cs []Cycle) map[float64]float64 {
	m := map[float64]float64{}
	for _, c := range cs {
		m[c.Range] += c.Count
	}
	return m
}

// ASTM E1049-85 (2011) Fig. 6 example: load history
// A=−2, B=1, C=−3, D=5, E=−1, F=3, G=−4, H=4, I=−2. The standard's table of
// rainflow counts (§5.4.4 example) is
//
//	range 3: 0.5, range 4: 1.5, range 6: 0.5, range 8: 1.0, range 9: 0.5
//
// (ranges 1, 2, 5, 7, 10: 0). The history is fed with intermediate points
// on each excursion so the turning-point extraction is exercised too.
func TestRainflowASTME1049Example(t *testing.T) {
	peaks := []float64{-2, 1, -3, 5, -1, 3, -4, 4, -2}
	var y []float64
	for i := 0; i+1 < len(peaks); i++ {
		a, b := peaks[i], peaks[i+1]
		for s := 0; s < 4; s++ { // a, then 3 points strictly between a and b
			y = append(y, a+(b-a)*float64(s)/4)
		}
	}
	y = append(y, peaks[len(peaks)-1])
	tp, err := TurningPoints(y)
	if err != nil {
		t.Fatal(err)
	}
	if !equalSlices(tp, peaks) {
		t.Fatalf("turning points %v, want %v", tp, peaks)
	}
	cs, err := Rainflow(y)
	if err != nil {
		t.Fatal(err)
	}
	got := countsByRange(cs)
	want := map[float64]float64{3: 0.5, 4: 1.5, 6: 0.5, 8: 1.0, 9: 0.5}
	if len(got) != len(want) {
		t.Fatalf("counts %v, want %v", got, want)
	}
	for r, n := range want {
		if got[r] != n {
			t.Errorf("range %v: count %v, want %v (all: %v)", r, got[r], n, got)
		}
	}
	// Each counted cycle is identified by its range and mean, which fix its
	// two points: half cycles A–B, B–C, C–D, D–G; full cycle E–F; residue
	// G–H and H–I as halves.
	means := map[[2]float64]bool{}
	for _, c := range cs {
		means[[2]float64{c.Range, c.Mean}] = true
	}
	for _, rm := range [][2]float64{
		{3, -0.5}, // A–B
		{4, -1},   // B–C
		{4, 1},    // E–F full cycle
		{8, 1},    // C–D
		{9, 0.5},  // D–G
		{8, 0},    // G–H
		{6, 1},    // H–I
	} {
		if !means[rm] {
			t.Errorf("missing cycle with range %v and mean %v; got %+v", rm[0], rm[1], cs)
		}
	}
}

// Invariant of every rainflow count: each full cycle uses two of the ranges
// between consecutive turning points and each half cycle one, so
// Σ 2·count = (turning points − 1); and no range exceeds max − min.
func TestRainflowInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 20; trial++ {
		n := 10 + rng.IntN(3000)
		y := make([]float64, n)
		for i := range y {
			y[i] = math.Round(rng.NormFloat64() * 10) // ties exercise plateaus and X == Y
		}
		tp, err := TurningPoints(y)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Rainflow(y)
		if err != nil {
			t.Fatal(err)
		}
		total := 0.0
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range y {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		for _, c := range cs {
			total += 2 * c.Count
			if c.Range > hi-lo || c.Range < 0 {
				t.Fatalf("cycle range %v outside [0, %v]", c.Range, hi-lo)
			}
		}
		if int(total) != len(tp)-1 {
			t.Fatalf("trial %d: Σ2·count = %v, turning points − 1 = %d", trial, total, len(tp)-1)
		}
		// The largest range max − min is always counted (at least as a half).
		found := false
		for _, c := range cs {
			if c.Range == hi-lo {
				found = true
			}
		}
		if !found {
			t.Fatalf("trial %d: overall range %v not counted", trial, hi-lo)
		}
	}
}

// Independent check: a history of K identical inner loops riding on one big
// excursion, 0 → 10 → (4 → 8)×K → 0 … here turning points 0, 10, 4, 8, 4, 8,
// …, 4, 0. Hand count: each 4→8 reversal pair closes a full cycle of range 4
// except where the start point rules intervene; the big 0–10 range is a
// half cycle at the start and 10 → 0 in the residue.
func TestRainflowNestedLoopsHand(t *testing.T) {
	y := []float64{0, 10}
	for k := 0; k < 5; k++ {
		y = append(y, 4, 8)
	}
	y = append(y, 0)
	cs, err := Rainflow(y)
	if err != nil {
		t.Fatal(err)
	}
	// Points: 0,10,4,8,4,8,4,8,4,8,4,8,0 (13 turning points, 12 ranges).
	// Step through: [0,10,4]: X=6<Y=10 keep. [0,10,4,8]: X=4<6. [..,8,4]: X=4
	// ≥ Y=4 and Y=(4,8) does not hold S → full cycle 4 (mean 6); stack
	// [0,10,4]. Repeats 4 times for the 4 remaining (8,4) pairs, leaving
	// [0,10,4,8] before the final 0: X=8 ≥ Y=4 → full cycle (4,8) again, stack
	// [0,10,0]; X=10 ≥ Y=10 and Y holds S → half cycle 10 (mean 5), S moves to
	// 10; end: residue 10→0 half cycle 10.
	got := countsByRange(cs)
	if got[4] != 5 || got[10] != 1 || len(got) != 2 {
		t.Errorf("counts %v, want range 4: 5 full, range 10: 2 halves", got)
	}
}

func TestTurningPointsPlateausAndEnds(t *testing.T) {
	y := []float64{1, 1, 2, 2, 2, 3, 3, 1, 1, 0, 0, 0, 4, 4}
	tp, err := TurningPoints(y)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 3, 0, 4}
	if !equalSlices(tp, want) {
		t.Errorf("turning points %v, want %v", tp, want)
	}
	tp, _ = TurningPoints([]float64{5, 5, 5})
	if !equalSlices(tp, []float64{5}) {
		t.Errorf("constant: %v", tp)
	}
	cs, _ := Rainflow([]float64{5, 5, 5})
	if len(cs) != 0 {
		t.Errorf("constant signal gave cycles %v", cs)
	}
	if _, err := Rainflow([]float64{1, math.NaN()}); err == nil {
		t.Error("NaN: no error")
	}
}
