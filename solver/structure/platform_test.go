package structure

import (
	"math"
	"testing"
)

// platformParams is the uniform turbine of uniformParams on a floating
// platform with the given DOFs, no gravity (so the only loads are the
// ones a test applies) and the rotor parked.
func platformParams(dof DOFFlags) Params {
	p := uniformParams()
	p.Gravity = 0
	p.DOF = dof
	p.TowerBsHt = 10
	p.TowerHt = 97.6
	p.PtfmMass = 1.2e7
	p.PtfmRIner, p.PtfmPIner, p.PtfmYIner = 8e9, 9e9, 1.5e10
	p.PtfmCMzt = -14.4
	p.PtfmRefzt = 0
	return p
}

// massOnly is platformParams with every mass of the turbine removed, so
// that the platform alone carries inertia.
func massOnly(p Params) Params {
	for k := range p.Blades {
		b := p.Blades[k]
		b.BMassDen = []float64{0, 0}
		p.Blades[k] = b
	}
	p.Tower.TMassDen = []float64{1e-9, 1e-9} // the tower modes need a mass for their frequencies
	p.HubMass, p.HubIner, p.GenIner, p.NacMass, p.NacYIner, p.YawBrMass = 0, 0, 0, 0, 0, 0
	return p
}

// Free heave of the whole turbine on a linear spring k with an added mass
// A: every point moves with the platform, so M q̈ = −k z gives
// ω² = k/(m_total + A) exactly.
func TestPlatformHeaveSpringFrequency(t *testing.T) {
	p := platformParams(DOFFlags{PtfmHvDOF: true})
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, mi := range m.ptMass {
		total += mi
	}
	if total <= p.PtfmMass {
		t.Fatalf("total mass %v should exceed the platform's %v", total, p.PtfmMass)
	}
	const k, A = 4.5e6, 2.5e7
	sys := NewSystem(m)
	var am [6][6]float64
	am[2][2] = A
	sys.SetPlatformAddedMass(am)
	st, _ := m.InitialState()
	z := 0.7
	st.Q[DOFHv] = z
	u := m.NewInputs()
	u.PtfmForce[2] = -k * z
	qdd := make([]float64, m.NumDOF())
	if err := sys.Derivative(st, u, qdd); err != nil {
		t.Fatal(err)
	}
	w2 := -qdd[DOFHv] / z
	want := k / (total + A)
	if math.Abs(w2-want) > 1e-9*want {
		t.Fatalf("ω² = %.9g, want k/(m+A) = %.9g", w2, want)
	}
	// Integrate two periods: the heave returns to its start and the period
	// is 2π/ω (ElastoDyn's RK4 at 100 steps per period is accurate to
	// well below 0.1 %).
	period := 2 * math.Pi / math.Sqrt(want)
	p.DT = period / 100
	m, _ = NewModel(p, nil)
	sys = NewSystem(m)
	sys.SetPlatformAddedMass(am)
	it := NewIntegrator(sys)
	st, _ = m.InitialState()
	st.Q[DOFHv] = z
	u0, u1 := m.NewInputs(), m.NewInputs()
	crossings := []float64{}
	prev := st.Q[DOFHv]
	for n := 0; n < 250; n++ {
		u0.PtfmForce[2] = -k * st.Q[DOFHv]
		// The spring force at the end of the step, from the velocity now.
		u1.PtfmForce[2] = -k * (st.Q[DOFHv] + p.DT*st.QD[DOFHv])
		if err := it.Step(float64(n)*p.DT, st, u0, u1); err != nil {
			t.Fatal(err)
		}
		if prev > 0 && st.Q[DOFHv] <= 0 {
			f := prev / (prev - st.Q[DOFHv])
			crossings = append(crossings, (float64(n)+f)*p.DT)
		}
		prev = st.Q[DOFHv]
	}
	if len(crossings) < 2 {
		t.Fatalf("heave did not oscillate: %v", crossings)
	}
	got := crossings[1] - crossings[0]
	if math.Abs(got-period) > 0.005*period {
		t.Fatalf("heave period %.4f s, want 2π·sqrt((m+A)/k) = %.4f s", got, period)
	}
}

