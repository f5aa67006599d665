package aero

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/aero/unsteady"
)

// Unsteady airfoil models (AeroDyn UA_Mod).
const (
	UANone          = 0 // steady polars
	UAMinnemaPierce = unsteady.ModMinnemaPierce
)

// UAOptions configure unsteady airfoil aerodynamics (AeroDyn's UA block and
// each airfoil's UA constants).
type UAOptions struct {
	DT           float64 // time step of the discrete UA states (AeroDyn DTAero, the glue DT) (s)
	SpeedOfSound float64 // m/s; 0 = unsteady.DefaultSpeedOfSound
	FLookup      bool    // separation point from the static polar
	// StartRad, EndRad bound the span (fraction of the rotor radius, hub
	// radius included) where UA runs; AeroDyn decides it once from the
	// initial geometry, here at the first CalcOutput.
	StartRad, EndRad float64
	// Constants and HasCm per entry of Params.Airfoils (table 1, AFTabMod 1).
	Constants []unsteady.Constants
	HasCm     []bool
}

// nodePolar is the StaticPolar of one node: the same airfoil lookup the BEMT
// uses, at the node's Reynolds number and user property.
type nodePolar struct {
	af     *Airfoil
	re, up float64
}

func (p nodePolar) Static(alpha float64) (cl, cd, cm float64) {
	c := p.af.Coefs(alpha, p.re, p.up)
	return c.Cl, c.Cd, c.Cm
}

// uaBank holds the unsteady model of every node with the same time
// bookkeeping as the DBEMT states: the state at the committed time tC (and
// the inputs there), and, after an advance, the latest state at tL held by
// the nodes themselves. A call at a later time commits the latest; calls at
// the committed time (or between tC and tL) restart from the committed state.
type uaBank struct {
	rot          *unsteady.Rotor
	in, inC, inL [][]unsteady.Input
	out          [][]unsteady.Output
	stC          [][]unsteady.State // per node, kept without allocation
	tC, tL       float64
	hasLatest    bool
	// Node kinematics at the committed (kinC) and latest (kinL) times, for
	// re-forming the committed input with the wind of the step's end.
	kinC, kinL [][]uaKin
	startIn    [][]unsteady.Input
}

// uaKin is what a node's angle of attack is made of at one time: its frame
// (structural velocity, in-plane axes, tower influence), twist+pitch and the
// induced velocities (axial -a Vx and tangential a' Vy, after DBEMT and
// skew).
// A node whose induction is fixed (a = 1 where the tip/hub loss factor is
// zero, or no induction) keeps its induction factors instead: AeroDyn
// neither filters nor skew-corrects it and forms its inflow from the
// factors with the new wind, Vx (1 - a), so its step-start inflow angle is
// the end's (phi = 0 at a zero-loss tip).
type uaKin struct {
	frame    nodeFrame
	theta    float64
	vix, viy float64
	fixed    bool
	ax, tan  float64 // induction factors of a fixed node
}

func (b *uaBank) saveKin(dst [][]uaKin, out *Output) {
	for k := range out.work {
		for j := range out.work[k] {
			w := &out.work[k][j]
			dst[k][j] = uaKin{frame: w.frame(out.dist[k][j]), theta: w.sec.Theta,
				vix: -w.sol.AxInd * w.vx, viy: w.sol.TanInd * w.vy,
				fixed: w.sol.Fixed, ax: w.sol.AxInd, tan: w.sol.TanInd}
		}
	}
}

// startInputs forms the inputs at the committed time with the inflow of the
// current time (AeroDyn's AD_UpdateStates evaluates the inflow once, at the
// newest input time and positions, for the inputs at both ends of the step;
// the discrete B-L states advance from the input at the start).
func (b *uaBank) startInputs(out *Output) [][]unsteady.Input {
	for k := range b.kinC {
		for j := range b.kinC[k] {
			c := &b.kinC[k][j]
			vx, vy := c.frame.inflow(out.work[k][j].wind)
			ux, uy := vx+c.vix, vy+c.viy
			if c.fixed {
				ux, uy = vx*(1-c.ax), vy*(1+c.tan)
			}
			b.startIn[k][j] = unsteady.Input{Alpha: WrapAngle(math.Atan2(ux, uy) - c.theta), U: math.Hypot(ux, uy)}
		}
	}
	return b.startIn
}

