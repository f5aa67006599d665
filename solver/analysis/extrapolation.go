package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Statistical extrapolation of extreme loads to a long return period
// (IEC 61400-1 ed.3 §7.6.2 DLC 1.1 and Annex F; ed.4 keeps the method):
//
//  1. Short term. In each wind-speed bin V_i the 10-min maximum of a load
//     channel is a random variable; each 10-min run (seed) gives one sample,
//     its block maximum. A Gumbel distribution
//     F(x | V_i) = exp(−exp(−(x − μ_i)/β_i)) is fitted to those samples
//     (the "global maxima" approach: Moriarty, Holley & Butterfield 2004,
//     "Extrapolation of extreme and fatigue loads using probabilistic
//     methods", NREL/TP-500-34421; Ragan & Manuel 2008, "Statistical
//     extrapolation methods for estimating wind turbine extreme loads",
//     J. Sol. Energy Eng. 130(3) 031011). Only the per-run block maxima
//     are used, not peaks over a threshold.
//  2. Long term. P(F > f) = Σ_i P(F > f | V_i) · p(V_i), with p(V_i) the
//     probability of the bin under the long-term distribution of the 10-min
//     mean wind speed (IEC 61400-1 ed.3 eq. F.1 written as a sum over bins;
//     Fitzwater & Cornell 2002, J. Sol. Energy Eng. 124(4), full
//     integration; Cheng 2002, TU Delft PhD thesis on the extreme response
//     distribution of offshore wind turbines).
//  3. The characteristic load is the f with P(F > f) = 1/N, N the number of
//     10-min periods in the return period (50 years: N = 50 · 365.25 · 144
//     = 2 629 800, P = 3.80 · 10⁻⁷).
//
// Fit method: the method of moments, β = s·√6/π and μ = m − γ_E·β (m, s
// the sample mean and standard deviation, γ_E Euler's constant). It has a
// closed form (no iteration that can fail on a degenerate bin), and with
// the 6 to 20 samples per bin a DLC table gives, maximum likelihood has no
// decisive advantage in bias while needing an iterative solution for β.
// The fit is per bin with the bin's own parameters.
//
// Run durations other than 600 s: assuming the run is made of independent
// 10-min blocks of the same process, F_10min = F_T^(600/T). For a Gumbel
// this only shifts the location, μ_10 = μ_T + β·ln(600/T), β unchanged.

// TenMinutePeriodsPerYear is 365.25 days · 144 ten-minute periods a day.
const TenMinutePeriodsPerYear = 365.25 * 144

// tenMinutes is the reference duration of the short-term distribution, s.
const tenMinutes = 600.0

// eulerGamma is the Euler–Mascheroni constant, the mean of the standard
// Gumbel distribution.
const eulerGamma = 0.57721566490153286

// ExtrapolationRun is one run of the extrapolated design load case.
type ExtrapolationRun struct {
	ID        string
	WindSpeed float64 // the run's bin speed (its nominal inflow speed), m/s
	Record    *Record
	Window    Window
}

// ExtrapolationOptions choose the channels, the return period and the
// long-term wind distribution.
type ExtrapolationOptions struct {
	// Channels to extrapolate; empty means every channel of the first run.
	Channels []string
	// ReturnPeriodYears, e.g. 50.
	ReturnPeriodYears float64
	// Distribution of the 10-min mean wind speed (the lifetime DEL's).
	Distribution WindDistribution
	// MinRuns, when set, is the number of 10-min runs the standard asks
	// for in the bin at the given speed; bins with fewer are flagged.
	MinRuns func(speed float64) int
}

// GumbelFit is a Gumbel distribution F(x) = exp(−exp(−(x − Location)/Scale)).
// Scale 0 is a degenerate (constant) sample: F is a step at Location.
type GumbelFit struct {
	Location float64 `json:"location"`
	Scale    float64 `json:"scale"`
}

