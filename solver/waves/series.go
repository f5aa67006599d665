package waves

import (
	"math"
	"math/cmplx"
)

// Component is one wave of the sea: elevation Re(C e^{i(K(x cos Dir +
// y sin Dir) − Omega t)}), Dir in radians.
type Component struct {
	Omega, K, Dir float64
	C             complex128
}

// Components returns the wave components (none for still water).
func (s *Sea) Components() []Component {
	out := make([]Component, len(s.comps))
	for i, c := range s.comps {
		out[i] = Component{Omega: c.omega, K: c.k, Dir: math.Atan2(c.sinB, c.cosB), C: c.c}
	}
	return out
}

// Series is a periodic time series sampled every WaveDT over the sea's
// period, interpolated linearly in time.
type Series struct {
	v      []float64
	dt     float64
	period float64
}

// Synthesize returns the time series of a linear response to the waves:
// Re Σ q_n e^{-iω_n t} with q_n = transfer(component n), computed by one
// inverse FFT. Nil for still water.
func (s *Sea) Synthesize(transfer func(c Component) complex128) *Series {
	if len(s.comps) == 0 {
		return nil
	}
	nc := s.nStep/2 + 1
	dw := 2 * math.Pi / s.period
	coef := make([]complex128, nc)
	for _, c := range s.Components() {
		b := int(math.Round(c.Omega / dw))
		if b <= 0 || b >= nc {
			continue
		}
		q := transfer(c)
		coef[b] += complex(real(q), -imag(q)) / 2
	}
	v := s.fft.Sequence(make([]float64, s.nStep), coef)
	return &Series{v: v, dt: s.dt, period: s.period}
}

// DifferenceSeries returns the time series of a quadratic response at the
// difference frequencies of the sea (second-order difference-frequency
// theory; HydroDyn user documentation, second-order floating platform
// forces): Re Σ_m Σ_n C_m C_n* P(m, n) e^{−i(ω_m − ω_n) t}, P Hermitian
// (P(n, m) = P(m, n)*), over the pairs whose difference frequency ω_m − ω_n
// lies within [lo, hi]. The pair (n, m) is the conjugate of (m, n), so each
// difference bin b = (ω_m − ω_n)/Δω > 0 gets 2 Σ C_m C_n* P(m, n) and the
// pairs with ω_m = ω_n (the mean drift) add a constant; one inverse FFT
// gives the series. Nil for still water.
func (s *Sea) DifferenceSeries(pair func(a, b Component) complex128, lo, hi float64) *Series {
	if len(s.comps) == 0 {
		return nil
	}
	nc := s.nStep/2 + 1
	dw := 2 * math.Pi / s.period
	comps := s.Components()
	bins := make([]int, len(comps))
	for i, c := range comps {
		bins[i] = int(math.Round(c.Omega / dw))
	}
	coef := make([]complex128, nc)
	for m := range comps {
		for n := range comps {
			b := bins[m] - bins[n]
			if b < 0 || b >= nc {
				continue
			}
			if w := float64(b) * dw; w < lo || w > hi {
				continue
			}
			z := comps[m].C * cmplx.Conj(comps[n].C) * pair(comps[m], comps[n])
			if b == 0 {
				coef[0] += complex(real(z), 0)
				continue
			}
			// Re(2z e^{−iωt}) from the inverse FFT's 2 Re(X_b e^{iωt}):
			// X_b = conj(2z)/2.
			coef[b] += cmplx.Conj(z)
		}
	}
	v := s.fft.Sequence(make([]float64, s.nStep), coef)
	return &Series{v: v, dt: s.dt, period: s.period}
}

// At returns the series' value at time t (periodic, linear in time).
func (r *Series) At(t float64) float64 {
	if r == nil {
		return 0
	}
	tt := math.Mod(t, r.period)
	if tt < 0 {
		tt += r.period
	}
	f := tt / r.dt
	i := int(f)
	n := len(r.v)
	if i >= n {
		i = n - 1
	}
	j := i + 1
	if j == n {
		j = 0
	}
	return r.v[i] + (f-float64(i))*(r.v[j]-r.v[i])
}

// AtCubic returns the series' value at time t by periodic cubic
// (Catmull–Rom) interpolation through the four nearest samples, as
// OpenFAST's grid interpolation does along its periodic time axis.
func (r *Series) AtCubic(t float64) float64 {
	if r == nil {
		return 0
	}
	n := len(r.v)
	f := math.Mod(t, r.period) / r.dt
	if f < 0 {
		f += float64(n)
	}
	i := int(f)
	x := f - float64(i)
	at := func(k int) float64 { return r.v[((k%n)+n)%n] }
	x2 := x * x
	x3 := x2 * x
	return (-0.5*x3+x2-0.5*x)*at(i-1) + (1.5*x3-2.5*x2+1)*at(i) +
		(-1.5*x3+2*x2+0.5*x)*at(i+1) + (0.5*x3-0.5*x2)*at(i+2)
}
