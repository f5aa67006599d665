package windgen

import (
	"fmt"
	"math"
)

// GridSpec describes the vertical y–z plane of a full-field box, the way
// TurbSim's NumGrid_Y/NumGrid_Z/GridWidth/GridHeight/HubHt inputs do: the
// grid is centred laterally on y = 0 and vertically on the hub height.
type GridSpec struct {
	NY, NZ    int     // grid points across (y) and up (z), each ≥ 2
	Width     float64 // lateral extent [m]
	Height    float64 // vertical extent [m]
	HubHeight float64 // hub height = grid centre height [m]
	// TowerPoints adds a column of points at y = 0 below the grid, spacing
	// dz, from the grid bottom down to the lowest height above ground (as
	// TurbSim does with WrADTWR = True; the .bts stores them separately).
	TowerPoints bool
}

// GridForRotor sizes a square n × n grid around a rotor: the grid spans the
// rotor diameter plus the given relative margin (0.15 gives the 145 m grid
// commonly used for the 126 m NREL 5 MW rotor). Tower points are enabled.
func GridForRotor(diameter, hubHeight float64, n int, margin float64) (GridSpec, error) {
	if !(diameter > 0) || !(hubHeight > 0) {
		return GridSpec{}, fmt.Errorf("windgen: grid for rotor: diameter %g m and hub height %g m must be positive", diameter, hubHeight)
	}
	if margin < 0 || math.IsNaN(margin) {
		return GridSpec{}, fmt.Errorf("windgen: grid for rotor: margin %g must be ≥ 0", margin)
	}
	size := diameter * (1 + margin)
	g := GridSpec{NY: n, NZ: n, Width: size, Height: size, HubHeight: hubHeight, TowerPoints: true}
	if err := g.Validate(); err != nil {
		return GridSpec{}, fmt.Errorf("windgen: grid for rotor: %w", err)
	}
	return g, nil
}

// Validate checks the grid dimensions and that it lies above the ground.
func (g GridSpec) Validate() error {
	if g.NY < 2 || g.NZ < 2 {
		return fmt.Errorf("grid: NY = %d and NZ = %d must both be ≥ 2", g.NY, g.NZ)
	}
	if g.NY*g.NZ > 1<<16 {
		return fmt.Errorf("grid: %d × %d points is more than this generator supports (65536)", g.NY, g.NZ)
	}
	if !(g.Width > 0) || !(g.Height > 0) || math.IsInf(g.Width, 0) || math.IsInf(g.Height, 0) {
		return fmt.Errorf("grid: width %g m and height %g m must be positive and finite", g.Width, g.Height)
	}
	if !(g.HubHeight > 0) || math.IsInf(g.HubHeight, 0) {
		return fmt.Errorf("grid: hub height %g m must be positive and finite", g.HubHeight)
	}
	if g.ZBottom() <= 0 {
		return fmt.Errorf("grid: bottom at %g m (hub %g m − height/2 %g m) must be above the ground", g.ZBottom(), g.HubHeight, g.Height/2)
	}
	return nil
}

// DY is the lateral grid spacing [m].
func (g GridSpec) DY() float64 { return g.Width / float64(g.NY-1) }

// DZ is the vertical grid spacing [m].
func (g GridSpec) DZ() float64 { return g.Height / float64(g.NZ-1) }

// ZBottom is the height of the lowest grid row [m].
func (g GridSpec) ZBottom() float64 { return g.HubHeight - g.Height/2 }

// Y is the lateral coordinate of column iy [m], from −Width/2.
func (g GridSpec) Y(iy int) float64 { return -g.Width/2 + float64(iy)*g.DY() }

// Z is the height of row iz [m], from the bottom.
func (g GridSpec) Z(iz int) float64 { return g.ZBottom() + float64(iz)*g.DZ() }

// TowerHeights are the heights of the tower points, top first: the grid
// bottom, then every dz down while above the ground (TurbSim's layout, in
// which the first tower point sits at the grid bottom).
func (g GridSpec) TowerHeights() []float64 {
	if !g.TowerPoints {
		return nil
	}
	dz := g.DZ()
	var zs []float64
	for k := 0; ; k++ {
		z := g.ZBottom() - float64(k)*dz
		if z <= 1e-9*dz {
			break
		}
		zs = append(zs, z)
	}
	return zs
}

// simPoint is one point at which velocities are synthesised.
type simPoint struct{ y, z float64 }

// pointLayout maps the grid, tower and hub points onto the list of distinct
// simulation points (coincident points are simulated once).
type pointLayout struct {
	points []simPoint
	grid   []int // grid point (iz*NY+iy) → simulation point
	tower  []int // tower point k → simulation point
	hub    int   // hub point → simulation point
}

func newPointLayout(g GridSpec) pointLayout {
	var lay pointLayout
	// A point closer than this to an existing one is the same point.
	tol := 1e-6 * math.Min(g.DY(), g.DZ())
	find := func(y, z float64) int {
		for i, p := range lay.points {
			if math.Abs(p.y-y) < tol && math.Abs(p.z-z) < tol {
				return i
			}
		}
		return -1
	}
	for iz := range g.NZ {
		for iy := range g.NY {
			lay.grid = append(lay.grid, len(lay.points))
			lay.points = append(lay.points, simPoint{g.Y(iy), g.Z(iz)})
		}
	}
	// Only the bottom row and the centre column can coincide with tower and
	// hub points, so the linear search is over few candidates in practice;
	// it stays O(n) per added point.
	for _, z := range g.TowerHeights() {
		i := find(0, z)
		if i < 0 {
			i = len(lay.points)
			lay.points = append(lay.points, simPoint{0, z})
		}
		lay.tower = append(lay.tower, i)
	}
	lay.hub = find(0, g.HubHeight)
	if lay.hub < 0 {
		lay.hub = len(lay.points)
		lay.points = append(lay.points, simPoint{0, g.HubHeight})
	}
	return lay
}

// minSeparation is the smallest distance between two simulation points.
func (lay pointLayout) minSeparation() float64 {
	minR := math.Inf(1)
	for i := range lay.points {
		for j := i + 1; j < len(lay.points); j++ {
			r := math.Hypot(lay.points[i].y-lay.points[j].y, lay.points[i].z-lay.points[j].z)
			minR = math.Min(minR, r)
		}
	}
	return minR
}
