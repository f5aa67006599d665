// Package substructure is a linear frame finite-element model of an
// offshore substructure reduced by Craig–Bampton, the equivalent of
// OpenFAST's SubDyn (Damiani, Jonkman & Hayman 2015, "SubDyn User's Guide
// and Theory Manual", NREL/TP-5000-63062; OpenFAST documentation
// docs/source/user/subdyn/theory.rst).
//
// Members are split into NDiv beam elements (Euler–Bernoulli or Timoshenko
// 12-DOF elements with consistent mass), cables, rigid links (linear
// multipoint constraints) and springs; joints are cantilever, universal,
// pin or ball joints and carry concentrated masses; base reaction joints
// are clamped DOF by DOF or stand on soil springs (SSI files). The interface joints are
// rigidly tied to the transition-piece (TP) reference point. The model is
// reduced to the 6 TP DOFs (Guyan modes, Φ_R = −K_LL⁻¹K_LR) plus Nmodes
// fixed-interface modes (K_LL φ = ω² M_LL φ, Craig & Bampton 1968). In time
// the modal coordinates are advanced from the TP motion and the nodal
// loads; the outputs are the load on the TP, the base reaction and member
// nodal loads under OpenFAST's channel names.
package substructure

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Options are the inputs of the model that are not in the SubDyn file.
type Options struct {
	Gravity float64    // m/s² (the .fst Gravity)
	WtrDpth float64    // m: the overall base reaction is reported about (0, 0, −WtrDpth)
	TPRef   [3]float64 // TP reference point (ElastoDyn's platform reference point)
}

// Node is a finite-element node: a joint, or a point inside a subdivided
// member.
type Node struct {
	Pos   [3]float64
	Joint int // joint ID, 0 for a subdivision node
}

type elemKind int

const (
	kindBeam elemKind = iota
	kindCable
	kindRigid
	kindSpring
)

type element struct {
	n1, n2 int
	kind   elemKind
	dc     [3][3]float64
	kLoc   mat12 // local axes
	mLoc   mat12
	kG, mG mat12 // global axes
	f0     [12]float64
	member int // index in SubDyn.Members
}

// FEM is the assembled, unreduced finite-element model.
type FEM struct {
	Nodes    []Node
	elems    []element
	nDOF     int
	K, M     []float64 // nDOF×nDOF row-major (symmetric)
	Fg       []float64 // gravity and cable pretension loads, nDOF
	memNodes [][]int   // per member, its node indices from joint 1 to joint 2
	memElems [][]int   // per member, its element indices in the same order
	sd       *deck.SubDyn
	opts     Options
	jointIdx map[int]int     // joint ID → node index
	soil     map[int]*soilAt // reaction node → its SSI spring and mass
	special  []*jointEnds    // universal, pin and ball joints
	// attached holds the masses other modules attach to nodes without
	// weight (AttachMass), one entry per node.
	attached []attachedMass
}

type attachedMass struct {
	node int
	m    [6][6]float64
}

// AttachMass adds a 6×6 mass about node n (global axes, translations then
// rotations) that moves with the node but whose weight the substructure
// does not carry: the strip-theory added mass of the water around a member
// (its weight is the buoyancy's business, and the flooded fluid's and
// marine growth's weights reach the nodes as loads). It enters the mass
// matrix, so the Craig–Bampton reduction, the modes and the Guyan mass
// include it, but not the gravity loads Fg. Call it before New.
func (f *FEM) AttachMass(n int, mm [6][6]float64) error {
	if n < 0 || n >= len(f.Nodes) {
		return fmt.Errorf("substructure: attached mass on node %d of %d", n, len(f.Nodes))
	}
	k := slices.IndexFunc(f.attached, func(a attachedMass) bool { return a.node == n })
	if k < 0 {
		f.attached = append(f.attached, attachedMass{node: n})
		k = len(f.attached) - 1
	}
	acc := &f.attached[k].m
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			acc[a][b] += mm[a][b]
			f.M[(6*n+a)*f.nDOF+6*n+b] += mm[a][b]
		}
	}
	return nil
}

// jointEnds is a universal, pin or ball joint and the member ends at it,
// each on a node of its own.
type jointEnds struct {
	joint deck.SDJoint
	ends  []jointEnd
}

