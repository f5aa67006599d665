package substructure

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Input is what the substructure receives at one instant: the rigid-body
// motion of the TP reference point (translations in m and small rotations
// in rad, global axes, from the undisplaced TPRef) and the external loads
// at the FE nodes (global axes, N and N·m, e.g. strip-theory loads mapped
// onto the nodes), nil for none.
type Input struct {
	Disp, Vel, Acc [6]float64
	NodeLoads      [][6]float64
}

// Output is what the substructure computes at one instant.
type Output struct {
	// Interface is F_TP,cpl, the load the TP applies to the substructure
	// at the TP reference point (OpenFAST's IntfFXss … IntfMZss): the
	// substructure applies −Interface to the TP (SubDyn's y1).
	Interface [6]float64
	// TPLoad is the load on the TP without the term −EffectiveMass·Ü, for
	// a structural model that treats that mass implicitly.
	TPLoad [6]float64
	// Reaction is the load the ground applies to the structure at its
	// reaction joints, summed about (0, 0, −WtrDpth) (ReactFXss …).
	Reaction [6]float64
	// NodeDisp, NodeVel, NodeAcc are the motions of the FE nodes, global
	// axes (translations then small rotations).
	NodeDisp, NodeVel, NodeAcc [][6]float64
	// TPDisp and TPAcc are the TP motion of the input (IntfTDXss …).
	TPDisp, TPAcc [6]float64
}

// Sim advances the Craig–Bampton modal states in time.
type Sim struct {
	m     *Model
	q, qd []float64

	// exact one-step propagation for the current dt (per mode, inputs
	// linear over the step)
	dt     float64
	stepE  [][2][2]float64 // state transition
	stepG  [][2][2]float64 // response to [p(t), (p(t+dt)−p(t))/dt]
	fFull  []float64
	fRed   []float64
	fL, fB []float64
	uRed   []float64
	vRed   []float64
	aRed   []float64
	uFull  []float64
	aFull  []float64
	vFull  []float64
	p0, p1 []float64
	tmpL   []float64
	tmpM   []float64
	qdd    []float64
	vecL   *mat.VecDense
	sim    *mat.VecDense
}

// NewSim returns the time-domain model with the modal states at rest.
func NewSim(m *Model) *Sim {
	nF, nR, nL, nM := m.fem.nDOF, m.nRed, len(m.idxL), len(m.omega)
	s := &Sim{m: m, q: make([]float64, nM), qd: make([]float64, nM),
		fFull: make([]float64, nF), fRed: make([]float64, nR), fL: make([]float64, nL), fB: make([]float64, len(m.idxB)),
		uRed: make([]float64, nR), vRed: make([]float64, nR), aRed: make([]float64, nR),
		uFull: make([]float64, nF), vFull: make([]float64, nF), aFull: make([]float64, nF),
		p0: make([]float64, nM), p1: make([]float64, nM), tmpL: make([]float64, nL), tmpM: make([]float64, nM), qdd: make([]float64, nM)}
	s.vecL = mat.NewVecDense(max(nL, 1), nil)
	s.sim = mat.NewVecDense(max(nL, 1), nil)
	return s
}

// Model returns the reduced model.
func (s *Sim) Model() *Model { return s.m }

// States returns the modal coordinates and their rates (copies).
func (s *Sim) States() (q, qd []float64) {
	return append([]float64(nil), s.q...), append([]float64(nil), s.qd...)
}

