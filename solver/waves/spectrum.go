package waves

import "math"

// PeakShapeDefault returns the JONSWAP peak-shape parameter γ recommended by
// IEC 61400-3-1 Annex B from the peak period and significant wave height:
// 5 when Tp/√Hs ≤ 3.6, exp(5.75 − 1.15 Tp/√Hs) up to 5, and 1
// (Pierson–Moskowitz) above.
func PeakShapeDefault(hs, tp float64) float64 {
	r := tp / math.Sqrt(hs)
	switch {
	case r <= 3.6:
		return 5
	case r <= 5:
		return math.Exp(5.75 - 1.15*r)
	default:
		return 1
	}
}

// JONSWAP returns the one-sided JONSWAP spectral density S(ω) in m²/(rad/s)
// at angular frequency ω for significant height hs, peak period tp and peak
// shape gamma (IEC 61400-3-1 Annex B, DNV-RP-C205 eq. 3.5.5): the
// Pierson–Moskowitz spectrum times the normalising factor 1 − 0.287 ln γ and
// the peak enhancement γ^exp(−½((ω/ωp − 1)/σ)²), σ = 0.07 below the peak and
// 0.09 above. gamma = 1 is Pierson–Moskowitz, whose integral is exactly
// Hs²/16.
func JONSWAP(omega, hs, tp, gamma float64) float64 {
	if omega <= 0 {
		return 0
	}
	// in frequency f = ω/2π: S(f) = 5/16 Hs² Tp (f/fp)^-5 exp(-5/4 (f/fp)^-4) ...
	fr := omega * tp / (2 * math.Pi) // f/fp
	sigma := 0.07
	if fr > 1 {
		sigma = 0.09
	}
	pm := 5.0 / 16 * hs * hs * tp * math.Pow(fr, -5) * math.Exp(-1.25*math.Pow(fr, -4))
	enh := (1 - 0.287*math.Log(gamma)) * math.Pow(gamma, math.Exp(-0.5*math.Pow((fr-1)/sigma, 2)))
	return pm * enh / (2 * math.Pi) // per rad/s
}

// WaveNumber solves the linear dispersion relation ω² = g k tanh(k h) for
// k > 0 by Newton iteration from the deep-water value (h ≤ 0 means deep
// water).
func WaveNumber(omega, g, h float64) float64 {
	if omega <= 0 {
		return 0
	}
	k0 := omega * omega / g
	if h <= 0 || k0*h > 20 {
		return k0
	}
	// start from the shallow-water value when it is the better guess
	k := math.Max(k0, omega/math.Sqrt(g*h))
	for i := 0; i < 50; i++ {
		th := math.Tanh(k * h)
		f := g*k*th - omega*omega
		df := g*th + g*k*h*(1-th*th)
		dk := f / df
		k -= dk
		if math.Abs(dk) < 1e-14*k {
			break
		}
	}
	return k
}

// depthFactors returns, for wave number k, depth h and elevation z (≤ 0 from
// SWL), the ratios cosh(k(z+h))/sinh(kh), sinh(k(z+h))/sinh(kh) and
// cosh(k(z+h))/cosh(kh), written with decaying exponentials so they hold
// for any kh (deep water included) without overflow.
func depthFactors(k, h, z float64) (ch, sh, cc float64) {
	if k == 0 {
		return 0, 0, 1
	}
	e1 := math.Exp(k * z)
	if h <= 0 { // deep water
		return e1, e1, e1
	}
	e2 := math.Exp(-k * (z + 2*h))
	e3 := math.Exp(-2 * k * h)
	return (e1 + e2) / (1 - e3), (e1 - e2) / (1 - e3), (e1 + e2) / (1 + e3)
}
