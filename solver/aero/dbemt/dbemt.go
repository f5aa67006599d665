// Package dbemt is the dynamic blade-element/momentum inflow of the solver:
// Øye's two-filter dynamic-inflow model applied, as AeroDyn's DBEMT does, to
// the quasi-steady induced velocity of every blade node (DBEMT_Mod 1:
// constant tau1; DBEMT_Mod 2: tau1 from the rotor-average induction and wind).
//
// # Model
//
// Øye's model (Branlard 2017, "Wind Turbine Aerodynamics and Vorticity-Based
// Methods", §"dynamic inflow"; OpenFAST AeroDyn theory "Dynamic BEM Theory")
// filters the quasi-steady induced velocity W_qs of each node through two
// first-order lags:
//
//	W_int + tau1 dW_int/dt = W_qs + k tau1 dW_qs/dt      (k = 0.6)
//	W     + tau2 dW/dt     = W_int
//
//	tau1 = 1.1 / (1 - 1.3 min(a_avg, 0.5)) * R / U_avg    (DBEMT_Mod 2; capped at 100 s)
//	tau1 = tau1_const                                    (DBEMT_Mod 1)
//	tau2 = tau1 (0.39 - 0.26 (r/R)^2)
//
// a_avg is the plain mean of the quasi-steady axial induction over all nodes
// of all blades, U_avg the rotor-disk average of the undisturbed relative wind
// normal to the disk (floored at 0.1 m/s), R the largest tip radius (distance
// from the rotor axis) of the blades and r the node's distance from the axis.
//
// The discrete update over one glue step DT is the exact solution of these
// two linear equations when W_qs varies linearly between its values at t and
// t+DT and tau1, tau2 are held at their values at t (derived in update.go;
// AeroDyn's DBEMT uses the same assumptions). The states are initialised at
// the quasi-steady value the first time a node is updated, so a steady input
// gives a steady output equal to it. In AeroDyn that first update's
// quasi-steady value is the BEMT solved again for the step-start input
// formed with the end-of-step inflow (BEMT_UpdateStates before its nodes
// are initialised), not the solution output at the first time; a caller
// passes it as the first UpdateStates' uNow (aero.Rotor does the same).
//
// # Module contract and use from the time loop (engineer D, solver/coupling)
//
//	m, err := dbemt.New(dbemt.Params{Mod: 2, Tau1Const: 4, DT: dt, NumBlades: 3, NumNodes: nn})
//	err = m.UpdateStates(t, &uAtT, &uAtTplusDT)   // states t -> t+DT
//	err = m.CalcOutput(&uNow, vind)               // filtered induced velocity at the states' time
//
// The order inside one glue step t -> t+DT mirrors AeroDyn's BEMT_UpdateStates:
//
//  1. At t: C's quasi-steady BEMT solve (aero.SolveNode with induction, no
//     skew correction) gives a, a' per node; fill Input at t with
//     NodeInput.VindQS = {-a*Vx, a'*Vy}, NodeInput.SpanRatio = rlocal/R, and
//     AxIndAvg (a averaged with DiskWeights), UnAvg (disk-average undisturbed
//     normal relative speed), TipRadius (max tip rlocal over blades).
//  2. At t+DT (predicted inputs of the glue): the same quasi-steady solve,
//     filled into a second Input.
//  3. m.UpdateStates(t, &in_t, &in_tdt): states now belong to t+DT.
//     AeroDyn's AD_UpdateStates evaluates the inflow once, at the newest
//     input time and positions, and uses it for the BEMT inputs at both ends
//     of the step, so its in_t is the quasi-steady a, a' of step 1 applied
//     to Vx, Vy formed with the wind of t+DT (the motion of t): the change
//     of the wind enters as a jump between steps, without Øye's k tau1
//     dW_qs/dt lead. aero.Rotor does the same; pass in_t formed that way to
//     reproduce OpenFAST in unsteady inflow (rotor_cross_test.go).
//  4. Loads at any time whose states are current: m.CalcOutput(&in, vind)
//     returns per node vind = {Wx, Wy}; the induction used by the blade
//     element is a = -Wx/Vx, a' = Wy/Vy (zero where Vx or Vy is zero); the
//     Pitt/Peters skewed-wake redistribution is applied to that filtered a
//     afterwards, then phi = atan2(Vx(1-a), Vy(1+a')), alpha = phi - theta,
//     and the airfoil (or unsteady, package unsteady) coefficients follow.
//
// Before the first UpdateStates, CalcOutput returns the quasi-steady input
// itself, as AeroDyn does.
//
// Engineer C's aero.Rotor now carries the same model built in (Params.DBEMTMod,
// states advanced inside Rotor.CalcOutput); rotor_cross_test.go checks that
// both give the same filtered induction to 1e-14 on a rigid NREL 5MW rotor
// through a wind step. A time loop that uses aero.Rotor gets DBEMT from it;
// this package serves loops that solve the BEMT node by node themselves
// (aero.SolveNode) and is the independent reference for aero's copy. It
// does not import package aero (only its external tests do).
package dbemt

