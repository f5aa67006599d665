// Package windgen generates IEC 61400-1 design wind conditions: turbulent
// full-field boxes (the equivalent of TurbSim's IECKAI model, synthesised by
// the Veers 1988 method) and deterministic uniform-wind events (EOG, EDC,
// ECD, EWS).
//
// Edition: the formulas implemented are those of IEC 61400-1 ed.3 (2005),
// as restated in the TurbSim User's Guide v2.00 (Jonkman 2009, §IEC spectral
// models) and reproduced by TurbSim's summary file ("IEC 61400-1 Ed. 3:
// 2005", turbulence scale 42 m, u integral scale 340.2 m, coherence
// parameters (12, 0.353e-3) for a 90 m hub). Ed.4 (2019) keeps the same
// Kaimal spectra, coherence, Λ1, NTM (design value σ1 = I_ref(0.75V+5.6)),
// ETM, EWM and deterministic gust formulas; it adds I_ref = 0.18 (category
// A+), which is supported here. Ed.2 is not implemented.
package windgen

import (
	"fmt"
	"math"
)

// TurbineClass is the IEC wind-turbine class (I, II, III), which fixes the
// reference wind speed V_ref (IEC 61400-1 ed.3 Table 1).
type TurbineClass int

// Turbine classes.
const (
	ClassI TurbineClass = iota + 1
	ClassII
	ClassIII
)

// VRef is the 10-min reference wind speed at hub height [m/s]
// (IEC 61400-1 ed.3 Table 1: 50, 42.5, 37.5).
func (c TurbineClass) VRef() (float64, error) {
	switch c {
	case ClassI:
		return 50, nil
	case ClassII:
		return 42.5, nil
	case ClassIII:
		return 37.5, nil
	}
	return 0, fmt.Errorf("windgen: turbine class %d is not I, II or III", int(c))
}

// VAve is the annual average wind speed at hub height, 0.2·V_ref
// (IEC 61400-1 ed.3 §6.3.1.1).
func (c TurbineClass) VAve() (float64, error) {
	v, err := c.VRef()
	return 0.2 * v, err
}

// String returns the roman numeral of the class.
func (c TurbineClass) String() string {
	switch c {
	case ClassI:
		return "I"
	case ClassII:
		return "II"
	case ClassIII:
		return "III"
	}
	return fmt.Sprintf("TurbineClass(%d)", int(c))
}

// ParseTurbineClass accepts "I", "II", "III" or "1", "2", "3".
func ParseTurbineClass(s string) (TurbineClass, error) {
	switch s {
	case "I", "1", "i":
		return ClassI, nil
	case "II", "2", "ii":
		return ClassII, nil
	case "III", "3", "iii":
		return ClassIII, nil
	}
	return 0, fmt.Errorf("windgen: unknown turbine class %q (want I, II or III)", s)
}

// TurbulenceCategory is the IEC turbulence category, which fixes I_ref, the
// expected turbulence intensity at 15 m/s.
type TurbulenceCategory int

// Turbulence categories. CategoryAPlus exists from ed.4 on.
const (
	CategoryAPlus TurbulenceCategory = iota + 1
	CategoryA
	CategoryB
	CategoryC
)

// IRef is the expected value of the hub-height turbulence intensity at
// 15 m/s (IEC 61400-1 ed.3 Table 1; A+ = 0.18 from ed.4 Table 1).
func (c TurbulenceCategory) IRef() (float64, error) {
	switch c {
	case CategoryAPlus:
		return 0.18, nil
	case CategoryA:
		return 0.16, nil
	case CategoryB:
		return 0.14, nil
	case CategoryC:
		return 0.12, nil
	}
	return 0, fmt.Errorf("windgen: turbulence category %d is not A+, A, B or C", int(c))
}

// String returns the category letter.
func (c TurbulenceCategory) String() string {
	switch c {
	case CategoryAPlus:
		return "A+"
	case CategoryA:
		return "A"
	case CategoryB:
		return "B"
	case CategoryC:
		return "C"
	}
	return fmt.Sprintf("TurbulenceCategory(%d)", int(c))
}

// ParseTurbulenceCategory accepts "A+", "A", "B", "C" (case-insensitive).
func ParseTurbulenceCategory(s string) (TurbulenceCategory, error) {
	switch s {
	case "A+", "a+":
		return CategoryAPlus, nil
	case "A", "a":
		return CategoryA, nil
	case "B", "b":
		return CategoryB, nil
	case "C", "c":
		return CategoryC, nil
	}
	return 0, fmt.Errorf("windgen: unknown turbulence category %q (want A+, A, B or C)", s)
}

// Shear exponents of the power-law profiles: normal wind profile (NWP,
// IEC 61400-1 ed.3 §6.3.1.2) and extreme wind model (EWM, §6.3.2.1).
const (
	NormalShearExponent  = 0.2
	ExtremeShearExponent = 0.11
)

// Ratios of the lateral and vertical to the longitudinal standard deviation
// and of the integral scales to Λ1 for the Kaimal model (IEC 61400-1 ed.3
// Annex B, Table B.1): σ2 = 0.8σ1, σ3 = 0.5σ1; L1 = 8.1Λ1, L2 = 2.7Λ1,
// L3 = 0.66Λ1.
func kaimalRatios() (sigma, scale [3]float64) {
	return [3]float64{1, 0.8, 0.5}, [3]float64{8.1, 2.7, 0.66}
}

