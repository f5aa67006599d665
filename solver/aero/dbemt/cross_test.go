package dbemt_test

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/aero/dbemt"
)

// TestTimeConstantsAgreeWithAeroRotor cross-checks this package's tau1 and
// tau2 against the copy of the same formulas engineer C built into
// aero.Rotor, so the two DBEMT implementations cannot drift apart.
func TestTimeConstantsAgreeWithAeroRotor(t *testing.T) {
	for _, a := range []float64{-0.1, 0, 0.2, 0.33, 0.5, 0.8} {
		for _, u := range []float64{0, 0.05, 3, 8, 25} {
			for _, r := range []float64{20, 63, 120} {
				mine, _ := dbemt.Tau1(dbemt.ModTauVaries, 0, a, u, r)
				theirs := aero.DBEMTTau1(r, a, u)
				if math.Abs(mine-theirs) > 1e-12*math.Max(1, theirs) {
					t.Errorf("tau1(a=%g,U=%g,R=%g): dbemt %g, aero %g", a, u, r, mine, theirs)
				}
			}
		}
	}
	for _, s := range []float64{0, 0.3, 0.77, 1} {
		if d := dbemt.Tau2(4, s) - aero.DBEMTTau2(4, s); math.Abs(d) > 1e-12 {
			t.Errorf("tau2(span %g) differs by %g", s, d)
		}
	}
}
