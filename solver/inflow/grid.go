package inflow

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

// Grid is a full-field turbulence box (TurbSim .bts or a Bladed-style box
// converted to the same layout) propagated with Taylor's frozen turbulence
// (InflowWind IfW_FlowField Grid3D): a point at wind-frame position x is
// looked up at box time t + (InitXPosition - x)/URef, and interpolated
// trilinearly in (y, z, t).
type Grid struct {
	Orientation
	// Box is the box's geometry; its velocities come from steps (the box
	// itself when it is held in memory, a BTSStream reading the file as
	// the run advances otherwise).
	Box   *windfile.FullField
	steps StepSource
	// mu serialises streamed reads: a stream's buffers are shared.
	mu       sync.Mutex
	streamed bool
	// BoxExceedAllow holds the edge values for points outside the grid
	// instead of failing (InflowWind BoxExceedAllow).
	BoxExceedAllow bool
	// XOffset shifts the box along the propagation direction (m).
	XOffset float64
}

// BoxStream is a box read from disk as the run advances
// (windfile.BTSStream, windfile.BladedStream): its geometry, its steps and
// the file it holds open.
type BoxStream interface {
	StepSource
	Geometry() *windfile.FullField
	io.Closer
}

// StepSource gives the velocities of one time step of a box: grid in the
// .bts order ((iz*NY + iy)*3 + c), tower (i*3 + c). Both windfile.FullField
// (in memory) and windfile.BTSStream (from disk) are step sources.
type StepSource interface {
	Step(it int) (grid, tower []float32, err error)
}

// NewGrid validates the box and returns the field. The reference height is
// the box's hub height unless o.RefHt is set.
func NewGrid(box *windfile.FullField, o Orientation) (*Grid, error) {
	if box == nil {
		return nil, errors.New("inflow: nil wind box")
	}
	if err := box.Validate(); err != nil {
		return nil, fmt.Errorf("inflow: wind box: %w", err)
	}
	return newGrid(box, box, o)
}

// NewStreamedGrid returns the field of a box read from disk as the run
// advances (windfile.OpenBTSStream, windfile.OpenBladedStream): the
// velocities are the ones NewGrid of the same file read whole gives, bit
// for bit, with the memory of the stream's few blocks of time steps
// instead of the whole box. Close releases the stream.
func NewStreamedGrid(s BoxStream, o Orientation) (*Grid, error) {
	if s == nil || s.Geometry() == nil {
		return nil, errors.New("inflow: nil wind stream")
	}
	g, err := newGrid(s.Geometry(), s, o)
	if err != nil {
		return nil, err
	}
	g.streamed = true
	return g, nil
}