// FitGumbelMoments fits a Gumbel to the samples by the method of moments
// (sample standard deviation with n − 1). It needs at least two samples.
func FitGumbelMoments(x []float64) (GumbelFit, error) {
	if len(x) < 2 {
		return GumbelFit{}, fmt.Errorf("gumbel fit: %d sample(s), need at least 2", len(x))
	}
	mean := 0.0
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return GumbelFit{}, fmt.Errorf("gumbel fit: sample %v is not finite", v)
		}
		mean += v
	}
	mean /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(len(x)-1))
	scale := sd * math.Sqrt(6) / math.Pi
	return GumbelFit{Location: mean - eulerGamma*scale, Scale: scale}, nil
}

// Exceedance is P(X > x) = 1 − F(x), computed without cancellation in the
// far tail (−expm1).
func (g GumbelFit) Exceedance(x float64) float64 {
	if g.Scale == 0 {
		if x < g.Location {
			return 1
		}
		return 0
	}
	return -math.Expm1(-math.Exp(-(x - g.Location) / g.Scale))
}

// QuantileExceedance is the x with P(X > x) = q, 0 < q < 1.
func (g GumbelFit) QuantileExceedance(q float64) float64 {
	return g.Location - g.Scale*math.Log(-math.Log1p(-q))
}

// ForDuration converts the distribution of the maximum over a run of
// duration t seconds into that of a 10-min maximum: F_600 = F_t^(600/t),
// i.e. the location moves by Scale·ln(600/t) (independent blocks assumed).
func (g GumbelFit) ForDuration(t float64) GumbelFit {
	return GumbelFit{Location: g.Location + g.Scale*math.Log(tenMinutes/t), Scale: g.Scale}
}

// ExtrapolationBin is one wind-speed bin of the extrapolation.
type ExtrapolationBin struct {
	Speed       float64 `json:"speed"`
	Low         float64 `json:"low"`
	High        float64 `json:"high"` // +Inf for a single bin, written as null
	Probability float64 `json:"probability"`
	Runs        int     `json:"runs"`
	// Duration is the runs' analysed duration, s (converted to 10 min).
	Duration float64 `json:"duration"`
	// MinRuns is the standard's minimum for the bin (0: not checked);
	// Sufficient says Runs ≥ MinRuns.
	MinRuns    int  `json:"min_runs,omitempty"`
	Sufficient bool `json:"sufficient"`
}

// MarshalJSON writes the unbounded upper edge of a single bin as null.
func (b ExtrapolationBin) MarshalJSON() ([]byte, error) {
	type plain ExtrapolationBin
	return json.Marshal(struct {
		plain
		High *float64 `json:"high"`
	}{plain(b), finiteOrNil(b.High)})
}

// ExtrapolatedBinFit is one bin's short-term fit of one channel and kind.
type ExtrapolatedBinFit struct {
	Speed float64 `json:"speed"`
	// Fit is the Gumbel of the 10-min maximum (of −min for kind min).
	Fit GumbelFit `json:"fit"`
	// LargestSimulated is the most extreme simulated value in the bin.
	LargestSimulated float64 `json:"largest_simulated"`
}

// ExtrapolatedExtreme is the long-return-period load of one channel.
type ExtrapolatedExtreme struct {
	Channel string `json:"channel"`
	Unit    string `json:"unit,omitempty"`
	Kind    string `json:"kind"` // max or min
	// Characteristic is the load exceeded (max) or undercut (min) with
	// the target probability per 10 min.
	Characteristic float64 `json:"characteristic"`
	// Simulated is the most extreme simulated value over the runs.
	Simulated float64              `json:"simulated"`
	Bins      []ExtrapolatedBinFit `json:"bins"`
}

// Extrapolation is the answer of ExtrapolateExtremes.
type Extrapolation struct {
	ReturnPeriodYears float64 `json:"return_period_years"`
	// ExceedanceProbability is the target per 10 min, 1/TenMinutePeriods.
	ExceedanceProbability float64               `json:"exceedance_probability"`
	TenMinutePeriods      float64               `json:"ten_minute_periods"`
	Bins                  []ExtrapolationBin    `json:"bins"`
	Channels              []ExtrapolatedExtreme `json:"channels"`
	// Sufficient is true when every bin has the standard's minimum runs.
	Sufficient bool `json:"sufficient"`
}

