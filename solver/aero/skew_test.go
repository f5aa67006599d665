package aero

import (
	"math"
	"testing"
)

// Pitt/Peters redistribution: with 20 deg yaw the axial induction of each
// node is the unskewed one times 1 + K tan(chi/2) (r/R) cos(psi_s), chi =
// (0.6 a + 1) chi0, psi_s measured from the downwind side of the disk.
func TestSkewedWakeCorrection(t *testing.T) {
	af := thinAirfoil(0.01)
	base := simpleRotor(t, af)
	p := base.Params()
	p.SkewMod = 1
	skew, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	yaw := 20 * math.Pi / 180
	st := RigidState{HubPosition: Vec3{0, 0, 90}, Yaw: yaw, RotorSpeed: 7 * 8.0 / 63, Azimuth: 0.4}
	var in Input
	if err := base.RigidInput(st, func(Vec3) Vec3 { return Vec3{8, 0, 0} }, &in); err != nil {
		t.Fatal(err)
	}
	o0, o1 := base.NewOutput(), skew.NewOutput()
	if err := base.CalcOutput(0, &in, o0); err != nil {
		t.Fatal(err)
	}
	if err := skew.CalcOutput(0, &in, o1); err != nil {
		t.Fatal(err)
	}
	chi0 := o1.Rotor.Skew
	if math.Abs(chi0-yaw) > 1e-9 {
		t.Fatalf("skew angle %g, want the yaw %g", chi0, yaw)
	}
	xh := in.HubOrientation[0]
	vIn := perp(Vec3{8, 0, 0}, xh)
	checked := 0
	for k := range in.Blades {
		for j := 3; j < len(in.Blades[k])-3; j++ {
			a0, a1 := o0.Blades[k][j].AxInd, o1.Blades[k][j].AxInd
			rad := perp(sub(in.Blades[k][j].Position, in.HubPosition), xh)
			chi := (0.6*a0 + 1) * chi0
			want := a0 * (1 + 15*math.Pi/32*math.Tan(chi/2)*norm(rad)/o1.Rotor.Radius*dot(unit(rad), unit(vIn)))
			if math.Abs(a1-want) > 1e-12 {
				t.Fatalf("blade %d node %d: a %g, want %g (unskewed %g)", k+1, j+1, a1, want, a0)
			}
			checked++
		}
	}
	t.Logf("%d nodes follow the Pitt/Peters redistribution at 20 deg yaw", checked)
}
