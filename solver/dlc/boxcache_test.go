package dlc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestBoxesSharedAcrossYawAndDLC: a reduced DLC 1.2 (one speed, two seeds,
// yaw −10/0/+10) and DLC 6.4 at the same speed (NTM as well) prepared with
// one BoxCache synthesise two boxes — one per (speed, seed) — and link them
// into every run; the runs still differ in yaw (PropagationDir). On main
// every yaw had its own seed, so the six DLC 1.2 runs needed six boxes.
func TestBoxesSharedAcrossYawAndDLC(t *testing.T) {
	d := load5MW(t)
	ov := Override{Speeds: []float64{12}, Seeds: intp(2), Yaw: []float64{-10, 0, 10}, Duration: ptr(10), Transient: ptr(0)}
	runs, err := Expand(Request{Turbine: nrel5MW, DLCs: []string{"1.2", "6.4"}, Class: "I", Category: "B", BatchSeed: 5, Grid: smallGrid,
		Overrides: map[string]Override{"1.2": ov, "6.4": {Speeds: []float64{12}, Seeds: intp(1), Yaw: []float64{8}, Duration: ptr(10), Transient: ptr(0)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 7 {
		t.Fatalf("%d runs, want 6 + 1", len(runs))
	}
	cache := &BoxCache{Dir: filepath.Join(t.TempDir(), "boxes")}
	boxes := map[uint64][]byte{}
	for _, r := range runs {
		fst, err := PrepareRunWith(context.Background(), d, r, t.TempDir(), PrepareOptions{Boxes: cache})
		if err != nil {
			t.Fatal(err)
		}
		got, err := deck.Load(fst)
		if err != nil {
			t.Fatal(err)
		}
		if got.InflowWind.PropagationDir != r.Yaw {
			t.Errorf("%s: PropagationDir %g, want the run's yaw", r.ID, got.InflowWind.PropagationDir)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(got.InflowWind.Meta.Path), filepath.FromSlash(got.InflowWind.FileName_BTS)))
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := boxes[r.Seed]; ok && !bytes.Equal(prev, b) {
			t.Errorf("%s: the box of seed %d differs from the one an earlier run got", r.ID, r.Seed)
		}
		boxes[r.Seed] = b
	}
	if len(boxes) != 2 || cache.Generated() != 2 || cache.Reused() != 5 {
		t.Errorf("%d distinct seeds, %d boxes generated, %d reused; want 2, 2, 5", len(boxes), cache.Generated(), cache.Reused())
	}
	// A second process on the same folder generates nothing.
	again := &BoxCache{Dir: cache.Dir}
	if _, err := PrepareRunWith(context.Background(), d, runs[0], t.TempDir(), PrepareOptions{Boxes: again}); err != nil {
		t.Fatal(err)
	}
	if again.Generated() != 0 || again.Reused() != 1 {
		t.Errorf("second cache: %d generated, %d reused", again.Generated(), again.Reused())
	}
}
