package aero

import (
	"math"
	"testing"
)

// TestFreezeInduction: a frozen-wake evaluation keeps every node's axial
// and tangential induction from the previous CalcOutput, so at the same
// input it reproduces that output exactly, and at a changed pitch only the
// angle of attack moves (by minus the pitch change) while the re-solved
// BEMT changes the induction too.
func TestFreezeInduction(t *testing.T) {
	af := thinAirfoil(0.01)
	rot := simpleRotor(t, af)
	st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2, Pitch: []float64{0.05}}
	var in Input
	if err := rot.RigidInput(st, uniformWind(9), &in); err != nil {
		t.Fatal(err)
	}
	base := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, base); err != nil {
		t.Fatal(err)
	}
	fresh := rot.NewOutput()
	fresh.FreezeInduction = true
	if err := rot.CalcOutput(0, &in, fresh); err == nil {
		t.Fatal("FreezeInduction on an empty output: want an error")
	}

	out := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, out); err != nil {
		t.Fatal(err)
	}
	out.FreezeInduction = true
	if err := rot.CalcOutput(0, &in, out); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(out.Rotor.Moment[0]/base.Rotor.Moment[0] - 1); d > 1e-12 {
		t.Errorf("frozen at the same input: torque %g, solved %g", out.Rotor.Moment[0], base.Rotor.Moment[0])
	}

	const dPitch = 0.02
	st.Pitch = []float64{0.05 + dPitch}
	if err := rot.RigidInput(st, uniformWind(9), &in); err != nil {
		t.Fatal(err)
	}
	if err := rot.CalcOutput(0, &in, out); err != nil {
		t.Fatal(err)
	}
	solved := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, solved); err != nil {
		t.Fatal(err)
	}
	moved := false
	for j, b := range base.Blades[0] {
		f := out.Blades[0][j]
		if f.AxInd != b.AxInd || f.TanInd != b.TanInd || math.Abs(f.Phi-b.Phi) > 1e-12 {
			t.Fatalf("node %d: frozen a %g a' %g phi %g, operating point %g %g %g", j, f.AxInd, f.TanInd, f.Phi, b.AxInd, b.TanInd, b.Phi)
		}
		if math.Abs(WrapAngle(f.Alpha-b.Alpha)+dPitch) > 1e-9 {
			t.Fatalf("node %d: frozen alpha moved by %g, want %g", j, f.Alpha-b.Alpha, -dPitch)
		}
		if math.Abs(solved.Blades[0][j].AxInd-b.AxInd) > 1e-6 {
			moved = true
		}
	}
	if !moved {
		t.Error("re-solved BEMT kept the induction at a new pitch: the comparison is void")
	}
}
