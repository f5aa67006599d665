package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// PlausibilityLimits are the physical bounds a run's outputs are checked
// against, taken from the turbine's deck by the caller. A zero field
// leaves its check out.
type PlausibilityLimits struct {
	// MaxRotorSpeedRPM is the rotor speed above which the run is an
	// overspeed (the controller's rated speed times the overspeed margin
	// the caller allows).
	MaxRotorSpeedRPM float64
	// MaxPitchRateDegS and MaxYawRateDegS are the actuators' rate limits
	// (ROSCO/baseline PC_MaxRat, ServoDyn YawManRat).
	MaxPitchRateDegS float64
	MaxYawRateDegS   float64
	// MaxBladeDeflectionM bounds the blade-tip deflections (a tip cannot
	// move farther than the blade is long); MaxTowerDeflectionM the
	// tower-top ones (the tower height).
	MaxBladeDeflectionM float64
	MaxTowerDeflectionM float64
}

// Check kinds.
const (
	CheckNonFinite   = "non_finite"
	CheckInvalid     = "invalid_channel"
	CheckOverspeed   = "overspeed"
	CheckPitchRate   = "pitch_rate"
	CheckYawRate     = "yaw_rate"
	CheckDeflection  = "deflection"
	CheckDivergence  = "divergence"
	rateTolerance    = 1.05 // sampled rates of a rate-limited actuator overshoot by rounding only
	divergenceFactor = 10
)

// Check is one failed plausibility check of a run: what failed, in which
// channel, when, the value and the bound it broke.
type Check struct {
	Kind    string  `json:"kind"`
	Channel string  `json:"channel"`
	Time    float64 `json:"time"`
	Value   float64 `json:"value"`
	Limit   float64 `json:"limit"`
	Message string  `json:"message"`
}

var (
	pitchChannels      = []string{"BldPitch1", "BldPitch2", "BldPitch3"}
	bladeDeflChannels  = []string{"TipDxc1", "TipDyc1", "TipDxc2", "TipDyc2", "TipDxc3", "TipDyc3", "TipDxb1", "TipDyb1", "OoPDefl1", "IPDefl1"}
	towerDeflChannels  = []string{"TTDspFA", "TTDspSS", "YawBrTDxp", "YawBrTDyp", "YawBrTDxt", "YawBrTDyt"}
	divergenceChannels = []string{"RotSpeed", "TipDxc1", "TTDspFA", "TTDspSS", "PtfmPitch", "PtfmSurge"}
)

// NonFiniteCheck is the check of channel name's first non-finite sample,
// v at time t.
func NonFiniteCheck(name string, t, v float64) Check {
	return Check{Kind: CheckNonFinite, Channel: name, Time: t, Value: v, Limit: math.NaN(),
		Message: fmt.Sprintf("%s is %v at t = %g s", name, v, t)}
}

