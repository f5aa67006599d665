package windgen

import (
	"fmt"
	"math"
	"sort"
)

// UniformWindRow is one line of an InflowWind uniform-wind file (WindType 2):
// InflowWind computes the longitudinal speed at (x, y, z)
// as Speed·((z/RefHt)^PowerLaw + (HorizShear·(y·cosδ + x·sinδ) +
// LinVShear·(z − RefHt))/RefLength) + Gust and turns it by Direction δ.
// The rows made here assume RefHt = hub height and RefLength = rotor
// diameter (InflowWind's RefHt_Uni and RefLength inputs).
type UniformWindRow struct {
	Time       float64 // [s]
	Speed      float64 // horizontal hub-height speed [m/s]
	Direction  float64 // wind direction [deg], InflowWind's sign convention
	Vertical   float64 // vertical speed [m/s]
	HorizShear float64 // linear horizontal shear [-], relative to Speed over RefLength
	PowerLaw   float64 // vertical power-law shear exponent [-]
	LinVShear  float64 // linear vertical shear [-], relative to Speed over RefLength
	Gust       float64 // gust speed added at all heights [m/s]
}

// EventSite is the turbine and operating point of a deterministic event.
type EventSite struct {
	Class         TurbineClass
	Category      TurbulenceCategory
	HubHeight     float64 // [m]
	RotorDiameter float64 // D [m]
	VHub          float64 // hub-height speed before the event [m/s]
	// ShearExponent of the underlying normal wind profile; nil means the
	// NWP value 0.2 (IEC 61400-1 ed.3 §6.3.1.2).
	ShearExponent *float64
}

// EventTiming places the event in the series: rows every Dt from 0 to
// Length, the event starting at Start. Row times at the event's start and
// end are always included so InflowWind's linear interpolation in time
// reproduces the corners exactly.
type EventTiming struct {
	Start  float64 // [s]
	Length float64 // [s]
	Dt     float64 // [s]
}

// EventInfo reports the IEC quantities of a generated event.
type EventInfo struct {
	Name      string  // "EOG", "EDC", "ECD", "EWS-V", "EWS-H"
	Sigma1    float64 // NTM σ1 at V_hub [m/s]
	Lambda1   float64 // Λ1 [m]
	Period    float64 // T [s]
	Amplitude float64 // V_gust [m/s] (EOG), θ_e [deg] (EDC), θ_cg [deg] (ECD), shear amplitude [m/s] (EWS)
}

// Event durations T (IEC 61400-1 ed.3 §6.3.2.2-6.3.2.6).
const (
	eogPeriod = 10.5
	edcPeriod = 6.0
	ecdPeriod = 10.0
	ewsPeriod = 12.0
	// ECD gust magnitude V_cg (ed.3 §6.3.2.5) and EWS β (§6.3.2.6).
	ecdGust = 15.0
	ewsBeta = 6.4
)

// resolved are the common inputs of the events.
type resolved struct {
	vHub, alpha, sigma1, lambda1, d, vref float64
}

func (s EventSite) resolve() (resolved, error) {
	var r resolved
	vref, err := s.Class.VRef()
	if err != nil {
		return r, err
	}
	iref, err := s.Category.IRef()
	if err != nil {
		return r, err
	}
	if !(s.HubHeight > 0) || math.IsInf(s.HubHeight, 0) {
		return r, fmt.Errorf("windgen: hub height %g m must be positive", s.HubHeight)
	}
	if !(s.RotorDiameter > 0) || math.IsInf(s.RotorDiameter, 0) {
		return r, fmt.Errorf("windgen: rotor diameter %g m must be positive", s.RotorDiameter)
	}
	if !(s.VHub > 0) || s.VHub > 100 {
		return r, fmt.Errorf("windgen: hub speed %g m/s out of range (0, 100]", s.VHub)
	}
	r.alpha = NormalShearExponent
	if s.ShearExponent != nil {
		r.alpha = *s.ShearExponent
		if math.IsNaN(r.alpha) || math.Abs(r.alpha) > 2 {
			return r, fmt.Errorf("windgen: shear exponent %g out of range [−2, 2]", r.alpha)
		}
	}
	r.vHub = s.VHub
	r.vref = vref
	r.sigma1 = NTMSigma(iref, s.VHub)
	r.lambda1 = TurbulenceScale(s.HubHeight)
	r.d = s.RotorDiameter
	return r, nil
}

