package structure

import (
	"math"
	"math/rand"
	"testing"
)

// angularVelocity returns ω with df[i] = ω × f[i] for an orthonormal frame f
// and its time derivative df: ω = ½ Σ f_i × ḟ_i.
func angularVelocity(f, df *frame) vec3 {
	var w vec3
	for i := 0; i < 3; i++ {
		w = w.add(f[i].cross(df[i]))
	}
	return w.scale(0.5)
}

func frameDiff(a, b *frame, inv float64) frame {
	var d frame
	for i := 0; i < 3; i++ {
		d[i] = a[i].sub(b[i]).scale(inv)
	}
	return d
}

// fdCoefficients are kinematic coefficients by finite differences of the
// positions and frames alone (Model.kinematics), independent of the
// kinematic chain analyticCoefficients follows: central differences with
// one Richardson extrapolation, (4·D(h) − D(2h))/3, so that truncation
// and round-off both stay near 1e-10 relative.
type fdCoefficients struct {
	jac            [][]vec3 // [point][dof]
	omS, omP       []vec3   // [dof]
	omJ            [][]vec3 // [blade][dof]
	abias          []vec3
	alphaS, alphaP vec3
}

func finiteDifferenceCoefficients(m *Model, moving []int, q, qd, pitch []float64) *fdCoefficients {
	nd := m.nDOF
	r := &fdCoefficients{jac: make([][]vec3, m.nPoints), omS: make([]vec3, nd), omP: make([]vec3, nd),
		omJ: make([][]vec3, m.p.NumBl), abias: make([]vec3, m.nPoints)}
	for i := range r.jac {
		r.jac[i] = make([]vec3, nd)
	}
	for k := range r.omJ {
		r.omJ[k] = make([]vec3, nd)
	}
	c0 := m.newConfig()
	m.kinematics(q, pitch, c0, kinAll)
	at := func(dir []float64, f float64) *config {
		qs := make([]float64, nd)
		for i := range qs {
			qs[i] = q[i] + f*dir[i]
		}
		c := m.newConfig()
		m.kinematics(qs, pitch, c, kinAll)
		return c
	}
	// first and second directional derivatives of a configuration
	// quantity x(c) along dir, Richardson-extrapolated.
	type sample struct{ p1, m1, p2, m2 *config }
	samples := func(dir []float64, h float64) sample {
		return sample{at(dir, h), at(dir, -h), at(dir, 2*h), at(dir, -2*h)}
	}
	d1 := func(s sample, h float64, x func(*config) vec3) vec3 {
		a := x(s.p1).sub(x(s.m1)).scale(1 / (2 * h))
		b := x(s.p2).sub(x(s.m2)).scale(1 / (4 * h))
		return a.scale(4.0 / 3).sub(b.scale(1.0 / 3))
	}
	d2 := func(s sample, h float64, x func(*config) vec3) vec3 {
		x0 := x(c0).scale(2)
		a := x(s.p1).add(x(s.m1)).sub(x0).scale(1 / (h * h))
		b := x(s.p2).add(x(s.m2)).sub(x0).scale(1 / (4 * h * h))
		return a.scale(4.0 / 3).sub(b.scale(1.0 / 3))
	}
	frameRate := func(s sample, h float64, f func(*config) *frame, second bool) vec3 {
		var df frame
		for i := 0; i < 3; i++ {
			x := func(c *config) vec3 { return f(c)[i] }
			if second {
				df[i] = d2(s, h, x)
			} else {
				df[i] = d1(s, h, x)
			}
		}
		return angularVelocity(f(c0), &df)
	}
	fs := func(c *config) *frame { return &c.fs }
	fp := func(c *config) *frame { return &c.fp }
	const h = 1e-4
	for _, j := range moving {
		dir := make([]float64, nd)
		dir[j] = 1
		s := samples(dir, h)
		for i := 0; i < m.nPoints; i++ {
			r.jac[i][j] = d1(s, h, func(c *config) vec3 { return c.pos[i] })
		}
		r.omS[j] = frameRate(s, h, fs, false)
		r.omP[j] = frameRate(s, h, fp, false)
		for k := range r.omJ {
			r.omJ[k][j] = frameRate(s, h, func(c *config) *frame { return &c.fj[k] }, false)
		}
	}
	// Along q̇: the second derivative of the positions, and the angular
	// acceleration of a frame at zero q̈, ½ Σ fᵢ × f̈ᵢ (the derivative of
	// ω = ½ Σ fᵢ × ḟᵢ; the ḟᵢ × ḟᵢ terms vanish).
	vmax := 0.0
	for _, j := range moving {
		vmax = math.Max(vmax, math.Abs(qd[j]))
	}
	ds := 1e-2 / vmax
	s := samples(qd, ds)
	for i := 0; i < m.nPoints; i++ {
		r.abias[i] = d2(s, ds, func(c *config) vec3 { return c.pos[i] })
	}
	r.alphaS = frameRate(s, ds, fs, true)
	r.alphaP = frameRate(s, ds, fp, true)
	return r
}