type jointEnd struct {
	node, member int
	end          int // 0: the member's joint 1, 1: its joint 2
}

// soilAt is the SSI stiffness and mass kept at one reaction node (zero on
// its clamped DOFs).
type soilAt struct {
	k, m    [6][6]float64
	clamped [6]bool
}

func (f *FEM) at(i, j int) float64 { return f.K[i*f.nDOF+j] }

// NewFEM assembles the finite-element model of a SubDyn file.
func NewFEM(sd *deck.SubDyn, opts Options) (*FEM, error) {
	if sd == nil {
		return nil, errors.New("substructure: no SubDyn input")
	}
	f := &FEM{sd: sd, opts: opts, jointIdx: map[int]int{}}
	if sd.FEMMod != 1 && sd.FEMMod != 3 {
		return nil, fmt.Errorf("substructure: FEMMod=%d is not available (1 = Euler-Bernoulli, 3 = Timoshenko; the tapered elements 2 and 4 are unavailable in SubDyn too)", sd.FEMMod)
	}
	for _, j := range sd.Joints {
		if _, dup := f.jointIdx[j.ID]; dup {
			return nil, fmt.Errorf("substructure: line %d: joint %d defined twice", j.Line, j.ID)
		}
		if j.Type < 1 || j.Type > 4 {
			return nil, fmt.Errorf("substructure: line %d: joint %d has JointType=%d (1 cantilever, 2 universal, 3 pin, 4 ball)", j.Line, j.ID, j.Type)
		}
		f.jointIdx[j.ID] = len(f.Nodes)
		f.Nodes = append(f.Nodes, Node{Pos: [3]float64{j.X, j.Y, j.Z}, Joint: j.ID})
		if j.Type != 1 {
			f.special = append(f.special, &jointEnds{joint: j})
		}
	}
	// endNode returns the node a member end attaches to: the joint's node,
	// or, at a universal, pin or ball joint, a node of its own (the joint
	// then ties their translations and some rotations; SubDyn theory
	// manual, "Constraints introduced by Rotational Joints").
	endNode := func(jointID, mi int, end int) int {
		n := f.jointIdx[jointID]
		for _, sj := range f.special {
			if sj.joint.ID != jointID {
				continue
			}
			if len(sj.ends) > 0 {
				f.Nodes = append(f.Nodes, Node{Pos: f.Nodes[n].Pos, Joint: jointID})
				n = len(f.Nodes) - 1
			}
			sj.ends = append(sj.ends, jointEnd{node: n, member: mi, end: end})
		}
		return n
	}
	cyl := byID(sd.PropsCyl, func(p deck.SDCylProp) int { return p.ID })
	arb := byID(sd.PropsArb, func(p deck.SDArbProp) int { return p.ID })
	cab := byID(sd.Cables, func(p deck.SDCableProp) int { return p.ID })
	rig := byID(sd.Rigids, func(p deck.SDRigidProp) int { return p.ID })
	spr := byID(sd.Springs, func(p deck.SDSpringProp) int { return p.ID })
	f.memNodes = make([][]int, len(sd.Members))
	f.memElems = make([][]int, len(sd.Members))
	for mi, m := range sd.Members {
		_, ok1 := f.jointIdx[m.J1]
		_, ok2 := f.jointIdx[m.J2]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("substructure: line %d: member %d joins joints %d and %d, not both defined", m.Line, m.ID, m.J1, m.J2)
		}
		i1, i2 := endNode(m.J1, mi, 0), endNode(m.J2, mi, 1)
		p1, p2 := f.Nodes[i1].Pos, f.Nodes[i2].Pos
		length := dist(p1, p2)
		if m.Type != deck.SDSpring && length <= 0 {
			return nil, fmt.Errorf("substructure: line %d: member %d has zero length", m.Line, m.ID)
		}
		switch m.Type {
		case deck.SDBeamCircular, deck.SDBeamArbitrary:
			secAt, err := memberSections(sd, m, cyl, arb)
			if err != nil {
				return nil, err
			}
			// NDiv elements; the section varies linearly along the member
			// and each element takes it at its middle.
			n := sd.NDiv
			nodes := []int{i1}
			for k := 1; k < n; k++ {
				s := float64(k) / float64(n)
				f.Nodes = append(f.Nodes, Node{Pos: lerp3(p1, p2, s)})
				nodes = append(nodes, len(f.Nodes)-1)
			}
			nodes = append(nodes, i2)
			f.memNodes[mi] = nodes
			for k := 0; k < n; k++ {
				sec := secAt((float64(k) + 0.5) / float64(n))
				e := element{n1: nodes[k], n2: nodes[k+1], kind: kindBeam, member: mi}
				e.dc = spin(directionCosines(f.Nodes[e.n1].Pos, f.Nodes[e.n2].Pos), m.Spin)
				e.kLoc, e.mLoc = beamMatrices(sec, dist(f.Nodes[e.n1].Pos, f.Nodes[e.n2].Pos))
				f.memElems[mi] = append(f.memElems[mi], len(f.elems))
				f.elems = append(f.elems, e)
			}
		case deck.SDCable:
			c, ok := cab[m.P1]
			if !ok {
				return nil, fmt.Errorf("substructure: line %d: member %d: cable property set %d not defined", m.Line, m.ID, m.P1)
			}
			e := element{n1: i1, n2: i2, kind: kindCable, member: mi}
			e.dc = directionCosines(p1, p2)
			e.kLoc, e.mLoc, e.f0 = cableMatrices(c.EA, c.Rho, c.T0, length)
			f.addSingle(mi, i1, i2, e)
		case deck.SDRigidLink:
			r, ok := rig[m.P1]
			if !ok {
				return nil, fmt.Errorf("substructure: line %d: member %d: rigid-link property set %d not defined", m.Line, m.ID, m.P1)
			}
			e := element{n1: i1, n2: i2, kind: kindRigid, member: mi}
			e.dc = directionCosines(p1, p2)
			_, e.mLoc, _ = cableMatrices(1, r.Rho, 0, length)
			f.addSingle(mi, i1, i2, e)
		case deck.SDSpring:
			s, ok := spr[m.P1]
			if !ok {
				return nil, fmt.Errorf("substructure: line %d: member %d: spring property set %d not defined", m.Line, m.ID, m.P1)
			}
			// The 6×6 stiffness relates the two joints in global axes.
			e := element{n1: i1, n2: i2, kind: kindSpring, member: mi, dc: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
			for a := 0; a < 6; a++ {
				for b := 0; b < 6; b++ {
					e.kLoc[a][b], e.kLoc[a+6][b+6] = s.K[a][b], s.K[a][b]
					e.kLoc[a][b+6], e.kLoc[a+6][b] = -s.K[a][b], -s.K[a][b]
				}
			}
			f.addSingle(mi, i1, i2, e)
		default:
			return nil, fmt.Errorf("substructure: line %d: member %d: MType %s (rectangular sections) is not supported; circular (1c) and arbitrary-section (4) beams, cables (2), rigid links (3) and springs (5) are", m.Line, m.ID, m.Type)
		}
	}
	for _, r := range sd.Reactions {
		if r.SSIFile != "" && r.Soil == nil {
			return nil, fmt.Errorf("substructure: line %d: reaction joint %d: SSI file %q was not read", r.Line, r.JointID, r.SSIFile)
		}
	}
	f.nDOF = 6 * len(f.Nodes)
	f.K = make([]float64, f.nDOF*f.nDOF)
	f.M = make([]float64, f.nDOF*f.nDOF)
	f.Fg = make([]float64, f.nDOF)
	for k := range f.elems {
		e := &f.elems[k]
		e.kG = toGlobal(&e.kLoc, &e.dc)
		e.mG = toGlobal(&e.mLoc, &e.dc)
		f0 := vecToGlobal(&e.f0, &e.dc)
		dofs := elemDOFs(e.n1, e.n2)
		for a := 0; a < 12; a++ {
			f.Fg[dofs[a]] += f0[a]
			for b := 0; b < 12; b++ {
				f.K[dofs[a]*f.nDOF+dofs[b]] += e.kG[a][b]
				f.M[dofs[a]*f.nDOF+dofs[b]] += e.mG[a][b]
			}
		}
	}
	for _, c := range sd.CMasses {
		n, ok := f.jointIdx[c.JointID]
		if !ok {
			return nil, fmt.Errorf("substructure: line %d: concentrated mass at undefined joint %d", c.Line, c.JointID)
		}
		mm := pointMass(c)
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				f.M[(6*n+a)*f.nDOF+6*n+b] += mm[a][b]
			}
		}
	}
	// Soil springs and masses on the free DOFs of the reaction joints
	// (SubDyn User's Guide, "SSI Input File": the rows and columns of
	// fixed DOFs are dropped). They act on the joint from the ground, so
	// the base reaction leaves them out of the element loads it sums.
	f.soil = map[int]*soilAt{}
	for _, r := range sd.Reactions {
		if r.Soil == nil {
			continue
		}
		n, ok := f.jointIdx[r.JointID]
		if !ok {
			return nil, fmt.Errorf("substructure: line %d: reaction at undefined joint %d", r.Line, r.JointID)
		}
		sa := &soilAt{}
		for a := 0; a < 6; a++ {
			// a free DOF whose diagonal stiffness the file does not give
			// is infinitely stiff (the guide's default): clamped
			sa.clamped[a] = r.Fixed[a] || !r.Soil.KGiven[a][a]
		}
		for a := 0; a < 6; a++ {
			for b := 0; b < 6; b++ {
				if sa.clamped[a] || sa.clamped[b] {
					continue
				}
				sa.k[a][b], sa.m[a][b] = r.Soil.K[a][b], r.Soil.M[a][b]
				f.K[(6*n+a)*f.nDOF+6*n+b] += sa.k[a][b]
				f.M[(6*n+a)*f.nDOF+6*n+b] += sa.m[a][b]
			}
		}
		f.soil[n] = sa
	}
	// Gravity: the consistent nodal loads M·g of the assembled mass, which
	// for a beam are the lumped forces ρAgL/2 and end moments ±ρAgL²/12 of
	// the SubDyn theory manual ("Self-Weight Loads"), and the weight and
	// offset moment of the concentrated masses.
	for i := 0; i < f.nDOF; i++ {
		var s float64
		for n := range f.Nodes {
			s += f.M[i*f.nDOF+6*n+2]
		}
		f.Fg[i] -= opts.Gravity * s
	}
	return f, nil
}

