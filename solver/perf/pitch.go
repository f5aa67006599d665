package perf

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/aero"
)

// PitchSensitivityPoint is one above-rated operating point at rated rotor
// speed: the wind speed, the collective pitch that holds the aerodynamic
// power at rated there, and ∂P/∂θ at that point.
type PitchSensitivityPoint struct {
	WindSpeed float64 // m/s
	Pitch     float64 // rad
	DPdTheta  float64 // W/rad
}

// PitchSensitivity is the aerodynamic power sensitivity to collective pitch
// over region 3 and its linear fit, as Jonkman et al. 2009 §7.2 (Figure
// 7-2) computed it for the gain-scheduled pitch PI regulator:
// ∂P/∂θ(θ) = DPdTheta0 · (1 + θ/PitchDoubling). The fit is returned as
// found: for a blade whose power rises when pitched from zero at rated
// (fine pitch above zero), DPdTheta0 is not negative and PitchDoubling not
// positive, and the report's gain schedule does not apply.
type PitchSensitivity struct {
	RatedWindSpeed float64 // m/s, where rated power is first reached at zero pitch
	DPdTheta0      float64 // W/rad, the fit at zero pitch
	PitchDoubling  float64 // rad, θK: the pitch at which the fitted sensitivity doubles
	Points         []PitchSensitivityPoint
}

// Region3Options sets the operating point of PitchSensitivityAt.
type Region3Options struct {
	RotorSpeed  float64 // rated rotor speed (rad/s)
	Power       float64 // rated aerodynamic (mechanical) power (W)
	CutOutSpeed float64 // last wind speed sampled (m/s); <=0: 25
	NSector     int     // azimuth positions per pitch averaged; <=0: 4
}

// PitchSensitivityAt computes the pitch sensitivity of the rigid rotor at
// rated rotor speed (Jonkman et al. 2009 §7.2): it finds the rated wind
// speed (P(V, 0) = rated power), samples it and every whole m/s above it
// up to cut-out,
// finds at each the pitch θ(V) with P(V, θ) = rated power, takes ∂P/∂θ
// there by a central finite difference (±0.1°), and fits ∂P/∂θ linearly in
// θ by least squares. Uniform wind, no shear (the report's steady BEM).
func PitchSensitivityAt(ctx context.Context, rot *aero.Rotor, g Geometry, o Region3Options) (*PitchSensitivity, error) {
	if rot == nil {
		return nil, errors.New("perf: nil rotor")
	}
	if !(o.RotorSpeed > 0) || !(o.Power > 0) {
		return nil, fmt.Errorf("perf: rotor speed %g and power %g must be positive", o.RotorSpeed, o.Power)
	}
	if !(g.TipRadius > 0) || !(g.DiskRadius > 0) || !(g.AirDens > 0) || !(g.State.HubPosition[2] > 0) {
		return nil, fmt.Errorf("perf: tip radius %g, disk radius %g, air density %g and hub height %g must be positive", g.TipRadius, g.DiskRadius, g.AirDens, g.State.HubPosition[2])
	}
	cutOut := o.CutOutSpeed
	if !(cutOut > 0) {
		cutOut = 25
	}
	nsec := o.NSector
	if nsec <= 0 {
		nsec = 4
	}
	pc := powerCalc{rot: rot, g: g, omega: o.RotorSpeed, nsec: nsec, out: rot.NewOutput()}
	// excess is the aerodynamic power above rated at (V, θ).
	excess := func(v, pitch float64) (float64, error) {
		p, err := pc.power(v, pitch)
		return p - o.Power, err
	}

	// Rated wind speed: the lowest speed at which zero pitch reaches rated
	// power. Scan up from a low tip-speed ratio limit, then bisect.
	lo := o.RotorSpeed * g.TipRadius / 20 // TSR 20: far below rated power
	plo, err := excess(lo, 0)
	if err != nil {
		return nil, err
	}
	if plo >= 0 {
		return nil, fmt.Errorf("perf: rated power %.0f W is reached at zero pitch already at %.2f m/s (tip-speed ratio 20)", o.Power, lo)
	}
	hi := lo
	for {
		hi += 0.5
		if hi > cutOut {
			return nil, fmt.Errorf("perf: rated power %.0f W is not reached at zero pitch below cut-out %g m/s", o.Power, cutOut)
		}
		ph, err := excess(hi, 0)
		if err != nil {
			return nil, err
		}
		if ph >= 0 {
			break
		}
		lo = hi
	}
	rated, err := bisect(func(v float64) (float64, error) { return excess(v, 0) }, lo, hi, 1e-4)
	if err != nil {
		return nil, err
	}

	const dTheta = 0.1 * math.Pi / 180
	const maxPitch = 60 * math.Pi / 180
	ps := &PitchSensitivity{RatedWindSpeed: rated}
	// Rated, then every whole metre per second up to cut-out, as the
	// report's Figure 7-2 samples (11.4, 12, 13, …, 25 m/s).
	winds := []float64{rated}
	for v := math.Floor(rated) + 1; v <= cutOut+1e-9; v++ {
		winds = append(winds, v)
	}
	for i := range winds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := winds[i]
		pitch := 0.0
		if i > 0 {
			// Power falls with pitch above rated (feathering): the root
			// lies between the previous point's pitch and maxPitch.
			lo := ps.Points[i-1].Pitch
			pitch, err = bisect(func(th float64) (float64, error) { return excess(v, th) }, lo, maxPitch, 1e-6)
			if err != nil {
				return nil, fmt.Errorf("perf: pitch for rated power at %.2f m/s: %w", v, err)
			}
		}
		dp, err := pc.frozenWakeDPdTheta(v, pitch, dTheta)
		if err != nil {
			return nil, err
		}
		ps.Points = append(ps.Points, PitchSensitivityPoint{WindSpeed: v, Pitch: pitch, DPdTheta: dp})
	}

	// Least-squares line ∂P/∂θ = a + bθ; θK = a/b.
	var sx, sy, sxx, sxy float64
	for _, p := range ps.Points {
		sx += p.Pitch
		sy += p.DPdTheta
		sxx += p.Pitch * p.Pitch
		sxy += p.Pitch * p.DPdTheta
	}
	m := float64(len(ps.Points))
	den := m*sxx - sx*sx
	if len(ps.Points) < 2 || !(den > 0) {
		return nil, errors.New("perf: too few distinct pitch angles to fit the pitch sensitivity")
	}
	b := (m*sxy - sx*sy) / den
	a := (sy - b*sx) / m
	ps.DPdTheta0, ps.PitchDoubling = a, a/b
	return ps, nil
}

