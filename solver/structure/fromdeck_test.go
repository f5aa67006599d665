package structure

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func loadFlexDeck(t *testing.T) *deck.Deck {
	t.Helper()
	path := testshared.Path(t, "reference-outputs", "nrel5mw_steady8_flex_bem", "Main_Onshore.fst")
	d, err := deck.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Reference values are ElastoDyn's Coeff results for the NREL 5 MW onshore
// model as reproduced by openfast_toolbox/welib's ElastoDyn port and its unit
// test (test_ED_tower_params): tower mass 347,460.2316 kg, KTFA(1,1) =
// 1.910902930730452e6 N/m, side-side frequencies 0.931115438 and 3.080181973
// Hz, CTFA(1,1) = 6420.56966 N·s/m, and a rotor mass of 107,107.00928 kg
// with AdjBlMs = 1 (this deck's blade file uses AdjBlMs = 1.04536).
// AxRedTFA(1,1) at the tower top is not that port's value (0.014173), which
// multiplies the slopes of node J and node J-1: ElastoDyn's Coeff multiplies
// the slopes at node J, so the top value is Σ Δh·φ'(h_J)², the midpoint rule
// for ∫φ'² dh (0.0150306 m⁻¹ exactly for this shape, 0.09 % away).
func TestNREL5MWCoefficientsMatchElastoDyn(t *testing.T) {
	d := loadFlexDeck(t)
	p, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want, rtol float64) {
		t.Helper()
		if math.Abs(got-want) > rtol*math.Abs(want) {
			t.Errorf("%s = %.10g, ElastoDyn %.10g", name, got, want)
		}
	}
	bladeMass := 0.0
	for _, v := range m.bElmMass[0] {
		bladeMass += v
	}
	check("blade mass", bladeMass, (107107.00927723547-56780)/3*p.Blades[0].AdjBlMs, 1e-9)
	twrMass := 0.0
	for _, v := range m.tElmMass {
		twrMass += v
	}
	check("tower mass", twrMass, 347460.2316, 1e-9)
	check("KTFA(1,1)", m.kFA[0][0], 1.910902930730452e6, 1e-9)
	check("KTSS(2,2)", m.kSS[1][1], 1.319779713916086e10, 1e-9)
	check("FreqTSS(1)", m.FreqTSS[0], 0.931115438458394, 1e-9)
	check("FreqTSS(2)", m.FreqTSS[1], 3.080181973131150, 1e-9)
	check("CTFA(1,1)", m.cFA[0][0], 6.420569660348690e3, 1e-9)
	check("CTFA(2,1)", m.cFA[1][0], 9.772015298550068e3, 1e-9)
	check("AxRedTFA(1,1,top)", m.tShape[p.TwrNodes+1].axFA[0][0], 1.504385676134232e-02, 1e-9)
	// Blade values from the same source (test_ED_blade_params_NoBldAdj;
	// stiffness and shapes do not depend on AdjBlMs). Mode order here is
	// flap 1, edge 1, flap 2.
	check("KBF(1,1)", m.bK[0][0][0], 1.669817537559324e4, 1e-9)
	check("KBF(1,2)", m.bK[0][0][2], -1.453663035386739e3, 1e-9)
	check("KBF(2,2)", m.bK[0][2][2], 8.495748847887896e4, 1e-9)
	check("KBE(1,1)", m.bK[0][1][1], 6.682208061735689e4, 1e-9)
	tip := &m.bShape[0][p.BldNodes+1]
	check("TwistedSF flap1 x tip", tip.dx[ModeFlap1], 9.910328208697139e-01, 1e-9)
	check("TwistedSF flap1 x' tip", tip.sx[ModeFlap1], 3.815332774490886e-02, 1e-9)
	check("TwistedSF edge1 x tip", tip.dx[ModeEdge1], 0.167501776715005, 1e-9)
	check("TwistedSF flap1 x mid", m.bShape[0][9].dx[ModeFlap1], 1.400789659935833e-01, 1e-9)
	check("AxRedBld(BF1,BF1,tip)", tip.axRed[ModeFlap1][ModeFlap1], 2.722873037538838e-02, 1e-9)
	check("AxRedBld(BF2,BF1,tip)", tip.axRed[ModeFlap2][ModeFlap1], 4.273914168364583e-02, 1e-9)
	check("AxRedBld(BE1,BF1,tip)", tip.axRed[ModeEdge1][ModeFlap1], 8.556785740654360e-04, 1e-9)
	check("CBE(1,1)", m.bC[0][1][1], 91.32399596067735*math.Sqrt(p.Blades[0].AdjBlMs), 1e-9)
	t.Logf("blade mass %.1f kg, flap %.3f/%.3f Hz, edge %.3f Hz, tower FA %.3f/%.3f Hz, SS %.3f/%.3f Hz",
		bladeMass, m.FreqBF[0], m.FreqBF[1], m.FreqBE, m.FreqTFA[0], m.FreqTFA[1], m.FreqTSS[0], m.FreqTSS[1])
}

