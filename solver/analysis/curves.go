package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// CurvePoint is one observation for the batch curves: a run's means over
// its analysis window (RunCurvePoint), or one sample of a run
// (SampleCurvePoints). Units are OpenFAST's output units so channel means
// can be passed straight in. Thrust, pitch and rotor speed are optional:
// NaN means "not recorded", and must be NaN for every point or for none.
type CurvePoint struct {
	WindSpeed     float64 `json:"wind_speed"`      // m/s (Wind1VelX, or RtVAvgxh for sheared inflow)
	PowerKW       float64 `json:"power_kw"`        // GenPwr, kW
	ThrustKN      float64 `json:"thrust_kn"`       // aerodynamic rotor thrust (RtFldFxh), kN
	PitchDeg      float64 `json:"pitch_deg"`       // BldPitch1, deg
	RotorSpeedRPM float64 `json:"rotor_speed_rpm"` // RotSpeed, rpm
	// RotorWindSpeed is the rotor-disk average of the undisturbed wind
	// (AeroDyn RtVAvgxh, m/s); 0 or NaN when not recorded. Cp and Ct use it
	// when every point of a bin has it, as AeroDyn's RtFldCp and RtFldCt do;
	// in sheared inflow it differs from the hub speed by about 1 %.
	RotorWindSpeed float64 `json:"rotor_wind_speed"`
	// NominalSpeed is the hub speed the run's inflow was generated for
	// (m/s; 0 when unknown), its place on a batch's wind-speed grid. With
	// BinGrid it, not the measured WindSpeed, picks the bin: the seeds of
	// a turbulent run scatter around it by up to a metre per second.
	NominalSpeed float64 `json:"-"`
}

// gridSpeed is the speed that places p on a wind-speed grid.
func (p CurvePoint) gridSpeed() float64 {
	if p.NominalSpeed > 0 {
		return p.NominalSpeed
	}
	return p.WindSpeed
}

// Binning selects the wind-speed bins of the curves.
type Binning int

const (
	// BinIEC uses contiguous bins of BinWidth (0.5 m/s by default) centred
	// on integer multiples of the width, IEC 61400-12-1 method of bins: bin
	// c covers [c − w/2, c + w/2).
	BinIEC Binning = iota
	// BinGrid uses the batch's own wind-speed grid (e.g. 4, 6, …, 24 m/s):
	// bins centred on Grid (or on the distinct NominalSpeeds of the points,
	// WindSpeed for a point without one, when Grid is nil), edges at the
	// mid-points, outer edges half a spacing out; a point goes to the bin
	// of its NominalSpeed (else WindSpeed). With integer-m/s inflow most
	// IEC 0.5 m/s bins would stay empty.
	BinGrid
)

// CurveOptions configure PowerCurve.
type CurveOptions struct {
	Binning  Binning
	BinWidth float64   // BinIEC; 0 selects 0.5 m/s
	Grid     []float64 // BinGrid centres; nil: the distinct speeds of the points
	// AirDensity ρ in kg/m³ for Cp and Ct; 0 selects 1.225 (ISO standard
	// atmosphere at sea level, the IEC 61400-12-1 reference and the value in
	// the NREL 5 MW and IEA 15 MW AeroDyn inputs).
	AirDensity float64
	// RotorRadius R in m; A = πR². Give the swept radius, tip radius ×
	// cos(precone): 63 m × cos 2.5° = 62.94 m for the NREL 5 MW, whose
	// AeroDyn RtArea output is 12445.3 m². 0 leaves Cp and Ct at 0. With
	// WindSpeed from RtVAvgxh, power from RtFldPwr and thrust from RtFldFxh
	// the bins reproduce OpenFAST's RtFldCp and RtFldCt (checked against the
	// v5.0.0 reference runs to 1e-6).
	RotorRadius float64
	// ThrustChannel is the name of the channel the points' thrust was read
	// from, copied into Curve.ThrustChannel.
	ThrustChannel string
}

