package equilibrium

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/hydro"
	"github.com/turbinesim/turbinesim/solver/moorings"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// Platform evaluates the static loads on a deck's floating platform.
type Platform struct {
	model *structure.Model
	ref0  offshore.Vec3
	mods  []module
	// fast replaces the lumped-mass moorings (mods[1]) by their
	// quasi-static catenaries for the Jacobian; nil when mods is cheap
	// already or the lines have no catenary equivalent.
	fast []module
	free [6]bool
	init [6]float64
}

// module is one offshore module with its nodes (NodalModule) and buffers.
type module struct {
	mod   offshore.Module
	nodes []offshore.Vec3
	u     offshore.Input
	y     offshore.Output
}

// ErrNotFloating says the deck has no floating platform to balance: no
// platform DOF free, or a substructure (bottom-fixed) model.
var ErrNotFloating = errors.New("equilibrium: the deck has no floating platform")

// FromDeck builds the static loads of a deck with a floating platform
// (CompHydro 1, CompSub 0, a platform DOF free in ElastoDyn):
//
//   - the structure of ElastoDyn (structure.Model) for the weight of every
//     mass and the arm of the rotor load;
//   - HydroDyn's loads (hydro.Module) in still water: the SeaState file's
//     WaveMod is set to 0, so the wave excitation and second-order drift
//     are left out (their mean is not part of this equilibrium) and what
//     remains at rest is the buoyancy and hydrostatic restoring of the
//     WAMIT .hst with PtfmVol0 and the centre of buoyancy, the additional
//     preload and stiffness (AddF0, AddCLin), the strip-theory members'
//     buoyancy, and the drag of a steady current;
//   - the moorings (CompMooring 3: the lumped-mass lines at their static
//     solution for the displaced fairleads, as the run's own initial
//     condition solves them; CompMooring 1: the quasi-static catenaries).
//
// Other decks return an error wrapping ErrNotFloating.
func FromDeck(d *deck.Deck) (*Platform, error) {
	if d == nil || d.Main == nil || d.ElastoDyn == nil {
		return nil, fmt.Errorf("%w: no ElastoDyn", ErrNotFloating)
	}
	m, ed := d.Main, d.ElastoDyn
	free := [6]bool{ed.PtfmSgDOF, ed.PtfmSwDOF, ed.PtfmHvDOF, ed.PtfmRDOF, ed.PtfmPDOF, ed.PtfmYDOF}
	if m.CompHydro != 1 || m.CompSub != 0 || free == ([6]bool{}) {
		return nil, fmt.Errorf("%w (CompHydro %d, CompSub %d, platform DOFs %v)", ErrNotFloating, m.CompHydro, m.CompSub, free)
	}
	sp, err := structure.ParamsFromDeck(d)
	if err != nil {
		return nil, fmt.Errorf("equilibrium: %w", err)
	}
	model, err := structure.NewModel(sp, nil)
	if err != nil {
		return nil, fmt.Errorf("equilibrium: %w", err)
	}
	deg := math.Pi / 180
	p := &Platform{model: model, ref0: model.PlatformRef0(), free: free,
		init: [6]float64{ed.PtfmSurge, ed.PtfmSway, ed.PtfmHeave, ed.PtfmRoll * deg, ed.PtfmPitch * deg, ed.PtfmYaw * deg}}
	env := offshore.Env{Gravity: m.Gravity, WtrDens: m.WtrDens, WtrDpth: m.WtrDpth, MSL2SWL: m.MSL2SWL, DT: m.DT, TMax: m.DT, PtfmRef0: p.ref0}

	still := *d
	if g := d.Offshore.SeaState; g != nil {
		if still.Offshore.SeaState, err = g.WithValues([][2]string{{"WaveMod", "0"}}); err != nil {
			return nil, fmt.Errorf("equilibrium: SeaState: %w", err)
		}
	}
	hm, err := hydro.NewModule(&still, env)
	if err != nil {
		return nil, fmt.Errorf("equilibrium: %w", err)
	}
	p.add(hm)
	switch m.CompMooring {
	case 0:
	case 1:
		mm, err := moorings.NewQuasiStaticModule(d, env)
		if err != nil {
			return nil, fmt.Errorf("equilibrium: %w", err)
		}
		p.add(mm)
	case 3:
		mm, err := moorings.NewModule(d, env)
		if err != nil {
			return nil, fmt.Errorf("equilibrium: %w", err)
		}
		p.add(mm)
		// A lumped-mass static solve at a displaced position costs about
		// 0.6 s on the IEA 15 MW semi's 150 segments; the catenaries of
		// the same lines, a millisecond. The iteration differentiates the
		// catenaries and evaluates the lumped-mass lines only for its
		// residual (Options.Jacobian).
		md, _ := d.Offshore.Mooring.MoorDyn()
		if qs, err := moorings.NewQuasiStaticModuleFromMoorDyn(md, moorings.EnvFromDeck(d), p.ref0); err == nil {
			p.fast = []module{p.mods[0], newModule(qs)}
		}
	default:
		return nil, fmt.Errorf("equilibrium: CompMooring %d is not modelled", m.CompMooring)
	}
	return p, nil
}

