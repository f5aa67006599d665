package hydro

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// ssRoot is the root name of the published VolturnUS-S state-space files
// (the reference cases' HydroData leaves them out).
func ssRoot(t testing.TB) string {
	dir := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "HydroData")
	return filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi")
}

func readSS(t testing.TB, ext string) *StateSpace {
	b, err := os.ReadFile(ssRoot(t) + ext)
	if err != nil {
		t.Fatal(err)
	}
	var ss *StateSpace
	if ext == ".ss" {
		ss, err = ParseSSRadiation(b, "semi"+ext)
	} else {
		ss, err = ParseSSExcitation(b, "semi"+ext)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestSSReadersOnSemiFiles reads the published VolturnUS-S .ss and
// .ssexctn files and checks dimensions and values read off the files by
// hand.
func TestSSReadersOnSemiFiles(t *testing.T) {
	r := readSS(t, ".ss")
	if r.N != 60 || r.M != 6 || r.PerDOF != [6]int{14, 14, 6, 10, 10, 6} || r.Enabled != [6]bool{true, true, true, true, true, true} {
		t.Fatalf(".ss: %d states, %d inputs, per DOF %v, enabled %v", r.N, r.M, r.PerDOF, r.Enabled)
	}
	n := r.N
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"A11", r.A[0], -8.155142e-01}, {"A12", r.A[1], -4.270302e+00}, {"A21", r.A[n], 1},
		{"B11", r.B[0], 1}, {"B15,2", r.B[14*6+1], 1}, {"C11", r.C[0], -4.295042e+06},
		{"C58", r.C[4*n+7], 1.953987e+07}, {"C5,9", r.C[4*n+8], 5.255817e+06},
	} {
		if c.got != c.want {
			t.Errorf(".ss %s = %g, want %g", c.name, c.got, c.want)
		}
	}
	e := readSS(t, ".ssexctn")
	n = e.N
	if n != 38 || e.M != 1 || e.Heading != 0 || e.TC != 12 || e.PerDOF != [6]int{20, 0, 10, 0, 8, 0} {
		t.Fatalf(".ssexctn: %d states, %d inputs, heading %g, tc %g, per DOF %v", n, e.M, e.Heading, e.TC, e.PerDOF)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"A11", e.A[0], -1.848874e-02}, {"A12", e.A[1], -7.893265e-01}, {"A21", e.A[n], 7.893265e-01},
		{"B1", e.B[0], -4.292701e+02}, {"C11", e.C[0], -4.292701e+02}, {"C3,21", e.C[2*n+20], -3.936537e+02},
		{"C5,38", e.C[4*n+37], -1.452488e+03},
	} {
		if c.got != c.want {
			t.Errorf(".ssexctn %s = %g, want %g", c.name, c.got, c.want)
		}
	}
}

// TestSSReaderRefusesMalformed: each defect is an error naming the file as
// given and the line, never the file's text.
func TestSSReaderRefusesMalformed(t *testing.T) {
	good := "title\n1 0 1 0 0 0   %Enabled DoFs\n2  %states\n1 0 1 0 0 0\n-1 0\n0 -2\n1 0 0 0 0 0\n0 0 1 0 0 0\n5 0\n0 0\n0 7\n0 0\n0 0\n0 0\n"
	ss, err := ParseSSRadiation([]byte(good), "m.ss")
	if err != nil {
		t.Fatal(err)
	}
	if ss.N != 2 || ss.C[2*2+1] != 7 || ss.B[1*6+2] != 1 {
		t.Fatalf("small file: %+v", ss)
	}
	// a disabled DOF's velocity drives no state, whatever its column of B says
	ss, err = ParseSSRadiation([]byte(strings.Replace(good, "1 0 0 0 0 0\n0 0 1", "1 3 0 0 0 0\n0 0 1", 1)), "m.ss")
	if err != nil || ss.B[1] != 0 || ss.B[0] != 1 || ss.Enabled[1] {
		t.Fatalf("disabled sway: B %v, enabled %v, %v", ss.B, ss.Enabled, err)
	}
	for _, c := range []struct{ name, text, want string }{
		{"truncated", good[:strings.Index(good, "5 0")], "m.ss:8: the file ends before row 1 of C"},
		{"sum", strings.Replace(good, "1 0 1 0 0 0\n-1", "1 0 2 0 0 0\n-1", 1), "m.ss:4: the states per DOF add up to 3"},
		{"disabled", strings.Replace(good, "1 0 1 0 0 0\n-1", "1 1 0 0 0 0\n-1", 1), "m.ss:4: the states per DOF: DOF 2 is not enabled"},
		{"word", strings.Replace(good, "0 -2", "0 SECRET", 1), "m.ss:6: A: value 2 is not a finite number"},
		{"short row", strings.Replace(good, "0 -2", "0", 1), "m.ss:6: row 2 of A: 1 values, want 2"},
		{"unstable", strings.Replace(good, "0 -2", "0 2", 1), "m.ss: the state matrix A is not stable"},
		{"extra", good + "1 2 3\n", "m.ss:15: 3 unexpected values"},
		{"flag", strings.Replace(good, "1 0 1 0 0 0   %", "1 0 3 0 0 0   %", 1), "m.ss:2: the enabled DOFs: value 3 is not an integer from 0 to 1"},
	} {
		_, err := ParseSSRadiation([]byte(c.text), "m.ss")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ParseSSExcitation([]byte("t\n0\n-1\n1\n1 0 0 0 0 0\n-1\n1\n1\n0\n0\n0\n0\n0\n"), "m.ssexctn"); err == nil || !strings.Contains(err.Error(), "m.ssexctn:3: the time offset tc") {
		t.Errorf("negative tc: %v", err)
	}
}

// TestStateSpaceImpulseResponseMatchesKernel: the .ss fit's impulse
// response C e^{At} B is minus the radiation kernel K(t) of the .1 data
// (the file's C carries the memory force's sign) for every DOF pair the
// kernel keeps, within the fit's accuracy: the normalised error
// ‖K_ss − K‖₂/‖K‖₂ over 0-60 s, on a 0.1-s grid, is reported per pair.
// With the other sign the error would be about 2.
func TestStateSpaceImpulseResponseMatchesKernel(t *testing.T) {
	ss := readSS(t, ".ss")
	r, _, _ := readSemi(t)
	k := NewKernel(r, 0.025, 60)
	const step = 4 // 0.1 s
	var num, den [6][6]float64
	for n := 0; n < k.N; n += step {
		imp := ss.Impulse(float64(n) * k.DT)
		for _, p := range k.pairs {
			d := -imp[p.i][p.j] - p.k[n]
			num[p.i][p.j] += d * d
			den[p.i][p.j] += p.k[n] * p.k[n]
		}
	}
	worst := 0.0
	for _, p := range k.pairs {
		e := math.Sqrt(num[p.i][p.j] / den[p.i][p.j])
		t.Logf("K%d%d: normalised error %.3f", p.i+1, p.j+1, e)
		bound := 0.25
		if p.i == p.j {
			bound = 0.15
		}
		if e > bound {
			t.Errorf("K%d%d: the fit's impulse response differs from the kernel by %.3f (bound %.2f)", p.i+1, p.j+1, e, bound)
		}
		worst = math.Max(worst, e)
	}
	t.Logf("worst pair %.3f over %d pairs", worst, len(k.pairs))
	// The damping the fit stands for, −Re H(iω), against the .1 data at
	// the semi's surge and pitch decay frequencies and at wave
	// frequencies: within 10 % at 0.8 rad/s, where the damping peaks,
	// far off below (a negative pitch damping at the pitch frequency; the
	// figures are in docs/validation.md).
	for _, w := range []float64{2 * math.Pi / 139.7, 2 * math.Pi / 28.9, 0.5, 0.8, 1.0} {
		h, err := ss.FrequencyResponse(w)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]int{{0, 0}, {2, 2}, {4, 4}} {
			fit, data := -real(h[p[0]][p[1]]), r.DampingAt(w, p[0], p[1])
			t.Logf("ω %.3f rad/s B%d%d: fit %.4g, .1 %.4g", w, p[0]+1, p[1]+1, fit, data)
			if w == 0.8 && math.Abs(fit-data) > 0.1*math.Abs(data) {
				t.Errorf("ω %.3f rad/s B%d%d: fit %.4g, .1 data %.4g", w, p[0]+1, p[1]+1, fit, data)
			}
		}
	}
}