// CurveBin is one wind-speed bin of the batch curves. Means are plain
// arithmetic means of the points in the bin (IEC 61400-12-1: V̄ᵢ, P̄ᵢ).
type CurveBin struct {
	Center        float64 `json:"center"`
	Low           float64 `json:"low"`
	High          float64 `json:"high"`
	N             int     `json:"n"`
	WindSpeed     float64 `json:"wind_speed"` // V̄ᵢ, m/s
	PowerKW       float64 `json:"power_kw"`
	ThrustKN      float64 `json:"thrust_kn"`
	PitchDeg      float64 `json:"pitch_deg"`
	RotorSpeedRPM float64 `json:"rotor_speed_rpm"`
	// PowerStdKW and ThrustStdKN are the sample standard deviations of the
	// points' power and thrust in the bin (IEC 61400-12-1 reports the spread
	// of each bin with its mean); 0 for a bin of one point.
	PowerStdKW  float64 `json:"power_std_kw"`
	ThrustStdKN float64 `json:"thrust_std_kn"`
	// Cp = P̄ᵢ/(½ρA V̄ᵢ³) and Ct = T̄ᵢ/(½ρA V̄ᵢ²) with P in W and T in N. From
	// GenPwr this is the electrical power coefficient (after generator
	// losses), below the aerodynamic RtAeroCp. V̄ᵢ is the bin's mean
	// rotor-average wind (RotorWindSpeed) when every point has one, else
	// its mean binned wind speed; CoefficientWindSpeed is the one used.
	Cp                   float64 `json:"cp"`
	Ct                   float64 `json:"ct"`
	CoefficientWindSpeed float64 `json:"coefficient_wind_speed"`
}

// MarshalJSON writes an unbounded upper edge (grid binning of a single
// wind speed: one bin over [0, ∞)) as null: JSON has no infinity.
func (b CurveBin) MarshalJSON() ([]byte, error) {
	type plain CurveBin
	return json.Marshal(struct {
		plain
		High *float64 `json:"high"`
	}{plain(b), finiteOrNil(b.High)})
}

// Curve is the binned result; only non-empty bins are listed, in order of
// wind speed.
type Curve struct {
	Bins          []CurveBin `json:"bins"`
	AirDensity    float64    `json:"air_density"`  // kg/m³
	RotorRadius   float64    `json:"rotor_radius"` // m; 0: Cp and Ct not computed
	RotorArea     float64    `json:"rotor_area"`   // m²
	HasThrust     bool       `json:"has_thrust"`
	HasPitch      bool       `json:"has_pitch"`
	HasRotorSpeed bool       `json:"has_rotor_speed"`
	// ThrustChannel names the channel the thrust and Ct come from
	// (CurveOptions.ThrustChannel); "" when not stated.
	ThrustChannel string `json:"thrust_channel"`
	// CoefficientWind says which wind speed Cp and Ct divide by:
	// "rotor_average" (RtVAvgxh, as AeroDyn's RtFldCp/RtFldCt) when every
	// point records it, else "binned" (the speed the points are binned by).
	CoefficientWind string `json:"coefficient_wind"`
}

