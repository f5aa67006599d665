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

// The root search follows AeroDyn's: a previous root that still balances
// the momentum equations is taken as it is (no iteration), a previous root
// near the answer gives the same root within the search's tolerance, roots
// are within rootXTol of the exact ones, and an inflow component under
// 1 mm/s (velocityIsZero) gives phi = 0 with no induction while the node
// stays in the dynamic wake (not Fixed).
func TestRootSearchAsAeroDyn(t *testing.T) {
	_, p := load5MW(t)
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2}
	out := evalRigid(t, rot, st, 0, 11)
	n := 0
	for j, w := range out.work[0] {
		cold := SolveNode(w.vx, w.vy, &w.sec, &p.BEMT, true)
		if !cold.HasRoot {
			continue
		}
		n++
		// The exact root: bisection of the residual to machine precision
		// in a bracket around the search's root.
		re := math.Hypot(w.vx, w.vy) * w.sec.Chord / w.sec.KinVisc // as the search's
		c := newBemtCase(w.vx, w.vy, &w.sec, &p.BEMT, re)
		f := func(phi float64) float64 { _, _, r, _ := c.inductions(phi); return r }
		lo, hi := cold.RootPhi-1e-4, cold.RootPhi+1e-4
		if math.Signbit(f(lo)) == math.Signbit(f(hi)) {
			t.Fatalf("node %d: no sign change of the residual around the root %.9g", j+1, cold.RootPhi)
		}
		for i := 0; i < 200 && hi-lo > 1e-15; i++ {
			m := 0.5 * (lo + hi)
			if math.Signbit(f(m)) == math.Signbit(f(lo)) {
				lo = m
			} else {
				hi = m
			}
		}
		if d := math.Abs(cold.RootPhi - lo); d > 2*rootXTol {
			t.Errorf("node %d: root %.12g is %.2g rad from the exact %.12g (tolerance %g)", j+1, cold.RootPhi, d, lo, rootXTol)
		}
		warm := SolveNodeFrom(w.vx, w.vy, &w.sec, &p.BEMT, true, cold.RootPhi)
		if _, _, r, _ := c.inductions(cold.RootPhi); math.Abs(r) < p.BEMT.IndToler {
			if warm.Iter != 0 || warm.RootPhi != cold.RootPhi {
				t.Errorf("node %d: previous root with residual %.2g < IndToler was not kept (iter %d, %.12g -> %.12g)", j+1, r, warm.Iter, cold.RootPhi, warm.RootPhi)
			}
		}
		near := SolveNodeFrom(w.vx, w.vy, &w.sec, &p.BEMT, true, cold.RootPhi+3e-3)
		if math.Abs(near.RootPhi-lo) > 2*rootXTol {
			t.Errorf("node %d: search from a nearby guess found %.9g, exact %.9g", j+1, near.RootPhi, lo)
		}
	}
	if n < 15 {
		t.Fatalf("only %d nodes with a root", n)
	}
	w := out.work[0][15]
	for _, vx := range []float64{5e-4, -5e-4} {
		s := SolveNodeFrom(vx, w.vy, &w.sec, &p.BEMT, true, 0.2)
		if s.AxInd != 0 || s.TanInd != 0 || s.Fixed || !s.HasRoot || s.RootPhi != 0 {
			t.Errorf("Vx = %g m/s: a = %g, a' = %g, fixed %v, root %v %g; want no induction, root phi 0, not fixed", vx, s.AxInd, s.TanInd, s.Fixed, s.HasRoot, s.RootPhi)
		}
		if a, ap, ok := InductionsAtPhi(0, 3, w.vy, &w.sec, &p.BEMT); !ok || a != 0 || ap != 0 {
			t.Errorf("inductions at the zero-inflow root phi = 0: %g, %g (ok %v); want 0, 0", a, ap, ok)
		}
	}
	if s := SolveNode(2e-3, w.vy, &w.sec, &p.BEMT, true); s.AxInd == 0 && s.TanInd == 0 {
		t.Errorf("Vx = 2 mm/s is above AeroDyn's zero-velocity threshold; want a solved induction")
	}
}
