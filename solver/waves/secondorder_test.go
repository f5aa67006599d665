package waves

import (
	"math"
	"testing"
)

// firstOrder returns the same sea without its second-order terms.
func firstOrder(s *Sea) *Sea {
	f := *s
	f.cfg.WvDiffQTF, f.cfg.WvSumQTF = false, false
	return &f
}

// secondPart returns the second-order part of the kinematics at a point:
// the sea's kinematics less those of its first-order waves.
func secondPart(s *Sea, x, y, z, t float64) Kin {
	a, b := s.At(x, y, z, t), firstOrder(s).At(x, y, z, t)
	var d Kin
	for i := 0; i < 3; i++ {
		d.V[i], d.A[i] = a.V[i]-b.V[i], a.A[i]-b.A[i]
	}
	d.P = a.P - b.P
	return d
}

// TestSecondOrderStokesKinematics: the sum-frequency self-interaction of
// one regular wave is Stokes' second-order wave, whose potential in finite
// depth is φ₂ = (3/8) ω a² cosh(2k(z+h))/sinh⁴(kh) sin 2θ (Dean and
// Dalrymple, Water Wave Mechanics for Engineers and Scientists, 1991,
// §11.3.2, with H = 2a); the velocity, acceleration and −ρ∂φ₂/∂t of the
// direct sum and of a Probe are checked against it, written out here.
func TestSecondOrderStokesKinematics(t *testing.T) {
	const h, a, T, rho = 30.0, 3.0, 10.0, 1025.0
	ph := 0.0
	s, err := New(Config{Gravity: g0, WtrDens: rho, WtrDpth: h, WaveMod: Regular, WaveTMax: 3630, WaveDT: 0.25,
		WaveHs: 2 * a, WaveTp: T, WaveDir: 30, RegularPhase: &ph, WvSumQTF: true, WvHiCOffS: 10})
	if err != nil {
		t.Fatal(err)
	}
	w := s.comps[0].omega // T rounded to a multiple of 2π/WaveTMax
	k := WaveNumber(w, g0, h)
	beta := 30 * math.Pi / 180
	sh4 := math.Pow(math.Sinh(k*h), 4)
	for _, pt := range [][3]float64{{0, 0, 0}, {5, -3, -10}, {-7, 2, -29}, {12, 8, -0.5}} {
		x, y, z := pt[0], pt[1], pt[2]
		p, p1 := s.Probe(x, y, z), firstOrder(s).Probe(x, y, z)
		c2, s2 := math.Cosh(2*k*(z+h))/sh4, math.Sinh(2*k*(z+h))/sh4
		for _, tm := range []float64{0, 1.3, 4.77, 123.4} {
			th := k*(x*math.Cos(beta)+y*math.Sin(beta)) - w*tm
			uh := 0.75 * w * k * a * a * c2 * math.Cos(2*th)
			ah := 1.5 * w * w * k * a * a * c2 * math.Sin(2*th)
			want := Kin{
				V: [3]float64{uh * math.Cos(beta), uh * math.Sin(beta), 0.75 * w * k * a * a * s2 * math.Sin(2*th)},
				A: [3]float64{ah * math.Cos(beta), ah * math.Sin(beta), -1.5 * w * w * k * a * a * s2 * math.Cos(2*th)},
				P: 0.75 * rho * w * w * a * a * c2 * math.Cos(2*th),
			}
			pk, pk1 := p.At(tm), p1.At(tm)
			probe := Kin{P: pk.P - pk1.P}
			for i := 0; i < 3; i++ {
				probe.V[i], probe.A[i] = pk.V[i]-pk1.V[i], pk.A[i]-pk1.A[i]
			}
			for name, got := range map[string]Kin{"direct": secondPart(s, x, y, z, tm), "probe": probe} {
				for i := 0; i < 3; i++ {
					if math.Abs(got.V[i]-want.V[i]) > 1e-9 || math.Abs(got.A[i]-want.A[i]) > 1e-9 {
						t.Fatalf("%s %v t=%g: second-order %+v, Stokes %+v", name, pt, tm, got, want)
					}
				}
				if math.Abs(got.P-want.P) > 1e-6 {
					t.Fatalf("%s %v t=%g: p₂ %g, Stokes %g", name, pt, tm, got.P, want.P)
				}
			}
		}
	}
	// a sum frequency above WvHiCOffS is left out
	cfg := s.Config()
	cfg.WvHiCOffS = 1.9 * w
	cut, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := secondPart(cut, 3, 1, -2, 7.1); d != (Kin{}) {
		t.Errorf("2ω above WvHiCOffS: second-order part %+v, want none", d)
	}
}

