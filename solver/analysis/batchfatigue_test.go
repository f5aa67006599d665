package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Two wind speeds, two seeds at 8 m/s of different durations: the lifetime
// DEL equals (Σ p_j f_j (2a_j)^m)^(1/m) from the analytic damage rates.
func TestBatchDEL(t *testing.T) {
	runs := []FatigueInput{
		{ID: "8a", WindSpeed: 8, Record: alternating(2, 0.5, 20), Window: WholeRecord()},
		{ID: "8b", WindSpeed: 8, Record: alternating(2.5, 0.5, 40), Window: WholeRecord()},
		{ID: "12", WindSpeed: 12, Record: alternating(5, 0.25, 10), Window: WholeRecord()},
	}
	r := Rayleigh{MeanSpeed: 10}
	res, err := BatchDEL(runs, []string{"M"}, DELOptions{Exponents: []float64{4, 10}}, r)
	if err != nil {
		t.Fatal(err)
	}
	F := r.CDF
	p8, p12 := F(10)-F(6), F(14)-F(10)
	w := []float64{p8 / 2 / (p8 + p12), p8 / 2 / (p8 + p12), p12 / (p8 + p12)}
	amp := []float64{2, 2.5, 5}
	freq := []float64{0.5, 0.5, 0.25}
	for k, m := range []float64{4, 10} {
		rate := 0.0
		for j := range w {
			rate += w[j] * freq[j] * math.Pow(2*amp[j], m)
		}
		approx(t, "batch lifetime DEL", res[0].Lifetime[k].DEL, math.Pow(rate, 1/m), 1e-12)
	}
	approx(t, "run 8b duration", res[0].Runs[1].Duration, 80, 1e-15)
	if _, err := BatchDEL(runs, []string{"M"}, DELOptions{Exponents: []float64{4}, EquivalentCycles: 1e7}, r); err == nil {
		t.Error("fixed N_eq: no error")
	}
}

// Periodic load: counting K repetitions of a random period gives K times
// the damage of one period's closed cycles, up to one residue. The
// per-period damage is computed independently by rotating the period to
// start and end at its absolute maximum, where every range closes into a
// cycle (the usual treatment of a repeating load block).
func TestRainflowPeriodicDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	period := make([]float64, 40)
	for i := range period {
		period[i] = rng.NormFloat64()
	}
	iMax := 0
	for i, v := range period {
		if v > period[iMax] {
			iMax = i
		}
	}
	rot := append(append([]float64(nil), period[iMax:]...), period[:iMax]...)
	rot = append(rot, period[iMax])
	one, err := Rainflow(rot)
	if err != nil {
		t.Fatal(err)
	}
	const m = 4.0
	dPeriod, _ := DamageSum(one, m, 0)
	const k = 300
	var long []float64
	for r := 0; r < k; r++ {
		long = append(long, period...)
	}
	cs, err := Rainflow(long)
	if err != nil {
		t.Fatal(err)
	}
	dLong, _ := DamageSum(cs, m, 0)
	// Residue bound: at most one period's turning points as half cycles of
	// at most the full range.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range period {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	bound := float64(len(period)) * math.Pow(hi-lo, m)
	if math.Abs(dLong-k*dPeriod) > bound {
		t.Errorf("damage of %d periods %g vs %d × %g = %g (bound %g)", k, dLong, k, dPeriod, k*dPeriod, bound)
	}
	if bound > 0.2*k*dPeriod {
		t.Fatalf("test too weak: bound %g vs damage %g", bound, k*dPeriod)
	}
}

func TestMarkovMatrix(t *testing.T) {
	cs, _ := Rainflow([]float64{-2, 1, -3, 5, -1, 3, -4, 4, -2})
	mk, err := MarkovMatrix(cs, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Ranges 0..9 in bins [0,3) [3,6) [6,9]; means −1..1 in [−1,0) [0,1].
	// Cycles (range, mean, count): (3,−0.5,½) (4,−1,½) (4,1,1) (8,1,½)
	// (9,0.5,½) (8,0,½) (6,1,½).
	want := [][]float64{{0, 0}, {1, 1}, {0, 2}}
	total := 0.0
	for i := range want {
		for j := range want[i] {
			total += mk.Counts[i][j]
			if mk.Counts[i][j] != want[i][j] {
				t.Errorf("cell %d,%d = %v, want %v", i, j, mk.Counts[i][j], want[i][j])
			}
		}
	}
	if total != 4 {
		t.Errorf("total %v, want 4 cycles", total)
	}
}
