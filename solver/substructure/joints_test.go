package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// splitCantilever is a vertical tube of length 2h clamped at z = 0 with a
// joint of the given type at z = h (axis dir for a pin, stiffness k).
func splitCantilever(h float64, jointType int, dir [3]float64, k float64) *deck.SubDyn {
	sd := cantilever(2*h, 2, 0.04, 3, 1, 0)
	sd.Joints = []deck.SDJoint{{ID: 1, Type: 1}, {ID: 2, Z: h, Type: jointType, Dir: dir, Stiff: k}, {ID: 3, Z: 2 * h, Type: 1}}
	sd.Members = []deck.SDMember{{ID: 1, J1: 1, J2: 2, P1: 1, P2: 1, Type: deck.SDBeamCircular}, {ID: 2, J1: 2, J2: 3, P1: 1, P2: 1, Type: deck.SDBeamCircular}}
	sd.Interfaces[0].JointID = 3
	return sd
}

// tipFlex returns the tip deflection per unit tip force in x (dir 0) or y
// (dir 1) from the TP stiffness.
func tipFlex(m *Model, dir int) float64 {
	k := m.KBB
	u, r := dir, 4
	if dir == 1 {
		r = 3
	}
	return k[r][r] / (k[u][u]*k[r][r] - k[u][r]*k[r][u])
}

// A joint with a rotational spring k halfway up a cantilever adds the
// spring's rotation under the moment P·h times the arm h to the tip
// deflection: δ = P(2h)³/(3EI) + P·h²/k. A ball joint does so in both
// bending planes; a pin joint about y only in x–z bending, and is rigid in
// y–z bending.
func TestBallAndPinJointsWithStiffness(t *testing.T) {
	const h, k = 6.0, 3e9
	sec := tubeSection(2.1e11, 8.1e10, 7850, 2, 0.04, false)
	beam := math.Pow(2*h, 3) / (3 * sec.E * sec.Ixx)
	hinge := beam + h*h/k
	for _, c := range []struct {
		name   string
		typ    int
		dir    [3]float64
		fx, fy float64
	}{
		{"cantilever", 1, [3]float64{}, beam, beam},
		{"ball", 4, [3]float64{}, hinge, hinge},
		{"pin about y", 3, [3]float64{0, 1, 0}, hinge, beam},
		{"pin about x", 3, [3]float64{1, 0, 0}, beam, hinge},
	} {
		m := build(t, splitCantilever(h, c.typ, c.dir, k), [3]float64{0, 0, 2 * h})
		if got := tipFlex(m, 0); math.Abs(got-c.fx) > 1e-8*c.fx {
			t.Errorf("%s: x flexibility %.8e, want %.8e", c.name, got, c.fx)
		}
		if got := tipFlex(m, 1); math.Abs(got-c.fy) > 1e-8*c.fy {
			t.Errorf("%s: y flexibility %.8e, want %.8e", c.name, got, c.fy)
		}
	}
	// a ball joint without stiffness is a hinge: the TP stiffness has no
	// bending part left (a mechanism once the TP is free)
	m := build(t, splitCantilever(h, 4, [3]float64{}, 0), [3]float64{0, 0, 2 * h})
	kb := m.KBB
	if det := kb[0][0]*kb[4][4] - kb[0][4]*kb[4][0]; math.Abs(det) > 1e-9*kb[0][0]*kb[4][4] {
		t.Errorf("free ball joint: x-bending block of K̃_BB not singular (det %.3e, diagonal product %.3e)", det, kb[0][0]*kb[4][4])
	}
}

// A universal joint between two collinear members carries the torsion
// (the TP torsional stiffness is that of the whole tube, G·Jt/(2h)) and
// no bending.
func TestUniversalJointCarriesTorsionOnly(t *testing.T) {
	const h = 6.0
	sec := tubeSection(2.1e11, 8.1e10, 7850, 2, 0.04, false)
	m := build(t, splitCantilever(h, 2, [3]float64{}, 0), [3]float64{0, 0, 2 * h})
	kb := m.KBB
	if want := sec.G * sec.Jt / (2 * h); math.Abs(kb[5][5]-want) > 1e-9*want {
		t.Errorf("torsional stiffness %.6e, want %.6e", kb[5][5], want)
	}
	if want := sec.E * sec.A / (2 * h); math.Abs(kb[2][2]-want) > 1e-9*want {
		t.Errorf("axial stiffness %.6e, want %.6e", kb[2][2], want)
	}
	for _, uv := range [][2]int{{0, 4}, {1, 3}} {
		u, r := uv[0], uv[1]
		if det := kb[u][u]*kb[r][r] - kb[u][r]*kb[r][u]; math.Abs(det) > 1e-9*kb[u][u]*kb[r][r] {
			t.Errorf("bending block %v of K̃_BB not singular", uv)
		}
	}
}

// Special joints may not be reaction or interface joints.
func TestJointRestrictions(t *testing.T) {
	sd := splitCantilever(5, 4, [3]float64{}, 1e9)
	sd.Interfaces[0].JointID = 2
	f, err := NewFEM(sd, Options{TPRef: [3]float64{0, 0, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(f); err == nil {
		t.Error("ball joint as interface accepted")
	}
	sd = splitCantilever(5, 2, [3]float64{}, 1e9)
	f, err = NewFEM(sd, Options{TPRef: [3]float64{0, 0, 10}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(f); err == nil {
		t.Error("universal joint with JointStiff accepted")
	}
}
