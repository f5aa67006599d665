package analysis_test

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/analysis"
)

// A handler holding a run's columns (e.g. from solver/outfile: Time, the
// channel names and File.Data) wraps them in a Record without copying.
func Example() {
	n := 1201
	rec := &analysis.Record{Names: []string{"RotSpeed", "RootMyc1"}, Units: []string{"rpm", "kN-m"}}
	rec.Time = make([]float64, n)
	speed := make([]float64, n)
	moment := make([]float64, n)
	for i := range rec.Time {
		t := 0.05 * float64(i)
		rec.Time[i] = t
		speed[i] = 12
		moment[i] = 9000 + 1500*math.Sin(2*math.Pi*0.2*t) // 1P at 12 rpm
	}
	rec.Channels = [][]float64{speed, moment}

	w := analysis.After(30) // skip the start-up transient
	st, _ := analysis.Statistics(rec, []string{"RootMyc1"}, w)
	// 601 samples of whole periods plus one endpoint: σ = 1500/√2·√(600/601).
	fmt.Printf("mean %.1f std %.1f max %.1f\n", st[0].Mean, st[0].Std, st[0].Max)

	h, _ := analysis.ChannelHarmonics(rec, "RotSpeed", w)
	fmt.Printf("%s %.2f Hz, %s %.2f Hz\n", h[0].Label, h[0].Frequency, h[1].Label, h[1].Frequency)

	dels, _ := analysis.ChannelDEL(rec, "RootMyc1", w, analysis.DELOptions{Exponents: []float64{10}})
	// t = 30..60 s starts and ends at the mean: 5.5 cycles of range 3000
	// plus two half cycles of 1500 in T = 30 s, at f_eq = 1 Hz:
	// 3000·((5.5 + 2^-10)/30)^(1/10) ≈ 2532.
	fmt.Printf("DEL m=10: %.0f\n", dels[0].Value)
	// Output:
	// mean 9000.0 std 1059.8 max 10500.0
	// 1P 0.20 Hz, 3P 0.60 Hz
	// DEL m=10: 2532
}
