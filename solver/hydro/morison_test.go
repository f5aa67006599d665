package hydro

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

func pile(d, div float64, z1, z2 float64) *deck.HydroDyn {
	return &deck.HydroDyn{
		Joints:   []deck.HDJoint{{ID: 1, Z: z1, AxID: 1}, {ID: 2, Z: z2, AxID: 1}},
		PropSets: []deck.HDPropSet{{ID: 1, D: d, Thck: 0.05}},
		AxCoefs:  []deck.HDAxCoef{{ID: 1}},
		Simple:   deck.HDCoefs{Cd: 1.2, Ca: 1, Cp: 1, Cb: 1, CbMG: 1},
		Members:  []deck.HDMember{{ID: 1, Joint1: 1, Joint2: 2, PropSet1: 1, PropSet2: 1, SecGeom: 1, DivSize: div, CoefMod: 1}},
	}
}

// TestMorisonFixedCylinderAiry: the inline force and mudline moment on a
// fixed vertical cylinder from the seabed through the surface in a regular
// Airy wave equal the closed-form integrals of Morison's equation up to SWL:
//
//	F_I = ρ C_m (πD²/4) a ω²/k sin θ,
//	F_D = ½ ρ C_d D a²ω² |cos θ| cos θ (sinh 2kh + 2kh)/(4 k sinh² kh),
//
// θ = −ωt at the pile (phase 0), C_m = C_a + C_p.
func TestMorisonFixedCylinderAiry(t *testing.T) {
	const h, D, H, T = 30.0, 2.0, 4.0, 8.0
	ph := 0.0
	sea, err := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: h, WaveMod: waves.Regular, WaveTMax: 800, WaveDT: 0.1, WaveHs: H, WaveTp: T, RegularPhase: &ph})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMorison(pile(D, 0.05, -h, 10), sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	a, w := H/2, 2*math.Pi/T
	k := waves.WaveNumber(w, grav, h)
	area := math.Pi / 4 * D * D
	loads := make([]NodeLoad, len(m.Nodes))
	mot := make([]NodeMotion, len(m.Nodes))
	for _, tm := range []float64{0, 1, 2.5, 4.2, 6.9} {
		m.Loads(tm, mot, loads)
		r := m.Resultant(loads, [3]float64{0, 0, -h})
		th := -w * tm
		fi := rho * 2 * area * a * w * w / k * math.Sin(th)
		fd := 0.5 * rho * 1.2 * D * a * a * w * w * math.Abs(math.Cos(th)) * math.Cos(th) * (math.Sinh(2*k*h) + 2*k*h) / (4 * k * math.Pow(math.Sinh(k*h), 2))
		// moments about the mudline: ∫(z+h) cosh(k(z+h)) dz etc.
		kh := k * h
		mi := rho * 2 * area * a * w * w / (k * k * math.Sinh(kh)) * (kh*math.Sinh(kh) - math.Cosh(kh) + 1) * math.Sin(th)
		md := 0.5 * rho * 1.2 * D * a * a * w * w * math.Abs(math.Cos(th)) * math.Cos(th) / math.Pow(math.Sinh(kh), 2) *
			(2*kh*kh + 2*kh*math.Sinh(2*kh) - math.Cosh(2*kh) + 1) / (8 * k * k)
		amp := math.Abs(rho*2*area*a*w*w/k) + math.Abs(0.5*rho*1.2*D*a*a*w*w*(math.Sinh(2*k*h)+2*k*h)/(4*k*math.Pow(math.Sinh(k*h), 2)))
		if math.Abs(r[0]-(fi+fd)) > 2e-3*amp {
			t.Errorf("t=%g: Fx %g, closed form %g (inertia %g, drag %g)", tm, r[0], fi+fd, fi, fd)
		}
		if math.Abs(r[4]-(mi+md)) > 2e-3*amp*h {
			t.Errorf("t=%g: My about the mudline %g, closed form %g", tm, r[4], mi+md)
		}
		if math.Abs(r[1]) > 1e-6*amp || math.Abs(r[2]) > 1e-6*amp {
			t.Errorf("t=%g: side/vertical force %g %g on a vertical pile", tm, r[1], r[2])
		}
	}
	// the pile's added mass is ρ C_a A h across the wave, none along the axis
	var sum [3][3]float64
	for i := range m.Nodes {
		nm := m.NodeMass(i)
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				sum[r][c] += nm[r][c]
			}
		}
	}
	if want := rho * area * h; math.Abs(sum[0][0]/want-1) > 1e-9 || math.Abs(sum[1][1]/want-1) > 1e-9 || sum[2][2] != 0 {
		t.Errorf("added mass %v, want %g across", sum, want)
	}
}