// loads fills fFull, fRed, fL and fB for input u: gravity and pretension,
// the external nodal loads, and — SubDyn v5 always applies it — the moment
// of each nodal force about its Guyan-displaced position (theory manual,
// "Additional lever arm from external loads", fixed-bottom case:
// Δm_i = Δu_i × f_i with Δu_i the node's displacement for the TP motion).
func (s *Sim) loads(u *Input) error {
	m := s.m
	f := m.fem
	copy(s.fFull, f.Fg)
	if u.NodeLoads != nil {
		if len(u.NodeLoads) != len(f.Nodes) {
			return fmt.Errorf("substructure: %d nodal loads for %d nodes", len(u.NodeLoads), len(f.Nodes))
		}
		for n, l := range u.NodeLoads {
			for a := 0; a < 6; a++ {
				s.fFull[6*n+a] += l[a]
			}
		}
	}
	s.guyanRed(u.Disp[:], s.uRed)
	m.expandVec(s.uRed, s.uFull)
	for n := range f.Nodes {
		du := [3]float64{s.uFull[6*n], s.uFull[6*n+1], s.uFull[6*n+2]}
		fn := [3]float64{s.fFull[6*n], s.fFull[6*n+1], s.fFull[6*n+2]}
		c := cross(du, fn)
		s.fFull[6*n+3] += c[0]
		s.fFull[6*n+4] += c[1]
		s.fFull[6*n+5] += c[2]
	}
	m.reduceVec(s.fFull, s.fRed)
	for i, d := range m.idxL {
		s.fL[i] = s.fRed[d]
	}
	for i, d := range m.idxB {
		s.fB[i] = s.fRed[d]
	}
	return nil
}

// guyanRed writes the reduced displacements of a rigid TP motion x (6):
// TI·x on the interface, Φ_R·TI·x inside, zero at the clamped DOFs.
func (s *Sim) guyanRed(x []float64, dst []float64) {
	m := s.m
	for i := range dst {
		dst[i] = 0
	}
	for i, d := range m.idxB {
		r := m.tiR[6*i : 6*i+6]
		dst[d] = r[0]*x[0] + r[1]*x[1] + r[2]*x[2] + r[3]*x[3] + r[4]*x[4] + r[5]*x[5]
	}
	for i, d := range m.idxL {
		r := m.gR[6*i : 6*i+6]
		dst[d] = r[0]*x[0] + r[1]*x[1] + r[2]*x[2] + r[3]*x[3] + r[4]*x[4] + r[5]*x[5]
	}
}

// modalForce returns p = Φ_mᵀ·F_L − M̃_mB·Ü into dst (loads already set).
func (s *Sim) modalForce(acc [6]float64, dst []float64) {
	m := s.m
	for k := range dst {
		nL, nM := len(s.fL), len(dst)
		var v float64
		row := m.phiMTR[k*nL : (k+1)*nL]
		for i, x := range s.fL {
			v += row[i] * x
		}
		for a := 0; a < 6; a++ {
			v -= m.mBmR[a*nM+k] * acc[a]
		}
		dst[k] = v
	}
}

// setStep computes, for every mode, the exact propagation of
// q̈ + 2ζω q̇ + ω² q = p(t) over dt with p linear in the step: the
// exponential of the augmented system [x; p; ṗ] (gonum mat.Exp). It is
// unconditionally stable, so stiff high modes need no smaller step.
func (s *Sim) setStep(dt float64) {
	if dt == s.dt {
		return
	}
	s.dt = dt
	nM := len(s.m.omega)
	s.stepE = make([][2][2]float64, nM)
	s.stepG = make([][2][2]float64, nM)
	for k := 0; k < nM; k++ {
		w, z := s.m.omega[k], s.m.zeta[k]
		a := mat.NewDense(4, 4, []float64{
			0, 1, 0, 0,
			-w * w, -2 * z * w, 1, 0,
			0, 0, 0, 1,
			0, 0, 0, 0,
		})
		a.Scale(dt, a)
		var e mat.Dense
		e.Exp(a)
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				s.stepE[k][i][j] = e.At(i, j)
				s.stepG[k][i][j] = e.At(i, 2+j)
			}
		}
	}
}