// compareCoefficients checks every moving DOF's partial velocities and
// partial angular velocities, the bias accelerations and the frames'
// angular velocities and accelerations of sys (analytic) against the
// finite-difference reference, each kind relative to its largest entry.
func compareCoefficients(t *testing.T, sys *System, st *State, pitch []float64) {
	t.Helper()
	m := sys.m
	sys.keyValid = false
	sys.kinematicCoefficients(st, pitch)
	ref := finiteDifferenceCoefficients(m, sys.moving, st.Q, st.QD, pitch)
	norm := func(v vec3) float64 { return math.Sqrt(v.dot(v)) }
	check := func(what string, got, want func(i int) vec3, n int) {
		t.Helper()
		scale, worst, at := 0.0, 0.0, 0
		for i := 0; i < n; i++ {
			scale = math.Max(scale, norm(want(i)))
		}
		for i := 0; i < n; i++ {
			if e := norm(got(i).sub(want(i))); e > worst {
				worst, at = e, i
			}
		}
		if scale == 0 {
			// Nothing turns this frame (a spinning rigid rotor's shaft).
			if worst > 1e-12 {
				t.Errorf("%s entry %d: analytic %v, finite differences zero", what, at, got(at))
			}
			return
		}
		t.Logf("%-28s largest %.3g, largest difference %.2g relative", what, scale, worst/scale)
		if worst > 1e-8*scale {
			t.Errorf("%s entry %d: analytic %v, finite differences %v (%.2g relative to %.3g)", what, at, got(at), want(at), worst/scale, scale)
		}
	}
	for _, j := range sys.moving {
		name := DOFName(j)
		check("partial velocities "+name, func(i int) vec3 { return sys.partialVelocity(i, j) }, func(i int) vec3 { return ref.jac[i][j] }, m.nPoints)
	}
	// Partial angular velocities: zero for some DOFs (the shaft frame does
	// not turn with the azimuth), so compare them all together.
	nm := len(sys.moving)
	check("shaft frame ω partials", func(i int) vec3 { return sys.omS[sys.moving[i]] }, func(i int) vec3 { return ref.omS[sys.moving[i]] }, nm)
	for k := range ref.omJ {
		check("blade frame ω partials", func(i int) vec3 { return sys.omJ[k][sys.moving[i]] }, func(i int) vec3 { return ref.omJ[k][sys.moving[i]] }, nm)
	}
	// Bias accelerations of every point but the massless blade load
	// stations, whose accelerations nothing asks for.
	var pts []int
	for i := 0; i < m.nPoints; i++ {
		if sys.bladeOf[i] < 0 || m.ptMass[i] > 0 {
			pts = append(pts, i)
		}
	}
	check("bias accelerations", func(i int) vec3 { return sys.abias[pts[i]] }, func(i int) vec3 { return ref.abias[pts[i]] }, len(pts))
	omegaS := vec3{}
	for _, j := range sys.moving {
		omegaS = omegaS.axpy(st.QD[j], ref.omS[j])
	}
	check("shaft ω, α at zero q̈", func(i int) vec3 { return [2]vec3{sys.omegaS, sys.alphaS}[i] }, func(i int) vec3 { return [2]vec3{omegaS, ref.alphaS}[i] }, 2)
	if m.floating {
		check("platform frame ω partials", func(i int) vec3 { return sys.omP[sys.moving[i]] }, func(i int) vec3 { return ref.omP[sys.moving[i]] }, nm)
		omegaP := vec3{}
		for _, j := range sys.moving {
			omegaP = omegaP.axpy(st.QD[j], ref.omP[j])
		}
		check("platform ω, α at zero q̈", func(i int) vec3 { return [2]vec3{sys.omegaP, sys.alphaP}[i] }, func(i int) vec3 { return [2]vec3{omegaP, ref.alphaP}[i] }, 2)
	}
}

