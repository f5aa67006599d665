// Package inflow is the InflowWind-equivalent wind model of the solver: the
// undisturbed wind velocity at any point and time for steady power-law wind
// (WindType 1), uniform time-series wind (WindType 2) and full-field
// turbulence boxes (TurbSim .bts, WindType 3, and Bladed-style boxes,
// WindType 4), with InflowWind's reference height, propagation direction and
// upflow angle.
//
// Frames: global x downwind for zero propagation direction, z up from the
// ground, y = z × x. A positive PropagationDir turns the wind from +x towards
// -y (meteorological sense, as InflowWind), a positive upflow angle tilts it
// upwards. Heights are absolute (above ground); points at z <= 0 get zero
// wind, as InflowWind does.
//
// Module contract: a Field is built once (New* constructors, the
// initialisation), has no states to update, and its outputs are Velocity for
// one point or Velocities for many points at one time.
package inflow

import (
	"fmt"
	"math"
)

// Vec3 is a vector in global components.
type Vec3 = [3]float64

// Field gives the undisturbed wind velocity (m/s, global frame).
type Field interface {
	// Velocity returns the wind at point p (m) and time t (s).
	Velocity(t float64, p Vec3) (Vec3, error)
	// Velocities fills out[i] with the wind at pts[i]; len(out) must equal
	// len(pts).
	Velocities(t float64, pts []Vec3, out []Vec3) error
}

// Orientation is InflowWind's rotation of the wind field: the propagation
// direction about the vertical axis through the reference point (0, 0,
// RefHt), then the upflow angle.
type Orientation struct {
	PropagationDir float64 // rad, positive turns +x towards -y
	VFlowAng       float64 // rad, upflow, positive upwards
	RefHt          float64 // m, reference height (centre of rotation)
}

// toWind maps a global point into the wind frame (x along propagation).
func (o *Orientation) toWind(p Vec3) Vec3 {
	if o.PropagationDir == 0 && o.VFlowAng == 0 {
		return p
	}
	sd, cd := math.Sincos(o.PropagationDir)
	// Inverse of Rz: wind direction is (cos d, -sin d, 0).
	x := cd*p[0] - sd*p[1]
	y := sd*p[0] + cd*p[1]
	z := p[2] - o.RefHt
	su, cu := math.Sincos(o.VFlowAng)
	// Inverse of the upflow rotation (x tilted towards +z).
	xw := cu*x + su*z
	zw := -su*x + cu*z
	return Vec3{xw, y, zw + o.RefHt}
}

// toGlobal rotates a wind-frame velocity into the global frame.
func (o *Orientation) toGlobal(v Vec3) Vec3 {
	if o.PropagationDir == 0 && o.VFlowAng == 0 {
		return v
	}
	su, cu := math.Sincos(o.VFlowAng)
	x := cu*v[0] - su*v[2]
	z := su*v[0] + cu*v[2]
	sd, cd := math.Sincos(o.PropagationDir)
	return Vec3{cd*x + sd*v[1], -sd*x + cd*v[1], z}
}

func velocities(f Field, t float64, pts []Vec3, out []Vec3) error {
	if len(out) != len(pts) {
		return fmt.Errorf("inflow: %d output slots for %d points", len(out), len(pts))
	}
	for i, p := range pts {
		v, err := f.Velocity(t, p)
		if err != nil {
			return fmt.Errorf("inflow: point %d: %w", i, err)
		}
		out[i] = v
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
