package structure

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// State is the continuous state: generalized coordinates and speeds, both of
// length Model.NumDOF(). Disabled DOFs keep their values; when GenDOF is off
// QD[DOFGeAz] is the fixed rotor speed.
type State struct {
	Q  []float64
	QD []float64
}

// NewState returns a zero state of the model's size.
func (m *Model) NewState() *State {
	return &State{Q: make([]float64, m.nDOF), QD: make([]float64, m.nDOF)}
}

// CopyFrom copies o into s (same model).
func (s *State) CopyFrom(o *State) {
	copy(s.Q, o.Q)
	copy(s.QD, o.QD)
}

// Inputs are the structural model's inputs (ElastoDyn's u): aerodynamic
// point loads at the blade load stations, generator and brake torque from
// the controller, blade pitch angles and the yaw moment.
type Inputs struct {
	BladeForce  [][][3]float64 // [blade][station], N, global frame
	BladeMoment [][][3]float64 // [blade][station], N·m, global frame
	GenTrq      float64        // generator torque on the HSS, N·m
	HSSBrTrq    float64        // HSS brake torque, N·m
	BlPitch     []float64      // rad
	YawMom      float64        // yaw moment about the yaw axis, N·m
	TowerForce  [][3]float64   // [tower station], N, global frame
	// PtfmForce and PtfmMoment are the load on the platform at its
	// reference point, global frame (the offshore modules' loads without
	// their added-mass terms, see System.SetPlatformAddedMass).
	PtfmForce, PtfmMoment [3]float64
}

// NewInputs returns zero inputs sized for the model.
func (m *Model) NewInputs() *Inputs {
	u := &Inputs{
		BladeForce:  make([][][3]float64, m.p.NumBl),
		BladeMoment: make([][][3]float64, m.p.NumBl),
		BlPitch:     make([]float64, m.p.NumBl),
		TowerForce:  make([][3]float64, len(m.twrLoadElev)),
	}
	for k := range u.BladeForce {
		u.BladeForce[k] = make([][3]float64, len(m.loadR[k]))
		u.BladeMoment[k] = make([][3]float64, len(m.loadR[k]))
	}
	return u
}

// CopyFrom copies o into u (same shape).
func (u *Inputs) CopyFrom(o *Inputs) {
	for k := range u.BladeForce {
		copy(u.BladeForce[k], o.BladeForce[k])
		copy(u.BladeMoment[k], o.BladeMoment[k])
	}
	copy(u.BlPitch, o.BlPitch)
	copy(u.TowerForce, o.TowerForce)
	u.GenTrq, u.HSSBrTrq, u.YawMom = o.GenTrq, o.HSSBrTrq, o.YawMom
	u.PtfmForce, u.PtfmMoment = o.PtfmForce, o.PtfmMoment
}

// equal reports whether u and o hold the same values.
func (u *Inputs) equal(o *Inputs) bool {
	if u.GenTrq != o.GenTrq || u.HSSBrTrq != o.HSSBrTrq || u.YawMom != o.YawMom ||
		u.PtfmForce != o.PtfmForce || u.PtfmMoment != o.PtfmMoment ||
		!equalSlices(u.BlPitch, o.BlPitch) || len(u.TowerForce) != len(o.TowerForce) {
		return false
	}
	for k := range u.BladeForce {
		for i := range u.BladeForce[k] {
			if u.BladeForce[k][i] != o.BladeForce[k][i] || u.BladeMoment[k][i] != o.BladeMoment[k][i] {
				return false
			}
		}
	}
	for i := range u.TowerForce {
		if u.TowerForce[i] != o.TowerForce[i] {
			return false
		}
	}
	return true
}

// Blend sets u = a + f·(b − a): interpolation for 0 ≤ f ≤ 1, linear
// extrapolation beyond (f = 2 extrapolates one step from a at t−dt and b at t).
func (u *Inputs) Blend(a, b *Inputs, f float64) {
	lin := func(x, y float64) float64 { return x + f*(y-x) }
	for k := range u.BladeForce {
		for i := range u.BladeForce[k] {
			for c := 0; c < 3; c++ {
				u.BladeForce[k][i][c] = lin(a.BladeForce[k][i][c], b.BladeForce[k][i][c])
				u.BladeMoment[k][i][c] = lin(a.BladeMoment[k][i][c], b.BladeMoment[k][i][c])
			}
		}
	}
	for k := range u.BlPitch {
		u.BlPitch[k] = lin(a.BlPitch[k], b.BlPitch[k])
	}
	for i := range u.TowerForce {
		for c := 0; c < 3; c++ {
			u.TowerForce[i][c] = lin(a.TowerForce[i][c], b.TowerForce[i][c])
		}
	}
	u.GenTrq = lin(a.GenTrq, b.GenTrq)
	u.HSSBrTrq = lin(a.HSSBrTrq, b.HSSBrTrq)
	u.YawMom = lin(a.YawMom, b.YawMom)
	for c := 0; c < 3; c++ {
		u.PtfmForce[c] = lin(a.PtfmForce[c], b.PtfmForce[c])
		u.PtfmMoment[c] = lin(a.PtfmMoment[c], b.PtfmMoment[c])
	}
}

