package analysis

import (
	"errors"
	"math"
	"testing"
)

// A ramp from a to b over T spends (bin width)/(b − a)·T in every bin,
// exactly: the piecewise-linear reading of the samples is the signal.
func TestLoadDurationOfARampIsUniform(t *testing.T) {
	n := 101
	tm, y := make([]float64, n), make([]float64, n)
	for i := range n {
		tm[i] = 0.5 * float64(i) // T = 50 s
		y[i] = -20 + 0.7*float64(i)
	}
	edges, err := LevelEdges(-20, 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := LoadDuration(tm, y, nil, edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ld.Duration {
		approx(t, "ramp bin duration", d, 50.0/7, 1e-12)
	}
	if ld.Revolutions != nil {
		t.Error("revolutions without a speed")
	}
}

// A sine y = A·sin(2πt/P) over whole periods spends the fraction
// (asin(e₂/A) − asin(e₁/A))/π of its time between levels e₁ and e₂ (the
// arcsine law of a sinusoid). Sampled at 2000 points per period, the
// chords between samples cut the peaks by at most A(1 − cos(π/2000)) ≈
// 1.2e-6·A, which moves at most ~1e-3 of a period between the end bins;
// 2e-3 relative is the honest bound for the two end bins, 1e-4 for the
// inner ones.
func TestLoadDurationOfASineFollowsTheArcsineLaw(t *testing.T) {
	const A, P, periods, perPeriod = 3.0, 4.0, 5, 2000
	n := periods*perPeriod + 1
	tm, y := make([]float64, n), make([]float64, n)
	for i := range n {
		tm[i] = P * float64(i) / perPeriod
		y[i] = A * math.Sin(2*math.Pi*tm[i]/P)
	}
	edges, _ := LevelEdges(-A, A, 10)
	ld, err := LoadDuration(tm, y, nil, edges)
	if err != nil {
		t.Fatal(err)
	}
	T := P * periods
	total := 0.0
	for i, d := range ld.Duration {
		want := T * (math.Asin(edges[i+1]/A) - math.Asin(edges[i]/A)) / math.Pi
		tol := 1e-4
		if i == 0 || i == len(ld.Duration)-1 {
			tol = 2e-3
		}
		approx(t, "sine time at level", d, want, tol)
		total += d
	}
	approx(t, "total time", total, T, 1e-12)
}

// LRD of a constant torque at a constant speed: every revolution, speed ×
// time, at that torque's level.
func TestLoadRevolutionsOfConstantTorqueAndSpeed(t *testing.T) {
	n := 1201
	tm, q, w := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		tm[i] = 0.05 * float64(i) // 60 s
		q[i] = 4180               // kN·m
		w[i] = 12.1               // rpm
	}
	edges, _ := LevelEdges(4000, 5000, 10)
	ld, err := LoadDuration(tm, q, w, edges)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ld.Duration {
		wantT, wantR := 0.0, 0.0
		if i == 1 { // [4100, 4200)
			wantT, wantR = 60, 12.1*60/60
		}
		approx(t, "duration", ld.Duration[i], wantT, 1e-12)
		approx(t, "revolutions", ld.Revolutions[i], wantR, 1e-12)
	}
}

// LRD of a torque proportional to a speed ramping linearly, Ω = Ω₀ + αt and
// Q = cΩ: the revolutions with Q in [q₁, q₂] are ∫Ω/60 dt over the time
// the speed is in [q₁/c, q₂/c] = (Ω₂² − Ω₁²)/(120 α), closed form.
func TestLoadRevolutionsOfARampingShaft(t *testing.T) {
	const w0, alpha, c, T = 6.0, 0.1, 350.0, 60.0 // rpm, rpm/s, kN·m/rpm, s
	n := 601
	tm, q, w := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		tm[i] = T * float64(i) / float64(n-1)
		w[i] = w0 + alpha*tm[i]
		q[i] = c * w[i]
	}
	edges, _ := LevelEdges(c*w0, c*(w0+alpha*T), 6)
	ld, err := LoadDuration(tm, q, w, edges)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ld.Duration {
		w1, w2 := edges[i]/c, edges[i+1]/c
		approx(t, "revolutions", ld.Revolutions[i], (w2*w2-w1*w1)/(120*alpha), 1e-9)
		approx(t, "duration", ld.Duration[i], (w2-w1)/alpha, 1e-9)
	}
}

