package aero

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Interpolation orders for the quasi-steady table lookup (AirfoilInfo InterpOrd).
const (
	InterpLinear = 1 // piecewise linear in angle of attack
	InterpCubic  = 3 // natural cubic spline in angle of attack
)

// Table-selection modes for airfoils with several tables (AeroDyn AFTabMod).
const (
	AFTabFirst    = 1 // use the first table only
	AFTabReynolds = 2 // interpolate between tables in ln(Re)
	AFTabUserProp = 3 // interpolate between tables in the user property
)

// Polar is one airfoil table: coefficients versus angle of attack at one
// Reynolds number / user-property setting.
type Polar struct {
	Re       float64   // Reynolds number (absolute, not millions)
	UserProp float64   // user property (e.g. flap setting)
	Alpha    []float64 // angle of attack (rad), strictly increasing
	Cl       []float64
	Cd       []float64
	Cm       []float64 // may be nil: Cm = 0
}

// Airfoil holds the tables of one airfoil and the lookup settings.
type Airfoil struct {
	Name      string
	Tables    []Polar
	InterpOrd int // InterpLinear or InterpCubic
	TabMod    int // AFTabFirst, AFTabReynolds or AFTabUserProp

	splines []polarSpline // per table, built by Prepare
	keys    []float64     // ln(Re) or UserProp per table, built by Prepare
}

// Coefs are the static airfoil coefficients at one angle of attack.
type Coefs struct{ Cl, Cd, Cm float64 }

// polarSpline is one table ready for lookups: the knots and, per knot, the
// values of Cl, Cd, Cm and (cubic) their second derivatives side by side,
// so that one lookup reads one stretch of memory.
type polarSpline struct {
	alpha []float64
	// knot[w*j : w*j+w] = Cl, Cd, Cm at alpha[j] and, for a cubic spline
	// (w = 6), their second derivatives; w = 3 for linear interpolation.
	knot  []float64
	cubic bool
	// The interval of a lookup is found from a uniform grid over the
	// table's range: bucket b (width 1/bucketsPerRad from alpha[0]) starts
	// its search at knot first[b], so it walks a few knots instead of
	// bisecting the whole table. The grid is kept small (about two buckets
	// per knot, 16-bit entries): a rotor reads dozens of tables per step
	// and they must stay in cache. Tables too long for 16-bit entries are
	// bisected (first is nil).
	first         []uint16
	bucketsPerRad float64
}

func newPolarSpline(alpha []float64, y [3][]float64, cubic bool) polarSpline {
	n := len(alpha)
	w := 3
	if cubic {
		w = 6
	}
	s := polarSpline{alpha: alpha, knot: make([]float64, w*n), cubic: cubic}
	for c := 0; c < 3; c++ {
		var m []float64
		if cubic {
			m = naturalSplineSecondDerivs(alpha, y[c])
		}
		for j := 0; j < n; j++ {
			s.knot[w*j+c] = y[c][j]
			if m != nil {
				s.knot[w*j+3+c] = m[j]
			}
		}
	}
	if n > math.MaxUint16 {
		return s
	}
	span := alpha[n-1] - alpha[0]
	nb := 2*n + 1
	s.bucketsPerRad = float64(nb-1) / span
	s.first = make([]uint16, nb+1)
	j := 0
	for b := range s.first {
		lo := alpha[0] + float64(b)/s.bucketsPerRad
		for j < n-1 && alpha[j] < lo {
			j++
		}
		s.first[b] = uint16(j)
	}
	return s
}

// interval returns the smallest j with alpha[j] >= x for alpha[0] < x <
// alpha[n-1] (the index sort.SearchFloat64s gives).
func (s *polarSpline) interval(x float64) int {
	xs := s.alpha
	if s.first == nil {
		return sort.SearchFloat64s(xs, x)
	}
	b := int((x - xs[0]) * s.bucketsPerRad)
	if b < 0 {
		b = 0
	} else if b >= len(s.first) {
		b = len(s.first) - 1
	}
	j := int(s.first[b])
	// The grid only suggests where to start: step back while the knot
	// before is still at or above x, then forward to the first knot at or
	// above x, so rounding in the bucket index cannot change the answer.
	for j > 0 && xs[j-1] >= x {
		j--
	}
	for xs[j] < x {
		j++
	}
	return j
}

