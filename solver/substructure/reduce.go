package substructure

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// maxDenseInverse is the largest number of internal DOFs for which K_LL⁻¹
// is kept as a dense matrix (8 MB at 1000 DOFs).
const maxDenseInverse = 1000

// tEntry is one coefficient of the constraint matrix T (x = T·x̃).
type tEntry struct {
	red int
	c   float64
}

// Model is the Craig–Bampton reduced substructure.
type Model struct {
	fem *FEM

	nRed  int
	tRows [][]tEntry // per full DOF, its reduced DOFs (rigid links; identity otherwise)
	kRed  []float64  // nRed×nRed, constraints applied, base not yet removed
	mRed  []float64
	redOf []int // full node → reduced node (its leader's); -1 for none

	idxB, idxL []int // reduced DOFs: interface (B) and internal (L); fixed DOFs are neither
	posL       map[int]int
	posB       map[int]int
	reactNodes []int // full node indices of the reaction joints

	ti     *mat.Dense // nB×6, interface DOFs = TI·U_TP
	phiR   *mat.Dense // nL×nB, Guyan modes
	g      *mat.Dense // nL×6 = Φ_R·TI: internal DOFs of a rigid TP motion
	phiM   *mat.Dense // nL×nM, fixed-interface modes (mass-normalised)
	omega  []float64  // rad/s, nM
	zeta   []float64  // nM
	kllChl mat.Cholesky
	kllInv *mat.SymDense // K_LL⁻¹ when small enough to keep (static improvement)

	// 6×6 TP matrices (the "tilde" matrices of the theory manual)
	MBB, KBB, CBB [6][6]float64
	mBm           *mat.Dense // 6×nM
	phiMT         *mat.Dense // nM×nL

	sttcSolve bool
	effMass   [6][6]float64
	// row-major copies of ti (nB×6), g (nL×6), phiM (nL×nM), phiMT
	// (nM×nL) and mBm (6×nM) for the per-step loops
	tiR, gR, phiMR, phiMTR, mBmR []float64
}

func rawOf(x *mat.Dense) []float64 {
	if x == nil {
		return nil
	}
	r, c := x.Dims()
	out := make([]float64, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out[i*c+j] = x.At(i, j)
		}
	}
	return out
}

// FEM returns the unreduced model.
func (m *Model) FEM() *FEM { return m.fem }

// NumModes returns the number of fixed-interface modes kept.
func (m *Model) NumModes() int { return len(m.omega) }

// ModeFrequencies returns the fixed-interface mode frequencies, Hz.
func (m *Model) ModeFrequencies() []float64 {
	out := make([]float64, len(m.omega))
	for i, w := range m.omega {
		out[i] = w / (2 * math.Pi)
	}
	return out
}

// New assembles and reduces the substructure.
func New(f *FEM) (*Model, error) {
	sd := f.sd
	if len(sd.Reactions) == 0 {
		return nil, errors.New("substructure: no base reaction joint (NReact=0): floating substructures are not supported")
	}
	if len(sd.Interfaces) == 0 {
		return nil, errors.New("substructure: no interface joint (NInterf=0)")
	}
	m := &Model{fem: f, sttcSolve: sd.SttcSolve}
	if err := m.constrain(); err != nil {
		return nil, err
	}
	if err := m.partition(); err != nil {
		return nil, err
	}
	if err := m.reduce(); err != nil {
		return nil, err
	}
	return m, nil
}

