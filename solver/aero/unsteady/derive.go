package unsteady

import (
	"fmt"
	"math"
	"sort"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Polar-derived UA constants, for airfoil tables whose UA block is absent
// (InclUAdata false) or has "default" entries. AirfoilInfo (OpenFAST v4+)
// derives them from the table itself; this follows the same recipe:
//
//   - Cd0 is the smallest Cd within |alpha| <= 20°; a table whose Cd is
//     constant there or whose Cl stays below 0.01 is treated as a cylinder
//     (C_nalpha = 0: no UA).
//   - Cn = Cl cos a + (Cd - Cd0) sin a; its slope between table points is
//     smoothed with a triweight kernel of 2° half-width.
//   - The fully attached range alphaLower..alphaUpper extends from the
//     minimum-drag angle in both directions while the smoothed slope stays
//     above 90 % of the largest slope met so far.
//   - C_nalpha and alpha0 come from a least-squares line Cn = C_nalpha
//     (alpha - alpha0) over that range shrunk by 20 % of its width at each
//     end; Cm0 is Cm at alpha0.
//   - alpha1 (alpha2) is where the static separation point f (eq. 1.32)
//     falls to 0.7 above alphaUpper (below alphaLower); Cn1 (Cn2) is Cn
//     there.
//
// The remaining constants take the documented defaults. Reference: AeroDyn
// airfoil input description (InclUAdata and "default" entries) and the
// AirfoilInfo module documentation.
type derived struct {
	alpha0, alpha1, alpha2 float64
	cnAlpha, cd0, cm0      float64
	cn1, cn2               float64
	alphaLower, alphaUpper float64
}

const (
	deriveRange      = 20 * math.Pi / 180
	slopeSmoothWidth = 2 * math.Pi / 180
	slopeThreshold   = 0.9
	fAtCriticalCn    = 0.7
	cylinderMaxCl    = 0.01
)

// triweightSmooth is the Nadaraya-Watson kernel average of y over x with a
// triweight kernel (35/32)(1-u²)³ of half-width h.
func triweightSmooth(x, y []float64, h float64) []float64 {
	out := make([]float64, len(x))
	for j := range x {
		var sw, swy float64
		for i := range x {
			u := (x[i] - x[j]) / h
			if u <= -1 || u >= 1 {
				continue
			}
			w := 1 - u*u
			w = w * w * w
			sw += w
			swy += w * y[i]
		}
		if sw > 0 {
			out[j] = swy / sw
		} else {
			out[j] = y[j]
		}
	}
	return out
}

// interpHold interpolates y(x) linearly, holding the end values.
func interpHold(x, y []float64, at float64) float64 {
	n := len(x)
	if at <= x[0] {
		return y[0]
	}
	if at >= x[n-1] {
		return y[n-1]
	}
	i := sort.SearchFloat64s(x, at)
	w := (at - x[i-1]) / (x[i] - x[i-1])
	return y[i-1] + w*(y[i]-y[i-1])
}

// derivePolar applies the recipe to a table (alpha in rad, increasing).
func derivePolar(alpha, cl, cd, cm []float64, cd0Given *float64) (derived, error) {
	n := len(alpha)
	var d derived
	if n < 4 {
		// Constant or near-constant data (a cylinder given in two or three
		// rows): no attached-flow slope, UA stays off.
		d.alpha1, d.alpha2 = 10*math.Pi/180, -10*math.Pi/180
		if n > 0 {
			d.cd0 = cd[0]
			for _, v := range cd {
				d.cd0 = math.Min(d.cd0, v)
			}
		}
		if cd0Given != nil {
			d.cd0 = *cd0Given
		}
		return d, nil
	}
	iCdMin := -1
	cdMax, clMax := math.Inf(-1), math.Inf(-1)
	for i, a := range alpha {
		if math.Abs(a) > deriveRange {
			continue
		}
		if iCdMin < 0 || cd[i] < cd[iCdMin] {
			iCdMin = i
		}
		cdMax = math.Max(cdMax, cd[i])
		clMax = math.Max(clMax, cl[i])
	}
	if iCdMin < 0 {
		return derived{}, fmt.Errorf("unsteady: airfoil table has no rows within ±20°")
	}
	d.cd0 = cd[iCdMin]
	if cd0Given != nil {
		d.cd0 = *cd0Given
	}
	if cdMax == cd[iCdMin] || clMax < cylinderMaxCl {
		d.alpha1, d.alpha2 = 10*math.Pi/180, -10*math.Pi/180
		return d, nil // cylinder: C_nalpha = 0, UA off
	}
	cn := make([]float64, n)
	for i := range alpha {
		cn[i] = staticCn(cl[i], cd[i], d.cd0, alpha[i])
	}
	mid := make([]float64, n-1)
	raw := make([]float64, n-1)
	for i := 0; i < n-1; i++ {
		mid[i] = 0.5 * (alpha[i] + alpha[i+1])
		raw[i] = (cn[i+1] - cn[i]) / (alpha[i+1] - alpha[i])
	}
	slope := triweightSmooth(mid, raw, slopeSmoothWidth)
	aCdMin := alpha[iCdMin]
	slopeAtCdMin := interpHold(mid, slope, aCdMin)

	// Index bounds of the ±20° window on the midpoint grid (one point of
	// margin each side).
	iHighLimit, iLowLimit := 0, n-2
	for i, m := range mid {
		if m < deriveRange {
			iHighLimit = i
		}
	}
	for i := n - 2; i >= 0; i-- {
		if mid[i] > -deriveRange {
			iLowLimit = i
		}
	}
	iHighLimit = imin(iHighLimit+1, n-2)
	iLowLimit = imax(iLowLimit-1, 0)
	if iHighLimit-iLowLimit < 3 {
		iHighLimit = imin(iLowLimit+2, n-2)
	}
	if iHighLimit-iLowLimit < 3 {
		iLowLimit = imax(iHighLimit-2, 0)
	}

	// Upper end of the attached range.
	iHigh := iHighLimit
	if iHigh < iCdMin {
		iHigh = n - 2
	}
	maxSlope, iHigh2 := slopeAtCdMin, iCdMin
	for r := iCdMin; r <= iHigh && r <= n-2; r++ {
		iHigh2 = r
		if slope[r] > maxSlope {
			maxSlope = slope[r]
		} else if slope[r] < slopeThreshold*maxSlope {
			break
		}
	}
	if iHigh2 == iCdMin {
		d.alphaUpper = aCdMin
	} else {
		iHigh2 = imin(imax(0, iHigh2-1), n-2)
		d.alphaUpper = mid[iHigh2]
	}
	// Lower end.
	maxSlope = slopeAtCdMin
	iLow := iLowLimit
	iTop := imax(0, imin(imin(iHigh2, iCdMin), n-2))
	if iTop < iLow {
		iLow = 0
	}
	iLow2 := iTop
	for r := iTop; r >= iLow; r-- {
		iLow2 = r
		if slope[r] > maxSlope {
			maxSlope = slope[r]
		} else if slope[r] < slopeThreshold*maxSlope {
			break
		}
	}
	if iLow2 == iCdMin {
		d.alphaLower = aCdMin
	} else {
		iLow2 = imin(imax(0, iLow2+1), n-2)
		d.alphaLower = mid[iLow2]
	}

	// Least-squares line through Cn on the attached range shrunk by 20 %.
	margin := 0.2 * (d.alphaUpper - d.alphaLower)
	lo := iLowLimit
	for lo < iHighLimit-1 && alpha[lo] < d.alphaLower+margin {
		lo++
	}
	hi := iHighLimit
	for hi > lo+1 && alpha[hi] > d.alphaUpper-margin {
		hi--
	}
	var sx, sy, sxx, sxy, cnt float64
	for i := lo; i <= hi; i++ {
		sx, sy, sxx, sxy, cnt = sx+alpha[i], sy+cn[i], sxx+alpha[i]*alpha[i], sxy+alpha[i]*cn[i], cnt+1
	}
	den := cnt*sxx - sx*sx
	if den == 0 {
		return derived{}, fmt.Errorf("unsteady: cannot fit the Cn slope (degenerate attached range)")
	}
	d.cnAlpha = (cnt*sxy - sx*sy) / den
	b := (sy - d.cnAlpha*sx) / cnt
	if d.cnAlpha != 0 {
		d.alpha0 = -b / d.cnAlpha
	}
	if cm != nil {
		d.cm0 = interpHold(alpha, cm, d.alpha0)
	}

	// Separation point on the table and its 0.7 crossings.
	f := make([]float64, n)
	for i, a := range alpha {
		da := a - d.alpha0
		r := 0.0
		if d.cnAlpha != 0 && da != 0 {
			r = math.Max(0, cn[i]/(d.cnAlpha*da))
		}
		s := 2*math.Sqrt(r) - 1
		f[i] = math.Min(1, s*s)
	}
	d.alpha1 = crossing(alpha, f, d.alphaUpper, +1)
	d.alpha2 = crossing(alpha, f, d.alphaLower, -1)
	d.cn1 = interpHold(alpha, cn, d.alpha1)
	d.cn2 = interpHold(alpha, cn, d.alpha2)
	return d, nil
}

// crossing returns the first angle beyond start (in direction dir) where f
// falls to fAtCriticalCn, linearly interpolated between table points; the
// last table angle when it never does.
func crossing(alpha, f []float64, start float64, dir int) float64 {
	n := len(alpha)
	if dir > 0 {
		for i := 1; i < n; i++ {
			if alpha[i] < start {
				continue
			}
			if f[i] <= fAtCriticalCn {
				if f[i-1] > fAtCriticalCn && alpha[i-1] >= start {
					return alpha[i-1] + (fAtCriticalCn-f[i-1])/(f[i]-f[i-1])*(alpha[i]-alpha[i-1])
				}
				return alpha[i]
			}
		}
		return alpha[n-1]
	}
	for i := n - 2; i >= 0; i-- {
		if alpha[i] > start {
			continue
		}
		if f[i] <= fAtCriticalCn {
			if f[i+1] > fAtCriticalCn && alpha[i+1] <= start {
				return alpha[i+1] + (fAtCriticalCn-f[i+1])/(f[i]-f[i+1])*(alpha[i]-alpha[i+1])
			}
			return alpha[i]
		}
	}
	return alpha[0]
}

func imin(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func imax(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// ConstantsFromTable converts one parsed airfoil table: the UA block when
// InclUAdata is true ("default" entries derived from the table as described
// above), or, as OpenFAST v5 does, constants derived entirely from the table
// when it has no UA block.
func ConstantsFromTable(tab *deck.AirfoilTable) (Constants, error) {
	if tab == nil {
		return Constants{}, fmt.Errorf("unsteady: no airfoil table")
	}
	ua := tab.UA
	need := !tab.InclUAdata || ua.Alpha0.Default || ua.Alpha1.Default || ua.Alpha2.Default ||
		ua.C_nalpha.Default || ua.Cn1.Default || ua.Cn2.Default || ua.Cd0.Default || ua.Cm0.Default
	if !need {
		return constantsWith(&ua, derived{})
	}
	tp, err := NewTablePolar(tab)
	if err != nil {
		return Constants{}, err
	}
	var cd0 *float64
	if tab.InclUAdata && !tab.UA.Cd0.Default {
		cd0 = &tab.UA.Cd0.Value
	}
	var cm []float64
	if tab.Cm != nil {
		cm = tp.cm
	}
	dv, err := derivePolar(tp.alpha, tp.cl, tp.cd, cm, cd0)
	if err != nil {
		return Constants{}, err
	}
	if !tab.InclUAdata {
		def := deck.DefReal{Default: true}
		ua = deck.UAConstants{Alpha0: def, Alpha1: def, Alpha2: def, Eta_e: def, C_nalpha: def,
			T_f0: def, T_V0: def, T_p: def, T_VL: def, B1: def, B2: def, B5: def, A1: def, A2: def, A5: def,
			S1: def, S2: def, S3: def, S4: def, Cn1: def, Cn2: def, St_sh: def, Cd0: def, Cm0: def,
			K0: def, K1: def, K2: def, K3: def, K1_hat: def, X_cp_bar: def, UACutout: def, UACutout_d: def, FiltCutOff: def}
	}
	return constantsWith(&ua, dv)
}
