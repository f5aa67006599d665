package unsteady

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Constants are the Beddoes-Leishman constants of one airfoil table, in SI
// units and radians (the airfoil file gives alpha0, alpha1, alpha2, UACutout
// and UACutout_delta in degrees).
type Constants struct {
	Alpha0, Alpha1, Alpha2 float64 // zero-lift angle; f=0.7 angles above/below alpha0 (rad)
	EtaE                   float64 // recovery factor (set to 1 when FLookup is on)
	CNAlpha                float64 // slope of Cn about alpha0 (1/rad)
	Tf0, TV0, Tp, TVL      float64 // time constants, in semi-chords
	B1, B2, B5             float64 // Wagner/Küssner exponents
	A1, A2, A5             float64 // Wagner/Küssner amplitudes
	S1, S2, S3, S4         float64 // f-curve fit constants (FLookup false)
	Cn1, Cn2               float64 // critical Cn' for leading-edge separation (positive, negative)
	StSh                   float64 // Strouhal number of vortex shedding
	Cd0, Cm0               float64 // drag and moment at zero lift
	XcpBar                 float64 // vortex centre-of-pressure constant
	UACutout               float64 // |alpha| above which UA is off (rad)
	UACutoutDelta          float64 // blending band below UACutout (rad)
	FiltCutOff             float64 // reduced-frequency cut-off of the input low-pass filter (-)
}

// Documented defaults of the AirfoilInfo file (AeroDyn airfoil input
// description) for constants written as "default".
const (
	defTf0           = 3
	defTV0           = 6
	defTp            = 1.7
	defTVL           = 11
	defB1            = 0.14
	defB2            = 0.53
	defB5            = 5
	defA1            = 0.3
	defA2            = 0.7
	defA5            = 1
	defStSh          = 0.19
	defXcpBar        = 0.2
	defUACutoutDeg   = 45
	defUACutoutDelta = 5
	defFiltCutOff    = 0.5
	defEtaE          = 1
)

// StaticPolar gives the static coefficients of the node's airfoil (at its
// Reynolds number and user property) for an angle of attack in rad.
type StaticPolar interface {
	Static(alpha float64) (cl, cd, cm float64)
}

// ConstantsFromDeck converts one airfoil table's UA block. Values given as
// "default" take the documented defaults; the polar-derived ones (alpha0,
// Cd0, Cm0, C_nalpha) are then computed from the static polar: alpha0 as
// the zero crossing of Cl nearest to 0, Cd0 and Cm0 there, and C_nalpha as
// the least-squares slope of Cn = Cl cos a + (Cd-Cd0) sin a over
// alpha0-2° .. alpha0+6°. These are approximations of OpenFAST's own
// derivation (AirfoilInfo CalculateUACoeffs), not equal to it.
// alpha1, alpha2, Cn1 and Cn2 have no derivation here and must be given.
func ConstantsFromDeck(ua *deck.UAConstants, polar StaticPolar) (Constants, error) {
	if ua == nil {
		return Constants{}, fmt.Errorf("unsteady: no UA constants")
	}
	rad := math.Pi / 180
	c := Constants{
		EtaE:          ua.Eta_e.Or(defEtaE),
		Tf0:           ua.T_f0.Or(defTf0),
		TV0:           ua.T_V0.Or(defTV0),
		Tp:            ua.T_p.Or(defTp),
		TVL:           ua.T_VL.Or(defTVL),
		B1:            ua.B1.Or(defB1),
		B2:            ua.B2.Or(defB2),
		B5:            ua.B5.Or(defB5),
		A1:            ua.A1.Or(defA1),
		A2:            ua.A2.Or(defA2),
		A5:            ua.A5.Or(defA5),
		S1:            ua.S1.Or(0),
		S2:            ua.S2.Or(0),
		S3:            ua.S3.Or(0),
		S4:            ua.S4.Or(0),
		StSh:          ua.St_sh.Or(defStSh),
		XcpBar:        ua.X_cp_bar.Or(defXcpBar),
		UACutout:      ua.UACutout.Or(defUACutoutDeg) * rad,
		UACutoutDelta: ua.UACutout_d.Or(defUACutoutDelta) * rad,
		FiltCutOff:    ua.FiltCutOff.Or(defFiltCutOff),
	}
	for _, v := range []struct {
		name string
		d    deck.DefReal
		dst  *float64
	}{{"alpha1", ua.Alpha1, &c.Alpha1}, {"alpha2", ua.Alpha2, &c.Alpha2}, {"Cn1", ua.Cn1, &c.Cn1}, {"Cn2", ua.Cn2, &c.Cn2}} {
		if v.d.Default {
			return Constants{}, fmt.Errorf("unsteady: %s given as \"default\": computing it from the polar is not supported, give a number", v.name)
		}
		*v.dst = v.d.Value
	}
	c.Alpha1 *= rad
	c.Alpha2 *= rad
	if ua.Alpha0.Default {
		if polar == nil {
			return Constants{}, fmt.Errorf("unsteady: alpha0 is \"default\" and no polar given")
		}
		a0, err := zeroLiftAngle(polar)
		if err != nil {
			return Constants{}, err
		}
		c.Alpha0 = a0
	} else {
		c.Alpha0 = ua.Alpha0.Value * rad
	}
	var cl0, cd0, cm0 float64
	if polar != nil {
		cl0, cd0, cm0 = polar.Static(c.Alpha0)
	}
	_ = cl0
	if ua.Cd0.Default {
		if polar == nil {
			return Constants{}, fmt.Errorf("unsteady: Cd0 is \"default\" and no polar given")
		}
		c.Cd0 = cd0
	} else {
		c.Cd0 = ua.Cd0.Value
	}
	if ua.Cm0.Default {
		if polar == nil {
			return Constants{}, fmt.Errorf("unsteady: Cm0 is \"default\" and no polar given")
		}
		c.Cm0 = cm0
	} else {
		c.Cm0 = ua.Cm0.Value
	}
	if ua.C_nalpha.Default {
		if polar == nil {
			return Constants{}, fmt.Errorf("unsteady: C_nalpha is \"default\" and no polar given")
		}
		cn := func(a float64) float64 {
			cl, cd, _ := polar.Static(a)
			return cl*math.Cos(a) + (cd-c.Cd0)*math.Sin(a)
		}
		// Least-squares slope over the attached range alpha0-2° .. alpha0+6°.
		var sx, sy, sxx, sxy, cnt float64
		for a := c.Alpha0 - 2*rad; a <= c.Alpha0+6*rad+1e-12; a += 0.25 * rad {
			v := cn(a)
			sx, sy, sxx, sxy, cnt = sx+a, sy+v, sxx+a*a, sxy+a*v, cnt+1
		}
		c.CNAlpha = (cnt*sxy - sx*sy) / (cnt*sxx - sx*sx)
	} else {
		c.CNAlpha = ua.C_nalpha.Value
	}
	if err := c.Validate(); err != nil {
		return Constants{}, err
	}
	return c, nil
}

