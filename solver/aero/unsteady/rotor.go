package unsteady

import "fmt"

// NodeSpec describes one blade node for NewRotor.
type NodeSpec struct {
	Constants Constants
	Polar     StaticPolar
	Chord     float64 // m
	HasCm     bool    // the airfoil table has a Cm column
	Active    bool    // UA runs at this node (see ActiveSpan)
}

// ActiveSpan reports whether a node at fraction rOverR of the rotor radius
// lies in AeroDyn's UAStartRad..UAEndRad band (inclusive).
func ActiveSpan(rOverR, uaStartRad, uaEndRad float64) bool {
	return rOverR >= uaStartRad && rOverR <= uaEndRad
}

// Rotor is the bank of UA nodes of a whole rotor, indexed [blade][node],
// with the same contract as Node.
type Rotor struct {
	nodes [][]*Node
}

// NewRotor builds every node (Init).
func NewRotor(p Params, spec [][]NodeSpec) (*Rotor, error) {
	r := &Rotor{nodes: make([][]*Node, len(spec))}
	for b := range spec {
		r.nodes[b] = make([]*Node, len(spec[b]))
		for j, s := range spec[b] {
			n, err := NewNode(p, s.Constants, s.Polar, s.Chord, s.HasCm, s.Active)
			if err != nil {
				return nil, fmt.Errorf("unsteady: blade %d node %d: %w", b+1, j+1, err)
			}
			r.nodes[b][j] = n
		}
	}
	return r, nil
}

// Node returns the model of one node (0-based indices).
func (r *Rotor) Node(blade, node int) *Node { return r.nodes[blade][node] }

func (r *Rotor) check(u [][]Input, what string) error {
	if len(u) != len(r.nodes) {
		return fmt.Errorf("unsteady: %s input has %d blades, want %d", what, len(u), len(r.nodes))
	}
	for b := range u {
		if len(u[b]) != len(r.nodes[b]) {
			return fmt.Errorf("unsteady: %s input blade %d has %d nodes, want %d", what, b+1, len(u[b]), len(r.nodes[b]))
		}
	}
	return nil
}

// UpdateStates advances every node from t to t+DT (see Node.UpdateStates).
func (r *Rotor) UpdateStates(t float64, uNow, uNext [][]Input) error {
	if err := r.check(uNow, "current"); err != nil {
		return err
	}
	if err := r.check(uNext, "next"); err != nil {
		return err
	}
	for b := range r.nodes {
		for j, n := range r.nodes[b] {
			if err := n.UpdateStates(t, uNow[b][j], uNext[b][j]); err != nil {
				return fmt.Errorf("blade %d node %d: %w", b+1, j+1, err)
			}
		}
	}
	return nil
}

// CalcOutput fills out[blade][node] (allocated by the caller, e.g. with
// NewOutput) for the inputs u at the time of the current states.
func (r *Rotor) CalcOutput(u [][]Input, out [][]Output) error {
	if err := r.check(u, "output"); err != nil {
		return err
	}
	if len(out) != len(r.nodes) {
		return fmt.Errorf("unsteady: output has %d blades, want %d", len(out), len(r.nodes))
	}
	for b := range r.nodes {
		if len(out[b]) != len(r.nodes[b]) {
			return fmt.Errorf("unsteady: output blade %d has %d nodes, want %d", b+1, len(out[b]), len(r.nodes[b]))
		}
		for j, n := range r.nodes[b] {
			y, err := n.CalcOutput(u[b][j])
			if err != nil {
				return fmt.Errorf("blade %d node %d: %w", b+1, j+1, err)
			}
			out[b][j] = y
		}
	}
	return nil
}

// NewOutput allocates an output array of the rotor's dimensions.
func (r *Rotor) NewOutput() [][]Output {
	out := make([][]Output, len(r.nodes))
	for b := range r.nodes {
		out[b] = make([]Output, len(r.nodes[b]))
	}
	return out
}

// RotorState is a copy of every node's states.
type RotorState [][]State

// State returns a copy of all states (for re-evaluated steps).
func (r *Rotor) State() RotorState {
	s := make(RotorState, len(r.nodes))
	for b := range r.nodes {
		s[b] = make([]State, len(r.nodes[b]))
		for j, n := range r.nodes[b] {
			s[b][j] = n.State()
		}
	}
	return s
}

// SetState restores states taken with State.
func (r *Rotor) SetState(s RotorState) error {
	if len(s) != len(r.nodes) {
		return fmt.Errorf("unsteady: state has %d blades, want %d", len(s), len(r.nodes))
	}
	for b := range r.nodes {
		if len(s[b]) != len(r.nodes[b]) {
			return fmt.Errorf("unsteady: state blade %d has %d nodes, want %d", b+1, len(s[b]), len(r.nodes[b]))
		}
		for j, n := range r.nodes[b] {
			n.SetState(s[b][j])
		}
	}
	return nil
}

// Reset puts every node back to its first-pass state.
func (r *Rotor) Reset() {
	for b := range r.nodes {
		for _, n := range r.nodes[b] {
			n.Reset()
		}
	}
}
