package coupling

import (
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/inflow"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// stillAir is the wind field of CompInflow = 0: zero everywhere.
type stillAir struct{}

func (stillAir) Velocity(float64, inflow.Vec3) (inflow.Vec3, error) { return inflow.Vec3{}, nil }

func (stillAir) Velocities(_ float64, _ []inflow.Vec3, out []inflow.Vec3) error {
	for i := range out {
		out[i] = inflow.Vec3{}
	}
	return nil
}

// offshoreSlot is one offshore module in the simulation: the module, its
// inputs at t (uCur) and t+dt (uNext) and its latest outputs.
type offshoreSlot struct {
	mod         offshore.Module
	nodes       []offshore.Vec3 // NodalModule nodes, nil otherwise
	mesh        []offshore.Vec3 // Substructure mesh nodes, nil otherwise
	uCur, uNext *offshore.Input
	y           offshore.Output
	// src[i] is the substructure mesh node node i follows (when a
	// substructure is present).
	src []int
}

// buildOffshore creates the offshore modules the deck's switches select
// (offshoreBuilders) and those passed in opts.Modules.
func (s *sim) buildOffshore(d *deck.Deck, opts Options) error {
	m := d.Main
	ref0 := s.model.PlatformRef0()
	env := offshore.Env{Gravity: m.Gravity, WtrDens: m.WtrDens, WtrDpth: m.WtrDpth, MSL2SWL: m.MSL2SWL,
		DT: m.DT, TMax: s.tMax, PtfmRef0: ref0}
	var mods []offshore.Module
	for _, sw := range offshoreSwitches {
		v := sw.value(m)
		if v == 0 {
			continue
		}
		b := builderFor(sw.name, v)
		if b == nil || b.Build == nil {
			continue // refused by Supported, or built by another module
		}
		mod, err := b.Build(d, env)
		if err != nil {
			return fmt.Errorf("%s: %w", b.Module, err)
		}
		mods = append(mods, mod)
	}
	mods = append(mods, opts.Modules...)
	for _, mod := range mods {
		// what a module reads but does not model goes into the run's notes
		if w, ok := mod.(interface{ Warnings() []string }); ok {
			s.notes = append(s.notes, w.Warnings()...)
		}
		sl := &offshoreSlot{mod: mod, uCur: &offshore.Input{}, uNext: &offshore.Input{}}
		if nm, ok := mod.(offshore.NodalModule); ok {
			sl.nodes = nm.Nodes()
		}
		if sub, ok := mod.(offshore.Substructure); ok {
			if s.sub != nil {
				return fmt.Errorf("two substructure modules (%s and %s)", s.sub.mod.Name(), mod.Name())
			}
			sl.mesh = sub.MeshNodes()
			sl.uCur.NodeLoads = make([]offshore.Load, len(sl.mesh))
			sl.uNext.NodeLoads = make([]offshore.Load, len(sl.mesh))
			s.sub = sl
		}
		s.offshore = append(s.offshore, sl)
	}
	if s.sub != nil {
		for _, sl := range s.offshore {
			sl.src = make([]int, len(sl.nodes))
			for i, p := range sl.nodes {
				sl.src[i] = offshore.Nearest(s.sub.mesh, p)
			}
		}
		if err := s.attachNodalMasses(); err != nil {
			return err
		}
	}
	if len(s.offshore) > 0 && !s.model.Floating() {
		s.notes = append(s.notes, "offshore modules on with every ElastoDyn platform DOF off: their loads do not move the turbine")
	}
	return nil
}

// attachNodalMasses moves the node masses of the modules that have them
// (offshore.NodalMassModule: strip-theory added mass, flooded fluid, marine
// growth) onto the substructure mesh node each node follows, on the same
// rigid arm as its loads, and hands them to the substructure, whose model
// then carries them (its Craig–Bampton reduction and the effective mass
// the structure solves implicitly). A substructure that cannot take them
// leaves them out, said so in the run's notes: applied explicitly with the
// previous step's accelerations they diverge (several times the pile's own
// mass on a monopile).
func (s *sim) attachNodalMasses() error {
	mesh := make([][6][6]float64, len(s.sub.mesh))
	var from []string
	for _, sl := range s.offshore {
		nm, ok := sl.mod.(offshore.NodalMassModule)
		if !ok || sl == s.sub {
			continue
		}
		masses, inertias := nm.NodeMasses(), nm.NodeInertias()
		if len(masses) == 0 {
			continue
		}
		if len(masses) != len(sl.nodes) || len(inertias) != len(sl.nodes) {
			return fmt.Errorf("%s: %d node masses and %d inertias for %d nodes", sl.mod.Name(), len(masses), len(inertias), len(sl.nodes))
		}
		for i, m := range masses {
			j := sl.src[i]
			pm := offshore.PointMass(m, offshore.Vec3{sl.nodes[i][0] - s.sub.mesh[j][0], sl.nodes[i][1] - s.sub.mesh[j][1], sl.nodes[i][2] - s.sub.mesh[j][2]})
			// a rotational inertia is the same about any point of the
			// rigid arm
			for a := 0; a < 3; a++ {
				for b := 0; b < 3; b++ {
					pm[3+a][3+b] += inertias[i][a][b]
				}
			}
			addMatrix(&mesh[j], &pm)
		}
		from = append(from, sl.mod.Name())
	}
	if len(from) == 0 {
		return nil
	}
	taker, ok := s.sub.mod.(offshore.MeshMassTaker)
	if !ok {
		s.notes = append(s.notes, fmt.Sprintf("%s: the node masses (added mass, flooded fluid, marine growth) are not applied: substructure %s cannot carry them", strings.Join(from, ", "), s.sub.mod.Name()))
		return nil
	}
	if err := taker.AttachMeshMass(mesh); err != nil {
		return fmt.Errorf("%s: attaching the node masses of %s: %w", s.sub.mod.Name(), strings.Join(from, ", "), err)
	}
	return nil
}

// platformMotion sets r from the structure's latest motions and the
// accelerations of its latest outputs.
func (s *sim) platformMotion(r *offshore.RigidMotion) {
	mo := s.motion
	r.RefPos0 = s.model.PlatformRef0()
	for i := 0; i < 3; i++ {
		r.Disp[i] = mo.PtfmPos[i] - r.RefPos0[i]
	}
	r.Angles = offshore.Vec3{s.st.Q[structure.DOFR], s.st.Q[structure.DOFP], s.st.Q[structure.DOFY]}
	r.Orient = mo.PtfmOrient
	r.Vel, r.AngVel = mo.PtfmVel, mo.PtfmAngVel
	r.Acc, r.AngAcc = s.edOut.PtfmTAi, s.edOut.PtfmRAi
}

// setNodeMotions fills a slot's node motions from the platform or the
// substructure mesh.
func (s *sim) setNodeMotions(sl *offshoreSlot, u *offshore.Input) {
	if len(sl.nodes) == 0 {
		return
	}
	if cap(u.Nodes) < len(sl.nodes) {
		u.Nodes = make([]offshore.NodeMotion, len(sl.nodes))
	}
	u.Nodes = u.Nodes[:len(sl.nodes)]
	follow := s.followsSubstructure(sl)
	for i, p := range sl.nodes {
		if follow {
			u.Nodes[i] = s.sub.y.MeshMotion[sl.src[i]].Follow(p)
		} else {
			u.Nodes[i] = u.Platform.Node(p)
		}
	}
}

// offshoreOutputs computes every offshore module's outputs at time t with
// the inputs in uNext (init: Init instead of CalcOutput) and sets the
// structure's platform load and added mass from them. The substructure goes
// first (its mesh motion feeds the others' nodes) and again last (its
// transition-piece load depends on the loads the others put on its nodes).
func (s *sim) offshoreOutputs(t float64, u *structure.Inputs, init bool) error {
	calc := func(sl *offshoreSlot) error {
		s.stage = sl.mod.Name()
		if init {
			return sl.mod.Init(sl.uNext, &sl.y)
		}
		return sl.mod.CalcOutput(t, sl.uNext, &sl.y)
	}
	if s.sub != nil && init {
		if err := calc(s.sub); err != nil {
			return err
		}
	}
	for _, sl := range s.offshore {
		if sl == s.sub {
			continue
		}
		if init {
			// After a step offshoreStep has just set them: nothing has
			// moved since.
			s.setNodeMotions(sl, sl.uNext)
		}
		if err := calc(sl); err != nil {
			return err
		}
	}
	var total offshore.Load
	var am [6][6]float64
	if s.sub != nil {
		for i := range s.sub.uNext.NodeLoads {
			s.sub.uNext.NodeLoads[i] = offshore.Load{}
		}
	}
	ref := s.offshore[0].uNext.Platform.Pos()
	for _, sl := range s.offshore {
		if sl == s.sub {
			continue
		}
		total.Add(sl.y.Platform)
		for i := range sl.y.NodeLoads {
			if i >= len(sl.uNext.Nodes) {
				return fmt.Errorf("%s: %d node loads for %d nodes", sl.mod.Name(), len(sl.y.NodeLoads), len(sl.uNext.Nodes))
			}
			at := sl.uNext.Nodes[i].Pos
			if s.sub != nil {
				// To the substructure node the load's node follows.
				j := sl.src[i]
				s.sub.uNext.NodeLoads[j].Add(sl.y.NodeLoads[i].MovedTo(at, s.sub.y.MeshMotion[j].Pos))
			} else {
				total.Add(sl.y.NodeLoads[i].MovedTo(at, ref))
			}
		}
		addMatrix(&am, &sl.y.AddedMass)
	}
	if s.sub != nil {
		if err := calc(s.sub); err != nil {
			return err
		}
		total.Add(s.sub.y.Platform)
		addMatrix(&am, &s.sub.y.AddedMass)
	}
	s.stage = "offshore"
	if err := total.Check("offshore modules"); err != nil {
		return err
	}
	u.PtfmForce, u.PtfmMoment = total.Force, total.Moment
	s.sys.SetPlatformAddedMass(am)
	s.ptfmLoad = total
	return nil
}

func addMatrix(a, b *[6][6]float64) {
	for i := range a {
		for j := range a[i] {
			a[i][j] += b[i][j]
		}
	}
}

// offshoreInputs sets every module's uNext from the structure's latest
// motions and outputs.
func (s *sim) offshoreInputs() {
	for _, sl := range s.offshore {
		s.platformMotion(&sl.uNext.Platform)
		if s.followsSubstructure(sl) {
			continue // set from the substructure's new mesh once it has stepped
		}
		s.setNodeMotions(sl, sl.uNext)
	}
}

// followsSubstructure reports whether a slot's nodes follow the
// substructure's mesh (which has outputs already) rather than the platform.
func (s *sim) followsSubstructure(sl *offshoreSlot) bool {
	return s.sub != nil && sl != s.sub && len(s.sub.y.MeshMotion) > 0
}

// offshoreAccelerations copies the accelerations of the structure's final
// outputs into the modules' inputs at the output time, so that their
// channels (which may include the added-mass load) use them.
func (s *sim) offshoreAccelerations() {
	for _, sl := range s.offshore {
		sl.uNext.Platform.Acc, sl.uNext.Platform.AngAcc = s.edOut.PtfmTAi, s.edOut.PtfmRAi
		s.setNodeMotions(sl, sl.uNext)
	}
}

// offshoreInit initialises the modules at t = 0 and the structure's
// platform load.
func (s *sim) offshoreInit(u *structure.Inputs) error {
	if len(s.offshore) == 0 {
		return nil
	}
	s.offshoreInputs()
	return s.offshoreOutputs(0, u, true)
}

// offshoreStep advances the modules from t to t+dt (uCur → uNext, the
// latter from the structure's motion at t+dt) and computes their outputs
// at t+dt into the structure's inputs u (at t+dt).
func (s *sim) offshoreStep(t float64, u *structure.Inputs) error {
	if len(s.offshore) == 0 {
		return nil
	}
	s.offshoreInputs()
	update := func(sl *offshoreSlot) error {
		s.stage = sl.mod.Name()
		return sl.mod.UpdateStates(t, s.dt, sl.uCur, sl.uNext)
	}
	// The substructure first: the others' node motions at t+dt follow its
	// mesh, which its outputs give after its states have advanced.
	if s.sub != nil {
		// Its loads from the others at t+dt are not known yet: hold
		// those at t.
		copy(s.sub.uNext.NodeLoads, s.sub.uCur.NodeLoads)
		if err := update(s.sub); err != nil {
			return err
		}
		if err := s.sub.mod.CalcOutput(t+s.dt, s.sub.uNext, &s.sub.y); err != nil {
			return err
		}
	}
	for _, sl := range s.offshore {
		if sl == s.sub {
			continue
		}
		if s.followsSubstructure(sl) {
			s.setNodeMotions(sl, sl.uNext)
		}
		if err := update(sl); err != nil {
			return err
		}
	}
	return s.offshoreOutputs(t+s.dt, u, false)
}

// offshoreShift makes the inputs at t+dt the current ones.
func (s *sim) offshoreShift() {
	for _, sl := range s.offshore {
		sl.uCur.CopyFrom(sl.uNext)
	}
}

// offshoreChannel resolves a channel of one of the offshore modules.
func (s *sim) offshoreChannel(name string) (channel, bool) {
	for _, sl := range s.offshore {
		c, ok := sl.mod.Channel(name)
		if !ok {
			continue
		}
		sl := sl
		return channel{Name: c.Name, Unit: c.Unit, get: func(*sim) float64 { return c.Get(sl.uNext) }}, true
	}
	return channel{}, false
}

// offshoreOutLists are the channels the offshore modules' input files ask
// for, in module order.
func (s *sim) offshoreOutLists() []string {
	var out []string
	for _, sl := range s.offshore {
		if ol, ok := sl.mod.(offshore.OutLister); ok {
			out = append(out, ol.OutList()...)
		}
	}
	return out
}