// constrain eliminates the rigid links by direct elimination (SubDyn
// theory manual, "Rigid-links"): each assembly of rigidly linked nodes keeps
// one leader node (an interface node when there is one) and every follower
// moves as x_f = A·x_leader with A the rigid-body transfer over the arm.
func (m *Model) constrain() error {
	f := m.fem
	nn := len(f.Nodes)
	parent := make([]int, nn)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	special := map[int]bool{} // nodes of member ends at universal, pin and ball joints
	for _, sj := range f.special {
		for _, e := range sj.ends {
			special[e.node] = true
		}
	}
	for _, e := range f.elems {
		if e.kind == kindRigid {
			if special[e.n1] || special[e.n2] {
				return fmt.Errorf("substructure: member %d: a rigid link cannot end at a universal, pin or ball joint", f.sd.Members[e.member].ID)
			}
			parent[find(e.n1)] = find(e.n2)
		}
	}
	for _, sj := range f.special {
		n := f.jointIdx[sj.joint.ID]
		for _, it := range f.sd.Interfaces {
			if it.JointID == sj.joint.ID {
				return fmt.Errorf("substructure: line %d: interface joint %d must be a cantilever joint (JointType 1)", sj.joint.Line, sj.joint.ID)
			}
		}
		for _, r := range f.sd.Reactions {
			if r.JointID == sj.joint.ID {
				return fmt.Errorf("substructure: line %d: reaction joint %d must be a cantilever joint (JointType 1)", sj.joint.Line, sj.joint.ID)
			}
		}
		if len(sj.ends) == 0 {
			special[n] = false // a joint no member uses: an ordinary node
		}
	}
	iface := map[int]bool{}
	for _, it := range f.sd.Interfaces {
		iface[f.jointIdx[it.JointID]] = true
	}
	react := map[int]bool{}
	for _, r := range f.sd.Reactions {
		n, ok := f.jointIdx[r.JointID]
		if !ok {
			return fmt.Errorf("substructure: line %d: reaction at undefined joint %d", r.Line, r.JointID)
		}
		react[n] = true
	}
	leader := map[int]int{} // root → leader node
	for i := 0; i < nn; i++ {
		r := find(i)
		l, ok := leader[r]
		if !ok || (iface[i] && !iface[l]) || (react[i] && !iface[l] && !react[l]) {
			leader[r] = i
		}
	}
	m.redOf = make([]int, nn)
	redNode := map[int]int{}
	for i := 0; i < nn; i++ {
		l := leader[find(i)]
		if l == i && !special[i] {
			redNode[i] = len(redNode)
		}
	}
	m.nRed = 6 * len(redNode)
	m.tRows = make([][]tEntry, f.nDOF)
	for i := 0; i < nn; i++ {
		if special[i] {
			m.redOf[i] = -1
			continue
		}
		l := leader[find(i)]
		rl := redNode[l]
		m.redOf[i] = rl
		if l != i && (iface[i] || react[i]) {
			return fmt.Errorf("substructure: joint %d is rigidly linked to joint %d and is an interface or reaction joint; only one joint of a rigid assembly may be", f.Nodes[i].Joint, f.Nodes[l].Joint)
		}
		d := [3]float64{f.Nodes[i].Pos[0] - f.Nodes[l].Pos[0], f.Nodes[i].Pos[1] - f.Nodes[l].Pos[1], f.Nodes[i].Pos[2] - f.Nodes[l].Pos[2]}
		for a := 0; a < 6; a++ {
			row := []tEntry{{6*rl + a, 1}}
			if a < 3 && l != i {
				// u_i = u_l + θ_l × d
				s := skew(d)
				for b := 0; b < 3; b++ {
					if s[a][b] != 0 {
						row = append(row, tEntry{6*rl + 3 + b, -s[a][b]})
					}
				}
			}
			m.tRows[6*i+a] = row
		}
	}
	var springs []jointSpring
	for _, sj := range f.special {
		if len(sj.ends) == 0 {
			continue
		}
		sp, err := m.tieJoint(sj)
		if err != nil {
			return err
		}
		springs = append(springs, sp...)
	}
	m.kRed = m.project(f.K)
	m.mRed = m.project(f.M)
	for _, sp := range springs {
		m.kRed[sp.i*m.nRed+sp.j] += sp.k
	}
	return nil
}

// jointSpring is one entry of a joint's rotational stiffness on the
// reduced DOFs.
type jointSpring struct {
	i, j int
	k    float64
}

