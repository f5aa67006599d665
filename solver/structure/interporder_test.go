package structure

import (
	"math"
	"testing"
)

// With InterpOrder 2 ElastoDyn reads its mid-step Runge-Kutta inputs off
// the quadratic through the inputs at t−dt, t and t+dt. A rigid rotor at
// rest with no gravity accelerates only under the generator torque, so one
// RK4 step integrates the torque with Simpson's rule and gives the exact
// speed change for a torque quadratic in time when the mid-step torque is
// exact; linear mid-step interpolation is off by dt·(c2·dt²)/6·k.
func TestStepQuadraticReadsMidStepInputsOffTheQuadratic(t *testing.T) {
	p := uniformParams()
	p.Method = MethodRK4
	p.Gravity = 0
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	it := NewIntegrator(NewSystem(m))
	dt := it.DT()
	torque := func(tt float64) float64 { return 2e4 + 3e5*tt - 4e7*tt*tt }
	uPrev, uT, uNext := m.NewInputs(), m.NewInputs(), m.NewInputs()
	uPrev.GenTrq, uT.GenTrq, uNext.GenTrq = torque(-dt), torque(0), torque(dt)

	speedChange := func(step func(st *State) error) float64 {
		st, _ := m.InitialState()
		st.QD[DOFGeAz] = 0
		if err := step(st); err != nil {
			t.Fatal(err)
		}
		return st.QD[DOFGeAz]
	}
	// Constant torque: the speed change per unit torque impulse.
	uConst := m.NewInputs()
	uConst.GenTrq = 1e4
	k := speedChange(func(st *State) error { return it.Step(0, st, uConst, uConst) }) / (1e4 * dt)

	it = NewIntegrator(NewSystem(m))
	got := speedChange(func(st *State) error { return it.StepQuadratic(0, st, uPrev, uT, uNext) })
	impulse := 2e4*dt + 3e5*dt*dt/2 - 4e7*dt*dt*dt/3
	want := k * impulse
	it = NewIntegrator(NewSystem(m))
	lin := speedChange(func(st *State) error { return it.Step(0, st, uT, uNext) })
	if math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("quadratic mid-step inputs: speed change %.12g, exact %.12g (linear mid-step %.12g)", got, want, lin)
	}
	if math.Abs(lin-want) < 1e-6*math.Abs(want) {
		t.Fatalf("the torque's curvature does not show (linear %.12g, exact %.12g): the test cannot tell the two apart", lin, want)
	}
}

// Extrapolate2 is the quadratic through t−2dt, t−dt, t evaluated at t+dt.
func TestExtrapolate2IsTheQuadraticOneStepAhead(t *testing.T) {
	m, err := NewModel(uniformParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := func(tt float64) float64 { return 1 + 2*tt + 5*tt*tt }
	a2, a1, a0, u := m.NewInputs(), m.NewInputs(), m.NewInputs(), m.NewInputs()
	for i, a := range []*Inputs{a2, a1, a0} {
		tt := float64(i) * 0.1
		a.GenTrq = f(tt)
		a.YawMom = 2 * f(tt)
		a.BlPitch[2] = -f(tt)
	}
	u.Extrapolate2(a2, a1, a0)
	want := f(0.3)
	if math.Abs(u.GenTrq-want) > 1e-12 || math.Abs(u.YawMom-2*want) > 1e-12 || math.Abs(u.BlPitch[2]+want) > 1e-12 {
		t.Errorf("Extrapolate2: GenTrq %.15g, YawMom %.15g, pitch %.15g; want %.15g, %.15g, %.15g",
			u.GenTrq, u.YawMom, u.BlPitch[2], want, 2*want, -want)
	}
}
