package hydro

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// MorisonNode is one strip of a member: the node at rest (Pos, where its
// load is reported), the point its strip's wetted part is centred on (Eval,
// where the kinematics are taken and the load acts), the member axis and
// the section properties and coefficients of the strip.
type MorisonNode struct {
	Member   int
	Pos      [3]float64
	Eval     [3]float64
	Axis     [3]float64 // unit, from the member's first to second joint
	Len      float64    // strip length, m
	WetLen   float64    // part of the strip between the seabed and SWL
	D        float64    // outer diameter incl. marine growth, m
	dProp    float64    // outer diameter of the member itself, m
	Cd, Ca   float64
	Cp       float64
	PotOnly  bool    // member modelled with potential flow: viscous drag only
	MGMass   float64 // marine-growth mass of the strip, kg
	FillMass float64 // flooded or ballast fluid mass of the strip, kg
	// fillDens, fillArea: the internal fluid's density and the inner
	// cross-section; fillLen the strip length below the fill surface
	fillDens, fillArea, fillLen float64
	fillEndP                    float64 // internal pressure on an end plate, Pa
	// fillBuried is the vertical load (N, up) of the internal fluid at an
	// end plate below the seabed; see NewMorison
	fillBuried float64
	// wpArea is the waterplane area (m²) of a strip the still-water line
	// cuts: its vertical displacement w changes the displaced buoyancy by
	// −ρ g wpArea w
	wpArea float64
	// End is +1 at a member's second joint, −1 at its first, 0 inside: the
	// outward axis of an end plate is End·Axis.
	End        int
	EndArea    float64 // end-plate area (outer), m²
	AxCd, AxCa float64 // joint axial coefficients at an end
	AxCp       float64
	probe      *waves.Probe
	// layer replaces probe with WaveDisp 1: the kinematics at the strip's
	// displaced horizontal position, at its rest height
	layer          *waves.Layer
	endSubmerged   bool
	endHydrostatic float64 // hydrostatic pressure at the end (Pa)
	// prev and next are the neighbouring strips of the member (the node
	// itself at an end): the displaced axis is taken between them
	prev, next int
	// The node's hydrostatic load on the displaced axis t̂:
	// hsNormal·(ẑ − (ẑ·t̂)t̂) + hsAxial·t̂ + hsFixed (N). hsNormal is the
	// buoyancy of the wetted strip less the weight of its internal fluid
	// (the wall pressures, normal to the axis), hsAxial the end-plate
	// pressures, outside and inside, and hsFixed the marine-growth weight
	// and the buried fill's load, which do not turn with the member.
	hsNormal, hsAxial float64
	hsFixed           [3]float64
}

// NodeState is one node's kinematics and distributed loads (N/m, per unit
// of wetted length) at the latest Loads call.
type NodeState struct {
	Kin        waves.Kin // fluid velocity (with current), acceleration, dynamic pressure
	STV, STA   [3]float64
	FD, FI, FB [3]float64 // drag, fluid inertia, buoyancy per unit length
	FAM        [3]float64 // added-mass load per unit length for the node's acceleration
}

// NodeMotion is the translational displacement (from the node's rest
// position), velocity and acceleration of a node.
type NodeMotion struct {
	D, V, A [3]float64
}

// NodeLoad is a force and moment at a node (global frame).
type NodeLoad struct {
	F, M [3]float64
}

