package substructure

import (
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/offshore"
)

// Check builds the model once and returns what it cannot run (member
// types, joints, floating substructures, ...) with the SubDyn file's path,
// before a job starts; nil when it can run.
func Check(d *deck.Deck) (path string, err error) {
	sd, err := d.SubDyn()
	if d.Offshore.SubDyn != nil {
		path = d.Offshore.SubDyn.Meta.Path
	}
	if err == nil {
		var f *FEM
		if f, err = NewFEM(sd, Options{Gravity: d.Main.Gravity, WtrDpth: d.Main.WtrDpth}); err == nil {
			_, err = New(f)
		}
	}
	return path, err
}

// Module is the substructure as an offshore module (solver/offshore): the
// platform reference point is its transition piece, its FE nodes are the
// mesh other modules load, and its TP load goes to the platform with the
// effective Guyan mass as added mass, treated implicitly by the structure.
type Module struct {
	sim   *Sim
	sd    *deck.SubDyn
	nodes []offshore.Vec3
	ref0  offshore.Vec3
	u     Input // inputs of the latest outputs
	uT    Input // step inputs at t and t+dt
	uNext Input
	y     Output
	// the input the latest outputs were computed for (channels reuse them)
	lastKey [18]float64
	lastOK  bool
}

// NewModule builds the substructure of a deck (CompSub = 1) for the seam,
// its TP at the platform reference point.
func NewModule(d *deck.Deck, env offshore.Env) (*Module, error) {
	sd, err := d.SubDyn()
	if err != nil {
		return nil, err
	}
	if sd == nil {
		return nil, errors.New("substructure: CompSub=1 but no SubDyn file was read")
	}
	f, err := NewFEM(sd, Options{Gravity: env.Gravity, WtrDpth: env.WtrDpth, TPRef: env.PtfmRef0})
	if err != nil {
		return nil, err
	}
	m, err := New(f)
	if err != nil {
		return nil, err
	}
	mod := &Module{sim: NewSim(m), sd: sd, ref0: env.PtfmRef0}
	for _, n := range f.Nodes {
		mod.nodes = append(mod.nodes, n.Pos)
	}
	mod.u.NodeLoads = make([][6]float64, len(f.Nodes))
	return mod, nil
}

// AttachMeshMass implements offshore.MeshMassTaker: the masses are added
// to the FE model's nodes (without weight, FEM.AttachMass) and the model is
// reduced again, so the Guyan mass, the fixed-interface modes and the
// effective mass the structure treats implicitly include them.
func (s *Module) AttachMeshMass(ms [][6][6]float64) error {
	f := s.sim.Model().FEM()
	if len(ms) != len(f.Nodes) {
		return fmt.Errorf("substructure: %d attached masses for %d nodes", len(ms), len(f.Nodes))
	}
	for i := range ms {
		if ms[i] == ([6][6]float64{}) {
			continue
		}
		if err := f.AttachMass(i, ms[i]); err != nil {
			return err
		}
	}
	m, err := New(f)
	if err != nil {
		return err
	}
	s.sim = NewSim(m)
	s.lastOK = false
	return nil
}

// Name implements offshore.Module.
func (s *Module) Name() string { return "SubDyn" }

// MeshNodes implements offshore.Substructure: the undisplaced FE nodes.
func (s *Module) MeshNodes() []offshore.Vec3 { return s.nodes }

// OutList implements offshore.OutLister: the SubDyn file's SSOutList.
func (s *Module) OutList() []string { return s.sd.OutList }

// Sim returns the time-domain model.
func (s *Module) Sim() *Sim { return s.sim }

// Init implements offshore.Module: the modal states start at rest.
func (s *Module) Init(u *offshore.Input, y *offshore.Output) error {
	return s.CalcOutput(0, u, y)
}

