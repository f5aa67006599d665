package inflow

import (
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

// Grid is a full-field turbulence box (TurbSim .bts or a Bladed-style box
// converted to the same layout) propagated with Taylor's frozen turbulence
// (InflowWind IfW_FlowField Grid3D): a point at wind-frame position x is
// looked up at box time t + (InitXPosition - x)/URef, and interpolated
// trilinearly in (y, z, t).
type Grid struct {
	Orientation
	Box *windfile.FullField
	// BoxExceedAllow holds the edge values for points outside the grid
	// instead of failing (InflowWind BoxExceedAllow).
	BoxExceedAllow bool
	// XOffset shifts the box along the propagation direction (m).
	XOffset float64
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
	if box.NT < 2 && !box.Periodic {
		return nil, fmt.Errorf("inflow: wind box has %d time steps, need 2", box.NT)
	}
	if !(box.URef > 0) || !(box.DT > 0) || !(box.DZ > 0) || (box.NY > 1 && !(box.DY > 0)) {
		return nil, fmt.Errorf("inflow: wind box URef=%g DT=%g DY=%g DZ=%g invalid", box.URef, box.DT, box.DY, box.DZ)
	}
	if o.RefHt == 0 {
		o.RefHt = box.ZHub
	}
	return &Grid{Orientation: o, Box: box}, nil
}

// ErrOutsideBox reports a point outside the wind box.
var ErrOutsideBox = errors.New("point outside the full-field wind box")

// Velocity implements Field.
func (g *Grid) Velocity(t float64, p Vec3) (Vec3, error) {
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
	var v Vec3
	if fz >= 0 {
		v = g.gridVel(it0, it1, wt, fy, fz)
	} else {
		v = g.belowGrid(it0, it1, wt, fy, pw[2])
	}
	return g.toGlobal(v), nil
}

// gridVel interpolates trilinearly between the 8 surrounding grid values.
func (g *Grid) gridVel(it0, it1 int, wt, fy, fz float64) Vec3 {
	b := g.Box
	iy0, wy := cell(fy, b.NY)
	iz0, wz := cell(fz, b.NZ)
	iy1, iz1 := min(iy0+1, b.NY-1), min(iz0+1, b.NZ-1)
	var v Vec3
	for c := 0; c < 3; c++ {
		at := func(it, iz, iy int) float64 { return float64(b.Grid[b.GridIndex(it, iz, iy, c)]) }
		bil := func(it int) float64 {
			lo := at(it, iz0, iy0) + wy*(at(it, iz0, iy1)-at(it, iz0, iy0))
			hi := at(it, iz1, iy0) + wy*(at(it, iz1, iy1)-at(it, iz1, iy0))
			return lo + wz*(hi-lo)
		}
		a0 := bil(it0)
		v[c] = a0 + wt*(bil(it1)-a0)
	}
	return v
}

// belowGrid handles points under the lowest grid row: with tower points,
// InflowWind interpolates along them in z and t (no y dependence); below the
// last tower point, or without tower points, the velocity goes linearly to
// zero at the ground.
func (g *Grid) belowGrid(it0, it1 int, wt, fy, z float64) Vec3 {
	b := g.Box
	vt := func(it, i int) Vec3 {
		w := b.TowerVel(it, i)
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
				hi := lerp(vt(it0, i), vt(it1, i), wt)
				lo := lerp(vt(it0, i+1), vt(it1, i+1), wt)
				return lerp(hi, lo, w)
			}
		}
		last := b.NTower - 1
		zl := b.TowerZ(last)
		if z > zl { // between the grid bottom and the first tower point
			top := g.gridVel(it0, it1, wt, fy, 0)
			first := lerp(vt(it0, 0), vt(it1, 0), wt)
			z0 := b.TowerZ(0)
			if b.GridBottom > z0 {
				return lerp(top, first, (b.GridBottom-z)/(b.GridBottom-z0))
			}
			return first
		}
		v := lerp(vt(it0, last), vt(it1, last), wt)
		return lerp(Vec3{}, v, z/zl)
	}
	v := g.gridVel(it0, it1, wt, fy, 0)
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
	return velocities(g, t, pts, out)
}