// Extrapolate2 sets u to the quadratic through a2 at t−2dt, a1 at t−dt and
// a0 at t, evaluated at t+dt: u = 3·a0 − 3·a1 + a2 (the equal-step form of
// OpenFAST's second-order input extrapolation, InterpOrder = 2).
func (u *Inputs) Extrapolate2(a2, a1, a0 *Inputs) {
	u.Combine3(1, a2, -3, a1, 3, a0)
}

// Combine3 sets u = wa·a + wb·b + wc·c, field by field.
func (u *Inputs) Combine3(wa float64, a *Inputs, wb float64, b *Inputs, wc float64, c *Inputs) {
	q := func(x, y, z float64) float64 { return wa*x + wb*y + wc*z }
	for k := range u.BladeForce {
		for i := range u.BladeForce[k] {
			for j := 0; j < 3; j++ {
				u.BladeForce[k][i][j] = q(a.BladeForce[k][i][j], b.BladeForce[k][i][j], c.BladeForce[k][i][j])
				u.BladeMoment[k][i][j] = q(a.BladeMoment[k][i][j], b.BladeMoment[k][i][j], c.BladeMoment[k][i][j])
			}
		}
	}
	for k := range u.BlPitch {
		u.BlPitch[k] = q(a.BlPitch[k], b.BlPitch[k], c.BlPitch[k])
	}
	for i := range u.TowerForce {
		for j := 0; j < 3; j++ {
			u.TowerForce[i][j] = q(a.TowerForce[i][j], b.TowerForce[i][j], c.TowerForce[i][j])
		}
	}
	u.GenTrq = q(a.GenTrq, b.GenTrq, c.GenTrq)
	u.HSSBrTrq = q(a.HSSBrTrq, b.HSSBrTrq, c.HSSBrTrq)
	u.YawMom = q(a.YawMom, b.YawMom, c.YawMom)
	for j := 0; j < 3; j++ {
		u.PtfmForce[j] = q(a.PtfmForce[j], b.PtfmForce[j], c.PtfmForce[j])
		u.PtfmMoment[j] = q(a.PtfmMoment[j], b.PtfmMoment[j], c.PtfmMoment[j])
	}
}

// axialBody is a rigid body with inertia about one axis only (ElastoDyn's
// hub, generator and nacelle-yaw inertias).
type axialBody struct {
	iner  float64
	axis  vec3
	spin  []float64 // partial spin rate about axis per DOF (relative to the shaft frame)
	point vec3      // where its reaction moment acts (for bookkeeping only)
}

