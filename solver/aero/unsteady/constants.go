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

// ConstantsFromDeck converts one airfoil table's UA block for an airfoil
// given as a StaticPolar. Values written "default" take the documented
// defaults; the polar-derived ones (alpha0, alpha1, alpha2, C_nalpha, Cn1,
// Cn2, Cd0, Cm0) follow the recipe of derive.go applied to the polar
// sampled every 0.25° over ±180°. With a parsed table at hand,
// ConstantsFromTable applies it to the table rows themselves, as AirfoilInfo
// does, and also handles tables without a UA block.
func ConstantsFromDeck(ua *deck.UAConstants, polar StaticPolar) (Constants, error) {
	if ua == nil {
		return Constants{}, fmt.Errorf("unsteady: no UA constants")
	}
	needPolar := ua.Alpha0.Default || ua.Alpha1.Default || ua.Alpha2.Default || ua.C_nalpha.Default ||
		ua.Cn1.Default || ua.Cn2.Default || ua.Cd0.Default || ua.Cm0.Default
	var dv derived
	if needPolar {
		if polar == nil {
			return Constants{}, fmt.Errorf("unsteady: UA constants given as \"default\" need the polar")
		}
		const step = 0.25 * math.Pi / 180
		var al, cl, cd, cm []float64
		for a := -math.Pi; a <= math.Pi+1e-12; a += step {
			l, dd, m := polar.Static(a)
			al, cl, cd, cm = append(al, a), append(cl, l), append(cd, dd), append(cm, m)
		}
		var cd0 *float64
		if !ua.Cd0.Default {
			cd0 = &ua.Cd0.Value
		}
		var err error
		if dv, err = derivePolar(al, cl, cd, cm, cd0); err != nil {
			return Constants{}, err
		}
	}
	return constantsWith(ua, dv)
}

// constantsWith builds the constants from a UA block, taking "default"
// entries from the documented defaults or from the polar-derived values dv.
func constantsWith(ua *deck.UAConstants, dv derived) (Constants, error) {
	rad := math.Pi / 180
	orRad := func(d deck.DefReal, derivedRad float64) float64 {
		if d.Default {
			return derivedRad
		}
		return d.Value * rad
	}
	c := Constants{
		Alpha0:        orRad(ua.Alpha0, dv.alpha0),
		Alpha1:        orRad(ua.Alpha1, dv.alpha1),
		Alpha2:        orRad(ua.Alpha2, dv.alpha2),
		EtaE:          ua.Eta_e.Or(defEtaE),
		CNAlpha:       ua.C_nalpha.Or(dv.cnAlpha),
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
		Cn1:           ua.Cn1.Or(dv.cn1),
		Cn2:           ua.Cn2.Or(dv.cn2),
		StSh:          ua.St_sh.Or(defStSh),
		Cd0:           ua.Cd0.Or(dv.cd0),
		Cm0:           ua.Cm0.Or(dv.cm0),
		XcpBar:        ua.X_cp_bar.Or(defXcpBar),
		UACutout:      ua.UACutout.Or(defUACutoutDeg) * rad,
		UACutoutDelta: ua.UACutout_d.Or(defUACutoutDelta) * rad,
		FiltCutOff:    ua.FiltCutOff.Or(defFiltCutOff),
	}
	if err := c.Validate(); err != nil {
		return Constants{}, err
	}
	return c, nil
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
	// Time constants and exponents may be zero (no lag; AeroDyn only
	// rejects negative values); St_sh and UACutout must be positive where
	// UA runs. With C_nalpha = 0 the node never runs UA and they are unused.
	for _, v := range []struct {
		n string
		x float64
	}{{"T_f0", c.Tf0}, {"T_V0", c.TV0}, {"T_p", c.Tp}, {"T_VL", c.TVL}, {"b1", c.B1}, {"b2", c.B2}, {"b5", c.B5}, {"filtCutOff", c.FiltCutOff}, {"St_sh", c.StSh}, {"UACutout", c.UACutout}} {
		if v.x < 0 || math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return bad(v.n, v.x)
		}
	}
	if c.CNAlpha != 0 {
		if c.StSh == 0 {
			return bad("St_sh", c.StSh)
		}
		if c.UACutout == 0 {
			return bad("UACutout", c.UACutout)
		}
	}
	if c.UACutoutDelta < 0 || c.UACutoutDelta > c.UACutout || math.IsNaN(c.UACutoutDelta) {
		return bad("UACutout_delta", c.UACutoutDelta)
	}
	return nil
}
