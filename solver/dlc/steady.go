package dlc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/turbinesim/turbinesim/solver/control/rosco"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// CpSurface is a power-coefficient table Cp[i][j] at TSR[i] and Pitch[j]
// (deg), both ascending: the Cp part of ROSCO's Cp_Ct_Cq text tables or of
// solver/perf's Surface (CpSurface{TSR: s.TSR, Pitch: s.Pitch, Cp: s.Cp}).
type CpSurface struct {
	TSR   []float64
	Pitch []float64
	Cp    [][]float64
	// Ct is the thrust coefficient on the same grid (the Ct part of a
	// ROSCO table); nil when the surface has none.
	Ct [][]float64
}

// maxCpTableBytes bounds the read of a Cp table: the published tables are
// tens of kilobytes.
const maxCpTableBytes = 16 << 20

// ReadCpTable reads the pitch and TSR vectors and the power-coefficient
// matrix of a ROSCO Cp_Ct_Cq text table. The table is read by position
// (pitch, TSR and wind-speed vectors, then the Cp, Ct and Cq matrices, '#'
// lines skipped), as ROSCO reads it, not by the text of its comment lines:
// the bundled reference turbines keep the numbers of these files with every
// comment reduced to a bare '#'. Errors name the file by its base name only.
func ReadCpTable(path string) (*CpSurface, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("dlc: Cp table %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	t, err := rosco.ReadPerfTable(io.LimitReader(f, maxCpTableBytes))
	if err != nil {
		return nil, fmt.Errorf("dlc: Cp table %s: %w", filepath.Base(path), err)
	}
	return &CpSurface{TSR: t.TSR, Pitch: t.PitchDeg, Cp: t.Cp, Ct: t.Ct}, nil
}

// OperatingPoint is one steady operating point of a turbine.
type OperatingPoint struct {
	WindSpeed  float64 `json:"wind_speed"`  // m/s
	RotorSpeed float64 `json:"rotor_speed"` // rpm
	Pitch      float64 `json:"pitch"`       // deg
	// Cp and Ct are the rotor's power and thrust coefficients there, from
	// the Cp surface (Ct zero when the surface has none).
	Cp float64 `json:"cp,omitempty"`
	Ct float64 `json:"ct,omitempty"`
}

// SteadyState is a table of operating points sorted by wind speed.
type SteadyState []OperatingPoint

// At interpolates the table linearly at wind speed v; ok is false outside
// the table's range or for an empty table.
func (s SteadyState) At(v float64) (rpm, pitch float64, ok bool) {
	p, ok := s.Point(v)
	return p.RotorSpeed, p.Pitch, ok
}

// Point interpolates every quantity of the table linearly at wind speed v;
// ok is false outside the table's range or for an empty table.
func (s SteadyState) Point(v float64) (OperatingPoint, bool) {
	n := len(s)
	if n == 0 || math.IsNaN(v) || v < s[0].WindSpeed || v > s[n-1].WindSpeed {
		return OperatingPoint{}, false
	}
	i := sort.Search(n, func(i int) bool { return s[i].WindSpeed >= v })
	if s[i].WindSpeed == v || i == 0 {
		return s[i], true
	}
	a, b := s[i-1], s[i]
	f := (v - a.WindSpeed) / (b.WindSpeed - a.WindSpeed)
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	return OperatingPoint{WindSpeed: v, RotorSpeed: lerp(a.RotorSpeed, b.RotorSpeed), Pitch: lerp(a.Pitch, b.Pitch),
		Cp: lerp(a.Cp, b.Cp), Ct: lerp(a.Ct, b.Ct)}, true
}

// ControlPoint holds what a steady-state calculation needs from the
// controller: the ROSCO DISCON.IN quantities of the same names, in turbine
// units.
type ControlPoint struct {
	RatedPower    float64 // VS_RtPwr, electrical, W
	GenEfficiency float64 // VS_GenEff / 100
	RatedRotor    float64 // VS_RefSpd / gearbox ratio, rotor rpm
	MinRotor      float64 // VS_MinOMSpd / gearbox ratio, rotor rpm
	TSROpt        float64 // VS_TSRopt
	FinePitch     float64 // PC_FinePit, deg
	Radius        float64 // rotor radius (TipRad), m
	AirDensity    float64 // kg/m³
	// MinPitchWind and MinPitch (deg) are ROSCO's minimum-pitch
	// saturation (PS_Mode 1: PS_WindSpeeds, PS_BldPitchMin), the
	// "peak shaving" that pitches the blades out below rated to cap the
	// thrust; nil without it.
	MinPitchWind, MinPitch []float64
}

// ErrNoSteadyState says the deck lacks the controller data of a steady-state
// table (a ROSCO DISCON.IN with a PerfFileName Cp table).
var ErrNoSteadyState = errors.New("deck has no steady-state operating data")

// SteadyStateFromDeck builds the operating points of a deck with a ROSCO
// controller whose DISCON.IN names a Cp table (PerfFileName), from 1 to
// 40 m/s every 0.5 m/s. Other decks return ErrNoSteadyState.
func SteadyStateFromDeck(d *deck.Deck) (SteadyState, error) {
	if d == nil || d.Controller == nil || d.ElastoDyn == nil || d.Main == nil {
		return nil, ErrNoSteadyState
	}
	c := d.Controller
	pf, ok := c.String("PerfFileName")
	if !ok || pf == "" {
		return nil, ErrNoSteadyState
	}
	get := func(name string) (float64, error) {
		v, ok, err := c.Float(name)
		if err != nil {
			return 0, fmt.Errorf("DISCON %s: %w", name, err)
		}
		if !ok {
			return 0, fmt.Errorf("DISCON %s missing: %w", name, ErrNoSteadyState)
		}
		return v, nil
	}
	vals := map[string]float64{}
	for _, n := range []string{"VS_RtPwr", "VS_GenEff", "VS_RefSpd", "VS_MinOMSpd", "VS_TSRopt", "PC_FinePit", "WE_GearboxRatio"} {
		v, err := get(n)
		if err != nil {
			return nil, fmt.Errorf("dlc: steady state: %w", err)
		}
		vals[n] = v
	}
	surf, err := ReadCpTable(resolve(c.Meta.Path, pf))
	if err != nil {
		return nil, fmt.Errorf("dlc: steady state: %w", err)
	}
	gb := vals["WE_GearboxRatio"]
	if !(gb > 0) {
		gb = 1
	}
	rho := d.Main.AirDens
	if !(rho > 0) {
		rho = 1.225
	}
	radSToRPM := 60 / (2 * math.Pi)
	cp := ControlPoint{RatedPower: vals["VS_RtPwr"], GenEfficiency: vals["VS_GenEff"] / 100,
		RatedRotor: vals["VS_RefSpd"] / gb * radSToRPM, MinRotor: vals["VS_MinOMSpd"] / gb * radSToRPM,
		TSROpt: vals["VS_TSRopt"], FinePitch: vals["PC_FinePit"] * 180 / math.Pi,
		Radius: d.ElastoDyn.TipRad, AirDensity: rho}
	if ps, _, _ := c.Int("PS_Mode"); ps == 1 {
		ws, ok1, err1 := c.Floats("PS_WindSpeeds")
		mp, ok2, err2 := c.Floats("PS_BldPitchMin")
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("dlc: steady state: DISCON: %w", err)
		}
		if ok1 && ok2 && len(ws) == len(mp) && len(ws) > 0 && sort.Float64sAreSorted(ws) {
			cp.MinPitchWind = ws
			for _, x := range mp {
				cp.MinPitch = append(cp.MinPitch, x*180/math.Pi)
			}
		}
	}
	var speeds []float64
	for v := 1.0; v <= 40; v += 0.5 {
		speeds = append(speeds, v)
	}
	return SteadyStateFromSurface(surf, cp, speeds)
}

