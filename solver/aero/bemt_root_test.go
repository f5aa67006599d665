package aero

import (
	"math"
	"testing"
)

// InductionsAtPhi at SolveNode's own root and inflow gives SolveNode's
// inductions, for Vx > 0 (momentum region phi > 0) and for the reversed
// axial inflow of a start-up (Vx < 0, region phi < 0), on every node of
// the NREL 5 MW blade; and at a fixed phi the inductions do not depend on
// the size of Vx and Vy (only on the sign of Vx; single-Reynolds tables).
func TestInductionsAtPhiMatchSolveNode(t *testing.T) {
	_, p := load5MW(t)
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2}
	n := 0
	for _, u := range []float64{11, 4, 0.8, -0.3, -2} {
		out := evalRigid(t, rot, st, 0, u)
		for j, w := range out.work[0] {
			s := SolveNode(w.vx, w.vy, &w.sec, &p.BEMT, true)
			if !s.HasRoot {
				continue
			}
			n++
			a, ap, ok := InductionsAtPhi(s.RootPhi, w.vx, w.vy, &w.sec, &p.BEMT)
			if !ok || math.Abs(a-s.AxInd) > 1e-12 || math.Abs(ap-s.TanInd) > 1e-12 {
				t.Errorf("wind %g node %d: at the root %.6g rad a = %.9g, a' = %.9g (ok %v); SolveNode %.9g, %.9g", u, j+1, s.RootPhi, a, ap, ok, s.AxInd, s.TanInd)
			}
			a2, ap2, _ := InductionsAtPhi(s.RootPhi, 1.7*w.vx, 0.6*w.vy, &w.sec, &p.BEMT)
			if len(w.sec.Airfoil.Tables) == 1 && (math.Abs(a2-a) > 1e-12 || math.Abs(ap2-ap) > 1e-12) {
				t.Errorf("wind %g node %d: inductions at a fixed phi changed with the inflow's size: %.9g, %.9g -> %.9g, %.9g", u, j+1, a, ap, a2, ap2)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d nodes with a root", n)
	}
	if _, _, ok := InductionsAtPhi(0.1, 5, -60, &NodeSection{}, &p.BEMT); ok {
		t.Error("mirrored inflow (Vy < 0) has no stored root; want ok = false")
	}
}