// newUABank builds the nodes from the first evaluated geometry (node radius
// rloc over the tip radius decides UAStartRad..UAEndRad, as AeroDyn does at
// initialisation).
func (r *Rotor) newUABank(out *Output, rTip float64) (*uaBank, error) {
	o := &r.p.UA
	spec := make([][]unsteady.NodeSpec, len(out.work))
	for k := range out.work {
		geo := &r.blades[k]
		spec[k] = make([]unsteady.NodeSpec, len(out.work[k]))
		for j := range out.work[k] {
			w := &out.work[k][j]
			id := geo.AirfoilID[j]
			ratio := 0.0
			if rTip > 0 {
				ratio = w.sec.RLocal / rTip
			}
			spec[k][j] = unsteady.NodeSpec{
				Constants: o.Constants[id],
				Polar:     nodePolar{af: r.p.Airfoils[id], re: w.sol.Re, up: w.sec.UserProp},
				Chord:     geo.Chord[j],
				HasCm:     o.HasCm[id],
				Active:    unsteady.ActiveSpan(ratio, o.StartRad, o.EndRad),
			}
		}
	}
	rot, err := unsteady.NewRotor(unsteady.Params{DT: o.DT, SpeedOfSound: o.SpeedOfSound, FLookup: o.FLookup}, spec)
	if err != nil {
		return nil, fmt.Errorf("aero: unsteady aerodynamics: %w", err)
	}
	b := &uaBank{rot: rot, out: rot.NewOutput()}
	mk := func() [][]unsteady.Input {
		a := make([][]unsteady.Input, len(out.work))
		for k := range a {
			a[k] = make([]unsteady.Input, len(out.work[k]))
		}
		return a
	}
	b.in, b.inC, b.inL, b.startIn = mk(), mk(), mk(), mk()
	b.kinC = make([][]uaKin, len(out.work))
	b.kinL = make([][]uaKin, len(out.work))
	for k := range out.work {
		b.kinC[k] = make([]uaKin, len(out.work[k]))
		b.kinL[k] = make([]uaKin, len(out.work[k]))
	}
	b.stC = make([][]unsteady.State, len(out.work))
	for k := range b.stC {
		b.stC[k] = make([]unsteady.State, len(out.work[k]))
	}
	return b, nil
}

func copyInputs(dst, src [][]unsteady.Input) {
	for k := range src {
		copy(dst[k], src[k])
	}
}

// applyUA advances the unsteady airfoil states to time t with the angles of
// attack and relative speeds of the (DBEMT-filtered, skew-corrected)
// solution in out.work, and returns the unsteady coefficients of every node
// at t (AeroDyn order: BEMT/DBEMT first, then UA_UpdateStates from the
// inputs at the previous and the current time, then UA_CalcOutput).
func (r *Rotor) applyUA(t float64, out *Output, rTip float64) ([][]unsteady.Output, error) {
	b := r.ua
	first := b == nil
	if first {
		var err error
		if b, err = r.newUABank(out, rTip); err != nil {
			return nil, err
		}
		r.ua = b
	}
	for k := range out.work {
		for j := range out.work[k] {
			s := &out.work[k][j].sol
			b.in[k][j] = unsteady.Input{Alpha: s.Alpha, U: s.W}
		}
	}
	switch {
	case first:
		b.tC = t
		copyInputs(b.inC, b.in)
		b.saveKin(b.kinC, out)
		b.saveCommitted()
	default:
		if b.hasLatest && t > b.tL {
			b.tC = b.tL
			copyInputs(b.inC, b.inL)
			b.kinC, b.kinL = b.kinL, b.kinC
			b.saveCommitted()
			b.hasLatest = false
		}
		if b.hasLatest {
			b.restoreCommitted()
			b.hasLatest = false
		}
		if t <= b.tC {
			// Re-evaluation at the committed time: newest inputs there.
			copyInputs(b.inC, b.in)
			b.saveKin(b.kinC, out)
			break
		}
		// The discrete states advance from the input at the committed
		// time re-formed with the current inflow (startInputs).
		if err := b.rot.UpdateStates(b.tC, b.startInputs(out), b.in); err != nil {
			return nil, fmt.Errorf("aero: unsteady aerodynamics at t=%g s: %w", t, err)
		}
		b.tL = t
		copyInputs(b.inL, b.in)
		b.saveKin(b.kinL, out)
		b.hasLatest = true
	}
	if err := b.rot.CalcOutput(b.in, b.out); err != nil {
		return nil, fmt.Errorf("aero: unsteady aerodynamics at t=%g s: %w", t, err)
	}
	return b.out, nil
}

// saveCommitted copies every node's states into stC (node by node, so the
// time loop does not allocate).
func (b *uaBank) saveCommitted() {
	for k := range b.stC {
		for j := range b.stC[k] {
			b.stC[k][j] = b.rot.Node(k, j).State()
		}
	}
}

func (b *uaBank) restoreCommitted() {
	for k := range b.stC {
		for j := range b.stC[k] {
			b.rot.Node(k, j).SetState(b.stC[k][j])
		}
	}
}