// randomState gives every moving DOF a coordinate and a rate of the given
// sizes (metres or radians, per second).
func randomState(sys *System, rng *rand.Rand, qSize, qdSize func(j int) float64) *State {
	st := sys.m.NewState()
	for _, j := range sys.moving {
		st.Q[j] = qSize(j) * (2*rng.Float64() - 1)
		st.QD[j] = qdSize(j) * (2*rng.Float64() - 1)
	}
	return st
}

func allDOFs() DOFFlags {
	return DOFFlags{FlapDOF1: true, FlapDOF2: true, EdgeDOF: true, GenDOF: true, DrTrDOF: true, YawDOF: true,
		TwFADOF1: true, TwFADOF2: true, TwSSDOF1: true, TwSSDOF2: true,
		PtfmSgDOF: true, PtfmSwDOF: true, PtfmHvDOF: true, PtfmRDOF: true, PtfmPDOF: true, PtfmYDOF: true}
}

// The analytic partial velocities, partial angular velocities and
// velocity-dependent accelerations equal the finite differences of the
// positions and frames to 1e-8 relative, on land and afloat, with every
// DOF moving, tower-top slopes on both sides of the rotation map's series
// threshold and tower load stations.
func TestAnalyticPartialsMatchFiniteDifferences(t *testing.T) {
	stations := [][]float64{{0, 10, 40, 61.5}, {5, 30, 55}, {20, 60}}
	towerElev := []float64{15, 50, 90}
	for _, tc := range []struct {
		name     string
		dof      DOFFlags
		floating bool
		towerQ   float64 // size of the tower mode coordinates, m
	}{
		{"land, rotor and tower", DOFFlags{FlapDOF1: true, FlapDOF2: true, EdgeDOF: true, GenDOF: true, DrTrDOF: true, YawDOF: true, TwFADOF1: true, TwFADOF2: true, TwSSDOF1: true, TwSSDOF2: true}, false, 1},
		{"land, large tower slopes", DOFFlags{FlapDOF1: true, EdgeDOF: true, GenDOF: true, TwFADOF1: true, TwSSDOF1: true}, false, 6},
		{"land, rigid rotor spinning", DOFFlags{GenDOF: true}, false, 0},
		{"floating, every DOF", allDOFs(), true, 1.5},
		{"floating, large slopes", allDOFs(), true, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := uniformParams()
			if tc.floating {
				p = platformParams(tc.dof)
				p.PtfmCMxt, p.PtfmCMyt = 0.7, -0.4
				p.PtfmRefxt, p.PtfmRefzt = 0.3, -2
			}
			p.DOF = tc.dof
			m, err := NewModelWithTower(p, stations, towerElev)
			if err != nil {
				t.Fatal(err)
			}
			sys := NewSystem(m)
			rng := rand.New(rand.NewSource(7))
			for trial := 0; trial < 3; trial++ {
				st := randomState(sys, rng, func(j int) float64 {
					switch {
					case j <= DOFHv:
						return 5
					case j <= DOFY:
						return 0.15
					case j <= DOFTSS2:
						return tc.towerQ
					case j >= dofBlade0:
						return 3
					}
					return math.Pi
				}, func(j int) float64 {
					switch {
					case j <= DOFHv:
						return 1
					case j <= DOFY:
						return 0.1
					case j <= DOFTSS2:
						return 0.5
					case j == DOFGeAz:
						return 1.3
					case j >= dofBlade0:
						return 2
					}
					return 0.2
				})
				pitch := []float64{0.1, -0.05, 0.3}
				compareCoefficients(t, sys, st, pitch)
			}
		})
	}
}

