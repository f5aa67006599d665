package aero

import (
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// BenchmarkSolveNode: one BEMT solve of one NREL 5MW mid-span node (DU21).
func BenchmarkSolveNode(b *testing.B) {
	_, p := load5MW(b)
	g := p.Blades[0]
	j := 12
	r := p.HubRadius + g.Span[j]
	sec := NodeSection{Chord: g.Chord[j], Theta: g.Twist[j], RLocal: r, NumBlades: 3, Airfoil: p.Airfoils[g.AirfoilID[j]],
		KinVisc: p.KinVisc, TipConst: 3 * (63 - r) / (2 * r), HubConst: 3 * (r - 1.5) / 3}
	if err := sec.Airfoil.Prepare(); err != nil {
		b.Fatal(err)
	}
	opt := p.BEMT
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SolveNode(8, 7.5*8*r/63, &sec, &opt, true)
	}
}

// BenchmarkRotorIEA15: one full rotor evaluation of the IEA-15 (50 nodes x 3
// blades), rigid kinematics included.
func BenchmarkRotorIEA15(b *testing.B) {
	d, err := deck.Load(testshared.Path(b, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		b.Fatal(err)
	}
	p, _, err := ParamsFromDeck(d)
	if err != nil {
		b.Fatal(err)
	}
	rot, err := New(p)
	if err != nil {
		b.Fatal(err)
	}
	st, err := RigidStateFromDeck(d, 0.3, 7.5*1.04719755/10, 0)
	if err != nil {
		b.Fatal(err)
	}
	var in Input
	out := rot.NewOutput()
	wind := func(Vec3) Vec3 { return Vec3{10, 0, 0} }
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := rot.RigidInput(st, wind, &in); err != nil {
			b.Fatal(err)
		}
		if err := rot.CalcOutput(0, &in, out); err != nil {
			b.Fatal(err)
		}
	}
}