// LongTermExceedance is Σ_i p_i · P(X > x | bin i).
func LongTermExceedance(x float64, fits []GumbelFit, probabilities []float64) float64 {
	s := 0.0
	for i, g := range fits {
		s += probabilities[i] * g.Exceedance(x)
	}
	return s
}

// SolveLongTermLoad finds x with LongTermExceedance(x) = target by bisection
// (the sum is non-increasing in x). Σ p_i must exceed target.
func SolveLongTermLoad(fits []GumbelFit, probabilities []float64, target float64) (float64, error) {
	if len(fits) == 0 || len(fits) != len(probabilities) {
		return 0, errors.New("long-term load: need one probability per fit")
	}
	if !(target > 0 && target < 1) {
		return 0, fmt.Errorf("long-term load: target probability %g is not in (0, 1)", target)
	}
	total := 0.0
	for _, p := range probabilities {
		total += p
	}
	if !(total > target) {
		return 0, fmt.Errorf("long-term load: the bins' total probability %g does not exceed the target %g", total, target)
	}
	// Upper bracket: every bin's exceedance ≤ target/total there.
	hi := math.Inf(-1)
	for _, g := range fits {
		hi = math.Max(hi, g.QuantileExceedance(target/total))
	}
	hi += 1e-12 * math.Max(1, math.Abs(hi))
	// Lower bracket: step down until the sum exceeds the target.
	width := 1.0
	for _, g := range fits {
		width = math.Max(width, g.Scale)
	}
	lo := hi - width
	for i := 0; LongTermExceedance(lo, fits, probabilities) <= target; i++ {
		if i > 200 {
			return 0, errors.New("long-term load: no lower bracket found")
		}
		width *= 2
		lo = hi - width
	}
	for i := 0; i < 300 && hi-lo > 1e-13*math.Max(1, math.Abs(hi)); i++ {
		mid := 0.5 * (lo + hi)
		if LongTermExceedance(mid, fits, probabilities) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi), nil
}