// Morison is HydroDyn's strip theory on the deck's members (Morison et al.
// 1950; HydroDyn theory: distributed viscous drag ½ρC_d D|v_n|v_n, fluid
// inertia ρ(C_p + C_a)A a_n, added mass −ρC_a A q̈_n, buoyancy normal to the
// axis ρ g A (ẑ − (ẑ·t̂)t̂) with end-plate pressures, marine-growth and
// the pressure of flooded or ballast fluid inside; at submerged member ends axial drag, dynamic pressure
// and axial added mass from the joint's axial coefficients), with the
// kinematics at the undisplaced node positions (WaveDisp 0) or at their
// displaced horizontal positions (WaveDisp 1, without stretching) and the
// loads integrated up to SWL (AMMod 0, HstMod 0).
//
// Added mass, marine-growth mass and fluid-fill mass of each node are
// exported as a 3×3 matrix (NodeMass) for the structure's mass matrix;
// Loads leaves their −M·q̈ out.
type Morison struct {
	Nodes []MorisonNode
	// Last holds, per node, what the latest Loads call computed, for the
	// member output channels.
	Last     []NodeState
	rho, g   float64
	depth    float64
	mass     [][3][3]float64
	inertia  [][3][3]float64 // rotational inertia about each node
	statics  [][3]float64    // buoyancy and weights at the rest geometry
	hasWaves bool
}