// powerCalc evaluates the azimuth-averaged aerodynamic power of the rigid
// rotor in uniform wind at one rotor speed (sequential; one Output).
type powerCalc struct {
	rot   *aero.Rotor
	g     Geometry
	omega float64
	nsec  int
	in    aero.Input
	out   *aero.Output
}

func (c *powerCalc) power(v, pitch float64) (float64, error) {
	var torque float64
	for k := 0; k < c.nsec; k++ {
		tq, err := c.sectorTorque(k, v, pitch, false)
		if err != nil {
			return 0, err
		}
		torque += tq
	}
	return torque / float64(c.nsec) * c.omega, nil
}

// sectorTorque is the aerodynamic shaft torque of the rigid rotor at the
// k-th of nsec azimuths in uniform wind v above ground, at one collective
// pitch; frozen keeps each node's induction from the previous call
// (aero.Output.FreezeInduction).
func (c *powerCalc) sectorTorque(k int, v, pitch float64, frozen bool) (float64, error) {
	wind := func(p aero.Vec3) aero.Vec3 {
		if p[2] <= 0 {
			return aero.Vec3{}
		}
		return aero.Vec3{v, 0, 0}
	}
	st := c.g.State
	st.Azimuth = 2 * math.Pi / float64(c.rot.Params().NumBlades) * float64(k) / float64(c.nsec)
	st.RotorSpeed = c.omega
	st.Pitch = []float64{pitch}
	c.out.FreezeInduction = frozen
	defer func() { c.out.FreezeInduction = false }()
	err := c.rot.RigidInput(st, wind, &c.in)
	if err == nil {
		err = c.rot.CalcOutput(0, &c.in, c.out)
	}
	if err != nil {
		return 0, fmt.Errorf("perf: %.2f m/s, pitch %.3f deg: %w", v, pitch*180/math.Pi, err)
	}
	return c.out.Rotor.Moment[0], nil
}

// frozenWakeDPdTheta is ∂P/∂θ at (v, pitch) by a central difference of
// ±dTheta with each node's induction frozen at the operating point
// (aero.Output.FreezeInduction), as FAST's linearisation perturbs the
// rotor and as Jonkman et al. 2009 §7.2 obtained the sensitivity; with the
// induction re-solved (steady BEM) the sensitivity near rated pitch is an
// order of magnitude smaller (−2.5 MW/rad at 11.3 m/s, zero pitch, for the
// NREL 5 MW rotor) because the wake relaxes with the pitch.
func (c *powerCalc) frozenWakeDPdTheta(v, pitch, dTheta float64) (float64, error) {
	var dTorque float64
	for k := 0; k < c.nsec; k++ {
		// The operating point solves the induction that the two
		// perturbed evaluations then keep.
		if _, err := c.sectorTorque(k, v, pitch, false); err != nil {
			return 0, err
		}
		up, err := c.sectorTorque(k, v, pitch+dTheta, true)
		if err != nil {
			return 0, err
		}
		down, err := c.sectorTorque(k, v, pitch-dTheta, true)
		if err != nil {
			return 0, err
		}
		dTorque += (up - down) / (2 * dTheta)
	}
	return dTorque / float64(c.nsec) * c.omega, nil
}

// bisect finds a root of f in [lo, hi] (f(lo) < 0 <= f(hi) or the reverse)
// to within tol.
func bisect(f func(float64) (float64, error), lo, hi, tol float64) (float64, error) {
	flo, err := f(lo)
	if err != nil {
		return 0, err
	}
	fhi, err := f(hi)
	if err != nil {
		return 0, err
	}
	if (flo < 0) == (fhi < 0) {
		return 0, fmt.Errorf("no sign change between %g and %g", lo, hi)
	}
	for hi-lo > tol {
		mid := 0.5 * (lo + hi)
		fm, err := f(mid)
		if err != nil {
			return 0, err
		}
		if (fm < 0) == (flo < 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi), nil
}