// System evaluates the equations of motion of a Model. It holds the work
// buffers, so one System serves one simulation (not safe for concurrent use).
type System struct {
	m      *Model
	active []int // enabled DOFs
	moving []int // DOFs whose rate may be non-zero (active plus generator azimuth)

	c0   *config
	qTmp []float64
	// movingSet marks the moving DOFs; qdMoving is q̇ with the other DOFs'
	// rates zeroed (their coordinates do not move).
	movingSet []bool
	qdMoving  []float64
	// Blades: the apex's partial velocities per DOF off the blades, the
	// apex velocity and hub angular velocity, and each blade's mass
	// moments and gravity-inertia resultants (analyticCoefficients).
	// bladeOf is the blade of each point, −1 off the blades.
	vApex             []vec3
	vApexRate, omegaH vec3
	lump              []bladeLump
	bladeOf           []int
	// bladeDL holds each blade point's own-mode partial velocities in its
	// pitched frame's axes (the global ones are fj·dl).
	bladeDL [][3]vec3

	jac            []vec3   // [point*nDOF + dof] partial velocities
	omS            []vec3   // partial angular velocities of the shaft (nacelle) frame
	omJ            [][]vec3 // [blade][dof] partial angular velocities of the pitched blade frames
	abias          []vec3   // acceleration of each point at zero generalized acceleration (not kept for the massless blade load stations)
	omegaS, alphaS vec3
	// Platform frame: partial angular velocities, angular velocity and
	// angular acceleration at zero q̈ (floating models only).
	omP            []vec3
	omegaP, alphaP vec3
	// ptfmAM is the added mass about the platform reference point, global
	// frame, that the offshore modules left out of their loads.
	ptfmAM    [6][6]float64
	hasPtfmAM bool
	// The factored mass matrix and the state's share of the generalized
	// forces (assembleState), valid for coefficient version factorKey.
	chol        blas64.Triangular
	stateForce  []float64
	factorKey   int
	factorValid bool
	activeIndex []int // position of each DOF in active, −1 when disabled

	hubSpin, genSpin, noSpin []float64

	mass  *mat.Dense
	force *mat.VecDense
	sol   *mat.VecDense
	// Diagonal of the last assembled mass matrix (the factorization
	// overwrites it), for diagnostics and tests.
	massDiag []float64

	qdd        []float64 // last generalized accelerations (all DOFs)
	geAzMoving bool

	// The state and pitch the kinematic coefficients were last computed
	// for: Motions and Outputs at the same instant share them.
	keyQ, keyQD, keyPitch []float64
	keyValid              bool
	keyVersion            int // incremented whenever the coefficients are recomputed

	// Inputs and coefficient version of the last solved accelerations.
	lastInputs *Inputs
	lastKeyQ   int
	lastValid  bool
	genEffFac  float64
}

// NewSystem prepares the evaluation workspace.
func NewSystem(m *Model) *System {
	p := &m.p
	nd := m.nDOF
	s := &System{m: m}
	on := map[int]bool{
		DOFTFA1: p.DOF.TwFADOF1, DOFTFA2: p.DOF.TwFADOF2, DOFTSS1: p.DOF.TwSSDOF1, DOFTSS2: p.DOF.TwSSDOF2,
		DOFYaw: p.DOF.YawDOF, DOFGeAz: p.DOF.GenDOF, DOFDrTr: p.DOF.DrTrDOF,
		DOFSg: p.DOF.PtfmSgDOF, DOFSw: p.DOF.PtfmSwDOF, DOFHv: p.DOF.PtfmHvDOF,
		DOFR: p.DOF.PtfmRDOF, DOFP: p.DOF.PtfmPDOF, DOFY: p.DOF.PtfmYDOF,
	}
	for k := 0; k < p.NumBl; k++ {
		on[DOFBlade(k, ModeFlap1)] = p.DOF.FlapDOF1
		on[DOFBlade(k, ModeFlap2)] = p.DOF.FlapDOF2
		on[DOFBlade(k, ModeEdge1)] = p.DOF.EdgeDOF
	}
	for j := 0; j < nd; j++ {
		if on[j] {
			s.active = append(s.active, j)
		}
		if on[j] || j == DOFGeAz {
			s.moving = append(s.moving, j)
		}
	}
	for _, j := range s.moving {
		if j == DOFGeAz {
			s.geAzMoving = true
		}
	}
	s.c0 = m.newConfig()
	s.qTmp = make([]float64, nd)
	s.movingSet = make([]bool, nd)
	for _, j := range s.moving {
		s.movingSet[j] = true
	}
	s.qdMoving = make([]float64, nd)
	s.activeIndex = make([]int, nd)
	for j := range s.activeIndex {
		s.activeIndex[j] = -1
	}
	for a, j := range s.active {
		s.activeIndex[j] = a
	}
	s.vApex = make([]vec3, nd)
	s.lump = make([]bladeLump, p.NumBl)
	s.bladeDL = make([][3]vec3, m.nPoints)
	s.bladeOf = make([]int, m.nPoints)
	for i := range s.bladeOf {
		s.bladeOf[i] = -1
	}
	for k := 0; k < p.NumBl; k++ {
		i0 := m.ptBlade0 + k*(p.BldNodes+1)
		for j := 0; j <= p.BldNodes; j++ {
			s.bladeOf[i0+j] = k
		}
		for i := range m.loadR[k] {
			s.bladeOf[m.ptLoad0[k]+i] = k
		}
	}
	s.jac = make([]vec3, m.nPoints*nd)
	s.omS = make([]vec3, nd)
	s.omP = make([]vec3, nd)
	s.omJ = make([][]vec3, p.NumBl)
	for k := range s.omJ {
		s.omJ[k] = make([]vec3, nd)
	}
	s.abias = make([]vec3, m.nPoints)
	s.hubSpin = make([]float64, nd)
	s.hubSpin[DOFGeAz], s.hubSpin[DOFDrTr] = 1, 1
	s.genSpin = make([]float64, nd)
	s.genSpin[DOFGeAz] = p.GBRatio
	s.noSpin = make([]float64, nd)
	na := len(s.active)
	if na > 0 {
		s.mass = mat.NewDense(na, na, nil)
		s.force = mat.NewVecDense(na, nil)
		s.sol = mat.NewVecDense(na, nil)
		s.massDiag = make([]float64, na)
		s.stateForce = make([]float64, na)
	}
	s.qdd = make([]float64, nd)
	return s
}