// The same on the IEA 15 MW semi of the reference case (its own blade
// and tower shapes, 50 blade nodes, the AeroDyn stations the coupling
// uses) in a state like its rated operation.
func TestAnalyticPartialsMatchFiniteDifferencesOnSemi(t *testing.T) {
	all := allDOFs()
	m := semiModel(t, &all)
	p := m.Params()
	sys := NewSystem(m)
	st, err := m.InitialState()
	if err != nil {
		t.Fatal(err)
	}
	st.Q[DOFSg], st.Q[DOFHv], st.Q[DOFR], st.Q[DOFP], st.Q[DOFY] = 12, -0.4, 0.01, 0.07, 0.005
	st.QD[DOFSg], st.QD[DOFHv], st.QD[DOFP], st.QD[DOFY] = 0.3, 0.1, 0.01, -0.002
	st.Q[DOFTFA1], st.QD[DOFTFA1], st.Q[DOFTSS1], st.QD[DOFTSS1] = 0.4, 0.1, -0.05, 0.03
	st.Q[DOFGeAz], st.QD[DOFGeAz], st.QD[DOFDrTr] = 1.1, 0.79, 0.001
	for k := 0; k < p.NumBl; k++ {
		st.Q[DOFBlade(k, ModeFlap1)], st.QD[DOFBlade(k, ModeFlap1)] = 8, 0.5
		st.Q[DOFBlade(k, ModeEdge1)], st.QD[DOFBlade(k, ModeEdge1)] = -0.6, 0.4
	}
	compareCoefficients(t, sys, st, []float64{0.06, 0.06, 0.06})
}

// rotorTermsPointwise is rotorState and rotorLoads the long way: Kane's sums over every
// blade point, Σ mᵢ vᵢ,ᵣ·vᵢ,ₛ and Σ vᵢ,ᵣ·(mᵢ(g − a₀ᵢ) + Fᵢ) + ωᵢ,ᵣ·Mᵢ.
func rotorTermsPointwise(s *System, M []float64, ld int, f []float64, u *Inputs) {
	m := s.m
	p := &m.p
	g := vec3{0, 0, -p.Gravity}
	for i := 0; i < m.nPoints; i++ {
		k := s.bladeOf[i]
		if k < 0 {
			continue
		}
		L := g.sub(s.abias[i]).scale(m.ptMass[i])
		var Mo vec3
		var sh *bladeShape
		if i >= m.ptLoad0[k] && i < m.ptLoad0[k]+len(m.loadR[k]) {
			L = L.add(vec3(u.BladeForce[k][i-m.ptLoad0[k]]))
			Mo = vec3(u.BladeMoment[k][i-m.ptLoad0[k]])
			sh = &m.loadShape[k][i-m.ptLoad0[k]]
		}
		for a, ja := range s.active {
			va := s.partialVelocity(i, ja)
			om := s.omJ[k][ja]
			if md := ja - DOFBlade(k, 0); sh != nil && md >= 0 && md < 3 {
				om = om.axpy(-sh.sy[md], s.c0.fj[k][0]).axpy(sh.sx[md], s.c0.fj[k][1])
			}
			f[a] += va.dot(L) + om.dot(Mo)
			for b := 0; b <= a; b++ {
				M[a*ld+b] += m.ptMass[i] * va.dot(s.partialVelocity(i, s.active[b]))
			}
		}
	}
}

// The blades' generalized mass and forces from their mass moments about
// the apex (rotorState, rotorLoads) equal Kane's sums over the blade points, on the
// floating turbine with every DOF moving and aerodynamic loads on.
func TestRotorTermsEqualPointSums(t *testing.T) {
	p := platformParams(allDOFs())
	p.Gravity = 9.80665
	m, err := NewModel(p, [][]float64{{0, 10, 40, 61.5}, {5, 30, 55}, {20, 60}})
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	rng := rand.New(rand.NewSource(3))
	st := randomState(sys, rng, func(j int) float64 { return 0.2 }, func(j int) float64 { return 0.5 })
	u := m.NewInputs()
	for k := range u.BladeForce {
		for i := range u.BladeForce[k] {
			for x := 0; x < 3; x++ {
				u.BladeForce[k][i][x] = 1e4 * (2*rng.Float64() - 1)
				u.BladeMoment[k][i][x] = 1e4 * (2*rng.Float64() - 1)
			}
		}
	}
	sys.kinematicCoefficients(st, u.BlPitch)
	na := len(sys.active)
	M1, M2 := make([]float64, na*na), make([]float64, na*na)
	f1, f2 := make([]float64, na), make([]float64, na)
	sys.rotorState(M1, na, f1)
	sys.rotorLoads(u, f1)
	rotorTermsPointwise(sys, M2, na, f2, u)
	scaleM, scaleF := 0.0, 0.0
	for i := range M2 {
		scaleM = math.Max(scaleM, math.Abs(M2[i]))
	}
	for i := range f2 {
		scaleF = math.Max(scaleF, math.Abs(f2[i]))
	}
	for a := 0; a < na; a++ {
		for b := 0; b <= a; b++ {
			if d := math.Abs(M1[a*na+b] - M2[a*na+b]); d > 1e-12*scaleM {
				t.Errorf("mass %s,%s: lumped %.12g, point sums %.12g", DOFName(sys.active[a]), DOFName(sys.active[b]), M1[a*na+b], M2[a*na+b])
			}
		}
		if d := math.Abs(f1[a] - f2[a]); d > 1e-12*scaleF {
			t.Errorf("force %s: lumped %.12g, point sums %.12g", DOFName(sys.active[a]), f1[a], f2[a])
		}
	}
}

