package hydro

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// Module is the sea state and the hydrodynamics of a deck (OpenFAST's
// SeaState and HydroDyn together) as an offshore.Module of the coupling
// seam:
//
//   - the potential-flow body's loads about the platform reference point,
//     its infinite-frequency added mass in Output.AddedMass (moved from the
//     WAMIT reference point, the origin, to the platform reference point);
//   - the strip-theory members as the module's nodes (NodalModule): their
//     loads in Output.NodeLoads, without the loads of the nodes' own mass
//     (added mass, marine growth, flooded fluid; NodeMasses). Without a
//     substructure the nodes ride on the platform, and that mass is
//     reported with the platform's in Output.AddedMass (rigid arm to the
//     reference point), so it is solved implicitly. On a substructure
//     (CompSub = 1) the nodes move with its flexible mesh and the coupling
//     attaches that mass to the substructure's model through NodeMasses
//     (offshore.NodalMassModule), where its modes and Guyan mass carry it
//     (applied explicitly with the previous step's accelerations it
//     diverges within two steps on the IEA 15 MW monopile, 4.8e6 kg of
//     added and flooded mass against the structure's);
//   - the radiation memory as its state (UpdateStates stores the velocity
//     at t);
//   - SeaState's and HydroDyn's output channels.
type Module struct {
	sea    *waves.Sea
	model  *Model // nil without a HydroDyn file
	ref0   offshore.Vec3
	onSub  bool
	seaOut *waves.Outputs
	hdOut  *Outputs
	outs   []string
	warn   []string
	nodes  []offshore.Vec3
	am     [6][6]float64 // constant added mass about the reference point
	// the latest CalcOutput
	t      float64
	pl     PlatformLoads
	morRes [6]float64 // Morison loads (without −M a) about the WAMIT reference point
	mot    []NodeMotion
	loads  []NodeLoad
	chStep Step // scratch for the HydroDyn channels
}

// NewModule builds the module from a deck with CompSeaSt = 1 (and
// CompHydro = 1 for loads) and the coupling's environment. The WAMIT and
// wave-elevation files are read inside Deck.Root (LoadIn), or beside the
// primary file for a deck loaded with Load.
func NewModule(d *deck.Deck, env offshore.Env) (*Module, error) {
	root := d.Root
	if root == "" {
		root = filepath.Dir(d.Path)
	}
	sea, ss, err := waves.FromDeck(d, root)
	if err != nil {
		return nil, err
	}
	md := &Module{sea: sea, ref0: env.PtfmRef0, onSub: d.Main.CompSub == 1}
	md.warn = append(md.warn, sea.Warnings...)
	var w []string
	md.seaOut, w = sea.Outputs(ss)
	md.warn = append(md.warn, w...)
	md.outs = append(md.outs, md.seaOut.Names...)
	if d.Main.CompHydro == 1 {
		if md.model, err = FromDeck(d, root, sea, env.DT); err != nil {
			return nil, err
		}
		md.warn = append(md.warn, md.model.Warnings...)
		md.hdOut, _ = md.model.Outputs()
		if p := md.model.Platform; p != nil {
			a := p.AInf()
			md.am = shiftMass(a, sub3(offshore.Vec3{}, md.ref0))
		}
		if mo := md.model.Morison; mo != nil {
			md.nodes = make([]offshore.Vec3, len(mo.Nodes))
			for i := range mo.Nodes {
				md.nodes[i] = mo.Nodes[i].Pos
			}
			md.mot = make([]NodeMotion, len(mo.Nodes))
			md.loads = make([]NodeLoad, len(mo.Nodes))
			if !md.onSub {
				for i := range mo.Nodes {
					addPointMass(&md.am, mo.NodeMass(i), sub3(mo.Nodes[i].Pos, md.ref0))
					j := mo.NodeInertia(i)
					for a := 0; a < 3; a++ {
						for b := 0; b < 3; b++ {
							md.am[3+a][3+b] += j[a][b]
						}
					}
				}
			}
		}
	}
	if md.model != nil {
		// HydroDyn's list in its order: loads and member channels
		for _, raw := range md.model.HD.OutList {
			if _, ok := md.Channel(raw); ok {
				md.outs = append(md.outs, raw)
			} else {
				md.warn = append(md.warn, fmt.Sprintf("HydroDyn output channel %q is not available; it is left out", raw))
			}
		}
	}
	return md, nil
}

