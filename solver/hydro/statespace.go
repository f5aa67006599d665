package hydro

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// State-space files of a potential-flow body, written next to the WAMIT
// files by NREL's SS_Fitting (radiation, <PotFile>.ss) and
// SS_Excitation_Fitting (wave excitation, <PotFile>.ssexctn) and read by
// HydroDyn for RdtnMod 2 and ExctnMod 2 (HydroDyn user documentation,
// "FLOATING PLATFORM": the files share PotFile's root name). Both are plain
// text, dimensional (SI), one matrix row per line:
//
//	.ss:       title line
//	           six 0/1 flags: the DOFs (surge … yaw) whose radiation is fitted
//	           N, the number of states
//	           six integers: the states driven by each DOF's velocity
//	           A (N rows of N), B (N rows of 6), C (6 rows of N)
//	.ssexctn:  title line
//	           the wave heading the fit is for (deg)
//	           the time offset tc (s) that makes the excitation causal
//	           N, the number of states
//	           six integers: the states of each DOF's excitation
//	           A (N rows of N), B (N rows of 1), C (6 rows of N)
//
// Text after the numbers on the header lines ("%Enabled DoFs") is a
// comment. The radiation system is x' = A x + B q̇ with the memory force
// C x: the file's C carries the force's minus sign, C e^{At} B = −K(t),
// Cummins' radiation kernel of the .1 data
// (TestStateSpaceImpulseResponseMatchesKernel); the excitation system
// is x' = A x + B η(t + tc) with the force C x, η the incident wave
// elevation at the WAMIT reference point: the excitation impulse response
// is not causal (the force leads the elevation at the reference point), so
// the fit is of that response delayed by tc, and the states driven tc
// ahead give the force now.

// maxStates bounds the number of states a state-space file may declare
// (SS_Fitting's fits have tens per DOF): the matrix exponential of the
// discretisation is cubic in it.
const maxStates = 600

// StateSpace is a linear system x' = A x + B u, y = C x read from a
// state-space file, dimensional: N states, M inputs, P = 6 outputs, the
// matrices row-major.
type StateSpace struct {
	N, M    int
	A, B, C []float64 // N×N, N×M, 6×N
	// PerDOF is the number of states of each DOF as the file lists it;
	// Enabled (radiation only) the DOFs whose radiation is fitted.
	PerDOF  [6]int
	Enabled [6]bool
	// Heading (deg) and TC (s): the wave heading of an excitation fit and
	// its time offset; zero for radiation.
	Heading, TC float64
}

// ssReader walks a state-space file line by line, keeping the line number
// for errors that name the file as the deck wrote it.
type ssReader struct {
	sc   *bufio.Scanner
	name string
	line int
}

func (r *ssReader) errf(f string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, r.line, fmt.Sprintf(f, a...))
}

// next returns the next line's fields, the header comment (from '%' or
// '!') removed; blank lines are skipped.
func (r *ssReader) next(what string) ([]string, error) {
	for r.sc.Scan() {
		r.line++
		s := r.sc.Text()
		if i := strings.IndexAny(s, "%!"); i >= 0 {
			s = s[:i]
		}
		if f := strings.Fields(s); len(f) > 0 {
			return f, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %s: a line is too long", r.name, r.line+1, what)
	}
	return nil, fmt.Errorf("%s:%d: the file ends before %s", r.name, r.line, what)
}

// number parses the col-th value (1-based) of a line; errors name the
// position, never the text.
func (r *ssReader) number(s, what string, col int) (float64, error) {
	v, err := strconv.ParseFloat(strings.NewReplacer("D", "E", "d", "e").Replace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, r.errf("%s: value %d is not a finite number", what, col)
	}
	return v, nil
}

func (r *ssReader) integer(s, what string, col, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, r.errf("%s: value %d is not an integer from %d to %d", what, col, lo, hi)
	}
	return v, nil
}

// scalar reads a line whose first field is one number.
func (r *ssReader) scalar(what string) (float64, error) {
	f, err := r.next(what)
	if err != nil {
		return 0, err
	}
	return r.number(f[0], what, 1)
}

// six reads a line of six integers in [lo, hi].
func (r *ssReader) six(what string, lo, hi int) ([6]int, error) {
	var out [6]int
	f, err := r.next(what)
	if err != nil {
		return out, err
	}
	if len(f) < 6 {
		return out, r.errf("%s: %d values, want 6 (surge, sway, heave, roll, pitch, yaw)", what, len(f))
	}
	for i := range out {
		if out[i], err = r.integer(f[i], what, i+1, lo, hi); err != nil {
			return out, err
		}
	}
	return out, nil
}

