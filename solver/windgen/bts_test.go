package windgen

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

func TestBTSRoundTrip(t *testing.T) {
	spec := validationSpec(3)
	spec.Duration = 20
	spec.Grid = GridSpec{NY: 6, NZ: 5, Width: 50, Height: 40, HubHeight: 30, TowerPoints: true}
	ff, err := GenerateTurbulence(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ff.WriteBTS(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := windfile.ParseBTS(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got.NY != 6 || got.NZ != 5 || got.NT != ff.NT || got.NTower != len(ff.TowerZ) || !got.Periodic {
		t.Fatalf("header NY %d NZ %d NT %d NTower %d periodic %v", got.NY, got.NZ, got.NT, got.NTower, got.Periodic)
	}
	// Grid bottom 10 m, dz 10 m: tower points at 10 and 0+ → only 10 m.
	near(t, "grid bottom", got.GridBottom, 10, 1e-5)
	near(t, "tower top", got.TowerZ(0), 10, 1e-5)
	near(t, "URef", got.URef, 12, 1e-5)
	// int16 packing: error at most half a step of each component's range.
	for c := range 3 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range ff.Grid[c] {
			lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
		}
		for _, v := range ff.Tower[c] {
			lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
		}
		tol := (hi-lo)/65535*0.5 + 1e-5*math.Max(math.Abs(lo), math.Abs(hi))
		for _, pt := range [][2]int{{0, 0}, {5, 4}, {2, 3}} {
			src := ff.GridSeries(c, pt[0], pt[1])
			for it := 0; it < ff.NT; it += 7 {
				v := got.Vel(it, pt[1], pt[0])[c]
				if math.Abs(float64(v-src[it])) > tol {
					t.Fatalf("component %d point %v step %d: %g vs %g", c, pt, it, v, src[it])
				}
			}
		}
		for it := 0; it < ff.NT; it += 7 {
			v := got.TowerVel(it, 0)[c]
			if math.Abs(float64(v-ff.Tower[c][it])) > tol {
				t.Fatalf("tower component %d step %d: %g vs %g", c, it, v, ff.Tower[c][it])
			}
		}
	}
}

// A box generated straight into its file, one component at a time, is byte
// for byte the file of the box generated whole: hub on the grid or off it,
// tower points, every scale mode; a cancelled generation leaves no file.
func TestGenerateTurbulenceFileMatchesWholeBox(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		grid  GridSpec
		scale ScaleMode
	}{
		{GridSpec{NY: 7, NZ: 7, Width: 60, Height: 60, HubHeight: 40, TowerPoints: true}, ScaleNone},
		{GridSpec{NY: 6, NZ: 5, Width: 50, Height: 40, HubHeight: 30, TowerPoints: true}, ScaleHub},
		{GridSpec{NY: 5, NZ: 4, Width: 40, Height: 30, HubHeight: 30}, ScaleIndividual},
	} {
		spec := validationSpec(uint64(11 + i))
		spec.Duration = 30
		spec.Grid, spec.Scale = tc.grid, tc.scale
		ff, err := GenerateTurbulence(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(dir, "whole.bts")
		if err := ff.WriteBTSFile(want); err != nil {
			t.Fatal(err)
		}
		got := filepath.Join(dir, "streamed.bts")
		if err := GenerateTurbulenceFile(context.Background(), spec, got); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(want)
		b, _ := os.ReadFile(got)
		if !bytes.Equal(a, b) {
			t.Fatalf("case %d: the file generated a component at a time (%d bytes) differs from the whole box's (%d bytes)", i, len(b), len(a))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := filepath.Join(dir, "cancelled.bts")
	if err := GenerateTurbulenceFile(ctx, validationSpec(1), p); err == nil {
		t.Fatal("cancelled generation: no error")
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*cancelled*"))
	if len(left) != 0 {
		t.Errorf("cancelled generation left %v", left)
	}
}
