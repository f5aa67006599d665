package hydro

import (
	"fmt"
	"math"
	"math/cmplx"
	"sort"
)

// QTF is a difference-frequency quadratic transfer function of the body
// (WAMIT .10d/.11d/.12d), dimensional, for wave pairs of one heading: the
// second-order load of two waves of complex amplitudes A_m, A_n (WAMIT's
// e^{+iωt} convention) is Re Σ_m Σ_n A_m A_n* Q(ω_m, ω_n) e^{i(ω_m − ω_n)t}
// (WAMIT user manual, second-order outputs; HydroDyn user documentation,
// DiffQTF). Q(ω_n, ω_m) = Q(ω_m, ω_n)*, and the diagonal is the mean drift.
type QTF struct {
	Omega   []float64 // ascending, rad/s
	Heading float64   // deg
	// Q[d][i][j] at (Omega[i], Omega[j]), N/m² (forces) or N·m/m²
	// (moments).
	Q [6][][]complex128
}

// ParseQTF reads a WAMIT difference-frequency QTF file (PER1 PER2 BETA1
// BETA2 I |F| φ Re Im per row, the load normalised by ρ g A² L^k, k = 1 for
// forces and 2 for moments) into the dimensional QTF of the unidirectional
// pairs (BETA1 = BETA2) at heading (deg). A file that lists only one
// triangle of the (ω1, ω2) plane is completed by the Hermitian symmetry.
func ParseQTF(b []byte, rho, g, ulen, heading float64, file string) (*QTF, error) {
	rows, err := numericLines(b, 9, file)
	if err != nil {
		return nil, err
	}
	same := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	omIdx := map[float64]bool{}
	var headings []float64
	for _, w := range rows {
		if w.f[0] <= 0 || w.f[1] <= 0 {
			return nil, fmt.Errorf("%s:%d: periods must be > 0 (zero and infinite periods have no second-order load)", file, w.line)
		}
		if !same(w.f[2], w.f[3]) {
			continue // bidirectional pairs serve spread seas only
		}
		if !same(w.f[2], heading) {
			if !containsClose(headings, w.f[2]) {
				headings = append(headings, w.f[2])
			}
			continue
		}
		omIdx[2*math.Pi/w.f[0]] = true
		omIdx[2*math.Pi/w.f[1]] = true
	}
	if len(omIdx) == 0 {
		return nil, fmt.Errorf("%s: no rows for the wave heading %g° (the file has %v)", file, heading, headings)
	}
	q := &QTF{Heading: heading}
	for o := range omIdx {
		q.Omega = append(q.Omega, o)
	}
	sort.Float64s(q.Omega)
	n := len(q.Omega)
	have := make([][]bool, n)
	for i := range have {
		have[i] = make([]bool, n)
	}
	for d := range q.Q {
		q.Q[d] = make([][]complex128, n)
		for i := range q.Q[d] {
			q.Q[d][i] = make([]complex128, n)
		}
	}
	for _, w := range rows {
		if !same(w.f[2], w.f[3]) || !same(w.f[2], heading) {
			continue
		}
		d, err := dof(w.f[4], file, w.line)
		if err != nil {
			return nil, err
		}
		k := 1.0
		if d >= 3 {
			k = 2
		}
		scale := rho * g * math.Pow(ulen, k)
		i := sort.SearchFloat64s(q.Omega, 2*math.Pi/w.f[0])
		j := sort.SearchFloat64s(q.Omega, 2*math.Pi/w.f[1])
		v := complex(w.f[7]*scale, w.f[8]*scale)
		q.Q[d][i][j] = v
		if d == 0 {
			have[i][j] = true
		}
		if !have[j][i] || i == j {
			q.Q[d][j][i] = cmplx.Conj(v)
		}
	}
	for i := range have {
		for j := range have[i] {
			if !have[i][j] && !have[j][i] {
				return nil, fmt.Errorf("%s: no surge row for the frequency pair (%.5g, %.5g) rad/s at heading %g°", file, q.Omega[i], q.Omega[j], heading)
			}
		}
	}
	return q, nil
}

func containsClose(xs []float64, x float64) bool {
	for _, v := range xs {
		if math.Abs(v-x) < 1e-6 {
			return true
		}
	}
	return false
}

// At returns Q_d(ω1, ω2), bilinear in the two frequencies; zero outside the
// file's frequency range, where the QTF is not known.
func (q *QTF) At(d int, w1, w2 float64) complex128 {
	n := len(q.Omega)
	if w1 < q.Omega[0] || w1 > q.Omega[n-1] || w2 < q.Omega[0] || w2 > q.Omega[n-1] {
		return 0
	}
	i, fi := bracket(q.Omega, w1)
	j, fj := bracket(q.Omega, w2)
	i1, j1 := min(i+1, n-1), min(j+1, n-1)
	t := q.Q[d]
	a := t[i][j]*complex(1-fj, 0) + t[i][j1]*complex(fj, 0)
	b := t[i1][j]*complex(1-fj, 0) + t[i1][j1]*complex(fj, 0)
	return a*complex(1-fi, 0) + b*complex(fi, 0)
}
