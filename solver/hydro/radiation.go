package hydro

import "math"

// Kernel is the radiation impulse-response function (Cummins 1962)
//
//	K_ij(t) = (2/π) ∫_0^∞ B_ij(ω) cos(ωt) dω
//
// sampled at t_n = n·DT, n = 0 … N−1, over RdtnTMax: the cosine transform
// is a trapezoidal sum over ω_m = m·π/RdtnTMax up to the highest WAMIT
// frequency, with B interpolated linearly (HydroDyn input documentation:
// RdtnTMax sets the frequency step, RdtnDT the time step of the kernel).
type Kernel struct {
	DT    float64
	N     int
	pairs []kpair // DOF pairs whose kernel is not negligible
}

type kpair struct {
	i, j int
	k    []float64 // K_ij(n·DT)
}

// NewKernel computes the kernel of r for time step dt over tmax seconds.
// Pairs whose kernel never exceeds 1e-3 of the geometric mean of the two
// diagonal kernels' peaks are dropped: for a hull with two symmetry planes
// they are numerical noise of the panel solution (e.g. sway–yaw), and each
// pair kept costs a pass over the history every step.
func NewKernel(r *Radiation, dt, tmax float64) *Kernel {
	n := int(math.Round(tmax/dt)) + 1
	kr := &Kernel{DT: dt, N: n}
	wmax := r.Omega[len(r.Omega)-1]
	dw := math.Pi / tmax
	nw := int(math.Ceil(wmax/dw)) + 1
	var full [6][6][]float64
	var peak [6][6]float64
	bw := make([]float64, nw)
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			for m := range bw {
				bw[m] = r.DampingAt(float64(m)*dw, i, j)
			}
			k := make([]float64, n)
			for t := 0; t < n; t++ {
				tt := float64(t) * dt
				var s float64
				for m := range bw {
					c := bw[m] * math.Cos(float64(m)*dw*tt)
					if m == 0 || m == nw-1 {
						c /= 2
					}
					s += c
				}
				k[t] = 2 / math.Pi * s * dw
				peak[i][j] = math.Max(peak[i][j], math.Abs(k[t]))
			}
			full[i][j] = k
		}
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			ref := math.Sqrt(peak[i][i] * peak[j][j])
			if peak[i][j] == 0 || peak[i][j] < 1e-3*ref {
				continue
			}
			kr.pairs = append(kr.pairs, kpair{i, j, full[i][j]})
		}
	}
	return kr
}

// At returns K_ij at lag n (zero for a dropped pair).
func (k *Kernel) At(i, j, n int) float64 {
	for _, p := range k.pairs {
		if p.i == i && p.j == j {
			return p.k[n]
		}
	}
	return 0
}

// Memory is the radiation memory force −∫ K(t−τ) q̇(τ) dτ by discrete
// convolution over the last RdtnTMax of velocity history, sampled every
// Kernel.DT, the body starting from rest.
type Memory struct {
	k     *Kernel
	hist  [6][]float64 // circular velocity history, hist[d][(head - n) mod N] = q̇_d(t_last − n·DT)
	head  int          // index of the latest stored sample
	count int          // samples stored
	next  float64      // time of the next sample to store
	// histSum[p] is pair p's sum over the stored history (lags 1 … with
	// the trapezoidal end weight), valid while histValid: it changes only
	// when Advance stores a sample, and Force is called several times per
	// step (predictor, corrector, outputs).
	histSum   []float64
	histValid bool
}

// NewMemory returns the convolution state for kernel k.
func NewMemory(k *Kernel) *Memory {
	m := &Memory{k: k}
	for d := range m.hist {
		m.hist[d] = make([]float64, k.N)
	}
	m.head = -1
	return m
}

// Force returns the memory force at time t given the current velocity qd
// (the newest sample of the convolution, trapezoidal weights at both ends
// of the window). The state is not changed.
func (m *Memory) Force(t float64, qd [6]float64) [6]float64 {
	var f [6]float64
	k := m.k
	if !m.histValid {
		m.sumHistory()
	}
	for i, p := range k.pairs {
		s := 0.5*p.k[0]*qd[p.j] + m.histSum[i]
		f[p.i] -= s * k.DT
	}
	return f
}

// sumHistory computes histSum: lags 1 … from the stored history (sample s,
// 0 = latest stored, is at t_s = next−DT−s·DT; the current velocity sits at
// lag 0 and is added by Force).
func (m *Memory) sumHistory() {
	k := m.k
	n := k.N
	if len(m.histSum) != len(k.pairs) {
		m.histSum = make([]float64, len(k.pairs))
	}
	for i, p := range k.pairs {
		s := 0.0
		h := m.hist[p.j]
		avail := min(m.count, n-1)
		// lags 1 … avail are h[head], h[head−1], … wrapping once: two
		// contiguous runs
		first := min(avail, m.head+1)
		kk := p.k[1 : first+1]
		hh := h[m.head+1-first : m.head+1]
		for l, w := range kk {
			s += w * hh[first-1-l]
		}
		if rest := avail - first; rest > 0 {
			kk = p.k[first+1 : avail+1]
			hh = h[n-rest:]
			for l, w := range kk {
				s += w * hh[rest-1-l]
			}
		}
		if avail == n-1 {
			// trapezoidal end weight on the oldest lag
			s -= 0.5 * p.k[n-1] * m.oldest(p.j, n-1)
		}
		m.histSum[i] = s
	}
	m.histValid = true
}

// oldest returns the stored velocity of DOF d at the given lag (1-based
// from the latest sample).
func (m *Memory) oldest(d, lag int) float64 {
	i := m.head - (lag - 1)
	if i < 0 {
		i += m.k.N
	}
	return m.hist[d][i]
}

// Advance stores the velocity at time t in the history when t has reached
// the next kernel sample time (call once per completed time step).
func (m *Memory) Advance(t float64, qd [6]float64) {
	if t+1e-9*m.k.DT < m.next {
		return
	}
	m.head++
	if m.head == m.k.N {
		m.head = 0
	}
	for d := 0; d < 6; d++ {
		m.hist[d][m.head] = qd[d]
	}
	m.count++
	m.histValid = false
	m.next = (math.Floor(t/m.k.DT+1e-9) + 1) * m.k.DT
}
