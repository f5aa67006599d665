package aero

import (
	"math"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func load5MW(t testing.TB) (*deck.Deck, Params) {
	d, err := deck.Load(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	return d, p
}

// Every rotor state must give finite loads: TSR 0-20, pitch -10..90 deg,
// zero, forward, reversed and yawed wind, with tower influence and drag on.
func TestRotorNeverNaN(t *testing.T) {
	d, p := load5MW(t)
	p.TwrPotent, p.TwrShadow, p.TwrAero = TwrPotentBak, TwrShadowPowles, true
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	var in Input
	out := rot.NewOutput()
	n, notConverged := 0, 0
	for _, wind := range []Vec3{{0, 0, 0}, {8, 0, 0}, {-8, 0, 0}, {25, 0, 0}, {7, -7, 1}, {0, 10, 0}} {
		for tsr := 0.0; tsr <= 20; tsr += 2.5 {
			for pitch := -10.0; pitch <= 90; pitch += 20 {
				for _, sign := range []float64{1, -1} {
					omega := sign * tsr * 8 / 63
					st, err := RigidStateFromDeck(d, 0.7, omega, pitch*deg2rad)
					if err != nil {
						t.Fatal(err)
					}
					w := wind
					if err := rot.RigidInput(st, func(Vec3) Vec3 { return w }, &in); err != nil {
						t.Fatal(err)
					}
					if err := rot.CalcOutput(0, &in, out); err != nil {
						t.Fatal(err)
					}
					for k := range out.Blades {
						for j, o := range out.Blades[k] {
							for _, v := range []float64{o.Force[0], o.Force[1], o.Force[2], o.Moment[0], o.Alpha, o.Phi, o.AxInd, o.TanInd, o.Vrel} {
								if !finite(v) {
									t.Fatalf("wind %v TSR %g pitch %g omega %g: blade %d node %d non-finite: %+v", wind, tsr, pitch, omega, k+1, j+1, o)
								}
							}
							if !o.Converged {
								notConverged++
							}
						}
					}
					for _, v := range append(out.Rotor.Force[:], out.Rotor.Moment[0], out.Rotor.Cp, out.Rotor.Ct, out.Rotor.TSR) {
						if !finite(v) {
							t.Fatalf("wind %v TSR %g pitch %g: non-finite rotor output %+v", wind, tsr, pitch, out.Rotor)
						}
					}
					n++
				}
			}
		}
	}
	t.Logf("%d rotor states finite; %d node solves used the no-bracket fallback", n, notConverged)
}

func TestRotorRejectsNonFiniteInput(t *testing.T) {
	af := thinAirfoil(0.01)
	rot := simpleRotor(t, af)
	var in Input
	if err := rot.RigidInput(RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1}, uniformWind(8), &in); err != nil {
		t.Fatal(err)
	}
	in.Blades[2][5].Wind[0] = math.NaN()
	err := rot.CalcOutput(0, &in, rot.NewOutput())
	if err == nil || !strings.Contains(err.Error(), "blade 3 node 6") {
		t.Errorf("NaN wind: %v", err)
	}
}