// NewMorison discretises the HydroDyn members (MDivSize) into strips.
func NewMorison(hd *deck.HydroDyn, sea *waves.Sea, file string) (*Morison, error) {
	cfg := sea.Config()
	m := &Morison{rho: cfg.WtrDens, g: cfg.Gravity, depth: cfg.Depth(), hasWaves: cfg.WaveMod != waves.StillWater}
	joints := map[int]deck.HDJoint{}
	for _, j := range hd.Joints {
		joints[j.ID] = j
	}
	props := map[int]deck.HDPropSet{}
	for _, p := range hd.PropSets {
		props[p.ID] = p
	}
	axc := map[int]deck.HDAxCoef{}
	for _, a := range hd.AxCoefs {
		axc[a.ID] = a
	}
	memCoef := map[int]deck.HDMemberCoefs{}
	for _, c := range hd.MemberCoefs {
		memCoef[c.MemberID] = c
	}
	fill := map[int]deck.HDFillGroup{}
	for _, f := range hd.FillGroups {
		for _, id := range f.Members {
			fill[id] = f
		}
	}
	for _, mb := range hd.Members {
		where := fmt.Sprintf("%s:%d: member %d", file, mb.Line, mb.ID)
		if mb.SecGeom != 1 {
			return nil, fmt.Errorf("%s: rectangular members (MSecGeom 2) are not supported", where)
		}
		j1, ok1 := joints[mb.Joint1]
		j2, ok2 := joints[mb.Joint2]
		p1, ok3 := props[mb.PropSet1]
		p2, ok4 := props[mb.PropSet2]
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, fmt.Errorf("%s: unknown joint or property-set ID", where)
		}
		a := [3]float64{j1.X, j1.Y, j1.Z}
		b := [3]float64{j2.X, j2.Y, j2.Z}
		ax := sub(b, a)
		length := norm(ax)
		if length == 0 {
			return nil, fmt.Errorf("%s: zero length", where)
		}
		for i := range ax {
			ax[i] /= length
		}
		div := mb.DivSize
		if div <= 0 {
			return nil, fmt.Errorf("%s: MDivSize must be > 0", where)
		}
		ne := int(math.Ceil(length/div - 1e-9))
		ds := length / float64(ne)
		fg, flooded := fill[mb.ID]
		for k := 0; k <= ne; k++ {
			s := float64(k) * ds
			lo, hi := math.Max(0, s-ds/2), math.Min(length, s+ds/2)
			frac := s / length
			n := MorisonNode{Member: mb.ID, Pos: add(a, scale(ax, s)), Axis: ax, Len: hi - lo, PotOnly: mb.PropPot}
			// wetted part: −depth ≤ z ≤ 0
			wlo, whi := clipZ(a[2], ax[2], lo, hi, -m.depth, 0)
			n.WetLen = math.Max(0, whi-wlo)
			mid := s
			if n.WetLen > 0 {
				mid = (wlo + whi) / 2
			}
			n.Eval = add(a, scale(ax, mid))
			dProp := p1.D + frac*(p2.D-p1.D)
			thck := p1.Thck + frac*(p2.Thck-p1.Thck)
			mgT, mgRho := marineGrowth(hd.MarineGrowth, n.Eval[2])
			n.D, n.dProp = dProp+2*mgT, dProp
			var c deck.HDCoefs
			switch mb.CoefMod {
			case 1:
				c = hd.Simple
			case 2:
				c = depthCoefs(hd.DepthCoefs, n.Eval[2])
			case 3:
				mc, ok := memCoef[mb.ID]
				if !ok {
					return nil, fmt.Errorf("%s: MCoefMod 3 but no member-based coefficients", where)
				}
				c = lerpCoefs(mc.End[0], mc.End[1], frac)
			default:
				return nil, fmt.Errorf("%s: MCoefMod %d is not one of 1, 2, 3", where, mb.CoefMod)
			}
			n.Cd, n.Ca, n.Cp = c.Cd, c.Ca, c.Cp
			if mgT > 0 {
				n.Cd, n.Ca, n.Cp = c.CdMG, c.CaMG, c.CpMG
			}
			n.MGMass = mgRho * math.Pi / 4 * (n.D*n.D - dProp*dProp) * n.Len
			if flooded && !mb.PropPot {
				dens := fg.Dens
				if fg.DensDflt {
					dens = m.rho
				}
				din := dProp - 2*thck
				flo, fhi := clipZ(a[2], ax[2], lo, hi, math.Inf(-1), fg.FSLoc)
				n.fillDens, n.fillArea, n.fillLen = dens, math.Pi/4*din*din, math.Max(0, fhi-flo)
				n.FillMass = n.fillDens * n.fillArea * n.fillLen
			}
			if k == 0 || k == ne {
				n.End = -1
				jt := j1
				if k == ne {
					n.End, jt = 1, j2
				}
				n.EndArea = math.Pi / 4 * n.D * n.D
				ac := axc[jt.AxID]
				n.AxCd, n.AxCa, n.AxCp = ac.Cd, ac.Ca, ac.Cp
				z := n.Pos[2]
				n.endSubmerged = z <= 0 && z > -m.depth
				if n.endSubmerged {
					n.endHydrostatic = -m.rho * m.g * z
				}
				// an end plate in the seabed carries nothing: the soil
				// plug holds the fluid column (as HydroDyn leaves out end
				// loads below the seabed)
				if flooded && z > -m.depth && z < fg.FSLoc {
					n.fillEndP = n.fillDens * m.g * (fg.FSLoc - z)
				}
				// A flooded member standing in the seabed: HydroDyn loads
				// the member with the internal fluid's weight down to the
				// seabed and with the fluid's pressure at the member's end
				// plate below it, which leaves the weight of the column
				// between the end and the seabed acting upward on the
				// member. OpenFAST v5.0.0's HydroDyn summary of the IEA
				// 15 MW monopile (end at −30.1 m, seabed −30 m, fill to
				// SWL) gives exactly that as its "internal buoyancy":
				// 7.7235e4 N = ρ g A_in × 0.1 m (docs/validation.md §10).
				if flooded && !mb.PropPot && z <= -m.depth && fg.FSLoc > -m.depth {
					dens := fg.Dens
					if fg.DensDflt {
						dens = m.rho
					}
					din := dProp - 2*thck
					n.fillBuried = dens * m.g * math.Pi / 4 * din * din * (-m.depth - z)
				}
			}
			// the still-water line cuts this strip: its waterplane
			if !mb.PropPot && ax[2] != 0 {
				if zlo, zhi := a[2]+ax[2]*lo, a[2]+ax[2]*hi; math.Min(zlo, zhi) < 0 && math.Max(zlo, zhi) >= 0 {
					n.wpArea = math.Pi / 4 * n.D * n.D / math.Abs(ax[2])
				}
			}
			if hd.WaveDisp == 1 && m.hasWaves {
				if cfg.WaveStMod != 0 || cfg.WvDiffQTF || cfg.WvSumQTF {
					return nil, fmt.Errorf("%s: WaveDisp 1 is modelled without wave stretching and second-order kinematics", where)
				}
				n.layer = sea.Layer(math.Min(n.Eval[2], 0))
			} else {
				n.probe = sea.Probe(n.Eval[0], n.Eval[1], math.Min(n.Eval[2], 0))
			}
			i := len(m.Nodes)
			n.prev, n.next = max(i-1, i-k), min(i+1, i+ne-k)
			m.Nodes = append(m.Nodes, n)
		}
	}
	m.mass = make([][3][3]float64, len(m.Nodes))
	m.inertia = make([][3][3]float64, len(m.Nodes))
	m.statics = make([][3]float64, len(m.Nodes))
	m.Last = make([]NodeState, len(m.Nodes))
	for i := range m.Nodes {
		n := &m.Nodes[i]
		area := math.Pi / 4 * n.D * n.D
		var mm [3][3]float64
		// Marine growth and the internal fluid move with the member as
		// rigid bodies, in every direction and in rotation (HydroDyn
		// assumes compartments and baffles in flooded members; OpenFAST's
		// HydroDyn Morison plan, docs/OtherSupporting/HydroDyn,
		// "Inertia Force from Water Ballast"): each strip is a solid
		// cylinder of fluid (a tube of growth) about its node.
		for r := 0; r < 3; r++ {
			mm[r][r] += n.MGMass + n.FillMass
		}
		if n.fillLen > 0 {
			r2 := n.fillArea / math.Pi // inner radius squared
			addCylinderInertia(&m.inertia[i], n.Axis, n.FillMass, r2/4+n.fillLen*n.fillLen/12, r2/2)
		}
		if n.MGMass > 0 {
			ro2 := n.D * n.D / 4
			ri2 := n.dProp * n.dProp / 4
			addCylinderInertia(&m.inertia[i], n.Axis, n.MGMass, (ro2+ri2)/4+n.Len*n.Len/12, (ro2+ri2)/2)
		}
		if !n.PotOnly {
			ma := m.rho * n.Ca * area * n.WetLen
			for r := 0; r < 3; r++ {
				for c := 0; c < 3; c++ {
					d := 0.0
					if r == c {
						d = 1
					}
					mm[r][c] += ma * (d - n.Axis[r]*n.Axis[c])
				}
			}
			if n.End != 0 && n.endSubmerged {
				r := n.D / 2
				mEnd := m.rho * n.AxCa * 2.0 / 3 * math.Pi * r * r * r
				for a := 0; a < 3; a++ {
					for c := 0; c < 3; c++ {
						mm[a][c] += mEnd * n.Axis[a] * n.Axis[c]
					}
				}
			}
		}
		m.mass[i] = mm
		// statics: buoyancy normal to the axis on the wet strip, end-plate
		// hydrostatic pressure, marine-growth weight, and the internal
		// fluid's pressure on the wall (normal to the axis, outward: the
		// opposite of a buoyancy) and on the end plates
		if !n.PotOnly {
			n.hsNormal = m.rho * m.g * area * n.WetLen
			if n.End != 0 && n.endSubmerged {
				// force on the plate −p n_out A, n_out = End·Axis
				n.hsAxial -= n.endHydrostatic * n.EndArea * float64(n.End)
			}
		}
		n.hsFixed[2] -= n.MGMass * m.g
		if n.fillLen > 0 {
			n.hsNormal -= n.fillDens * m.g * n.fillArea * n.fillLen
		}
		if n.End != 0 && n.fillEndP > 0 {
			// the fluid pushes the plate outward: +p A n_out
			n.hsAxial += n.fillEndP * n.fillArea * float64(n.End)
		}
		n.hsFixed[2] += n.fillBuried
		m.statics[i] = n.hydrostatic(n.Axis)
	}
	return m, nil
}