// TestMorisonSecondOrderStokesInertia: with WvSumQTF the strip-theory load
// on a fixed vertical cylinder in a regular wave gains the inertia force of
// the wave's second-order (Stokes) acceleration, whose closed-form integral
// up to SWL is (Dean and Dalrymple 1991 §11.3.2, a₂ₓ = (3/2)ω²k a²
// cosh 2k(z+h)/sinh⁴kh sin 2θ)
//
//	F₂ = ρ C_m (πD²/4) (3/4) ω² a² sinh 2kh / sinh⁴ kh · sin 2θ,
//	M₂ = ρ C_m (πD²/4) (3/2) ω² k a² / sinh⁴ kh · (h sinh 2kh/(2k) − (cosh 2kh − 1)/(4k²)) · sin 2θ
//
// about the mudline, θ = −ωt at the pile (phase 0); drag is switched off
// so that the load is linear in the kinematics.
func TestMorisonSecondOrderStokesInertia(t *testing.T) {
	const h, D, H, T = 30.0, 2.0, 6.0, 10.0
	ph := 0.0
	cfg := waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: h, WaveMod: waves.Regular, WaveTMax: 800, WaveDT: 0.1,
		WaveHs: H, WaveTp: T, RegularPhase: &ph, WvLowCOffS: 0, WvHiCOffS: 10}
	first, err := waves.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.WvSumQTF = true
	second, err := waves.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hd := pile(D, 0.05, -h, 10)
	hd.Simple.Cd = 0
	m1, err := NewMorison(hd, first, "test")
	if err != nil {
		t.Fatal(err)
	}
	m2, err := NewMorison(hd, second, "test")
	if err != nil {
		t.Fatal(err)
	}
	a, w := H/2, first.Components()[0].Omega
	k := waves.WaveNumber(w, grav, h)
	kh := k * h
	cm := rho * 2 * math.Pi / 4 * D * D // ρ C_m A, C_m = 2
	sh4 := math.Pow(math.Sinh(kh), 4)
	f2 := cm * 0.75 * w * w * a * a * math.Sinh(2*kh) / sh4
	m2a := cm * 1.5 * w * w * k * a * a / sh4 * (h*math.Sinh(2*kh)/(2*k) - (math.Cosh(2*kh)-1)/(4*k*k))
	l1, l2 := make([]NodeLoad, len(m1.Nodes)), make([]NodeLoad, len(m2.Nodes))
	mot := make([]NodeMotion, len(m1.Nodes))
	for _, tm := range []float64{0, 1, 2.5, 4.2, 6.9} {
		m1.Loads(tm, mot, l1)
		m2.Loads(tm, mot, l2)
		r1, r2 := m1.Resultant(l1, [3]float64{0, 0, -h}), m2.Resultant(l2, [3]float64{0, 0, -h})
		s2 := math.Sin(-2 * w * tm)
		if d := r2[0] - r1[0]; math.Abs(d-f2*s2) > 2e-3*f2 {
			t.Errorf("t=%g: second-order Fx %g, closed form %g", tm, d, f2*s2)
		}
		if d := r2[4] - r1[4]; math.Abs(d-m2a*s2) > 2e-3*m2a {
			t.Errorf("t=%g: second-order My about the mudline %g, closed form %g", tm, d, m2a*s2)
		}
	}
	t.Logf("second-order inertia force amplitude %.4g N (first order %.4g N)", f2, cm*a*w*w/k)
}