// memberSections returns the section of a beam member at the fraction s
// of its length from joint 1: circular tubes interpolate diameter and
// wall, arbitrary sections every property, linearly. The material may not
// change along a member (SubDyn User's Guide, member cross-section
// properties).
func memberSections(sd *deck.SubDyn, m deck.SDMember, cyl map[int]deck.SDCylProp, arb map[int]deck.SDArbProp) (func(s float64) section, error) {
	lerp := func(a, b, s float64) float64 { return a + s*(b-a) }
	if m.Type == deck.SDBeamCircular {
		a, okA := cyl[m.P1]
		b, okB := cyl[m.P2]
		if !okA || !okB {
			return nil, fmt.Errorf("substructure: line %d: member %d: circular property sets %d and %d must both be defined", m.Line, m.ID, m.P1, m.P2)
		}
		if a.E != b.E || a.G != b.G || a.Rho != b.Rho {
			return nil, fmt.Errorf("substructure: line %d: member %d joins property sets %d and %d of different materials", m.Line, m.ID, m.P1, m.P2)
		}
		return func(s float64) section {
			return tubeSection(a.E, a.G, a.Rho, lerp(a.D, b.D, s), lerp(a.T, b.T, s), sd.FEMMod == 3)
		}, nil
	}
	a, okA := arb[m.P1]
	b, okB := arb[m.P2]
	if !okA || !okB {
		return nil, fmt.Errorf("substructure: line %d: member %d: arbitrary-section property sets %d and %d must both be defined", m.Line, m.ID, m.P1, m.P2)
	}
	if a.E != b.E || a.G != b.G || a.Rho != b.Rho {
		return nil, fmt.Errorf("substructure: line %d: member %d joins property sets %d and %d of different materials", m.Line, m.ID, m.P1, m.P2)
	}
	if a.A <= 0 || b.A <= 0 || a.Jxx <= 0 || a.Jyy <= 0 || b.Jxx <= 0 || b.Jyy <= 0 || a.Jt <= 0 || b.Jt <= 0 {
		return nil, fmt.Errorf("substructure: line %d: member %d: arbitrary sections need positive XsecA, XsecJxx, XsecJyy and torsion constant", m.Line, m.ID)
	}
	return func(s float64) section {
		sec := section{E: a.E, G: a.G, Rho: a.Rho, A: lerp(a.A, b.A, s), Ixx: lerp(a.Jxx, b.Jxx, s), Iyy: lerp(a.Jyy, b.Jyy, s),
			J: lerp(a.J0, b.J0, s), Jt: lerp(a.Jt, b.Jt, s)}
		if sd.FEMMod == 3 {
			sec.Asx, sec.Asy = lerp(a.Asx, b.Asx, s), lerp(a.Asy, b.Asy, s)
		}
		return sec
	}, nil
}

