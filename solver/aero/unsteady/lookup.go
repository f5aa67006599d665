package unsteady

import "math"

// fcOffset is Gonzalez's offset on sqrt(f_c): the chordwise separation
// function is stored as (sqrt(f_c)+0.2)^2 so that negative chord forces of
// the table (f_c "below zero") are representable; Cc uses sqrt(f_c)-0.2
// (Damiani & Hayman 2019, eq. 1.40 and the note following it).
const fcOffset = 0.2

// fcLimit bounds the stored chordwise separation function: (1+0.2)^2.
const fcLimit = (1 + fcOffset) * (1 + fcOffset)

// wrapPi maps an angle to [-pi, pi].
func wrapPi(a float64) float64 {
	if a >= -math.Pi && a <= math.Pi {
		return a
	}
	a = math.Mod(a+math.Pi, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a - math.Pi
}

// nearRef shifts a by multiples of 2π to lie within π of ref.
func nearRef(ref, a float64) float64 {
	for a-ref > math.Pi {
		a -= 2 * math.Pi
	}
	for a-ref < -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

// staticCn is the static normal-force coefficient without the zero-lift
// drag, Cn = Cl cos a + (Cd - Cd0) sin a (Damiani & Hayman eq. 1.2).
// (math.Sincos gives the same sine and cosine as math.Sin and math.Cos, to
// the bit, from one range reduction.)
func staticCn(cl, cd, cd0, a float64) float64 {
	sa, ca := math.Sincos(a)
	return polarPoint{a: a, cl: cl, cd: cd, sa: sa, ca: ca}.cn(cd0)
}

// cn is staticCn at the point.
func (pt polarPoint) cn(cd0 float64) float64 { return pt.cl*pt.ca + (pt.cd-cd0)*pt.sa }

// cc is the static chordwise coefficient Cc = Cl sin a - (Cd - Cd0) cos a.
func (pt polarPoint) cc(cd0 float64) float64 { return pt.cl*pt.sa - (pt.cd-cd0)*pt.ca }

// polarPoint is the static polar at one angle a with the angle's sine and
// cosine: what separation and chordSeparation need from the table, so that
// the two can share one lookup at the same angle.
type polarPoint struct{ a, cl, cd, sa, ca float64 }

func staticAt(p StaticPolar, a float64) polarPoint {
	cl, cd, _ := p.Static(a)
	sa, ca := math.Sincos(a)
	return polarPoint{a: a, cl: cl, cd: cd, sa: sa, ca: ca}
}

// separation returns the static trailing-edge separation point f at angle a
// by inverting the Kirchhoff relation Cn = Cnα (a - a0) ((1+sqrt f)/2)^2
// (Damiani & Hayman eq. 1.32, FLookup), limited to [0, 1], and the fully
// separated normal force Cn_fs = (Cn - Cnα (a-a0) f)/(1-f) (0 when f = 1).
func separation(p StaticPolar, a, alpha0, cd0, cnAlpha float64) (f, cnFS float64) {
	return separationAt(staticAt(p, separationAngle(a, alpha0)), alpha0, cd0, cnAlpha)
}

// separationAngle is the angle separation evaluates the polar at: a
// wrapped to [-pi, pi], then within pi of alpha0.
func separationAngle(a, alpha0 float64) float64 { return nearRef(alpha0, wrapPi(a)) }

// separationAt is separation from the polar at separationAngle(a, alpha0).
func separationAt(pt polarPoint, alpha0, cd0, cnAlpha float64) (f, cnFS float64) {
	da := pt.a - alpha0
	cn := pt.cn(cd0)
	ratio := 0.0
	if cnAlpha != 0 && da != 0 && cn != 0 {
		ratio = cn / (cnAlpha * da)
		if ratio < 0 || math.IsNaN(ratio) {
			ratio = 0
		}
	}
	s := 2*math.Sqrt(ratio) - 1
	f = math.Min(s*s, 1)
	if f >= 1 {
		return 1, 0
	}
	return f, (cn - cnAlpha*da*f) / (1 - f)
}

// separationFit is the exponential fit of f (FLookup false; Damiani &
// Hayman eq. 1.33) with the constants alpha1, alpha2, S1..S4.
func separationFit(a float64, c *Constants) float64 {
	switch {
	case a > c.Alpha1:
		return 0.04 + 0.66*math.Exp((c.Alpha1-a)/c.S2)
	case a < c.Alpha2:
		return 0.04 + 0.66*math.Exp((a-c.Alpha2)/c.S4)
	case a >= c.Alpha0:
		return 1 - 0.3*math.Exp((a-c.Alpha1)/c.S1)
	default:
		return 1 - 0.3*math.Exp((c.Alpha2-a)/c.S3)
	}
}

// chordSeparation returns the stored chordwise separation function
// (sqrt(f_c)+0.2)^2 from the static chord force: sqrt(f_c) =
// Cc / (eta_e Cnα (a-a0) tan a) (eq. 1.32b), limited to fcLimit; where the
// denominator vanishes the limit is returned. at, when not nil, is the
// polar already looked up at wrapPi(a) (separation's lookup at the same
// angle), which then is not looked up again.
func chordSeparation(p StaticPolar, a, alpha0, cd0, cnAlpha, etaE float64, at *polarPoint) float64 {
	a = wrapPi(a)
	a0 := wrapPi(alpha0)
	if a == 0 || a == a0 || cnAlpha == 0 {
		return fcLimit
	}
	var pt polarPoint
	if at != nil && math.Float64bits(at.a) == math.Float64bits(a) {
		pt = *at
	} else {
		pt = staticAt(p, a)
	}
	cc := pt.cc(cd0)
	aa := nearRef(a0, a)
	denom := etaE * cnAlpha * (aa - a0) * math.Tan(aa)
	if denom == 0 || math.IsNaN(denom) || math.IsInf(denom, 0) {
		return fcLimit
	}
	s := cc/denom + fcOffset
	return math.Min(fcLimit, s*s)
}

// blendCosine is 0 for x <= lo, 1 for x >= hi and a half cosine between.
func blendCosine(x, lo, hi float64) float64 {
	switch {
	case x <= lo:
		return 0
	case x >= hi:
		return 1
	}
	return 0.5 * (1 - math.Cos(math.Pi*(x-lo)/(hi-lo)))
}

// lagUpdate is the recursive deficiency function of the Beddoes-Leishman
// discretisation, Y_n = Y_{n-1} e^{-Δ/T} + (x_n - x_{n-1}) e^{-Δ/(2T)}
// (Leishman & Beddoes 1989; Damiani & Hayman eq. 1.15, 1.18b, 1.35b, 1.36b).
func lagUpdate(delta, tau, yPrev, x, xPrev float64) float64 {
	r := -delta / tau
	return yPrev*math.Exp(r) + (x-xPrev)*math.Exp(0.5*r)
}