// SteadyStateFromSurface computes the steady operating points of a
// variable-speed pitch-regulated turbine from its Cp(λ, θ) surface:
//
//	below rated:  Ω = clamp(λ_opt·V/R, Ω_min, Ω_rated), θ = θ_fine;
//	above rated:  Ω = Ω_rated and θ ≥ θ_fine such that
//	              η·½ρπR²V³·Cp(Ω_rated·R/V, θ) = P_rated
//
// (the standard region-2/region-3 schedule of a variable-speed,
// pitch-to-feather controller; Jonkman et al. 2009 §7). Speeds whose λ
// falls outside the surface are left out.
func SteadyStateFromSurface(s *CpSurface, c ControlPoint, speeds []float64) (SteadyState, error) {
	if s == nil || len(s.TSR) < 2 || len(s.Pitch) < 2 || len(s.Cp) != len(s.TSR) {
		return nil, fmt.Errorf("dlc: steady state: Cp surface needs at least 2 TSR and 2 pitch values")
	}
	for _, a := range [][]float64{s.TSR, s.Pitch} {
		for k := 1; k < len(a); k++ {
			if !(a[k] > a[k-1]) {
				return nil, fmt.Errorf("dlc: steady state: Cp surface axes must be strictly ascending")
			}
		}
	}
	for i, row := range s.Cp {
		if len(row) != len(s.Pitch) {
			return nil, fmt.Errorf("dlc: steady state: Cp row %d has %d values for %d pitch angles", i+1, len(row), len(s.Pitch))
		}
	}
	if !(c.RatedPower > 0) || !(c.RatedRotor > 0) || !(c.TSROpt > 0) || !(c.Radius > 0) || !(c.AirDensity > 0) || !(c.GenEfficiency > 0) {
		return nil, fmt.Errorf("dlc: steady state: rated power, rated rotor speed, optimal TSR, radius, air density and efficiency must be positive (%+v)", c)
	}
	rpmToRadS := 2 * math.Pi / 60
	area := math.Pi * c.Radius * c.Radius
	var out SteadyState
	for _, v := range speeds {
		if !(v > 0) {
			continue
		}
		omega := c.TSROpt * v / c.Radius / rpmToRadS
		omega = math.Max(c.MinRotor, math.Min(c.RatedRotor, omega))
		lambda := omega * rpmToRadS * c.Radius / v
		if lambda < s.TSR[0] || lambda > s.TSR[len(s.TSR)-1] {
			continue
		}
		pAvail := c.GenEfficiency * 0.5 * c.AirDensity * area * v * v * v
		target := c.RatedPower / pAvail
		pitch := c.FinePitch
		if len(c.MinPitch) > 0 {
			// ROSCO saturates its pitch command from below by the table
			// at its wind-speed estimate (PS_Mode 1).
			pitch = math.Max(pitch, interp1(c.MinPitchWind, c.MinPitch, v))
		}
		if cpAt(s, lambda, pitch) > target {
			p, ok := pitchFor(s, lambda, pitch, target)
			if !ok {
				continue
			}
			pitch = p
		}
		op := OperatingPoint{WindSpeed: v, RotorSpeed: omega, Pitch: pitch, Cp: cpAt(s, lambda, pitch)}
		if len(s.Ct) == len(s.TSR) {
			op.Ct = tableAt(s, s.Ct, lambda, pitch)
		}
		out = append(out, op)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dlc: steady state: no wind speed falls inside the Cp surface")
	}
	return out, nil
}

