package hydro

import (
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

const rho, grav = 1025.0, 9.80665

func semiFiles(t testing.TB) (string, string) {
	dir := testshared.Path(t, "reference-outputs", "iea15_semi_steady10_irregular")
	return dir, filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi", "HydroData", "IEA-15-240-RWT-UMaineSemi")
}

func readSemi(t testing.TB) (*Radiation, *Excitation, [6][6]float64) {
	_, root := semiFiles(t)
	b1, err := os.ReadFile(root + ".1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseWAMIT1(b1, rho, 1, "semi.1")
	if err != nil {
		t.Fatal(err)
	}
	b3, err := os.ReadFile(root + ".3")
	if err != nil {
		t.Fatal(err)
	}
	x, err := ParseWAMIT3(b3, rho, grav, 1, "semi.3")
	if err != nil {
		t.Fatal(err)
	}
	bh, err := os.ReadFile(root + ".hst")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseHST(bh, rho, grav, 1, "semi.hst")
	if err != nil {
		t.Fatal(err)
	}
	return r, x, c
}

// TestWAMITReaders reads the VolturnUS-S WAMIT files and checks the
// dimensionalisation against values read off the files by hand.
func TestWAMITReaders(t *testing.T) {
	r, x, c := readSemi(t)
	if !r.HasInf || !r.HasZero {
		t.Fatal("zero/infinite-frequency rows missing")
	}
	if got, want := r.AInf[2][2], 2.421631e4*rho; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("A∞33 = %g, want %g (period-0 row)", got, want)
	}
	if got, want := r.AZero[0][0], 1.233416e4*rho; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("A0_11 = %g, want %g (period −1 row)", got, want)
	}
	if got, want := r.AInf[0][4], -9.854143e4*rho; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("A∞15 = %g, want %g (ρL^4)", got, want)
	}
	if r.Omega[0] != 2*math.Pi/1.256637e2 || len(r.Omega) < 50 {
		t.Errorf("frequencies: first %g, %d of them", r.Omega[0], len(r.Omega))
	}
	// B = B̄ ρ ω: first finite row, surge
	if got, want := r.B[0][0][0], 8.817627e-1*rho*r.Omega[0]; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("B11(ω0) = %g, want %g", got, want)
	}
	if len(x.Headings) != 37 || x.Headings[0] != -180 || x.Headings[36] != 180 {
		t.Errorf("headings %v", x.Headings)
	}
	// heave excitation at the longest period, heading −180: 431.4 ρ g L²
	if got, want := real(x.X[0][0][2]), 4.314279e2*rho*grav; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("X3 = %g, want %g", got, want)
	}
	if got := x.At(x.Omega[0], -180)[2]; got != x.X[0][0][2] {
		t.Errorf("At on a grid point: %v, want %v", got, x.X[0][0][2])
	}
	if got, want := c[2][2], 4.430486e2*rho*grav; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("C33 = %g, want %g (ρ g L²)", got, want)
	}
	if got, want := c[3][3], 2.182405e5*rho*grav; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("C44 = %g, want %g (ρ g L⁴)", got, want)
	}
	if _, err := ParseWAMIT1([]byte("1 7 1 2 3\n"), rho, 1, "bad.1"); err == nil {
		t.Error("DOF 7 accepted")
	}
	if _, err := ParseHST([]byte("1 1 x\n"), rho, grav, 1, "bad.hst"); err == nil {
		t.Error("non-numeric .hst accepted")
	}
}

