package hydro

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// WAMIT's output files are nondimensional (WAMIT User Manual, ch. 4, "Output
// file formats" and Table 4.x): with L = WAMITULEN and k = 3, 4 or 5 for
// two translations, one of each, or two rotations,
//
//	A_ij = Ā_ij ρ L^k,   B_ij = B̄_ij ρ L^k ω,   C_ij = C̄_ij ρ g L^(k−1),
//	X_i  = X̄_i ρ g A L^m  (m = 2 for forces, 3 for moments; A the wave amplitude).
//
// In the .1 file a period of −1 is the zero-frequency (infinite-period) limit
// and a period of 0 the infinite-frequency limit; both rows carry Ā only.

func lenExp(i, j int) int { // k for A and B
	k := 3
	if i >= 3 {
		k++
	}
	if j >= 3 {
		k++
	}
	return k
}

// Radiation holds the radiation coefficients of one body, dimensional, in
// the WAMIT reference point's 6 DOFs (surge, sway, heave, roll, pitch, yaw).
type Radiation struct {
	Omega           []float64       // rad/s, ascending, finite nonzero frequencies
	A, B            [][6][6]float64 // per Omega
	AInf            [6][6]float64   // infinite-frequency added mass
	AZero           [6][6]float64   // zero-frequency added mass
	HasInf, HasZero bool
}

// Excitation holds the first-order wave-excitation force per unit wave
// amplitude of one body, dimensional, with WAMIT's time convention
// Re(X A e^{iωt}).
type Excitation struct {
	Omega    []float64 // rad/s, ascending
	Headings []float64 // deg, ascending
	X        [][][6]complex128
}

type wline struct {
	line int
	f    []float64
}

func numericLines(b []byte, minCols int, file string) ([]wline, error) {
	var out []wline
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) < minCols {
			return nil, fmt.Errorf("%s:%d: expected at least %d columns, got %d", file, n, minCols, len(fs))
		}
		row := make([]float64, len(fs))
		for i, s := range fs {
			x, err := strconv.ParseFloat(strings.Replace(strings.Replace(s, "D", "E", 1), "d", "e", 1), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s:%d: column %d: expected a number, got %q", file, n, i+1, s)
			}
			row[i] = x
		}
		out = append(out, wline{n, row})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

func dof(x float64, file string, line int) (int, error) {
	i := int(x)
	if float64(i) != x || i < 1 || i > 6 {
		return 0, fmt.Errorf("%s:%d: DOF index %g outside 1..6 (one body, no generalised modes)", file, line, x)
	}
	return i - 1, nil
}

// ParseWAMIT1 reads a WAMIT .1 file (PER I J Ā [B̄]) and dimensionalises it
// with water density rho and length scale ulen. file names it in errors.
func ParseWAMIT1(b []byte, rho, ulen float64, file string) (*Radiation, error) {
	rows, err := numericLines(b, 4, file)
	if err != nil {
		return nil, err
	}
	r := &Radiation{}
	idx := map[float64]int{}
	for _, w := range rows {
		per := w.f[0]
		i, err := dof(w.f[1], file, w.line)
		if err != nil {
			return nil, err
		}
		j, err := dof(w.f[2], file, w.line)
		if err != nil {
			return nil, err
		}
		scale := rho * math.Pow(ulen, float64(lenExp(i, j)))
		switch {
		case per < 0:
			r.AZero[i][j], r.HasZero = w.f[3]*scale, true
		case per == 0:
			r.AInf[i][j], r.HasInf = w.f[3]*scale, true
		default:
			if len(w.f) < 5 {
				return nil, fmt.Errorf("%s:%d: finite-period row needs PER I J A B", file, w.line)
			}
			om := 2 * math.Pi / per
			k, ok := idx[om]
			if !ok {
				k = len(r.Omega)
				idx[om] = k
				r.Omega = append(r.Omega, om)
				r.A = append(r.A, [6][6]float64{})
				r.B = append(r.B, [6][6]float64{})
			}
			r.A[k][i][j] = w.f[3] * scale
			r.B[k][i][j] = w.f[4] * scale * om
		}
	}
	if len(r.Omega) == 0 {
		return nil, fmt.Errorf("%s: no finite-frequency rows", file)
	}
	order := make([]int, len(r.Omega))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return r.Omega[order[a]] < r.Omega[order[b]] })
	om, a, bb := make([]float64, len(order)), make([][6][6]float64, len(order)), make([][6][6]float64, len(order))
	for n, o := range order {
		om[n], a[n], bb[n] = r.Omega[o], r.A[o], r.B[o]
	}
	r.Omega, r.A, r.B = om, a, bb
	return r, nil
}

