package aero

import (
	"math"
)

// Dynamic-wake models (AeroDyn DBEMT_Mod).
const (
	DBEMTNone     = 0 // quasi-steady induction
	DBEMTTauConst = 1 // Øye filter with constant tau1 (tau1_const)
	DBEMTTauVary  = 2 // Øye filter with tau1 from the disk-averaged induction and inflow
)

// oyeK is the coefficient of the input derivative in Øye's first filter.
const oyeK = 0.6

// dbemtState holds the filtered induced velocities of every node: v1 the
// intermediate and v the output of Øye's two first-order filters, for the
// axial (index 0) and tangential (index 1) components.
type dbemtState struct {
	t     float64
	ok    bool
	tau1  float64 // time constant used over the step ending at t
	v1, v [][][2]float64
	// Per node at t: the quasi-steady inductions (a, a'), the BEM root
	// (inflow angle, when there is one) with the blade section it was
	// solved for, and the node's frame, from which the input at the start
	// of the next step is re-formed with the wind of its end time.
	qa      [][][2]float64
	rootPhi [][]float64
	hasRoot [][]bool
	sec     [][]NodeSection
	frame   [][]nodeFrame
}

func newDBEMTState(r *Rotor) *dbemtState {
	s := &dbemtState{}
	for k := range r.blades {
		n := len(r.blades[k].Span)
		s.v1 = append(s.v1, make([][2]float64, n))
		s.v = append(s.v, make([][2]float64, n))
		s.qa = append(s.qa, make([][2]float64, n))
		s.rootPhi = append(s.rootPhi, make([]float64, n))
		s.hasRoot = append(s.hasRoot, make([]bool, n))
		s.sec = append(s.sec, make([]NodeSection, n))
		s.frame = append(s.frame, make([]nodeFrame, n))
	}
	return s
}

// cloneInto copies s into a state taken from the rotor's spare buffers
// (allocated only the first few times), so that the time loop does not
// allocate.
func (s *dbemtState) cloneInto(r *Rotor) *dbemtState {
	var c *dbemtState
	if n := len(r.dyn.spare); n > 0 {
		c, r.dyn.spare = r.dyn.spare[n-1], r.dyn.spare[:n-1]
	} else {
		c = newDBEMTState(r)
	}
	c.t, c.ok, c.tau1 = s.t, s.ok, s.tau1
	for k := range s.v {
		copy(c.v1[k], s.v1[k])
		copy(c.v[k], s.v[k])
		copy(c.qa[k], s.qa[k])
		copy(c.rootPhi[k], s.rootPhi[k])
		copy(c.hasRoot[k], s.hasRoot[k])
		copy(c.sec[k], s.sec[k])
		copy(c.frame[k], s.frame[k])
	}
	return c
}

// release returns a state no longer referenced to the spare buffers.
func (r *Rotor) release(s *dbemtState) {
	if s != nil && s != r.dyn.committed && s != r.dyn.latest {
		r.dyn.spare = append(r.dyn.spare, s)
	}
}

// DBEMTTau1 is Øye's global time constant (AeroDyn DBEMT manual eq. 1):
// tau1 = 1.1 R / ((1 - 1.3 min(a, 0.5)) max(Un, 0.1)), limited to 100 s, with
// a the disk-averaged axial induction and Un the disk-averaged normal inflow.
func DBEMTTau1(radius, axIndDisk, unDisk float64) float64 {
	a := math.Min(axIndDisk, 0.5)
	u := math.Max(unDisk, 0.1)
	return math.Min(1.1*radius/((1-1.3*a)*u), 100)
}

// DBEMTTau2 is the spanwise time constant tau2 = (0.39 - 0.26 (r/R)^2) tau1,
// with r/R clamped to [0, 1].
func DBEMTTau2(tau1, spanRatio float64) float64 {
	s := math.Max(0, math.Min(1, spanRatio))
	return (0.39 - 0.26*s*s) * tau1
}

