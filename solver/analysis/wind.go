package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
)

// WindDistribution is a long-term distribution of the hub-height 10-min
// mean wind speed.
type WindDistribution interface {
	// CDF is the probability that the mean speed is below v (m/s).
	CDF(v float64) float64
	Validate() error
}

// Weibull is F(V) = 1 − exp(−(V/Scale)^Shape) with shape k and scale A (m/s).
type Weibull struct {
	Shape float64 `json:"shape"` // k, −
	Scale float64 `json:"scale"` // A, m/s
}

// CDF implements WindDistribution.
func (w Weibull) CDF(v float64) float64 {
	if v <= 0 {
		return 0
	}
	return -math.Expm1(-math.Pow(v/w.Scale, w.Shape))
}

// Validate checks k > 0 and A > 0.
func (w Weibull) Validate() error {
	if !(w.Shape > 0) || math.IsInf(w.Shape, 0) || !(w.Scale > 0) || math.IsInf(w.Scale, 0) {
		return fmt.Errorf("weibull distribution: shape %g and scale %g must be positive and finite", w.Shape, w.Scale)
	}
	return nil
}

// Rayleigh is the IEC 61400-1 wind-speed distribution,
// F(V) = 1 − exp(−(π/4)·(V/V_ave)²): a Weibull with k = 2 and
// A = 2·V_ave/√π.
type Rayleigh struct {
	MeanSpeed float64 `json:"mean_speed"` // V_ave, m/s
}

// CDF implements WindDistribution.
func (r Rayleigh) CDF(v float64) float64 {
	if v <= 0 {
		return 0
	}
	q := v / r.MeanSpeed
	return -math.Expm1(-math.Pi / 4 * q * q)
}

// Validate checks V_ave > 0.
func (r Rayleigh) Validate() error {
	if !(r.MeanSpeed > 0) || math.IsInf(r.MeanSpeed, 0) {
		return fmt.Errorf("rayleigh distribution: mean speed %g must be positive and finite", r.MeanSpeed)
	}
	return nil
}

// RayleighForClass returns the IEC 61400-1 Rayleigh distribution of wind
// class "I", "II" or "III": V_ref = 50, 42.5, 37.5 m/s and V_ave = 0.2·V_ref
// (10, 8.5, 7.5 m/s).
func RayleighForClass(class string) (Rayleigh, error) {
	vref := map[string]float64{"I": 50, "II": 42.5, "III": 37.5}
	v, ok := vref[class]
	if !ok {
		return Rayleigh{}, fmt.Errorf("unknown IEC wind class %q (want I, II or III)", class)
	}
	return Rayleigh{MeanSpeed: 0.2 * v}, nil
}

// SpeedWeights are the occurrence weights of the runs of a batch.
type SpeedWeights struct {
	// Weight of each run, in input order; Σ = 1.
	Weights []float64 `json:"weights"`
	// Bins are the distinct wind speeds with their edges and probability.
	Bins []SpeedBin `json:"bins"`
	// Coverage is Σ P(bin) before normalisation: the share of the year the
	// batch's wind-speed range represents.
	Coverage float64 `json:"coverage"`
}

// SpeedBin is one wind-speed bin of a batch grid.
type SpeedBin struct {
	Speed       float64 `json:"speed"`
	Low         float64 `json:"low"`
	High        float64 `json:"high"`
	Probability float64 `json:"probability"` // F(High) − F(Low)
	Runs        int     `json:"runs"`
}

// MarshalJSON writes an unbounded upper edge (the single bin of a batch
// with one wind speed covers [0, ∞)) as null: JSON has no infinity.
func (b SpeedBin) MarshalJSON() ([]byte, error) {
	type plain SpeedBin
	return json.Marshal(struct {
		plain
		High *float64 `json:"high"`
	}{plain(b), finiteOrNil(b.High)})
}

// finiteOrNil is v, or nil when v is infinite.
func finiteOrNil(v float64) *float64 {
	if math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// speedTolerance decides when two run wind speeds are the same grid point
// (seeds and yaw cases of one bin).
const speedTolerance = 1e-6

// WindSpeedWeights turns the runs' wind speeds into occurrence weights
// (pCrunch's "cdf" method): the
// distinct speeds form the bins, with edges at the mid-points between
// neighbouring speeds and the outer edges half a spacing beyond the first and
// last speed; P(bin) = F(high) − F(low); each bin's probability is split
// equally among its runs (seeds, yaw cases); the weights are normalised to
// sum to 1 over the batch. A batch with a single speed gets equal weights.
func WindSpeedWeights(speeds []float64, dist WindDistribution) (SpeedWeights, error) {
	if len(speeds) == 0 {
		return SpeedWeights{}, errors.New("wind-speed weights: no runs")
	}
	if dist == nil {
		return SpeedWeights{}, errors.New("wind-speed weights: no distribution")
	}
	if err := dist.Validate(); err != nil {
		return SpeedWeights{}, fmt.Errorf("wind-speed weights: %w", err)
	}
	for i, v := range speeds {
		if !(v >= 0) || math.IsInf(v, 0) {
			return SpeedWeights{}, fmt.Errorf("wind-speed weights: run %d has wind speed %v", i, v)
		}
	}
	grid := distinctSpeeds(speeds)
	bins := make([]SpeedBin, len(grid))
	for b, v := range grid {
		bins[b].Speed = v
	}
	binOf := make([]int, len(speeds))
	for i, v := range speeds {
		b := nearestIndex(grid, v)
		binOf[i] = b
		bins[b].Runs++
	}
	edges := gridEdges(grid)
	coverage := 0.0
	for b := range bins {
		bins[b].Low, bins[b].High = edges[b], edges[b+1]
		bins[b].Probability = dist.CDF(edges[b+1]) - dist.CDF(edges[b])
		coverage += bins[b].Probability
	}
	w := SpeedWeights{Weights: make([]float64, len(speeds)), Bins: bins, Coverage: coverage}
	if len(grid) == 1 {
		for i := range w.Weights {
			w.Weights[i] = 1 / float64(len(speeds))
		}
		return w, nil
	}
	if !(coverage > 0) {
		return SpeedWeights{}, fmt.Errorf("wind-speed weights: the distribution gives zero probability to %g–%g m/s", edges[0], edges[len(edges)-1])
	}
	for i, b := range binOf {
		w.Weights[i] = bins[b].Probability / float64(bins[b].Runs) / coverage
	}
	return w, nil
}

// distinctSpeeds returns the sorted distinct values (within speedTolerance).
func distinctSpeeds(v []float64) []float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x-out[len(out)-1] > speedTolerance*math.Max(1, x) {
			out = append(out, x)
		}
	}
	return out
}

func nearestIndex(grid []float64, v float64) int {
	i := sort.SearchFloat64s(grid, v)
	if i == len(grid) || (i > 0 && v-grid[i-1] < grid[i]-v) {
		i--
	}
	return i
}

// gridEdges returns len(grid)+1 edges: mid-points inside, half a spacing
// outside (clamped at 0 m/s). A single speed gets [0, ∞).
func gridEdges(grid []float64) []float64 {
	n := len(grid)
	e := make([]float64, n+1)
	if n == 1 {
		e[0], e[1] = 0, math.Inf(1)
		return e
	}
	for i := 1; i < n; i++ {
		e[i] = 0.5 * (grid[i-1] + grid[i])
	}
	e[0] = math.Max(0, grid[0]-0.5*(grid[1]-grid[0]))
	e[n] = grid[n-1] + 0.5*(grid[n-1]-grid[n-2])
	return e
}
