package dbemt

import "testing"

// BenchmarkUpdateStatesIEA15 is one DBEMT step for a whole rotor of IEA-15
// size (3 blades x 50 AeroDyn nodes, DBEMT_Mod 2).
func BenchmarkUpdateStatesIEA15(b *testing.B) {
	const nb, nn = 3, 50
	m, err := New(Params{Mod: ModTauVaries, DT: 0.01, NumBlades: nb, NumNodes: nn})
	if err != nil {
		b.Fatal(err)
	}
	mk := func(scale float64) *Input {
		in := &Input{AxIndAvg: 0.3, UnAvg: 10, TipRadius: 120}
		for j := 0; j < nb; j++ {
			nodes := make([]NodeInput, nn)
			for i := range nodes {
				nodes[i] = NodeInput{VindQS: [2]float64{-3 * scale, 0.2 * scale}, SpanRatio: float64(i+1) / nn}
			}
			in.Nodes = append(in.Nodes, nodes)
		}
		return in
	}
	u0, u1 := mk(1), mk(1.01)
	out := m.NewOutput()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.UpdateStates(float64(i)*0.01, u0, u1); err != nil {
			b.Fatal(err)
		}
		if err := m.CalcOutput(u1, out); err != nil {
			b.Fatal(err)
		}
	}
}