// Step advances the modal states from t to t+dt with the inputs at t (u0)
// and at t+dt (u1).
func (s *Sim) Step(dt float64, u0, u1 *Input) error {
	if len(s.q) == 0 {
		return nil
	}
	if !(dt > 0) {
		return fmt.Errorf("substructure: time step must be positive, got %g", dt)
	}
	s.setStep(dt)
	if err := s.loads(u0); err != nil {
		return err
	}
	s.modalForce(u0.Acc, s.p0)
	if err := s.loads(u1); err != nil {
		return err
	}
	s.modalForce(u1.Acc, s.p1)
	for k := range s.q {
		e, g := &s.stepE[k], &s.stepG[k]
		slope := (s.p1[k] - s.p0[k]) / dt
		q := e[0][0]*s.q[k] + e[0][1]*s.qd[k] + g[0][0]*s.p0[k] + g[0][1]*slope
		qd := e[1][0]*s.q[k] + e[1][1]*s.qd[k] + g[1][0]*s.p0[k] + g[1][1]*slope
		if math.IsNaN(q) || math.IsInf(q, 0) || math.IsNaN(qd) || math.IsInf(qd, 0) {
			return fmt.Errorf("substructure: mode %d state is not finite", k+1)
		}
		s.q[k], s.qd[k] = q, qd
	}
	return nil
}