// tieJoint appends the reduced DOFs of a universal, pin or ball joint and
// sets the constraint rows of its member-end nodes (SubDyn theory manual,
// "Constraints introduced by Rotational Joints"): the ends share their
// translations; a ball joint keeps every end's rotations; a pin joint
// shares the rotations normal to its axis p̂ and keeps each end's rotation
// about p̂; a universal joint (two members) shares the mean rotation about
// the two member axes and keeps each end's rotations about its own x and y.
// The rotations are θ = T·θ̃ with T the pseudo-inverse Aᵀ(AAᵀ)⁻¹ of the
// map A from end rotations to joint DOFs. JointStiff is a rotational spring
// between the ends on their free rotations (pin and ball).
func (m *Model) tieJoint(sj *jointEnds) ([]jointSpring, error) {
	f := m.fem
	j := sj.joint
	n := len(sj.ends)
	base := m.nRed
	axes := make([][3][3]float64, n) // element axes (columns x, y, z) at each end
	for e, end := range sj.ends {
		elems := f.memElems[end.member]
		el := elems[0]
		if end.end == 1 {
			el = elems[len(elems)-1]
		}
		axes[e] = f.elems[el].dc
	}
	col := func(dc [3][3]float64, c int) [3]float64 { return [3]float64{dc[0][c], dc[1][c], dc[2][c]} }
	var rows [][]float64 // A, each row over the 3n end rotations
	put := func(row []float64, e int, v [3]float64, scale float64) {
		for a := 0; a < 3; a++ {
			row[3*e+a] += scale * v[a]
		}
	}
	var free []int // rows of A that are an end's own free rotation, by end
	switch j.Type {
	case 4: // ball
		for e := 0; e < n; e++ {
			for a := 0; a < 3; a++ {
				row := make([]float64, 3*n)
				row[3*e+a] = 1
				rows = append(rows, row)
			}
		}
	case 3: // pin
		p := j.Dir
		norm := math.Sqrt(p[0]*p[0] + p[1]*p[1] + p[2]*p[2])
		if norm == 0 {
			return nil, fmt.Errorf("substructure: line %d: pin joint %d needs its axis (JointDirX, JointDirY, JointDirZ)", j.Line, j.ID)
		}
		for a := range p {
			p[a] /= norm
		}
		// p1, p2: any orthonormal pair normal to p̂
		t := [3]float64{1, 0, 0}
		if math.Abs(p[0]) > 0.9 {
			t = [3]float64{0, 1, 0}
		}
		p1 := cross(p, t)
		l1 := math.Sqrt(p1[0]*p1[0] + p1[1]*p1[1] + p1[2]*p1[2])
		for a := range p1 {
			p1[a] /= l1
		}
		p2 := cross(p, p1)
		r1, r2 := make([]float64, 3*n), make([]float64, 3*n)
		for e := 0; e < n; e++ {
			put(r1, e, p1, 1/float64(n))
			put(r2, e, p2, 1/float64(n))
		}
		rows = append(rows, r1, r2)
		for e := 0; e < n; e++ {
			row := make([]float64, 3*n)
			put(row, e, p, 1)
			free = append(free, len(rows))
			rows = append(rows, row)
		}
	case 2: // universal
		if n != 2 {
			return nil, fmt.Errorf("substructure: line %d: universal joint %d joins %d members; it joins exactly two", j.Line, j.ID, n)
		}
		if j.Stiff != 0 {
			return nil, fmt.Errorf("substructure: line %d: universal joint %d: JointStiff is not supported for universal joints (set it to 0)", j.Line, j.ID)
		}
		r := make([]float64, 6)
		put(r, 0, col(axes[0], 2), 0.5)
		put(r, 1, col(axes[1], 2), 0.5)
		rows = append(rows, r)
		for e := 0; e < 2; e++ {
			for c := 0; c < 2; c++ {
				row := make([]float64, 6)
				put(row, e, col(axes[e], c), 1)
				rows = append(rows, row)
			}
		}
	}
	nr := len(rows)
	a := mat.NewDense(nr, 3*n, nil)
	for i, row := range rows {
		a.SetRow(i, row)
	}
	var aat, inv, t mat.Dense
	aat.Mul(a, a.T())
	if err := inv.Inverse(&aat); err != nil {
		return nil, fmt.Errorf("substructure: line %d: joint %d: its rotational constraints are degenerate (members along the pin axis?): %w", j.Line, j.ID, err)
	}
	t.Mul(a.T(), &inv) // 3n × nr
	m.nRed += 3 + nr
	for e, end := range sj.ends {
		for c := 0; c < 3; c++ {
			m.tRows[6*end.node+c] = []tEntry{{base + c, 1}}
			var row []tEntry
			for k := 0; k < nr; k++ {
				if v := t.At(3*e+c, k); math.Abs(v) > 1e-14 {
					row = append(row, tEntry{base + 3 + k, v})
				}
			}
			m.tRows[6*end.node+3+c] = row
		}
	}
	if j.Stiff == 0 || n < 2 {
		return nil, nil
	}
	// a spring k on the relative rotation of every pair of ends:
	// k·(n·I − 1·1ᵀ)/(n − 1) on each set of free rotations
	var sets [][]int
	switch j.Type {
	case 3:
		sets = [][]int{free}
	case 4:
		for c := 0; c < 3; c++ {
			var s []int
			for e := 0; e < n; e++ {
				s = append(s, 3*e+c)
			}
			sets = append(sets, s)
		}
	}
	var out []jointSpring
	for _, set := range sets {
		for _, p := range set {
			for _, q := range set {
				v := -j.Stiff / float64(n-1)
				if p == q {
					v = j.Stiff
				}
				out = append(out, jointSpring{base + 3 + p, base + 3 + q, v})
			}
		}
	}
	return out, nil
}