// Model returns the model the system evaluates.
func (s *System) Model() *Model { return s.m }

// ActiveDOFs lists the enabled degrees of freedom.
func (s *System) ActiveDOFs() []int { return s.active }

// kinematicCoefficients computes the configuration, partial velocities and
// velocity-dependent accelerations at state st (analyticCoefficients),
// unless they are already those of st and pitch.
func (s *System) kinematicCoefficients(st *State, pitch []float64) {
	q, qd := st.Q, st.QD
	if s.keyValid && equalSlices(q, s.keyQ) && equalSlices(qd, s.keyQD) && equalSlices(pitch, s.keyPitch) {
		return
	}
	s.keyQ = append(s.keyQ[:0], q...)
	s.keyQD = append(s.keyQD[:0], qd...)
	s.keyPitch = append(s.keyPitch[:0], pitch...)
	s.keyValid = true
	s.keyVersion++
	s.analyticCoefficients(q, qd, pitch)
}

func (s *System) bodies() [3]axialBody {
	p := &s.m.p
	return [3]axialBody{
		{iner: p.HubIner, axis: s.c0.fs[0], spin: s.hubSpin},
		{iner: p.GenIner, axis: s.c0.fs[0], spin: s.genSpin},
		{iner: s.m.nacIner, axis: s.c0.fn[2], spin: s.noSpin},
	}
}

// Derivative evaluates the generalized accelerations q̈ (all DOFs, zero for
// disabled ones) at state st with inputs u: it assembles Kane's equations
// M q̈ = f over the enabled DOFs and solves them. The mass matrix, its
// Cholesky factor and the state's share of f (gravity, inertia, elastic and
// damping forces) depend on the state and pitch alone (assembleState), so
// a second evaluation at the same state with other inputs — the coupling's
// outputs after the aerodynamics at the state it just integrated to — only
// adds the applied loads and solves again.
func (s *System) Derivative(st *State, u *Inputs, qdd []float64) error {
	m := s.m
	nd := m.nDOF
	for j := 0; j < nd; j++ {
		if !isFinite(st.Q[j]) || !isFinite(st.QD[j]) {
			return fmt.Errorf("structure: DOF %s is not finite (position %v, speed %v)", DOFName(j), st.Q[j], st.QD[j])
		}
	}
	for k, v := range u.BlPitch {
		if !isFinite(v) {
			return fmt.Errorf("structure: blade %d pitch input is %v", k+1, v)
		}
	}
	if !isFinite(u.GenTrq) || !isFinite(u.HSSBrTrq) || !isFinite(u.YawMom) {
		return fmt.Errorf("structure: drive inputs not finite (GenTrq %v, HSSBrTrq %v, YawMom %v)", u.GenTrq, u.HSSBrTrq, u.YawMom)
	}
	s.kinematicCoefficients(st, u.BlPitch)
	// The coupling evaluates the outputs at t+dt and the next step's first
	// derivative at the same state with the same inputs: reuse the result.
	if s.lastValid && s.lastKeyQ == s.keyVersion && s.lastInputs.equal(u) {
		copy(qdd, s.qdd)
		return nil
	}
	s.lastValid = false
	for i := range qdd {
		qdd[i] = 0
	}
	na := len(s.active)
	if na == 0 {
		copy(s.qdd, qdd)
		return nil
	}
	if !s.factorValid || s.factorKey != s.keyVersion {
		if err := s.assembleState(st); err != nil {
			return err
		}
	}
	f := s.force.RawVector().Data
	copy(f, s.stateForce)
	s.inputForces(st, u, f)
	x := s.sol.RawVector().Data
	copy(x, f)
	lapack64.Potrs(s.chol, blas64.General{Rows: na, Cols: 1, Stride: 1, Data: x})
	for a, ja := range s.active {
		if math.IsNaN(x[a]) || math.IsInf(x[a], 0) {
			return fmt.Errorf("structure: acceleration of %s is %v", DOFName(ja), x[a])
		}
		qdd[ja] = x[a]
	}
	copy(s.qdd, qdd)
	if s.lastInputs == nil {
		s.lastInputs = m.NewInputs()
	}
	s.lastInputs.CopyFrom(u)
	s.lastKeyQ = s.keyVersion
	s.lastValid = true
	return nil
}