// hydrostatic is the node's hydrostatic load with its member's axis along
// t (unit): the wall pressures outside and inside act normal to the axis,
// ρ g A (ẑ − (ẑ·t̂)t̂) per unit length (the buoyancy of the strip less the
// weight of its internal fluid), the end-plate pressures along it.
func (n *MorisonNode) hydrostatic(t [3]float64) [3]float64 {
	f := n.hsFixed
	for a := 0; a < 3; a++ {
		f[a] += n.hsAxial*t[a] - n.hsNormal*t[2]*t[a]
	}
	f[2] += n.hsNormal
	return f
}

// displacedAxis is the member's axis at node i between its displaced
// neighbours (the node itself at a member end).
func (m *Morison) displacedAxis(i int, mot []NodeMotion) [3]float64 {
	n := &m.Nodes[i]
	a, b := &m.Nodes[n.prev], &m.Nodes[n.next]
	d := sub(add(b.Pos, mot[n.next].D), add(a.Pos, mot[n.prev].D))
	l := norm(d)
	if l == 0 {
		return n.Axis
	}
	return scale(d, 1/l)
}

// NodeMass returns node i's mass matrix (added mass normal to the axis and
// axial end added mass, marine growth, flooding); Loads excludes −M·q̈.
func (m *Morison) NodeMass(i int) [3][3]float64 { return m.mass[i] }