// Output computes the outputs at the current states for input u into y.
func (s *Sim) Output(u *Input, y *Output) error {
	m := s.m
	if err := s.loads(u); err != nil {
		return err
	}
	nM := len(s.q)
	if nM > 0 {
		s.modalForce(u.Acc, s.qdd)
		for k := range s.qdd {
			w := m.omega[k]
			s.qdd[k] -= 2*m.zeta[k]*w*s.qd[k] + w*w*s.q[k]
		}
	}
	// F_TP,cpl = M̃_BB·Ü + M̃_Bm·q̈ + C̃_BB·U̇ + K̃_BB·U − TIᵀ·(F_B + Φ_Rᵀ·F_L)
	var fc, inertia [6]float64
	eff := &m.effMass
	for a := 0; a < 6; a++ {
		v := 0.0
		for b := 0; b < 6; b++ {
			v += m.MBB[a][b]*u.Acc[b] + m.CBB[a][b]*u.Vel[b] + m.KBB[a][b]*u.Disp[b]
			inertia[a] += eff[a][b] * u.Acc[b]
		}
		for k := 0; k < nM; k++ {
			v += m.mBmR[a*nM+k] * s.qdd[k]
		}
		for i, x := range s.fB {
			v -= m.tiR[6*i+a] * x
		}
		for i, x := range s.fL {
			v -= m.gR[6*i+a] * x
		}
		fc[a] = v
	}
	// v5, bottom-fixed: the TP moment is taken about the displaced TP
	// (theory manual: m_TP,cpl − u_TP × f_TP,cpl).
	c := cross([3]float64{u.Disp[0], u.Disp[1], u.Disp[2]}, [3]float64{fc[0], fc[1], fc[2]})
	for a := 0; a < 3; a++ {
		fc[3+a] -= c[a]
	}
	y.Interface = fc
	y.TPDisp, y.TPAcc = u.Disp, u.Acc
	for a := 0; a < 6; a++ {
		y.TPLoad[a] = -(fc[a] - inertia[a])
	}
	// nodal motions in reduced DOFs
	s.guyanRed(u.Disp[:], s.uRed)
	s.guyanRed(u.Vel[:], s.vRed)
	s.guyanRed(u.Acc[:], s.aRed)
	for i, d := range m.idxL {
		for k := 0; k < nM; k++ {
			p := m.phiMR[i*nM+k]
			s.vRed[d] += p * s.qd[k]
			s.aRed[d] += p * s.qdd[k]
		}
	}
	if len(m.fem.attached) > 0 {
		s.attachedInertia()
	}
	if m.sttcSolve && len(m.idxL) > 0 {
		// static improvement: U_L,SIM = K_LL⁻¹·F_L − Φ_m·Ω⁻²·Φ_mᵀ·F_L
		copy(s.vecL.RawVector().Data, s.fL)
		if m.kllInv != nil {
			s.sim.MulVec(m.kllInv, s.vecL)
		} else if err := m.kllChl.SolveVecTo(s.sim, s.vecL); err != nil {
			return fmt.Errorf("substructure: static improvement: %w", err)
		}
		for i, d := range m.idxL {
			s.uRed[d] += s.sim.AtVec(i)
		}
		for k := 0; k < nM; k++ {
			var v float64
			row := m.phiMTR[k*len(s.fL) : (k+1)*len(s.fL)]
			for i, x := range s.fL {
				v += row[i] * x
			}
			s.tmpM[k] = v / (m.omega[k] * m.omega[k])
		}
		for i, d := range m.idxL {
			for k := 0; k < nM; k++ {
				s.uRed[d] -= m.phiMR[i*nM+k] * s.tmpM[k]
			}
		}
	}
	for i, d := range m.idxL {
		for k := 0; k < nM; k++ {
			s.uRed[d] += m.phiMR[i*nM+k] * s.q[k]
		}
	}
	m.expandVec(s.uRed, s.uFull)
	m.expandVec(s.vRed, s.vFull)
	m.expandVec(s.aRed, s.aFull)
	nn := len(m.fem.Nodes)
	if len(y.NodeDisp) != nn {
		y.NodeDisp, y.NodeVel, y.NodeAcc = make([][6]float64, nn), make([][6]float64, nn), make([][6]float64, nn)
	}
	for n := 0; n < nn; n++ {
		copy(y.NodeDisp[n][:], s.uFull[6*n:6*n+6])
		copy(y.NodeVel[n][:], s.vFull[6*n:6*n+6])
		copy(y.NodeAcc[n][:], s.aFull[6*n:6*n+6])
	}
	// base reaction: (M·ü + K·u − F) at each reaction node, about
	// (0, 0, −WtrDpth) (theory manual, "Reaction Calculation")
	y.Reaction = [6]float64{}
	ref := [3]float64{0, 0, -m.fem.opts.WtrDpth}
	nr := m.nRed
	for _, n := range m.reactNodes {
		r := m.redOf[n]
		var loc [6]float64
		for a := 0; a < 6; a++ {
			row := (6*r + a) * nr
			v := -s.fRed[6*r+a]
			for j := 0; j < nr; j++ {
				v += m.kRed[row+j]*s.uRed[j] + m.mRed[row+j]*s.aRed[j]
			}
			loc[a] = v
		}
		if sa := m.fem.soil[n]; sa != nil {
			// element loads only: take the soil spring and mass back out
			for a := 0; a < 6; a++ {
				for b := 0; b < 6; b++ {
					loc[a] -= sa.k[a][b]*s.uRed[6*r+b] + sa.m[a][b]*s.aRed[6*r+b]
				}
			}
		}
		arm := sub3(m.fem.Nodes[n].Pos, ref)
		mo := cross(arm, [3]float64{loc[0], loc[1], loc[2]})
		for a := 0; a < 3; a++ {
			y.Reaction[a] += loc[a]
			y.Reaction[3+a] += loc[3+a] + mo[a]
		}
	}
	return nil
}

// attachedInertia adds the inertia loads −M_a·ü of the attached masses
// (FEM.AttachMass) at the nodes' accelerations in aRed, with their lever-arm
// moments, to the nodal loads fFull, fRed and fL. The TP load has already
// been formed without them (its Guyan and modal masses include M_a, as
// they would include the same masses' loads applied from outside); the
// static improvement and the base reaction need them as loads, as when
// the added mass reaches the substructure as the hydrodynamic module's
// load (SubDyn theory manual, "Static Improvement Method" and "Reaction
// Calculation", with F_L the external loads).
func (s *Sim) attachedInertia() {
	m := s.m
	m.expandVec(s.aRed, s.aFull)
	for _, at := range m.fem.attached {
		n, mm := at.node, &at.m
		var f [6]float64
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				f[a] -= mm[a][b] * s.aFull[6*n+b]
			}
		}
		// uFull holds the Guyan displacement of loads()
		du := [3]float64{s.uFull[6*n], s.uFull[6*n+1], s.uFull[6*n+2]}
		c := cross(du, [3]float64{f[0], f[1], f[2]})
		for a := 0; a < 3; a++ {
			s.fFull[6*n+a] += f[a]
			s.fFull[6*n+3+a] += f[3+a] + c[a]
		}
	}
	m.reduceVec(s.fFull, s.fRed)
	for i, d := range m.idxL {
		s.fL[i] = s.fRed[d]
	}
}