// The centrifugal stiffening that the kinematics produce (axial shortening
// of the deflected blade in the centrifugal field) must agree with
// ElastoDyn's KBFCent(1,1) = Σ FMomAbvNd·Ω²·Δr·φ'² (Coeff), the classical
// geometric stiffness of a rotating beam.
func TestCentrifugalStiffeningMatchesKBFCent(t *testing.T) {
	d := loadFlexDeck(t)
	p, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	p.Gravity = 0
	p.DOF = DOFFlags{FlapDOF1: true}
	p.Init.RotSpeed = 1 // rad/s, fixed (GenDOF off)
	for k := range p.PreCone {
		p.PreCone[k] = 0
	}
	m, err := NewModel(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	sys := NewSystem(m)
	st, _ := m.InitialState()
	u := m.NewInputs()
	qdd0 := make([]float64, m.NumDOF())
	qdd1 := make([]float64, m.NumDOF())
	if err := sys.Derivative(st, u, qdd0); err != nil {
		t.Fatal(err)
	}
	const delta = 1e-3
	st.Q[DOFBlade(0, ModeFlap1)] = delta
	if err := sys.Derivative(st, u, qdd1); err != nil {
		t.Fatal(err)
	}
	// Generalized mass of blade 1 flap 1 from the assembled matrix.
	M := sys.massDiag[0]
	j := DOFBlade(0, ModeFlap1)
	kTotal := -M * (qdd1[j] - qdd0[j]) / delta
	kCent := kTotal - m.bK[0][0][0]
	// ElastoDyn's KBFCent with the untwisted slope and FMomAbvNd.
	b := &p.Blades[0]
	N := p.BldNodes
	fmom := make([]float64, N)
	for J := N - 1; J >= 0; J-- {
		fmom[J] = 0.5 * m.bElmMass[0][J] * (p.HubRad + m.rNodes[J] + 0.5*m.bldDR)
		if J == N-1 {
			fmom[J] += p.TipMass[0] * p.TipRad
		} else {
			fmom[J] += fmom[J+1] + 0.5*m.bElmMass[0][J+1]*(p.HubRad+m.rNodes[J+1]-0.5*m.bldDR)
		}
	}
	want := 0.0
	for J := 0; J < N; J++ {
		s := shp(&b.BldFl1Sh, m.rNodes[J]/m.bldFlexL, m.bldFlexL, 1)
		want += fmom[J] * m.bldDR * s * s
	}
	t.Logf("generalized mass %.2f kg, centrifugal stiffness %.1f N/m, ElastoDyn KBFCent %.1f N/m", M, kCent, want)
	if math.Abs(kCent-want) > 0.03*want {
		t.Fatalf("centrifugal stiffening %.1f N/m differs from KBFCent %.1f N/m by more than 3%%", kCent, want)
	}
}

// The gravitational destiffening of the tower that the kinematics produce
// (every mass above the base lowered by the tower's axial shortening) must
// equal ElastoDyn's KTSSGrav(1,1) and KTFAGrav(1,1) (Coeff):
// Σⱼ −TMssAbvNd(J)·Δh·g·φ'(h_J)², with TMssAbvNd(J) the mass above node J
// (half of element J, the elements above it and the tower-top mass). This
// holds only if the axial reduction AxRedT is built from the slopes at the
// tower nodes themselves, ∫φ'ᵢφ'ⱼ dh by the midpoint rule, as Coeff does.
// The rotor is untilted and unconed and the nacelle mass sits at the tower
// top so that tilting the tower top lowers no mass (the three blades' height
// offsets cancel); the top masses then see only the axial shortening.
func TestTowerGravityDestiffeningMatchesElastoDynKTGrav(t *testing.T) {
	d := loadFlexDeck(t)
	p, err := ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	p.ShftTilt, p.NacCMzn, p.NacCMxn, p.NacCMyn, p.Twr2Shft = 0, 0, 0, 0, 0
	for k := range p.PreCone {
		p.PreCone[k] = 0
	}
	p.Init.RotSpeed = 0
	p.Init.TTDspFA, p.Init.TTDspSS = 0, 0
	for _, mode := range []struct {
		name string
		dof  int
		sh   *[5]float64
		k11  func(m *Model) float64
	}{
		{"side-to-side", DOFTSS1, &p.Tower.TwSSM1Sh, func(m *Model) float64 { return m.kSS[0][0] }},
		{"fore-aft", DOFTFA1, &p.Tower.TwFAM1Sh, func(m *Model) float64 { return m.kFA[0][0] }},
	} {
		p.DOF = DOFFlags{TwSSDOF1: mode.dof == DOFTSS1, TwFADOF1: mode.dof == DOFTFA1}
		m, err := NewModel(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Generalized stiffness from the equations of motion: central
		// difference of the generalized acceleration about q = 0, times the
		// generalized mass.
		sys := NewSystem(m)
		u := m.NewInputs()
		qdd := make([]float64, m.NumDOF())
		const delta = 1e-3
		var acc [2]float64
		var mass float64
		for i, q := range []float64{delta, -delta} {
			st, _ := m.InitialState()
			st.Q[mode.dof] = q
			if err := sys.Derivative(st, u, qdd); err != nil {
				t.Fatal(err)
			}
			acc[i] = qdd[mode.dof]
			mass += 0.5 * sys.massDiag[0]
		}
		kTotal := -mass * (acc[0] - acc[1]) / (2 * delta)
		kGrav := kTotal - mode.k11(m)

		// ElastoDyn's KT..Grav(1,1), from the tower elements and the
		// tower-top mass (yaw bearing, nacelle, hub, blades).
		top := p.YawBrMass + p.NacMass + p.HubMass
		for k := 0; k < p.NumBl; k++ {
			top += p.TipMass[k]
			for _, v := range m.bElmMass[k] {
				top += v
			}
		}
		N := p.TwrNodes
		L := p.TowerHt - p.TowerBsHt
		dh := L / float64(N)
		elm := make([]float64, N)
		for j := range elm {
			x := (float64(j) + 0.5) / float64(N)
			elm[j] = interp(x, p.Tower.HtFract, p.Tower.TMassDen) * p.Tower.AdjTwMa * dh
		}
		want := 0.0
		above := 0.0 // TMssAbvNd
		for j := N - 1; j >= 0; j-- {
			if j == N-1 {
				above = 0.5*elm[j] + top
			} else {
				above += 0.5*elm[j+1] + 0.5*elm[j]
			}
			s := shp(mode.sh, (float64(j)+0.5)/float64(N), L, 1)
			want -= above * dh * p.Gravity * s * s
		}
		t.Logf("%s: generalized stiffness %.6g N/m, of which gravity %.6g N/m; ElastoDyn KTGrav %.6g N/m", mode.name, kTotal, kGrav, want)
		if math.Abs(kGrav-want) > 0.005*math.Abs(want) {
			t.Errorf("%s: gravitational stiffness %.6g N/m differs from ElastoDyn's %.6g N/m by %.2f %% (more than 0.5 %%)",
				mode.name, kGrav, want, 100*(kGrav-want)/want)
		}
	}
}
