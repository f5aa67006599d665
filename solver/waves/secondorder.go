package waves

import (
	"math"
	"math/cmplx"
)

// Second-order waves of a long- or short-crested sea (Sharma and Dean,
// "Second-order directional seas and associated wave forces", SPE Journal
// 21 (1981) 129; OpenFAST SeaState user documentation, 2ND-ORDER WAVES:
// WvDiffQTF and WvSumQTF add the difference- and sum-frequency terms to the
// wave elevation and to the kinematics strip theory uses, within
// WvLowCOffD–WvHiCOffD and WvLowCOffS–WvHiCOffS, cut-offs on the physical
// difference and sum frequency).
//
// Elevation. With first-order amplitudes a_n (η₁ = Re Σ a_n e^{i(ω_n t − k_n·x)}),
//
//	η₂⁻ = 2 Re Σ_{n>m} a_n a_m* L⁻_nm e^{i((ω_n−ω_m)t − (k_n−k_m)·x)}
//	η₂⁺ = Re Σ_n a_n² L⁺_nn e^{i(2ω_n t − 2k_n·x)}
//	     + 2 Re Σ_{n>m} a_n a_m L⁺_nm e^{i((ω_n+ω_m)t − (k_n+k_m)·x)}
//
// with R_n = ω_n²/g = k_n tanh(k_n h), k^± = |k_n ± k_m| (vectors),
//
//	L^±_nm = ¼ [ (D^±_nm − k_n k_m cos(θ_n−θ_m) ± R_n R_m)/√(R_n R_m) + R_n + R_m ]
//	D^±_nm = { (√R_n ± √R_m)(√R_m (k_n² − R_n²) ± √R_n (k_m² − R_m²))
//	          + 2 (√R_n ± √R_m)² (k_n k_m cos(θ_n−θ_m) ∓ R_n R_m) }
//	        / ((√R_n ± √R_m)² − k^± tanh(k^± h)).
//
// Kinematics. The second-order potential φ₂ solves Laplace's equation with
// no flow through the seabed and, at z = 0, the combined free-surface
// condition forced by the first-order field (Sharma and Dean eq. 9; Dean
// and Dalrymple, Water Wave Mechanics for Engineers and Scientists, §11.2)
//
//	g φ₂_z + φ₂_tt = −∂_t |∇φ₁|² + (1/g) φ₁_t ∂_z(φ₁_tt + g φ₁_z).
//
// In this package's convention (η₁ = Re Σ c_n e^{i(k_n·x − ω_n t)},
// φ₁ = Re Σ (−i g c_n/ω_n) cosh(k_n(z+h))/cosh(k_n h) e^{i(k_n·x − ω_n t)})
// a pair (n, m) forces the sum and difference waves e^{i((k_n ± k_m)·x −
// (ω_n ± ω_m)t)}, each answered by a potential
//
//	φ₂ = Re Σ w a^± i G^±_nm cosh(K(z+h))/cosh(K h) e^{i((k_n ± k_m)·x − (ω_n ± ω_m)t)}
//	G^±_nm = ∓ g²/(4 ω_n ω_m) · [ 2(ω_n ± ω_m)(ω_n²ω_m²/g² ∓ k_n·k_m)
//	          − ω_n k_m² sech²(k_m h) ∓ ω_m k_n² sech²(k_n h) ]
//	        / (g K tanh(K h) − (ω_n ± ω_m)²)
//
// with K = |k_n ± k_m|, a⁺ = c_n c_m, a⁻ = c_n c_m*, and w the pair's weight:
// 2 for n ≠ m (the pair and its mirror), 1 for a wave with itself. The
// self-interaction term (n = m, sum) is Stokes' second-order wave
// (G⁺_nn = −(3ω/8) cosh(2kh)/sinh⁴(kh)); the mean of the difference terms
// (n = m) is left out, as SeaState does (second-order kinematics have no
// mean). Velocity is ∇φ₂, acceleration ∂_t∇φ₂ and dynamic pressure
// −ρ ∂_t φ₂ (the quadratic Bernoulli term −½ρ|∇φ₁|² is not part of it).

// pairWave is what the second-order transfer functions need of one
// component, computed once per pair loop.
type pairWave struct {
	omega, k, kx, ky float64
	r, sr            float64 // R = ω²/g and √R
	sech2            float64 // sech²(k h)
}

func (s *Sea) pairWave(c *component) pairWave {
	r := c.omega * c.omega / s.cfg.Gravity
	w := pairWave{omega: c.omega, k: c.k, kx: c.k * c.cosB, ky: c.k * c.sinB, r: r, sr: math.Sqrt(r)}
	if s.h > 0 {
		ch := math.Cosh(math.Min(c.k*s.h, 350))
		w.sech2 = 1 / (ch * ch)
	}
	return w
}