// PowerCurve bins the points by wind speed and averages each quantity per
// bin, giving the power, thrust, Cp, Ct, pitch and rotor-speed curves.
func PowerCurve(points []CurvePoint, opt CurveOptions) (Curve, error) {
	if len(points) == 0 {
		return Curve{}, errors.New("power curve: no points")
	}
	rho := opt.AirDensity
	if rho == 0 {
		rho = 1.225
	}
	if !(rho > 0) || math.IsInf(rho, 0) {
		return Curve{}, fmt.Errorf("power curve: air density %g must be positive", rho)
	}
	if opt.RotorRadius < 0 || math.IsNaN(opt.RotorRadius) || math.IsInf(opt.RotorRadius, 0) {
		return Curve{}, fmt.Errorf("power curve: rotor radius %g must be non-negative", opt.RotorRadius)
	}
	hasT, err := optionalPresence(points, func(p CurvePoint) float64 { return p.ThrustKN }, "thrust")
	if err != nil {
		return Curve{}, err
	}
	hasP, err := optionalPresence(points, func(p CurvePoint) float64 { return p.PitchDeg }, "pitch")
	if err != nil {
		return Curve{}, err
	}
	hasR, err := optionalPresence(points, func(p CurvePoint) float64 { return p.RotorSpeedRPM }, "rotor speed")
	if err != nil {
		return Curve{}, err
	}
	for i, p := range points {
		if !(p.WindSpeed >= 0) || math.IsInf(p.WindSpeed, 0) {
			return Curve{}, fmt.Errorf("power curve: point %d has wind speed %v", i, p.WindSpeed)
		}
		if math.IsNaN(p.PowerKW) || math.IsInf(p.PowerKW, 0) {
			return Curve{}, fmt.Errorf("power curve: point %d has power %v", i, p.PowerKW)
		}
	}

	// Bin assignment: index of each point's bin and the bin limits.
	var centers, lows, highs []float64
	binOf := make([]int, len(points))
	switch opt.Binning {
	case BinIEC:
		w := opt.BinWidth
		if w == 0 {
			w = 0.5
		}
		if !(w > 0) || math.IsInf(w, 0) {
			return Curve{}, fmt.Errorf("power curve: bin width %g must be positive", w)
		}
		index := map[int64]int{}
		for i, p := range points {
			// Bin c covers [c − w/2, c + w/2): floor(V/w + 1/2) is its index.
			k := int64(math.Floor(p.WindSpeed/w + 0.5))
			b, ok := index[k]
			if !ok {
				b = len(centers)
				index[k] = b
				c := float64(k) * w
				centers = append(centers, c)
				lows = append(lows, c-w/2)
				highs = append(highs, c+w/2)
			}
			binOf[i] = b
		}
	case BinGrid:
		grid := opt.Grid
		if len(grid) == 0 {
			speeds := make([]float64, len(points))
			for i, p := range points {
				speeds[i] = p.gridSpeed()
			}
			grid = distinctSpeeds(speeds)
		} else {
			grid = append([]float64(nil), grid...)
			sort.Float64s(grid)
			for i := 1; i < len(grid); i++ {
				if grid[i] == grid[i-1] {
					return Curve{}, fmt.Errorf("power curve: grid speed %g repeated", grid[i])
				}
			}
		}
		edges := gridEdges(grid)
		centers, lows, highs = grid, edges[:len(grid)], edges[1:]
		for i, p := range points {
			v := p.gridSpeed()
			b := nearestIndex(grid, v)
			if v < lows[b] || v > highs[b] {
				return Curve{}, fmt.Errorf("power curve: point %d at %g m/s is outside the grid %g–%g m/s", i, v, edges[0], edges[len(edges)-1])
			}
			binOf[i] = b
		}
	default:
		return Curve{}, fmt.Errorf("power curve: unknown binning %d", int(opt.Binning))
	}

	bins := make([]CurveBin, len(centers))
	for b := range bins {
		bins[b].Center, bins[b].Low, bins[b].High = centers[b], lows[b], highs[b]
	}
	rotorWind := make([]float64, len(bins)) // sum of RotorWindSpeed per bin
	rotorWindN := make([]int, len(bins))
	for i, p := range points {
		b := &bins[binOf[i]]
		if p.RotorWindSpeed > 0 && !math.IsInf(p.RotorWindSpeed, 0) {
			rotorWind[binOf[i]] += p.RotorWindSpeed
			rotorWindN[binOf[i]]++
		}
		b.N++
		b.WindSpeed += p.WindSpeed
		b.PowerKW += p.PowerKW
		if hasT {
			b.ThrustKN += p.ThrustKN
		}
		if hasP {
			b.PitchDeg += p.PitchDeg
		}
		if hasR {
			b.RotorSpeedRPM += p.RotorSpeedRPM
		}
	}
	area := math.Pi * opt.RotorRadius * opt.RotorRadius
	out := Curve{AirDensity: rho, RotorRadius: opt.RotorRadius, RotorArea: area, HasThrust: hasT, HasPitch: hasP, HasRotorSpeed: hasR,
		ThrustChannel: opt.ThrustChannel, CoefficientWind: "binned"}
	if slices.Equal(rotorWindN, binCounts(bins)) {
		out.CoefficientWind = "rotor_average"
	}
	for k := range bins {
		if n := float64(bins[k].N); n > 0 {
			bins[k].PowerKW /= n
			bins[k].ThrustKN /= n
		}
	}
	// Spread: sample standard deviation about the bin mean (second pass).
	for i, p := range points {
		b := &bins[binOf[i]]
		b.PowerStdKW += (p.PowerKW - b.PowerKW) * (p.PowerKW - b.PowerKW)
		if hasT {
			b.ThrustStdKN += (p.ThrustKN - b.ThrustKN) * (p.ThrustKN - b.ThrustKN)
		}
	}
	for k, b := range bins {
		if b.N == 0 {
			continue
		}
		n := float64(b.N)
		b.WindSpeed /= n
		b.PitchDeg /= n
		b.RotorSpeedRPM /= n
		if b.N > 1 {
			b.PowerStdKW = math.Sqrt(b.PowerStdKW / (n - 1))
			b.ThrustStdKN = math.Sqrt(b.ThrustStdKN / (n - 1))
		} else {
			b.PowerStdKW, b.ThrustStdKN = 0, 0
		}
		b.CoefficientWindSpeed = b.WindSpeed
		if out.CoefficientWind == "rotor_average" {
			b.CoefficientWindSpeed = rotorWind[k] / n
		}
		if v := b.CoefficientWindSpeed; area > 0 && v > 0 {
			q := 0.5 * rho * area * v * v // dynamic pressure × area, N
			b.Cp = b.PowerKW * 1e3 / (q * v)
			if hasT {
				b.Ct = b.ThrustKN * 1e3 / q
			}
		}
		out.Bins = append(out.Bins, b)
	}
	sort.Slice(out.Bins, func(i, j int) bool { return out.Bins[i].Center < out.Bins[j].Center })
	return out, nil
}

