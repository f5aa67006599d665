package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/offshore"
)

// A mass attached to a node (FEM.AttachMass) is inertia without weight:
// the same 2e5 kg at the mid-height joint of towerWithMass, given as a
// SubDyn concentrated mass or attached, gives the same Guyan mass, the
// same full and Craig–Bampton frequencies, but no gravity load.
func TestAttachedMassIsInertiaWithoutWeight(t *testing.T) {
	withCMass := build(t, towerWithMass(10, 6), [3]float64{0, 0, 60})
	sd := towerWithMass(10, 6)
	cm := sd.CMasses[0]
	sd.CMasses = nil
	f, err := NewFEM(sd, Options{Gravity: 9.81, TPRef: [3]float64{0, 0, 60}})
	if err != nil {
		t.Fatal(err)
	}
	bareMass, bareFz := f.Mass(), 0.0
	for n := range f.Nodes {
		bareFz += f.Fg[6*n+2]
	}
	mid := f.jointIdx[2]
	var mm [6][6]float64
	for a := 0; a < 3; a++ {
		mm[a][a] = cm.M
	}
	mm[3][3], mm[4][4], mm[5][5] = cm.Jxx, cm.Jyy, cm.Jzz
	if err := f.AttachMass(mid, mm); err != nil {
		t.Fatal(err)
	}
	attached, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			if d := math.Abs(attached.MBB[i][j] - withCMass.MBB[i][j]); d > 1e-9*math.Abs(withCMass.MBB[0][0]) {
				t.Errorf("Guyan mass [%d][%d]: attached %.9g, concentrated %.9g", i, j, attached.MBB[i][j], withCMass.MBB[i][j])
			}
		}
	}
	for _, which := range []string{"full", "reduced"} {
		freq := func(m *Model) []float64 {
			var fr []float64
			var err error
			if which == "full" {
				fr, err = m.FullFrequencies(6)
			} else {
				fr, err = m.ReducedFrequencies(6)
			}
			if err != nil {
				t.Fatal(err)
			}
			return fr
		}
		a, c := freq(attached), freq(withCMass)
		for i := range c {
			if math.Abs(a[i]-c[i]) > 1e-9*c[i] {
				t.Errorf("%s mode %d: attached %.9f Hz, concentrated %.9f Hz", which, i+1, a[i], c[i])
			}
		}
	}
	var fz float64
	for n := range f.Nodes {
		fz += f.Fg[6*n+2]
	}
	if fz != bareFz || f.Mass() != bareMass {
		t.Errorf("attaching changed the weight (%g -> %g N) or the structural mass (%g -> %g kg)", bareFz, fz, bareMass, f.Mass())
	}
	if got, want := withCMass.FEM().Mass()-bareMass, cm.M; math.Abs(got-want) > 1e-6 {
		t.Errorf("the concentrated mass adds %g kg, want %g", got, want)
	}
}

// The inertia load of an attached mass reaches the base reaction through
// the static improvement, as an external load would: the TP of a uniform
// tower accelerates at a = 1 m/s² (Guyan, Nmodes 0, TP rotation held), so
// its middle, where the Guyan shape of a beam clamped at the base and
// guided at the top is antisymmetric about it, accelerates at a/2; the
// mass M there loads the beam, clamped at both ends for the static
// improvement, with −M·a/2 at its middle, of which the base carries half:
// M·a/4. Without the static improvement the reaction would not see it.
func TestAttachedMassInertiaReachesTheReaction(t *testing.T) {
	const mass, acc = 2e5, 1.0
	reaction := func(attach bool) [6]float64 {
		sd := towerWithMass(10, 0)
		sd.CMasses = nil
		sd.SttcSolve = true
		f, err := NewFEM(sd, Options{Gravity: 9.81, TPRef: [3]float64{0, 0, 60}})
		if err != nil {
			t.Fatal(err)
		}
		if attach {
			var mm [6][6]float64
			for a := 0; a < 3; a++ {
				mm[a][a] = mass
			}
			if err := f.AttachMass(f.jointIdx[2], mm); err != nil {
				t.Fatal(err)
			}
		}
		m, err := New(f)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSim(m)
		var y Output
		if err := s.Output(&Input{Acc: [6]float64{acc}}, &y); err != nil {
			t.Fatal(err)
		}
		return y.Reaction
	}
	bare, with := reaction(false), reaction(true)
	got := with[0] - bare[0]
	if want := mass * acc / 4; math.Abs(got-want) > 1e-6*want {
		t.Errorf("reaction FX from the attached mass %.6g N, want M·a/4 = %.6g N", got, want)
	}
}

// offshore.PointMass of a mass at an offset gives the rigid-body inertia
// about the point: force m·a for a translation, and for a rotation α about
// z with the mass at d = (2, 0, 0) the force m·(α × d) and moment
// m·|d|²·α.
func TestPointMassAboutAnOffset(t *testing.T) {
	m := [3][3]float64{{3, 0, 0}, {0, 3, 0}, {0, 0, 3}}
	pm := offshore.PointMass(m, offshore.Vec3{2, 0, 0})
	// α = (0, 0, 1): a at the mass = α × d = (0, 2, 0)
	if pm[1][5] != 6 || pm[5][5] != 12 || pm[0][5] != 0 || pm[5][1] != 6 {
		t.Errorf("rotation about z: force-y %g, moment-z %g (want 6, 12); coupling %g, %g", pm[1][5], pm[5][5], pm[0][5], pm[5][1])
	}
	for i := 0; i < 3; i++ {
		if pm[i][i] != 3 {
			t.Errorf("translational mass [%d][%d] = %g, want 3", i, i, pm[i][i])
		}
	}
}