// ExtrapolateExtremes extrapolates the maximum and minimum of each channel
// over the runs to opt.ReturnPeriodYears (see the file comment for the
// method). The runs' bins are their WindSpeed values with the bin edges and
// probabilities of WindSpeedWeights (the lifetime DEL's bins), the
// probabilities not normalised: outside the runs' speed range the case does
// not occur. Every bin needs at least two runs of one duration.
func ExtrapolateExtremes(runs []ExtrapolationRun, opt ExtrapolationOptions) (Extrapolation, error) {
	if len(runs) == 0 {
		return Extrapolation{}, errors.New("extrapolation: no runs")
	}
	if !(opt.ReturnPeriodYears > 0) || math.IsInf(opt.ReturnPeriodYears, 0) {
		return Extrapolation{}, fmt.Errorf("extrapolation: return period %g years must be positive", opt.ReturnPeriodYears)
	}
	speeds := make([]float64, len(runs))
	for i, r := range runs {
		if err := r.Record.Validate(); err != nil {
			return Extrapolation{}, fmt.Errorf("extrapolation: run %q: %w", r.ID, err)
		}
		speeds[i] = r.WindSpeed
	}
	w, err := WindSpeedWeights(speeds, opt.Distribution)
	if err != nil {
		return Extrapolation{}, fmt.Errorf("extrapolation: %w", err)
	}
	grid := make([]float64, len(w.Bins))
	for b, bin := range w.Bins {
		grid[b] = bin.Speed
	}
	binOf := make([]int, len(runs))
	durations := make([]float64, len(runs))
	ranges := make([][2]int, len(runs))
	for i, r := range runs {
		binOf[i] = nearestIndex(grid, r.WindSpeed)
		lo, hi, err := r.Window.Range(r.Record.Time)
		if err != nil {
			return Extrapolation{}, fmt.Errorf("extrapolation: run %q: %w", r.ID, err)
		}
		ranges[i] = [2]int{lo, hi}
		durations[i] = windowDuration(r.Record.Time, lo, hi)
		if !(durations[i] > 0) {
			return Extrapolation{}, fmt.Errorf("extrapolation: run %q: the window holds a single sample", r.ID)
		}
	}
	periods := opt.ReturnPeriodYears * TenMinutePeriodsPerYear
	res := Extrapolation{ReturnPeriodYears: opt.ReturnPeriodYears, ExceedanceProbability: 1 / periods,
		TenMinutePeriods: periods, Sufficient: true}
	probabilities := make([]float64, len(w.Bins))
	for b, bin := range w.Bins {
		eb := ExtrapolationBin{Speed: bin.Speed, Low: bin.Low, High: bin.High, Probability: bin.Probability, Runs: bin.Runs, Sufficient: true}
		for i := range runs {
			if binOf[i] != b {
				continue
			}
			if eb.Duration == 0 {
				eb.Duration = durations[i]
			} else if math.Abs(durations[i]-eb.Duration) > 0.01*eb.Duration {
				return Extrapolation{}, fmt.Errorf("extrapolation: the runs of the %g m/s bin are of different durations (%g and %g s); one fit needs one duration",
					bin.Speed, eb.Duration, durations[i])
			}
		}
		if eb.Runs < 2 {
			return Extrapolation{}, fmt.Errorf("extrapolation: the %g m/s bin has %d run; a fit needs at least 2", bin.Speed, eb.Runs)
		}
		if opt.MinRuns != nil {
			eb.MinRuns = opt.MinRuns(bin.Speed)
			eb.Sufficient = eb.Runs >= eb.MinRuns
			res.Sufficient = res.Sufficient && eb.Sufficient
		}
		probabilities[b] = bin.Probability
		res.Bins = append(res.Bins, eb)
	}
	channels := opt.Channels
	if len(channels) == 0 {
		channels = runs[0].Record.Names
	}
	for _, name := range channels {
		for _, kind := range []string{"max", "min"} {
			// The minimum is the maximum of −x.
			sign := 1.0
			if kind == "min" {
				sign = -1
			}
			samples := make([][]float64, len(w.Bins))
			unit := ""
			for i, r := range runs {
				c, err := r.Record.Index(name)
				if err != nil {
					return Extrapolation{}, fmt.Errorf("extrapolation: run %q: %w", r.ID, err)
				}
				if unit == "" {
					unit = r.Record.Unit(c)
				}
				peak := math.Inf(-1)
				for _, v := range r.Record.Channels[c][ranges[i][0]:ranges[i][1]] {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return Extrapolation{}, fmt.Errorf("extrapolation: run %q channel %q: a sample is not finite", r.ID, name)
					}
					peak = math.Max(peak, sign*v)
				}
				samples[binOf[i]] = append(samples[binOf[i]], peak)
			}
			ex := ExtrapolatedExtreme{Channel: name, Unit: unit, Kind: kind, Simulated: math.Inf(-1)}
			fits := make([]GumbelFit, len(w.Bins))
			for b := range w.Bins {
				g, err := FitGumbelMoments(samples[b])
				if err != nil {
					return Extrapolation{}, fmt.Errorf("extrapolation: channel %q, %g m/s bin: %w", name, w.Bins[b].Speed, err)
				}
				fits[b] = g.ForDuration(res.Bins[b].Duration)
				largest := math.Inf(-1)
				for _, v := range samples[b] {
					largest = math.Max(largest, v)
				}
				ex.Simulated = math.Max(ex.Simulated, largest)
				ex.Bins = append(ex.Bins, ExtrapolatedBinFit{Speed: w.Bins[b].Speed, Fit: fits[b], LargestSimulated: sign * largest})
			}
			x, err := SolveLongTermLoad(fits, probabilities, res.ExceedanceProbability)
			if err != nil {
				return Extrapolation{}, fmt.Errorf("extrapolation: channel %q %s: %w", name, kind, err)
			}
			ex.Characteristic, ex.Simulated = sign*x, sign*ex.Simulated
			res.Channels = append(res.Channels, ex)
		}
	}
	return res, nil
}

// windowDuration is the time the samples lo..hi−1 represent: their span
// plus one step (each sample stands for one time step).
func windowDuration(t []float64, lo, hi int) float64 {
	if hi-lo < 2 {
		return 0
	}
	dt := (t[hi-1] - t[lo]) / float64(hi-1-lo)
	return t[hi-1] - t[lo] + dt
}