// times returns the row times: every Dt over [0, Length] plus the event's
// start and end.
func (tm EventTiming) times(period float64) ([]float64, error) {
	if !(tm.Dt > 0) || math.IsInf(tm.Dt, 0) {
		return nil, fmt.Errorf("windgen: event row spacing %g s must be positive", tm.Dt)
	}
	if !(tm.Start >= 0) || !(tm.Length > 0) || math.IsInf(tm.Length, 0) {
		return nil, fmt.Errorf("windgen: event start %g s and length %g s must be ≥ 0 and > 0", tm.Start, tm.Length)
	}
	n := int(math.Floor(tm.Length/tm.Dt + 1e-9))
	if n > 10_000_000 {
		return nil, fmt.Errorf("windgen: %d event rows are too many", n)
	}
	ts := make([]float64, 0, n+3)
	for i := 0; i <= n; i++ {
		ts = append(ts, float64(i)*tm.Dt)
	}
	for _, t := range []float64{tm.Start, tm.Start + period} {
		if t <= tm.Length {
			ts = append(ts, t)
		}
	}
	sort.Float64s(ts)
	out := ts[:1]
	for _, t := range ts[1:] {
		if t-out[len(out)-1] > 1e-9*tm.Dt {
			out = append(out, t)
		}
	}
	return out, nil
}

// phase returns the event-local time τ = t − Start clamped to [0, T].
func phase(t, start, period float64) float64 {
	return math.Min(math.Max(t-start, 0), period)
}

// sign checks a ±1 event direction.
func sign(s int) (float64, error) {
	switch s {
	case 1:
		return 1, nil
	case -1:
		return -1, nil
	}
	return 0, fmt.Errorf("windgen: event sign %d must be +1 or −1", s)
}

func steadyRow(t float64, r resolved) UniformWindRow {
	return UniformWindRow{Time: t, Speed: r.vHub, PowerLaw: r.alpha}
}

// EOG is the extreme operating gust (IEC 61400-1 ed.3 §6.3.2.2):
// V_gust = min(1.35·(V_e1 − V_hub), 3.3·σ1/(1 + 0.1·D/Λ1)) and
// V(z,t) = V(z) − 0.37·V_gust·sin(3πt/T)·(1 − cos(2πt/T)) for 0 ≤ t ≤ T,
// T = 10.5 s. The gust goes in the Gust column (uniform over height, as
// the standard adds it to the profile V(z)).
func EOG(site EventSite, tm EventTiming) ([]UniformWindRow, EventInfo, error) {
	r, err := site.resolve()
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: EOG: %w", err)
	}
	ts, err := tm.times(eogPeriod)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: EOG: %w", err)
	}
	ve1 := 0.8 * 1.4 * r.vref
	vGust := math.Min(1.35*(ve1-r.vHub), 3.3*r.sigma1/(1+0.1*r.d/r.lambda1))
	if vGust < 0 {
		vGust = 0 // V_hub above V_e1: no gust is defined
	}
	rows := make([]UniformWindRow, len(ts))
	for i, t := range ts {
		rows[i] = steadyRow(t, r)
		tau := phase(t, tm.Start, eogPeriod)
		rows[i].Gust = -0.37 * vGust * math.Sin(3*math.Pi*tau/eogPeriod) * (1 - math.Cos(2*math.Pi*tau/eogPeriod))
	}
	return rows, EventInfo{Name: "EOG", Sigma1: r.sigma1, Lambda1: r.lambda1, Period: eogPeriod, Amplitude: vGust}, nil
}

// EDC is the extreme direction change (IEC 61400-1 ed.3 §6.3.2.4):
// θ_e = ±4·arctan(σ1/(V_hub·(1 + 0.1·D/Λ1))), limited to ±180°, and
// θ(t) = 0.5·θ_e·(1 − cos(πt/T)) for 0 ≤ t ≤ T, θ_e after, T = 6 s. sgn chooses the direction (+1 or −1).
func EDC(site EventSite, tm EventTiming, sgn int) ([]UniformWindRow, EventInfo, error) {
	r, err := site.resolve()
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: EDC: %w", err)
	}
	s, err := sign(sgn)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: EDC: %w", err)
	}
	ts, err := tm.times(edcPeriod)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: EDC: %w", err)
	}
	thetaE := math.Min(4*math.Atan(r.sigma1/(r.vHub*(1+0.1*r.d/r.lambda1)))*180/math.Pi, 180)
	rows := make([]UniformWindRow, len(ts))
	for i, t := range ts {
		rows[i] = steadyRow(t, r)
		tau := phase(t, tm.Start, edcPeriod)
		rows[i].Direction = s * 0.5 * thetaE * (1 - math.Cos(math.Pi*tau/edcPeriod))
	}
	return rows, EventInfo{Name: "EDC", Sigma1: r.sigma1, Lambda1: r.lambda1, Period: edcPeriod, Amplitude: s * thetaE}, nil
}