// project returns Tᵀ·X·T of a full nDOF×nDOF matrix.
func (m *Model) project(x []float64) []float64 {
	n, nr := m.fem.nDOF, m.nRed
	out := make([]float64, nr*nr)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := x[i*n+j]
			if v == 0 {
				continue
			}
			for _, a := range m.tRows[i] {
				for _, b := range m.tRows[j] {
					out[a.red*nr+b.red] += a.c * v * b.c
				}
			}
		}
	}
	return out
}

// reduceVec returns Tᵀ·v of a full load vector into dst (length nRed).
func (m *Model) reduceVec(v, dst []float64) {
	for i := range dst {
		dst[i] = 0
	}
	for i, x := range v {
		if x == 0 {
			continue
		}
		for _, a := range m.tRows[i] {
			dst[a.red] += a.c * x
		}
	}
}

// expandVec returns T·x̃ (full DOFs) of a reduced vector.
func (m *Model) expandVec(x, dst []float64) {
	for i := range dst {
		var s float64
		for _, a := range m.tRows[i] {
			s += a.c * x[a.red]
		}
		dst[i] = s
	}
}

// partition sorts the reduced DOFs into interface (B), internal (L) and
// clamped base DOFs, and builds TI (SubDyn theory manual, eq. "TI").
func (m *Model) partition() error {
	f := m.fem
	fixed := map[int]bool{}
	for _, r := range f.sd.Reactions {
		n := f.jointIdx[r.JointID]
		m.reactNodes = append(m.reactNodes, n)
		for a := 0; a < 6; a++ {
			if r.Fixed[a] || (f.soil[n] != nil && f.soil[n].clamped[a]) {
				fixed[6*m.redOf[n]+a] = true
			}
		}
	}
	inB := map[int]bool{}
	var ifaceNodes []int
	for _, it := range f.sd.Interfaces {
		n, ok := f.jointIdx[it.JointID]
		if !ok {
			return fmt.Errorf("substructure: line %d: interface at undefined joint %d", it.Line, it.JointID)
		}
		if it.Locked != [6]bool{true, true, true, true, true, true} {
			return fmt.Errorf("substructure: line %d: interface joint %d has a free DOF; only joints locked to the transition piece in all six DOFs are supported", it.Line, it.JointID)
		}
		if it.TPID != 1 {
			return fmt.Errorf("substructure: line %d: interface joint %d on transition piece %d; only one transition piece (TPID 1) is supported", it.Line, it.JointID, it.TPID)
		}
		for a := 0; a < 6; a++ {
			d := 6*m.redOf[n] + a
			if fixed[d] {
				return fmt.Errorf("substructure: joint %d is both a reaction and an interface joint", it.JointID)
			}
			if !inB[d] {
				inB[d] = true
				m.idxB = append(m.idxB, d)
			}
		}
		ifaceNodes = append(ifaceNodes, n)
	}
	sort.Ints(m.idxB)
	for d := 0; d < m.nRed; d++ {
		if !inB[d] && !fixed[d] {
			m.idxL = append(m.idxL, d)
		}
	}
	m.posL = map[int]int{}
	for i, d := range m.idxL {
		m.posL[d] = i
	}
	m.posB = map[int]int{}
	for i, d := range m.idxB {
		m.posB[d] = i
	}
	// TI: rows of the interface DOFs, a rigid-body transfer from the TP
	// reference point: u_i = u_TP + θ_TP × (p_i − p_TP).
	m.ti = mat.NewDense(len(m.idxB), 6, nil)
	for _, n := range ifaceNodes {
		d := sub3(f.Nodes[n].Pos, f.opts.TPRef)
		s := skew(d)
		for a := 0; a < 6; a++ {
			row := m.posB[6*m.redOf[n]+a]
			m.ti.Set(row, a, 1)
			if a < 3 {
				for b := 0; b < 3; b++ {
					m.ti.Set(row, 3+b, -s[a][b])
				}
			}
		}
	}
	return nil
}

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func (m *Model) block(x []float64, rows, cols []int) *mat.Dense {
	out := mat.NewDense(max(len(rows), 1), max(len(cols), 1), nil)
	if len(rows) == 0 || len(cols) == 0 {
		return out
	}
	for i, r := range rows {
		for j, c := range cols {
			out.Set(i, j, x[r*m.nRed+c])
		}
	}
	return out
}

