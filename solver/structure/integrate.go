package structure

import (
	"fmt"
	"math"
)

// InitialState sets the state from ElastoDyn's initial conditions: rotor
// azimuth and speed, nacelle yaw, tower-top displacement (first modes) and
// blade-tip deflections (first flap and edge modes, ElastoDyn InitBlDefl).
func (m *Model) InitialState() (*State, error) {
	p := &m.p
	st := m.NewState()
	st.Q[DOFGeAz] = wrap2Pi(p.Init.Azimuth - p.AzimB1Up - math.Pi/2)
	st.QD[DOFGeAz] = p.Init.RotSpeed
	st.Q[DOFYaw] = p.Init.NacYaw
	st.Q[DOFSg], st.Q[DOFSw], st.Q[DOFHv] = p.Init.PtfmSurge, p.Init.PtfmSway, p.Init.PtfmHeave
	st.Q[DOFR], st.Q[DOFP], st.Q[DOFY] = p.Init.PtfmRoll, p.Init.PtfmPitch, p.Init.PtfmYaw
	if p.DOF.TwFADOF1 {
		st.Q[DOFTFA1] = p.Init.TTDspFA
	}
	if p.DOF.TwSSDOF1 {
		st.Q[DOFTSS1] = p.Init.TTDspSS
	}
	if (p.Init.OoPDefl != 0 || p.Init.IPDefl != 0) && p.DOF.FlapDOF1 && p.DOF.EdgeDOF {
		for k := 0; k < p.NumBl; k++ {
			tip := &m.bShape[k][p.BldNodes+1]
			th := p.Init.BlPitch[k]
			// Tip deflection from the coned frame into the pitched frame.
			dj1 := p.Init.OoPDefl*math.Cos(th) - p.Init.IPDefl*math.Sin(th)
			dj2 := p.Init.OoPDefl*math.Sin(th) + p.Init.IPDefl*math.Cos(th)
			a, b := tip.dx[ModeFlap1], tip.dx[ModeEdge1]
			c, d := tip.dy[ModeFlap1], tip.dy[ModeEdge1]
			det := a*d - b*c
			if math.Abs(det) < 1e-12 {
				return nil, fmt.Errorf("structure: blade %d: cannot set the initial tip deflection (singular tip shapes)", k+1)
			}
			st.Q[DOFBlade(k, ModeFlap1)] = (dj1*d - b*dj2) / det
			st.Q[DOFBlade(k, ModeEdge1)] = (a*dj2 - c*dj1) / det
		}
	}
	return st, nil
}

// Integrator advances the structural state with ElastoDyn's integration
// methods: RK4, AB4 or ABM4 (Adams–Bashforth(–Moulton) 4th order, started
// with three RK4 steps), ElastoDyn ED_RK4/ED_AB4/ED_ABM4.
type Integrator struct {
	sys    *System
	method int
	dt     float64
	n      int

	nx             int
	hist           [4][]float64 // state derivatives f_n, f_{n-1}, f_{n-2}, f_{n-3}
	k1, k2, k3, k4 []float64
	x0, xt         []float64
	stTmp          *State
	uMid           *Inputs
	qdd            []float64
	fixed          []bool // DOFs whose coordinate does not move
}

// NewIntegrator prepares an integrator for sys using the model's Method and DT.
func NewIntegrator(sys *System) *Integrator {
	m := sys.m
	nd := m.nDOF
	it := &Integrator{sys: sys, method: m.p.Method, dt: m.p.DT, nx: 2 * nd}
	for i := range it.hist {
		it.hist[i] = make([]float64, it.nx)
	}
	it.k1, it.k2, it.k3, it.k4 = make([]float64, it.nx), make([]float64, it.nx), make([]float64, it.nx), make([]float64, it.nx)
	it.x0, it.xt = make([]float64, it.nx), make([]float64, it.nx)
	it.stTmp = m.NewState()
	it.uMid = m.NewInputs()
	it.qdd = make([]float64, nd)
	it.fixed = make([]bool, nd)
	for j := range it.fixed {
		it.fixed[j] = true
	}
	for _, j := range sys.moving {
		it.fixed[j] = false
	}
	return it
}

// DT is the integration step.
func (it *Integrator) DT() float64 { return it.dt }

// Steps is the number of steps taken so far.
func (it *Integrator) Steps() int { return it.n }

func (it *Integrator) pack(st *State, x []float64) {
	nd := len(st.Q)
	copy(x[:nd], st.Q)
	copy(x[nd:], st.QD)
}