// triangleRun alternates between lo and hi at every sample (dt apart):
// 2k+1 turning points are 2k rainflow half cycles of range hi − lo, mean
// (lo + hi)/2, i.e. k cycles in (2k)·dt seconds.
func triangleRun(id string, speed float64, k int, dt, lo, hi float64) FatigueInput {
	n := 2*k + 1
	rec := &Record{Names: []string{"Load", "RotSpeed"}, Units: []string{"kN", "rpm"}, Time: make([]float64, n),
		Channels: [][]float64{make([]float64, n), make([]float64, n)}}
	for i := range n {
		rec.Time[i] = dt * float64(i)
		rec.Channels[0][i] = lo
		if i%2 == 1 {
			rec.Channels[0][i] = hi
		}
		rec.Channels[1][i] = 10
	}
	return FatigueInput{ID: id, WindSpeed: speed, Record: rec}
}

// The lifetime Markov matrix of a batch counts run j's cycles wⱼ·L/Tⱼ
// times, wⱼ its wind-speed bin's probability split over the bin's runs and
// normalised over the batch (the lifetime DEL's weights). Two
// runs at 8 m/s and one at 12 m/s with known cycles: the expected cells by
// hand, and Σ n·Sᵐ over the matrix = L·DEL_lifeᵐ at f_eq = 1 Hz from
// BatchDEL, since each run has a single range.
func TestBatchMarkovMatrixIsLifetimeWeighted(t *testing.T) {
	runs := []FatigueInput{
		triangleRun("a", 8, 300, 1, 0, 2),   // 300 cycles of range 2, mean 1, in 600 s
		triangleRun("b", 8, 100, 2, 1, 3),   // 100 cycles of range 2, mean 2, in 400 s
		triangleRun("c", 12, 200, 1, -1, 5), // 200 cycles of range 6, mean 2, in 400 s
	}
	vave := 8.5
	dist := Rayleigh{MeanSpeed: vave}
	F := func(v float64) float64 { return 1 - math.Exp(-math.Pi/4*(v/vave)*(v/vave)) }
	p8, p12 := F(10)-F(6), F(14)-F(10)
	w := []float64{p8 / 2 / (p8 + p12), p8 / 2 / (p8 + p12), p12 / (p8 + p12)}
	L := 20 * SecondsPerYear
	life := []float64{w[0] * L / 600 * 300, w[1] * L / 400 * 100, w[2] * L / 400 * 200}

	mk, weights, err := BatchMarkovMatrix(runs, "Load", BatchSpectrumOptions{LifetimeSeconds: L, RangeBins: 3, MeanBins: 2}, dist)
	if err != nil {
		t.Fatal(err)
	}
	// Ranges 0..6 in [0,2) [2,4) [4,6]; means 1..2 in [1,1.5) [1.5,2].
	want := [][]float64{{0, 0}, {life[0], life[1]}, {0, life[2]}}
	for i := range want {
		for j := range want[i] {
			approx(t, "lifetime cell", mk.Counts[i][j], want[i][j], 1e-12)
		}
	}
	for j := range w {
		approx(t, "run weight", weights.Weights[j], w[j], 1e-12)
	}
	const m = 4.0
	dels, err := BatchDEL(runs, []string{"Load"}, DELOptions{Exponents: []float64{m}}, dist)
	if err != nil {
		t.Fatal(err)
	}
	damage := life[0]*math.Pow(2, m) + life[1]*math.Pow(2, m) + life[2]*math.Pow(6, m)
	approx(t, "Σ n·S^m of the lifetime matrix vs L·DEL_life^m", damage, L*math.Pow(dels[0].Lifetime[0].DEL, m), 1e-9)
}