// PlausibilityChannels lists the channels whose values Plausibility bounds;
// of the others it uses only the units (INVALID) and whether a sample is
// non-finite, so a caller holding a large output file can read just these
// whole and scan the rest a row at a time (NonFiniteCheck).
func PlausibilityChannels() []string {
	var out []string
	for _, set := range [][]string{{"RotSpeed", "NacYaw"}, pitchChannels, bladeDeflChannels, towerDeflChannels, divergenceChannels} {
		for _, n := range set {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Plausibility checks a run's record inside window w (the start-up
// transient left out, except for non-finite values and INVALID channels,
// which are checked over the whole record) and returns every failed check,
// at most one per kind and channel: non-finite samples, channels OpenFAST
// marks INVALID (unit "INVALID": a name it does not know for this deck),
// rotor overspeed, pitch and yaw rates beyond the actuators (central
// differences of the output samples), tip and tower-top deflections beyond
// their physical bounds, and divergence (a motion whose peak magnitude in
// the last fifth of the window is more than ten times that of the first
// fifth and above its bound or, without a bound, above 1e3 in its unit).
func Plausibility(rec *Record, w Window, lim PlausibilityLimits) ([]Check, error) {
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("plausibility: %w", err)
	}
	var out []Check
	for c, name := range rec.Names {
		if strings.EqualFold(strings.Trim(rec.Unit(c), "()"), "INVALID") {
			out = append(out, Check{Kind: CheckInvalid, Channel: name, Time: math.NaN(), Value: math.NaN(), Limit: math.NaN(),
				Message: fmt.Sprintf("%s is not an output of this deck (OpenFAST writes it as INVALID)", name)})
		}
	}
	for c, name := range rec.Names {
		for i, v := range rec.Channels[c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				out = append(out, NonFiniteCheck(name, rec.Time[i], v))
				break
			}
		}
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, fmt.Errorf("plausibility: %w", err)
	}
	channel := func(name string) []float64 {
		c, err := rec.Index(name)
		if err != nil || strings.EqualFold(strings.Trim(rec.Unit(c), "()"), "INVALID") {
			return nil
		}
		return rec.Channels[c]
	}
	// peak returns the index of the largest finite |y| in [lo, hi).
	peak := func(y []float64, from, to int) (int, float64) {
		best, at := -1.0, -1
		for i := from; i < to; i++ {
			if a := math.Abs(y[i]); a > best && !math.IsInf(a, 0) && !math.IsNaN(a) {
				best, at = a, i
			}
		}
		return at, best
	}
	bound := func(kind string, names []string, limit float64, what string) {
		if !(limit > 0) {
			return
		}
		for _, n := range names {
			y := channel(n)
			if y == nil {
				continue
			}
			if i, v := peak(y, lo, hi); i >= 0 && v > limit {
				out = append(out, Check{Kind: kind, Channel: n, Time: rec.Time[i], Value: y[i], Limit: limit,
					Message: fmt.Sprintf("%s reaches %.4g at t = %g s, beyond the %s of %.4g", n, y[i], rec.Time[i], what, limit)})
			}
		}
	}
	bound(CheckOverspeed, []string{"RotSpeed"}, lim.MaxRotorSpeedRPM, "overspeed limit (rpm)")
	bound(CheckDeflection, bladeDeflChannels, lim.MaxBladeDeflectionM, "blade length (m)")
	bound(CheckDeflection, towerDeflChannels, lim.MaxTowerDeflectionM, "tower height (m)")
	rate := func(kind string, names []string, limit float64, what string) {
		if !(limit > 0) {
			return
		}
		for _, n := range names {
			y := channel(n)
			if y == nil {
				continue
			}
			worst, at := 0.0, -1
			for i := max(lo, 1); i < hi; i++ {
				dt := rec.Time[i] - rec.Time[i-1]
				if !(dt > 0) {
					continue
				}
				d := y[i] - y[i-1]
				if kind == CheckYawRate { // a yaw angle wraps at ±180°
					d = math.Remainder(d, 360)
				}
				if r := math.Abs(d) / dt; r > worst && !math.IsInf(r, 0) {
					worst, at = r, i
				}
			}
			if at >= 0 && worst > limit*rateTolerance {
				out = append(out, Check{Kind: kind, Channel: n, Time: rec.Time[at], Value: worst, Limit: limit,
					Message: fmt.Sprintf("%s changes at %.3g deg/s at t = %g s, beyond the %s of %.3g deg/s", n, worst, rec.Time[at], what, limit)})
			}
		}
	}
	rate(CheckPitchRate, pitchChannels, lim.MaxPitchRateDegS, "pitch actuator's limit")
	rate(CheckYawRate, []string{"NacYaw"}, lim.MaxYawRateDegS, "yaw actuator's limit")
	if n := hi - lo; n >= 10 {
		limits := map[string]float64{"RotSpeed": lim.MaxRotorSpeedRPM, "TipDxc1": lim.MaxBladeDeflectionM,
			"TTDspFA": lim.MaxTowerDeflectionM, "TTDspSS": lim.MaxTowerDeflectionM}
		for _, name := range divergenceChannels {
			y := channel(name)
			if y == nil {
				continue
			}
			_, early := peak(y, lo, lo+n/5)
			i, late := peak(y, hi-n/5, hi)
			floor := limits[name]
			if !(floor > 0) {
				floor = 1e3
			}
			if i >= 0 && late > divergenceFactor*early && late > floor {
				out = append(out, Check{Kind: CheckDivergence, Channel: name, Time: rec.Time[i], Value: y[i], Limit: floor,
					Message: fmt.Sprintf("%s grows from a peak of %.4g to %.4g by t = %g s: the run diverged", name, early, late, rec.Time[i])})
			}
		}
	}
	return out, nil
}

// MarshalJSON writes a value the check has none of (NaN: an INVALID
// channel has no time or value, a non-finite sample no limit) or a
// non-finite sample as null: JSON has no NaN or infinity.
func (c Check) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Kind    string   `json:"kind"`
		Channel string   `json:"channel"`
		Time    *float64 `json:"time"`
		Value   *float64 `json:"value"`
		Limit   *float64 `json:"limit"`
		Message string   `json:"message"`
	}{c.Kind, c.Channel, finitePtr(c.Time), finitePtr(c.Value), finitePtr(c.Limit), c.Message})
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