// Prepare validates the tables and precomputes spline coefficients. It must be
// called once before Coefs (New does it for every airfoil of a rotor).
func (af *Airfoil) Prepare() error {
	if af == nil {
		return errors.New("airfoil: nil airfoil")
	}
	if len(af.Tables) == 0 {
		return fmt.Errorf("airfoil %q: no tables", af.Name)
	}
	if af.InterpOrd == 0 {
		af.InterpOrd = InterpLinear
	}
	if af.InterpOrd != InterpLinear && af.InterpOrd != InterpCubic {
		return fmt.Errorf("airfoil %q: InterpOrd %d not 1 or 3", af.Name, af.InterpOrd)
	}
	if af.TabMod == 0 {
		af.TabMod = AFTabFirst
	}
	if af.TabMod < AFTabFirst || af.TabMod > AFTabUserProp {
		return fmt.Errorf("airfoil %q: AFTabMod %d not 1, 2 or 3", af.Name, af.TabMod)
	}
	af.splines = make([]polarSpline, len(af.Tables))
	for i, p := range af.Tables {
		n := len(p.Alpha)
		if n < 2 {
			return fmt.Errorf("airfoil %q table %d: %d angles of attack, need at least 2", af.Name, i+1, n)
		}
		if len(p.Cl) != n || len(p.Cd) != n || (p.Cm != nil && len(p.Cm) != n) {
			return fmt.Errorf("airfoil %q table %d: column lengths differ from %d alpha values", af.Name, i+1, n)
		}
		for k := 0; k < n; k++ {
			if !finite(p.Alpha[k]) || !finite(p.Cl[k]) || !finite(p.Cd[k]) || (p.Cm != nil && !finite(p.Cm[k])) {
				return fmt.Errorf("airfoil %q table %d row %d: non-finite value", af.Name, i+1, k+1)
			}
			if k > 0 && !(p.Alpha[k] > p.Alpha[k-1]) {
				return fmt.Errorf("airfoil %q table %d row %d: alpha %.6g rad not increasing", af.Name, i+1, k+1, p.Alpha[k])
			}
		}
		cm := p.Cm
		if cm == nil {
			cm = make([]float64, n)
		}
		af.splines[i] = newPolarSpline(p.Alpha, [3][]float64{p.Cl, p.Cd, cm}, af.InterpOrd == InterpCubic && n >= 3)
	}
	if af.TabMod == AFTabReynolds && len(af.Tables) > 1 {
		for i := range af.Tables {
			if !(af.Tables[i].Re > 0) {
				return fmt.Errorf("airfoil %q table %d: Re %.6g must be positive for AFTabMod=2", af.Name, i+1, af.Tables[i].Re)
			}
			if i > 0 && !(af.Tables[i].Re > af.Tables[i-1].Re) {
				return fmt.Errorf("airfoil %q: tables not in increasing Re for AFTabMod=2", af.Name)
			}
		}
	}
	af.keys = make([]float64, len(af.Tables))
	for i, t := range af.Tables {
		af.keys[i] = t.UserProp
		if af.TabMod == AFTabReynolds {
			af.keys[i] = math.Log(t.Re)
		}
	}
	if af.TabMod == AFTabUserProp && len(af.Tables) > 1 {
		for i := 1; i < len(af.Tables); i++ {
			if !(af.Tables[i].UserProp > af.Tables[i-1].UserProp) {
				return fmt.Errorf("airfoil %q: tables not in increasing UserProp for AFTabMod=3", af.Name)
			}
		}
	}
	return nil
}