// Name is "HydroDyn", or "SeaState" for a deck without hydrodynamics.
func (md *Module) Name() string {
	if md.model == nil {
		return "SeaState"
	}
	return "HydroDyn"
}

// Warnings lists what the deck asks for that is not modelled (second-order
// kinematics and loads, unknown output channels), as file:line: variable:
// message where a line applies.
func (md *Module) Warnings() []string { return md.warn }

// Sea returns the sea state.
func (md *Module) Sea() *waves.Sea { return md.sea }

// Nodes are the strip-theory nodes' undisplaced positions.
func (md *Module) Nodes() []offshore.Vec3 { return md.nodes }

// NodeMasses returns the 3×3 mass attached to each strip-theory node
// (Nodes order): added mass, marine growth, flooded fluid; nil without
// members. NodeLoads leave out −M·a.
func (md *Module) NodeMasses() [][3][3]float64 {
	if md.model == nil || md.model.Morison == nil {
		return nil
	}
	out := make([][3][3]float64, len(md.nodes))
	for i := range out {
		out[i] = md.model.Morison.NodeMass(i)
	}
	return out
}

// NodeInertias returns the rotational inertia about each strip-theory node
// (Nodes order) of its marine growth and internal fluid; nil without
// members. NodeLoads leave out −J·α.
func (md *Module) NodeInertias() [][3][3]float64 {
	if md.model == nil || md.model.Morison == nil {
		return nil
	}
	out := make([][3][3]float64, len(md.nodes))
	for i := range out {
		out[i] = md.model.Morison.NodeInertia(i)
	}
	return out
}

// OutList lists SeaState's then HydroDyn's output channels.
func (md *Module) OutList() []string { return md.outs }

// Init computes the outputs at t = 0.
func (md *Module) Init(u *offshore.Input, y *offshore.Output) error {
	return md.CalcOutput(0, u, y)
}

// UpdateStates stores the WAMIT body's velocity at t in the radiation
// memory (the convolution at t+dt uses the history up to t and the
// velocity at t+dt).
func (md *Module) UpdateStates(t, dt float64, uT, uNext *offshore.Input) error {
	if md.model != nil && md.model.Platform != nil {
		md.model.Platform.Advance(t, wrpMotion(&uT.Platform))
	}
	return nil
}

// CalcOutput computes the loads at t for the input u.
func (md *Module) CalcOutput(t float64, u *offshore.Input, y *offshore.Output) error {
	md.t = t
	y.AddedMass = md.am
	y.Platform = offshore.Load{}
	if md.model == nil {
		return nil
	}
	if p := md.model.Platform; p != nil {
		mo := wrpMotion(&u.Platform)
		md.pl = p.Loads(t, mo)
		wrp := u.Platform.Node(offshore.Vec3{}).Pos
		l := offshore.Load{Force: offshore.Vec3{md.pl.Total[0], md.pl.Total[1], md.pl.Total[2]},
			Moment: offshore.Vec3{md.pl.Total[3], md.pl.Total[4], md.pl.Total[5]}}
		y.Platform = l.MovedTo(wrp, u.Platform.Pos())
	}
	mor := md.model.Morison
	if mor == nil {
		return y.Platform.Check(md.Name())
	}
	if len(u.Nodes) != len(md.mot) {
		return fmt.Errorf("%s: %d node motions for %d strip-theory nodes", md.Name(), len(u.Nodes), len(md.mot))
	}
	for i := range md.mot {
		n := &u.Nodes[i]
		md.mot[i] = NodeMotion{D: sub3(n.Pos, n.Pos0), V: n.Vel, A: n.Acc}
	}
	mor.Loads(t, md.mot, md.loads)
	md.morRes = mor.Resultant(md.loads, offshore.Vec3{})
	if cap(y.NodeLoads) < len(md.loads) {
		y.NodeLoads = make([]offshore.Load, len(md.loads))
	}
	y.NodeLoads = y.NodeLoads[:len(md.loads)]
	for i, l := range md.loads {
		y.NodeLoads[i] = offshore.Load{Force: l.F, Moment: l.M}
	}
	return y.Platform.Check(md.Name())
}

