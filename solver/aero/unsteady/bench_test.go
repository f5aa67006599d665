package unsteady

import (
	"math"
	"testing"
)

// BenchmarkNodeStep is one UA step of one node: UpdateStates plus
// CalcOutput, on the synthetic Kirchhoff polar, alpha oscillating through
// stall.
func BenchmarkNodeStep(b *testing.B) {
	p := kirchhoffPolar{alpha0: -2 * deg, cnAlpha: 6.5, cd0: 0.008}
	var polar StaticPolar = p
	c := synthConstants(p)
	n, err := NewNode(Params{DT: 0.01, FLookup: true}, c, polar, 2.0, true, true)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := (10 + 10*math.Sin(0.05*float64(i))) * deg
		in := Input{Alpha: a, U: 40}
		if _, err := n.CalcOutput(in); err != nil {
			b.Fatal(err)
		}
		if err := n.UpdateStates(float64(i)*0.01, in, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNodeStepNACA64 is the same step on the NREL 5MW tip airfoil table
// through the linear table lookup.
func BenchmarkNodeStepNACA64(b *testing.B) {
	af, tab := loadDU(b, "NACA64_A17.dat")
	polar := af
	c, err := ConstantsFromDeck(&tab.UA, polar)
	if err != nil {
		b.Fatal(err)
	}
	n, err := NewNode(Params{DT: 0.01, FLookup: true}, c, polar, 2.0, true, true)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := (10 + 10*math.Sin(0.05*float64(i))) * deg
		in := Input{Alpha: a, U: 40}
		if _, err := n.CalcOutput(in); err != nil {
			b.Fatal(err)
		}
		if err := n.UpdateStates(float64(i)*0.01, in, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRotorStepIEA15 is one UA step of a whole rotor of IEA-15 size
// (3 blades x 50 nodes) on the synthetic polar.
func BenchmarkRotorStepIEA15(b *testing.B) {
	p := kirchhoffPolar{alpha0: -2 * deg, cnAlpha: 6.5, cd0: 0.008}
	const nb, nn = 3, 50
	spec := make([][]NodeSpec, nb)
	in := make([][]Input, nb)
	for k := range spec {
		for j := 0; j < nn; j++ {
			spec[k] = append(spec[k], NodeSpec{Constants: synthConstants(p), Polar: p, Chord: 5 - 0.06*float64(j), HasCm: true, Active: true})
			in[k] = append(in[k], Input{})
		}
	}
	r, err := NewRotor(Params{DT: 0.01, FLookup: true}, spec)
	if err != nil {
		b.Fatal(err)
	}
	out := r.NewOutput()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range in {
			for j := range in[k] {
				in[k][j] = Input{Alpha: (6 + 6*math.Sin(0.05*float64(i)+float64(k))) * deg, U: 20 + 1.5*float64(j)}
			}
		}
		if err := r.CalcOutput(in, out); err != nil {
			b.Fatal(err)
		}
		if err := r.UpdateStates(float64(i)*0.01, in, in); err != nil {
			b.Fatal(err)
		}
	}
}
