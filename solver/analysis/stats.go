package analysis

import (
	"fmt"
	"math"
)

// ChannelStats are the summary statistics of one channel over a window.
//
// Std is the population standard deviation √(Σ(x−x̄)²/N), the convention of
// pCrunch (numpy std, ddof = 0) and of OpenFAST's MCrunch/MExtremes-style
// summaries; SampleStd divides by N−1 instead. Skewness is m₃/m₂^{3/2} and
// Kurtosis is the Pearson kurtosis m₄/m₂² (3 for a Gaussian, not the excess),
// both from population central moments mₖ = Σ(x−x̄)ᵏ/N as in pCrunch. For a
// constant channel Std, Skewness and Kurtosis are 0 (pCrunch reports 0 too),
// so the result never holds NaN and encodes to JSON.
type ChannelStats struct {
	Name      string  `json:"name"`
	Unit      string  `json:"unit,omitempty"`
	N         int     `json:"n"`
	Start     float64 `json:"start"` // time of the first sample used, s
	End       float64 `json:"end"`   // time of the last sample used, s
	Min       float64 `json:"min"`
	Max       float64 `json:"max"`
	TimeOfMin float64 `json:"time_of_min"` // first occurrence, s
	TimeOfMax float64 `json:"time_of_max"` // first occurrence, s
	Mean      float64 `json:"mean"`
	Std       float64 `json:"std"`
	SampleStd float64 `json:"sample_std"`
	Skewness  float64 `json:"skewness"`
	Kurtosis  float64 `json:"kurtosis"`
}

// Statistics returns the statistics of the named channels (all channels when
// names is empty) over the window, in the order asked for.
func Statistics(rec *Record, names []string, w Window) ([]ChannelStats, error) {
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("statistics: %w", err)
	}
	cols, err := selectColumns(rec, names)
	if err != nil {
		return nil, fmt.Errorf("statistics: %w", err)
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, fmt.Errorf("statistics: %w", err)
	}
	out := make([]ChannelStats, len(cols))
	for k, c := range cols {
		s, err := momentsOf(rec.Channels[c][lo:hi])
		if err != nil {
			return nil, fmt.Errorf("statistics of channel %q: %w", rec.Names[c], err)
		}
		s.Name, s.Unit = rec.Names[c], rec.Unit(c)
		s.Start, s.End = rec.Time[lo], rec.Time[hi-1]
		s.TimeOfMin = rec.Time[lo+s.iMin]
		s.TimeOfMax = rec.Time[lo+s.iMax]
		out[k] = s.ChannelStats
	}
	return out, nil
}

// SeriesStatistics returns the statistics of one sampled signal y(time) over
// the window; Name and Unit are left empty.
func SeriesStatistics(time, y []float64, w Window) (ChannelStats, error) {
	if len(time) != len(y) {
		return ChannelStats{}, fmt.Errorf("statistics: %d samples but %d times", len(y), len(time))
	}
	if err := checkTime(time); err != nil {
		return ChannelStats{}, fmt.Errorf("statistics: %w", err)
	}
	lo, hi, err := w.Range(time)
	if err != nil {
		return ChannelStats{}, fmt.Errorf("statistics: %w", err)
	}
	s, err := momentsOf(y[lo:hi])
	if err != nil {
		return ChannelStats{}, fmt.Errorf("statistics: %w", err)
	}
	s.Start, s.End = time[lo], time[hi-1]
	s.TimeOfMin, s.TimeOfMax = time[lo+s.iMin], time[lo+s.iMax]
	return s.ChannelStats, nil
}

// selectColumns maps names to column indices; empty names means all.
func selectColumns(rec *Record, names []string) ([]int, error) {
	if len(names) == 0 {
		cols := make([]int, len(rec.Names))
		for i := range cols {
			cols[i] = i
		}
		return cols, nil
	}
	cols := make([]int, len(names))
	for k, n := range names {
		c, err := rec.Index(n)
		if err != nil {
			return nil, err
		}
		cols[k] = c
	}
	return cols, nil
}

type momentResult struct {
	ChannelStats
	iMin, iMax int
}

// momentsOf computes the statistics of x in two passes: the first finds the
// extremes and a provisional mean, the second accumulates central power sums
// about it. The second pass also sums the deviations themselves, which
// corrects the provisional mean for its rounding error (the "corrected
// two-pass" algorithm, Chan, Golub & LeVeque 1983, eq. 1.7); the third and
// fourth moments are shifted to the corrected mean with the binomial
// expansion. This keeps full precision for channels with a large offset
// (e.g. a tower-base moment of 1e5 kN·m varying by 1e2), where a one-pass
// Σx² − N·x̄² would cancel catastrophically.
func momentsOf(x []float64) (momentResult, error) {
	var r momentResult
	n := len(x)
	if n == 0 {
		return r, fmt.Errorf("no samples")
	}
	minV, maxV := x[0], x[0]
	iMin, iMax := 0, 0
	// Two interleaved partial sums halve the floating-point add latency
	// chain (the loops are latency-bound, not throughput-bound).
	sumA, sumB := 0.0, 0.0
	for i, v := range x {
		if v < minV {
			minV, iMin = v, i
		} else if v > maxV {
			maxV, iMax = v, i
		}
		if i&1 == 0 {
			sumA += v
		} else {
			sumB += v
		}
	}
	sum := sumA + sumB
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return r, fmt.Errorf("sample %d of the window is not finite (%v)", i, v)
			}
		}
		return r, fmt.Errorf("sum of samples overflows")
	}
	fn := float64(n)
	mean := sum / fn
	var s1, s2, s3, s4 float64
	var t1, t2, t3, t4 float64 // second set of accumulators, odd samples
	i := 0
	for ; i+1 < n; i += 2 {
		d := x[i] - mean
		e := x[i+1] - mean
		d2, e2 := d*d, e*e
		s1 += d
		t1 += e
		s2 += d2
		t2 += e2
		s3 += d2 * d
		t3 += e2 * e
		s4 += d2 * d2
		t4 += e2 * e2
	}
	if i < n {
		d := x[i] - mean
		d2 := d * d
		s1 += d
		s2 += d2
		s3 += d2 * d
		s4 += d2 * d2
	}
	s1, s2, s3, s4 = s1+t1, s2+t2, s3+t3, s4+t4
	// Shift the raw moments about the provisional mean to the corrected mean
	// mean+δ: m₂ = a₂ − δ², m₃ = a₃ − 3δa₂ + 2δ³, m₄ = a₄ − 4δa₃ + 6δ²a₂ − 3δ⁴.
	delta := s1 / fn
	a2, a3, a4 := s2/fn, s3/fn, s4/fn
	d2 := delta * delta
	m2 := a2 - d2
	m3 := a3 - 3*delta*a2 + 2*d2*delta
	m4 := a4 - 4*delta*a3 + 6*d2*a2 - 3*d2*d2
	r.N = n
	r.Min, r.Max = minV, maxV
	r.iMin, r.iMax = iMin, iMax
	r.Mean = mean + delta
	if m2 <= 0 || maxV == minV {
		// Constant channel: no spread, moments defined as 0 (see ChannelStats).
		r.Mean = minV
		return r, nil
	}
	r.Std = math.Sqrt(m2)
	if n > 1 {
		r.SampleStd = math.Sqrt(m2 * fn / (fn - 1))
	}
	r.Skewness = m3 / (m2 * r.Std)
	r.Kurtosis = m4 / (m2 * m2)
	return r, nil
}