import (
	"errors"
	"fmt"
	"math"
)

// Model switches (AeroDyn DBEMT_Mod).
const (
	ModTauConst  = 1 // constant tau1 = Tau1Const
	ModTauVaries = 2 // tau1 from rotor-average induction and wind speed
)

// KOye is the coupling constant k of Øye's first filter (AeroDyn k_0ye).
const KOye = 0.6

// Limits AeroDyn applies in the tau1 formula of DBEMT_Mod 2.
const (
	MaxAxIndAvg = 0.5   // a_avg is limited to this value
	MinUnAvg    = 0.1   // m/s; U_avg is floored to this value
	MaxTau1     = 100.0 // s; tau1 is capped to this value
)

// Params configure the filter bank of one rotor.
type Params struct {
	Mod       int     // ModTauConst or ModTauVaries
	Tau1Const float64 // s, used by ModTauConst
	DT        float64 // glue time step (s)
	NumBlades int
	NumNodes  int // nodes per blade
}

// NodeInput is the quasi-steady state of one blade node at one instant.
type NodeInput struct {
	// VindQS is the quasi-steady induced velocity in the node's polar frame:
	// {-a*Vx, a'*Vy} (m/s), from the BEMT solve without skew correction.
	VindQS [2]float64
	// SpanRatio is rlocal / TipRadius, the node's distance from the rotor
	// axis over the rotor radius; clamped to [0, 1].
	SpanRatio float64
}

// Input is everything the filters need at one instant.
type Input struct {
	Nodes     [][]NodeInput // [blade][node]
	AxIndAvg  float64       // disk-averaged quasi-steady axial induction, weighted with DiskWeights
	UnAvg     float64       // disk-average undisturbed relative wind normal to the disk (m/s)
	TipRadius float64       // R: largest tip distance from the rotor axis over the blades (m)
}

// Model is an initialised DBEMT filter bank.
type Model struct {
	p           Params
	vint        [][][2]float64 // W_int per blade, node
	vind        [][][2]float64 // W per blade, node
	initialized [][]bool
	tau1        float64
	tau1Limited bool
}

// New validates the parameters and allocates the states (Init).
func New(p Params) (*Model, error) {
	switch {
	case p.Mod != ModTauConst && p.Mod != ModTauVaries:
		return nil, fmt.Errorf("dbemt: DBEMT_Mod %d not supported (want 1 or 2)", p.Mod)
	case p.Mod == ModTauConst && !(p.Tau1Const > 0):
		return nil, fmt.Errorf("dbemt: tau1_const must be > 0 for DBEMT_Mod 1, got %g", p.Tau1Const)
	case !(p.DT > 0) || math.IsInf(p.DT, 0):
		return nil, fmt.Errorf("dbemt: time step must be > 0, got %g", p.DT)
	case p.NumBlades < 1 || p.NumNodes < 1:
		return nil, fmt.Errorf("dbemt: need at least one blade and one node, got %d blades x %d nodes", p.NumBlades, p.NumNodes)
	}
	m := &Model{p: p, tau1: p.Tau1Const}
	m.vint = make([][][2]float64, p.NumBlades)
	m.vind = make([][][2]float64, p.NumBlades)
	m.initialized = make([][]bool, p.NumBlades)
	for b := range m.vint {
		m.vint[b] = make([][2]float64, p.NumNodes)
		m.vind[b] = make([][2]float64, p.NumNodes)
		m.initialized[b] = make([]bool, p.NumNodes)
	}
	return m, nil
}

// Params returns the parameters the model was built with.
func (m *Model) Params() Params { return m.p }