// assembleState assembles the mass matrix over the enabled DOFs and
// factors it (Cholesky, in place), and the generalized forces that depend
// on the state alone: gravity and the velocity-dependent inertia forces of
// every point mass and rotating body, the platform's rotational inertia
// and added mass, and the elastic and damping forces of the tower, blades
// and drivetrain.
func (s *System) assembleState(st *State) error {
	m := s.m
	p := &m.p
	nd := m.nDOF
	na := len(s.active)
	s.factorValid = false
	M := s.mass.RawMatrix()
	for i := range M.Data {
		M.Data[i] = 0
	}
	f := s.stateForce
	for i := range f {
		f[i] = 0
	}
	g := vec3{0, 0, -p.Gravity}
	qd := st.QD
	q := st.Q

	// Point masses off the blades (the blades follow in rotorState).
	for i := 0; i < m.nPoints; i++ {
		mi := m.ptMass[i]
		if mi <= 0 || s.bladeOf[i] >= 0 {
			continue
		}
		L := g.sub(s.abias[i]).scale(mi)
		Ji := s.jac[i*nd : (i+1)*nd]
		for a, ja := range s.active {
			va := Ji[ja]
			if va == (vec3{}) {
				continue
			}
			f[a] += va.dot(L)
			row := M.Data[a*M.Stride:]
			for b := 0; b <= a; b++ {
				row[b] += mi * va.dot(Ji[s.active[b]])
			}
		}
	}
	s.rotorState(M.Data, M.Stride, f)
	// Rotating bodies with inertia about a single axis (hub, generator,
	// nacelle): F*ⱼ = −I(Ωⱼ·a)(α·a) − I(ω·a)Ωⱼ·(ω×a) (Kane).
	for _, b := range s.bodies() {
		if b.iner == 0 {
			continue
		}
		lam := s.omegaS.dot(b.axis)
		for _, j := range s.moving {
			lam += b.spin[j] * qd[j]
		}
		gyro := s.omegaS.cross(b.axis)
		aBias := s.alphaS.dot(b.axis)
		for a, ja := range s.active {
			pa := s.omS[ja].dot(b.axis) + b.spin[ja]
			f[a] -= b.iner * (pa*aBias + lam*s.omS[ja].dot(gyro))
			row := M.Data[a*M.Stride:]
			for c := 0; c <= a; c++ {
				jc := s.active[c]
				row[c] += b.iner * pa * (s.omS[jc].dot(b.axis) + b.spin[jc])
			}
		}
	}
	if m.floating {
		s.platformState(M.Data, M.Stride, f)
	}
	// Elastic, damping and drivetrain generalized forces.
	gf := make0(s.qTmp)
	for k := 0; k < p.NumBl; k++ {
		d0 := DOFBlade(k, 0)
		for a := 0; a < 3; a++ {
			for c := 0; c < 3; c++ {
				gf[d0+a] -= m.bK[k][a][c]*q[d0+c] + m.bC[k][a][c]*qd[d0+c]
			}
		}
	}
	fa := [2]int{DOFTFA1, DOFTFA2}
	ss := [2]int{DOFTSS1, DOFTSS2}
	for a := 0; a < 2; a++ {
		for c := 0; c < 2; c++ {
			gf[fa[a]] -= m.kFA[a][c]*q[fa[c]] + m.cFA[a][c]*qd[fa[c]]
			gf[ss[a]] -= m.kSS[a][c]*q[ss[c]] + m.cSS[a][c]*qd[ss[c]]
		}
	}
	gf[DOFDrTr] -= p.DTTorSpr*q[DOFDrTr] + p.DTTorDmp*qd[DOFDrTr]
	for a, ja := range s.active {
		f[a] += gf[ja]
	}
	// Symmetric fill and factorization.
	for a := 0; a < na; a++ {
		for b := a + 1; b < na; b++ {
			M.Data[a*M.Stride+b] = M.Data[b*M.Stride+a]
		}
	}
	// M is symmetric positive definite: Cholesky factorization in place
	// (LAPACK dpotrf through gonum), without allocation; Derivative solves
	// with it (dpotrs) for each set of inputs at this state.
	for a := 0; a < na; a++ {
		s.massDiag[a] = M.Data[a*M.Stride+a]
	}
	sym := blas64.Symmetric{N: na, Stride: M.Stride, Data: M.Data, Uplo: blas.Lower}
	tri, ok := lapack64.Potrf(sym)
	if !ok {
		big, bv := 0, 0.0
		for _, j := range s.active {
			if v := math.Abs(st.Q[j]); v > bv {
				big, bv = j, v
			}
		}
		return fmt.Errorf("structure: mass matrix is not positive definite; the state has probably diverged (largest coordinate: DOF %s = %.4g)", DOFName(big), st.Q[big])
	}
	s.chol = tri
	s.factorKey = s.keyVersion
	s.factorValid = true
	return nil
}

