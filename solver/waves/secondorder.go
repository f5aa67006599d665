package waves

import (
	"math"
	"math/cmplx"
)

// Second-order wave elevation of a long- or short-crested irregular sea
// (Sharma and Dean, "Second-order directional seas and associated wave
// forces", SPE Journal 21 (1981) 129; OpenFAST SeaState user documentation:
// WvDiffQTF and WvSumQTF add the difference- and sum-frequency terms to
// the wave elevation, within WvLowCOffD–WvHiCOffD and WvLowCOffS–WvHiCOffS).
// With first-order amplitudes a_n (η₁ = Re Σ a_n e^{i(ω_n t − k_n·x)}),
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
// The mean set-down (n = m in the difference sum) is left out, as SeaState
// does.

// secondOrderTransfer returns L⁻ (minus true) or L⁺ of components a and b.
func (s *Sea) secondOrderTransfer(a, b *component, minus bool) float64 {
	g, h := s.cfg.Gravity, s.h
	ka, kb := a.k, b.k
	ra, rb := a.omega*a.omega/g, b.omega*b.omega/g
	cosD := a.cosB*b.cosB + a.sinB*b.sinB
	sa, sb := math.Sqrt(ra), math.Sqrt(rb)
	sgn := 1.0
	if minus {
		sgn = -1
	}
	kx := ka*a.cosB + sgn*kb*b.cosB
	ky := ka*a.sinB + sgn*kb*b.sinB
	knm := math.Hypot(kx, ky)
	th := 1.0
	if h > 0 {
		th = math.Tanh(knm * h)
	}
	ss := sa + sgn*sb
	num := ss*(sb*(ka*ka-ra*ra)+sgn*sa*(kb*kb-rb*rb)) + 2*ss*ss*(ka*kb*cosD-sgn*ra*rb)
	den := ss*ss - knm*th
	var d float64
	if den != 0 {
		d = num / den
	}
	return ((d-ka*kb*cosD+sgn*ra*rb)/math.Sqrt(ra*rb) + ra + rb) / 4
}

// secondOrderElevation returns the series of the second-order elevation at
// (x, y) over the sea's period, nil when the deck asks for neither term or
// the sea is not irregular.
func (s *Sea) secondOrderElevation(x, y float64) *Series {
	cfg := s.cfg
	if (!cfg.WvDiffQTF && !cfg.WvSumQTF) || cfg.WaveMod != JONSWAPSea || len(s.comps) < 2 {
		return nil
	}
	nc := s.nStep/2 + 1
	dw := 2 * math.Pi / s.period
	bins := make([]int, len(s.comps))
	local := make([]complex128, len(s.comps)) // c e^{ik·x}: elevation amplitude at (x, y)
	for i := range s.comps {
		c := &s.comps[i]
		bins[i] = int(math.Round(c.omega / dw))
		local[i] = c.c * cmplx.Rect(1, c.k*(x*c.cosB+y*c.sinB))
	}
	// coef[b]: the inverse FFT gives 2 Re(coef[b] e^{iω_b t}); with our
	// components' e^{−iωt} convention a term Re(z e^{−iωt}) is coef = z*/2.
	coef := make([]complex128, nc)
	inBand := func(b int, lo, hi float64) bool {
		w := float64(b) * dw
		return b > 0 && b < nc-1 && w >= lo && w <= hi
	}
	for n := range s.comps {
		for m := 0; m <= n; m++ {
			a, b := &s.comps[n], &s.comps[m]
			if cfg.WvDiffQTF && m < n {
				if d := bins[n] - bins[m]; d > 0 && inBand(d, cfg.WvLowCOffD, cfg.WvHiCOffD) {
					z := 2 * local[n] * cmplx.Conj(local[m]) * complex(s.secondOrderTransfer(a, b, true), 0)
					coef[d] += cmplx.Conj(z) / 2
				}
			}
			if cfg.WvSumQTF {
				if p := bins[n] + bins[m]; inBand(p, cfg.WvLowCOffS, cfg.WvHiCOffS) {
					f := 2.0 // the pair (n, m) and (m, n)
					if m == n {
						f = 1
					}
					z := complex(f*s.secondOrderTransfer(a, b, false), 0) * local[n] * local[m]
					coef[p] += cmplx.Conj(z) / 2
				}
			}
		}
	}
	v := s.fft.Sequence(make([]float64, s.nStep), coef)
	return &Series{v: v, dt: s.dt, period: s.period}
}
