package unsteady

import (
	"fmt"
	"math"
	"sort"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// TablePolar is a StaticPolar over one airfoil table with linear
// interpolation in the angle of attack (AirfoilInfo InterpOrd 1), the angle
// wrapped to [-π, π] and end values held outside the table. It lets this
// package run without the aero package; inside the rotor, aero's
// airfoil lookup (which also does cubic splines and Re/UserProp tables)
// should be passed instead so that UA and the BEMT see the same polar.
type TablePolar struct {
	alpha, cl, cd, cm []float64 // alpha in rad, strictly increasing
}

// NewTablePolar builds the lookup from a parsed airfoil table (alpha in
// degrees). A missing Cm column gives Cm = 0.
func NewTablePolar(t *deck.AirfoilTable) (*TablePolar, error) {
	if t == nil || len(t.Alpha) < 2 || len(t.Cl) != len(t.Alpha) || len(t.Cd) != len(t.Alpha) {
		return nil, fmt.Errorf("unsteady: airfoil table needs at least two rows of alpha, Cl, Cd")
	}
	p := &TablePolar{}
	for i, a := range t.Alpha {
		r := a * math.Pi / 180
		if i > 0 && !(r > p.alpha[i-1]) {
			return nil, fmt.Errorf("unsteady: airfoil table alpha not increasing at row %d (%g°)", i+1, a)
		}
		p.alpha = append(p.alpha, r)
		p.cl = append(p.cl, t.Cl[i])
		p.cd = append(p.cd, t.Cd[i])
		cm := 0.0
		if t.Cm != nil && i < len(t.Cm) {
			cm = t.Cm[i]
		}
		p.cm = append(p.cm, cm)
	}
	return p, nil
}

// Static returns Cl, Cd, Cm at alpha (rad).
func (p *TablePolar) Static(alpha float64) (cl, cd, cm float64) {
	a := wrapPi(alpha)
	n := len(p.alpha)
	switch {
	case a <= p.alpha[0]:
		return p.cl[0], p.cd[0], p.cm[0]
	case a >= p.alpha[n-1]:
		return p.cl[n-1], p.cd[n-1], p.cm[n-1]
	}
	i := sort.SearchFloat64s(p.alpha, a) // p.alpha[i-1] < a <= p.alpha[i]
	w := (a - p.alpha[i-1]) / (p.alpha[i] - p.alpha[i-1])
	lin := func(y []float64) float64 { return y[i-1] + w*(y[i]-y[i-1]) }
	return lin(p.cl), lin(p.cd), lin(p.cm)
}
