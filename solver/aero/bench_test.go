package aero

import (
	"math"
	"syscall"
	"testing"
	"time"

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
	d, rot := rotorFromDeck(b, testshared.Path(b, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
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

// BenchmarkRotorIEA15Steps: one time step of the IEA-15 monopile deck's
// rotor (50 nodes x 3 blades, BEMT, UA_Mod 3, tower potential flow, shadow
// and drag) turning at 7.5 rpm in 10 m/s sheared wind: the unsteady airfoil
// states advance at every call, as in a coupled run.
func BenchmarkRotorIEA15Steps(b *testing.B) {
	d, rot := rotorFromDeck(b, testshared.Path(b, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	const omega, dt = 7.5 * 2 * math.Pi / 60, 0.005
	st, err := RigidStateFromDeck(d, 0, omega, 0)
	if err != nil {
		b.Fatal(err)
	}
	var in Input
	out := rot.NewOutput()
	wind := func(p Vec3) Vec3 { return Vec3{10 * math.Pow(math.Max(p[2], 1)/150, 0.12), 0, 0} }
	b.ResetTimer()
	cpu0 := processCPU(b)
	for i := 0; i < b.N; i++ {
		t := float64(i%20000) * dt
		if i%20000 == 0 {
			rot.ResetStates()
		}
		st.Azimuth = omega * t
		if err := rot.RigidInput(st, wind, &in); err != nil {
			b.Fatal(err)
		}
		if err := rot.UpdateStates(t, dt, &in); err != nil {
			b.Fatal(err)
		}
		if err := rot.CalcOutput(t, &in, out); err != nil {
			b.Fatal(err)
		}
	}
	// The machine is shared: the process CPU time per step is the figure
	// that does not depend on the load.
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N)/1e3, "cpu-µs/op")
}

// processCPU is the process's user + system CPU time so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rotorFromDeck loads the deck at path and builds its AeroDyn rotor.
func rotorFromDeck(b *testing.B, path string) (*deck.Deck, *Rotor) {
	b.Helper()
	d, err := deck.Load(path)
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
	return d, rot
}