// NodeInertia returns the rotational inertia about node i (global axes) of
// its strip's marine growth and internal fluid; Loads excludes −J·α.
func (m *Morison) NodeInertia(i int) [3][3]float64 { return m.inertia[i] }

// addCylinderInertia adds the rotational inertia of an axisymmetric body of
// mass mass about its centre, mass·kr² about the axes across axis and
// mass·ka² about it.
func addCylinderInertia(j *[3][3]float64, axis [3]float64, mass, kr2, ka2 float64) {
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			d := 0.0
			if r == c {
				d = 1
			}
			j[r][c] += mass * (kr2*(d-axis[r]*axis[c]) + ka2*axis[r]*axis[c])
		}
	}
}

// Loads computes the strip-theory load of every node at time t for the node
// motions (translational velocity and acceleration, same order as Nodes),
// with the kinematics at the nodes' rest positions (WaveDisp 0) or their
// displaced horizontal positions (WaveDisp 1), into out.
func (m *Morison) Loads(t float64, mot []NodeMotion, out []NodeLoad) {
	for i := range m.Nodes {
		n := &m.Nodes[i]
		// HydroDyn integrates the hydrostatic pressure over the member in
		// its displaced position (HydroDyn user documentation, HstMod):
		// a pile leaning by θ takes ρ g (A_out − A_in) θ per unit length
		// across its axis from the pressures on its walls
		f := m.statics[i]
		if mot[n.prev].D != mot[n.next].D {
			f = n.hydrostatic(m.displacedAxis(i, mot))
		}
		var k waves.Kin
		switch {
		case n.WetLen == 0 && (n.End == 0 || !n.endSubmerged):
		case n.layer != nil:
			// WaveDisp 1 without stretching: the node's displaced X and Y
			// (which carry its platform's rotation), its rest Z (HydroDyn
			// user documentation, strip-theory options); the strip's
			// evaluation point moves with its node
			d := &mot[i].D
			k = n.layer.At(n.Eval[0]+d[0], n.Eval[1]+d[1], t)
		default:
			k = n.probe.At(t)
		}
		if n.wpArea > 0 {
			// buoyancy at the displaced position, to first order: a strip
			// moved down by w at the still-water line displaces ρ g A_wp w
			// more (HydroDyn computes buoyancy at the displaced position)
			f[2] -= m.rho * m.g * n.wpArea * mot[i].D[2]
		}
		var vr [3]float64
		for a := 0; a < 3; a++ {
			vr[a] = k.V[a] - mot[i].V[a]
		}
		va := dot(vr, n.Axis)
		st := NodeState{Kin: k, STV: mot[i].V, STA: mot[i].A}
		if n.WetLen > 0 {
			vn := sub(vr, scale(n.Axis, va))
			st.FD = scale(vn, 0.5*m.rho*n.Cd*n.D*norm(vn))
			f = add(f, scale(st.FD, n.WetLen))
			if !n.PotOnly {
				an := sub(k.A, scale(n.Axis, dot(k.A, n.Axis)))
				area := math.Pi / 4 * n.D * n.D
				st.FI = scale(an, m.rho*(n.Cp+n.Ca)*area)
				f = add(f, scale(st.FI, n.WetLen))
				bz := m.rho * m.g * area
				st.FB = [3]float64{-bz * n.Axis[2] * n.Axis[0], -bz * n.Axis[2] * n.Axis[1], bz * (1 - n.Axis[2]*n.Axis[2])}
				sa := mot[i].A
				san := sub(sa, scale(n.Axis, dot(sa, n.Axis)))
				st.FAM = scale(san, -m.rho*n.Ca*area)
			}
		}
		m.Last[i] = st
		if n.End != 0 && n.endSubmerged {
			// axial drag, dynamic pressure on the plate, axial fluid inertia
			f = add(f, scale(n.Axis, 0.5*m.rho*n.AxCd*n.EndArea*math.Abs(va)*va))
			if !n.PotOnly {
				f = add(f, scale(n.Axis, -n.AxCp*k.P*n.EndArea*float64(n.End)))
				r := n.D / 2
				f = add(f, scale(n.Axis, m.rho*n.AxCa*2.0/3*math.Pi*r*r*r*dot(k.A, n.Axis)))
			}
		}
		out[i] = NodeLoad{F: f, M: cross(sub(n.Eval, n.Pos), f)}
		if n.wpArea > 0 && !n.PotOnly {
			out[i].M = add(out[i].M, m.waterplaneMoment(n, m.displacedAxis(i, mot)))
		}
	}
}