// TestSecondOrderFreeSurfaceCondition: in a bichromatic, bidirectional sea
// the second-order potential satisfies the combined free-surface condition
// forced by the first-order waves (Sharma and Dean 1981, eq. 9),
//
//	g φ₂_z + φ₂_tt = −∂_t |∇φ₁|² + (1/g) φ₁_t ∂_z(φ₁_tt + g φ₁_z)   at z = 0,
//
// with every term taken by finite differences of the kinematics (φ_t =
// −p/ρ, ∂_z w₁ = −∂_x u₁ − ∂_y v₁), so the difference- and sum-frequency
// transfer functions are checked without writing them again; the
// seabed condition w₂(−h) = 0, continuity ∇·u₂ = 0 inside and the
// dynamic condition tying the potential to the elevation as well.
func TestSecondOrderFreeSurfaceCondition(t *testing.T) {
	const h, rho = 40.0, 1025.0
	ph := 20.0
	for _, tc := range []struct {
		name       string
		dir2, amp2 float64
	}{
		{"collinear", 0, 1.5},
		{"40° apart", 40, 1.5},
		{"120° apart", 120, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Config{Gravity: g0, WtrDens: rho, WtrDpth: h, WaveMod: Regular, WaveTMax: 200, WaveDT: 0.25,
				WaveHs: 2, WaveTp: 9, RegularPhase: &ph, WvDiffQTF: true, WvSumQTF: true, WvHiCOffD: 5, WvHiCOffS: 10})
			if err != nil {
				t.Fatal(err)
			}
			// a second wave of another frequency bin and direction
			dw := 2 * math.Pi / s.period
			s.add(dw*float64(int(math.Round(s.comps[0].omega/dw))+5), tc.dir2*math.Pi/180, complex(tc.amp2*0.6, tc.amp2*0.8))
			// the same sea with the sum terms only: the difference terms
			// must matter to the check
			sumOnly := *s
			sumOnly.cfg.WvDiffQTF = false
			f := firstOrder(s)
			const dt, dx = 1e-3, 1e-2
			x, y := 3.0, -2.0
			var worst, scale, withoutDiff float64
			for _, tm := range []float64{0.3, 2.9, 11.1, 47.35} {
				k1 := func(xx, yy, tt float64) Kin { return f.At(xx, yy, 0, tt) }
				kin := k1(x, y, tm)
				sq := func(tt float64) float64 {
					k := k1(x, y, tt)
					return k.V[0]*k.V[0] + k.V[1]*k.V[1] + k.V[2]*k.V[2]
				}
				dzw := -(k1(x+dx, y, tm).V[0]-k1(x-dx, y, tm).V[0])/(2*dx) - (k1(x, y+dx, tm).V[1]-k1(x, y-dx, tm).V[1])/(2*dx)
				daz := (k1(x, y, tm+dt).A[2] - k1(x, y, tm-dt).A[2]) / (2 * dt)
				force := -(sq(tm+dt)-sq(tm-dt))/(2*dt) + (-kin.P/rho)*(daz+g0*dzw)/g0
				w2 := secondPart(s, x, y, 0, tm).V[2]
				dp2 := (secondPart(s, x, y, 0, tm+dt).P - secondPart(s, x, y, 0, tm-dt).P) / (2 * dt)
				lhs := g0*w2 - dp2/rho
				worst = math.Max(worst, math.Abs(lhs-force))
				// the elevation transfer functions L^± of Sharma and Dean
				// (TestRanLuxSeaMatchesOpenFAST) with this potential: the
				// dynamic condition η₂ = −(φ₂_t + ½|∇φ₁|² − φ₁_t φ₁_tz/g)/g,
				// compared between two times so that the mean set-down
				// (left out) drops out
				eta2 := func(tt float64) (got, want float64) {
					k, k2 := k1(x, y, tt), secondPart(s, x, y, 0, tt)
					got = s.Elevation(x, y, tt) - f.Elevation(x, y, tt)
					want = -(-k2.P/rho + 0.5*(k.V[0]*k.V[0]+k.V[1]*k.V[1]+k.V[2]*k.V[2]) + (k.P/rho)*k.A[2]/g0) / g0
					return got, want
				}
				ga, wa := eta2(tm)
				gb, wb := eta2(tm + 3.7)
				if math.Abs((ga-gb)-(wa-wb)) > 1e-9 {
					t.Errorf("t=%g: η₂ changes by %g, the dynamic condition by %g", tm, ga-gb, wa-wb)
				}
				dpS := (secondPart(&sumOnly, x, y, 0, tm+dt).P - secondPart(&sumOnly, x, y, 0, tm-dt).P) / (2 * dt)
				withoutDiff = math.Max(withoutDiff, math.Abs(g0*secondPart(&sumOnly, x, y, 0, tm).V[2]-dpS/rho-force))
				scale = math.Max(scale, math.Abs(force))
				if bed := secondPart(s, x, y, -h, tm).V[2]; math.Abs(bed) > 1e-12 {
					t.Errorf("t=%g: w₂ at the seabed %g", tm, bed)
				}
				z := -7.0
				div := (secondPart(s, x+dx, y, z, tm).V[0]-secondPart(s, x-dx, y, z, tm).V[0])/(2*dx) +
					(secondPart(s, x, y+dx, z, tm).V[1]-secondPart(s, x, y-dx, z, tm).V[1])/(2*dx) +
					(secondPart(s, x, y, z+dx, tm).V[2]-secondPart(s, x, y, z-dx, tm).V[2])/(2*dx)
				if math.Abs(div) > 1e-6 {
					t.Errorf("t=%g: ∇·u₂ = %g", tm, div)
				}
			}
			if scale < 1e-3 || worst > 1e-5*scale {
				t.Errorf("free-surface condition: largest residual %.3g of a forcing up to %.3g", worst, scale)
			}
			if withoutDiff < 1e-2*scale {
				t.Errorf("without the difference terms the residual is %.3g of %.3g: they are not tested", withoutDiff, scale)
			}
			t.Logf("residual %.2g of a forcing up to %.3g m²/s³ (%.3g without the difference terms)", worst, scale, withoutDiff)
		})
	}
}