// inputForces adds the generalized forces of the inputs to f: the
// aerodynamic loads on the blades and tower, the platform load, the
// generator and brake torque through the gearbox, and the yaw moment.
func (s *System) inputForces(st *State, u *Inputs, f []float64) {
	m := s.m
	p := &m.p
	nd := m.nDOF
	s.rotorLoads(u, f)
	for i := range m.twrLoadElev {
		F := vec3(u.TowerForce[i])
		if F == (vec3{}) {
			continue
		}
		Ji := s.jac[(m.ptTwrLoad0+i)*nd : (m.ptTwrLoad0+i+1)*nd]
		for a, ja := range s.active {
			f[a] += Ji[ja].dot(F)
		}
	}
	if m.floating {
		F, Mo := vec3(u.PtfmForce), vec3(u.PtfmMoment)
		Jref := s.jac[m.ptPtfmRef*nd : (m.ptPtfmRef+1)*nd]
		for a, ja := range s.active {
			f[a] += Jref[ja].dot(F) + s.omP[ja].dot(Mo)
		}
	}
	// Gearbox losses: the LSS carries GBRatio·T/η when power flows to the
	// generator and GBRatio·T·η when it flows back (ElastoDyn GBoxEffFac).
	hss := u.GenTrq + s.brakeTorque(u.HSSBrTrq, st.QD[DOFGeAz])
	s.genEffFac = p.GBoxEff
	if hss*st.QD[DOFGeAz] < 0 {
		s.genEffFac = 1 / p.GBoxEff
	}
	if a := s.activeIndex[DOFGeAz]; a >= 0 {
		f[a] -= p.GBRatio * hss / s.genEffFac
	}
	if a := s.activeIndex[DOFYaw]; a >= 0 {
		f[a] += u.YawMom
	}
}

// rotorState adds the blades' share of the generalized mass matrix (lower
// triangle, row stride ld) and of the state's forces (gravity and inertia)
// through the mass moments of bladeLump. For a DOF r off the blades every
// blade point moves with v_apex,r + ωᵣ × r, so the loads enter as
// v_apex,r·ΣL + ωᵣ·Σ r × L and the masses as
// m v_apex,r·v_apex,s + v_apex,r·(ωₛ × S) + v_apex,s·(ωᵣ × S) + ωᵣ·I·ωₛ
// (S the first moment, I the inertia tensor about the apex, all blades
// together: ωᵣ and v_apex,r are the same for every blade). A blade's own
// modes couple through Σm φₘ, Σm r × φₘ and Σm φₘ·φₙ.
func (s *System) rotorState(M []float64, ld int, f []float64) {
	p := &s.m.p
	var mass float64
	var first, force, moment vec3
	var inertia [3][3]float64
	for k := 0; k < p.NumBl; k++ {
		lk := &s.lump[k]
		mass += lk.mass
		first = first.add(lk.first)
		for x := 0; x < 3; x++ {
			for y := 0; y < 3; y++ {
				inertia[x][y] += lk.inertia[x][y]
			}
		}
		force, moment = force.add(lk.force), moment.add(lk.moment)
		d0 := DOFBlade(k, 0)
		for a, ja := range s.active {
			md := ja - d0
			if md < 0 || md >= 3 {
				continue
			}
			f[a] += lk.modeForce[md]
			row := M[a*ld:]
			for b := 0; b <= a; b++ {
				jb := s.active[b]
				switch {
				case jb < dofBlade0:
					row[b] += s.vApex[jb].dot(lk.modeMom[md]) + s.omJ[k][jb].dot(lk.modeAng[md])
				case jb >= d0:
					row[b] += lk.modeMass[md][jb-d0]
				}
			}
		}
	}
	om := s.omJ[0]
	for a, ja := range s.active {
		if ja >= dofBlade0 {
			break // the active DOFs are in ascending order
		}
		va, wa := s.vApex[ja], om[ja]
		f[a] += va.dot(force) + wa.dot(moment)
		waS := wa.cross(first)
		Iwa := mul33(&inertia, wa)
		row := M[a*ld:]
		for b := 0; b <= a; b++ {
			jb := s.active[b]
			vb, wb := s.vApex[jb], om[jb]
			row[b] += mass*va.dot(vb) + vb.dot(waS) + va.dot(wb.cross(first)) + Iwa.dot(wb)
		}
	}
}