// waterplaneMoment is the buoyancy moment of a member leaning through the
// still-water line along t: the water plane cuts it obliquely, so the
// displaced volume has a wedge more on the side it leans to, whose centre
// of buoyancy lies I·tanθ/V off the axis (I = πD⁴/64, the water plane's
// second moment of area; the metacentric term of naval architecture).
// HydroDyn computes the buoyancy of the element cut by the water plane from
// its displaced volume and centroid, so it carries this moment; the
// internal fluid, whose surface HydroDyn holds perpendicular to the axis,
// has no such wedge.
func (m *Morison) waterplaneMoment(n *MorisonNode, t [3]float64) [3]float64 {
	if t[2] == 0 {
		return [3]float64{}
	}
	k := m.rho * m.g * math.Pi * math.Pow(n.D, 4) / 64 / t[2]
	return [3]float64{k * t[1], -k * t[0], 0}
}

// MapToPoints transfers node loads to the nearest of the target points
// (structural nodes at rest), adding the moment of the offset, so that the
// total force and moment are kept.
func (m *Morison) MapToPoints(loads []NodeLoad, targets [][3]float64, out []NodeLoad) {
	for i := range out {
		out[i] = NodeLoad{}
	}
	if len(targets) == 0 {
		return
	}
	for i := range m.Nodes {
		best, bd := 0, math.Inf(1)
		for j, p := range targets {
			if d := norm(sub(p, m.Nodes[i].Pos)); d < bd {
				best, bd = j, d
			}
		}
		l := loads[i]
		r := sub(m.Nodes[i].Pos, targets[best])
		out[best].F = add(out[best].F, l.F)
		out[best].M = add(add(out[best].M, l.M), cross(r, l.F))
	}
}

