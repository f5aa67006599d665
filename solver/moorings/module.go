package moorings

import (
	"context"
	"errors"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

// Module is the lumped-mass mooring system (MoorDyn, CompMooring = 3) as an
// offshore.NodalModule: its nodes are the vessel points, which the
// coupling moves with the platform (or a substructure) and loads with the
// line forces; the line-end masses the platform carries are reported as
// added mass about the reference point, so the structure treats their
// inertia implicitly.
type Module struct {
	sys     *System
	outList []string
	nodes   []offshore.Vec3
	p0, p1  []PointMotion
}

// NewModule builds the MoorDyn module of a deck.
func NewModule(d *deck.Deck, env offshore.Env) (*Module, error) {
	if d.Offshore.Mooring == nil {
		return nil, errors.New("moorings: no MoorDyn file loaded")
	}
	md, err := d.Offshore.Mooring.MoorDyn()
	if err != nil {
		return nil, err
	}
	return newModule(md, env)
}

func newModule(md *deck.MoorDyn, env offshore.Env) (*Module, error) {
	sys, err := New(md, Env{Gravity: env.Gravity, WaterDensity: env.WtrDens, WaterDepth: env.WtrDpth}, env.PtfmRef0)
	if err != nil {
		return nil, err
	}
	m := &Module{sys: sys}
	for _, c := range sys.Channels() {
		m.outList = append(m.outList, c.Name)
	}
	for _, p := range sys.VesselPoints() {
		m.nodes = append(m.nodes, offshore.Vec3(p))
	}
	m.p0 = make([]PointMotion, len(m.nodes))
	m.p1 = make([]PointMotion, len(m.nodes))
	return m, nil
}

// System returns the underlying mooring system.
func (m *Module) System() *System { return m.sys }

// Name implements offshore.Module.
func (m *Module) Name() string { return "MoorDyn" }

// Nodes implements offshore.NodalModule: the undisplaced vessel points.
func (m *Module) Nodes() []offshore.Vec3 { return m.nodes }

// OutList implements offshore.OutLister: the OUTPUTS of the MoorDyn file.
func (m *Module) OutList() []string { return m.outList }

func (m *Module) points(u *offshore.Input, buf []PointMotion) []PointMotion {
	for i := range buf {
		var n offshore.NodeMotion
		if i < len(u.Nodes) {
			n = u.Nodes[i]
		} else {
			n = u.Platform.Node(m.nodes[i])
		}
		buf[i] = PointMotion{Pos: n.Pos, Vel: n.Vel, Acc: n.Acc}
	}
	return buf
}

// Init implements offshore.Module: the static equilibrium for the initial
// platform position (see System.Init).
func (m *Module) Init(u *offshore.Input, y *offshore.Output) error {
	if err := m.sys.InitAt(context.Background(), m.points(u, m.p0)); err != nil {
		return err
	}
	return m.output(u, y)
}

// UpdateStates implements offshore.Module: dtM sub-steps over [t, t+dt]
// with the vessel points moving linearly between their inputs.
func (m *Module) UpdateStates(t, dt float64, uT, uNext *offshore.Input) error {
	return m.sys.UpdateStatesAt(context.Background(), t, dt, m.points(uT, m.p0), m.points(uNext, m.p1))
}

// CalcOutput implements offshore.Module.
func (m *Module) CalcOutput(t float64, u *offshore.Input, y *offshore.Output) error {
	if err := m.sys.CalcOutputAt(t, m.points(u, m.p0)); err != nil {
		return err
	}
	return m.output(u, y)
}

// output sets the node loads (line forces, and the centripetal part of the
// carried masses' inertia, which the added mass does not hold) and the
// added mass of the carried masses about the displaced reference point:
// a point mass matrix m at arm a adds [[m, −m[a×]], [[a×]m, −[a×]m[a×]]].
func (m *Module) output(u *offshore.Input, y *offshore.Output) error {
	if cap(y.NodeLoads) < len(m.nodes) {
		y.NodeLoads = make([]offshore.Load, len(m.nodes))
	}
	y.NodeLoads = y.NodeLoads[:len(m.nodes)]
	y.Platform = offshore.Load{}
	y.AddedMass = [6][6]float64{}
	o := u.Platform.Pos()
	w := u.Platform.AngVel
	for i := range m.nodes {
		f := m.sys.VesselForce(i)
		M := m.sys.VesselMass(i)
		p := m.p0[i].Pos
		a := [3]float64{p[0] - o[0], p[1] - o[1], p[2] - o[2]}
		cen := mulMat(M, cross(w, cross(w, a)))
		for c := 0; c < 3; c++ {
			f[c] -= cen[c]
		}
		y.NodeLoads[i] = offshore.Load{Force: f}
		A := skew(a)
		MA := matMul(M, A)
		AM := matMul(A, M)
		AMA := matMul(A, MA)
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				y.AddedMass[r][c] += M[r][c]
				y.AddedMass[r][3+c] -= MA[r][c]
				y.AddedMass[3+r][c] += AM[r][c]
				y.AddedMass[3+r][3+c] -= AMA[r][c]
			}
		}
	}
	for _, l := range y.NodeLoads {
		if err := l.Check(m.Name()); err != nil {
			return err
		}
	}
	return nil
}