// TestMorisonStatics: a fully submerged inclined closed cylinder above the
// seabed feels its buoyancy ρ g V upward and no net horizontal force (the
// lateral pressure normal to the axis plus the two end plates); the water
// inside a flooded pile weighs on its bottom plate, unless that plate is in
// the seabed.
func TestMorisonStatics(t *testing.T) {
	sea, _ := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: 50})
	hd := pile(3, 0.1, -40, -10)
	hd.Joints[1].X = 12 // inclined
	m, err := NewMorison(hd, sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	loads := make([]NodeLoad, len(m.Nodes))
	m.Loads(0, make([]NodeMotion, len(m.Nodes)), loads)
	r := m.Resultant(loads, [3]float64{})
	length := math.Hypot(12, 30)
	vol := math.Pi / 4 * 9 * length
	if math.Abs(r[2]/(rho*grav*vol)-1) > 1e-9 || math.Abs(r[0]) > 1e-6*rho*grav*vol {
		t.Errorf("submerged inclined cylinder: F %v, want (0, 0, %g)", r[:3], rho*grav*vol)
	}
	// moment about the origin: buoyancy at the centroid x = 6
	if want := -6 * rho * grav * vol; math.Abs(r[4]/want-1) > 1e-3 {
		t.Errorf("My %g, want %g (buoyancy at the centroid)", r[4], want)
	}
	// flooded to −5 m: standing 0.5 m deep in the seabed, the member
	// carries what HydroDyn puts on it, the weight of the water column
	// between its end and the seabed, upward (NewMorison); closed 10 m
	// above it, the bottom plate carries the column's weight against the
	// outside pressure
	din := 3 - 0.1
	for _, c := range []struct {
		bottom, want float64
	}{
		{-50.5, rho * grav * math.Pi / 4 * din * din * 0.5},
		{-40, rho * grav * math.Pi / 4 * (9*40 - din*din*35)},
	} {
		hd = pile(3, 0.1, c.bottom, 10)
		hd.FillGroups = []deck.HDFillGroup{{Members: []int{1}, FSLoc: -5, DensDflt: true}}
		m, _ = NewMorison(hd, sea, "test")
		loads = make([]NodeLoad, len(m.Nodes))
		m.Loads(0, make([]NodeMotion, len(m.Nodes)), loads)
		r = m.Resultant(loads, [3]float64{})
		if math.Abs(r[2]-c.want) > 1e-9*rho*grav*9*50 {
			t.Errorf("flooded pile from %g m: Fz %g, want %g", c.bottom, r[2], c.want)
		}
		// the water inside moves with the pile in every direction (as
		// HydroDyn's compartments and baffles), the added mass across it
		var mx, mz float64
		for i := range m.Nodes {
			mx += m.NodeMass(i)[0][0]
			mz += m.NodeMass(i)[2][2]
		}
		fill := rho * math.Pi / 4 * din * din * (-5 - c.bottom)
		if want := rho*math.Pi/4*9*math.Min(-c.bottom, 50) + fill; math.Abs(mx/want-1) > 1e-9 || math.Abs(mz/fill-1) > 1e-9 {
			t.Errorf("flooded pile from %g m: masses %g across (want %g), %g along (want %g)", c.bottom, mx, want, mz, fill)
		}
	}
}

// A strip the still-water line cuts carries the change of the displaced
// buoyancy when it moves vertically: a surface-piercing pile moved down by
// w = 2 cm displaces ρ g (πD²/4) w more water (vertical pile), and
// (πD²/4)/cos β more for a pile inclined by β; nodes away from the
// surface add nothing.
func TestMorisonWaterplaneBuoyancy(t *testing.T) {
	sea, _ := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: 30})
	for _, dx := range []float64{0, 10} {
		hd := pile(3, 0.5, -30, 10)
		hd.Joints[1].X = dx
		m, err := NewMorison(hd, sea, "test")
		if err != nil {
			t.Fatal(err)
		}
		loads := make([]NodeLoad, len(m.Nodes))
		mot := make([]NodeMotion, len(m.Nodes))
		m.Loads(0, mot, loads)
		rest := m.Resultant(loads, [3]float64{})
		for i := range mot {
			mot[i].D[2] = -0.02
		}
		m.Loads(0, mot, loads)
		moved := m.Resultant(loads, [3]float64{})
		cos := 40 / math.Hypot(40, dx)
		want := rho * grav * math.Pi / 4 * 9 / cos * 0.02
		if got := moved[2] - rest[2]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("pile leaning %g m: ΔFz %g N for 2 cm down, want %g", dx, got, want)
		}
		cut := 0
		for _, n := range m.Nodes {
			if n.wpArea > 0 {
				cut++
			}
		}
		if cut != 1 {
			t.Errorf("pile leaning %g m: %d strips at the still-water line, want 1", dx, cut)
		}
	}
}