// matrix reads rows lines of exactly cols numbers into m (row-major).
func (r *ssReader) matrix(what string, rows, cols int, m []float64) error {
	for i := 0; i < rows; i++ {
		f, err := r.next(fmt.Sprintf("row %d of %s", i+1, what))
		if err != nil {
			return err
		}
		if len(f) != cols {
			return r.errf("row %d of %s: %d values, want %d", i+1, what, len(f), cols)
		}
		for j, s := range f {
			if m[i*cols+j], err = r.number(s, what, j+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// states reads the total number of states and the states per DOF, which
// must add up to it.
func (r *ssReader) states(ss *StateSpace) error {
	n, err := r.scalar("the number of states")
	if err != nil {
		return err
	}
	if n != math.Trunc(n) || n < 1 || n > maxStates {
		return r.errf("the number of states: %g is not an integer from 1 to %d", n, maxStates)
	}
	ss.N = int(n)
	if ss.PerDOF, err = r.six("the states per DOF", 0, maxStates); err != nil {
		return err
	}
	sum := 0
	for _, k := range ss.PerDOF {
		sum += k
	}
	if sum != ss.N {
		return r.errf("the states per DOF add up to %d, not the %d states declared", sum, ss.N)
	}
	return nil
}

// body reads A, B and C, and checks that A is stable.
func (r *ssReader) body(ss *StateSpace) error {
	ss.A = make([]float64, ss.N*ss.N)
	ss.B = make([]float64, ss.N*ss.M)
	ss.C = make([]float64, 6*ss.N)
	if err := r.matrix("A", ss.N, ss.N, ss.A); err != nil {
		return err
	}
	if err := r.matrix("B", ss.N, ss.M, ss.B); err != nil {
		return err
	}
	if err := r.matrix("C", 6, ss.N, ss.C); err != nil {
		return err
	}
	for {
		f, err := r.next("")
		if err != nil {
			break
		}
		return r.errf("%d unexpected values after the C matrix", len(f))
	}
	if !stable(ss.N, ss.A) {
		return fmt.Errorf("%s: the state matrix A is not stable (an eigenvalue has a positive real part): the fit would grow without bound", r.name)
	}
	return nil
}

// stable reports whether every eigenvalue of the n×n matrix a has a real
// part ≤ 0 (to round-off relative to the largest eigenvalue).
func stable(n int, a []float64) bool {
	var e mat.Eigen
	if !e.Factorize(mat.NewDense(n, n, append([]float64(nil), a...)), mat.EigenNone) {
		return false
	}
	vals := e.Values(nil)
	big := 0.0
	for _, v := range vals {
		big = math.Max(big, cmplxAbs(v))
	}
	for _, v := range vals {
		if real(v) > 1e-9*big {
			return false
		}
	}
	return true
}

func cmplxAbs(z complex128) float64 { return math.Hypot(real(z), imag(z)) }

func newSSReader(b []byte, name string) *ssReader {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return &ssReader{sc: sc, name: name}
}

// ParseSSRadiation reads a radiation state-space file (<PotFile>.ss); name
// is the file as the deck names it, for errors. A DOF whose flag is 0 has
// no states and its velocity drives none (its column of B is zeroed).
func ParseSSRadiation(b []byte, name string) (*StateSpace, error) {
	r := newSSReader(b, name)
	if _, err := r.next("the title line"); err != nil {
		return nil, err
	}
	flags, err := r.six("the enabled DOFs", 0, 1)
	if err != nil {
		return nil, err
	}
	ss := &StateSpace{M: 6}
	for i, f := range flags {
		ss.Enabled[i] = f == 1
	}
	if err := r.states(ss); err != nil {
		return nil, err
	}
	for i, k := range ss.PerDOF {
		if !ss.Enabled[i] && k != 0 {
			return nil, r.errf("the states per DOF: DOF %d is not enabled but has %d states", i+1, k)
		}
	}
	if err := r.body(ss); err != nil {
		return nil, err
	}
	for j := 0; j < 6; j++ {
		if !ss.Enabled[j] {
			for i := 0; i < ss.N; i++ {
				ss.B[i*6+j] = 0
			}
		}
	}
	return ss, nil
}

// ParseSSExcitation reads a wave-excitation state-space file
// (<PotFile>.ssexctn); name is the file as the deck names it, for errors.
func ParseSSExcitation(b []byte, name string) (*StateSpace, error) {
	r := newSSReader(b, name)
	if _, err := r.next("the title line"); err != nil {
		return nil, err
	}
	ss := &StateSpace{M: 1}
	var err error
	if ss.Heading, err = r.scalar("the wave heading"); err != nil {
		return nil, err
	}
	if ss.TC, err = r.scalar("the time offset tc"); err != nil {
		return nil, err
	}
	if ss.TC < 0 {
		return nil, r.errf("the time offset tc: %g s is negative", ss.TC)
	}
	if err := r.states(ss); err != nil {
		return nil, err
	}
	if err := r.body(ss); err != nil {
		return nil, err
	}
	return ss, nil
}

// Impulse returns C e^{At} B: out[i][j] is output i's response at time t to
// a unit impulse on input j (for the radiation file, the kernel K_ij(t)).
func (ss *StateSpace) Impulse(t float64) [][]float64 {
	var e mat.Dense
	e.Exp(mat.NewDense(ss.N, ss.N, scaled(ss.A, t)))
	var eb, ceb mat.Dense
	eb.Mul(&e, mat.NewDense(ss.N, ss.M, ss.B))
	ceb.Mul(mat.NewDense(6, ss.N, ss.C), &eb)
	out := make([][]float64, 6)
	for i := range out {
		out[i] = make([]float64, ss.M)
		for j := range out[i] {
			out[i][j] = ceb.At(i, j)
		}
	}
	return out
}

// FrequencyResponse returns H(iω) = C (iωI − A)^{-1} B (6×M): the steady
// response of output i to the input Re(e^{iωt}) on input j is
// Re(H_ij e^{iωt}). For the radiation fit, −Re H(iω) is the damping B(ω)
// the fit stands for and −Im H(iω)/ω the added mass A(ω) − A∞.
func (ss *StateSpace) FrequencyResponse(w float64) ([][]complex128, error) {
	n, m := ss.N, ss.M
	// (iωI − A)(zr + i zi) = B as a real system of 2N:
	// [−A −ωI; ωI −A] [zr; zi] = [B; 0]
	k := mat.NewDense(2*n, 2*n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			k.Set(i, j, -ss.A[i*n+j])
			k.Set(n+i, n+j, -ss.A[i*n+j])
		}
		k.Set(i, n+i, -w)
		k.Set(n+i, i, w)
	}
	rhs := mat.NewDense(2*n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			rhs.Set(i, j, ss.B[i*m+j])
		}
	}
	var z mat.Dense
	if err := z.Solve(k, rhs); err != nil {
		return nil, fmt.Errorf("hydro: the state-space fit is singular at %g rad/s", w)
	}
	out := make([][]complex128, 6)
	for i := range out {
		out[i] = make([]complex128, m)
		for j := 0; j < m; j++ {
			var re, im float64
			for l := 0; l < n; l++ {
				re += ss.C[i*n+l] * z.At(l, j)
				im += ss.C[i*n+l] * z.At(n+l, j)
			}
			out[i][j] = complex(re, im)
		}
	}
	return out, nil
}

func scaled(a []float64, s float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = v * s
	}
	return out
}

// ssStep is the exact discretisation of x' = A x + B u over a step h with
// the input linear in time between its values u0 and u1 at the ends:
//
//	x(h) = Φ x(0) + G0 u0 + G1 u1,  Φ = e^{Ah},
//
// from one matrix exponential of the block matrix [[Ah, Bh, 0], [0, 0, I],
// [0, 0, 0]], whose exponential holds Φ, Γ = ∫_0^h e^{As} ds B and
// Γ2 = ∫_0^h e^{As} (h−s)/h ds B (Van Loan 1978): the input u0 + (u1−u0)τ/h
// gives x(h) = Φ x(0) + Γ u0 + Γ2 (u1 − u0).
type ssStep struct {
	phi    []float64 // N×N
	g0, g1 []float64 // N×M: G0 = Γ − Γ2, G1 = Γ2
}

func discretise(ss *StateSpace, h float64) *ssStep {
	n, m := ss.N, ss.M
	k := n + 2*m
	big := mat.NewDense(k, k, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			big.Set(i, j, ss.A[i*n+j]*h)
		}
		for j := 0; j < m; j++ {
			big.Set(i, n+j, ss.B[i*m+j]*h)
		}
	}
	for j := 0; j < m; j++ {
		big.Set(n+j, n+m+j, 1)
	}
	var e mat.Dense
	e.Exp(big)
	st := &ssStep{phi: make([]float64, n*n), g0: make([]float64, n*m), g1: make([]float64, n*m)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			st.phi[i*n+j] = e.At(i, j)
		}
		for j := 0; j < m; j++ {
			g, g2 := e.At(i, n+j), e.At(i, n+m+j)
			st.g0[i*m+j] = g - g2
			st.g1[i*m+j] = g2
		}
	}
	return st
}