func (it *Integrator) unpack(x []float64, st *State) {
	nd := len(st.Q)
	copy(st.Q, x[:nd])
	copy(st.QD, x[nd:])
}

// deriv evaluates dx/dt at x with inputs u into dx.
func (it *Integrator) deriv(x []float64, u *Inputs, dx []float64) error {
	it.unpack(x, it.stTmp)
	if err := it.sys.Derivative(it.stTmp, u, it.qdd); err != nil {
		return err
	}
	nd := len(it.qdd)
	for j := 0; j < nd; j++ {
		if it.fixed[j] {
			dx[j] = 0
		} else {
			dx[j] = x[nd+j]
		}
		dx[nd+j] = it.qdd[j]
	}
	return nil
}

// Step advances st from t to t+DT. uT are the inputs at t and uNext those at
// t+DT (extrapolated by the caller); intermediate inputs are interpolated
// linearly, as ElastoDyn interpolates its input history with InterpOrder 1
// (see StepQuadratic for InterpOrder 2).
func (it *Integrator) Step(t float64, st *State, uT, uNext *Inputs) error {
	return it.StepQuadratic(t, st, nil, uT, uNext)
}

// StepQuadratic is Step with the inputs at t−DT (uPrev) as well: the
// mid-step inputs of the Runge-Kutta steps are then read off the quadratic
// through t−DT, t and t+DT, as ElastoDyn interpolates its input history with
// InterpOrder 2 (Lagrange weights −1/8, 3/4, 3/8 at t+DT/2). A nil uPrev
// interpolates linearly.
func (it *Integrator) StepQuadratic(t float64, st *State, uPrev, uT, uNext *Inputs) error {
	dt := it.dt
	it.pack(st, it.x0)
	// Shift the derivative history and evaluate f_n.
	it.hist[0], it.hist[1], it.hist[2], it.hist[3] = it.hist[3], it.hist[0], it.hist[1], it.hist[2]
	if err := it.deriv(it.x0, uT, it.hist[0]); err != nil {
		return fmt.Errorf("structure step at t=%g s: %w", t, err)
	}
	x := it.xt
	if it.method == MethodRK4 || it.n < 3 {
		copy(it.k1, it.hist[0])
		if uPrev != nil {
			it.uMid.Combine3(-0.125, uPrev, 0.75, uT, 0.375, uNext)
		} else {
			it.uMid.Blend(uT, uNext, 0.5)
		}
		for i := range x {
			x[i] = it.x0[i] + 0.5*dt*it.k1[i]
		}
		if err := it.deriv(x, it.uMid, it.k2); err != nil {
			return fmt.Errorf("structure step at t=%g s: %w", t, err)
		}
		for i := range x {
			x[i] = it.x0[i] + 0.5*dt*it.k2[i]
		}
		if err := it.deriv(x, it.uMid, it.k3); err != nil {
			return fmt.Errorf("structure step at t=%g s: %w", t, err)
		}
		for i := range x {
			x[i] = it.x0[i] + dt*it.k3[i]
		}
		if err := it.deriv(x, uNext, it.k4); err != nil {
			return fmt.Errorf("structure step at t=%g s: %w", t, err)
		}
		for i := range x {
			x[i] = it.x0[i] + dt/6*(it.k1[i]+2*it.k2[i]+2*it.k3[i]+it.k4[i])
		}
	} else {
		f0, f1, f2, f3 := it.hist[0], it.hist[1], it.hist[2], it.hist[3]
		for i := range x {
			x[i] = it.x0[i] + dt/24*(55*f0[i]-59*f1[i]+37*f2[i]-9*f3[i])
		}
		if it.method == MethodABM4 {
			if err := it.deriv(x, uNext, it.k1); err != nil {
				return fmt.Errorf("structure step at t=%g s: %w", t, err)
			}
			for i := range x {
				x[i] = it.x0[i] + dt/24*(9*it.k1[i]+19*f0[i]-5*f1[i]+f2[i])
			}
		}
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			nd := it.nx / 2
			what := "position"
			j := i
			if i >= nd {
				what, j = "speed", i-nd
			}
			return fmt.Errorf("structure step at t=%g s: %s of DOF %s became %v", t, what, DOFName(j), v)
		}
	}
	it.unpack(x, st)
	st.Q[DOFGeAz] = wrap2Pi(st.Q[DOFGeAz])
	it.n++
	return nil
}
