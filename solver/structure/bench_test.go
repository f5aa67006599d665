package structure

import (
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// BenchmarkSemiStateEvaluation is the structural work of one coupling step
// of the IEA 15 MW on the VolturnUS-S semi (six platform DOFs, tower and
// blade modes, 50 blade load stations): the kinematic coefficients and the
// equations of motion at two new states (ABM4's predictor and corrector)
// and the motions at the second, as the coupling asks for them.
//
//	go test ./solver/structure -run '^$' -bench SemiStateEvaluation -benchmem
func BenchmarkSemiStateEvaluation(b *testing.B) {
	m, sys, st, u := semiMoving(b)
	mo := m.NewMotions()
	qdd := make([]float64, m.NumDOF())
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime(b)
	for i := 0; i < b.N; i++ {
		for k := 0; k < 2; k++ {
			st.Q[DOFGeAz] += 0.0125
			st.Q[DOFP] += 1e-5
			if err := sys.Derivative(st, u, qdd); err != nil {
				b.Fatal(err)
			}
		}
		sys.Motions(st, u.BlPitch, mo)
	}
	b.ReportMetric((cpuTime(b)-c0).Seconds()/float64(b.N)*1e6, "cpu-µs/op")
}

// semiMoving is the semi's model and system at its initial state with
// pitch, surge and tower fore-aft rates, and zero inputs.
func semiMoving(b *testing.B) (*Model, *System, *State, *Inputs) {
	m := semiModel(b, nil)
	st, err := m.InitialState()
	if err != nil {
		b.Fatal(err)
	}
	st.QD[DOFP], st.QD[DOFSg], st.QD[DOFTFA1] = 0.01, 0.2, 0.05
	return m, NewSystem(m), st, m.NewInputs()
}

// semiModel is the structural model of the IEA 15 MW on the VolturnUS-S
// semi of the reference case iea15_semi_steady10_still, with 50 evenly
// spaced blade load stations (like AeroDyn's) and the deck's DOFs, or dof
// when given.
func semiModel(tb testing.TB, dof *DOFFlags) *Model {
	d, err := deck.Load(testshared.Path(tb, "reference-outputs", "iea15_semi_steady10_still", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := ParamsFromDeck(d)
	if err != nil {
		tb.Fatal(err)
	}
	if dof != nil {
		p.DOF = *dof
	}
	stations := make([][]float64, p.NumBl)
	for k := range stations {
		for i := 0; i < 50; i++ {
			stations[k] = append(stations[k], float64(i)/49*(p.TipRad-p.HubRad))
		}
	}
	m, err := NewModel(p, stations)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// cpuTime is the process's user+system CPU time (the machine is shared, so
// wall time overstates the cost).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSemiOutputs is one output evaluation of the semi's model
// (Outputs at a new state: the equations of motion and the Newton–Euler
// loads) with the common channels only and with DetailOutputs enabled
// (tower top, IMU, platform, tips and one tower gage), which a run pays
// for only when its OutList asks for a detail channel.
//
//	go test ./solver/structure -run '^$' -bench SemiOutputs -benchmem
func BenchmarkSemiOutputs(b *testing.B) {
	for _, detail := range []bool{false, true} {
		name := "common"
		if detail {
			name = "detail"
		}
		b.Run(name, func(b *testing.B) {
			m, sys, st, u := semiMoving(b)
			out := m.NewOutputs()
			out.SetTowerGages([]int{m.p.TwrNodes - 1})
			if detail {
				out.EnableDetail()
			}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuTime(b)
			for i := 0; i < b.N; i++ {
				st.Q[DOFGeAz] += 0.0125
				st.Q[DOFP] += 1e-5
				if err := sys.Outputs(st, u, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime(b)-c0).Seconds()/float64(b.N)*1e6, "cpu-µs/op")
		})
	}
}