// Channel resolves a SeaState or HydroDyn output channel. HydroDyn's totals
// include the added-mass loads from the accelerations of the input Get
// receives.
func (md *Module) Channel(name string) (offshore.Channel, bool) {
	for i, n := range md.seaOut.Names {
		if strings.EqualFold(n, name) {
			return offshore.Channel{Name: n, Unit: md.seaOut.Units[i], Get: func(*offshore.Input) float64 { return md.seaOut.Value(i, md.t) }}, true
		}
	}
	if md.hdOut == nil {
		return offshore.Channel{}, false
	}
	if c, ok := md.memberChannel(name); ok {
		return c, true
	}
	for i, n := range md.hdOut.Names {
		if strings.EqualFold(n, name) {
			return offshore.Channel{Name: n, Unit: md.hdOut.Units[i], Get: func(u *offshore.Input) float64 {
				// The module's scratch step: a Step on the stack escapes
				// through Value, one 700-byte allocation per channel and
				// output row.
				s := &md.chStep
				*s = Step{Platform: md.pl, Motion: wrpMotion(&u.Platform), Morison: md.morRes}
				if mor := md.model.Morison; mor != nil && len(u.Nodes) == len(mor.Nodes) {
					s.MorisonMass = md.morisonMassLoad(u)
				}
				return md.hdOut.Value(i, s)
			}}, true
		}
	}
	return offshore.Channel{}, false
}

// memberChannel resolves HydroDyn's member output channels MαNβQ for the
// deck's member outputs (α-th row of the member output list, β-th of its
// NodeLocs, taken at the nearest strip node): Vxi, Vyi, Vzi, Axi, Ayi, Azi
// (fluid, with current), DynP, STVxi … STAzi (structure), FDxi … (drag),
// FIxi … (fluid inertia), FBxi … (buoyancy), FAMxi … (added mass), per
// unit length.
func (md *Module) memberChannel(name string) (offshore.Channel, bool) {
	mor := md.model.Morison
	var a, b int
	var q string
	if mor == nil {
		return offshore.Channel{}, false
	}
	if n, err := fmt.Sscanf(strings.ToUpper(name), "M%1dN%1d%s", &a, &b, &q); n != 3 || err != nil || a < 1 || b < 1 {
		return offshore.Channel{}, false
	}
	outs := md.model.HD.MOutputs
	if a > len(outs) || b > len(outs[a-1].NodeLocs) {
		return offshore.Channel{}, false
	}
	mo := outs[a-1]
	// the member's strip nodes, in order along it
	var idx []int
	for i := range mor.Nodes {
		if mor.Nodes[i].Member == mo.MemberID {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return offshore.Channel{}, false
	}
	node := idx[min(len(idx)-1, int(math.Round(mo.NodeLocs[b-1]*float64(len(idx)-1))))]
	vec := func(get func(s *NodeState) [3]float64, unit string) (func(*offshore.Input) float64, string, bool) {
		axis := strings.Index("XYZ", q[len(q)-2:len(q)-1])
		if !strings.HasSuffix(q, "I") || axis < 0 {
			return nil, "", false
		}
		return func(*offshore.Input) float64 { return get(&mor.Last[node])[axis] }, unit, true
	}
	var get func(*offshore.Input) float64
	var unit string
	ok := false
	switch {
	case q == "DYNP":
		get, unit, ok = func(*offshore.Input) float64 { return mor.Last[node].Kin.P }, "Pa", true
	case len(q) == 3 && q[0] == 'V':
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.Kin.V }, "m/s")
	case len(q) == 3 && q[0] == 'A':
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.Kin.A }, "m/s^2")
	case len(q) == 5 && strings.HasPrefix(q, "STV"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.STV }, "m/s")
	case len(q) == 5 && strings.HasPrefix(q, "STA"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.STA }, "m/s^2")
	case len(q) == 4 && strings.HasPrefix(q, "FD"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.FD }, "N/m")
	case len(q) == 4 && strings.HasPrefix(q, "FI"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.FI }, "N/m")
	case len(q) == 4 && strings.HasPrefix(q, "FB"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.FB }, "N/m")
	case len(q) == 5 && strings.HasPrefix(q, "FAM"):
		get, unit, ok = vec(func(s *NodeState) [3]float64 { return s.FAM }, "N/m")
	}
	if !ok {
		return offshore.Channel{}, false
	}
	return offshore.Channel{Name: name, Unit: unit, Get: get}, true
}