// memberNodeLoad returns the stiffness (kind 'K') or inertia ('M') load at
// node k (0-based along the member) of member mi, in the member's element
// axes: −F(1:6) of the element starting there, +F(7:12) of the element
// ending there, the mean of the two inside (theory manual, "Nodal Loads
// Calculation"). Uses the displacements and accelerations of the latest
// Output.
func (s *Sim) memberNodeLoad(mi, k int, kind byte) [6]float64 {
	f := s.m.fem
	elems := f.memElems[mi]
	load := func(ei int, second bool) [6]float64 {
		e := &f.elems[ei]
		d := elemDOFs(e.n1, e.n2)
		var v [12]float64
		src := s.uFull
		mm := &e.kLoc
		if kind == 'M' {
			src = s.aFull
			mm = &e.mLoc
		}
		for a := 0; a < 12; a++ {
			v[a] = src[d[a]]
		}
		loc := vecToLocal(&v, &e.dc)
		var out [6]float64
		off, sign := 0, -1.0
		if second {
			off, sign = 6, 1
		}
		for a := 0; a < 6; a++ {
			var x float64
			for b := 0; b < 12; b++ {
				x += mm[off+a][b] * loc[b]
			}
			out[a] = sign * x
		}
		return out
	}
	switch {
	case k == 0:
		return load(elems[0], false)
	case k >= len(elems):
		return load(elems[len(elems)-1], true)
	default:
		a, b := load(elems[k-1], true), load(elems[k], false)
		var out [6]float64
		for i := range out {
			out[i] = (a[i] + b[i]) / 2
		}
		return out
	}
}

// Channel is one output channel: OpenFAST's name and unit, and its value
// after Output.
type Channel struct {
	Name string
	Unit string
	Get  func(y *Output) float64
}

var (
	memberChannel  = regexp.MustCompile(`^m([1-9])n([1-9])(fk|mk|fm|mm|rd|ta|ra)([xyz])e$`)
	memberDispChan = regexp.MustCompile(`^m([1-9])n([1-9])td([xyz])ss$`)
	intfMotionChan = regexp.MustCompile(`^intf(td|rd|ta|ra)([xyz])ss$`)
)

// Channel resolves a SubDyn output channel (case-insensitive; a leading
// '-', '_' or 'M' negates it, as in SubDyn's output lists): ReactFXss …
// ReactMZss, IntfFXss … IntfMZss, the TP motion IntfTDXss … IntfRAZss,
// and for the member output list the node loads MαNβFKxe … MαNβMMze (F/M
// force or moment, K stiffness or M inertia part, element axes), the
// displacements MαNβTDxss (global axes) and MαNβRDxe, MαNβTAxe, MαNβRAxe
// (element axes).
func (s *Sim) Channel(name string) (Channel, bool) {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "-") || strings.HasPrefix(n, "_") {
		return s.channel(name, n[1:], -1)
	}
	if c, ok := s.channel(name, n, 1); ok {
		return c, true
	}
	// a leading 'M' negates too, when the rest is a channel (OpenFAST's
	// output lists; "M1N1MKxe" itself is a member channel)
	if strings.HasPrefix(n, "m") {
		return s.channel(name, n[1:], -1)
	}
	return Channel{}, false
}