// Tau1 is the first time constant of Øye's model. For ModTauVaries it is
// 1.1/(1-1.3 min(a,0.5)) * R/max(U,0.1), capped at MaxTau1; limited reports
// whether a or U had to be limited (AeroDyn warns once in that case).
func Tau1(mod int, tau1Const, axIndAvg, unAvg, tipRadius float64) (tau1 float64, limited bool) {
	if mod == ModTauConst {
		return tau1Const, false
	}
	a := axIndAvg
	if a > MaxAxIndAvg {
		a, limited = MaxAxIndAvg, true
	}
	u := unAvg
	if u < MinUnAvg || math.IsNaN(u) {
		u, limited = MinUnAvg, true
	}
	tau1 = 1.1 * tipRadius / ((1 - 1.3*a) * u)
	if tau1 > MaxTau1 || math.IsNaN(tau1) {
		tau1 = MaxTau1
	}
	return tau1, limited
}

// Tau2 is the second, spanwise-dependent time constant
// tau2 = tau1 (0.39 - 0.26 (r/R)^2) with r/R clamped to [0, 1].
func Tau2(tau1, spanRatio float64) float64 {
	s := math.Max(0, math.Min(1, spanRatio))
	if math.IsNaN(spanRatio) {
		s = 1
	}
	return tau1 * (0.39 - 0.26*s*s)
}

// LastTau1 returns tau1 used by the last UpdateStates, and whether the
// rotor-average induction or wind speed had to be limited in it.
func (m *Model) LastTau1() (tau1 float64, limited bool) { return m.tau1, m.tau1Limited }

func (m *Model) checkInput(u *Input, what string) error {
	if u == nil {
		return fmt.Errorf("dbemt: %s input is nil", what)
	}
	if len(u.Nodes) != m.p.NumBlades {
		return fmt.Errorf("dbemt: %s input has %d blades, want %d", what, len(u.Nodes), m.p.NumBlades)
	}
	for b, nodes := range u.Nodes {
		if len(nodes) != m.p.NumNodes {
			return fmt.Errorf("dbemt: %s input blade %d has %d nodes, want %d", what, b+1, len(nodes), m.p.NumNodes)
		}
		for i := range nodes {
			v := nodes[i].VindQS
			if math.IsNaN(v[0]) || math.IsNaN(v[1]) || math.IsInf(v[0], 0) || math.IsInf(v[1], 0) {
				return fmt.Errorf("dbemt: %s input blade %d node %d: quasi-steady induced velocity not finite (%g, %g)", what, b+1, i+1, v[0], v[1])
			}
		}
	}
	if m.p.Mod == ModTauVaries && !(u.TipRadius > 0) {
		return fmt.Errorf("dbemt: %s input tip radius must be > 0 for DBEMT_Mod 2, got %g", what, u.TipRadius)
	}
	return nil
}

// ErrNotFinite is returned when a state became non-finite.
var ErrNotFinite = errors.New("non-finite state")

// UpdateStates advances every node's two filters from t to t+DT. uNow holds
// the quasi-steady inputs at t, uNext those at t+DT. Time constants are taken
// from uNow. A node not updated before is first set to its quasi-steady value
// at t.
func (m *Model) UpdateStates(t float64, uNow, uNext *Input) error {
	if err := m.checkInput(uNow, "current"); err != nil {
		return fmt.Errorf("t=%g: %w", t, err)
	}
	if err := m.checkInput(uNext, "next"); err != nil {
		return fmt.Errorf("t=%g: %w", t, err)
	}
	tau1, limited := Tau1(m.p.Mod, m.p.Tau1Const, uNow.AxIndAvg, uNow.UnAvg, uNow.TipRadius)
	m.tau1, m.tau1Limited = tau1, limited
	dt := m.p.DT
	e1 := math.Exp(-dt / tau1)
	for b := range m.vind {
		for i := range m.vind[b] {
			n0 := &uNow.Nodes[b][i]
			if !m.initialized[b][i] {
				m.vint[b][i] = n0.VindQS
				m.vind[b][i] = n0.VindQS
				m.initialized[b][i] = true
			}
			tau2 := Tau2(tau1, n0.SpanRatio)
			e2 := math.Exp(-dt / tau2)
			for c := 0; c < 2; c++ {
				wi, w := step(m.vint[b][i][c], m.vind[b][i][c], n0.VindQS[c], uNext.Nodes[b][i].VindQS[c], dt, tau1, tau2, e1, e2)
				if math.IsNaN(wi) || math.IsNaN(w) || math.IsInf(wi, 0) || math.IsInf(w, 0) {
					return fmt.Errorf("dbemt: t=%g blade %d node %d component %d: %w", t, b+1, i+1, c, ErrNotFinite)
				}
				m.vint[b][i][c], m.vind[b][i][c] = wi, w
			}
		}
	}
	return nil
}

