package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// cantilever is a vertical tube of length l clamped at z = 0, its top the
// interface joint and TP reference point.
func cantilever(l, d, t float64, ndiv, femMod, nModes int) *deck.SubDyn {
	return &deck.SubDyn{
		FEMMod: femMod, NDiv: ndiv, Nmodes: nModes, JDampings: []float64{1},
		Joints:     []deck.SDJoint{{ID: 1, Type: 1}, {ID: 2, Z: l, Type: 1}},
		Reactions:  []deck.SDReaction{{JointID: 1, Fixed: [6]bool{true, true, true, true, true, true}}},
		Interfaces: []deck.SDInterface{{JointID: 2, TPID: 1, Locked: [6]bool{true, true, true, true, true, true}}},
		Members:    []deck.SDMember{{ID: 1, J1: 1, J2: 2, P1: 1, P2: 1, Type: deck.SDBeamCircular}},
		PropsCyl:   []deck.SDCylProp{{ID: 1, E: 2.1e11, G: 8.1e10, Rho: 7850, D: d, T: t}},
	}
}

func build(t *testing.T, sd *deck.SubDyn, tp [3]float64) *Model {
	t.Helper()
	f, err := NewFEM(sd, Options{Gravity: 9.81, TPRef: tp})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Euler–Bernoulli cantilever: f_n = (β_n L)²/(2π L²)·√(EI/(ρA)) with
// β_n L = 1.87510, 4.69409, 7.85476 (clamped-free beam).
func TestCantileverFrequenciesMatchClosedForm(t *testing.T) {
	const l, d, th = 30.0, 0.5, 0.02
	m := build(t, cantilever(l, d, th, 40, 1, 0), [3]float64{0, 0, l})
	sec := tubeSection(2.1e11, 8.1e10, 7850, d, th, false)
	got, err := m.FullFrequencies(8)
	if err != nil {
		t.Fatal(err)
	}
	c := math.Sqrt(sec.E*sec.Ixx/(sec.Rho*sec.A)) / (2 * math.Pi * l * l)
	// bending modes come in pairs (x and y); skip duplicates
	var bending []float64
	for i, f := range got {
		if i > 0 && math.Abs(f-got[i-1]) < 1e-6*f {
			continue
		}
		bending = append(bending, f)
	}
	for i, bl := range []float64{1.8751041, 4.6940911, 7.8547574} {
		want := bl * bl * c
		if rel := math.Abs(bending[i]-want) / want; rel > 0.005 {
			t.Errorf("bending mode %d: %.5f Hz, closed form %.5f Hz (%.3f %%)", i+1, bending[i], want, 100*rel)
		}
	}
}

// Static tip deflection under a tip force: P·L³/(3EI), plus P·L/(κGA) with
// shear deformation (Timoshenko), from the TP stiffness K̃_BB.
func TestCantileverTipDeflection(t *testing.T) {
	const l, d, th, p = 8.0, 2.0, 0.05, 1e6
	for _, femMod := range []int{1, 3} {
		m := build(t, cantilever(l, d, th, 3, femMod, 0), [3]float64{0, 0, l})
		sec := tubeSection(2.1e11, 8.1e10, 7850, d, th, femMod == 3)
		want := p * l * l * l / (3 * sec.E * sec.Ixx)
		if femMod == 3 {
			want += p * l / (sec.G * sec.Asx)
		}
		// solve the 2×2 (ux, θy) block of K̃_BB for a tip force
		k := m.KBB
		det := k[0][0]*k[4][4] - k[0][4]*k[4][0]
		got := p * k[4][4] / det
		if rel := math.Abs(got-want) / want; rel > 1e-9 {
			t.Errorf("FEMMod %d: tip deflection %.6e m, closed form %.6e m", femMod, got, want)
		}
	}
}

// Craig–Bampton with enough modes keeps the lowest frequencies of the full
// model (TP free) within 0.1 %.
// towerWithMass is a 60 m tube in two members with a concentrated mass at
// the joint between them, its top the TP.
func towerWithMass(ndiv, nModes int) *deck.SubDyn {
	sd := cantilever(60, 6, 0.06, ndiv, 3, nModes)
	sd.Joints = []deck.SDJoint{{ID: 1, Type: 1}, {ID: 2, Z: 30, Type: 1}, {ID: 3, Z: 60, Type: 1}}
	sd.Members = []deck.SDMember{{ID: 1, J1: 1, J2: 2, P1: 1, P2: 1, Type: deck.SDBeamCircular}, {ID: 2, J1: 2, J2: 3, P1: 1, P2: 1, Type: deck.SDBeamCircular}}
	sd.Interfaces[0].JointID = 3
	sd.CMasses = []deck.SDCMass{{JointID: 2, M: 2e5, Jxx: 1e6, Jyy: 1e6, Jzz: 2e6}}
	return sd
}

func TestCraigBamptonKeepsLowestModes(t *testing.T) {
	// a concentrated mass mid-height makes the problem less trivial
	sd := towerWithMass(20, 20)
	m := build(t, sd, [3]float64{0, 0, 60})
	full, err := m.FullFrequencies(6)
	if err != nil {
		t.Fatal(err)
	}
	red, err := m.ReducedFrequencies(6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range full {
		if rel := math.Abs(red[i]-full[i]) / full[i]; rel > 1e-3 {
			t.Errorf("mode %d: reduced %.5f Hz, full %.5f Hz (%.4f %%)", i+1, red[i], full[i], 100*rel)
		}
	}
	// and Guyan alone does not (the test can fail)
	sd.Nmodes = 0
	g := build(t, sd, [3]float64{0, 0, 60})
	gr, _ := g.ReducedFrequencies(6)
	if math.Abs(gr[4]-full[4])/full[4] < 1e-3 {
		t.Errorf("Guyan reduction alone matches mode 5 (%.5f vs %.5f Hz): the test cannot tell", gr[4], full[4])
	}
}

// An arbitrary section (MType 4) with a tube's properties gives the tube's
// TP stiffness; an unequal section turned by MSpin = 90° swaps the bending
// stiffnesses of the two directions.
func TestArbitrarySectionAndSpin(t *testing.T) {
	const l = 12.0
	tube := build(t, cantilever(l, 2, 0.04, 2, 3, 0), [3]float64{0, 0, l})
	sec := tubeSection(2.1e11, 8.1e10, 7850, 2, 0.04, true)
	sd := cantilever(l, 2, 0.04, 2, 3, 0)
	sd.PropsCyl = nil
	sd.PropsArb = []deck.SDArbProp{{ID: 1, E: sec.E, G: sec.G, Rho: sec.Rho, A: sec.A, Asx: sec.Asx, Asy: sec.Asy, Jxx: sec.Ixx, Jyy: sec.Iyy, J0: sec.J, Jt: sec.Jt}}
	sd.Members[0].Type = deck.SDBeamArbitrary
	arb := build(t, sd, [3]float64{0, 0, l})
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			if d := math.Abs(arb.KBB[i][j] - tube.KBB[i][j]); d > 1e-9*math.Abs(tube.KBB[i][i]) {
				t.Fatalf("K̃_BB[%d][%d]: arbitrary %.6e, tube %.6e", i, j, arb.KBB[i][j], tube.KBB[i][j])
			}
		}
	}
	sd.PropsArb[0].Jxx *= 3 // stiffer about local x: y-direction bending
	flat := build(t, sd, [3]float64{0, 0, l})
	sd.Members[0].Spin = 90
	turned := build(t, sd, [3]float64{0, 0, l})
	if flat.KBB[1][1] <= flat.KBB[0][0]*1.5 {
		t.Fatalf("unequal section: ky %.4e not stiffer than kx %.4e", flat.KBB[1][1], flat.KBB[0][0])
	}
	if math.Abs(turned.KBB[0][0]-flat.KBB[1][1]) > 1e-9*flat.KBB[1][1] || math.Abs(turned.KBB[1][1]-flat.KBB[0][0]) > 1e-9*flat.KBB[0][0] {
		t.Errorf("MSpin 90: kx %.6e ky %.6e, want the unturned ky %.6e kx %.6e", turned.KBB[0][0], turned.KBB[1][1], flat.KBB[1][1], flat.KBB[0][0])
	}
}