// rotorLoads adds the generalized forces of the aerodynamic point loads
// on the blades: v_apex,r·ΣF + ωᵣ·Σ(r × F + M) for the DOFs off the
// blades, φₘ·F plus the section's slope rotation times M for a blade's own
// modes.
func (s *System) rotorLoads(u *Inputs, f []float64) {
	m := s.m
	p := &m.p
	c := s.c0
	var force, moment vec3
	for k := 0; k < p.NumBl; k++ {
		var F, Mo vec3
		var modal [3]float64
		fj := &c.fj[k]
		d0 := DOFBlade(k, 0)
		for i := range m.loadR[k] {
			Fi := vec3(u.BladeForce[k][i])
			Mi := vec3(u.BladeMoment[k][i])
			if Fi == (vec3{}) && Mi == (vec3{}) {
				continue
			}
			pt := m.ptLoad0[k] + i
			F = F.add(Fi)
			Mo = Mo.add(c.pos[pt].sub(c.apex).cross(Fi)).add(Mi)
			// In the pitched frame: the mode partial dlₘ and the section
			// rotation from the mode slope (small angle), (−Φy′ₘ, Φx′ₘ, 0).
			Fl, Ml := fj.local(Fi), fj.local(Mi)
			dl := &s.bladeDL[pt]
			sh := &m.loadShape[k][i]
			for md := 0; md < 3; md++ {
				modal[md] += dl[md].dot(Fl) - sh.sy[md]*Ml[0] + sh.sx[md]*Ml[1]
			}
		}
		force, moment = force.add(F), moment.add(Mo)
		for md := 0; md < 3; md++ {
			if a := s.activeIndex[d0+md]; a >= 0 {
				f[a] += modal[md]
			}
		}
	}
	om := s.omJ[0]
	for a, ja := range s.active {
		if ja >= dofBlade0 {
			break
		}
		f[a] += s.vApex[ja].dot(force) + om[ja].dot(moment)
	}
}

// SetPlatformAddedMass sets the added mass about the platform reference
// point (global frame; rows and columns surge, sway, heave, roll, pitch,
// yaw) that the platform loads in Inputs leave out: the offshore modules'
// −A·[a; α] terms, which the equations of motion then carry in the mass
// matrix (implicitly) instead of as a lagged load.
func (s *System) SetPlatformAddedMass(a [6][6]float64) {
	if a == s.ptfmAM {
		return
	}
	s.ptfmAM = a
	s.hasPtfmAM = a != [6][6]float64{}
	s.lastValid = false
	s.factorValid = false
}

