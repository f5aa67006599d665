package unsteady

import "github.com/turbinesim/turbinesim/solver/aero"

// AirfoilPolar adapts engineer C's aero.Airfoil to StaticPolar at a fixed
// Reynolds number and user property (the node's values; with AFTabMod=1
// they do not matter).
type AirfoilPolar struct {
	Airfoil  *aero.Airfoil
	Re       float64
	UserProp float64
}

// Static returns Cl, Cd, Cm of the airfoil table lookup (the same
// interpolation the quasi-steady BEMT uses).
func (p AirfoilPolar) Static(alpha float64) (cl, cd, cm float64) {
	c := p.Airfoil.Coefs(alpha, p.Re, p.UserProp)
	return c.Cl, c.Cd, c.Cm
}