// The lifetime LDD and LRD of a batch: each run's time and revolutions at
// level scaled by wⱼ·L/Tⱼ, so the hours add up to the lifetime and the
// revolutions to L × Σ wⱼ·(mean speed of run j)/60.
func TestBatchLoadDurationIsLifetimeWeighted(t *testing.T) {
	runs := []FatigueInput{
		triangleRun("a", 8, 300, 1, 0, 2),
		triangleRun("c", 12, 200, 1, -1, 5),
	}
	for i := range runs[1].Record.Time {
		runs[1].Record.Channels[1][i] = 12 // rpm
	}
	dist := Rayleigh{MeanSpeed: 8.5}
	L := 20 * SecondsPerYear
	ld, weights, err := BatchLoadDuration(runs, "Load", BatchSpectrumOptions{LifetimeSeconds: L, LevelBins: 6, SpeedChannel: "RotSpeed"}, dist)
	if err != nil {
		t.Fatal(err)
	}
	// Levels −1..5 in unit bins. Run a (0 ↔ 2) spends half its time in
	// [0,1) and half in [1,2); run c (−1 ↔ 5) a sixth in each bin.
	wa, wc := weights.Weights[0], weights.Weights[1]
	wantT := []float64{wc * L / 6, wa*L/2 + wc*L/6, wa*L/2 + wc*L/6, wc * L / 6, wc * L / 6, wc * L / 6}
	total, revs := 0.0, 0.0
	for i := range wantT {
		approx(t, "lifetime seconds at level", ld.Duration[i], wantT[i], 1e-12)
		total += ld.Duration[i]
		revs += ld.Revolutions[i]
	}
	approx(t, "lifetime seconds", total, L, 1e-12)
	approx(t, "lifetime revolutions", revs, L*(wa*10+wc*12)/60, 1e-12)
}

