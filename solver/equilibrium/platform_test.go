package equilibrium

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/structure"
)

func loadSemi(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "iea15_semi_steady10_still", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The IEA 15 MW VolturnUS-S under a 2 MN thrust and 17 MN·m of rotor
// torque (about its 10 m/s operating point): at the equilibrium the net
// static load — weight, rotor load, hydrostatics, the MoorDyn lines'
// static solution at the displaced fairleads — is zero within 10 N and
// 1 kN·m (5·10⁻⁶ of the thrust and of its moment about the reference
// point), with the platform about 19 m downwind, pitched about 4° and
// rolled by the torque; the catenary stage alone lands within 0.1 m and
// 0.01° of it (the lumped-mass and catenary lines differ little).
func TestSemiEquilibriumBalancesTheStaticLoads(t *testing.T) {
	p, err := FromDeck(loadSemi(t))
	if err != nil {
		t.Fatal(err)
	}
	rotor := structure.RotorStaticLoad{Thrust: 2e6, Torque: 1.7e7}
	pitch := 1.0 * math.Pi / 180
	q, _, err := p.Equilibrium(context.Background(), pitch, rotor)
	if err != nil {
		t.Fatal(err)
	}
	deg := 180 / math.Pi
	t.Logf("surge %.3f m, sway %.3f m, heave %.3f m, roll %.3f°, pitch %.3f°, yaw %.3f°", q[0], q[1], q[2], q[3]*deg, q[4]*deg, q[5]*deg)
	r, err := p.Load(q, pitch, rotor)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if math.Abs(r[i]) > 10 || math.Abs(r[3+i]) > 1e3 {
			t.Errorf("net static load at the equilibrium %v, want |F| < 10 N, |M| < 1 kN·m", r)
			break
		}
	}
	if q[0] < 17 || q[0] > 21 || q[4]*deg < 3.5 || q[4]*deg > 4.8 || q[3]*deg < 0.2 || q[2] > 0 {
		t.Errorf("equilibrium %v out of the expected range", q)
	}
	// Undisplaced, the same loads are far from balanced.
	r0, err := p.Load([6]float64{}, pitch, rotor)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r0[0]) < 1e6 {
		t.Errorf("net surge force undisplaced %g N: the thrust is not in the load", r0[0])
	}
	// The catenary stage's own equilibrium.
	qf, _, err := Solve(context.Background(), func(q [6]float64) ([6]float64, error) { return p.load(p.fast, q, pitch, rotor) }, p.free, p.init, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(qf[0]-q[0]) > 0.1 || math.Abs(qf[4]-q[4])*deg > 0.01 {
		t.Errorf("catenary equilibrium %v, lumped-mass %v", qf, q)
	}
}

// A land-based deck has no floating platform to balance.
func TestFromDeckRefusesALandDeck(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromDeck(d); !errors.Is(err, ErrNotFloating) {
		t.Errorf("err %v, want ErrNotFloating", err)
	}
}
