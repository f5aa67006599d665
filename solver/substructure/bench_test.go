package substructure

import "testing"

// BenchmarkMonopileStep is one coupled time step of the IEA 15 MW monopile
// (19 nodes, Guyan reduction, static improvement): the state update over
// [t, t+dt] and the outputs at t+dt, with nodal loads on every node.
func BenchmarkMonopileStep(b *testing.B) {
	_, m := monopile(b)
	benchStep(b, m)
}

// BenchmarkMonopileStepCB is the same with 8 fixed-interface modes.
func BenchmarkMonopileStepCB(b *testing.B) {
	sd, _ := monopile(b)
	sd.Nmodes = 8
	f, err := NewFEM(sd, Options{Gravity: 9.81, WtrDpth: 30, TPRef: [3]float64{0, 0, 15}})
	if err != nil {
		b.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		b.Fatal(err)
	}
	benchStep(b, m)
}

func benchStep(b *testing.B, m *Model) {
	s := NewSim(m)
	nn := len(m.FEM().Nodes)
	u0 := &Input{NodeLoads: make([][6]float64, nn)}
	u1 := &Input{NodeLoads: make([][6]float64, nn)}
	for n := range u0.NodeLoads {
		u0.NodeLoads[n][0], u1.NodeLoads[n][0] = 1e4, 1.1e4
	}
	u1.Disp[0], u1.Disp[4] = 0.08, 0.0035
	var y Output
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Step(0.005, u0, u1); err != nil {
			b.Fatal(err)
		}
		if err := s.Output(u1, &y); err != nil {
			b.Fatal(err)
		}
	}
}