// oyeStep advances Øye's filters
//
//	tau1 dv1/dt + v1 = u + k tau1 du/dt,   tau2 dv/dt + v = v1
//
// over dt exactly for an input u varying linearly from u0 to u1 (the
// particular solution of each first-order equation plus its homogeneous
// exponential; same discretisation as AeroDyn's DBEMT, eqs. 1.17-1.25 of its
// manual).
func oyeStep(v1, v, u0, u1, dt, tau1, tau2 float64) (float64, float64) {
	if dt <= 0 {
		return v1, v
	}
	b := (u1 - u0) / dt
	a := u0 + b*oyeK*tau1
	c0 := v1 - a + b*tau1
	e1 := math.Exp(-dt / tau1)
	v1n := c0*e1 + a + b*(dt-tau1)
	kt := tau2 / tau1
	var vn float64
	if math.Abs(1-kt) < 1e-9 { // tau2 = tau1: resonant particular solution
		c2 := v - a + b*(tau1+tau2)
		vn = c2*math.Exp(-dt/tau2) + a + b*(dt-tau1-tau2) + c0*dt/tau1*e1
	} else {
		c2 := v - c0/(1-kt) - a + b*(tau1+tau2)
		vn = c2*math.Exp(-dt/tau2) + a + b*(dt-tau1-tau2) + c0/(1-kt)*e1
	}
	return v1n, vn
}

// advanceDBEMT brings the committed state forward to time t with the
// quasi-steady induced velocities uq (per node: axial -a Vx, tangential
// a' Vy), and returns the filtered velocities at t. The state at the start
// of the current step (committed) is kept so that repeated or corrector
// calls at the same time, or at times between the committed and the latest
// time, restart from it; a call at a later time first commits the latest.
func (r *Rotor) advanceDBEMT(t float64, uq [][][2]float64, tau1 float64, xh Vec3, out *Output) [][][2]float64 {
	st := &r.dyn
	if st.committed == nil || !st.committed.ok {
		// First call: the filters are not initialised yet and give the
		// quasi-steady induction itself (AeroDyn's DBEMT_CalcOutput before
		// the first state update).
		c := newDBEMTState(r)
		for k := range uq {
			for j := range uq[k] {
				c.v1[k][j], c.v[k][j] = uq[k][j], uq[k][j]
			}
		}
		c.saveNodes(out)
		c.t, c.ok, c.tau1 = t, true, tau1
		st.committed, st.latest = c, c.cloneInto(r)
		st.first = newFirstStep(out, xh, r.dynRadius)
		return c.v
	}
	if st.latest != nil && t > st.latest.t {
		old := st.committed
		st.committed = st.latest
		r.release(old)
	}
	base := st.committed
	if t <= base.t {
		old := st.latest
		st.latest = base.cloneInto(r)
		r.release(old)
		return base.v
	}
	if st.first != nil {
		r.initAtFirstStep(base, out)
		st.first = nil
	}
	dt := t - base.t
	next := base.cloneInto(r)
	next.t, next.tau1 = t, base.tau1
	if r.p.DBEMTMod == DBEMTTauConst {
		next.tau1 = r.p.Tau1Const
	}
	for k := range uq {
		for j := range uq[k] {
			ratio := 0.0
			if r.dynRadius > 0 {
				ratio = math.Min(r.dynSpan[k][j]/r.dynRadius, 1)
			}
			t1 := next.tau1
			if !(t1 > 0) {
				t1 = tau1
			}
			t2 := DBEMTTau2(t1, ratio)
			// The input at the start of the step: the quasi-steady
			// induction there, formed with the inflow at the end of the
			// step (see startInput).
			u0 := base.startInput(k, j, out.work[k][j].wind, &r.p.BEMT)
			for c := 0; c < 2; c++ {
				next.v1[k][j][c], next.v[k][j][c] = oyeStep(base.v1[k][j][c], base.v[k][j][c], u0[c], uq[k][j][c], dt, t1, t2)
			}
		}
	}
	next.saveNodes(out)
	// tau1 for the next step comes from the inputs at its start (now).
	if r.p.DBEMTMod == DBEMTTauVary {
		next.tau1 = tau1
	}
	old := st.latest
	st.latest = next
	r.release(old)
	return next.v
}

// dynStates groups the rotor's time-dependent states.
type dynStates struct {
	committed, latest *dbemtState
	spare             []*dbemtState // buffers for reuse
	uq                [][][2]float64
	// first is kept from the first evaluation until the first state
	// update, which initialises the filters from it (initAtFirstStep).
	first *firstStep
}

// previousRoot is node j of blade k's BEM root at the latest time before
// t, the first guess of its solve at t (AeroDyn's BEMT constraint state
// z%phi, which its output and state update both start from); 0 (none)
// without a dynamic wake, before the first state and where the node had
// no root.
func (d *dynStates) previousRoot(t float64, k, j int) float64 {
	s := d.latest
	if s == nil || !(s.t < t) {
		s = d.committed
	}
	if s == nil || !s.ok || !(s.t < t) || !s.hasRoot[k][j] {
		return 0
	}
	return s.rootPhi[k][j]
}