// CalcOutput writes the filtered induced velocity {Wx, Wy} of every node
// into vind ([blade][node], allocated by the caller with the model's
// dimensions). Nodes not yet updated return the quasi-steady input of u.
func (m *Model) CalcOutput(u *Input, vind [][][2]float64) error {
	if len(vind) != m.p.NumBlades {
		return fmt.Errorf("dbemt: output has %d blades, want %d", len(vind), m.p.NumBlades)
	}
	for b := range vind {
		if len(vind[b]) != m.p.NumNodes {
			return fmt.Errorf("dbemt: output blade %d has %d nodes, want %d", b+1, len(vind[b]), m.p.NumNodes)
		}
		for i := range vind[b] {
			if m.initialized[b][i] {
				vind[b][i] = m.vind[b][i]
				continue
			}
			if u == nil || b >= len(u.Nodes) || i >= len(u.Nodes[b]) {
				return fmt.Errorf("dbemt: blade %d node %d not initialised and no input given", b+1, i+1)
			}
			vind[b][i] = u.Nodes[b][i].VindQS
		}
	}
	return nil
}

// NewOutput allocates an output array of the model's dimensions.
func (m *Model) NewOutput() [][][2]float64 {
	out := make([][][2]float64, m.p.NumBlades)
	for b := range out {
		out[b] = make([][2]float64, m.p.NumNodes)
	}
	return out
}

// States returns copies of W_int and W of one node (for outputs and tests).
func (m *Model) States(blade, node int) (wInt, w [2]float64, ok bool) {
	if blade < 0 || blade >= m.p.NumBlades || node < 0 || node >= m.p.NumNodes {
		return wInt, w, false
	}
	return m.vint[blade][node], m.vind[blade][node], m.initialized[blade][node]
}

// SetStates overrides the states of one node (restart, linearisation
// points, tests).
func (m *Model) SetStates(blade, node int, wInt, w [2]float64) error {
	if blade < 0 || blade >= m.p.NumBlades || node < 0 || node >= m.p.NumNodes {
		return fmt.Errorf("dbemt: no blade %d node %d", blade+1, node+1)
	}
	m.vint[blade][node], m.vind[blade][node] = wInt, w
	m.initialized[blade][node] = true
	return nil
}

// DiskWeights returns the weights of the disk-averaged axial induction that
// sets tau1 with DBEMT_Mod 2, from each node's distance to the rotor axis
// rlocal[blade][node] at initialisation. AeroDyn does not take the plain mean
// over all nodes, which the near-zero induction of the root cylinders would
// drag down: each node gets the triweight kernel K(u) = 35/32 (1 - u^2)^3 of
// u = (r/r_max - 0.7)/0.1 clipped to [-1, 1], centred on 70 % of the radius
// (r_max the largest rlocal over all blades); the weights are normalised to
// sum 1 on each blade and divided by the number of blades, so
// AxIndAvg = sum over all nodes of w*a.
func DiskWeights(rlocal [][]float64) [][]float64 {
	rMax := 0.0
	for _, b := range rlocal {
		for _, r := range b {
			rMax = math.Max(rMax, r)
		}
	}
	out := make([][]float64, len(rlocal))
	for k, b := range rlocal {
		w := make([]float64, len(b))
		sum := 0.0
		for j, r := range b {
			u := 0.0
			if rMax > 0 {
				u = (r/rMax - 0.7) / 0.1
			}
			u = math.Max(-1, math.Min(1, u))
			v := 1 - u*u
			w[j] = 35.0 / 32.0 * v * v * v
			sum += w[j]
		}
		for j := range w {
			if sum > 0 {
				w[j] /= sum
			}
			w[j] /= float64(len(rlocal))
		}
		out[k] = w
	}
	return out
}
