package moorings

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// maxStaticUnknowns bounds the dense Jacobian of the static solve (18 MB).
const maxStaticUnknowns = 1500

// solveStatic finds the static equilibrium of the lumped-mass system (all
// node and free-point velocities zero, the end points where they are) by
// Newton's method on the interior-node and free-point positions, starting
// from the current positions. This is the state MoorDyn's dynamic
// relaxation tends to; solving for it directly avoids the slowly decaying
// axial modes of long grounded lines, which keep the relaxation from
// meeting threshIC within TmaxIC. The Jacobian is by forward differences,
// factorised with gonum's LU. Returns the largest residual force (N).
func (s *System) solveStatic(maxIter int) (float64, error) {
	s.zeroVelocities()
	n := s.nState
	// Position unknowns: the first half of each line's and free point's
	// states.
	// Each line stores its 3(N−1) positions then its 3(N−1) velocities,
	// each free point 3 + 3; the derivative holds the accelerations where
	// the state holds the velocities.
	var idx, acc []int
	for _, ln := range s.lines {
		m := 3 * (ln.n - 1)
		for i := 0; i < m; i++ {
			idx = append(idx, ln.stateOff+i)
			acc = append(acc, ln.stateOff+m+i)
		}
	}
	for _, pt := range s.points {
		if pt.state >= 0 {
			idx = append(idx, pt.state, pt.state+1, pt.state+2)
			acc = append(acc, pt.state+3, pt.state+4, pt.state+5)
		}
	}
	nu := len(idx)
	if nu == 0 {
		return 0, nil
	}
	if nu > maxStaticUnknowns {
		// The dense Jacobian would be too large: dynamic relaxation.
		return 0, fmt.Errorf("moorings: %d node coordinates, more than the %d the static solve takes", nu, maxStaticUnknowns)
	}
	res := make([]float64, nu)
	trial := make([]float64, nu)
	y := s.y
	ys := make([]float64, n)
	residual := func(y []float64, out []float64) error {
		if err := s.deriv(0, y, s.dy, 1); err != nil {
			return err
		}
		if err := checkFinite(s.dy); err != nil {
			return err
		}
		// The accelerations are M⁻¹F; the forces themselves are what
		// equilibrium sets to zero, but M⁻¹F is zero at the same point
		// and is what deriv provides for free points as well.
		for k, i := range acc {
			out[k] = s.dy[i]
		}
		return nil
	}
	if err := residual(y, res); err != nil {
		return 0, err
	}
	J := mat.NewDense(nu, nu, nil)
	var lu mat.LU
	dx := mat.NewVecDense(nu, nil)
	rhs := mat.NewVecDense(nu, nil)
	const h = 1e-6 // m; forward-difference step on positions
	for it := 0; it < maxIter; it++ {
		if floats.Norm(res, math.Inf(1)) < 1e-9 {
			break
		}
		for c, i := range idx {
			copy(ys, y)
			ys[i] += h
			if err := residual(ys, trial); err != nil {
				return 0, err
			}
			for r := 0; r < nu; r++ {
				J.Set(r, c, (trial[r]-res[r])/h)
			}
		}
		// Nodes between slack segments have no stiffness across the
		// line, which makes J singular; a small diagonal shift
		// (Levenberg-Marquardt) keeps them where they are.
		jmax := 0.0
		for k := 0; k < nu; k++ {
			jmax = math.Max(jmax, math.Abs(J.At(k, k)))
		}
		for k := 0; k < nu; k++ {
			J.Set(k, k, J.At(k, k)-1e-9*jmax)
		}
		lu.Factorize(J)
		for k := range res {
			rhs.SetVec(k, -res[k])
		}
		if err := lu.SolveVecTo(dx, false, rhs); err != nil {
			return 0, fmt.Errorf("moorings: static solve: singular Jacobian: %w", err)
		}
		// Backtracking: accept the largest step 1, 1/2, 1/4, ... that
		// reduces the residual.
		r0 := floats.Norm(res, 2)
		step := 1.0
		accepted := false
		for k := 0; k < 12; k++ {
			copy(ys, y)
			for c, i := range idx {
				ys[i] += step * dx.AtVec(c)
			}
			if err := residual(ys, trial); err == nil && floats.Norm(trial, 2) < r0 {
				copy(y, ys)
				copy(res, trial)
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			break
		}
		if step == 1 && floats.Norm(dx.RawVector().Data, math.Inf(1)) < 1e-9 {
			break
		}
	}
	s.scatter(y)
	s.evaluate(1)
	worst := 0.0
	for _, ln := range s.lines {
		for i := 3; i < 3*ln.n; i++ {
			worst = math.Max(worst, math.Abs(ln.f[i]))
		}
	}
	for _, pt := range s.points {
		if pt.state >= 0 {
			worst = math.Max(worst, norm(pt.f))
		}
	}
	return worst, nil
}