// pairTransfer returns, for components a and b, L⁻ (minus true) or L⁺ of
// the elevation, G^± of the potential, the pair's wavenumber vector
// k_a ± k_b and its length K, and e^{−2Kh} (0 in deep water).
//
// e3 may be given (≥ 0) when the caller has it from the components.
func (s *Sea) pairTransfer(a, b *pairWave, minus bool, e3 float64) (l, gp, kx, ky, kk, e3out float64) {
	g := s.cfg.Gravity
	sgn := 1.0
	if minus {
		sgn = -1
	}
	kx, ky = a.kx+sgn*b.kx, a.ky+sgn*b.ky
	kk = math.Sqrt(kx*kx + ky*ky)
	th := 1.0
	if s.h > 0 {
		if e3 < 0 {
			e3 = math.Exp(-2 * kk * s.h)
		}
		th = (1 - e3) / (1 + e3)
	} else {
		e3 = 0
	}
	kdot := a.kx*b.kx + a.ky*b.ky // k_a k_b cos(θ_a − θ_b)
	ss := a.sr + sgn*b.sr
	num := ss*(b.sr*(a.k*a.k-a.r*a.r)+sgn*a.sr*(b.k*b.k-b.r*b.r)) + 2*ss*ss*(kdot-sgn*a.r*b.r)
	var d float64
	if den := ss*ss - kk*th; den != 0 {
		d = num / den
	}
	l = ((d-kdot+sgn*a.r*b.r)/(a.sr*b.sr) + a.r + b.r) / 4
	w := a.omega + sgn*b.omega
	if den := g*kk*th - w*w; den != 0 {
		br := 2*w*(a.r*b.r-sgn*kdot) - a.omega*b.k*b.k*b.sech2 - sgn*b.omega*a.k*a.k*a.sech2
		gp = -sgn * g * g / (4 * a.omega * b.omega) * br / den
	}
	return l, gp, kx, ky, kk, e3
}

// secondOrderTransfer returns L⁻ (minus true) or L⁺ of components a and b.
func (s *Sea) secondOrderTransfer(a, b *component, minus bool) float64 {
	pa, pb := s.pairWave(a), s.pairWave(b)
	l, _, _, _, _, _ := s.pairTransfer(&pa, &pb, minus, -1)
	return l
}

// secondOrderTerm is one second-order wave at a point: its frequency
// bin and frequency, and the complex amplitudes (each quantity is
// Re(q e^{−iΩt})) of the elevation, of the kinematics (u, v, w, ax, ay,
// az, p as in transfer) at the height asked for and, for extrapolation
// stretching, of their z-derivatives at SWL.
type secondOrderTerm struct {
	bin   int
	omega float64
	elev  complex128
	q, dq [7]complex128
}

// hasSecondOrder reports whether the deck asks for second-order waves and
// the sea has waves to take them from (SeaState leaves the 2ND-ORDER WAVES
// section unused with still water).
func (s *Sea) hasSecondOrder() bool {
	return (s.cfg.WvDiffQTF || s.cfg.WvSumQTF) && len(s.comps) > 0
}

