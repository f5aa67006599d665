// Package equilibrium finds the static equilibrium of a floating platform:
// the platform displacement (surge, sway, heave, roll, pitch, yaw) at which
// the weight of the turbine and platform, a steady rotor load, the
// hydrostatic and additional loads of the hydrodynamics and the moorings'
// static restoring loads balance. A run started there has no start-up
// drift of the platform to its mean offset (docs/events.md §6).
//
// Solve is the nonlinear solver on any load function; Platform evaluates
// the loads of a deck with the solver's own models (structure for the
// weight and the rotor load's arm, hydro in still water, moorings at their
// static solution for the displaced fairleads), so the equilibrium is the
// one the coupled run itself would settle to under a constant rotor load.
package equilibrium

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// LoadFunc returns the net static load on the platform (Fx, Fy, Fz in N;
// Mx, My, Mz in N·m about the displaced reference point, global axes) at
// the displacement q (surge, sway, heave in m; roll, pitch, yaw in rad).
type LoadFunc func(q [6]float64) ([6]float64, error)

// Options tune Solve. The zero value takes the defaults.
type Options struct {
	// MaxIter bounds the Newton iterations (default 40).
	MaxIter int
	// StepTol ends the iteration once a full Newton step moves no
	// translation by more than StepTol m and no rotation by more than
	// StepTol/100 rad (default 1e-4 m).
	StepTol float64
	// Jacobian, when not nil, is differentiated for the Jacobian instead
	// of the load itself: a cheaper model of nearly the same stiffness
	// (the quasi-static catenaries of a lumped-mass mooring) saves the
	// six extra evaluations of an expensive load per iteration; the
	// iteration still converges to the load's own zero, linearly with
	// the models' difference.
	Jacobian LoadFunc
}

// ErrNotConverged says Solve ran out of iterations.
var ErrNotConverged = errors.New("equilibrium: no convergence")

// finite-difference steps of the Jacobian: 1 cm and 0.01°, small against
// the offsets (metres, degrees) and large against the load functions'
// own solution tolerances.
const (
	stepTranslation = 0.01
	stepRotation    = 1.7e-4
)

// Solve finds q with load(q) = 0 for the free components of q, starting
// from q0; the others stay at q0's values (a platform DOF switched off in
// ElastoDyn holds its initial value). It is Newton's method with a
// forward-difference Jacobian, refreshed every iteration (the mooring
// stiffness of a catenary more than doubles between zero and a 20-m
// offset, so a Jacobian from the undisplaced position would converge
// slowly), solved with gonum's LU, and a backtracking line search on the
// residual's norm (forces and moments weighted by the Jacobian's diagonal,
// so metres and radians count alike). It returns the equilibrium and the
// residual load there.
func Solve(ctx context.Context, load LoadFunc, free [6]bool, q0 [6]float64, opt Options) ([6]float64, [6]float64, error) {
	if opt.MaxIter <= 0 {
		opt.MaxIter = 40
	}
	if !(opt.StepTol > 0) {
		opt.StepTol = 1e-4
	}
	var idx []int
	for i, f := range free {
		if f {
			idx = append(idx, i)
		}
	}
	q := q0
	r, err := load(q)
	if err != nil {
		return q, r, err
	}
	n := len(idx)
	if n == 0 {
		return q, r, nil
	}
	J := mat.NewDense(n, n, nil)
	rhs := mat.NewVecDense(n, nil)
	dq := mat.NewVecDense(n, nil)
	var lu mat.LU
	// weight[k] scales residual k to a displacement: 1/|∂r_k/∂q_k| of the
	// first Jacobian.
	weight := make([]float64, n)
	norm := func(r [6]float64) float64 {
		s := 0.0
		for k, i := range idx {
			x := r[i] * weight[k]
			s += x * x
		}
		return math.Sqrt(s)
	}
	jac := load
	if opt.Jacobian != nil {
		jac = opt.Jacobian
	}
	for it := 0; it < opt.MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			return q, r, err
		}
		rj := r
		if opt.Jacobian != nil {
			if rj, err = jac(q); err != nil {
				return q, r, err
			}
		}
		for c, j := range idx {
			h := stepTranslation
			if j >= 3 {
				h = stepRotation
			}
			qs := q
			qs[j] += h
			rs, err := jac(qs)
			if err != nil {
				return q, r, err
			}
			for k, i := range idx {
				J.Set(k, c, (rs[i]-rj[i])/h)
			}
		}
		if it == 0 {
			for k := range idx {
				d := math.Abs(J.At(k, k))
				if d == 0 {
					return q, r, fmt.Errorf("equilibrium: no static stiffness in DOF %d (%s): the platform would drift without bound", idx[k]+1, dofNames[idx[k]])
				}
				weight[k] = 1 / d
			}
		}
		lu.Factorize(J)
		for k, i := range idx {
			rhs.SetVec(k, -r[i])
		}
		if err := lu.SolveVecTo(dq, false, rhs); err != nil {
			return q, r, fmt.Errorf("equilibrium: singular stiffness: %w", err)
		}
		r0 := norm(r)
		step := 1.0
		accepted := false
		var qt [6]float64
		var rt [6]float64
		for k := 0; k < 10; k++ {
			qt = q
			for c, j := range idx {
				qt[j] += step * dq.AtVec(c)
			}
			if rt, err = load(qt); err == nil && norm(rt) < r0 {
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			// No step reduces the residual. Weighted by the stiffness it
			// is a displacement: within ten step tolerances it is the load
			// functions' own noise (their inner solves' tolerances), the
			// equilibrium as well as they know it; beyond, the iteration
			// is lost.
			if r0 < 10*opt.StepTol {
				return q, r, nil
			}
			return q, r, fmt.Errorf("%w: no step reduces the residual %v", ErrNotConverged, r)
		}
		q, r = qt, rt
		small := true
		for c, j := range idx {
			tol := opt.StepTol
			if j >= 3 {
				tol /= 100
			}
			if math.Abs(dq.AtVec(c)) > tol {
				small = false
			}
		}
		if small && step == 1 {
			return q, r, nil
		}
	}
	return q, r, fmt.Errorf("%w in %d iterations (residual %v)", ErrNotConverged, opt.MaxIter, r)
}

// dofNames are ElastoDyn's names of the platform DOFs.
var dofNames = [6]string{"PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw"}