// binCounts lists the number of points of each bin.
func binCounts(bins []CurveBin) []int {
	out := make([]int, len(bins))
	for i, b := range bins {
		out[i] = b.N
	}
	return out
}

// optionalPresence reports whether a quantity is recorded at every point
// (true) or none (false); a mix is an error.
func optionalPresence(points []CurvePoint, get func(CurvePoint) float64, what string) (bool, error) {
	present := 0
	for i, p := range points {
		v := get(p)
		if math.IsInf(v, 0) {
			return false, fmt.Errorf("power curve: point %d has %s %v", i, what, v)
		}
		if !math.IsNaN(v) {
			present++
		}
	}
	if present != 0 && present != len(points) {
		return false, fmt.Errorf("power curve: %s is given for %d of %d points; give it for all or none", what, present, len(points))
	}
	return present == len(points), nil
}

// CurveChannels name the channels RunCurvePoint reads. An empty optional
// name means the quantity is not recorded.
type CurveChannels struct {
	WindSpeed  string // required
	Power      string // required, kW
	Thrust     string // optional; N or kN by the channel's unit (RtFldFxh is in N), read as kN
	Pitch      string // optional, deg
	RotorSpeed string // optional, rpm
	RotorWind  string // optional, m/s: rotor-disk average wind for Cp and Ct
}

// AeroThrustChannels are AeroDyn's aerodynamic rotor thrust, the thrust of
// the thrust and Ct curves: RtFldFxh (OpenFAST v4 and later) or RtAeroFxh
// (earlier). ElastoDyn's RotThrust is not one of them: it adds the rotor's
// weight component along the tilted shaft (about 100 kN on the NREL 5 MW).
var AeroThrustChannels = []string{"RtFldFxh", "RtAeroFxh"}

// AeroThrustChannel returns the first of AeroThrustChannels rec records,
// or "" when it records neither.
func AeroThrustChannel(rec *Record) string {
	for _, n := range AeroThrustChannels {
		if _, err := rec.Index(n); err == nil {
			return n
		}
	}
	return ""
}

// OpenFASTCurveChannels are the usual OpenFAST output names: Wind1VelX,
// GenPwr, RtFldFxh, BldPitch1, RotSpeed (no rotor-average wind; see
// RecordedCurveChannels).
func OpenFASTCurveChannels() CurveChannels {
	return CurveChannels{WindSpeed: "Wind1VelX", Power: "GenPwr", Thrust: "RtFldFxh", Pitch: "BldPitch1", RotorSpeed: "RotSpeed"}
}