func (s *Sim) channel(name, n string, sign float64) (Channel, bool) {
	comps := []string{"fx", "fy", "fz", "mx", "my", "mz"}
	unit := func(i int) string {
		if i < 3 {
			return "N"
		}
		return "N*m"
	}
	for i, c := range comps {
		i := i
		switch n {
		case "react" + c + "ss":
			return Channel{name, unit(i), func(y *Output) float64 { return sign * y.Reaction[i] }}, true
		case "intf" + c + "ss":
			return Channel{name, unit(i), func(y *Output) float64 { return sign * y.Interface[i] }}, true
		}
	}
	if g := intfMotionChan.FindStringSubmatch(n); g != nil {
		comp := strings.Index("xyz", g[2])
		u, src := "m", func(y *Output) *[6]float64 { return &y.TPDisp }
		switch g[1] {
		case "rd":
			comp, u = comp+3, "rad"
		case "ta":
			u, src = "m/s^2", func(y *Output) *[6]float64 { return &y.TPAcc }
		case "ra":
			comp, u, src = comp+3, "rad/s^2", func(y *Output) *[6]float64 { return &y.TPAcc }
		}
		return Channel{name, u, func(y *Output) float64 { return sign * src(y)[comp] }}, true
	}
	if g := memberDispChan.FindStringSubmatch(n); g != nil {
		mi, node, ok := s.memberNode(g[1], g[2])
		if !ok {
			return Channel{}, false
		}
		comp := strings.Index("xyz", g[3])
		fn := s.m.fem.memNodes[mi][node]
		return Channel{name, "m", func(y *Output) float64 { return sign * y.NodeDisp[fn][comp] }}, true
	}
	g := memberChannel.FindStringSubmatch(n)
	if g == nil {
		return Channel{}, false
	}
	mi, node, ok := s.memberNode(g[1], g[2])
	if !ok {
		return Channel{}, false
	}
	comp := strings.Index("xyz", g[4])
	switch g[3] {
	case "rd", "ta", "ra":
		// node motion in the member's element axes
		f := s.m.fem
		e := &f.elems[f.memElems[mi][0]]
		fn := f.memNodes[mi][node]
		off, u, acc := 0, "m/s^2", true
		switch g[3] {
		case "rd":
			off, u, acc = 3, "rad", false
		case "ra":
			off, u = 3, "rad/s^2"
		}
		return Channel{name, u, func(y *Output) float64 {
			v := y.NodeDisp[fn]
			if acc {
				v = y.NodeAcc[fn]
			}
			var x float64
			for d := 0; d < 3; d++ {
				x += e.dc[d][comp] * v[off+d]
			}
			return sign * x
		}}, true
	}
	if g[3][0] == 'm' {
		comp += 3 // moment
	}
	kind := byte('K')
	if g[3][1] == 'm' {
		kind = 'M'
	}
	return Channel{name, unit(comp), func(*Output) float64 { return sign * s.memberNodeLoad(mi, node, kind)[comp] }}, true
}

// memberNode resolves the α (position in the member output list) and β
// (position in that row's node list) of a MαNβ channel to the member index
// and the 0-based node along it.
func (s *Sim) memberNode(a, b string) (mi, node int, ok bool) {
	sd := s.m.fem.sd
	alpha, _ := strconv.Atoi(a)
	beta, _ := strconv.Atoi(b)
	if alpha > len(sd.MemberOutputs) || beta > len(sd.MemberOutputs[alpha-1].Nodes) {
		return 0, 0, false
	}
	mo := sd.MemberOutputs[alpha-1]
	mi = -1
	for k, mem := range sd.Members {
		if mem.ID == mo.MemberID {
			mi = k
		}
	}
	if mi < 0 {
		return 0, 0, false
	}
	node = mo.Nodes[beta-1] - 1
	if node < 0 || node >= len(s.m.fem.memNodes[mi]) {
		return 0, 0, false
	}
	return mi, node, true
}