// TestHydrostaticsAgainstHST: at rest the hydrostatic load is the buoyancy
// ρ g PtfmVol0; its derivative with respect to heave, roll and pitch is −C_hst
// of the .hst file's heave-roll-pitch block, and zero for surge, sway and yaw
// (HydroDyn uses only that block; the file's C46 = −9.08 ρg is not used);
// a centre-of-buoyancy offset adds the buoyancy moment about the reference
// point; the load turns with the platform yaw.
func TestHydrostaticsAgainstHST(t *testing.T) {
	_, _, c := readSemi(t)
	const vol = 20206.34889
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Vol0: vol, Hst: c}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rest := p.Loads(0, Motion{}).Hydrostat
	if want := rho * grav * vol; math.Abs(rest[2]/want-1) > 1e-12 {
		t.Errorf("buoyancy %g, want %g", rest[2], want)
	}
	for j := 0; j < 6; j++ {
		var m Motion
		const h = 1e-6
		m.Q[j] = h
		f := p.Loads(0, m).Hydrostat
		for i := 0; i < 6; i++ {
			k := -(f[i] - rest[i]) / h
			want := c[i][j]
			if i < 2 || i > 4 || j < 2 || j > 4 {
				want = 0
			}
			if math.Abs(k-want) > 1e-5*math.Abs(c[2][2])+1e-6*math.Abs(want) {
				t.Errorf("∂F%d/∂q%d = %g, want −C = %g", i+1, j+1, -k, -c[i][j])
			}
		}
	}
	off, _ := NewPlatform(PlatformConfig{Rho: rho, G: grav, Vol0: vol, COB: [2]float64{2, -3}}, nil)
	fb := rho * grav * vol
	if f := off.Loads(0, Motion{}).Hydrostat; math.Abs(f[3]-(-3*fb)) > 1e-6*fb || math.Abs(f[4]-(-2*fb)) > 1e-6*fb {
		t.Errorf("CoB (2, −3): moments %g %g, want %g %g", f[3], f[4], -3*fb, -2*fb)
	}
	// yawing by 90° moves the CoB from (2, −3) to (3, 2)
	if f := off.Loads(0, Motion{Q: [6]float64{5: math.Pi / 2}}).Hydrostat; math.Abs(f[3]-2*fb) > 1e-6*fb || math.Abs(f[4]+3*fb) > 1e-6*fb {
		t.Errorf("yawed 90°: moments %g %g, want %g %g", f[3], f[4], 2*fb, -3*fb)
	}
	// Pitched by θ and yawed by ψ: the pitch restoring −C55 θ turns with the
	// yaw, so the roll moment is +sin ψ · C55 θ (HydroDyn's heading frame).
	const th, psi = 0.07, 0.006
	f := p.Loads(0, Motion{Q: [6]float64{4: th, 5: psi}}).Hydrostat
	my := -c[4][4] * th
	if want := -math.Sin(psi) * my; math.Abs(f[3]-want) > 1e-9*math.Abs(my) {
		t.Errorf("pitched and yawed: roll moment %g, want %g", f[3], want)
	}
	if want := math.Cos(psi) * my; math.Abs(f[4]-want) > 1e-9*math.Abs(my) {
		t.Errorf("pitched and yawed: pitch moment %g, want %g", f[4], want)
	}
}

// TestAdditionalQuadraticDampingInBodyFrame: AddBQuad acts on the body-frame
// velocity (HydroDyn's convention): a platform pitched by θ surging at v
// feels heave damping −B33 |v sinθ| v sinθ along its own z axis.
func TestAdditionalQuadraticDampingInBodyFrame(t *testing.T) {
	var bq [6][6]float64
	bq[2][2] = 2.3e6
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, AddBQuad: bq}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const th, v = 0.07, 0.5
	c, s := math.Cos(th), math.Sin(th)
	// Body axes as rows: pitch θ about y turns x toward −z.
	m := Motion{QD: [6]float64{v, 0, 0, 0, 0, 0}, Orient: [3][3]float64{{c, 0, -s}, {0, 1, 0}, {s, 0, c}}}
	f := p.Loads(0, m).Additional
	vz := s * v // body-frame heave velocity
	fz := -bq[2][2] * math.Abs(vz) * vz
	if want := [3]float64{s * fz, 0, c * fz}; math.Abs(f[0]-want[0]) > 1e-9*math.Abs(fz) || f[1] != 0 || math.Abs(f[2]-want[2]) > 1e-9*math.Abs(fz) {
		t.Errorf("force %v, want %v", f[:3], want)
	}
	// Unrotated, surge velocity alone meets no heave damping.
	if f := p.Loads(0, Motion{QD: m.QD}).Additional; f != ([6]float64{}) {
		t.Errorf("unrotated: %v, want zero", f)
	}
}

// TestRadiationKernelTransformsBack: the impulse-response function of the
// .1 damping transforms back to B(ω) = ∫_0^Tmax K(t) cos(ωt) dt at the
// cosine transform's frequencies mπ/RdtnTMax (where the pair is exact; in
// between, a 60-s window cannot resolve this hull's B, which changes sign
// within 0.25 rad/s).
func TestRadiationKernelTransformsBack(t *testing.T) {
	r, _, _ := readSemi(t)
	k := NewKernel(r, 0.025, 60)
	for _, pair := range [][2]int{{0, 0}, {2, 2}, {4, 4}, {0, 4}} {
		i, j := pair[0], pair[1]
		var bmax float64
		for n := range r.Omega {
			bmax = math.Max(bmax, math.Abs(r.B[n][i][j]))
		}
		for _, m := range []int{6, 10, 15, 20, 23, 38} {
			w := float64(m) * math.Pi / 60
			var s float64
			for n := 0; n < k.N; n++ {
				c := k.At(i, j, n) * math.Cos(w*float64(n)*k.DT)
				if n == 0 || n == k.N-1 {
					c /= 2
				}
				s += c * k.DT
			}
			want := r.DampingAt(w, i, j)
			if math.Abs(s-want) > 0.005*bmax {
				t.Errorf("B%d%d(%g): from K %g, .1 data %g (max %g)", i+1, j+1, w, s, want, bmax)
			}
		}
	}
}