// RecordedCurveChannels are the OpenFAST curve channels rec records: wind
// from wind ("" for Wind1VelX), thrust from AeroThrustChannel, the
// rotor-average wind RtVAvgxh for Cp and Ct, and each optional channel ""
// when rec does not record it (so every run of a batch agrees on what is
// missing when they share an OutList).
func RecordedCurveChannels(rec *Record, wind string) CurveChannels {
	ch := OpenFASTCurveChannels()
	if wind != "" {
		ch.WindSpeed = wind
	}
	has := func(n string) bool { _, err := rec.Index(n); return err == nil }
	ch.Thrust = AeroThrustChannel(rec)
	if has("RtVAvgxh") {
		ch.RotorWind = "RtVAvgxh"
	}
	if !has(ch.Pitch) {
		ch.Pitch = ""
	}
	if !has(ch.RotorSpeed) {
		ch.RotorSpeed = ""
	}
	return ch
}

// RunCurvePoint averages the curve channels of one run over its window
// (after the transient): one point per run, the usual way to build curves
// from 10-min turbulent runs or from steady-wind sweeps.
func RunCurvePoint(rec *Record, w Window, ch CurveChannels) (CurvePoint, error) {
	pts, err := curveColumns(rec, w, ch)
	if err != nil {
		return CurvePoint{}, err
	}
	mean := func(col []float64) float64 {
		if col == nil {
			return math.NaN()
		}
		s := 0.0
		for _, v := range col {
			s += v
		}
		return s / float64(len(col))
	}
	return CurvePoint{
		WindSpeed: mean(pts[0]), PowerKW: mean(pts[1]), ThrustKN: mean(pts[2]),
		PitchDeg: mean(pts[3]), RotorSpeedRPM: mean(pts[4]), RotorWindSpeed: mean(pts[5]),
	}, nil
}

// SampleCurvePoints returns one point per sample inside the window, for
// binning samples rather than run means (scatter of instantaneous power).
func SampleCurvePoints(rec *Record, w Window, ch CurveChannels) ([]CurvePoint, error) {
	cols, err := curveColumns(rec, w, ch)
	if err != nil {
		return nil, err
	}
	at := func(col []float64, i int) float64 {
		if col == nil {
			return math.NaN()
		}
		return col[i]
	}
	out := make([]CurvePoint, len(cols[0]))
	for i := range out {
		out[i] = CurvePoint{
			WindSpeed: cols[0][i], PowerKW: cols[1][i], ThrustKN: at(cols[2], i),
			PitchDeg: at(cols[3], i), RotorSpeedRPM: at(cols[4], i), RotorWindSpeed: at(cols[5], i),
		}
	}
	return out, nil
}

// curveColumns returns the windowed columns wind, power, thrust, pitch,
// rotor speed; nil for an optional channel not named.
func curveColumns(rec *Record, w Window, ch CurveChannels) ([6][]float64, error) {
	var cols [6][]float64
	if err := rec.Validate(); err != nil {
		return cols, fmt.Errorf("curve point: %w", err)
	}
	if ch.WindSpeed == "" || ch.Power == "" {
		return cols, errors.New("curve point: wind-speed and power channels are required")
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return cols, fmt.Errorf("curve point: %w", err)
	}
	for k, name := range []string{ch.WindSpeed, ch.Power, ch.Thrust, ch.Pitch, ch.RotorSpeed, ch.RotorWind} {
		if name == "" {
			continue
		}
		c, err := rec.Channel(name)
		if err != nil {
			return cols, fmt.Errorf("curve point: %w", err)
		}
		if i := firstNonFinite(c[lo:hi]); i >= 0 {
			return cols, fmt.Errorf("curve point: channel %q sample at t = %g is not finite", name, rec.Time[lo+i])
		}
		cols[k] = c[lo:hi]
		if k == 2 {
			ci, _ := rec.Index(name)
			if f := thrustToKN(name, rec.Unit(ci)); f != 1 {
				kn := make([]float64, hi-lo)
				for i, v := range c[lo:hi] {
					kn[i] = v * f
				}
				cols[k] = kn
			}
		}
	}
	return cols, nil
}

