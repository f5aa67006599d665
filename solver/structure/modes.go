package structure

import "math"

// NaturalFrequencies are the first natural frequencies of the turbine's
// main structural modes, Hz, for marking spectra: where a response peak
// is structural rather than a rotor harmonic.
type NaturalFrequencies struct {
	TowerForeAft  float64 `json:"tower_fore_aft"`
	TowerSideSide float64 `json:"tower_side_side"`
	BladeFlap     float64 `json:"blade_flap"`
	BladeEdge     float64 `json:"blade_edge"`
}

// NaturalFrequencies estimates the first tower fore-aft and side-side and
// blade flap and edge frequencies by Rayleigh's quotient on the model's
// assumed mode shapes (ElastoDyn's polynomial shapes, Jonkman 2005
// ElastoDyn theory §§ tower and blade modes): f = √(k/m)/2π with k the
// generalised stiffness and m the generalised mass. The tower modes carry
// the rotor–nacelle assembly (yaw bearing, nacelle, hub, blades and tip
// masses) as a point mass at the top, where the normalised shape is 1;
// its rotary inertia is left out, which puts the estimate a few per cent
// above a full eigen-analysis. The blade modes are those of the
// non-rotating blade (no centrifugal stiffening), as ElastoDyn reports
// them; the first blade's.
func (m *Model) NaturalFrequencies() NaturalFrequencies {
	top := m.p.YawBrMass + m.p.NacMass + m.p.HubMass
	for k := range m.bElmMass {
		for _, v := range m.bElmMass[k] {
			top += v
		}
		if k < len(m.p.TipMass) {
			top += m.p.TipMass[k]
		}
	}
	withTop := func(k, fAlone float64) float64 {
		if !(fAlone > 0) || !(k > 0) {
			return 0
		}
		w := 2 * math.Pi * fAlone
		gen := k / (w * w) // the tower's own generalised mass
		return math.Sqrt(k/(gen+top)) / (2 * math.Pi)
	}
	return NaturalFrequencies{
		TowerForeAft:  withTop(m.kFA[0][0], m.FreqTFA[0]),
		TowerSideSide: withTop(m.kSS[0][0], m.FreqTSS[0]),
		BladeFlap:     m.FreqBF[0],
		BladeEdge:     m.FreqBE,
	}
}
