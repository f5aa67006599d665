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

// A feathered blade of an idling rotor (pitch 90°, Vy/Vx ~ 0.005) puts the
// BEMT near phi = 90°, where k' = sigma Ct/(4F sin(phi) cos(phi)) -> 1 and
// the tangential induction a' = k'/(1-k') is unbounded (a' = 2322 and W =
// 357 m/s at 30 m/s on node 8 of the NREL 5 MW before the bound on a').
// a' stays within AeroDyn's bound [-1, 1] and W stays of the order of
// the inflow, on every node and for both senses of rotation.
func TestFeatheredIdlingInductionsBounded(t *testing.T) {
	_, p := load5MW(t)
	g := p.Blades[0]
	opt := p.BEMT
	rTip := p.HubRadius + g.Span[len(g.Span)-1]
	nodes := 0
	for j := range g.Span {
		z := p.HubRadius + g.Span[j]
		sec := NodeSection{Chord: g.Chord[j], Theta: math.Pi/2 + g.Twist[j], RLocal: z, NumBlades: p.NumBlades,
			Airfoil: p.Airfoils[g.AirfoilID[j]], KinVisc: p.KinVisc,
			TipConst: float64(p.NumBlades) * (rTip - z) / (2 * z), HubConst: float64(p.NumBlades) * (z - p.HubRadius) / (2 * p.HubRadius)}
		for _, vx := range []float64{30, 50} {
			for _, rpm := range []float64{1, 0.2, -0.5} {
				vy := rpm * math.Pi / 30 * z
				s := SolveNode(vx, vy, &sec, &opt, true)
				nodes++
				if !(s.TanInd >= -1 && s.TanInd <= 1) || !finite(s.AxInd) {
					t.Errorf("node %d vx=%g vy=%.3f: a=%g a'=%g, want finite a and a' in [-1, 1]", j+1, vx, vy, s.AxInd, s.TanInd)
				}
				if w0 := math.Hypot(vx, vy); !(s.W <= 2.5*w0) {
					t.Errorf("node %d vx=%g vy=%.3f: W=%g m/s for an inflow of %g m/s", j+1, vx, vy, s.W, w0)
				}
			}
		}
	}
	if nodes == 0 {
		t.Fatal("no nodes checked")
	}
}

// SpdSound "default" in the AeroDyn file takes the primary file's value,
// as AirDens and KinVisc do; a value given in AeroDyn wins.
func TestSpeedOfSoundDefaultTakesThePrimaryFile(t *testing.T) {
	d, p := load5MW(t)
	if !d.AeroDyn.SpdSound.Default || p.SpeedOfSound != d.Main.SpdSound {
		t.Fatalf("NREL 5 MW deck (SpdSound default in AeroDyn): SpeedOfSound %g, want the primary file's %g", p.SpeedOfSound, d.Main.SpdSound)
	}
	d.Main.SpdSound = 343.2
	q, _, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	if q.SpeedOfSound != 343.2 || (q.UAMod != 0 && q.UA.SpeedOfSound != 343.2) {
		t.Errorf("SpdSound default: SpeedOfSound %g (unsteady %g), want the primary file's 343.2", q.SpeedOfSound, q.UA.SpeedOfSound)
	}
	d.AeroDyn.SpdSound = deck.DefReal{Value: 330}
	if q, _, err = ParamsFromDeck(d); err != nil || q.SpeedOfSound != 330 {
		t.Errorf("SpdSound 330 in AeroDyn: SpeedOfSound %g (%v), want 330", q.SpeedOfSound, err)
	}
}