// pitchFor finds the smallest pitch above from where Cp(λ, θ) falls to
// target, by stepping through the surface's pitch grid and interpolating
// linearly inside the bracketing interval.
func pitchFor(s *CpSurface, lambda, from, target float64) (float64, bool) {
	prevP, prevC := from, cpAt(s, lambda, from)
	for _, p := range s.Pitch {
		if p <= from {
			continue
		}
		cp := cpAt(s, lambda, p)
		if cp <= target {
			if prevC == cp {
				return p, true
			}
			return prevP + (prevC-target)/(prevC-cp)*(p-prevP), true
		}
		prevP, prevC = p, cp
	}
	return 0, false
}

// cpAt interpolates the surface bilinearly (clamped at the edges).
func cpAt(s *CpSurface, lambda, pitch float64) float64 { return tableAt(s, s.Cp, lambda, pitch) }

// interp1 interpolates y(x) linearly at v, holding the end values outside
// x's range.
func interp1(x, y []float64, v float64) float64 {
	n := len(x)
	switch {
	case v <= x[0]:
		return y[0]
	case v >= x[n-1]:
		return y[n-1]
	}
	k := sort.SearchFloat64s(x, v)
	f := (v - x[k-1]) / (x[k] - x[k-1])
	return y[k-1] + f*(y[k]-y[k-1])
}

// tableAt interpolates a table on s's grid (Cp or Ct) bilinearly.
func tableAt(s *CpSurface, c [][]float64, lambda, pitch float64) float64 {
	i, fi := bracket(s.TSR, lambda)
	j, fj := bracket(s.Pitch, pitch)
	if len(c[i]) <= j+1 || len(c[i+1]) <= j+1 {
		return 0
	}
	c00, c01 := c[i][j], c[i][j+1]
	c10, c11 := c[i+1][j], c[i+1][j+1]
	return (1-fi)*((1-fj)*c00+fj*c01) + fi*((1-fj)*c10+fj*c11)
}

// bracket returns k and the fraction f with x = a[k] + f·(a[k+1] − a[k]),
// clamped to [0, 1].
func bracket(a []float64, x float64) (int, float64) {
	n := len(a)
	k := sort.SearchFloat64s(a, x) - 1
	if k < 0 {
		k = 0
	}
	if k > n-2 {
		k = n - 2
	}
	f := (x - a[k]) / (a[k+1] - a[k])
	return k, math.Max(0, math.Min(1, f))
}
