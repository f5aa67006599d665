package control

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/control/baseline"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// BenchmarkStepROSCO: one UpdateStates+CalcOutput of the IEA-15 ServoDyn with
// the built-in ROSCO (EKF estimator) — the per-step cost the glue pays.
func BenchmarkStepROSCO(b *testing.B) {
	path := testshared.Path(b, "reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore_ServoDyn.dat")
	sd, err := deck.ReadServoDyn(path)
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewFromDeck(sd, DeckOptions{GlueDT: 0.005, NumBl: 3})
	if err != nil {
		b.Fatal(err)
	}
	benchStep(b, s, 0.005, 0.79, 10)
}

// BenchmarkStepBaseline: the same with the NREL 5 MW baseline controller.
func BenchmarkStepBaseline(b *testing.B) {
	p := nrel5MWSimpleVS()
	p.PCMode, p.VSContrl = 5, 5
	ctrl, _ := baseline.New(baseline.DefaultParams())
	s, err := New(p, ctrl)
	if err != nil {
		b.Fatal(err)
	}
	benchStep(b, s, p.DT, 120, 11)
}

func benchStep(b *testing.B, s *ServoDyn, dt, w, v float64) {
	u := Inputs{HSSSpd: w, LSSSpd: w, HorWindV: v}
	if _, err := s.Init(0, u); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := float64(i) * dt
		u.HSSSpd = w * (1 + 0.01*math.Sin(t))
		if err := s.UpdateStates(t, u); err != nil {
			b.Fatal(err)
		}
		if _, err := s.CalcOutput(t+dt, u); err != nil {
			b.Fatal(err)
		}
	}
}
