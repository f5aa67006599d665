package analysis

import (
	"math"
	"testing"
)

// A synthetic platform decay: an offset, a pitch mode (27 s, ζ 8 %), a slow
// surge drift (140 s, ζ 5 %), a heave mode (20.6 s, ζ 1.2 %) and a tower
// vibration (3 s, ζ 1 %), sampled at 0.025 s for 200 s. The fit recovers
// each mode's damped period and damping ratio; counting peaks of the raw
// signal would not (the drift and the vibration move the peaks).
func TestDecayModesSeparatesOverlappingModes(t *testing.T) {
	type mode struct{ amp, period, zeta, phase float64 }
	ms := []mode{{4, 27, 0.08, 0}, {1, 140, 0.05, 1}, {0.3, 20.6, 0.012, 2}, {0.2, 3, 0.01, 0.5}}
	var tm, x []float64
	for k := 0; k <= 8000; k++ {
		tt := float64(k) * 0.025
		v := 0.3
		for _, m := range ms {
			wd := 2 * math.Pi / m.period
			wn := wd / math.Sqrt(1-m.zeta*m.zeta)
			v += m.amp * math.Exp(-m.zeta*wn*tt) * math.Cos(wd*tt+m.phase)
		}
		tm = append(tm, tt)
		x = append(x, v)
	}
	modes, err := DecayModes(tm, x, 10, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range ms[:3] {
		got, ok := DominantMode(modes, want.period*0.9, want.period*1.1)
		if !ok {
			t.Fatalf("no mode near %g s in %+v", want.period, modes)
		}
		if math.Abs(got.Period-want.period) > 1e-3*want.period || math.Abs(got.Zeta-want.zeta) > 0.01*want.zeta {
			t.Errorf("mode %g s: got period %.4f s, ζ %.5f; want ζ %.5f", want.period, got.Period, got.Zeta, want.zeta)
		}
	}
	if p, _ := DominantMode(modes, 10, 60); math.Abs(p.Period-27) > 0.03 {
		t.Errorf("dominant mode between 10 and 60 s is %+v, want the 27-s pitch mode", p)
	}
	if _, err := DecayModes(tm[:10], x[:10], 10, 1); err == nil {
		t.Error("10 samples for 10 modes accepted")
	}
}