// IEC exponential coherence constants for the u component (IEC 61400-1 ed.3
// Annex B): Coh = exp(−a·√((f·r/V_hub)² + (b·r/L_c)²)), a = 12, b = 0.12,
// L_c = 8.1Λ1.
const (
	iecCoherenceA      = 12.0
	iecCoherenceB      = 0.12
	iecCoherenceLcRate = 8.1
)

// TurbulenceScale is the longitudinal turbulence scale parameter Λ1 [m]:
// 0.7·z_hub for z_hub ≤ 60 m, else 42 m (IEC 61400-1 ed.3 §6.3).
func TurbulenceScale(hubHeight float64) float64 {
	return 0.7 * math.Min(hubHeight, 60)
}

// NTMSigma is the normal turbulence model's design standard deviation
// σ1 = I_ref·(0.75·V_hub + b), b = 5.6 m/s (IEC 61400-1 ed.3 §6.3.1.3).
func NTMSigma(iRef, vHub float64) float64 {
	return iRef * (0.75*vHub + 5.6)
}

// ETMSigma is the extreme turbulence model's standard deviation
// σ1 = c·I_ref·(0.072·(V_ave/c + 3)·(V_hub/c − 4) + 10), normally c = 2 m/s
// (IEC 61400-1 ed.3 §6.3.2.3).
func ETMSigma(iRef, vAve, vHub, c float64) float64 {
	return c * iRef * (0.072*(vAve/c+3)*(vHub/c-4) + 10)
}

// EWMSigma is the standard deviation of the turbulent extreme wind model,
// σ1 = 0.11·V_hub (IEC 61400-1 ed.3 §6.3.2.1).
func EWMSigma(vHub float64) float64 { return 0.11 * vHub }

// ExtremeWindSpeeds returns the steady extreme wind model's hub-height
// speeds with 50-year and 1-year recurrence, V_e50 = 1.4·V_ref and
// V_e1 = 0.8·V_e50 (IEC 61400-1 ed.3 §6.3.2.1), and the turbulent
// model's 10-min means V_50 = V_ref and V_1 = 0.8·V_50 (same section).
func ExtremeWindSpeeds(class TurbineClass) (ve50, ve1, v50, v1 float64, err error) {
	vref, err := class.VRef()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	return 1.4 * vref, 0.8 * 1.4 * vref, vref, 0.8 * vref, nil
}

// PowerLaw returns V_hub·(z/z_hub)^α, the power-law wind profile
// (IEC 61400-1 ed.3 §6.3.1.2). Heights at or below zero give zero.
func PowerLaw(vHub, hubHeight, z, alpha float64) float64 {
	if z <= 0 {
		return 0
	}
	return vHub * math.Pow(z/hubHeight, alpha)
}

// Kaimal is the IEC Kaimal spectral model for the three components at one
// hub height and speed (IEC 61400-1 ed.3 Annex B).
type Kaimal struct {
	VHub  float64    // hub-height mean speed [m/s]
	Sigma [3]float64 // σ_u, σ_v, σ_w [m/s]
	L     [3]float64 // integral scales L_u, L_v, L_w [m]
}

// NewKaimal builds the IEC Kaimal model from σ1, the hub speed and Λ1.
func NewKaimal(sigma1, vHub, lambda1 float64) Kaimal {
	var k Kaimal
	k.VHub = vHub
	sigmaRatio, scaleRatio := kaimalRatios()
	for c := range 3 {
		k.Sigma[c] = sigmaRatio[c] * sigma1
		k.L[c] = scaleRatio[c] * lambda1
	}
	return k
}

// PSD is the one-sided power spectral density of component c (0 = u,
// 1 = v, 2 = w) at frequency f [Hz], in (m/s)²/Hz:
// S_k(f) = 4σ_k²(L_k/V)/(1 + 6f·L_k/V)^(5/3) (IEC 61400-1 ed.3 Annex B).
// Its integral over 0..∞ is σ_k².
func (k Kaimal) PSD(c int, f float64) float64 {
	t := k.L[c] / k.VHub
	return 4 * k.Sigma[c] * k.Sigma[c] * t / math.Pow(1+6*f*t, 5.0/3.0)
}

// IECCoherence is the IEC exponential coherence of the longitudinal
// component between two points a distance r [m] apart at frequency f [Hz]:
// exp(−12·√((f·r/V_hub)² + (0.12·r/L_c)²)), L_c = 8.1Λ1 (IEC 61400-1 ed.3
// Annex B). It is the coherence magnitude |S_xy|/√(S_xx·S_yy), so the
// magnitude-squared coherence is its square.
func IECCoherence(r, f, vHub, lambda1 float64) float64 {
	return math.Exp(-coherenceDecay(f, vHub, lambda1) * r)
}

// coherenceDecay is κ(f) such that the IEC coherence is exp(−κ·r).
func coherenceDecay(f, vHub, lambda1 float64) float64 {
	lc := iecCoherenceLcRate * lambda1
	return iecCoherenceA * math.Hypot(f/vHub, iecCoherenceB/lc)
}
