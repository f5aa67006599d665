package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDecimateEveryKth(t *testing.T) {
	rec := &Record{
		Time:     []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		Names:    []string{"A", "B"},
		Channels: [][]float64{{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
	}
	tr, err := Decimate(rec, []string{"B"}, Between(2, 8), 3)
	if err != nil {
		t.Fatal(err)
	}
	// Window holds t = 2..8 (7 samples); every 3rd from t = 2: 2, 5, 8.
	wantT := []float64{2, 5, 8}
	wantV := []float64{7, 4, 1}
	if len(tr) != 1 || tr[0].Name != "B" || !equalSlices(tr[0].Time, wantT) || !equalSlices(tr[0].Values, wantV) {
		t.Errorf("got %+v, want time %v values %v", tr, wantT, wantV)
	}
	if _, err := Decimate(rec, nil, WholeRecord(), 0); err == nil {
		t.Error("k = 0: no error")
	}
}

func equalSlices(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A sine sampled finely with a single narrow spike: decimation by 100 misses
// the spike, the envelope keeps it and the true minimum.
func TestEnvelopeKeepsPeaks(t *testing.T) {
	n := 10000
	tm := uniformTime(n, 0.01)
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Sin(2 * math.Pi * 0.37 * tm[i])
	}
	y[4321] = 25 // spike, not on the every-100th grid
	rec := &Record{Time: tm, Names: []string{"S"}, Channels: [][]float64{y}}
	dec, err := Decimate(rec, nil, WholeRecord(), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range dec[0].Values {
		if v == 25 {
			t.Fatal("decimation unexpectedly kept the spike; test premise broken")
		}
	}
	env, err := Envelope(rec, nil, WholeRecord(), 50)
	if err != nil {
		t.Fatal(err)
	}
	e := env[0]
	if len(e.Time) > 100 || len(e.Time) != len(e.Values) {
		t.Fatalf("envelope has %d points, want ≤ 100", len(e.Time))
	}
	gotMax, gotMin := math.Inf(-1), math.Inf(1)
	for i, v := range e.Values {
		gotMax, gotMin = math.Max(gotMax, v), math.Min(gotMin, v)
		if i > 0 && e.Time[i] <= e.Time[i-1] {
			t.Fatalf("envelope time not increasing at %d", i)
		}
	}
	trueMin := math.Inf(1)
	for _, v := range y {
		trueMin = math.Min(trueMin, v)
	}
	if gotMax != 25 || gotMin != trueMin {
		t.Errorf("envelope range [%v, %v], want [%v, 25]", gotMin, gotMax, trueMin)
	}
	// Each bucket of 200 samples: its own min and max must appear.
	for b := 0; b < 50; b++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := b * 200; i < (b+1)*200; i++ {
			lo, hi = math.Min(lo, y[i]), math.Max(hi, y[i])
		}
		foundLo, foundHi := false, false
		for i, v := range e.Values {
			if e.Time[i] >= tm[b*200] && e.Time[i] <= tm[(b+1)*200-1] {
				foundLo = foundLo || v == lo
				foundHi = foundHi || v == hi
			}
		}
		if !foundLo || !foundHi {
			t.Errorf("bucket %d: min %v found %v, max %v found %v", b, lo, foundLo, hi, foundHi)
		}
	}
}

func TestEnvelopeShortPassesThrough(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	y := make([]float64, 7)
	for i := range y {
		y[i] = rng.Float64()
	}
	rec := &Record{Time: uniformTime(7, 1), Names: []string{"A"}, Channels: [][]float64{y}}
	env, err := Envelope(rec, nil, WholeRecord(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if !equalSlices(env[0].Values, y) {
		t.Errorf("short signal changed: %v vs %v", env[0].Values, y)
	}
}
