package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// DampedMode is one exponentially damped oscillation found in a record:
// x(t) ⊃ Amplitude·e^(−ζωₙt)·cos(ω_d t + φ), or a non-oscillating term
// (Period 0: an offset or a pure exponential).
type DampedMode struct {
	Period    float64 // damped period 2π/ω_d, s (0 for a non-oscillating term)
	Frequency float64 // undamped natural frequency ωₙ/2π, Hz
	Zeta      float64 // damping ratio (fraction of critical)
	Amplitude float64 // at the record's first sample
}

// DecayModes fits a free-decay record with a sum of damped modes by the
// matrix-pencil method (Hua & Sarkar 1990, "Matrix pencil method for
// estimating parameters of exponentially damped/undamped sinusoids in
// noise", IEEE Trans. ASSP 38(5); Sarkar & Pereira 1995, IEEE Antennas and
// Propagation Magazine 37(1)): the poles zᵢ of a uniformly sampled signal
// xₖ = Σ Rᵢ zᵢᵏ are the eigenvalues of the pencil formed by the shifted
// halves of its Hankel matrix, truncated to its `order` dominant singular
// vectors. Each conjugate pole pair is one oscillating mode: with
// s = ln(z)/Δt, ωₙ = |s|, ζ = −Re(s)/|s|, ω_d = Im(s). Unlike counting
// peaks, the fit separates modes that overlap in time (a platform's pitch
// decay carrying its slow surge and a tower vibration).
//
// t and x are the record (uniform t, at least 4·order samples); the record
// is first averaged over blocks of `block` samples (1 keeps it) to remove
// vibrations far above the modes of interest. Modes are returned sorted by
// amplitude, largest first.
func DecayModes(t, x []float64, order, block int) ([]DampedMode, error) {
	if len(t) != len(x) || len(t) < 2 {
		return nil, errors.New("analysis: decay record needs matching time and value columns")
	}
	if block < 1 {
		block = 1
	}
	var y []float64
	for i := 0; i+block <= len(x); i += block {
		s := 0.0
		for _, v := range x[i : i+block] {
			s += v
		}
		y = append(y, s/float64(block))
	}
	dt := (t[len(t)-1] - t[0]) / float64(len(t)-1) * float64(block)
	n := len(y)
	if order < 1 || n < 4*order {
		return nil, fmt.Errorf("analysis: %d samples after averaging are too few for %d modes", n, order)
	}
	for _, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("analysis: decay record holds a non-finite value")
		}
	}
	L := n / 2 // pencil parameter between N/3 and N/2 minimises the noise sensitivity
	rows := n - L
	Y := mat.NewDense(rows, L+1, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j <= L; j++ {
			Y.Set(i, j, y[i+j])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(Y, mat.SVDThin) {
		return nil, errors.New("analysis: decay fit: SVD failed")
	}
	var V mat.Dense
	svd.VTo(&V)
	M := min(order, L)
	V1 := mat.DenseCopyOf(V.Slice(0, L, 0, M))
	V2 := mat.DenseCopyOf(V.Slice(1, L+1, 0, M))
	var P mat.Dense
	if err := P.Solve(V1, V2); err != nil { // least squares V1·P = V2
		return nil, fmt.Errorf("analysis: decay fit: %w", err)
	}
	var eig mat.Eigen
	if !eig.Factorize(&P, mat.EigenNone) {
		return nil, errors.New("analysis: decay fit: eigenvalues failed")
	}
	poles := eig.Values(nil)
	// Amplitudes by linear least squares on real basis functions:
	// rᵏcos(kθ), rᵏsin(kθ) per pole pair (θ > 0), rᵏ per real pole.
	type basis struct {
		z    complex128
		cols int
	}
	var bs []basis
	for _, z := range poles {
		switch {
		case imag(z) > 1e-12:
			bs = append(bs, basis{z, 2})
		case math.Abs(imag(z)) <= 1e-12:
			bs = append(bs, basis{complex(real(z), 0), 1})
		}
	}
	nc := 0
	for _, b := range bs {
		nc += b.cols
	}
	A := mat.NewDense(n, nc, nil)
	for k := 0; k < n; k++ {
		c := 0
		for _, b := range bs {
			zk := cmplx.Pow(b.z, complex(float64(k), 0))
			A.Set(k, c, real(zk))
			if b.cols == 2 {
				A.Set(k, c+1, imag(zk))
			}
			c += b.cols
		}
	}
	var coef mat.VecDense
	if err := coef.SolveVec(A, mat.NewVecDense(n, y)); err != nil {
		return nil, fmt.Errorf("analysis: decay fit amplitudes: %w", err)
	}
	var out []DampedMode
	c := 0
	for _, b := range bs {
		s := cmplx.Log(b.z) / complex(dt, 0)
		wn := cmplx.Abs(s)
		m := DampedMode{Frequency: wn / (2 * math.Pi)}
		if wn > 0 {
			m.Zeta = -real(s) / wn
		}
		if b.cols == 2 {
			m.Period = 2 * math.Pi / imag(s)
			m.Amplitude = math.Hypot(coef.AtVec(c), coef.AtVec(c+1))
		} else {
			m.Amplitude = math.Abs(coef.AtVec(c))
		}
		c += b.cols
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Amplitude > out[j].Amplitude })
	return out, nil
}

// DominantMode returns the largest oscillating mode of DecayModes whose
// damped period lies in [minPeriod, maxPeriod] s.
func DominantMode(modes []DampedMode, minPeriod, maxPeriod float64) (DampedMode, bool) {
	for _, m := range modes {
		if m.Period >= minPeriod && m.Period <= maxPeriod {
			return m, true
		}
	}
	return DampedMode{}, false
}
