package inflow

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// UniformRecord is one row of an InflowWind uniform wind file (WindType 2),
// angles in radians.
type UniformRecord struct {
	Time    float64 // s
	HorSpd  float64 // horizontal speed at the reference height (m/s)
	WindDir float64 // direction (rad), positive turns the wind from +x towards -y
	VerSpd  float64 // vertical speed (m/s)
	HorShr  float64 // linear horizontal shear (-)
	VerShr  float64 // power-law vertical shear exponent (-)
	LinVShr float64 // linear vertical shear (-)
	GstSpd  float64 // gust speed added to the horizontal speed (m/s)
	Upflow  float64 // upflow angle (rad)
}

// Uniform is a uniform (hub-height) wind field: spatially described by power
// law and linear shears around the reference height, varying in time only.
type Uniform struct {
	Orientation
	RefLength float64         // reference length for linear shears (m), usually the rotor diameter
	Records   []UniformRecord // linear interpolation in time (InflowWind's default)
}

// NewSteady is InflowWind's steady wind (WindType 1): HWindSpeed at RefHt with
// power-law exponent PLExp, rotated by the propagation direction and upflow.
func NewSteady(hWindSpeed, refHt, plExp float64, o Orientation) (*Uniform, error) {
	o.RefHt = refHt
	return NewUniform([]UniformRecord{{HorSpd: hWindSpeed, VerShr: plExp}}, 1, o)
}

// NewUniform validates records (strictly increasing in time) and returns the
// field. refLength must be positive when any linear shear is non-zero.
func NewUniform(recs []UniformRecord, refLength float64, o Orientation) (*Uniform, error) {
	if len(recs) == 0 {
		return nil, errors.New("inflow: uniform wind has no records")
	}
	if !(o.RefHt > 0) {
		return nil, fmt.Errorf("inflow: reference height %g must be positive", o.RefHt)
	}
	for i, r := range recs {
		for _, v := range []float64{r.Time, r.HorSpd, r.WindDir, r.VerSpd, r.HorShr, r.VerShr, r.LinVShr, r.GstSpd, r.Upflow} {
			if !finite(v) {
				return nil, fmt.Errorf("inflow: uniform wind record %d: non-finite value", i+1)
			}
		}
		if i > 0 && !(r.Time > recs[i-1].Time) {
			return nil, fmt.Errorf("inflow: uniform wind record %d: time %g not increasing", i+1, r.Time)
		}
		if (r.HorShr != 0 || r.LinVShr != 0) && !(refLength > 0) {
			return nil, fmt.Errorf("inflow: uniform wind record %d uses linear shear but RefLength = %g", i+1, refLength)
		}
	}
	return &Uniform{Orientation: o, RefLength: refLength, Records: recs}, nil
}

// At returns the record interpolated to time t (held constant outside the table).
func (u *Uniform) At(t float64) UniformRecord {
	rs := u.Records
	if len(rs) == 1 || !(t > rs[0].Time) {
		return rs[0]
	}
	n := len(rs)
	if t >= rs[n-1].Time {
		return rs[n-1]
	}
	j := sort.Search(n, func(i int) bool { return rs[i].Time >= t })
	a, b := rs[j-1], rs[j]
	w := (t - a.Time) / (b.Time - a.Time)
	l := func(x, y float64) float64 { return x + w*(y-x) }
	return UniformRecord{Time: t, HorSpd: l(a.HorSpd, b.HorSpd), WindDir: l(a.WindDir, b.WindDir), VerSpd: l(a.VerSpd, b.VerSpd),
		HorShr: l(a.HorShr, b.HorShr), VerShr: l(a.VerShr, b.VerShr), LinVShr: l(a.LinVShr, b.LinVShr),
		GstSpd: l(a.GstSpd, b.GstSpd), Upflow: l(a.Upflow, b.Upflow)}
}

// Velocity implements Field (InflowWind UniformField_GetVel):
// V1 = HorSpd ((z/RefHt)^VerShr + (HorShr (y cos d + x sin d) + LinVShr (z - RefHt))/RefLength) + GstSpd,
// turned by the wind direction d and the upflow angle.
func (u *Uniform) Velocity(t float64, p Vec3) (Vec3, error) {
	if !finite(t) || !finite(p[0]) || !finite(p[1]) || !finite(p[2]) {
		return Vec3{}, fmt.Errorf("inflow: non-finite time %g or point %v", t, p)
	}
	r := u.At(t)
	return u.velocityAt(&r, p), nil
}

func (u *Uniform) velocityAt(r *UniformRecord, p Vec3) Vec3 {
	pw := u.toWind(p)
	if pw[2] <= 0 {
		return Vec3{}
	}
	sd, cd := math.Sincos(r.WindDir)
	v1 := r.HorSpd * math.Pow(pw[2]/u.RefHt, r.VerShr)
	if u.RefLength > 0 {
		v1 += r.HorSpd * (r.HorShr*(pw[1]*cd+pw[0]*sd) + r.LinVShr*(pw[2]-u.RefHt)) / u.RefLength
	}
	v1 += r.GstSpd
	su, cu := math.Sincos(r.Upflow)
	vh := v1*cu - r.VerSpd*su
	vz := v1*su + r.VerSpd*cu
	return u.toGlobal(Vec3{vh * cd, -vh * sd, vz})
}

// Velocities implements Field.
func (u *Uniform) Velocities(t float64, pts []Vec3, out []Vec3) error {
	if len(out) != len(pts) {
		return fmt.Errorf("inflow: %d output slots for %d points", len(out), len(pts))
	}
	if !finite(t) {
		return fmt.Errorf("inflow: non-finite time %g", t)
	}
	r := u.At(t)
	for i, p := range pts {
		if !finite(p[0]) || !finite(p[1]) || !finite(p[2]) {
			return fmt.Errorf("inflow: point %d: non-finite %v", i, p)
		}
		out[i] = u.velocityAt(&r, p)
	}
	return nil
}
