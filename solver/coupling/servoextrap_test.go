package coupling

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// extrapolateServo reproduces a polynomial of the deck's InterpOrder exactly
// (OpenFAST's SrvD_Input_ExtrapInterp with equal steps), including the
// azimuth across its 2π wrap.
func TestServoExtrapolationFollowsInterpOrder(t *testing.T) {
	const dt = 0.005
	speed := func(tt float64) float64 { return 0.8 + 0.3*tt - 2*tt*tt }
	azim := func(tt float64) float64 { return math.Mod(6.27+0.8*tt+5*tt*tt, 2*math.Pi) }
	in := func(tt float64) control.Inputs {
		return control.Inputs{HSSSpd: speed(tt), Azimuth: azim(tt), BlPitch: [3]float64{speed(tt), 0, 0}}
	}
	t0 := 0.0 // the azimuth wraps between t0-2dt and t0+dt
	prev2, prev, cur := in(t0-2*dt), in(t0-dt), in(t0)
	var next control.Inputs
	extrapolateServo(2, &next, &prev2, &prev, &cur)
	if got, want := next.HSSSpd, speed(t0+dt); math.Abs(got-want) > 1e-12 {
		t.Errorf("quadratic: HSSSpd %.15g, want %.15g", got, want)
	}
	if got, want := next.BlPitch[0], speed(t0+dt); math.Abs(got-want) > 1e-12 {
		t.Errorf("quadratic: BlPitch %.15g, want %.15g", got, want)
	}
	if got, want := next.Azimuth, azim(t0+dt); math.Abs(math.Remainder(got-want, 2*math.Pi)) > 1e-12 || got < 0 || got >= 2*math.Pi {
		t.Errorf("quadratic: Azimuth %.15g, want %.15g", got, want)
	}
	// Linear extrapolation misses the curvature by 2·dt²·(−2) … per unit.
	extrapolateServo(1, &next, &prev2, &prev, &cur)
	lin := 2*speed(t0) - speed(t0-dt)
	if math.Abs(next.HSSSpd-lin) > 1e-12 || math.Abs(lin-speed(t0+dt)) < 1e-5 {
		t.Errorf("linear: HSSSpd %.15g, want 2·cur−prev %.15g (exact %.15g)", next.HSSSpd, lin, speed(t0+dt))
	}
}

// The simulation hands ServoDyn inputs extrapolated with the deck's
// InterpOrder: 2 in the IEA-15 decks, whose controller must see
// 3·u(t) − 3·u(t−dt) + u(t−2dt) at t+dt (TestReplayAgainstROSCO: the
// torque demand reproduces OpenFAST's GenTq to 0.034 kN·m with it, 0.071 with
// linear extrapolation).
func TestSimulationExtrapolatesServoInputsWithInterpOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 0.05 s of the IEA-15 deck")
	}
	s := startedIEA15(t, "iea15_onshore_steady10_rosco", "GenSpeed")
	if s.interpOrder != 2 {
		t.Fatalf("deck InterpOrder %d, the test needs 2", s.interpOrder)
	}
	var hist []float64 // HSSSpd handed to ServoDyn after each step
	for n := 0; n < 10; n++ {
		if err := s.step(n); err != nil {
			t.Fatal(err)
		}
		if n >= 3 {
			h := len(hist)
			want := 3*hist[h-1] - 3*hist[h-2] + hist[h-3]
			if got := s.srvNext.HSSSpd; math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("step %d: ServoDyn HSSSpd at t+dt %.15g, want the quadratic extrapolation %.15g (linear %.15g)",
					n, got, want, 2*hist[h-1]-hist[h-2])
			}
		}
		hist = append(hist, s.srvIn.HSSSpd)
	}
}

// ElastoDyn's inputs at t+dt (the aerodynamic loads it integrates over the
// step) are extrapolated with the deck's InterpOrder too: the quadratic in
// the IEA-15 decks.
func TestSimulationExtrapolatesStructureInputsWithInterpOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 0.03 s of the IEA-15 deck")
	}
	s := startedIEA15(t, "iea15_onshore_steady13_rosco", "GenSpeed")
	for n := 0; n < 6; n++ {
		if err := s.step(n); err != nil {
			t.Fatal(err)
		}
	}
	s.extrapolateStructureInputs()
	k, i := 0, len(s.uCur.BladeForce[0])-3 // an outboard structural node
	for c := 0; c < 2; c++ {
		p2, p1, p0 := s.uPrev2.BladeForce[k][i][c], s.uPrev.BladeForce[k][i][c], s.uCur.BladeForce[k][i][c]
		want := 3*p0 - 3*p1 + p2
		if got := s.uNext.BladeForce[k][i][c]; math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("blade force component %d at t+dt %.12g, want the quadratic extrapolation %.12g (linear %.12g)", c, got, want, 2*p0-p1)
		}
	}
}

// startedIEA15 builds the simulation of an IEA-15 onshore reference case
// (a folder of ../shared/reference-outputs) recording channel, and
// initialises it at t = 0.
func startedIEA15(t *testing.T, caseName, channel string) *sim {
	t.Helper()
	dir := testshared.Path(t, "reference-outputs", caseName, "IEA-15-240-RWT-Onshore")
	d, err := deck.Load(filepath.Join(dir, "IEA-15-240-RWT-Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	s, _, _, _, err := build(d, Options{OutPath: "-", Channels: []string{channel}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.initialize(); err != nil {
		t.Fatal(err)
	}
	return s
}

// The nacelle angular accelerations (ROSCO's floating-feedback input) are
// extrapolated to t+dt like every other ServoDyn input.
func TestServoExtrapolatesNacelleAngularAcceleration(t *testing.T) {
	var prev2, prev, cur, next control.Inputs
	prev2.NacAngAcc = [3]float64{0, 1, 0}
	prev.NacAngAcc = [3]float64{0, 2, 0}
	cur.NacAngAcc = [3]float64{0, 4, 1}
	extrapolateServo(1, &next, &prev2, &prev, &cur)
	if next.NacAngAcc != [3]float64{0, 6, 2} {
		t.Fatalf("order 1: %v, want (0, 6, 2)", next.NacAngAcc)
	}
	extrapolateServo(2, &next, &prev2, &prev, &cur)
	if next.NacAngAcc != [3]float64{0, 7, 3} {
		t.Fatalf("order 2: %v, want (0, 7, 3)", next.NacAngAcc)
	}
}