// TestSecondOrderAccelerationIsRateOfVelocity: in an irregular sea with both
// second-order terms the second-order acceleration is the time derivative
// of the second-order velocity and the dynamic pressure −ρ∂φ₂/∂t (central
// differences of the direct sum), and a Probe (one inverse FFT per
// quantity, first and second order together) gives the direct sum at its
// sample times, also above SWL with extrapolation stretching.
func TestSecondOrderAccelerationIsRateOfVelocity(t *testing.T) {
	s, err := New(Config{Gravity: g0, WtrDens: 1025, WtrDpth: 200, WaveMod: JONSWAPSea, WaveStMod: 2, WaveTMax: 200,
		WaveDT: 0.25, WaveHs: 4, WaveTp: 10, PkShpDflt: true, WvLowCOff: 0.1, WvHiCOff: 3.2, WaveSeed: [2]int64{3, 4},
		WvDiffQTF: true, WvSumQTF: true, WvHiCOffD: 0.74, WvLowCOffS: 0.31, WvHiCOffS: 3.2})
	if err != nil {
		t.Fatal(err)
	}
	if s.NumComponents() <= directLimit {
		t.Fatalf("%d components: the Probe would not use the FFT", s.NumComponents())
	}
	const dt = 1e-3
	for _, z := range []float64{-3, -25} {
		var vmax float64
		for _, tm := range []float64{5.5, 61.25, 143} {
			k := secondPart(s, 10, -4, z, tm)
			kp, km := secondPart(s, 10, -4, z, tm+dt), secondPart(s, 10, -4, z, tm-dt)
			for i := 0; i < 3; i++ {
				vmax = math.Max(vmax, math.Abs(k.V[i]))
				if d := (kp.V[i] - km.V[i]) / (2 * dt); math.Abs(d-k.A[i]) > 1e-6 {
					t.Errorf("z %g t=%g: a₂[%d] = %g, dv₂/dt = %g", z, tm, i, k.A[i], d)
				}
			}
		}
		if vmax < 1e-3 {
			t.Errorf("z %g: second-order velocity %g: nothing tested", z, vmax)
		}
	}
	for _, pt := range [][3]float64{{10, -4, -3}, {0, 0, 0.4}} {
		p := s.Probe(pt[0], pt[1], pt[2])
		for _, tm := range []float64{0, 17.5, 143.25} {
			d, q := s.At(pt[0], pt[1], pt[2], tm), p.At(tm)
			for i := 0; i < 3; i++ {
				if math.Abs(d.V[i]-q.V[i]) > 1e-5 || math.Abs(d.A[i]-q.A[i]) > 1e-5 {
					t.Fatalf("%v t=%g: direct %+v, probe %+v", pt, tm, d, q)
				}
			}
			if math.Abs(d.P-q.P) > 0.1 {
				t.Fatalf("%v t=%g: pressure direct %g, probe %g", pt, tm, d.P, q.P)
			}
			if de, pe := s.Elevation(pt[0], pt[1], tm), p.Elevation(tm); math.Abs(de-pe) > 1e-5 {
				t.Fatalf("%v t=%g: elevation direct %g, probe %g", pt, tm, de, pe)
			}
		}
	}
}