func (m *Model) symBlock(x []float64, idx []int) *mat.SymDense {
	out := mat.NewSymDense(len(idx), nil)
	for i, r := range idx {
		for j := i; j < len(idx); j++ {
			out.SetSym(i, j, 0.5*(x[r*m.nRed+idx[j]]+x[idx[j]*m.nRed+r]))
		}
	}
	return out
}

// reduce computes the Guyan modes, the fixed-interface modes and the TP
// matrices (SubDyn theory manual, "Craig-Bampton Reduction" and "Boundary
// nodes: fixed DOFs and rigid connection to TP").
func (m *Model) reduce() error {
	sd := m.fem.sd
	nL, nB := len(m.idxL), len(m.idxB)
	kLL := m.symBlock(m.kRed, m.idxL)
	mLL := m.symBlock(m.mRed, m.idxL)
	if !m.kllChl.Factorize(kLL) {
		return errors.New("substructure: the stiffness of the internal DOFs is singular: the base reactions do not hold every rigid-body motion, or a node is connected by nothing stiff in some direction")
	}
	if nL <= maxDenseInverse {
		// one matrix–vector product per step instead of two triangular
		// solves (the static improvement runs every output)
		m.kllInv = mat.NewSymDense(nL, nil)
		if err := m.kllChl.InverseTo(m.kllInv); err != nil {
			return fmt.Errorf("substructure: inverse of the internal stiffness: %w", err)
		}
	}
	kLB := m.block(m.kRed, m.idxL, m.idxB)
	m.phiR = mat.NewDense(nL, nB, nil)
	if err := m.kllChl.SolveTo(m.phiR, kLB); err != nil {
		return fmt.Errorf("substructure: Guyan modes: %w", err)
	}
	m.phiR.Scale(-1, m.phiR)
	m.g = mat.NewDense(nL, 6, nil)
	m.g.Mul(m.phiR, m.ti)

	// fixed-interface modes: with K_LL = L·Lᵀ, the symmetric problem
	// (L⁻¹·M_LL·L⁻ᵀ)·z = λ·z has λ = 1/ω² and φ = L⁻ᵀ·z/√λ is
	// mass-normalised. This form needs only K_LL positive definite (M_LL
	// may be singular, e.g. massless rotations of cable nodes).
	nM := sd.Nmodes
	if nM < 0 {
		nM = nL
	}
	if nM > nL {
		return fmt.Errorf("substructure: Nmodes=%d is more than the %d internal DOFs", sd.Nmodes, nL)
	}
	if nM > 0 {
		var lt mat.TriDense
		m.kllChl.LTo(&lt)
		a := mat.NewDense(nL, nL, nil)
		mllD := mat.DenseCopyOf(mLL)
		// a = L⁻¹·M·L⁻ᵀ
		var tmp mat.Dense
		if err := tmp.Solve(&lt, mllD); err != nil {
			return fmt.Errorf("substructure: modes: %w", err)
		}
		var tmpT mat.Dense
		if err := tmpT.Solve(&lt, tmp.T()); err != nil {
			return fmt.Errorf("substructure: modes: %w", err)
		}
		a.Copy(&tmpT)
		sym := mat.NewSymDense(nL, nil)
		for i := 0; i < nL; i++ {
			for j := i; j < nL; j++ {
				sym.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
			}
		}
		var es mat.EigenSym
		if !es.Factorize(sym, true) {
			return errors.New("substructure: the fixed-interface eigenproblem did not converge")
		}
		lam := es.Values(nil)
		var z mat.Dense
		es.VectorsTo(&z)
		// largest λ = lowest frequency; EigenSym sorts ascending
		order := make([]int, nL)
		for i := range order {
			order[i] = nL - 1 - i
		}
		var lInvT mat.Dense // φ = L⁻ᵀ z
		var zz mat.Dense
		zz.CloneFrom(&z)
		if err := lInvT.Solve(lt.T(), &zz); err != nil {
			return fmt.Errorf("substructure: modes: %w", err)
		}
		m.phiM = mat.NewDense(nL, nM, nil)
		m.omega = make([]float64, nM)
		m.zeta = make([]float64, nM)
		for k := 0; k < nM; k++ {
			c := order[k]
			if lam[c] <= 0 {
				return fmt.Errorf("substructure: fixed-interface mode %d has no mass (a DOF without inertia); reduce Nmodes", k+1)
			}
			m.omega[k] = 1 / math.Sqrt(lam[c])
			s := 1 / math.Sqrt(lam[c])
			for i := 0; i < nL; i++ {
				m.phiM.Set(i, k, lInvT.At(i, c)*s)
			}
			d := sd.JDampings[len(sd.JDampings)-1]
			if k < len(sd.JDampings) {
				d = sd.JDampings[k]
			}
			m.zeta[k] = d / 100
		}
		m.phiMT = mat.DenseCopyOf(m.phiM.T())
	}

	// Guyan (B) matrices, then their TP form TIᵀ·X·TI.
	mBB := m.block(m.mRed, m.idxB, m.idxB)
	kBB := m.block(m.kRed, m.idxB, m.idxB)
	mBL := m.block(m.mRed, m.idxB, m.idxL)
	kBL := m.block(m.kRed, m.idxB, m.idxL)
	mLLd := mat.DenseCopyOf(mLL)
	var t1, t2 mat.Dense
	// M_BB + M_BL·Φ_R + Φ_Rᵀ·M_LB + Φ_Rᵀ·M_LL·Φ_R
	mb := mat.DenseCopyOf(mBB)
	t1.Mul(mBL, m.phiR)
	mb.Add(mb, &t1)
	mb.Add(mb, t1.T())
	t2.Mul(mLLd, m.phiR)
	var t3 mat.Dense
	t3.Mul(m.phiR.T(), &t2)
	mb.Add(mb, &t3)
	kb := mat.DenseCopyOf(kBB)
	var t4 mat.Dense
	t4.Mul(kBL, m.phiR)
	kb.Add(kb, &t4)
	tp := func(x *mat.Dense) [6][6]float64 {
		var a, b mat.Dense
		a.Mul(m.ti.T(), x)
		b.Mul(&a, m.ti)
		var o [6][6]float64
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				o[i][j] = 0.5 * (b.At(i, j) + b.At(j, i))
			}
		}
		return o
	}
	m.MBB = tp(mb)
	m.KBB = tp(kb)
	if nM > 0 {
		// M̃_Bm = TIᵀ·(M_BL + Φ_Rᵀ·M_LL)·Φ_m
		var a, b mat.Dense
		a.Mul(m.phiR.T(), mLLd)
		a.Add(&a, mBL)
		b.Mul(&a, m.phiM)
		m.mBm = mat.NewDense(6, nM, nil)
		m.mBm.Mul(m.ti.T(), &b)
	}
	m.effMass = m.MBB
	if m.mBm != nil {
		var p mat.Dense
		p.Mul(m.mBm, m.mBm.T())
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				m.effMass[i][j] -= p.At(i, j)
			}
		}
	}
	m.tiR, m.gR, m.phiMR, m.phiMTR, m.mBmR = rawOf(m.ti), rawOf(m.g), rawOf(m.phiM), rawOf(m.phiMT), rawOf(m.mBm)
	switch sd.GuyanDampMod {
	case 1:
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				m.CBB[i][j] = sd.RayleighDamp[0]*m.MBB[i][j] + sd.RayleighDamp[1]*m.KBB[i][j]
			}
		}
	case 2:
		m.CBB = sd.GuyanDamp
	}
	return nil
}