// TestRadiationHarmonicMotion: in steady harmonic heave q = Q sin ωt the
// convolution force plus −A∞ q̈ is the frequency-domain radiation force
// −A(ω) q̈ − B(ω) q̇ of the .1 file.
func TestRadiationHarmonicMotion(t *testing.T) {
	r, _, _ := readSemi(t)
	const dt = 0.025
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Rad: r, RdtnMod: 1, RdtnDT: dt, RdtnTMax: 60}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{2, 4} {
		p, _ = NewPlatform(PlatformConfig{Rho: rho, G: grav, Rad: r, RdtnMod: 1, RdtnDT: dt, RdtnTMax: 60}, nil)
		w := 20 * math.Pi / 60 // on the kernel's frequency grid, near the heave peak
		var sumS, sumC, n float64
		for step := 0; step <= int(200/dt); step++ {
			tm := float64(step) * dt
			var m Motion
			m.Q[d] = math.Sin(w * tm)
			m.QD[d] = w * math.Cos(w*tm)
			m.QDD[d] = -w * w * math.Sin(w*tm)
			f := p.Loads(tm, m).Radiation[d] - p.AInf()[d][d]*m.QDD[d]
			p.Advance(tm, m)
			if tm > 100 { // project on sin and cos over whole periods
				sumS += f * math.Sin(w*tm)
				sumC += f * math.Cos(w*tm)
				n++
			}
		}
		// −A q̈ − B q̇ = A ω² sin − B ω cos
		gotA := 2 * sumS / n / (w * w)
		gotB := -2 * sumC / n / w
		k, f := bracket(r.Omega, w)
		wantA := (1-f)*r.A[k][d][d] + f*r.A[k+1][d][d]
		wantB := r.DampingAt(w, d, d)
		if math.Abs(gotA/wantA-1) > 0.03 || math.Abs(gotB/wantB-1) > 0.03 {
			t.Errorf("DOF %d at ω %.3f: A %g (want %g), B %g (want %g)", d+1, w, gotA, wantA, gotB, wantB)
		}
	}
}