func TestGoodmanErrorNamesChannelAndRun(t *testing.T) {
	runs := []FatigueInput{triangleRun("a", 8, 10, 1, 0, 2)}
	_, err := BatchDEL(runs, []string{"Load"}, DELOptions{Exponents: []float64{4}, UltimateLoads: map[string]float64{"Load": 1}}, Rayleigh{MeanSpeed: 8})
	var ge *GoodmanError
	if !errorsAs(err, &ge) || ge.Channel != "Load" || ge.Run != "a" || ge.Mean != 1 || ge.Ultimate != 1 {
		t.Fatalf("err %v (%+v)", err, ge)
	}
	// Below the mean's level the correction applies: S/(1 − 1/4) per cycle.
	res, err := BatchDEL(runs, []string{"Load"}, DELOptions{Exponents: []float64{4}, UltimateLoads: map[string]float64{"Load": 4}}, Rayleigh{MeanSpeed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Goodman || res[0].UltimateLoad != 4 {
		t.Errorf("goodman %v, ultimate %v", res[0].Goodman, res[0].UltimateLoad)
	}
	plain, _ := BatchDEL(runs, []string{"Load"}, DELOptions{Exponents: []float64{4}}, Rayleigh{MeanSpeed: 8})
	approx(t, "Goodman DEL / plain DEL", res[0].Runs[0].DELs[0].Value/plain[0].Runs[0].DELs[0].Value, 1/(1-1.0/4), 1e-12)
	if plain[0].Goodman {
		t.Error("goodman without an ultimate load")
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// Events in the lifetime spectra count per event, as LifetimeFatigue adds
// their damage: DLC 3.1 at 4 m/s (two seeds: 3 and 5 cycles)
// and 25 m/s (one seed: 10 cycles) with 100 events a year gives, by hand,
// 100·years·(mean over speeds of the mean over seeds) = 100·20·(4+10)/2
// cycles in the lifetime on top of the time-weighted run's L/Tⱼ·k, and
// Σ n·Sᵐ over the matrix is f_eq·L·DEL_lifeᵐ of LifetimeFatigue. The LDD
// adds each event's seconds the same number of times.
func TestLifetimeSpectraCountEventsPerEvent(t *testing.T) {
	prod := []FatigueInput{triangleRun("p", 8, 300, 1, 0, 2)} // 300 cycles of range 2 in 600 s
	ev := EventCase{DLC: "3.1", EventsPerYear: 100, Runs: []FatigueInput{
		triangleRun("u4a", 4, 3, 1, 0, 6),   // 3 cycles of range 6 in 6 s
		triangleRun("u4b", 4, 5, 1, 0, 6),   // 5 cycles of range 6 in 10 s
		triangleRun("u25", 25, 10, 1, 0, 6), // 10 cycles of range 6 in 20 s
	}}
	dist := Rayleigh{MeanSpeed: 8.5}
	const years = 20.0
	L := years * SecondsPerYear
	opt := BatchSpectrumOptions{LifetimeSeconds: L, RangeBins: 3, MeanBins: 1, LevelBins: 6}
	mk, w, err := LifetimeMarkovMatrix(prod, []EventCase{ev}, "Load", opt, dist)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Weights) != 1 || w.Weights[0] != 1 {
		t.Errorf("weights %v, want the production run's [1]", w.Weights)
	}
	prodCycles := L / 600 * 300
	eventCycles := 100 * years * ((3.0+5.0)/2 + 10) / 2
	// Ranges 0..6 in [0,2) [2,4) [4,6].
	approx(t, "production cycles (range 2)", mk.Counts[1][0], prodCycles, 1e-12)
	approx(t, "event cycles (range 6)", mk.Counts[2][0], eventCycles, 1e-12)
	const m = 4.0
	fat, err := LifetimeFatigue(prod, []EventCase{ev}, []string{"Load"}, DELOptions{Exponents: []float64{m}}, dist)
	if err != nil {
		t.Fatal(err)
	}
	damage := prodCycles*math.Pow(2, m) + eventCycles*math.Pow(6, m)
	approx(t, "Σ n·S^m of the lifetime matrix vs L·DEL_life^m", damage, L*math.Pow(fat[0].Lifetime[0].DEL, m), 1e-9)

	ld, _, err := LifetimeLoadDuration(prod, []EventCase{ev}, "Load", opt, dist)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, d := range ld.Duration {
		total += d
	}
	eventSeconds := 100 * years * ((6.0+10.0)/2 + 20) / 2
	approx(t, "lifetime seconds: operation plus events", total, L+eventSeconds, 1e-12)

	// Events alone (a batch of start-ups only): no time-weighted runs.
	only, w, err := LifetimeMarkovMatrix(nil, []EventCase{ev}, "Load", opt, dist)
	if err != nil {
		t.Fatal(err)
	}
	approx(t, "event-only cycles", only.Total(), eventCycles, 1e-12)
	if len(w.Weights) != 0 {
		t.Errorf("event-only weights %v, want none", w.Weights)
	}
}

// BatchMarkovMatrix is LifetimeMarkovMatrix without events: each run's
// rainflow cycles counted wⱼ·L/Tⱼ times (lifetimeScales) on edges common
// to every run.
func BatchMarkovMatrix(runs []FatigueInput, channel string, opt BatchSpectrumOptions, dist WindDistribution) (Markov, SpeedWeights, error) {
	return LifetimeMarkovMatrix(runs, nil, channel, opt, dist)
}

// BatchLoadDuration is LifetimeLoadDuration without events: each run's
// distribution (LoadDuration) on level edges spanning every run's minimum
// to maximum, scaled by wⱼ·L/Tⱼ (lifetimeScales), so the durations add up
// to L.
func BatchLoadDuration(runs []FatigueInput, channel string, opt BatchSpectrumOptions, dist WindDistribution) (LevelDistribution, SpeedWeights, error) {
	return LifetimeLoadDuration(runs, nil, channel, opt, dist)
}
