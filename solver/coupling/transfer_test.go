package coupling

import (
	"math"
	"testing"
)

// The blade loads handed to the structure and AeroDyn's rotor sums
// (RtFld*) are one and the same lumping of the line loads: OpenFAST lumps
// both over each element's undeflected length (mesh Jacobians fixed at
// MeshCommit), so their resultants about the hub agree however the blades
// deflect. The IEA-15 blade is prebent (BlCrvAC up to 4 m) and deflects
// about 14 m out of plane at 10 m/s, where span, undeflected and deflected
// lengths differ by 0.2-0.6 %.
func TestBladeLoadTransferKeepsTheRotorLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 1 s of the IEA-15 deck")
	}
	s := startedIEA15(t, "iea15_onshore_steady10_rosco", "RtFldMxh")
	for n := 0; n < 200; n++ {
		if err := s.step(n); err != nil {
			t.Fatal(err)
		}
		if (n+1)%50 != 0 {
			continue
		}
		u := s.uCur // the loads at the new time after the history shift
		var F, M [3]float64
		for k := range u.BladeForce {
			pos := s.motion.Blades[k].Pos
			for i, f := range u.BladeForce[k] {
				r := sub3(pos[i], s.motion.HubPos)
				F = add3(F, f)
				M = add3(M, add3(cross3(r, f), u.BladeMoment[k][i]))
			}
		}
		ho := s.motion.HubOrient
		hub := func(v [3]float64, c int) float64 { return ho[c][0]*v[0] + ho[c][1]*v[1] + ho[c][2]*v[2] }
		ro := s.aeroOut.Rotor
		tq, thrust := hub(M, 0), hub(F, 0)
		t.Logf("t=%.2f s: torque %.6e (RtFldMxh %.6e), thrust %.6e (RtFldFxh %.6e)", s.t, tq, ro.Moment[0], thrust, ro.Force[0])
		if math.Abs(tq-ro.Moment[0]) > 1e-9*math.Abs(ro.Moment[0]) || math.Abs(thrust-ro.Force[0]) > 1e-9*math.Abs(ro.Force[0]) {
			t.Fatalf("t=%.2f s: loads on the structure (torque %.9e N·m, thrust %.9e N) differ from AeroDyn's rotor sums (%.9e, %.9e)",
				s.t, tq, thrust, ro.Moment[0], ro.Force[0])
		}
	}
}