// morisonMassLoad is Σ −M_i a_i − J_i α_i of the strip-theory nodes about
// the WAMIT reference point.
func (md *Module) morisonMassLoad(u *offshore.Input) [6]float64 {
	mor := md.model.Morison
	var r [6]float64
	for i := range mor.Nodes {
		m := mor.NodeMass(i)
		a := u.Nodes[i].Acc
		var f offshore.Vec3
		for k := 0; k < 3; k++ {
			f[k] = -(m[k][0]*a[0] + m[k][1]*a[1] + m[k][2]*a[2])
		}
		mom := cross(mor.Nodes[i].Pos, f)
		j, al := mor.NodeInertia(i), u.Nodes[i].AngAcc
		for k := 0; k < 3; k++ {
			r[k] += f[k]
			r[3+k] += mom[k] - (j[k][0]*al[0] + j[k][1]*al[1] + j[k][2]*al[2])
		}
	}
	return r
}

// wrpMotion is the motion of the WAMIT reference point (the origin at rest)
// carried rigidly from the platform reference point.
func wrpMotion(r *offshore.RigidMotion) Motion {
	n := r.Node(offshore.Vec3{})
	return Motion{
		Q:      [6]float64{n.Pos[0], n.Pos[1], n.Pos[2], r.Angles[0], r.Angles[1], r.Angles[2]},
		QD:     [6]float64{n.Vel[0], n.Vel[1], n.Vel[2], r.AngVel[0], r.AngVel[1], r.AngVel[2]},
		QDD:    [6]float64{n.Acc[0], n.Acc[1], n.Acc[2], r.AngAcc[0], r.AngAcc[1], r.AngAcc[2]},
		Orient: r.Orient,
	}
}

// shiftMass moves a 6×6 mass matrix given about a point P to the reference
// point R, d = P − R: with T = [[I, −[d×]], [0, I]] mapping R's
// accelerations to P's, A_R = Tᵀ A_P T.
func shiftMass(a [6][6]float64, d offshore.Vec3) [6][6]float64 {
	var t [6][6]float64
	for i := 0; i < 6; i++ {
		t[i][i] = 1
	}
	// −[d×]: a_P = a_R + α × d
	t[0][4], t[0][5] = d[2], -d[1]
	t[1][3], t[1][5] = -d[2], d[0]
	t[2][3], t[2][4] = d[1], -d[0]
	var at, out [6][6]float64
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for k := 0; k < 6; k++ {
				at[i][j] += a[i][k] * t[k][j]
			}
		}
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for k := 0; k < 6; k++ {
				out[i][j] += t[k][i] * at[k][j]
			}
		}
	}
	return out
}

// addPointMass adds a 3×3 translational mass at offset d from the reference
// point to a 6×6 mass matrix about it.
func addPointMass(a *[6][6]float64, m [3][3]float64, d offshore.Vec3) {
	var full [6][6]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			full[i][j] = m[i][j]
		}
	}
	s := shiftMass(full, d)
	for i := range s {
		for j := range s[i] {
			a[i][j] += s[i][j]
		}
	}
}

func sub3(a, b offshore.Vec3) offshore.Vec3 {
	return offshore.Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]}
}

var (
	_ offshore.NodalModule     = (*Module)(nil)
	_ offshore.NodalMassModule = (*Module)(nil)
	_ offshore.OutLister       = (*Module)(nil)
)