// zeroLiftAngle finds the zero crossing of Cl nearest to alpha = 0 within
// ±20° (0.1° scan, then bisection).
func zeroLiftAngle(p StaticPolar) (float64, error) {
	rad := math.Pi / 180
	cl := func(a float64) float64 { v, _, _ := p.Static(a); return v }
	for k := 0; k <= 200; k++ {
		for _, s := range []float64{1, -1} {
			a, b := s*float64(k)*0.1*rad, s*float64(k+1)*0.1*rad
			fa, fb := cl(a), cl(b)
			if fa == 0 {
				return a, nil
			}
			if fa*fb < 0 {
				for i := 0; i < 60; i++ {
					m := 0.5 * (a + b)
					if cl(m)*fa > 0 {
						a, fa = m, cl(m)
					} else {
						b = m
					}
				}
				return 0.5 * (a + b), nil
			}
		}
	}
	return 0, fmt.Errorf("unsteady: alpha0 is \"default\" and Cl has no zero within ±20°")
}

// Validate checks the constants for values the model cannot use. A zero
// C_nalpha is not an error: it marks an airfoil without UA (cylinders), for
// which NewNode switches UA off for good, as AeroDyn does.
func (c *Constants) Validate() error {
	bad := func(name string, v float64) error {
		return fmt.Errorf("unsteady: UA constant %s = %g is not valid", name, v)
	}
	for _, v := range []struct {
		n string
		x float64
	}{{"alpha0", c.Alpha0}, {"C_nalpha", c.CNAlpha}, {"Cd0", c.Cd0}, {"Cm0", c.Cm0}, {"Cn1", c.Cn1}, {"Cn2", c.Cn2}, {"eta_e", c.EtaE}, {"A1", c.A1}, {"A2", c.A2}, {"A5", c.A5}, {"x_cp_bar", c.XcpBar}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return bad(v.n, v.x)
		}
	}
	for _, v := range []struct {
		n string
		x float64
	}{{"T_f0", c.Tf0}, {"T_V0", c.TV0}, {"T_p", c.Tp}, {"T_VL", c.TVL}, {"b1", c.B1}, {"b2", c.B2}, {"b5", c.B5}, {"St_sh", c.StSh}, {"filtCutOff", c.FiltCutOff}, {"UACutout", c.UACutout}} {
		if !(v.x > 0) || math.IsInf(v.x, 0) {
			return bad(v.n, v.x)
		}
	}
	if c.UACutoutDelta < 0 || c.UACutoutDelta > c.UACutout || math.IsNaN(c.UACutoutDelta) {
		return bad("UACutout_delta", c.UACutoutDelta)
	}
	return nil
}