// ParseWAMIT3 reads a WAMIT .3 file (PER β I |X̄| phase Re Im) and
// dimensionalises it with rho, gravity g and ulen.
func ParseWAMIT3(b []byte, rho, g, ulen float64, file string) (*Excitation, error) {
	rows, err := numericLines(b, 7, file)
	if err != nil {
		return nil, err
	}
	omIdx, hIdx := map[float64]bool{}, map[float64]bool{}
	for _, w := range rows {
		if w.f[0] <= 0 {
			continue // zero/infinite-period rows carry no excitation
		}
		omIdx[2*math.Pi/w.f[0]] = true
		hIdx[w.f[1]] = true
	}
	e := &Excitation{}
	for o := range omIdx {
		e.Omega = append(e.Omega, o)
	}
	for h := range hIdx {
		e.Headings = append(e.Headings, h)
	}
	sort.Float64s(e.Omega)
	sort.Float64s(e.Headings)
	if len(e.Omega) == 0 {
		return nil, fmt.Errorf("%s: no finite-period rows", file)
	}
	e.X = make([][][6]complex128, len(e.Omega))
	for i := range e.X {
		e.X[i] = make([][6]complex128, len(e.Headings))
	}
	for _, w := range rows {
		if w.f[0] <= 0 {
			continue
		}
		i, err := dof(w.f[2], file, w.line)
		if err != nil {
			return nil, err
		}
		m := 2.0
		if i >= 3 {
			m = 3
		}
		scale := rho * g * math.Pow(ulen, m)
		k := sort.SearchFloat64s(e.Omega, 2*math.Pi/w.f[0])
		h := sort.SearchFloat64s(e.Headings, w.f[1])
		e.X[k][h][i] = complex(w.f[5]*scale, w.f[6]*scale)
	}
	return e, nil
}

// ParseHST reads a WAMIT .hst file (I J C̄) into the dimensional hydrostatic
// restoring matrix.
func ParseHST(b []byte, rho, g, ulen float64, file string) ([6][6]float64, error) {
	var c [6][6]float64
	rows, err := numericLines(b, 3, file)
	if err != nil {
		return c, err
	}
	if len(rows) == 0 {
		return c, fmt.Errorf("%s: empty", file)
	}
	for _, w := range rows {
		i, err := dof(w.f[0], file, w.line)
		if err != nil {
			return c, err
		}
		j, err := dof(w.f[1], file, w.line)
		if err != nil {
			return c, err
		}
		c[i][j] = w.f[2] * rho * g * math.Pow(ulen, float64(lenExp(i, j)-1))
	}
	return c, nil
}

// At interpolates the excitation linearly in frequency and heading (deg);
// zero outside the computed frequency range, headings clamped to the range
// (wrapped by 360° first).
func (e *Excitation) At(omega, headingDeg float64) [6]complex128 {
	var out [6]complex128
	n := len(e.Omega)
	if n == 0 || omega < e.Omega[0] || omega > e.Omega[n-1] {
		return out
	}
	hs := e.Headings
	h := headingDeg
	for h < hs[0]-1e-9 && h+360 <= hs[len(hs)-1]+1e-9 {
		h += 360
	}
	for h > hs[len(hs)-1]+1e-9 && h-360 >= hs[0]-1e-9 {
		h -= 360
	}
	h = math.Min(math.Max(h, hs[0]), hs[len(hs)-1])
	i0, wi := bracket(e.Omega, omega)
	j0, wj := bracket(hs, h)
	i1, j1 := min(i0+1, n-1), min(j0+1, len(hs)-1)
	for d := 0; d < 6; d++ {
		a := e.X[i0][j0][d]*complex((1-wi)*(1-wj), 0) + e.X[i1][j0][d]*complex(wi*(1-wj), 0)
		b := e.X[i0][j1][d]*complex((1-wi)*wj, 0) + e.X[i1][j1][d]*complex(wi*wj, 0)
		out[d] = a + b
	}
	return out
}

// bracket returns i and weight w with x = (1−w) xs[i] + w xs[i+1].
func bracket(xs []float64, x float64) (int, float64) {
	n := len(xs)
	if n == 1 || x <= xs[0] {
		return 0, 0
	}
	if x >= xs[n-1] {
		return n - 1, 0
	}
	i := sort.SearchFloat64s(xs, x) - 1
	if i < 0 {
		i = 0
	}
	return i, (x - xs[i]) / (xs[i+1] - xs[i])
}

// DampingAt interpolates B(ω) linearly between the WAMIT frequencies, from
// zero at ω = 0 and zero above the highest frequency.
func (r *Radiation) DampingAt(omega float64, i, j int) float64 {
	n := len(r.Omega)
	if omega <= 0 || omega > r.Omega[n-1] {
		return 0
	}
	if omega < r.Omega[0] {
		return r.B[0][i][j] * omega / r.Omega[0]
	}
	k, w := bracket(r.Omega, omega)
	if k >= n-1 {
		return r.B[n-1][i][j]
	}
	return (1-w)*r.B[k][i][j] + w*r.B[k+1][i][j]
}