// Close releases a streamed box's file (nothing for a box in memory).
func (g *Grid) Close() error {
	if c, ok := g.steps.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func newGrid(box *windfile.FullField, steps StepSource, o Orientation) (*Grid, error) {
	if box.NT < 2 && !box.Periodic {
		return nil, fmt.Errorf("inflow: wind box has %d time steps, need 2", box.NT)
	}
	if !(box.URef > 0) || !(box.DT > 0) || !(box.DZ > 0) || (box.NY > 1 && !(box.DY > 0)) {
		return nil, fmt.Errorf("inflow: wind box URef=%g DT=%g DY=%g DZ=%g invalid", box.URef, box.DT, box.DY, box.DZ)
	}
	if o.RefHt == 0 {
		o.RefHt = box.ZHub
	}
	return &Grid{Orientation: o, Box: box, steps: steps}, nil
}

// ErrOutsideBox reports a point outside the wind box.
var ErrOutsideBox = errors.New("point outside the full-field wind box")

// Velocity implements Field.
func (g *Grid) Velocity(t float64, p Vec3) (Vec3, error) {
	if g.streamed {
		g.mu.Lock()
		defer g.mu.Unlock()
	}
	return g.velocity(t, p)
}

// velocity is Velocity with a stream's lock held.
func (g *Grid) velocity(t float64, p Vec3) (Vec3, error) {
	if !finite(t) || !finite(p[0]) || !finite(p[1]) || !finite(p[2]) {
		return Vec3{}, fmt.Errorf("inflow: non-finite time %g or point %v", t, p)
	}
	pw := g.toWind(p)
	if pw[2] <= 0 {
		return Vec3{}, nil
	}
	b := g.Box
	// Taylor's frozen turbulence: the box moves downwind at URef.
	tb := t + (b.InitXPosition()-(pw[0]-g.XOffset))/b.URef
	ft := tb / b.DT
	nt := b.NT
	var it0, it1 int
	var wt float64
	if b.Periodic {
		ft = math.Mod(ft, float64(nt))
		if ft < 0 {
			ft += float64(nt)
		}
		it0 = int(ft)
		if it0 >= nt {
			it0 = nt - 1
		}
		wt = ft - float64(it0)
		it1 = (it0 + 1) % nt
	} else {
		if ft < 0 || ft > float64(nt-1) {
			if !g.BoxExceedAllow {
				return Vec3{}, fmt.Errorf("%w: time %.4g s maps to box time %.4g s outside [0, %.4g]", ErrOutsideBox, t, tb, float64(nt-1)*b.DT)
			}
			ft = math.Max(0, math.Min(ft, float64(nt-1)))
		}
		it0 = int(ft)
		if it0 >= nt-1 {
			it0 = nt - 2
		}
		wt = ft - float64(it0)
		it1 = it0 + 1
	}
	hw := b.HalfWidth()
	fy := 0.0
	if b.NY > 1 {
		fy = (pw[1] + hw) / b.DY
	}
	fz := (pw[2] - b.GridBottom) / b.DZ
	top := float64(b.NZ - 1)
	if fy < 0 || fy > float64(b.NY-1) || fz > top {
		if !g.BoxExceedAllow {
			return Vec3{}, fmt.Errorf("%w: y=%.4g z=%.4g m (grid y in ±%.4g, z in [%.4g, %.4g])", ErrOutsideBox, pw[1], pw[2], hw, b.GridBottom, b.GridBottom+top*b.DZ)
		}
		fy = math.Max(0, math.Min(fy, float64(b.NY-1)))
		fz = math.Min(fz, top)
	}
	// Step it0 is fetched first and used right after it1: a stream keeps
	// the block it just used, so both stay valid here.
	var s0, s1 boxStep
	var err error
	if s0.grid, s0.tower, err = g.steps.Step(it0); err != nil {
		return Vec3{}, fmt.Errorf("inflow: wind box: %w", err)
	}
	if s1.grid, s1.tower, err = g.steps.Step(it1); err != nil {
		return Vec3{}, fmt.Errorf("inflow: wind box: %w", err)
	}
	var v Vec3
	if fz >= 0 {
		v = g.gridVel(&s0, &s1, wt, fy, fz)
	} else {
		v = g.belowGrid(&s0, &s1, wt, fy, pw[2])
	}
	return g.toGlobal(v), nil
}

// boxStep is one time step of the box (StepSource.Step).
type boxStep struct{ grid, tower []float32 }

// gridVel interpolates trilinearly between the 8 surrounding grid values.
func (g *Grid) gridVel(s0, s1 *boxStep, wt, fy, fz float64) Vec3 {
	b := g.Box
	iy0, wy := cell(fy, b.NY)
	iz0, wz := cell(fz, b.NZ)
	iy1, iz1 := min(iy0+1, b.NY-1), min(iz0+1, b.NZ-1)
	var v Vec3
	for c := 0; c < 3; c++ {
		bil := func(s *boxStep) float64 {
			at := func(iz, iy int) float64 { return float64(s.grid[(iz*b.NY+iy)*3+c]) }
			lo := at(iz0, iy0) + wy*(at(iz0, iy1)-at(iz0, iy0))
			hi := at(iz1, iy0) + wy*(at(iz1, iy1)-at(iz1, iy0))
			return lo + wz*(hi-lo)
		}
		a0 := bil(s0)
		v[c] = a0 + wt*(bil(s1)-a0)
	}
	return v
}

// belowGrid handles points under the lowest grid row: with tower points,
// InflowWind interpolates along them in z and t (no y dependence); below the
// last tower point, or without tower points, the velocity goes linearly to
// zero at the ground.
func (g *Grid) belowGrid(s0, s1 *boxStep, wt, fy, z float64) Vec3 {
	b := g.Box
	vt := func(s *boxStep, i int) Vec3 {
		w := s.tower[3*i : 3*i+3]
		return Vec3{float64(w[0]), float64(w[1]), float64(w[2])}
	}
	lerp := func(a, c Vec3, w float64) Vec3 {
		return Vec3{a[0] + w*(c[0]-a[0]), a[1] + w*(c[1]-a[1]), a[2] + w*(c[2]-a[2])}
	}
	if b.NTower > 0 {
		// Tower point i at TowerZ(i), descending.
		for i := 0; i+1 < b.NTower; i++ {
			zHi, zLo := b.TowerZ(i), b.TowerZ(i+1)
			if z <= zHi && z >= zLo {
				w := (zHi - z) / (zHi - zLo)
				hi := lerp(vt(s0, i), vt(s1, i), wt)
				lo := lerp(vt(s0, i+1), vt(s1, i+1), wt)
				return lerp(hi, lo, w)
			}
		}
		last := b.NTower - 1
		zl := b.TowerZ(last)
		if z > zl { // between the grid bottom and the first tower point
			top := g.gridVel(s0, s1, wt, fy, 0)
			first := lerp(vt(s0, 0), vt(s1, 0), wt)
			z0 := b.TowerZ(0)
			if b.GridBottom > z0 {
				return lerp(top, first, (b.GridBottom-z)/(b.GridBottom-z0))
			}
			return first
		}
		v := lerp(vt(s0, last), vt(s1, last), wt)
		return lerp(Vec3{}, v, z/zl)
	}
	v := g.gridVel(s0, s1, wt, fy, 0)
	return lerp(Vec3{}, v, z/b.GridBottom)
}

func cell(f float64, n int) (int, float64) {
	if n <= 1 {
		return 0, 0
	}
	i := int(f)
	if i >= n-1 {
		i = n - 2
	}
	if i < 0 {
		i = 0
	}
	return i, f - float64(i)
}

// Velocities implements Field.
func (g *Grid) Velocities(t float64, pts []Vec3, out []Vec3) error {
	if len(out) != len(pts) {
		return fmt.Errorf("inflow: %d output slots for %d points", len(out), len(pts))
	}
	if g.streamed {
		g.mu.Lock()
		defer g.mu.Unlock()
	}
	for i, p := range pts {
		v, err := g.velocity(t, p)
		if err != nil {
			return fmt.Errorf("inflow: point %d: %w", i, err)
		}
		out[i] = v
	}
	return nil
}