// Channel implements offshore.Module for the channels of the OUTPUTS list
// (FAIRTEN1, ANCHTEN1, CON1FX, ...).
func (m *Module) Channel(name string) (offshore.Channel, bool) {
	for i, c := range m.sys.Channels() {
		if strings.EqualFold(c.Name, name) {
			return offshore.Channel{Name: c.Name, Unit: c.Unit, Get: func(*offshore.Input) float64 { return m.sys.Values()[i] }}, true
		}
	}
	return offshore.Channel{}, false
}

// QuasiStaticModule is the quasi-static catenary system (MAP++,
// CompMooring = 1) as an offshore.NodalModule: no states; each output
// solves the catenaries for the fairleads where they are.
type QuasiStaticModule struct {
	qs    *QuasiStatic
	nodes []offshore.Vec3
}

// NewQuasiStaticModule builds the MAP++ module of a deck.
func NewQuasiStaticModule(d *deck.Deck, env offshore.Env) (*QuasiStaticModule, error) {
	if d.Offshore.Mooring == nil {
		return nil, errors.New("moorings: no MAP++ file loaded")
	}
	mp, err := d.Offshore.Mooring.MAP()
	if err != nil {
		return nil, err
	}
	qs, err := QuasiStaticFromMAP(mp, Env{Gravity: env.Gravity, WaterDensity: env.WtrDens, WaterDepth: env.WtrDpth}, env.PtfmRef0)
	if err != nil {
		return nil, err
	}
	return newQSModule(qs, env.PtfmRef0), nil
}

// Name implements offshore.Module.
func (m *QuasiStaticModule) Name() string { return "MAP++" }

// Nodes implements offshore.NodalModule: the undisplaced fairleads.
func (m *QuasiStaticModule) Nodes() []offshore.Vec3 { return m.nodes }

// Init implements offshore.Module.
func (m *QuasiStaticModule) Init(u *offshore.Input, y *offshore.Output) error {
	return m.CalcOutput(0, u, y)
}

// UpdateStates implements offshore.Module (no states).
func (m *QuasiStaticModule) UpdateStates(t, dt float64, uT, uNext *offshore.Input) error { return nil }

// CalcOutput implements offshore.Module: each line's fairlead force.
func (m *QuasiStaticModule) CalcOutput(t float64, u *offshore.Input, y *offshore.Output) error {
	if cap(y.NodeLoads) < len(m.nodes) {
		y.NodeLoads = make([]offshore.Load, len(m.nodes))
	}
	y.NodeLoads = y.NodeLoads[:len(m.nodes)]
	y.Platform = offshore.Load{}
	for i := range m.qs.lines {
		var p offshore.Vec3
		if i < len(u.Nodes) {
			p = u.Nodes[i].Pos
		} else {
			n := u.Platform.Node(m.nodes[i])
			p = n.Pos
		}
		lf, err := m.qs.lines[i].solve(p, m.qs.depth)
		if err != nil {
			return err
		}
		y.NodeLoads[i] = offshore.Load{Force: lf.Force}
	}
	return nil
}

// Channel implements offshore.Module: MAP++ writes channels only for line
// flags, which this solver refuses, so there are none.
func (m *QuasiStaticModule) Channel(string) (offshore.Channel, bool) {
	return offshore.Channel{}, false
}

// NewQuasiStaticModuleFromMoorDyn builds the catenary module of a MoorDyn
// file's lines (each from a fixed to a vessel point): the quasi-static
// counterpart of the same mooring.
func NewQuasiStaticModuleFromMoorDyn(md *deck.MoorDyn, env Env, ref [3]float64) (*QuasiStaticModule, error) {
	qs, err := QuasiStaticFromMoorDyn(md, env, ref)
	if err != nil {
		return nil, err
	}
	return newQSModule(qs, ref), nil
}

func newQSModule(qs *QuasiStatic, ref [3]float64) *QuasiStaticModule {
	m := &QuasiStaticModule{qs: qs}
	for _, l := range qs.lines {
		m.nodes = append(m.nodes, offshore.Vec3{ref[0] + l.fair.Body[0], ref[1] + l.fair.Body[1], ref[2] + l.fair.Body[2]})
	}
	return m
}