// A second evaluation at the same state reuses the factored mass matrix
// and the state's forces: with new inputs, and after a new platform added
// mass, it gives exactly what a fresh system gives for those inputs.
func TestDerivativeReusesStateAssembly(t *testing.T) {
	p := platformParams(allDOFs())
	p.Gravity = 9.80665
	m, err := NewModel(p, [][]float64{{10, 40}, {10, 40}, {10, 40}})
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	rng := rand.New(rand.NewSource(5))
	st := randomState(sys, rng, func(j int) float64 { return 0.1 }, func(j int) float64 { return 0.3 })
	u1, u2 := m.NewInputs(), m.NewInputs()
	u1.GenTrq, u2.GenTrq = 1e4, -2e4
	u2.YawMom, u2.PtfmForce, u2.PtfmMoment = 3e5, [3]float64{1e5, -2e5, 3e5}, [3]float64{1e6, 2e6, -1e6}
	u2.BladeForce[1][0] = [3]float64{1e3, 2e3, -5e2}
	u2.BladeMoment[2][1] = [3]float64{-1e3, 4e2, 7e2}
	var am [6][6]float64
	for i := range am {
		am[i][i] = 1e6 * float64(i+1)
	}
	am[0][4], am[4][0] = -3e5, -3e5
	got, want := make([]float64, m.NumDOF()), make([]float64, m.NumDOF())
	fresh := func(u *Inputs, am [6][6]float64) []float64 {
		s := NewSystem(m)
		s.SetPlatformAddedMass(am)
		if err := s.Derivative(st, u, want); err != nil {
			t.Fatal(err)
		}
		return want
	}
	if err := sys.Derivative(st, u1, got); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		u    *Inputs
		am   [6][6]float64
	}{{"new inputs", u2, [6][6]float64{}}, {"new added mass", u2, am}, {"inputs back", u1, am}} {
		sys.SetPlatformAddedMass(step.am)
		if err := sys.Derivative(st, step.u, got); err != nil {
			t.Fatal(err)
		}
		w := fresh(step.u, step.am)
		for j := range got {
			if got[j] != w[j] {
				t.Errorf("%s: q̈ %s = %.17g, a fresh system gives %.17g", step.name, DOFName(j), got[j], w[j])
			}
		}
	}
}

// bendFrame turns a frame by a rotation vector in its own x-y plane as the
// global Rodrigues rotation (rotationVector) does, to round-off, on both
// sides of its series threshold.
func TestBendFrameIsTheRotationAboutTheSlopeVector(t *testing.T) {
	f := platformFrame(vec3{0.3, -0.7, 2.1})
	for _, r := range [][2]float64{{1e-9, 0}, {0.02, -0.013}, {-0.07, 0.0699}, {0.0707, 0.0707}, {0.2, 0.5}, {-1.1, 0.4}} {
		got := bendFrame(&f, r[0], r[1])
		rot := rotationVector(f[0].scale(r[0]).add(f[1].scale(r[1])))
		for a := 0; a < 3; a++ {
			want := rot.apply(f[a])
			if e := got[a].sub(want); math.Sqrt(e.dot(e)) > 2e-16*4 {
				t.Errorf("slopes %v, axis %d: %v, Rodrigues %v (difference %.2g)", r, a, got[a], want, math.Sqrt(e.dot(e)))
			}
		}
	}
}