// spin turns the element's local x and y axes by deg degrees about its
// axis (MSpin): the principal axes of a non-circular section.
func spin(dc [3][3]float64, deg float64) [3][3]float64 {
	if deg == 0 {
		return dc
	}
	c, s := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	var out [3][3]float64
	for i := 0; i < 3; i++ {
		out[i][0] = c*dc[i][0] + s*dc[i][1]
		out[i][1] = -s*dc[i][0] + c*dc[i][1]
		out[i][2] = dc[i][2]
	}
	return out
}

// byID indexes property rows by their ID.
func byID[T any](rows []T, id func(T) int) map[int]T {
	out := make(map[int]T, len(rows))
	for _, r := range rows {
		out[id(r)] = r
	}
	return out
}

func (f *FEM) addSingle(mi, i1, i2 int, e element) {
	f.memNodes[mi] = []int{i1, i2}
	f.memElems[mi] = []int{len(f.elems)}
	f.elems = append(f.elems, e)
}

// pointMass is the 6×6 mass of a concentrated mass about its joint: mass m,
// inertia tensor J about its centre, centre offset c:
// [[m·I, −m·[c]×], [m·[c]×, J − m·[c]×[c]×]].
func pointMass(c deck.SDCMass) [6][6]float64 {
	var x [6][6]float64
	m := c.M
	s := skew(c.CG)
	for i := 0; i < 3; i++ {
		x[i][i] = m
	}
	j := [3][3]float64{{c.Jxx, c.Jxy, c.Jxz}, {c.Jxy, c.Jyy, c.Jyz}, {c.Jxz, c.Jyz, c.Jzz}}
	for i := 0; i < 3; i++ {
		for k := 0; k < 3; k++ {
			x[i][3+k] = -m * s[i][k]
			x[3+i][k] = m * s[i][k]
			var ss float64
			for l := 0; l < 3; l++ {
				ss += s[i][l] * s[l][k]
			}
			x[3+i][3+k] = j[i][k] - m*ss
		}
	}
	return x
}

func skew(c [3]float64) [3][3]float64 {
	return [3][3]float64{{0, -c[2], c[1]}, {c[2], 0, -c[0]}, {-c[1], c[0], 0}}
}

func elemDOFs(n1, n2 int) [12]int {
	var d [12]int
	for a := 0; a < 6; a++ {
		d[a], d[6+a] = 6*n1+a, 6*n2+a
	}
	return d
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func lerp3(a, b [3]float64, s float64) [3]float64 {
	return [3]float64{a[0] + s*(b[0]-a[0]), a[1] + s*(b[1]-a[1]), a[2] + s*(b[2]-a[2])}
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Mass returns the total mass of the model (elements and concentrated
// masses), from the translational block of the assembled mass matrix,
// without the attached masses (AttachMass).
func (f *FEM) Mass() float64 {
	var s float64
	for i := 0; i < len(f.Nodes); i++ {
		for j := 0; j < len(f.Nodes); j++ {
			s += f.M[(6*i)*f.nDOF+6*j]
		}
	}
	for _, a := range f.attached {
		s -= a.m[0][0]
	}
	return s
}
