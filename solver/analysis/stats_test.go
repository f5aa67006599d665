package analysis

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func approx(t *testing.T, what string, got, want, relTol float64) {
	t.Helper()
	scale := math.Max(math.Abs(want), 1e-300)
	if math.Abs(got-want) > relTol*scale && !(got == want) {
		t.Errorf("%s = %.15g, want %.15g (rel err %.3g > %.3g)", what, got, want, math.Abs(got-want)/scale, relTol)
	}
}

func uniformTime(n int, dt float64) []float64 {
	t := make([]float64, n)
	for i := range t {
		t[i] = float64(i) * dt
	}
	return t
}

// Hand-computed case: x = 2, 4, 4, 4, 5, 5, 7, 9 (the textbook example with
// population σ = 2). Mean 5; deviations −3, −1, −1, −1, 0, 0, 2, 4;
// Σd² = 32 → m₂ = 4, σ = 2, sample σ = √(32/7);
// Σd³ = −27 −1 −1 −1 + 8 + 64 = 42 → m₃ = 5.25, skew = 5.25/8 = 0.65625;
// Σd⁴ = 81 + 1 + 1 + 1 + 16 + 256 = 356 → m₄ = 44.5, kurtosis = 44.5/16 = 2.78125.
func TestSeriesStatisticsHandComputed(t *testing.T) {
	x := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	tm := []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5}
	s, err := SeriesStatistics(tm, x, WholeRecord())
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "mean", s.Mean, 5, 1e-15)
	approx(t, "std", s.Std, 2, 1e-15)
	approx(t, "sample std", s.SampleStd, math.Sqrt(32.0/7), 1e-15)
	approx(t, "skewness", s.Skewness, 0.65625, 1e-14)
	approx(t, "kurtosis", s.Kurtosis, 2.78125, 1e-14)
	if s.Min != 2 || s.Max != 9 || s.TimeOfMin != 0 || s.TimeOfMax != 3.5 || s.N != 8 {
		t.Errorf("extremes: got min %v at %v, max %v at %v, n %d", s.Min, s.TimeOfMin, s.Max, s.TimeOfMax, s.N)
	}
}

// The window skips the transient: only t in [1, 3] → x = 4, 4, 5, 5, 7.
func TestStatisticsWindow(t *testing.T) {
	rec := &Record{
		Time:     []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5},
		Names:    []string{"A", "B"},
		Units:    []string{"(kN)", "(-)"},
		Channels: [][]float64{{100, -50, 4, 4, 5, 5, 7, 9}, {1, 1, 1, 1, 1, 1, 1, 1}},
	}
	st, err := Statistics(rec, nil, Between(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	a := st[0]
	// mean = 25/5 = 5; d = −1, −1, 0, 0, 2; m₂ = 6/5.
	approx(t, "A mean", a.Mean, 5, 1e-15)
	approx(t, "A std", a.Std, math.Sqrt(6.0/5), 1e-15)
	if a.N != 5 || a.Start != 1 || a.End != 3 || a.Min != 4 || a.TimeOfMin != 1 || a.Max != 7 || a.TimeOfMax != 3 || a.Unit != "(kN)" {
		t.Errorf("A window stats wrong: %+v", a)
	}
	b := st[1]
	if b.Mean != 1 || b.Std != 0 || b.Skewness != 0 || b.Kurtosis != 0 {
		t.Errorf("constant channel: %+v", b)
	}
	// After(1) tolerates rounding of stored times.
	rec.Time[2] = 1 - 1e-12
	st, err = Statistics(rec, []string{"A"}, After(1))
	if err != nil {
		t.Fatal(err)
	}
	if st[0].N != 6 {
		t.Errorf("After(1) with t=1-1e-12 kept %d samples, want 6", st[0].N)
	}
}

// Large offset: naive one-pass Σx² − N x̄² loses all digits here, the
// two-pass result matches the statistics of the same signal without offset.
func TestStatisticsLargeOffsetStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 10000
	base := make([]float64, n)
	off := make([]float64, n)
	for i := range base {
		base[i] = rng.NormFloat64()
		off[i] = base[i] + 1e9
	}
	tm := uniformTime(n, 0.01)
	s0, err := SeriesStatistics(tm, base, WholeRecord())
	if err != nil {
		t.Fatal(err)
	}
	s1, err := SeriesStatistics(tm, off, WholeRecord())
	if err != nil {
		t.Fatal(err)
	}
	// Adding 1e9 rounds each sample to about 1.2e-7 absolute; relative to σ≈1
	// this bounds the achievable agreement.
	approx(t, "std with offset", s1.Std, s0.Std, 1e-6)
	approx(t, "skew with offset", s1.Skewness, s0.Skewness, 1e-4)
	approx(t, "kurt with offset", s1.Kurtosis, s0.Kurtosis, 1e-5)
	approx(t, "mean with offset", s1.Mean-1e9, s0.Mean, 1e-5)
}

// Independent check against the textbook definitions summed naively in
// extended form (mean first, then each central moment in its own loop).
func TestStatisticsAgainstNaiveDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 5001
	x := make([]float64, n)
	for i := range x {
		x[i] = 3 + 2*rng.ExpFloat64() // skewed: skew 2, kurtosis 9 in the limit
	}
	s, err := SeriesStatistics(uniformTime(n, 0.1), x, WholeRecord())
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	var m2, m3, m4 float64
	for _, v := range x {
		m2 += math.Pow(v-mean, 2)
		m3 += math.Pow(v-mean, 3)
		m4 += math.Pow(v-mean, 4)
	}
	m2, m3, m4 = m2/float64(n), m3/float64(n), m4/float64(n)
	approx(t, "mean", s.Mean, mean, 1e-12)
	approx(t, "std", s.Std, math.Sqrt(m2), 1e-12)
	approx(t, "skew", s.Skewness, m3/math.Pow(m2, 1.5), 1e-11)
	approx(t, "kurt", s.Kurtosis, m4/(m2*m2), 1e-11)
}

func TestStatisticsErrors(t *testing.T) {
	rec := &Record{Time: []float64{0, 1, 2}, Names: []string{"A"}, Channels: [][]float64{{1, math.NaN(), 3}}}
	if _, err := Statistics(rec, nil, WholeRecord()); err == nil || !strings.Contains(err.Error(), `"A"`) {
		t.Errorf("NaN sample: err = %v, want one naming channel A", err)
	}
	if _, err := Statistics(rec, []string{"B"}, WholeRecord()); err == nil {
		t.Error("missing channel: no error")
	}
	if _, err := Statistics(rec, nil, After(5)); err == nil {
		t.Error("empty window: no error")
	}
	bad := &Record{Time: []float64{0, 1, 1}, Names: []string{"A"}, Channels: [][]float64{{1, 2, 3}}}
	if _, err := Statistics(bad, nil, WholeRecord()); err == nil {
		t.Error("non-increasing time: no error")
	}
	short := &Record{Time: []float64{0, 1, 2}, Names: []string{"A"}, Channels: [][]float64{{1, 2}}}
	if _, err := Statistics(short, nil, WholeRecord()); err == nil {
		t.Error("short channel: no error")
	}
	if _, err := Statistics(nil, nil, WholeRecord()); err == nil {
		t.Error("nil record: no error")
	}
}