// input converts the seam's input into the substructure's (into dst).
func (s *Module) input(u *offshore.Input, dst *Input) {
	p := &u.Platform
	for a := 0; a < 3; a++ {
		dst.Disp[a], dst.Disp[3+a] = p.Disp[a], p.Angles[a]
		dst.Vel[a], dst.Vel[3+a] = p.Vel[a], p.AngVel[a]
		dst.Acc[a], dst.Acc[3+a] = p.Acc[a], p.AngAcc[a]
	}
	if len(dst.NodeLoads) != len(s.nodes) {
		dst.NodeLoads = make([][6]float64, len(s.nodes))
	}
	for i := range dst.NodeLoads {
		if i < len(u.NodeLoads) {
			l := u.NodeLoads[i]
			dst.NodeLoads[i] = [6]float64{l.Force[0], l.Force[1], l.Force[2], l.Moment[0], l.Moment[1], l.Moment[2]}
		} else {
			dst.NodeLoads[i] = [6]float64{}
		}
	}
}

// UpdateStates implements offshore.Module.
func (s *Module) UpdateStates(t, dt float64, uT, uNext *offshore.Input) error {
	s.input(uT, &s.uT)
	s.input(uNext, &s.uNext)
	s.lastOK = false
	return s.sim.Step(dt, &s.uT, &s.uNext)
}

func key(u *offshore.Input) [18]float64 {
	var k [18]float64
	p := &u.Platform
	for a := 0; a < 3; a++ {
		k[a], k[3+a], k[6+a], k[9+a], k[12+a], k[15+a] = p.Disp[a], p.Angles[a], p.Vel[a], p.AngVel[a], p.Acc[a], p.AngAcc[a]
	}
	return k
}

// output computes the substructure's outputs for u unless they are those
// of the latest call with the same motion (channels are read after the
// coupling's last CalcOutput at the same time).
func (s *Module) output(u *offshore.Input, force bool) error {
	k := key(u)
	if !force && s.lastOK && k == s.lastKey {
		return nil
	}
	s.input(u, &s.u)
	if err := s.sim.Output(&s.u, &s.y); err != nil {
		return err
	}
	s.lastKey, s.lastOK = k, true
	return nil
}

// CalcOutput implements offshore.Module: the load on the platform without
// −EffectiveMass·a (reported as AddedMass) and the motion of the mesh.
func (s *Module) CalcOutput(t float64, u *offshore.Input, y *offshore.Output) error {
	if err := s.output(u, true); err != nil {
		return err
	}
	l := s.y.TPLoad
	y.Platform = offshore.Load{Force: offshore.Vec3{l[0], l[1], l[2]}, Moment: offshore.Vec3{l[3], l[4], l[5]}}
	y.AddedMass = s.sim.Model().EffectiveMass()
	if len(y.MeshMotion) != len(s.nodes) {
		y.MeshMotion = make([]offshore.NodeMotion, len(s.nodes))
	}
	for i, p0 := range s.nodes {
		d, v, a := s.y.NodeDisp[i], s.y.NodeVel[i], s.y.NodeAcc[i]
		// small rotations θ: body axes (rows) I − [θ]×
		th := offshore.Vec3{d[3], d[4], d[5]}
		y.MeshMotion[i] = offshore.NodeMotion{
			Pos0:   p0,
			Pos:    offshore.Vec3{p0[0] + d[0], p0[1] + d[1], p0[2] + d[2]},
			Orient: [3][3]float64{{1, th[2], -th[1]}, {-th[2], 1, th[0]}, {th[1], -th[0], 1}},
			Vel:    offshore.Vec3{v[0], v[1], v[2]}, AngVel: offshore.Vec3{v[3], v[4], v[5]},
			Acc: offshore.Vec3{a[0], a[1], a[2]}, AngAcc: offshore.Vec3{a[3], a[4], a[5]},
		}
	}
	return y.Platform.Check("SubDyn")
}

// Channel implements offshore.Module with the channels of Sim.Channel,
// evaluated at the input the coupling gives (the final accelerations).
func (s *Module) Channel(name string) (offshore.Channel, bool) {
	c, ok := s.sim.Channel(name)
	if !ok {
		return offshore.Channel{}, false
	}
	return offshore.Channel{Name: c.Name, Unit: c.Unit, Get: func(u *offshore.Input) float64 {
		if err := s.output(u, false); err != nil {
			return math.NaN()
		}
		return c.Get(&s.y)
	}}, true
}

var _ offshore.MeshMassTaker = (*Module)(nil)