// Resultant sums node loads into a force and moment about the point ref.
func (m *Morison) Resultant(loads []NodeLoad, ref [3]float64) [6]float64 {
	var r [6]float64
	for i := range m.Nodes {
		mom := add(loads[i].M, cross(sub(m.Nodes[i].Pos, ref), loads[i].F))
		for a := 0; a < 3; a++ {
			r[a] += loads[i].F[a]
			r[3+a] += mom[a]
		}
	}
	return r
}

// clipZ returns the part [lo, hi] of the arc length range along a member
// starting at height z0 with axis z-component az where zmin ≤ z ≤ zmax.
func clipZ(z0, az, lo, hi, zmin, zmax float64) (float64, float64) {
	if az == 0 {
		if z0 < zmin || z0 > zmax {
			return lo, lo
		}
		return lo, hi
	}
	s1, s2 := (zmin-z0)/az, (zmax-z0)/az
	if s1 > s2 {
		s1, s2 = s2, s1
	}
	return math.Max(lo, s1), math.Min(hi, s2)
}

// marineGrowth interpolates the marine-growth table (MGDpth read as the
// global Z coordinate) linearly; zero outside it.
func marineGrowth(t []deck.HDMarineGrowth, z float64) (thck, dens float64) {
	if len(t) == 0 {
		return 0, 0
	}
	for i := 0; i+1 < len(t); i++ {
		a, b := t[i], t[i+1]
		lo, hi := math.Min(a.Dpth, b.Dpth), math.Max(a.Dpth, b.Dpth)
		if z >= lo && z <= hi && hi > lo {
			w := (z - a.Dpth) / (b.Dpth - a.Dpth)
			return a.Thck + w*(b.Thck-a.Thck), a.Dens + w*(b.Dens-a.Dens)
		}
	}
	return 0, 0
}

func depthCoefs(t []deck.HDDepthCoefs, z float64) deck.HDCoefs {
	if len(t) == 0 {
		return deck.HDCoefs{}
	}
	// the table is by depth; clamp outside it
	if len(t) == 1 {
		return t[0].HDCoefs
	}
	for i := 0; i+1 < len(t); i++ {
		a, b := t[i], t[i+1]
		if (z-a.Dpth)*(z-b.Dpth) <= 0 && a.Dpth != b.Dpth {
			return lerpCoefs(a.HDCoefs, b.HDCoefs, (z-a.Dpth)/(b.Dpth-a.Dpth))
		}
	}
	if math.Abs(z-t[0].Dpth) < math.Abs(z-t[len(t)-1].Dpth) {
		return t[0].HDCoefs
	}
	return t[len(t)-1].HDCoefs
}

func lerpCoefs(a, b deck.HDCoefs, w float64) deck.HDCoefs {
	l := func(x, y float64) float64 { return x + w*(y-x) }
	return deck.HDCoefs{Cd: l(a.Cd, b.Cd), CdMG: l(a.CdMG, b.CdMG), Ca: l(a.Ca, b.Ca), CaMG: l(a.CaMG, b.CaMG),
		Cp: l(a.Cp, b.Cp), CpMG: l(a.CpMG, b.CpMG), AxCd: l(a.AxCd, b.AxCd), AxCdMG: l(a.AxCdMG, b.AxCdMG),
		AxCa: l(a.AxCa, b.AxCa), AxCaMG: l(a.AxCaMG, b.AxCaMG), AxCp: l(a.AxCp, b.AxCp), AxCpMG: l(a.AxCpMG, b.AxCpMG),
		Cb: l(a.Cb, b.Cb), CbMG: l(a.CbMG, b.CbMG)}
}

func add(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func scale(a [3]float64, s float64) [3]float64 {
	return [3]float64{a[0] * s, a[1] * s, a[2] * s}
}
func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func norm(a [3]float64) float64   { return math.Sqrt(dot(a, a)) }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
