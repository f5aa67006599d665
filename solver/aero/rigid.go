package aero

import (
	"fmt"
	"math"
)

// RigidState places a rigid rotor: ElastoDyn's geometry conventions
// (ShftTilt, PreCone, azimuth zero with blade 1 up, positive pitch to feather).
type RigidState struct {
	HubPosition Vec3      // hub centre, global (m)
	Yaw         float64   // nacelle yaw about global z (rad)
	Tilt        float64   // ShftTilt (rad): negative lifts the upwind end of the shaft
	Precone     []float64 // PreCone per blade (rad): negative cones an upwind rotor's tips upwind; one value = all blades
	Azimuth     float64   // blade-1 azimuth (rad), 0 = up, positive about +x_h
	RotorSpeed  float64   // rad/s
	Pitch       []float64 // blade pitch per blade (rad); one value = all blades
}

// WindFunc returns the undisturbed wind at a point.
type WindFunc func(p Vec3) Vec3

// HubOrientation returns the hub DCM for a yaw and shaft tilt (ElastoDyn
// convention: x_h = cos(tilt) x_yaw + sin(tilt) z, with tilt = ShftTilt).
func HubOrientation(yaw, tilt float64) DCM {
	sy, cy := math.Sincos(yaw)
	st, ct := math.Sincos(tilt)
	xh := Vec3{ct * cy, ct * sy, st}
	yh := Vec3{-sy, cy, 0}
	zh := cross(xh, yh)
	return DCM{xh, yh, zh}
}

// RigidInput fills in (allocating as needed) the Input of a rigid rotor in
// the given state, sampling wind at every blade node (and tower node, if the
// rotor has a tower table and wind is non-nil).
func (r *Rotor) RigidInput(st RigidState, wind WindFunc, in *Input) error {
	nb := r.p.NumBlades
	pick := func(v []float64, k int, name string) (float64, error) {
		switch len(v) {
		case 0:
			return 0, nil
		case 1:
			return v[0], nil
		case nb:
			return v[k], nil
		}
		return 0, fmt.Errorf("aero: %s has %d values for %d blades", name, len(v), nb)
	}
	ho := HubOrientation(st.Yaw, st.Tilt)
	xh, yh, zh := ho[0], ho[1], ho[2]
	in.HubPosition = st.HubPosition
	// The hub frame rotates with the rotor (ElastoDyn's HubPtMotion): z_h
	// along blade 1's radial direction, so hub-frame outputs such as
	// RtFldFyh/RtFldFzh are in rotating axes, as OpenFAST writes them.
	sa, ca := math.Sincos(st.Azimuth)
	in.HubOrientation = DCM{xh, add(scale(yh, ca), scale(zh, sa)), sub(scale(zh, ca), scale(yh, sa))}
	in.RotorSpeed = st.RotorSpeed
	in.Azimuth = st.Azimuth
	if len(in.Blades) != nb {
		in.Blades = make([][]BladeNodeMotion, nb)
	}
	omega := scale(xh, st.RotorSpeed)
	for k := 0; k < nb; k++ {
		pc, err := pick(st.Precone, k, "Precone")
		if err != nil {
			return err
		}
		pitch, err := pick(st.Pitch, k, "Pitch")
		if err != nil {
			return err
		}
		geo := &r.blades[k]
		if len(in.Blades[k]) != len(geo.Span) {
			in.Blades[k] = make([]BladeNodeMotion, len(geo.Span))
		}
		psi := st.Azimuth + 2*math.Pi*float64(k)/float64(nb)
		sp, cp := math.Sincos(psi)
		// Radial direction in the rotor plane: zh rotated by psi about +xh.
		er := sub(scale(zh, cp), scale(yh, sp))
		sc, cc := math.Sincos(pc)
		zb := add(scale(er, cc), scale(xh, sc)) // pitch axis, coned
		xb := sub(scale(xh, cc), scale(er, sc)) // out of plane, downwind
		yb := cross(zb, xb)                     // in plane, against rotation
		for j := range geo.Span {
			pos := add(st.HubPosition, add(scale(zb, r.p.HubRadius+geo.Span[j]), add(scale(xb, geo.CrvAC[j]), scale(yb, geo.SwpAC[j]))))
			// Curvature: rotate the frame about yb by BlCrvAng (tip downwind
			// for positive angles), then twist+pitch about the new z.
			sa, ca := math.Sincos(geo.CrvAng[j])
			zc := add(scale(zb, ca), scale(xb, sa))
			xc := sub(scale(xb, ca), scale(zb, sa))
			th := geo.Twist[j] + pitch
			st2, ct2 := math.Sincos(th)
			yl := add(scale(yb, ct2), scale(xc, st2))
			xl := sub(scale(xc, ct2), scale(yb, st2))
			m := &in.Blades[k][j]
			m.Position = pos
			m.Orientation = DCM{xl, yl, zc}
			m.Velocity = cross(omega, sub(pos, st.HubPosition))
			if wind != nil {
				m.Wind = wind(pos)
			} else {
				m.Wind = Vec3{}
			}
		}
	}
	if r.p.Tower != nil {
		if len(in.Tower) != len(r.p.Tower.Elev) {
			in.Tower = make([]TowerNodeMotion, len(r.p.Tower.Elev))
		}
		for i, z := range r.p.Tower.Elev {
			p := Vec3{0, 0, z}
			in.Tower[i] = TowerNodeMotion{Position: p}
			if wind != nil {
				in.Tower[i].Wind = wind(p)
			}
		}
	}
	return nil
}