// Coefs returns Cl, Cd, Cm at angle of attack alpha (rad, wrapped to
// [-pi, pi] as AirfoilInfo does), Reynolds number re and user property up.
// Outside a table's alpha range the end values are held.
func (af *Airfoil) Coefs(alpha, re, up float64) Coefs {
	alpha = WrapAngle(alpha)
	if len(af.splines) == 1 || af.TabMod == AFTabFirst {
		return af.splines[0].eval(alpha)
	}
	x := up
	if af.TabMod == AFTabReynolds {
		// AirfoilInfo interpolates multiple-Re tables in log(Re).
		x = math.Inf(-1)
		if re > 0 {
			x = math.Log(re)
		}
	}
	keys := af.keys
	if !(x > keys[0]) {
		return af.splines[0].eval(alpha)
	}
	last := len(keys) - 1
	if x >= keys[last] {
		return af.splines[last].eval(alpha)
	}
	j := sort.SearchFloat64s(keys, x) // keys[j-1] < x <= keys[j]
	w := (x - keys[j-1]) / (keys[j] - keys[j-1])
	c0 := af.splines[j-1].eval(alpha)
	c1 := af.splines[j].eval(alpha)
	return Coefs{
		Cl: c0.Cl + w*(c1.Cl-c0.Cl),
		Cd: c0.Cd + w*(c1.Cd-c0.Cd),
		Cm: c0.Cm + w*(c1.Cm-c0.Cm),
	}
}

func (s *polarSpline) eval(x float64) Coefs {
	xs := s.alpha
	n := len(xs)
	w := 3
	if s.cubic {
		w = 6
	}
	if x <= xs[0] || x >= xs[n-1] || math.IsNaN(x) {
		k := 0
		if x >= xs[n-1] {
			k = n - 1
		}
		v := s.knot[w*k : w*k+3]
		return Coefs{v[0], v[1], v[2]}
	}
	j := s.interval(x) // xs[j-1] < x <= xs[j]
	if j == 0 {
		j = 1
	}
	h := xs[j] - xs[j-1]
	t := (x - xs[j-1]) / h
	k0, k1 := s.knot[w*(j-1):w*j], s.knot[w*j:w*j+w]
	var out [3]float64
	if s.cubic {
		// Cubic spline in the second-derivative form (e.g. Press et al.,
		// Numerical Recipes §3.3, eq. 3.3.3).
		a := 1 - t
		ca, ct := a*a*a-a, t*t*t-t
		for c := 0; c < 3; c++ {
			out[c] = a*k0[c] + t*k1[c] + (ca*k0[3+c]+ct*k1[3+c])*h*h/6
		}
	} else {
		for c := 0; c < 3; c++ {
			y0 := k0[c]
			out[c] = y0 + t*(k1[c]-y0)
		}
	}
	return Coefs{out[0], out[1], out[2]}
}

// naturalSplineSecondDerivs solves the tridiagonal system of a natural cubic
// spline (zero second derivative at both ends).
func naturalSplineSecondDerivs(x, y []float64) []float64 {
	n := len(x)
	m := make([]float64, n)
	u := make([]float64, n)
	for i := 1; i < n-1; i++ {
		sig := (x[i] - x[i-1]) / (x[i+1] - x[i-1])
		p := sig*m[i-1] + 2
		m[i] = (sig - 1) / p
		d := (y[i+1]-y[i])/(x[i+1]-x[i]) - (y[i]-y[i-1])/(x[i]-x[i-1])
		u[i] = (6*d/(x[i+1]-x[i-1]) - sig*u[i-1]) / p
	}
	m[n-1] = 0
	for k := n - 2; k >= 0; k-- {
		m[k] = m[k]*m[k+1] + u[k]
	}
	m[0] = 0
	return m
}

// WrapAngle maps an angle to [-pi, pi].
func WrapAngle(a float64) float64 {
	if a >= -math.Pi && a <= math.Pi {
		return a
	}
	if !finite(a) {
		return 0
	}
	a = math.Mod(a+math.Pi, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a - math.Pi
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