// TestSSRadiationAgainstConvolution drives the convolution (RdtnMod 1) and
// the state-space fit (RdtnMod 2) with the same harmonic surge-heave-pitch
// velocity, stepping as the coupling does (Force at t from the state at the
// previous step, then Advance), and compares the memory force once both are
// periodic: the normalised difference per DOF at the pitch-decay period
// (about 29 s) and at a wave period (10 s). It also checks the state-space
// force does not depend on the step (0.1 s against 0.025 s).
func TestSSRadiationAgainstConvolution(t *testing.T) {
	ss := readSS(t, ".ss")
	r, _, _ := readSemi(t)
	const dt = 0.025
	kern := NewKernel(r, dt, 60)
	for _, c := range []struct {
		period float64
		bound  [6]float64
	}{
		// measured: 0.132, 0.050, 0.157 and 0.300, 0.039, 0.073 (the
		// fit's surge memory at wave periods is its weakest)
		{29, [6]float64{0.2, 0, 0.08, 0, 0.2, 0}},
		{10, [6]float64{0.35, 0, 0.08, 0, 0.1, 0}},
	} {
		conv := NewMemory(kern)
		fit := NewSSRadiation(ss)
		coarse := NewSSRadiation(ss)
		w := 2 * math.Pi / c.period
		vel := func(t float64) [6]float64 {
			return [6]float64{0.5 * math.Sin(w*t), 0, 0.3 * math.Cos(w*t), 0, 0.02 * math.Sin(w*t+0.4), 0}
		}
		var num, den [6]float64
		var maxStep float64
		for n := 0; n <= 12000; n++ {
			t0 := float64(n) * dt
			v := vel(t0)
			fc, fs := conv.Force(t0, v), fit.Force(t0, v)
			if n%4 == 0 {
				fk := coarse.Force(t0, v)
				coarse.Advance(t0, v)
				if t0 >= 150 {
					for d := range fk {
						maxStep = math.Max(maxStep, math.Abs(fk[d]-fs[d])/math.Max(1, math.Abs(fs[d])))
					}
				}
			}
			conv.Advance(t0, v)
			fit.Advance(t0, v)
			if t0 >= 150 {
				for d := 0; d < 6; d++ {
					num[d] += (fs[d] - fc[d]) * (fs[d] - fc[d])
					den[d] += fc[d] * fc[d]
				}
			}
		}
		for _, d := range []int{0, 2, 4} {
			e := math.Sqrt(num[d] / den[d])
			t.Logf("period %g s, DOF %d: memory force, normalised difference state-space vs convolution %.3f", c.period, d+1, e)
			if e > c.bound[d] {
				t.Errorf("period %g s, DOF %d: state-space memory force differs from the convolution by %.3f (bound %.2f)", c.period, d+1, e, c.bound[d])
			}
		}
		t.Logf("period %g s: step 0.1 s vs 0.025 s, largest relative difference %.2g", c.period, maxStep)
		if maxStep > 1e-3 {
			t.Errorf("the state-space force depends on the step: %.2g", maxStep)
		}
	}
}
