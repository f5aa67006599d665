package inflow

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

func near(t *testing.T, what string, got, want Vec3, tol float64) {
	t.Helper()
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s: got %v want %v", what, got, want)
		}
	}
}

func TestSteadyShearDirectionUpflow(t *testing.T) {
	f, err := NewSteady(10, 90, 0.2, Orientation{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := f.Velocity(3, Vec3{5, -20, 45})
	near(t, "power law", v, Vec3{10 * math.Pow(0.5, 0.2), 0, 0}, 1e-12)
	if v, _ := f.Velocity(0, Vec3{0, 0, -1}); v != (Vec3{}) {
		t.Errorf("below ground: %v", v)
	}
	// 30 deg propagation: wind turned from +x towards -y.
	f2, _ := NewSteady(10, 90, 0, Orientation{PropagationDir: math.Pi / 6})
	v, _ = f2.Velocity(0, Vec3{0, 0, 90})
	near(t, "direction", v, Vec3{10 * math.Cos(math.Pi/6), -10 * math.Sin(math.Pi/6), 0}, 1e-12)
	// 8 deg upflow.
	up := 8 * math.Pi / 180
	f3, _ := NewSteady(10, 90, 0, Orientation{VFlowAng: up})
	v, _ = f3.Velocity(0, Vec3{0, 0, 90})
	near(t, "upflow", v, Vec3{10 * math.Cos(up), 0, 10 * math.Sin(up)}, 1e-12)
}

func TestUniformInterpolationAndShears(t *testing.T) {
	recs := []UniformRecord{
		{Time: 0, HorSpd: 8},
		{Time: 10, HorSpd: 12, VerSpd: 1, HorShr: 0.1, LinVShr: 0.2, GstSpd: 2},
	}
	u, err := NewUniform(recs, 100, Orientation{RefHt: 90})
	if err != nil {
		t.Fatal(err)
	}
	// t = 5: HorSpd 10, VerSpd 0.5, HorShr 0.05, LinVShr 0.1, GstSpd 1.
	// At y = 20, z = 100: V1 = 10 (1 + (0.05*20 + 0.1*10)/100) + 1 = 11.2.
	v, _ := u.Velocity(5, Vec3{0, 20, 100})
	near(t, "uniform", v, Vec3{11.2, 0, 0.5}, 1e-12)
	// Held constant outside the table.
	v, _ = u.Velocity(-5, Vec3{0, 0, 90})
	near(t, "before table", v, Vec3{8, 0, 0}, 1e-12)
	pts := []Vec3{{0, 0, 90}, {0, 20, 100}}
	out := make([]Vec3, 2)
	if err := u.Velocities(5, pts, out); err != nil {
		t.Fatal(err)
	}
	near(t, "vectorised", out[1], Vec3{11.2, 0, 0.5}, 1e-12)
	if _, err := NewUniform([]UniformRecord{{Time: 1}, {Time: 1}}, 1, Orientation{RefHt: 90}); err == nil {
		t.Error("non-increasing time accepted")
	}
}

// linearBox fills a box with u = 10 + 0.1 y + 0.05 (z - 90) + 0.3 t_box,
// v = y/10, w = -z/100, which trilinear interpolation reproduces exactly.
func linearBox(periodic bool, nTwr int) *windfile.FullField {
	b := windfile.NewFullField(5, 7, 40, nTwr)
	b.DY, b.DZ, b.DT = 10, 10, 0.5
	b.URef, b.ZHub, b.GridBottom = 10, 90, 60
	b.Periodic = periodic
	for it := 0; it < b.NT; it++ {
		for iz := 0; iz < b.NZ; iz++ {
			for iy := 0; iy < b.NY; iy++ {
				y, z, tt := b.Y(iy), b.Z(iz), b.Time(it)
				b.Grid[b.GridIndex(it, iz, iy, 0)] = float32(10 + 0.1*y + 0.05*(z-90) + 0.3*tt)
				b.Grid[b.GridIndex(it, iz, iy, 1)] = float32(y / 10)
				b.Grid[b.GridIndex(it, iz, iy, 2)] = float32(-z / 100)
			}
		}
		for i := 0; i < nTwr; i++ {
			z := b.TowerZ(i)
			b.Tower[b.TowerIndex(it, i, 0)] = float32(5 + z/10)
		}
	}
	return b
}

func TestGridTaylorAndTrilinear(t *testing.T) {
	g, err := NewGrid(linearBox(false, 0), Orientation{})
	if err != nil {
		t.Fatal(err)
	}
	// Non-periodic: InitXPosition = HalfWidth = 20 m. Point x = 5 m at t = 3 s
	// reads box time 3 + (20 - 5)/10 = 4.5 s.
	y, z := 7.3, 83.1
	v, err := g.Velocity(3, Vec3{5, y, z})
	if err != nil {
		t.Fatal(err)
	}
	want := Vec3{10 + 0.1*y + 0.05*(z-90) + 0.3*4.5, y / 10, -z / 100}
	near(t, "trilinear", v, want, 2e-5) // float32 storage
	// Below the grid without tower points: linear to zero at the ground.
	v, _ = g.Velocity(3, Vec3{5, y, 30})
	wantB := 10 + 0.1*y + 0.05*(60-90) + 0.3*4.5
	near(t, "below grid", v, Vec3{wantB / 2, y / 10 / 2, -0.6 / 2}, 2e-5)
	// Outside the box: error unless BoxExceedAllow.
	if _, err := g.Velocity(3, Vec3{0, 30, 90}); !errors.Is(err, ErrOutsideBox) {
		t.Errorf("outside in y: %v", err)
	}
	if _, err := g.Velocity(100, Vec3{0, 0, 90}); !errors.Is(err, ErrOutsideBox) {
		t.Errorf("outside in time: %v", err)
	}
	g.BoxExceedAllow = true
	if _, err := g.Velocity(3, Vec3{0, 30, 90}); err != nil {
		t.Errorf("BoxExceedAllow: %v", err)
	}
}

func TestGridPeriodicAndTower(t *testing.T) {
	b := linearBox(true, 4)
	g, err := NewGrid(b, Orientation{})
	if err != nil {
		t.Fatal(err)
	}
	// Periodic: InitXPosition 0; box time wraps modulo NT*DT = 20 s.
	v1, _ := g.Velocity(2.25, Vec3{0, 0, 90})
	v2, _ := g.Velocity(22.25, Vec3{0, 0, 90})
	near(t, "periodic wrap", v2, v1, 1e-6)
	near(t, "periodic value", v1, Vec3{10 + 0.3*2.25, 0, -0.9}, 2e-5)
	// Tower points at z = 60, 50, 40, 30 carry u = 5 + z/10: z = 45 -> 9.5.
	v, _ := g.Velocity(1, Vec3{0, 0, 45})
	if math.Abs(v[0]-9.5) > 1e-5 {
		t.Errorf("tower interpolation: %v", v)
	}
	// Below the last tower point (z = 30, u = 8): linear to zero at ground.
	v, _ = g.Velocity(1, Vec3{0, 0, 15})
	if math.Abs(v[0]-4) > 1e-5 {
		t.Errorf("below tower points: %v", v)
	}
}

func TestGridTurbSimFixture(t *testing.T) {
	p := testshared.Path(t, "fixtures", "openfast-io", "TurbSim_WithTwr.bts")
	box, err := windfile.ReadBTSFile(p)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGrid(box, Orientation{})
	if err != nil {
		t.Fatal(err)
	}
	// A point exactly on grid node (iy, iz) in the rotor plane at the time
	// that maps to box step it returns that node's stored value.
	iy, iz, it := box.NY/2, box.NZ/2, 3
	tt := box.Time(it) - box.InitXPosition()/box.URef
	v, err := g.Velocity(tt, Vec3{0, box.Y(iy), box.Z(iz)})
	if err != nil {
		t.Fatal(err)
	}
	w := box.Vel(it, iz, iy)
	near(t, "grid node", v, Vec3{float64(w[0]), float64(w[1]), float64(w[2])}, 1e-5)
	t.Logf("box %dx%dx%d, URef %.2f, node value %v", box.NY, box.NZ, box.NT, box.URef, v)
}

func TestFromDeckSteady(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	// The deck's InflowWind file: steady 10 m/s at 150 m, PLexp 0.12.
	v, _ := f.Velocity(0, Vec3{0, 0, 75})
	near(t, "IEA-15 steady wind", v, Vec3{10 * math.Pow(0.5, 0.12), 0, 0}, 1e-12)
}

func TestFromUniformFile(t *testing.T) {
	u, err := windfile.ReadUniformFile(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT", "Wind", "long_step_wind.wnd"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromUniformFile(u, 240, Orientation{RefHt: 150})
	if err != nil {
		t.Fatal(err)
	}
	// At every row time the hub-height wind equals the row's speed (the
	// file has no shears, direction or gust columns set).
	for _, r := range u.Rows {
		v, _ := f.Velocity(r.Time, Vec3{0, 0, 150})
		want := r.HorSpeed + r.GustSpeed
		if math.Abs(math.Hypot(v[0], v[1])-want) > 1e-9 || math.Abs(v[2]-r.VertSpeed) > 1e-9 {
			t.Fatalf("t=%g: %v, row %+v", r.Time, v, r)
		}
	}
	// Linear between rows: 3 m/s at 259 s, 4 m/s at 260 s.
	if v, _ := f.Velocity(259.25, Vec3{0, 0, 150}); math.Abs(v[0]-3.25) > 1e-12 {
		t.Errorf("t=259.25: %v, want 3.25 m/s", v)
	}
	t.Logf("%d rows, %.0f to %.0f s", len(u.Rows), u.Rows[0].Time, u.Rows[len(u.Rows)-1].Time)
}

func TestNonFiniteInputsAreErrors(t *testing.T) {
	g, err := NewGrid(linearBox(false, 2), Orientation{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := NewSteady(10, 90, 0.2, Orientation{})
	nan := math.NaN()
	for _, f := range []Field{g, u} {
		if _, err := f.Velocity(nan, Vec3{0, 0, 90}); err == nil {
			t.Errorf("%T: NaN time accepted", f)
		}
		if _, err := f.Velocity(1, Vec3{0, nan, 90}); err == nil {
			t.Errorf("%T: NaN point accepted", f)
		}
		if err := f.Velocities(1, []Vec3{{0, 0, 90}, {math.Inf(1), 0, 90}}, make([]Vec3, 2)); err == nil {
			t.Errorf("%T: Inf point accepted", f)
		}
	}
}

// A TurbSim box streamed from its file gives the velocities of the same
// box read whole, bit for bit, at random points (grid, tower points and
// below them, outside the grid with BoxExceedAllow) and random times,
// including times that jump back and forth across the box; on the
// reference 31 × 31 periodic box and the toolbox fixture with tower points.
func TestStreamedGridMatchesWholeBox(t *testing.T) {
	for _, path := range [][]string{
		{"reference-outputs", "nrel5mw_turb12_full", "wind", "NREL5MW_12mps_IECKAI_B.bts"},
		{"fixtures", "openfast-io", "TurbSim_WithTwr.bts"},
	} {
		p := testshared.Path(t, path...)
		box, err := windfile.ReadBTSFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o := Orientation{PropagationDir: 0.1, VFlowAng: 0.05}
		whole, err := NewGrid(box, o)
		if err != nil {
			t.Fatal(err)
		}
		s, err := windfile.OpenBTSStream(p, path[len(path)-1], windfile.StreamOptions{BlockBytes: 128 << 10, Blocks: 2})
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := NewStreamedGrid(s, o)
		if err != nil {
			t.Fatal(err)
		}
		whole.BoxExceedAllow, streamed.BoxExceedAllow = true, true
		rng := rand.New(rand.NewPCG(7, uint64(len(path))))
		span := box.Duration()
		top := box.Z(box.NZ - 1)
		pts := make([]Vec3, 100)
		for step := range 200 {
			tt := float64(step) * span / 180 // past the end too
			if step%5 == 0 {
				tt = rng.Float64() * span
			}
			for i := range pts {
				pts[i] = Vec3{40 * (rng.Float64() - 0.5), 1.2 * box.HalfWidth() * (2*rng.Float64() - 1), 1.1 * top * rng.Float64()}
			}
			sameVelocities(t, path[len(path)-1], whole, streamed, tt, pts)
		}
		if err := streamed.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// FromDeck streams a deck's TurbSim box instead of reading it whole.
func TestFromDeckStreamsTurbSimBox(t *testing.T) {
	fst, err := testshared.CaseDeck("", "nrel5mw_turb12_full")
	if err != nil {
		t.Skip(err)
	}
	d, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := f.(*Grid)
	if !ok || !g.streamed || g.Box.Grid != nil {
		t.Fatalf("FromDeck gave %T (streamed %v), want a Grid streaming its box", f, ok && g.streamed)
	}
	if _, err := g.Velocity(10, Vec3{0, 0, 90}); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameVelocities fails unless the streamed box gives the whole box's
// velocities, bit for bit, at the points at time tt.
func sameVelocities(t *testing.T, name string, whole, streamed *Grid, tt float64, pts []Vec3) {
	t.Helper()
	got, want := make([]Vec3, len(pts)), make([]Vec3, len(pts))
	if err := whole.Velocities(tt, pts, want); err != nil {
		t.Fatal(err)
	}
	if err := streamed.Velocities(tt, pts, got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: t %g, point %v: streamed %v, whole %v", name, tt, pts[i], got[i], want[i])
		}
	}
}

// A Bladed box (InflowWind WindType 4) is streamed from its files by
// FromDeck and gives the velocities of the same box read whole, bit for
// bit: at random points and times, at the grid's edges (y = ±HalfWidth,
// the bottom and top rows, below the grid), at the box's first and last
// steps and, the box being periodic, at times that wrap around its end and
// jump back. A file cut short is an error naming it as the deck does.
func TestBladedDeckStreamsTheBox(t *testing.T) {
	dir := t.TempDir()
	box := windfile.NewFullField(7, 6, 3001, 0) // 4.5 MB decoded: several stream blocks
	box.DY, box.DZ, box.DT, box.URef, box.ZHub, box.GridBottom = 8, 7, 0.05, 10, 60, 60-17.5
	box.Periodic = true
	for i := range box.Grid {
		box.Grid[i] = float32(math.Sin(0.011*float64(i)) * float64(1+i%3))
		if i%3 == 0 {
			box.Grid[i] += 10
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "Wind"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "Wind", "box")
	var wnd, sum bytes.Buffer
	if err := windfile.WriteBladed(&wnd, &sum, box); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(root+".wnd", wnd.Bytes(), 0o644)
	os.WriteFile(root+".sum", sum.Bytes(), 0o644)
	d := &deck.Deck{Path: filepath.Join(dir, "turbine.fst"),
		InflowWind: &deck.InflowWind{WindType: 4, FileNameRoot: "Wind/box"}}
	f, err := FromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	streamed, ok := f.(*Grid)
	if !ok || !streamed.streamed {
		t.Fatalf("WindType 4 field %T is not a streamed grid", f)
	}
	defer streamed.Close()
	read, _, err := windfile.ReadBladedFiles(root, false)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := NewGrid(read, streamed.Orientation)
	if err != nil {
		t.Fatal(err)
	}
	b := read
	hw, top, span := b.HalfWidth(), b.GridBottom+float64(b.NZ-1)*b.DZ, b.Duration()
	// Box time is t + (InitXPosition - x)/URef: at x = InitXPosition the
	// point sees box time t.
	x0 := b.InitXPosition()
	times := []float64{0, b.DT, span - b.DT, span - 1e-9, span, span + 0.5*b.DT, 1.5 * span, 3*span - 0.3*b.DT, 0.25 * span}
	edges := []Vec3{{x0, -hw, b.GridBottom}, {x0, hw, top}, {x0, -hw, top}, {x0, hw, b.GridBottom}, {x0, 0, b.ZHub}, {x0, 0.3, 0.5 * b.GridBottom}}
	rng := rand.New(rand.NewPCG(11, 12))
	pts := make([]Vec3, 60)
	compare := func(tt float64, pts []Vec3) {
		t.Helper()
		sameVelocities(t, "Wind/box", whole, streamed, tt, pts)
	}
	for _, tt := range times {
		compare(tt, edges)
	}
	for step := range 300 {
		tt := float64(step) * 3.3 * span / 300
		if step%4 == 0 {
			tt = rng.Float64() * 2 * span
		}
		for i := range pts {
			pts[i] = Vec3{x0 + 30*(rng.Float64()-0.5), 0.99 * hw * (2*rng.Float64() - 1), top * rng.Float64()}
		}
		compare(tt, pts)
	}
	// Outside the grid, held at its edge values.
	whole.BoxExceedAllow, streamed.BoxExceedAllow = true, true
	for step := range 50 {
		for i := range pts {
			pts[i] = Vec3{x0 + 30*(rng.Float64()-0.5), 1.3 * hw * (2*rng.Float64() - 1), 1.2 * top * rng.Float64()}
		}
		compare(float64(step)*0.7*span, pts)
	}

	// Cut short: refused at opening, naming the deck's file and no path.
	os.WriteFile(root+".wnd", wnd.Bytes()[:wnd.Len()-10], 0o644)
	_, err = FromDeck(d)
	if err == nil || !strings.Contains(err.Error(), "Wind/box.wnd") || strings.Contains(err.Error(), dir) {
		t.Errorf("truncated .wnd: error %v should name Wind/box.wnd and no server path", err)
	}
}