// firstStep is what the first state update needs beyond the committed
// state: each node's blade section, the shaft axis and the rotor radius at
// the first evaluation, to solve the quasi-steady induction of the
// step-start input again with the inflow of the step's end.
type firstStep struct {
	sec    [][]NodeSection
	xh     Vec3
	radius float64
}

func newFirstStep(out *Output, xh Vec3, radius float64) *firstStep {
	f := &firstStep{sec: make([][]NodeSection, len(out.work)), xh: xh, radius: radius}
	for k := range out.work {
		f.sec[k] = make([]NodeSection, len(out.work[k]))
		for j := range out.work[k] {
			f.sec[k][j] = out.work[k][j].sec
		}
	}
	return f
}

// initAtFirstStep sets the filters of the state at the start of the first
// step in equilibrium with the quasi-steady induction of that step's start
// input, as AeroDyn does: its BEMT_UpdateStates, not yet initialised,
// solves the BEMT again (UpdatePhi) for the step-start input, which
// AD_UpdateStates forms with the inflow of the step's end (the wind at the
// newest input time and positions; see nodeFrame), and DBEMT_UpdateStates
// initialises both filter states with the induced velocities of that
// solution (DBEMT_InitStates) before it advances them. The solution shown
// at the first time (t = 0) is the one with the inflow of that time. In
// turbulent inflow the two differ by the change of the wind over one step;
// at nodes past stall the induction responds strongly to it (NREL 5 MW at
// 12 m/s, 10 rpm: node 6, DU35 at 17 deg, gets 3 % more induced velocity),
// and the filters keep that difference for several seconds. Its start
// input (saved inductions) and tau1 are those of the same solution.
func (r *Rotor) initAtFirstStep(base *dbemtState, out *Output) {
	f := r.dyn.first
	var aDisk float64
	var vSum Vec3
	n := 0
	for k := range base.v {
		for j := range base.v[k] {
			fr := &base.frame[k][j]
			wind := out.work[k][j].wind
			vx, vy := fr.inflow(wind)
			// The first time's root is the search's first guess, as
			// AeroDyn's z%phi is.
			guess := 0.0
			if base.hasRoot[k][j] {
				guess = base.rootPhi[k][j]
			}
			sol := SolveNodeFrom(vx, vy, &f.sec[k][j], &r.p.BEMT, true, guess)
			base.qa[k][j] = [2]float64{sol.AxInd, sol.TanInd}
			base.rootPhi[k][j], base.hasRoot[k][j] = sol.RootPhi, sol.HasRoot
			u0 := [2]float64{-sol.AxInd * vx, sol.TanInd * vy}
			base.v1[k][j], base.v[k][j] = u0, u0
			aDisk += sol.AxInd * r.diskWeight[k][j]
			vSum = add(vSum, sub(add(wind, fr.twr), fr.vel))
			n++
		}
	}
	if r.p.DBEMTMod == DBEMTTauVary && n > 0 {
		base.tau1 = DBEMTTau1(f.radius, aDisk, dot(scale(vSum, 1/float64(n)), f.xh))
	}
}

// applyDBEMT replaces the quasi-steady induction of every node by Øye's
// filtered induced velocities at time t. unDisk is the normal inflow of
// tau1: the disk-averaged relative wind (disturbed inflow minus blade
// motion, averaged over every node) projected on the shaft axis, AeroDyn's
// Un_disk. The mean of the nodes' own normal components Vx is smaller by
// the cosine of the cone and flap slope of each node (about 2 % on the
// NREL 5 MW at 12 m/s, 6 m tip deflection), which lengthened tau1.
func (r *Rotor) applyDBEMT(t float64, out *Output, rTip float64, xh Vec3, unDisk float64) {
	if len(r.dyn.uq) != len(out.work) {
		r.dyn.uq = make([][][2]float64, len(out.work))
	}
	uq := r.dyn.uq
	if len(r.dynSpan) != len(out.work) {
		r.dynSpan = make([][]float64, len(out.work))
	}
	r.initDiskWeights(out)
	var aDisk float64
	for k := range out.work {
		if len(uq[k]) != len(out.work[k]) {
			uq[k] = make([][2]float64, len(out.work[k]))
		}
		if len(r.dynSpan[k]) != len(out.work[k]) {
			r.dynSpan[k] = make([]float64, len(out.work[k]))
		}
		for j := range out.work[k] {
			w := &out.work[k][j]
			uq[k][j] = [2]float64{-w.sol.AxInd * w.vx, w.sol.TanInd * w.vy}
			r.dynSpan[k][j] = w.sec.RLocal
			aDisk += w.sol.AxInd * r.diskWeight[k][j]
		}
	}
	r.dynRadius = rTip
	tau1 := DBEMTTau1(rTip, aDisk, unDisk)
	v := r.advanceDBEMT(t, uq, tau1, xh, out)
	for k := range out.work {
		for j := range out.work[k] {
			w := &out.work[k][j]
			if w.sol.Fixed {
				continue
			}
			w.sol = finishInduced(w.vx, w.vy, v[k][j][0], v[k][j][1], &w.sec, w.sol.F)
		}
	}
}

