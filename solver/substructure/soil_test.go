package substructure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// A cantilever standing on soil springs (all base flags free, a 6×6 SSI
// stiffness with a sway–rocking coupling): the tip deflection under a tip
// force is the beam's P·L³/(3EI) plus the base motion [1 L]·C·[1 L]ᵀ·P,
// C the inverse of the sway–rocking stiffness; the ground reaction is the
// spring force, balancing the load.
func TestCantileverOnSoilSprings(t *testing.T) {
	const l, p = 20.0, 1e6
	sd := cantilever(l, 4, 0.05, 4, 1, 0)
	sd.SttcSolve = true
	kx, kr, kxr := 5e8, 4e10, -1e9
	soil := &deck.SDSoil{}
	for i, v := range []float64{kx, kx, 2e10, kr, kr, 3e10} {
		soil.K[i][i], soil.KGiven[i][i] = v, true
	}
	// x with θy and y with θx (opposite sign by symmetry)
	soil.K[0][4], soil.K[4][0] = kxr, kxr
	soil.K[1][3], soil.K[3][1] = -kxr, -kxr
	sd.Reactions[0].Fixed = [6]bool{}
	sd.Reactions[0].SSIFile = "soil.dat"
	sd.Reactions[0].Soil = soil
	f, err := NewFEM(sd, Options{Gravity: 0, TPRef: [3]float64{0, 0, l}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	sec := tubeSection(2.1e11, 8.1e10, 7850, 4, 0.05, false)
	det := kx*kr - kxr*kxr
	c00, c01, c11 := kr/det, -kxr/det, kx/det
	want := p*l*l*l/(3*sec.E*sec.Ixx) + p*(c00+2*l*c01+l*l*c11)
	k := m.KBB
	got := p * k[4][4] / (k[0][0]*k[4][4] - k[0][4]*k[4][0])
	if math.Abs(got-want) > 1e-9*want {
		t.Errorf("tip deflection on soil %.6e m, closed form %.6e m", got, want)
	}
	// a static load mid-height, TP still: the ground reaction and the TP
	// hold it
	s := NewSim(m)
	u := &Input{NodeLoads: make([][6]float64, len(f.Nodes))}
	mid := f.memNodes[0][2]
	u.NodeLoads[mid][0] = p
	var y Output
	if err := s.Output(u, &y); err != nil {
		t.Fatal(err)
	}
	// the interface carries part of it; together they balance the load
	if r := y.Reaction[0] + y.Interface[0] + p; math.Abs(r) > 1e-6*p {
		t.Errorf("x: reaction %.6e + interface %.6e + load %.6e = %.3e", y.Reaction[0], y.Interface[0], p, r)
	}
	if math.Abs(y.Reaction[0]) < 1e-3*p {
		t.Errorf("the soil takes no load: reaction %.3e", y.Reaction[0])
	}
	// a free DOF without its diagonal stiffness in the file is clamped
	soil.KGiven[2][2] = false
	f2, _ := NewFEM(sd, Options{TPRef: [3]float64{0, 0, l}})
	m2, err := New(f2)
	if err != nil {
		t.Fatal(err)
	}
	axial := sec.E * sec.A / l
	if math.Abs(m2.KBB[2][2]-axial) > 1e-9*axial {
		t.Errorf("vertical stiffness %.6e, want the clamped pile's EA/L %.6e", m2.KBB[2][2], axial)
	}
}
