package analysis

import (
	"math"
	"testing"
)

// Start-up and shut-down damage adds per event, not by time. A
// production run of 40 cycles of range 6 over 80 s (DEL = 6·0.5^(1/m) at
// f_eq = 1 Hz, weight 1) and a DLC 3.1 case of three runs: two seeds at
// 4 m/s with 2 cycles of range 100 and 3 of range 60, one run at 25 m/s
// with 5 cycles of range 40; 1000 events a year. By hand, for m:
//
//	D̄ = ( (2·100ᵐ + 3·60ᵐ)/2 + 5·40ᵐ ) / 2
//	DELᵐ = 6ᵐ·0.5 + 1000·D̄ / (8760·3600)
func TestLifetimeFatigueAddsEventsPerYear(t *testing.T) {
	prod := []FatigueInput{{ID: "p", WindSpeed: 10, Record: alternating(3, 0.5, 40), Window: WholeRecord()}}
	ev := EventCase{DLC: "3.1", EventsPerYear: 1000, Runs: []FatigueInput{
		{ID: "s1", WindSpeed: 4, Record: alternating(50, 0.5, 2), Window: WholeRecord()},
		{ID: "s2", WindSpeed: 4, Record: alternating(30, 0.5, 3), Window: WholeRecord()},
		{ID: "s3", WindSpeed: 25, Record: alternating(20, 0.5, 5), Window: WholeRecord()},
	}}
	res, err := LifetimeFatigue(prod, []EventCase{ev}, []string{"M"}, DELOptions{Exponents: []float64{3, 10}}, Rayleigh{MeanSpeed: 10})
	if err != nil {
		t.Fatal(err)
	}
	for k, m := range []float64{3, 10} {
		l := res[0].Lifetime[k]
		dbar := ((2*math.Pow(100, m)+3*math.Pow(60, m))/2 + 5*math.Pow(40, m)) / 2
		tw := 6 * math.Pow(0.5, 1/m)
		want := math.Pow(math.Pow(tw, m)+1000*dbar/(8760*3600), 1/m)
		if math.Abs(l.TimeWeightedDEL-tw) > 1e-12*tw {
			t.Errorf("m=%g: time-weighted DEL %.9g, want %.9g", m, l.TimeWeightedDEL, tw)
		}
		if len(l.Events) != 1 || math.Abs(l.Events[0].DamagePerEvent-dbar) > 1e-9*dbar {
			t.Fatalf("m=%g: events %+v, want damage per event %.9g", m, l.Events, dbar)
		}
		if math.Abs(l.DEL-want) > 1e-9*want {
			t.Errorf("m=%g: lifetime DEL %.9g, want %.9g", m, l.DEL, want)
		}
		// The events matter here: the DEL is well above the production one.
		if !(l.DEL > 1.01*tw) {
			t.Errorf("m=%g: lifetime DEL %.6g barely above the production DEL %.6g; the test case does not exercise the events", m, l.DEL, tw)
		}
	}
	if n := len(res[0].EventRuns); n != 3 {
		t.Errorf("%d event runs listed, want 3", n)
	}
}

// Without time-weighted runs the lifetime DEL is the events' alone; a
// second event case adds its own term.
func TestLifetimeFatigueEventsOnly(t *testing.T) {
	up := EventCase{DLC: "3.1", EventsPerYear: 500, Runs: []FatigueInput{{ID: "u", WindSpeed: 4, Record: alternating(50, 0.5, 2), Window: WholeRecord()}}}
	down := EventCase{DLC: "4.1", EventsPerYear: 200, Runs: []FatigueInput{{ID: "d", WindSpeed: 25, Record: alternating(80, 0.5, 1), Window: WholeRecord()}}}
	res, err := LifetimeFatigue(nil, []EventCase{up, down}, []string{"M"}, DELOptions{Exponents: []float64{4}}, Rayleigh{MeanSpeed: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := math.Pow((500*2*math.Pow(100, 4)+200*1*math.Pow(160, 4))/(8760*3600), 0.25)
	l := res[0].Lifetime[0]
	if math.Abs(l.DEL-want) > 1e-9*want || l.TimeWeightedDEL != 0 {
		t.Errorf("lifetime DEL %.9g (time-weighted %g), want %.9g (0)", l.DEL, l.TimeWeightedDEL, want)
	}
	if _, err := LifetimeFatigue(nil, []EventCase{{DLC: "3.1", EventsPerYear: -1, Runs: up.Runs}}, []string{"M"}, DELOptions{Exponents: []float64{4}}, Rayleigh{MeanSpeed: 10}); err == nil {
		t.Error("negative events per year accepted")
	}
}