// TestPlatformFromDeck builds the semi's hydrodynamics from its deck: at
// rest in still water the load is the buoyancy, A∞ is the .1 file's, and
// AddBQuad damps a surge velocity.
func TestPlatformFromDeck(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs", "iea15_semi_steady10_still")
	d, err := deck.Load(filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	sea, _, err := waves.FromDeck(d, dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromDeck(d, dir, sea, 0.025)
	if err != nil {
		t.Fatal(err)
	}
	if m.Platform == nil || m.Morison != nil {
		t.Fatalf("platform %v, morison %v", m.Platform, m.Morison)
	}
	l := m.Platform.Loads(0, Motion{})
	if want := sea.Config().WtrDens * sea.Config().Gravity * 20206.34889; math.Abs(l.Total[2]/want-1) > 1e-9 {
		t.Errorf("Fz at rest %g, want %g", l.Total[2], want)
	}
	if a := m.Platform.AInf()[2][2]; math.Abs(a/(2.421631e4*rho)-1) > 1e-9 {
		t.Errorf("A∞33 %g", a)
	}
	if m.Platform.Kernel() == nil || m.Platform.Kernel().DT != 0.025 {
		t.Error("RdtnDT default is not the glue step")
	}
	l = m.Platform.Loads(0, Motion{QD: [6]float64{1, 0, 0, 0, 0, 0}})
	if math.Abs(l.Additional[0]+9.23e5) > 1 || math.Abs(l.Additional[4]-8.92e6) > 1 {
		t.Errorf("AddBQuad at surge 1 m/s: %v", l.Additional)
	}
	out, warn := m.Outputs()
	if len(out.Names) != 20 || len(warn) != 0 {
		t.Errorf("channels %v, warnings %v: want 20 (the six second-order ones with DiffQTF 12) and none", out.Names, warn)
	}
	v := make([]float64, len(out.Names))
	st := &Step{Platform: m.Platform.Loads(0, Motion{}), Motion: Motion{QDD: [6]float64{2: 1}}}
	out.Eval(st, v)
	if v[2] != st.Platform.Total[2]-m.Platform.AInf()[2][2] || out.Names[15] != "B1HdSFzi" || v[15] != st.Platform.Hydrostat[2] || out.Names[9] != "B1WvsF2xi" || v[9] != st.Platform.SecondOrder[0] {
		t.Errorf("HydroFzi %g (want buoyancy − A∞33), %s = %g, %s = %g", v[2], out.Names[15], v[15], out.Names[9], v[9])
	}
	// the root must contain the WAMIT files
	if _, err := FromDeck(d, filepath.Join(dir, "IEA-15-240-RWT"), sea, 0.025); err == nil {
		t.Error("WAMIT files outside the given root were read")
	}
}

// TestQTFReaderOnSemiFile reads the VolturnUS-S .12d (one triangle of 46
// periods, heading 0): the values are the file's × ρ g L^k (k = 1 for
// forces, 2 for moments), the other triangle is the Hermitian conjugate and
// the diagonal (the mean drift) is real.
func TestQTFReaderOnSemiFile(t *testing.T) {
	_, root := semiFiles(t)
	b, err := os.ReadFile(root + ".12d")
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseQTF(b, rho, grav, 1, 0, "semi.12d")
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Omega) != 46 {
		t.Fatalf("%d frequencies, want 46", len(q.Omega))
	}
	// First row of the file: PER 25.133 s, surge, Re 0.401132; pitch 44.2218.
	w := 2 * math.Pi / 25.133
	i := slices.IndexFunc(q.Omega, func(o float64) bool { return math.Abs(o-w) < 1e-9 })
	if i < 0 {
		t.Fatalf("%g rad/s not among the frequencies", w)
	}
	if got, want := real(q.Q[0][i][i]), 0.401132*rho*grav; math.Abs(got-want) > 1e-9*want {
		t.Errorf("surge mean drift %g, want %g", got, want)
	}
	if got, want := real(q.Q[4][i][i]), 44.2218*rho*grav; math.Abs(got-want) > 1e-9*want {
		t.Errorf("pitch mean drift %g, want %g", got, want)
	}
	for d := 0; d < 6; d++ {
		// The file's diagonal carries WAMIT's round-off in the imaginary
		// part (up to 1e-3 of the DOF's largest mean drift).
		var big float64
		for a := range q.Omega {
			big = math.Max(big, cmplx.Abs(q.Q[d][a][a]))
		}
		for a := range q.Omega {
			if d%2 == 0 && math.Abs(imag(q.Q[d][a][a])) > 1e-3*big { // surge, heave, pitch: sway, roll, yaw are round-off in head seas
				t.Errorf("DOF %d: diagonal at %g rad/s is not real: %v", d+1, q.Omega[a], q.Q[d][a][a])
			}
			for c := range q.Omega {
				if q.Q[d][a][c] != cmplx.Conj(q.Q[d][c][a]) && a != c {
					t.Fatalf("DOF %d: Q(%d,%d) = %v is not conj Q(%d,%d) = %v", d+1, a, c, q.Q[d][a][c], c, a, q.Q[d][c][a])
				}
			}
		}
	}
	if q.At(0, 0.01, q.Omega[5]) != 0 {
		t.Error("outside the frequency range the QTF should be zero")
	}
	if got := q.At(0, w, w); got != q.Q[0][i][i] {
		t.Errorf("At on a grid point %v, want %v", got, q.Q[0][i][i])
	}
}

// TestMeanDriftOfRegularWave: a regular wave of amplitude a on a QTF
// frequency drifts the platform with the constant load a² Q(ω, ω) (WAMIT's
// definition of the mean drift), through the coupling-facing Loads.
func TestMeanDriftOfRegularWave(t *testing.T) {
	_, root := semiFiles(t)
	b, err := os.ReadFile(root + ".12d")
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseQTF(b, rho, grav, 1, 0, "semi.12d")
	if err != nil {
		t.Fatal(err)
	}
	const tmax = 2000.0
	// A regular wave period on both the sea's frequency grid (2π/WaveTMax
	// steps) and the QTF's: 10 s = 2000 s / 200.
	sea, err := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: 200, WaveMod: waves.Regular,
		WaveTMax: tmax, WaveDT: 0.25, WaveHs: 4, WaveTp: 10, WvHiCOffD: 1, RegularPhase: new(float64)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, DiffQTF: q}, sea)
	if err != nil {
		t.Fatal(err)
	}
	w := 2 * math.Pi / 10
	for _, tm := range []float64{0, 3.7, 500} {
		l := p.Loads(tm, Motion{})
		for d := 0; d < 6; d++ {
			want := 4 * real(q.At(d, w, w)) // a = Hs/2 = 2 m
			if math.Abs(l.SecondOrder[d]-want) > 1e-6*math.Abs(real(q.At(0, w, w)))*4+1e-9 {
				t.Errorf("t=%g DOF %d: drift %g, want %g", tm, d+1, l.SecondOrder[d], want)
			}
		}
		if l.Total[0] != l.SecondOrder[0]+l.Hydrostat[0]+l.Excitation[0]+l.Radiation[0]+l.Additional[0] {
			t.Errorf("the total leaves out the second-order load")
		}
	}
}