func (p *Platform) add(mod offshore.Module) { p.mods = append(p.mods, newModule(mod)) }

func newModule(mod offshore.Module) module {
	md := module{mod: mod}
	if nm, ok := mod.(offshore.NodalModule); ok {
		md.nodes = nm.Nodes()
		md.u.Nodes = make([]offshore.NodeMotion, len(md.nodes))
	}
	return md
}

// Free says which platform DOFs ElastoDyn lets move (PtfmSgDOF …
// PtfmYDOF); the others hold their initial values.
func (p *Platform) Free() [6]bool { return p.free }

// Initial returns the deck's initial platform displacement (PtfmSurge …
// PtfmYaw; rotations in rad).
func (p *Platform) Initial() [6]float64 { return p.init }

// Load returns the net static load on the platform at displacement q
// (surge, sway, heave in m; roll, pitch, yaw in rad), about the displaced
// reference point in global axes: the turbine's weight and the rotor load
// (blades at pitch, rad) from the structure, and every offshore module's
// load at rest.
func (p *Platform) Load(q [6]float64, pitch float64, rotor structure.RotorStaticLoad) ([6]float64, error) {
	return p.load(p.mods, q, pitch, rotor)
}

func (p *Platform) load(mods []module, q [6]float64, pitch float64, rotor structure.RotorStaticLoad) ([6]float64, error) {
	f, mo := p.model.PlatformStaticLoad(q, pitch, rotor)
	total := offshore.Load{Force: f, Moment: mo}
	rm := offshore.RigidMotion{RefPos0: p.ref0, Disp: offshore.Vec3{q[0], q[1], q[2]},
		Angles: offshore.Vec3{q[3], q[4], q[5]}, Orient: structure.PlatformOrientation(q[3], q[4], q[5])}
	ref := rm.Pos()
	for i := range mods {
		md := &mods[i]
		md.u.Platform = rm
		for k, n := range md.nodes {
			md.u.Nodes[k] = rm.Node(n)
		}
		// Init solves a module's static state for the given position
		// (the moorings' static line shapes); the hydrodynamics have no
		// state at rest.
		if err := md.mod.Init(&md.u, &md.y); err != nil {
			return [6]float64{}, fmt.Errorf("equilibrium: %s: %w", md.mod.Name(), err)
		}
		total.Add(md.y.Platform)
		for k, l := range md.y.NodeLoads {
			total.Add(l.MovedTo(md.u.Nodes[k].Pos, ref))
		}
	}
	return [6]float64{total.Force[0], total.Force[1], total.Force[2], total.Moment[0], total.Moment[1], total.Moment[2]}, nil
}

// Equilibrium returns the platform displacement at which the static loads
// balance with the rotor load and blade pitch (rad) given, and the
// residual load there; the DOFs ElastoDyn holds keep their initial values.
func (p *Platform) Equilibrium(ctx context.Context, pitch float64, rotor structure.RotorStaticLoad) ([6]float64, [6]float64, error) {
	load := func(q [6]float64) ([6]float64, error) { return p.load(p.mods, q, pitch, rotor) }
	if p.fast == nil {
		return Solve(ctx, load, p.free, p.init, Options{})
	}
	// The catenaries' equilibrium first (milliseconds), then the
	// lumped-mass lines' from there with the catenaries' Jacobian.
	fast := func(q [6]float64) ([6]float64, error) { return p.load(p.fast, q, pitch, rotor) }
	q, _, err := Solve(ctx, fast, p.free, p.init, Options{})
	if err != nil {
		return q, [6]float64{}, err
	}
	return Solve(ctx, load, p.free, q, Options{Jacobian: fast})
}