// initDiskWeights sets, once, the weights of the disk-averaged axial
// induction that sets tau1 (dbemtDiskWeights: AeroDyn's kernel average
// around 70 % of the rotor radius, not the plain mean over all nodes), from
// the nodes' distances to the rotor axis at the first DBEMT evaluation.
func (r *Rotor) initDiskWeights(out *Output) {
	if len(r.diskWeight) == len(out.work) {
		return
	}
	rl := make([][]float64, len(out.work))
	for k := range out.work {
		rl[k] = make([]float64, len(out.work[k]))
		for j := range out.work[k] {
			rl[k][j] = out.work[k][j].sec.RLocal
		}
	}
	r.diskWeight = dbemtDiskWeights(rl)
}

// saveNodes keeps each node's quasi-steady inductions, BEM root, section
// and frame at the state's time.
func (s *dbemtState) saveNodes(out *Output) {
	for k := range out.work {
		for j := range out.work[k] {
			w := &out.work[k][j]
			s.qa[k][j] = [2]float64{w.sol.AxInd, w.sol.TanInd}
			s.rootPhi[k][j], s.hasRoot[k][j] = w.sol.RootPhi, w.sol.HasRoot
			s.sec[k][j] = w.sec
			s.frame[k][j] = w.frame(out.dist[k][j])
		}
	}
}

// startInput is the quasi-steady induced velocity at the state's time
// re-formed with the wind of the end of the step (see nodeFrame). As in
// AeroDyn's BEMT_UpdateStates, the inductions are those of the stored BEM
// root for the re-formed Vx, Vy (InductionsAtPhi), not the ones solved
// with the earlier inflow: the two differ where Vx changes sign between
// the inputs (the outer blade swinging downwind through the wind speed at
// start-up), where the momentum balance at the same phi gives other
// inductions; at the NREL 5 MW tip in the turbulent start-up (Vx within
// +-1.6 m/s of zero at 0.13-0.47 s, a' between -1 and 0) they differ
// mostly in the tangential component. Øye's first filter sees the
// input's change over the step through k tau1 du/dt, so these steps set
// the tip's tangential induction for several seconds.
// Nodes without a root (mirrored inflow, no valid root, fixed induction)
// keep their solved inductions.
func (s *dbemtState) startInput(k, j int, wind Vec3, opt *BEMTOptions) [2]float64 {
	vx, vy := s.frame[k][j].inflow(wind)
	a, ap := s.qa[k][j][0], s.qa[k][j][1]
	if s.hasRoot[k][j] {
		if ar, apr, ok := InductionsAtPhi(s.rootPhi[k][j], vx, vy, &s.sec[k][j], opt); ok {
			a, ap = ar, apr
		}
	}
	return [2]float64{-a * vx, ap * vy}
}

// dbemtDiskWeights returns the weights of the disk-averaged axial induction that
// sets tau1 with DBEMT_Mod 2, from each node's distance to the rotor axis
// rlocal[blade][node] at initialisation. AeroDyn does not take the plain mean
// over all nodes, which the near-zero induction of the root cylinders would
// drag down: each node gets the triweight kernel K(u) = 35/32 (1 - u^2)^3 of
// u = (r/r_max - 0.7)/0.1 clipped to [-1, 1], centred on 70 % of the radius
// (r_max the largest rlocal over all blades); the weights are normalised to
// sum 1 on each blade and divided by the number of blades, so
// AxIndAvg = sum over all nodes of w*a.
func dbemtDiskWeights(rlocal [][]float64) [][]float64 {
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