// AEP is an annual energy production estimate.
type AEP struct {
	// MWhPerYear is the net AEP, Availability × GrossMWhPerYear.
	MWhPerYear float64 `json:"mwh_per_year"`
	// GrossMWhPerYear is the AEP at 100 % availability.
	GrossMWhPerYear float64 `json:"gross_mwh_per_year"`
	// Availability is the fraction of the year the turbine can produce
	// (pCrunch's 1 − loss), in (0, 1].
	Availability float64 `json:"availability"`
	// Hours is N_h = 8760 h.
	Hours float64 `json:"hours"`
	// UpToSpeed is the last bin's mean wind speed: the sum stops there (the
	// IEC "measured" AEP; no extrapolation to cut-out).
	UpToSpeed float64 `json:"up_to_speed"`
}

// AnnualEnergy is the IEC 61400-12-1 AEP of a power curve for a wind-speed
// distribution, at 100 % availability:
//
//	AEP = N_h · Σᵢ [F(V̄ᵢ) − F(V̄ᵢ₋₁)] · (P̄ᵢ₋₁ + P̄ᵢ)/2,
//
// N_h = 8760 h, over the bins in order of speed, with V̄₀ = V̄₁ − 0.5 m/s and
// P̄₀ = 0 (the standard's start). Power in kW gives kWh, reported in MWh.
func AnnualEnergy(bins []CurveBin, dist WindDistribution) (AEP, error) {
	return AnnualEnergyAt(bins, dist, 1)
}

// AnnualEnergyAt is AnnualEnergy times the availability a ∈ (0, 1]: the net
// AEP (1 − loss)·N_h·Σ… of pCrunch's simulation AEP. The power curve is that
// of an available turbine; the unavailable share of the year produces
// nothing.
func AnnualEnergyAt(bins []CurveBin, dist WindDistribution, availability float64) (AEP, error) {
	if !(availability > 0 && availability <= 1) {
		return AEP{}, fmt.Errorf("AEP: availability %v is not in (0, 1]", availability)
	}
	if len(bins) == 0 {
		return AEP{}, errors.New("AEP: empty power curve")
	}
	if dist == nil {
		return AEP{}, errors.New("AEP: no wind distribution")
	}
	if err := dist.Validate(); err != nil {
		return AEP{}, fmt.Errorf("AEP: %w", err)
	}
	const hours = 8760.0
	prevV, prevP := bins[0].WindSpeed-0.5, 0.0
	sumKW := 0.0
	for i, b := range bins {
		if math.IsNaN(b.PowerKW) || math.IsInf(b.PowerKW, 0) {
			return AEP{}, fmt.Errorf("AEP: bin %d power %v", i, b.PowerKW)
		}
		if i > 0 && !(b.WindSpeed > prevV) {
			return AEP{}, fmt.Errorf("AEP: bin %d mean speed %g does not increase (previous %g)", i, b.WindSpeed, prevV)
		}
		sumKW += (dist.CDF(b.WindSpeed) - dist.CDF(prevV)) * 0.5 * (prevP + b.PowerKW)
		prevV, prevP = b.WindSpeed, b.PowerKW
	}
	gross := hours * sumKW / 1000
	return AEP{MWhPerYear: availability * gross, GrossMWhPerYear: gross, Availability: availability, Hours: hours, UpToSpeed: prevV}, nil
}

// thrustToKN is the factor from a thrust channel's unit to kN: its unit
// when the record carries one ("(N)" or "(kN)"), else OpenFAST's unit of
// the channel (AeroDyn's rotor loads in N, ElastoDyn's in kN).
func thrustToKN(name, unit string) float64 {
	u := strings.ToLower(strings.Trim(strings.TrimSpace(unit), "()"))
	switch u {
	case "n":
		return 1e-3
	case "kn":
		return 1
	}
	if slices.ContainsFunc(AeroThrustChannels, func(n string) bool { return strings.EqualFold(n, name) }) {
		return 1e-3
	}
	return 1
}