// platformState adds the platform's rigid-body rotational inertia and its
// added mass to the mass matrix (lower triangle, row stride ld) and their
// velocity-dependent forces to f (the applied platform load is an input:
// inputForces). The platform's mass acts at its CM point with the other
// point masses.
//
// Rotational inertia (Kane): the generalized inertia force of a rigid body
// with inertia tensor I (global axes) and angular velocity ω is
// F*ᵣ = −ωᵣ·(I·α + ω × I·ω), ωᵣ its partial angular velocities, so
// ωᵣ·I·ωₛ enters the mass matrix and −ωᵣ·(I·α₀ + ω × I·ω) the forces, α₀
// the angular acceleration at zero q̈. The added mass A acts on the
// reference point's acceleration [a; α] = Σ Jᵣ q̈ᵣ + [a₀; α₀] (Jᵣ the
// stacked partial velocity and angular velocity): Jᵣᵀ·A·Jₛ enters the mass
// matrix and −Jᵣᵀ·A·[a₀; α₀] the forces.
func (s *System) platformState(M []float64, ld int, f []float64) {
	m := s.m
	nd := m.nDOF
	fp := &s.c0.fp
	// I in global axes: R·I_body·Rᵀ with R's columns the platform axes.
	var Ig [3][3]float64
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			var v float64
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					v += fp[i][a] * m.ptfmIner[i][j] * fp[j][b]
				}
			}
			Ig[a][b] = v
		}
	}
	mul := func(v vec3) vec3 {
		return vec3{Ig[0][0]*v[0] + Ig[0][1]*v[1] + Ig[0][2]*v[2],
			Ig[1][0]*v[0] + Ig[1][1]*v[1] + Ig[1][2]*v[2],
			Ig[2][0]*v[0] + Ig[2][1]*v[1] + Ig[2][2]*v[2]}
	}
	w := s.omegaP
	rot := mul(s.alphaP).add(w.cross(mul(w)))
	ref := m.ptPtfmRef
	Jref := s.jac[ref*nd : (ref+1)*nd]
	var amBias [6]float64
	if s.hasPtfmAM {
		b := [6]float64{s.abias[ref][0], s.abias[ref][1], s.abias[ref][2], s.alphaP[0], s.alphaP[1], s.alphaP[2]}
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				amBias[i] += s.ptfmAM[i][j] * b[j]
			}
		}
	}
	for a, ja := range s.active {
		wa := s.omP[ja]
		va := Jref[ja]
		f[a] -= wa.dot(rot)
		Iwa := mul(wa)
		row := M[a*ld:]
		for c := 0; c <= a; c++ {
			row[c] += Iwa.dot(s.omP[s.active[c]])
		}
		if !s.hasPtfmAM {
			continue
		}
		Ja := [6]float64{va[0], va[1], va[2], wa[0], wa[1], wa[2]}
		var AJa [6]float64 // Aᵀ·Jₐ (A need not be symmetric; the matrix is symmetrised below)
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				AJa[j] += Ja[i] * s.ptfmAM[i][j]
			}
			f[a] -= Ja[i] * amBias[i]
		}
		for c := 0; c <= a; c++ {
			jc := s.active[c]
			vc, wc := Jref[jc], s.omP[jc]
			Jc := [6]float64{vc[0], vc[1], vc[2], wc[0], wc[1], wc[2]}
			var v float64
			for j := 0; j < 6; j++ {
				v += AJa[j] * Jc[j]
			}
			row[c] += v
		}
	}
}

// brakeTorque is the HSS brake's torque on the shaft (N·m, in the sense of
// the generator torque: it opposes the rotation) for a brake able to
// apply |capacity| (ServoDyn's HSSBrTrqC; its sign is the shaft's sense
// when the command was made) at the generator-azimuth rate qdGeAz. A disc
// brake is Coulomb friction: full torque against a turning shaft, and a
// standing shaft held by whatever torque keeps it still up to the capacity
// (ElastoDyn holds it with FixHSSBrTq). Here the friction is regularised:
// below the slip speed ω_s the torque falls linearly to zero, so a braked
// shaft comes to rest instead of chattering as the full torque flips sign
// every step, and creeps at ω_s·(load/capacity) at most while held.
// ω_s = 2·|capacity|·DT/GenIner, the speed the full torque changes the
// generator alone by in two steps, keeps the friction's damping rate on the
// generator (|capacity|/(ω_s·GenIner) = 1/(2 DT)) inside the integrators'
// stability region; for the NREL 5 MW at DT = 0.01 s it is 1.05 rad/s at
// the HSS (0.10 rpm at the rotor).
func (s *System) brakeTorque(capacity, qdGeAz float64) float64 {
	p := &s.m.p
	if capacity == 0 || !(p.GenIner > 0) {
		return capacity
	}
	c := math.Abs(capacity)
	slip := 2 * c * p.DT / p.GenIner
	return c * math.Max(-1, math.Min(1, qdGeAz*p.GBRatio/slip))
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func equalSlices(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func make0(b []float64) []float64 {
	for i := range b {
		b[i] = 0
	}
	return b
}

// DOFName is ElastoDyn's name of a degree of freedom.
func DOFName(j int) string {
	switch j {
	case DOFSg:
		return "Sg"
	case DOFSw:
		return "Sw"
	case DOFHv:
		return "Hv"
	case DOFR:
		return "R"
	case DOFP:
		return "P"
	case DOFY:
		return "Y"
	case DOFTFA1:
		return "TFA1"
	case DOFTSS1:
		return "TSS1"
	case DOFTFA2:
		return "TFA2"
	case DOFTSS2:
		return "TSS2"
	case DOFYaw:
		return "Yaw"
	case DOFGeAz:
		return "GeAz"
	case DOFDrTr:
		return "DrTr"
	}
	if j >= dofBlade0 {
		k, md := (j-dofBlade0)/3, (j-dofBlade0)%3
		return fmt.Sprintf("%s%d", [3]string{"BF1_", "BE1_", "BF2_"}[md], k+1)
	}
	return fmt.Sprintf("DOF%d", j)
}
