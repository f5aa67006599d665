package windfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

type btsExpect struct {
	path               []string
	ny, nz, nt, nTower int
	dy, dz, dt         float64
	uRef, zHub, zBot   float64
	periodic           bool
}

// Expected headers: the reference box from its CASE.md (31×31 over 145 m,
// dt 0.05 s, 90 s periodic, 4 tower points, grid bottom 17.5 m, 12 m/s at
// 90 m); the toolbox fixtures from their TurbSim input parameters as the
// toolbox tests state them (3×3 or 3×4 grids, 100 steps of 0.05 s, 8 m/s at
// 90 m).
var btsFixtures = []btsExpect{
	{[]string{"fixtures", "openfast-io", "TurbSim_FAST.bts"}, 3, 3, 100, 0, 75, 75, 0.05, 8, 90, 15, true},
	{[]string{"fixtures", "openfast-io", "TurbSim_NoTwr.bts"}, 3, 3, 100, 3, 25, 25, 0.05, 8, 90, 65, true},
	{[]string{"fixtures", "openfast-io", "TurbSim_WithTwr.bts"}, 3, 4, 100, 4, 25, 50.0 / 3, 0.05, 8, 90, 65, true},
	{[]string{"reference-outputs", "nrel5mw_turb12_full", "wind", "NREL5MW_12mps_IECKAI_B.bts"}, 31, 31, 1800, 4, 145.0 / 30, 145.0 / 30, 0.05, 12, 90, 17.5, true},
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestReadBTSFixtures(t *testing.T) {
	for _, fx := range btsFixtures {
		t.Run(fx.path[len(fx.path)-1], func(t *testing.T) {
			ff, err := ReadBTSFile(testshared.Path(t, fx.path...))
			if err != nil {
				t.Fatal(err)
			}
			if ff.NY != fx.ny || ff.NZ != fx.nz || ff.NT != fx.nt || ff.NTower != fx.nTower || ff.Periodic != fx.periodic {
				t.Fatalf("dims %d×%d×%d tower %d periodic %v, want %d×%d×%d tower %d periodic %v", ff.NY, ff.NZ, ff.NT, ff.NTower, ff.Periodic, fx.ny, fx.nz, fx.nt, fx.nTower, fx.periodic)
			}
			const f32 = 1e-5
			if !near(ff.DY, fx.dy, f32*fx.dy) || !near(ff.DZ, fx.dz, f32*fx.dz) || !near(ff.DT, fx.dt, f32) ||
				ff.URef != fx.uRef || ff.ZHub != fx.zHub || ff.GridBottom != fx.zBot {
				t.Errorf("geometry dy=%g dz=%g dt=%g U=%g zHub=%g zBot=%g", ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom)
			}
			// The grid is centred on the hub when NZ is odd.
			if ff.NZ%2 == 1 && !near(ff.Z(ff.NZ/2), ff.ZHub, 1e-3) {
				t.Errorf("middle row at %g m, hub at %g m", ff.Z(ff.NZ/2), ff.ZHub)
			}
			if !near(ff.Y(0), -ff.Y(ff.NY-1), 1e-9) {
				t.Errorf("grid not centred laterally: %g..%g", ff.Y(0), ff.Y(ff.NY-1))
			}
			// Tower point 0 is the grid's bottom centre node: TurbSim writes
			// the same simulated point twice, so the values are identical.
			if ff.NTower > 0 && ff.NY%2 == 1 {
				for it := 0; it < ff.NT; it++ {
					if ff.TowerVel(it, 0) != ff.Vel(it, 0, ff.NY/2) {
						t.Fatalf("step %d: tower top %v, grid bottom centre %v", it, ff.TowerVel(it, 0), ff.Vel(it, 0, ff.NY/2))
					}
				}
				if z := ff.TowerZ(ff.NTower - 1); z < 0 {
					t.Errorf("lowest tower point at %g m, below ground", z)
				}
			}
			// TurbSim scales the u series at the hub to the requested mean.
			if ff.NZ%2 == 1 && ff.NY%2 == 1 {
				var s float64
				for it := 0; it < ff.NT; it++ {
					s += float64(ff.Vel(it, ff.NZ/2, ff.NY/2)[0])
				}
				if mean := s / float64(ff.NT); !near(mean, ff.URef, 1e-3*ff.URef) {
					t.Errorf("hub mean u %g, URef %g", mean, ff.URef)
				}
			}
		})
	}
}

// TestRewriteBTSMatchesTurbSim re-packs TurbSim's own boxes: our slope and
// offset rule must reproduce TurbSim's int16 codes.
func TestRewriteBTSMatchesTurbSim(t *testing.T) {
	for _, fx := range btsFixtures {
		t.Run(fx.path[len(fx.path)-1], func(t *testing.T) {
			raw, err := os.ReadFile(testshared.Path(t, fx.path...))
			if err != nil {
				t.Fatal(err)
			}
			ff, err := ParseBTS(raw)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteBTS(&buf, ff); err != nil {
				t.Fatal(err)
			}
			out := buf.Bytes()
			if len(out) != len(raw) {
				t.Fatalf("rewrite is %d bytes, original %d", len(out), len(raw))
			}
			if !bytes.Equal(out[:42], raw[:42]) {
				t.Errorf("header geometry bytes differ")
			}
			hdr := btsHeaderBytes + int(int32(binary.LittleEndian.Uint32(raw[66:])))
			same, n, maxDiff := 0, 0, 0
			for i := hdr; i < len(raw); i += 2 {
				a := int(int16(binary.LittleEndian.Uint16(raw[i:])))
				b := int(int16(binary.LittleEndian.Uint16(out[i:])))
				n++
				if a == b {
					same++
				}
				maxDiff = max(maxDiff, abs(a-b))
			}
			t.Logf("%d of %d codes identical, max difference %d", same, n, maxDiff)
			if maxDiff > 1 || float64(same) < 0.999*float64(n) {
				t.Errorf("%d of %d codes identical, max difference %d", same, n, maxDiff)
			}
			back, err := ParseBTS(out)
			if err != nil {
				t.Fatal(err)
			}
			checkBTSClose(t, ff, back)
		})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkBTSClose compares two boxes within the int16 quantisation of each
// component: one code step of the component's range plus float32 rounding.
func checkBTSClose(t *testing.T, want, got *FullField) {
	t.Helper()
	if got.NY != want.NY || got.NZ != want.NZ || got.NT != want.NT || got.NTower != want.NTower || got.Periodic != want.Periodic || got.Description != want.Description {
		t.Fatalf("header changed")
	}
	var lo, hi [3]float64
	for c := range lo {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	for _, vals := range [][]float32{want.Grid, want.Tower} {
		for i, v := range vals {
			lo[i%3], hi[i%3] = min(lo[i%3], float64(v)), max(hi[i%3], float64(v))
		}
	}
	for _, pair := range [][2][]float32{{want.Grid, got.Grid}, {want.Tower, got.Tower}} {
		for i := range pair[0] {
			c := i % 3
			tol := 0.5*(hi[c]-lo[c])/65535 + 4e-7*max(math.Abs(lo[c]), math.Abs(hi[c]))
			if d := math.Abs(float64(pair[0][i]) - float64(pair[1][i])); d > tol {
				t.Fatalf("value %d (component %d): %g vs %g, |d| %g > %g", i, c, pair[0][i], pair[1][i], d, tol)
			}
		}
	}
}

func TestBTSRoundTripSynthetic(t *testing.T) {
	ff := NewFullField(5, 4, 37, 2)
	ff.DY, ff.DZ, ff.DT = 10, 7.5, 0.1
	ff.URef, ff.ZHub, ff.GridBottom = 11.4, 90, 78.75
	ff.Description = "synthetic box"
	for it := 0; it < ff.NT; it++ {
		for iz := 0; iz < ff.NZ; iz++ {
			for iy := 0; iy < ff.NY; iy++ {
				k := ff.GridIndex(it, iz, iy, 0)
				ff.Grid[k] = float32(11.4 + 2*math.Sin(0.3*float64(it)+float64(iy)))
				ff.Grid[k+1] = float32(0.5 * math.Cos(0.2*float64(it*iz)))
				ff.Grid[k+2] = -0.25
			}
		}
		for i := 0; i < ff.NTower; i++ {
			k := ff.TowerIndex(it, i, 0)
			ff.Tower[k], ff.Tower[k+1], ff.Tower[k+2] = float32(9-float64(i)), 0.1, -0.25
		}
	}
	for _, periodic := range []bool{false, true} {
		ff.Periodic = periodic
		var buf bytes.Buffer
		if err := WriteBTS(&buf, ff); err != nil {
			t.Fatal(err)
		}
		// Size from the format table: 70-byte header, description, then
		// 2 bytes × 3 components × (grid + tower points) per step.
		if want := 70 + len(ff.Description) + 2*3*(5*4+2)*37; buf.Len() != want {
			t.Fatalf("file is %d bytes, want %d", buf.Len(), want)
		}
		if id := int16(binary.LittleEndian.Uint16(buf.Bytes())); (id == 8) != periodic {
			t.Fatalf("FileID %d for periodic=%v", id, periodic)
		}
		back, err := ParseBTS(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		checkBTSClose(t, ff, back)
		// A constant component (w here) survives exactly with slope 1.
		if back.Grid[2] != -0.25 {
			t.Errorf("constant component read back as %g", back.Grid[2])
		}
	}
	if d := ff.Duration(); d != 37*0.1 {
		t.Errorf("periodic duration %g", d)
	}
}

func TestParseBTSRejectsCorrupt(t *testing.T) {
	ff := NewFullField(3, 3, 4, 1)
	ff.DY, ff.DZ, ff.DT, ff.URef, ff.ZHub, ff.GridBottom = 1, 1, 0.1, 8, 10, 9
	var buf bytes.Buffer
	if err := WriteBTS(&buf, ff); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for _, n := range []int{0, 10, 69, 71, len(good) - 1} {
		if _, err := ParseBTS(good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[14:], 1<<30)
	if _, err := ParseBTS(bad); err == nil {
		t.Error("huge NT accepted")
	}
	bad = append([]byte(nil), good...)
	binary.LittleEndian.PutUint16(bad, 9)
	if _, err := ParseBTS(bad); err == nil {
		t.Error("FileID 9 accepted")
	}
}

// TestEveryBTSFixtureReads globs the shared fixtures so boxes added later
// are covered too.
func TestEveryBTSFixtureReads(t *testing.T) {
	dir := testshared.Path(t, "fixtures", "openfast-io")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.bts"))
	if len(paths) == 0 {
		t.Fatal("no .bts fixtures")
	}
	for _, p := range paths {
		ff, err := ReadBTSFile(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if err := ff.Validate(); err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
}