// Pitch of the platform alone about its reference point: the inertia is
// PtfmPIner about the CM plus m·d² for the CM PtfmCMzt below the reference
// point (parallel axes), and a surge force at the reference point pitches
// it through the same offset.
func TestPlatformPitchInertiaAboutCM(t *testing.T) {
	p := massOnly(platformParams(DOFFlags{PtfmPDOF: true}))
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	st, _ := m.InitialState()
	u := m.NewInputs()
	const My = 3e8
	u.PtfmMoment[1] = My
	qdd := make([]float64, m.NumDOF())
	if err := sys.Derivative(st, u, qdd); err != nil {
		t.Fatal(err)
	}
	d := p.PtfmCMzt - p.PtfmRefzt
	want := My / (p.PtfmPIner + p.PtfmMass*d*d)
	if math.Abs(qdd[DOFP]-want) > 1e-9*math.Abs(want) {
		t.Fatalf("pitch acceleration %.9g, want M/(I_cm + m d²) = %.9g", qdd[DOFP], want)
	}
	// Surge and pitch together: a surge force F at the reference point.
	// With x the surge and θ the pitch, the CM moves by x + d·θ (d < 0 is
	// below, and a positive pitch carries a point below the reference
	// point upwind), so M = [[m, m·d], [m·d, I + m·d²]] and f = [F, 0].
	p = massOnly(platformParams(DOFFlags{PtfmSgDOF: true, PtfmPDOF: true}))
	m, _ = NewModel(p, nil)
	sys = NewSystem(m)
	st, _ = m.InitialState()
	u = m.NewInputs()
	const F = 2e6
	u.PtfmForce[0] = F
	if err := sys.Derivative(st, u, qdd); err != nil {
		t.Fatal(err)
	}
	mm := p.PtfmMass
	I := p.PtfmPIner
	// CM at (0, 0, d) relative to the reference point; a pitch θ about +y
	// moves it by θ·d along +x.
	a11, a12, a22 := mm, mm*d, I+mm*d*d
	det := a11*a22 - a12*a12
	wantX := a22 * F / det
	wantTh := -a12 * F / det
	if math.Abs(qdd[DOFSg]-wantX) > 1e-8*math.Abs(wantX) || math.Abs(qdd[DOFP]-wantTh) > 1e-8*math.Abs(wantTh) {
		t.Fatalf("surge/pitch accelerations %.9g, %.9g; want %.9g, %.9g", qdd[DOFSg], qdd[DOFP], wantX, wantTh)
	}
}

// The platform transform is a rotation that agrees with the small-angle
// rotation to first order, and a pure pitch θ tilts the tower axis by
// atan(θ) toward +x.
func TestPlatformFrameIsOrthonormal(t *testing.T) {
	for _, th := range []vec3{{0, 0, 0}, {0.01, -0.02, 0.03}, {0.2, 0.3, -0.1}} {
		f := platformFrame(th)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(f[i].dot(f[j])-want) > 1e-14 {
					t.Fatalf("θ=%v: axes %d·%d = %v", th, i, j, f[i].dot(f[j]))
				}
			}
		}
		if d := f[0].cross(f[1]).sub(f[2]); d.dot(d) > 1e-28 {
			t.Fatalf("θ=%v: not right-handed", th)
		}
	}
	f := platformFrame(vec3{0, 0.1, 0})
	if got := math.Atan2(f[2][0], f[2][2]); math.Abs(got-0.1) > 1e-14 {
		t.Fatalf("pitch 0.1 tilts z by %v rad, want 0.1", got)
	}
}

// The platform angles are intrinsic Z-Y-X Euler angles (yaw, then pitch,
// then roll), as OpenFAST v4+ ElastoDyn defines them, so that HydroDyn's
// Z-Y-X extraction returns them: the body axes are the rows of the
// direction-cosine matrix of the 3-2-1 sequence, written out by hand. The
// small-angle transformation this replaced differs at second order (by
// about pitch·yaw in the roll), which moved the semi's mean roll by 5 %.
func TestPlatformFrameIsZYXEuler(t *testing.T) {
	for _, th := range []vec3{{0.2, 0.3, -0.1}, {0.007, 0.071, 0.0058}, {-0.4, 0.05, 1.2}} {
		cx, sx := math.Cos(th[0]), math.Sin(th[0])
		cy, sy := math.Cos(th[1]), math.Sin(th[1])
		cz, sz := math.Cos(th[2]), math.Sin(th[2])
		want := frame{
			{cy * cz, cy * sz, -sy},
			{sx*sy*cz - cx*sz, sx*sy*sz + cx*cz, sx * cy},
			{cx*sy*cz + sx*sz, cx*sy*sz - sx*cz, cx * cy},
		}
		f := platformFrame(th)
		for i := 0; i < 3; i++ {
			if d := f[i].sub(want[i]); d.dot(d) > 1e-28 {
				t.Errorf("θ=%v: axis %d = %v, want %v", th, i, f[i], want[i])
			}
		}
	}
}

// On a rigid tower the nacelle turns with the platform: its IMU's nodding
// acceleration (NcIMURAys, the input of ROSCO's Fl_Mode 2 floating feedback)
// is the platform's pitch acceleration, tilted into the shaft frame.
func TestNacelleNoddingAccelerationFollowsPlatformPitch(t *testing.T) {
	p := platformParams(DOFFlags{PtfmPDOF: true})
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	st, _ := m.InitialState()
	u := m.NewInputs()
	u.PtfmMoment[1] = 5e8
	out := m.NewOutputs()
	if err := sys.Outputs(st, u, out); err != nil {
		t.Fatal(err)
	}
	a := out.QDD[DOFP]
	if a == 0 {
		t.Fatal("no pitch acceleration")
	}
	// The shaft frame is the nacelle tilted about y: the nodding component
	// is unchanged, the pitch acceleration has no roll or yaw component.
	if math.Abs(out.NcIMURA[1]-a) > 1e-9*math.Abs(a) || math.Abs(out.NcIMURA[0]) > 1e-9*math.Abs(a) || math.Abs(out.NcIMURA[2]) > 1e-9*math.Abs(a) {
		t.Fatalf("NcIMURA = %v, want (0, %g, 0)", out.NcIMURA, a)
	}
	if math.Abs(out.PtfmRAi[1]-a) > 1e-9*math.Abs(a) {
		t.Fatalf("PtfmRAyi = %g, want %g", out.PtfmRAi[1], a)
	}
}