// apply sets dst = Φ x + G0 u0 + G1 u1.
func (st *ssStep) apply(dst, x, u0, u1 []float64) {
	n, m := len(x), len(u0)
	for i := 0; i < n; i++ {
		row := st.phi[i*n : (i+1)*n]
		s := 0.0
		for j, v := range row {
			s += v * x[j]
		}
		g0, g1 := st.g0[i*m:(i+1)*m], st.g1[i*m:(i+1)*m]
		for j := 0; j < m; j++ {
			s += g0[j]*u0[j] + g1[j]*u1[j]
		}
		dst[i] = s
	}
}

// output returns C x.
func (ss *StateSpace) output(x []float64) [6]float64 {
	var y [6]float64
	n := ss.N
	for i := 0; i < 6; i++ {
		row := ss.C[i*n : (i+1)*n]
		s := 0.0
		for j, v := range row {
			s += v * x[j]
		}
		y[i] = s
	}
	return y
}

// SSRadiation is the radiation memory force of a state-space fit (RdtnMod
// 2): the states advance with the body's velocity, linear in time between
// the samples the coupling gives, by the exact discretisation of each step
// (so any step size integrates the fitted system exactly for that input),
// the body starting from rest with zero states, like the convolution.
type SSRadiation struct {
	ss    *StateSpace
	x     []float64 // states at tLast
	tLast float64
	uLast [6]float64 // velocity at tLast
	steps map[int64]*ssStep
	// scratch
	xs []float64
}

