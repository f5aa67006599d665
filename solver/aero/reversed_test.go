package aero

import (
	"math"
	"testing"
)

// At start-up the outer part of a blade swings downwind faster than the
// wind, so the normal inflow Vx at those nodes passes through zero and turns
// negative for a few tenths of a second while the blade is on Buhl's
// high-induction branch. AeroDyn (BEM_Mod 1) solves Vx < 0 in the node's
// own frame with phi < 0 as the momentum region, so the axial induction
// passes continuously through Vx = 0 (OpenFAST v5, IEA-15 onshore at 13 m/s:
// AB1N049AxInd 1.205 at t = 0.060 s and 1.211 at 0.065 s, where our run has
// Vx = +0.14 and -0.08 m/s at that node). Mirroring Vx < 0
// into Vx > 0 reverses the sign of k = sigma Cn / (4 F sin^2 phi) and sent
// the node to the a = -1 bound instead.
func TestAxialInductionContinuousThroughZeroVx(t *testing.T) {
	af := thinAirfoil(0.01)
	if err := af.Prepare(); err != nil {
		t.Fatal(err)
	}
	opt := DefaultBEMTOptions()
	const rTip, rHub, nb = 120.97, 3.0, 3
	for _, r := range []float64{110, 115, 118.12} {
		sec := NodeSection{Chord: 1.82, Theta: -1.377 * math.Pi / 180, RLocal: r, NumBlades: nb, Airfoil: af,
			TipConst: nb * (rTip - r) / (2 * r), HubConst: nb * (r - rHub) / (2 * rHub)}
		vy := 95.3 * r / 118.12
		pos := SolveNode(0.1, vy, &sec, &opt, true)
		if !(pos.AxInd > 0.9) {
			t.Fatalf("r=%g: at Vx=+0.1 m/s a=%g, expected the high-induction branch (a > 0.9)", r, pos.AxInd)
		}
		for _, vx := range []float64{-0.02, -0.1, -0.3} {
			s := SolveNode(vx, vy, &sec, &opt, true)
			t.Logf("r=%g Vx=%+.2f: a=%.4f (a=%.4f at Vx=+0.1), phi=%.4f deg", r, vx, s.AxInd, pos.AxInd, s.Phi*180/math.Pi)
			if math.Abs(s.AxInd-pos.AxInd) > 0.05 {
				t.Errorf("r=%g Vx=%g m/s: a=%g, want within 0.05 of a=%g at Vx=+0.1 m/s (continuous through Vx=0)", r, vx, s.AxInd, pos.AxInd)
			}
		}
	}
}