// ECD is the extreme coherent gust with direction change (IEC 61400-1 ed.3
// §6.3.2.5): V(z,t) = V(z) + 0.5·V_cg·(1 − cos(πt/T)),
// V_cg = 15 m/s, and θ(t) = ±0.5·θ_cg·(1 − cos(πt/T)) with θ_cg = 180° for
// V_hub < 4 m/s, else 720°/V_hub [m/s]; T = 10 s; gust and direction held
// after T. The speed rise goes in the Gust column (added to V(z)).
func ECD(site EventSite, tm EventTiming, sgn int) ([]UniformWindRow, EventInfo, error) {
	r, err := site.resolve()
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: ECD: %w", err)
	}
	s, err := sign(sgn)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: ECD: %w", err)
	}
	ts, err := tm.times(ecdPeriod)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: ECD: %w", err)
	}
	thetaCG := 180.0
	if r.vHub >= 4 {
		thetaCG = 720 / r.vHub
	}
	rows := make([]UniformWindRow, len(ts))
	for i, t := range ts {
		rows[i] = steadyRow(t, r)
		tau := phase(t, tm.Start, ecdPeriod)
		ramp := 0.5 * (1 - math.Cos(math.Pi*tau/ecdPeriod))
		rows[i].Gust = ecdGust * ramp
		rows[i].Direction = s * thetaCG * ramp
	}
	return rows, EventInfo{Name: "ECD", Sigma1: r.sigma1, Lambda1: r.lambda1, Period: ecdPeriod, Amplitude: s * thetaCG}, nil
}

// EWS is the extreme wind shear (IEC 61400-1 ed.3 §6.3.2.6):
// a transient linear shear ±(x/D)·(2.5 m/s + 0.2·β·σ1·(D/Λ1)^¼)·(1 −
// cos(2πt/T)), β = 6.4, T = 12 s, added to the power-law profile, with x
// the height above the hub (vertical) or the lateral position (horizontal).
// In InflowWind's columns the shear is relative to V_hub over RefLength = D,
// so LinVShear (or HorizShear) = ±amplitude·(1 − cos(2πt/T))/V_hub. The
// horizontal sign follows InflowWind's y (positive to the left looking
// downwind).
func EWS(site EventSite, tm EventTiming, vertical bool, sgn int) ([]UniformWindRow, EventInfo, error) {
	name := "EWS-H"
	if vertical {
		name = "EWS-V"
	}
	r, err := site.resolve()
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: %s: %w", name, err)
	}
	s, err := sign(sgn)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: %s: %w", name, err)
	}
	ts, err := tm.times(ewsPeriod)
	if err != nil {
		return nil, EventInfo{}, fmt.Errorf("windgen: %s: %w", name, err)
	}
	amp := 2.5 + 0.2*ewsBeta*r.sigma1*math.Pow(r.d/r.lambda1, 0.25)
	rows := make([]UniformWindRow, len(ts))
	for i, t := range ts {
		rows[i] = steadyRow(t, r)
		tau := phase(t, tm.Start, ewsPeriod)
		shear := s * amp * (1 - math.Cos(2*math.Pi*tau/ewsPeriod)) / r.vHub
		if vertical {
			rows[i].LinVShear = shear
		} else {
			rows[i].HorizShear = shear
		}
	}
	return rows, EventInfo{Name: name, Sigma1: r.sigma1, Lambda1: r.lambda1, Period: ewsPeriod, Amplitude: s * amp}, nil
}

// SpeedAt evaluates a row the way InflowWind's uniform wind does
// (UniformField_GetVel, without the direction rotation): the
// longitudinal speed at lateral position y and height z for the given
// reference height and length. It lets callers and tests check the profile
// an event produces.
func (row UniformWindRow) SpeedAt(y, z, refHeight, refLength float64) float64 {
	if z <= 0 {
		return 0
	}
	return row.Speed*(math.Pow(z/refHeight, row.PowerLaw)+
		(row.HorizShear*y+row.LinVShear*(z-refHeight))/refLength) + row.Gust
}

// EventKind names a deterministic IEC event for GenerateEvent.
type EventKind string

// Event kinds.
const (
	EventEOG  EventKind = "EOG"
	EventEDC  EventKind = "EDC"
	EventECD  EventKind = "ECD"
	EventEWSV EventKind = "EWS-V" // vertical extreme wind shear
	EventEWSH EventKind = "EWS-H" // horizontal extreme wind shear
)

// GenerateEvent dispatches to EOG, EDC, ECD or EWS; sgn (+1 or −1) is the
// direction of EDC, ECD and EWS and is ignored for EOG.
func GenerateEvent(kind EventKind, site EventSite, tm EventTiming, sgn int) ([]UniformWindRow, EventInfo, error) {
	switch kind {
	case EventEOG:
		return EOG(site, tm)
	case EventEDC:
		return EDC(site, tm, sgn)
	case EventECD:
		return ECD(site, tm, sgn)
	case EventEWSV:
		return EWS(site, tm, true, sgn)
	case EventEWSH:
		return EWS(site, tm, false, sgn)
	}
	return nil, EventInfo{}, fmt.Errorf("windgen: unknown event %q (want EOG, EDC, ECD, EWS-V or EWS-H)", string(kind))
}