// NewSSRadiation returns the radiation state of a .ss fit.
func NewSSRadiation(ss *StateSpace) *SSRadiation {
	return &SSRadiation{ss: ss, x: make([]float64, ss.N), xs: make([]float64, ss.N), steps: map[int64]*ssStep{}}
}

// stepFor returns the discretisation for step h, cached by h to the
// nanosecond: a run has one or two step sizes (dt, and round-off of t+dt−t
// is far below a nanosecond).
func (r *SSRadiation) stepFor(h float64) *ssStep {
	key := int64(math.Round(h * 1e9))
	if st, ok := r.steps[key]; ok {
		return st
	}
	st := discretise(r.ss, float64(key)*1e-9)
	if len(r.steps) < 16 {
		r.steps[key] = st
	}
	return st
}

// Force returns the memory force C x(t) for the velocity qd at t (t ≥
// the last Advance), without changing the state.
func (r *SSRadiation) Force(t float64, qd [6]float64) [6]float64 {
	x := r.x
	if h := t - r.tLast; h > 5e-10 {
		r.stepFor(h).apply(r.xs, r.x, r.uLast[:], qd[:])
		x = r.xs
	}
	return r.ss.output(x)
}

// Advance moves the states to t with the final velocity qd at t.
func (r *SSRadiation) Advance(t float64, qd [6]float64) {
	if h := t - r.tLast; h > 5e-10 {
		r.stepFor(h).apply(r.xs, r.x, r.uLast[:], qd[:])
		r.x, r.xs = r.xs, r.x
		r.tLast = t
	}
	r.uLast = qd
}

// SSExcitation is the first-order wave excitation of a state-space fit
// (ExctnMod 2): the states are driven by the incident wave elevation at the
// WAMIT reference point tc ahead, from zero at t = 0, sampled every dt (the
// elevation linear in between, as the sea's series is). The elevation is
// known for all times, so the force is computed forward on that grid as
// far as asked and interpolated linearly, like ExctnMod 1's series.
type SSExcitation struct {
	ss   *StateSpace
	elev func(t float64) float64
	dt   float64
	st   *ssStep
	x    []float64 // states at the last grid time
	xs   []float64
	f    [][6]float64 // force at k·dt
}

// NewSSExcitation returns the excitation of a .ssexctn fit for the
// elevation at the WAMIT reference point elev(t), on a grid of dt.
func NewSSExcitation(ss *StateSpace, elev func(t float64) float64, dt float64) *SSExcitation {
	e := &SSExcitation{ss: ss, elev: elev, dt: dt, st: discretise(ss, dt), x: make([]float64, ss.N), xs: make([]float64, ss.N)}
	e.f = append(e.f, ss.output(e.x))
	return e
}

// At returns the excitation force at t ≥ 0.
func (e *SSExcitation) At(t float64) [6]float64 {
	if t < 0 {
		t = 0
	}
	k := int(t / e.dt)
	for len(e.f) < k+2 {
		n := len(e.f) - 1 // the states are at n·dt
		u0 := [1]float64{e.elev(float64(n)*e.dt + e.ss.TC)}
		u1 := [1]float64{e.elev(float64(n+1)*e.dt + e.ss.TC)}
		e.st.apply(e.xs, e.x, u0[:], u1[:])
		e.x, e.xs = e.xs, e.x
		e.f = append(e.f, e.ss.output(e.x))
	}
	w := t/e.dt - float64(k)
	var out [6]float64
	for i := range out {
		out[i] = e.f[k][i] + w*(e.f[k+1][i]-e.f[k][i])
	}
	return out
}
