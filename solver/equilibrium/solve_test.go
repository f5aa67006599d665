package equilibrium

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// A platform held by linear springs, surge and pitch coupled, under a
// thrust T at height h: the load is F − K·q with F = (T, 0, 0, 0, T·h, 0),
// and the equilibrium is K⁻¹F, by hand for the 2 × 2 surge-pitch block:
// surge = (k55·T − k15·T·h)/det, pitch = (k11·T·h − k15·T)/det, det =
// k11·k55 − k15². The DOFs held (heave at 0.3 m) keep their values.
func TestSolveLinearSpringsByHand(t *testing.T) {
	const (
		k11, k55, k15 = 1e5, 2e9, -1e6 // N/m, N·m/rad, N/rad
		T, h          = 2e6, 150.0     // N, m
	)
	load := func(q [6]float64) ([6]float64, error) {
		return [6]float64{T - k11*q[0] - k15*q[4], 0, -1e7 * q[2], 0, T*h - k15*q[0] - k55*q[4], 0}, nil
	}
	free := [6]bool{0: true, 4: true}
	q, r, err := Solve(context.Background(), load, free, [6]float64{2: 0.3}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	det := k11*k55 - k15*k15
	surge, pitch := (k55*T-k15*T*h)/det, (k11*T*h-k15*T)/det
	if math.Abs(q[0]-surge) > 1e-6 || math.Abs(q[4]-pitch) > 1e-9 {
		t.Errorf("surge %.9g m, pitch %.9g rad; by hand %.9g m, %.9g rad", q[0], q[4], surge, pitch)
	}
	if q[2] != 0.3 || q[1] != 0 || q[3] != 0 || q[5] != 0 {
		t.Errorf("held DOFs moved: %v", q)
	}
	if math.Abs(r[0]) > 1e-3 || math.Abs(r[4]) > 1e-1 {
		t.Errorf("residual %v", r)
	}
}

// A hardening spring F(x) = T − k·x − c·x³ with T chosen for a root at
// x = 20 m: Newton from zero finds it to the step tolerance.
func TestSolveHardeningSpring(t *testing.T) {
	const k, c, x0 = 5e4, 50.0, 20.0
	T := k*x0 + c*x0*x0*x0
	load := func(q [6]float64) ([6]float64, error) {
		x := q[0]
		return [6]float64{T - k*x - c*x*x*x}, nil
	}
	q, _, err := Solve(context.Background(), load, [6]bool{0: true}, [6]float64{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(q[0]-x0) > 1e-4 {
		t.Errorf("x = %.9g m, want %g", q[0], x0)
	}
}

// A DOF without stiffness has no equilibrium: an error naming it, not a
// displacement.
func TestSolveRefusesAFreeDrift(t *testing.T) {
	load := func(q [6]float64) ([6]float64, error) { return [6]float64{1e5, 0, 0, 0, 0, 0}, nil }
	_, _, err := Solve(context.Background(), load, [6]bool{0: true}, [6]float64{}, Options{})
	if err == nil || errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "PtfmSurge") {
		t.Fatalf("err %v, want the drift refused", err)
	}
	t.Log(err)
}
