package analysis

import (
	"errors"
	"fmt"
	"math"
)

// DELOptions configure short-term damage-equivalent loads.
type DELOptions struct {
	// Exponents are the Wöhler (S-N) slopes m, e.g. 3, 4, 5 for welded
	// steel, 10 for composite blades. At least one is required.
	Exponents []float64
	// EquivalentFrequency f_eq in Hz; the number of equivalent cycles is
	// N_eq = f_eq·T for a record of duration T. 0 selects 1 Hz, the
	// convention of NREL's MLife, pCrunch and openfast_toolbox.
	EquivalentFrequency float64
	// EquivalentCycles, when positive, sets N_eq directly and overrides
	// EquivalentFrequency (certification reports often state DELs at
	// N_eq = 10⁷ cycles; then the lifetime damage must be scaled to that
	// count by the caller).
	EquivalentCycles float64
	// UltimateLoad S_u, when positive, applies the Goodman mean-load
	// correction S_eq = S/(1 − S_m/S_u) to every cycle (fatpack's
	// zero-mean form). Zero leaves ranges uncorrected, the
	// usual choice for wind-turbine load DELs. A cycle with S_m ≥ S_u is an
	// error (*GoodmanError).
	UltimateLoad float64
	// UltimateLoads, per channel name, set S_u for that channel in
	// ChannelDEL and BatchDEL, overriding UltimateLoad; a channel not
	// listed takes UltimateLoad.
	UltimateLoads map[string]float64
}

// ultimateFor is the ultimate load S_u applied to the named channel (0:
// no Goodman correction).
func (o DELOptions) ultimateFor(channel string) float64 {
	if su, ok := o.UltimateLoads[channel]; ok {
		return su
	}
	return o.UltimateLoad
}

// GoodmanError reports a cycle whose mean is not below the ultimate load,
// where the Goodman correction S/(1 − S_m/S_u) is undefined (infinite or
// negative). Channel and Run are filled in by the callers that know them.
type GoodmanError struct {
	Channel, Run string
	Mean         float64 // S_m of the offending cycle
	Ultimate     float64 // S_u
}

func (e *GoodmanError) Error() string {
	where := ""
	if e.Channel != "" {
		where = fmt.Sprintf(" of channel %q", e.Channel)
	}
	if e.Run != "" {
		where += fmt.Sprintf(" in run %q", e.Run)
	}
	return fmt.Sprintf("a cycle%s has mean %g, not below the ultimate load %g: the Goodman correction S/(1 − S_m/S_u) is undefined", where, e.Mean, e.Ultimate)
}

// DEL is one damage-equivalent load.
type DEL struct {
	Exponent         float64 `json:"exponent"`          // m
	Value            float64 `json:"value"`             // load units
	EquivalentCycles float64 `json:"equivalent_cycles"` // N_eq used
	DamageSum        float64 `json:"damage_sum"`        // Σ nᵢ Sᵢᵐ
}

// DamageSum returns Σ nᵢ·Sᵢᵐ over the cycles, Goodman-corrected when
// ultimate > 0. It is proportional to Palmgren–Miner damage for a linear
// S-N curve of slope m, which is what makes DELs of different records
// combinable.
func DamageSum(cycles []Cycle, m, ultimate float64) (float64, error) {
	if !(m > 0) || math.IsInf(m, 0) {
		return 0, fmt.Errorf("damage sum: Wöhler exponent %g must be positive", m)
	}
	sum := 0.0
	for i, c := range cycles {
		s := c.Range
		if ultimate > 0 {
			if c.Mean >= ultimate {
				return 0, fmt.Errorf("damage sum, cycle %d: %w", i, &GoodmanError{Mean: c.Mean, Ultimate: ultimate})
			}
			s /= 1 - c.Mean/ultimate
		}
		sum += c.Count * math.Pow(s, m)
	}
	return sum, nil
}

// ShortTermDEL returns the damage-equivalent loads of counted cycles from a
// record of duration T seconds:
//
//	DEL = ( Σ nᵢ·Sᵢᵐ / N_eq )^(1/m),  N_eq = f_eq·T (or as given).
//
// A DEL is the constant range that, applied N_eq times, does the same
// Miner damage as the counted cycles.
func ShortTermDEL(cycles []Cycle, duration float64, opt DELOptions) ([]DEL, error) {
	if len(opt.Exponents) == 0 {
		return nil, errors.New("DEL: no Wöhler exponents given")
	}
	neq := opt.EquivalentCycles
	if neq <= 0 {
		feq := opt.EquivalentFrequency
		if feq == 0 {
			feq = 1
		}
		if !(feq > 0) || math.IsInf(feq, 0) {
			return nil, fmt.Errorf("DEL: equivalent frequency %g must be positive", feq)
		}
		if !(duration > 0) || math.IsInf(duration, 0) {
			return nil, fmt.Errorf("DEL: record duration %g s must be positive", duration)
		}
		neq = feq * duration
	}
	if math.IsInf(neq, 0) || math.IsNaN(neq) {
		return nil, fmt.Errorf("DEL: equivalent cycles %g must be finite", neq)
	}
	out := make([]DEL, len(opt.Exponents))
	for k, m := range opt.Exponents {
		d, err := DamageSum(cycles, m, opt.UltimateLoad)
		if err != nil {
			return nil, fmt.Errorf("DEL for m = %g: %w", m, err)
		}
		out[k] = DEL{Exponent: m, Value: math.Pow(d/neq, 1/m), EquivalentCycles: neq, DamageSum: d}
	}
	return out, nil
}