// Guyan returns the 6×6 mass, damping and stiffness of the substructure at
// the TP reference point (the Guyan-reduced, "tilde" matrices).
func (m *Model) Guyan() (mass, damping, stiffness [6][6]float64) {
	return m.MBB, m.CBB, m.KBB
}

// EffectiveMass returns M̃_BB − M̃_Bm·M̃_mB, the coefficient of the TP
// acceleration in the TP load once the modal accelerations are eliminated
// (theory manual, output equation of the fixed-bottom case): the mass a
// structural model should treat implicitly.
func (m *Model) EffectiveMass() [6][6]float64 { return m.effMass }

// FullFrequencies returns the lowest n natural frequencies (Hz) of the
// unreduced model with the base clamped and the interface free.
func (m *Model) FullFrequencies(n int) ([]float64, error) {
	idx := append(append([]int(nil), m.idxB...), m.idxL...)
	sort.Ints(idx)
	return generalizedFrequencies(m.symBlock(m.kRed, idx), m.symBlock(m.mRed, idx), n)
}

// ReducedFrequencies returns the lowest n natural frequencies (Hz) of the
// reduced model (6 TP DOFs and the kept modes) with the TP free.
func (m *Model) ReducedFrequencies(n int) ([]float64, error) {
	nM := len(m.omega)
	k := mat.NewSymDense(6+nM, nil)
	ms := mat.NewSymDense(6+nM, nil)
	for i := 0; i < 6; i++ {
		for j := i; j < 6; j++ {
			k.SetSym(i, j, m.KBB[i][j])
			ms.SetSym(i, j, m.MBB[i][j])
		}
		for j := 0; j < nM; j++ {
			ms.SetSym(i, 6+j, m.mBm.At(i, j))
		}
	}
	for j := 0; j < nM; j++ {
		k.SetSym(6+j, 6+j, m.omega[j]*m.omega[j])
		ms.SetSym(6+j, 6+j, 1)
	}
	return generalizedFrequencies(k, ms, n)
}

// generalizedFrequencies solves K·φ = ω²·M·φ through the Cholesky factor
// of K and returns the lowest n frequencies in Hz.
func generalizedFrequencies(k, ms *mat.SymDense, n int) ([]float64, error) {
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		return nil, errors.New("substructure: stiffness matrix not positive definite")
	}
	var lt mat.TriDense
	ch.LTo(&lt)
	var a, b mat.Dense
	if err := a.Solve(&lt, mat.DenseCopyOf(ms)); err != nil {
		return nil, err
	}
	if err := b.Solve(&lt, a.T()); err != nil {
		return nil, err
	}
	r, _ := b.Dims()
	sym := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			sym.SetSym(i, j, 0.5*(b.At(i, j)+b.At(j, i)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, false) {
		return nil, errors.New("substructure: eigenproblem did not converge")
	}
	lam := es.Values(nil)
	var out []float64
	for i := len(lam) - 1; i >= 0 && len(out) < n; i-- {
		if lam[i] > 0 {
			out = append(out, 1/math.Sqrt(lam[i])/(2*math.Pi))
		}
	}
	return out, nil
}