// TestMorisonLeaningPileHydrostatics: a flooded pile from the seabed through
// the surface (filled to SWL), leant by θ about its foot through the node
// displacements, takes the wall pressures on its displaced axis, −ρ g θ per
// unit length on the outer section over the wetted length and +ρ g θ on the
// inner one over the filled length (HydroDyn integrates the hydrostatic
// pressure over the displaced member), with their moments about the
// origin, plus the water plane's metacentric moment −ρ g (πD⁴/64) θ of the
// wedge its oblique cut adds on the leaning side. At rest both are zero.
func TestMorisonLeaningPileHydrostatics(t *testing.T) {
	const h, top, d, thck = 30.0, 15.0, 10.0, 0.05
	sea, _ := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: h})
	hd := pile(d, 0.5, -h, top)
	hd.FillGroups = []deck.HDFillGroup{{Members: []int{1}, FSLoc: 0, DensDflt: true}}
	m, err := NewMorison(hd, sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	loads := make([]NodeLoad, len(m.Nodes))
	mot := make([]NodeMotion, len(m.Nodes))
	m.Loads(0, mot, loads)
	rest := m.Resultant(loads, [3]float64{})
	const theta = 1e-3
	for i, n := range m.Nodes {
		mot[i].D[0] = theta * (n.Pos[2] + h)
	}
	m.Loads(0, mot, loads)
	lean := m.Resultant(loads, [3]float64{})
	aOut, aIn := math.Pi/4*d*d, math.Pi/4*(d-2*thck)*(d-2*thck)
	tanT := theta / (1 + theta*theta) // t_z t_x of the leaning axis
	wantFx := -rho * grav * tanT * (aOut - aIn) * h
	// the uniform lateral loads over z ∈ [−h, 0] act at z = −h/2
	wantMy := -h/2*wantFx - rho*grav*math.Pi*math.Pow(d, 4)/64*theta
	if got := lean[0] - rest[0]; math.Abs(got-wantFx) > 1e-6*math.Abs(wantFx) {
		t.Errorf("Fx %g N leaning %g rad, want %g", got, theta, wantFx)
	}
	if got := lean[4] - rest[4]; math.Abs(got-wantMy) > 1e-3*math.Abs(wantMy) {
		t.Errorf("My %g N·m leaning %g rad, want %g", got, theta, wantMy)
	}
	if math.Abs(rest[0]) > 1e-6 || math.Abs(rest[4]) > 1e-6 {
		t.Errorf("at rest Fx %g, My %g, want 0", rest[0], rest[4])
	}
}

// TestFloodedStripInertia: the water inside a flooded pile is a rigid
// solid cylinder lumped on the strip nodes: the translational masses at
// the nodes and their rotational inertias about them add up to the fill's
// moment of inertia about the origin, m (r²/4 + L²/12) + m z_c² across the
// axis and m r²/2 about it.
func TestFloodedStripInertia(t *testing.T) {
	const bottom, fs, d, thck = -20.0, -2.0, 6.0, 0.05
	sea, _ := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: 50})
	hd := pile(d, 0.25, bottom, 10)
	hd.FillGroups = []deck.HDFillGroup{{Members: []int{1}, FSLoc: fs, DensDflt: true}}
	m, err := NewMorison(hd, sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	var iyy, izz float64
	for i, n := range m.Nodes {
		iyy += m.NodeInertia(i)[1][1] + n.FillMass*n.Pos[2]*n.Pos[2]
		izz += m.NodeInertia(i)[2][2]
	}
	r := d/2 - thck
	l := fs - bottom
	mass := rho * math.Pi * r * r * l
	zc := (fs + bottom) / 2
	if want := mass * (r*r/4 + l*l/12 + zc*zc); math.Abs(iyy/want-1) > 1e-3 {
		t.Errorf("fill inertia about y through the origin %g, want %g", iyy, want)
	}
	if want := mass * r * r / 2; math.Abs(izz/want-1) > 1e-9 {
		t.Errorf("fill inertia about the axis %g, want %g", izz, want)
	}
}