// ChannelDEL counts the named channel over the window and returns its
// short-term DELs. The duration is T = t_last − t_first of the window (the
// elapsed time, as pCrunch and openfast_toolbox use).
func ChannelDEL(rec *Record, name string, w Window, opt DELOptions) ([]DEL, error) {
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("DEL: %w", err)
	}
	y, err := rec.Channel(name)
	if err != nil {
		return nil, fmt.Errorf("DEL: %w", err)
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, fmt.Errorf("DEL of channel %q: %w", name, err)
	}
	cycles, err := Rainflow(y[lo:hi])
	if err != nil {
		return nil, fmt.Errorf("DEL of channel %q: %w", name, err)
	}
	opt.UltimateLoad = opt.ultimateFor(name)
	dels, err := ShortTermDEL(cycles, rec.Time[hi-1]-rec.Time[lo], opt)
	if err != nil {
		var ge *GoodmanError
		if errors.As(err, &ge) {
			ge.Channel = name
		}
		return nil, fmt.Errorf("channel %q: %w", name, err)
	}
	return dels, nil
}

// FatigueRun is one run's contribution to a lifetime DEL: its mean
// hub-height wind speed (the bin it belongs to) and its short-term DEL for
// one Wöhler exponent, computed with the same f_eq as every other run.
type FatigueRun struct {
	ID        string  `json:"id"`
	WindSpeed float64 `json:"wind_speed"` // m/s
	DEL       float64 `json:"del"`
}

// LifetimeDEL is the damage-consistent aggregate of a batch.
type LifetimeDEL struct {
	Exponent float64 `json:"exponent"`
	// DEL = (Σⱼ pⱼ·DELⱼᵐ)^(1/m), the lifetime equivalent load at the same
	// f_eq.
	DEL float64 `json:"del"`
	// ArithmeticMean = Σⱼ pⱼ·DELⱼ, pCrunch's "Weighted" total, reported
	// only for comparison: it is not damage-consistent and underestimates
	// the lifetime DEL whenever the DELs differ (power-mean inequality).
	ArithmeticMean float64      `json:"arithmetic_mean"`
	Weights        SpeedWeights `json:"weights"`
	// With transient events (LifetimeFatigue), DEL combines the
	// time-weighted runs and the events by damage; TimeWeightedDEL is the
	// time-weighted runs' part alone (0 when there are none) and Events
	// each event case's part. ArithmeticMean and Weights stay those of the
	// time-weighted runs.
	TimeWeightedDEL float64       `json:"time_weighted_del,omitempty"`
	Events          []EventDamage `json:"events,omitempty"`
}

// AggregateDEL combines per-run DELs of one exponent m over a batch into the
// lifetime DEL, weighting each run by the probability of its wind-speed bin
// split over the bin's seeds (WindSpeedWeights). Damage adds: a run's damage
// rate is DELⱼᵐ·f_eq, so the lifetime rate is Σ pⱼ DELⱼᵐ f_eq and the
// equivalent load is its m-th root. Averaging the DELs themselves instead
// gives the wrong (low) value; ArithmeticMean shows by how much.
func AggregateDEL(runs []FatigueRun, m float64, dist WindDistribution) (LifetimeDEL, error) {
	if !(m > 0) || math.IsInf(m, 0) {
		return LifetimeDEL{}, fmt.Errorf("lifetime DEL: Wöhler exponent %g must be positive", m)
	}
	speeds := make([]float64, len(runs))
	for i, r := range runs {
		if !(r.DEL >= 0) || math.IsInf(r.DEL, 0) {
			return LifetimeDEL{}, fmt.Errorf("lifetime DEL: run %q has DEL %v", r.ID, r.DEL)
		}
		speeds[i] = r.WindSpeed
	}
	w, err := WindSpeedWeights(speeds, dist)
	if err != nil {
		return LifetimeDEL{}, fmt.Errorf("lifetime DEL: %w", err)
	}
	// Factor out the largest DEL before raising to m (m up to 12 and DELs of
	// 1e5 kN·m would overflow nothing, but 1e30 loads would).
	peak := 0.0
	for _, r := range runs {
		peak = math.Max(peak, r.DEL)
	}
	res := LifetimeDEL{Exponent: m, Weights: w}
	if peak == 0 {
		return res, nil
	}
	acc := 0.0
	for i, r := range runs {
		acc += w.Weights[i] * math.Pow(r.DEL/peak, m)
		res.ArithmeticMean += w.Weights[i] * r.DEL
	}
	res.DEL = peak * math.Pow(acc, 1/m)
	return res, nil
}