// secondOrderTerms calls visit with every second-order term the deck asks
// for at (x, y, z ≤ 0): the sum-frequency pairs n ≥ m whose sum frequency
// lies within [WvLowCOffS, WvHiCOffS] and the difference-frequency pairs
// n > m (ω_n > ω_m) within [WvLowCOffD, WvHiCOffD], below the Nyquist
// frequency of the sea's series. extrap adds the z-derivatives at SWL.
// This is the one pair loop of the second-order elevation and kinematics.
func (s *Sea) secondOrderTerms(x, y, z float64, extrap bool, visit func(t *secondOrderTerm)) {
	if !s.hasSecondOrder() {
		return
	}
	cfg := s.cfg
	nc := s.nStep/2 + 1
	dw := 2 * math.Pi / s.period
	bins := make([]int, len(s.comps))
	waves := make([]pairWave, len(s.comps))
	local := make([]complex128, len(s.comps)) // c e^{ik·x}: elevation amplitude at (x, y)
	for i := range s.comps {
		c := &s.comps[i]
		bins[i] = int(math.Round(c.omega / dw))
		waves[i] = s.pairWave(c)
		local[i] = c.c * cmplx.Rect(1, c.k*(x*c.cosB+y*c.sinB))
	}
	inBand := func(b int, lo, hi float64) bool {
		w := float64(b) * dw
		return b > 0 && b < nc-1 && w >= lo && w <= hi
	}
	// In a long-crested sea |k_a ± k_b| = k_a ± k_b, so the exponentials
	// of the pair's depth factors are products of the components' own:
	// e^{Kz} and e^{−2Kh} from e^{k z} and e^{−2kh} (where they are
	// far from underflow).
	collinear := true
	for i := range s.comps {
		collinear = collinear && s.comps[i].cosB == s.comps[0].cosB && s.comps[i].sinB == s.comps[0].sinB
	}
	var ez, e2h []float64
	if collinear && s.h > 0 {
		ez, e2h = make([]float64, len(s.comps)), make([]float64, len(s.comps))
		for i := range s.comps {
			ez[i], e2h[i] = math.Exp(s.comps[i].k*z), math.Exp(-2*s.comps[i].k*s.h)
		}
	}
	const tiny = 1e-150
	rho := cfg.WtrDens
	var t secondOrderTerm
	emit := func(a, b int, minus bool, amp complex128) {
		e1, e3 := -1.0, -1.0
		if ez != nil && math.Min(ez[a], ez[b]) > tiny && math.Min(e2h[a], e2h[b]) > tiny {
			if minus { // ω_a > ω_b: k_a > k_b
				e1, e3 = ez[a]/ez[b], e2h[a]/e2h[b]
			} else {
				e1, e3 = ez[a]*ez[b], e2h[a]*e2h[b]
			}
		}
		l, gp, kx, ky, kk, e3 := s.pairTransfer(&waves[a], &waves[b], minus, e3)
		t.elev = amp * complex(l, 0)
		t.omega = waves[a].omega + waves[b].omega
		if minus {
			t.omega = waves[a].omega - waves[b].omega
		}
		// potential amplitude B = i G a^± w; C, S the depth factors
		bp := complex(0, gp) * amp
		c, sn := secondDepth(kk, s.h, z, e1, e3)
		s.secondKinematics(&t.q, bp, kx, ky, kk, t.omega, rho, c, sn)
		if extrap {
			// d/dz cosh(K(z+h))/cosh(Kh) = K S, d/dz sinh(K(z+h))/cosh(Kh)
			// = K C; at z = 0, C = 1 and S = tanh(Kh)
			s.secondKinematics(&t.dq, bp, kx, ky, kk, t.omega, rho, kk*(1-e3)/(1+e3), kk)
		}
		visit(&t)
	}
	for n := range s.comps {
		for m := 0; m <= n; m++ {
			if cfg.WvDiffQTF && m < n {
				hi, lo := n, m
				if bins[n] < bins[m] {
					hi, lo = m, n
				}
				if d := bins[hi] - bins[lo]; inBand(d, cfg.WvLowCOffD, cfg.WvHiCOffD) {
					t.bin = d
					emit(hi, lo, true, 2*local[hi]*cmplx.Conj(local[lo]))
				}
			}
			if cfg.WvSumQTF {
				if p := bins[n] + bins[m]; inBand(p, cfg.WvLowCOffS, cfg.WvHiCOffS) {
					f := 2.0 // the pair (n, m) and (m, n)
					if m == n {
						f = 1
					}
					t.bin = p
					emit(n, m, false, complex(f, 0)*local[n]*local[m])
				}
			}
		}
	}
}

// secondKinematics writes the complex amplitudes of (u, v, w, ax, ay, az, p)
// of the potential Re(B C e^{i(K·x − Ωt)}) into q, with C and S its depth
// factors for the horizontal and vertical velocity: u = i K_x B C,
// w = K B S, a = −iΩ u, p = −ρ ∂_t φ = iΩρ B C.
func (s *Sea) secondKinematics(q *[7]complex128, bp complex128, kx, ky, kk, omega, rho, c, sn float64) {
	bc := bp * complex(c, 0)
	u := complex(0, 1) * bc
	q[0] = u * complex(kx, 0)
	q[1] = u * complex(ky, 0)
	q[2] = bp * complex(kk*sn, 0)
	mi := complex(0, -omega)
	q[3], q[4], q[5] = mi*q[0], mi*q[1], mi*q[2]
	q[6] = complex(0, omega*rho) * bc
}

// secondDepth returns cosh(K(z+h))/cosh(Kh) and sinh(K(z+h))/cosh(Kh) for
// z ≤ 0 without overflow (e^{Kz} in deep water), given e3 = e^{−2Kh} and,
// when e1 ≥ 0, e1 = e^{Kz}.
func secondDepth(kk, h, z, e1, e3 float64) (c, sn float64) {
	if kk == 0 {
		return 1, 0
	}
	if e1 < 0 {
		e1 = math.Exp(kk * z)
	}
	if h <= 0 {
		return e1, e1
	}
	var e2 float64 // e^{−K(z+2h)}
	if e1 > 1e-200 {
		e2 = e3 / e1
	} else {
		e2 = math.Exp(-kk * (z + 2*h))
	}
	return (e1 + e2) / (1 + e3), (e1 - e2) / (1 + e3)
}
