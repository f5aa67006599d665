package waves

import "math"

// Field is a set of linear responses to the waves that can be evaluated at
// any horizontal position (x, y) and time t:
//
//	r_j(x, y, t) = Re Σ_n q_nj exp(i(k_n (x cos β_n + y sin β_n) − ω_n t))
//
// with q_nj the response of quantity j to component n as the wave arrives
// at the origin. It serves the points a Probe cannot: a point that moves, as
// HydroDyn's displaced-position options ask (WaveDisp 1 for strip-theory
// nodes, ExctnDisp 1 and 2 for the potential-flow excitation; HydroDyn user
// documentation). Each evaluation sums the components directly, one sine
// and cosine per component, so its cost grows with their number; a Probe
// costs the same for 1 or 2000 components but only at a fixed point.
// A Field is read-only after it is built and safe for concurrent use.
type Field struct {
	n      int          // quantities per component
	wave   []fieldWave  // per component
	q      []complex128 // n per component
	period float64
}

type fieldWave struct{ kx, ky, omega float64 }

// Field builds the responses of n quantities: transfer(c, dst) writes the
// n complex amplitudes of component c at the origin into dst. Nil for
// still water.
func (s *Sea) Field(n int, transfer func(c Component, dst []complex128)) *Field {
	if len(s.comps) == 0 || n <= 0 {
		return nil
	}
	return s.field(n, func(i int, dst []complex128) {
		c := &s.comps[i]
		transfer(Component{Omega: c.omega, K: c.k, Dir: math.Atan2(c.sinB, c.cosB), C: c.c}, dst)
	})
}

func (s *Sea) field(n int, transfer func(i int, dst []complex128)) *Field {
	f := &Field{n: n, wave: make([]fieldWave, len(s.comps)), q: make([]complex128, n*len(s.comps)), period: s.period}
	for i := range s.comps {
		c := &s.comps[i]
		f.wave[i] = fieldWave{kx: c.k * c.cosB, ky: c.k * c.sinB, omega: c.omega}
		transfer(i, f.q[i*n:(i+1)*n])
	}
	return f
}

// At writes the n responses at (x, y) and time t into out.
func (f *Field) At(x, y, t float64, out []float64) {
	out = out[:f.n]
	for j := range out {
		out[j] = 0
	}
	// The components repeat over the sea's period: reducing t keeps the
	// phases small and the sum the same.
	if f.period > 0 {
		t = math.Mod(t, f.period)
	}
	for i := range f.wave {
		w := &f.wave[i]
		sn, cs := math.Sincos(w.kx*x + w.ky*y - w.omega*t)
		q := f.q[i*f.n : (i+1)*f.n]
		for j, a := range q {
			// Re(a e^{iθ})
			out[j] += real(a)*cs - imag(a)*sn
		}
	}
}

// Layer evaluates the first-order kinematics on the horizontal plane at
// height z, at any (x, y): the kinematics of a point that moves
// horizontally only. HydroDyn with WaveDisp 1 and no wave stretching
// (WaveStMod 0) takes a strip-theory node's kinematics at its displaced X
// and Y and its undisplaced Z (HydroDyn user documentation, strip-theory
// options), so a Layer at the node's rest height serves it. Kinematics are
// up to SWL as with WaveStMod 0: a plane above SWL or below the seabed is
// dry.
type Layer struct {
	f   *Field
	wet bool
	cur [3]float64
}

// Layer prepares the evaluation of the waves on the plane at height z.
func (s *Sea) Layer(z float64) *Layer {
	l := &Layer{wet: z >= -s.h && z <= 0}
	if !l.wet {
		return l
	}
	l.cur = s.cfg.Current.Velocity(z, s.h)
	l.f = s.field(7, func(i int, dst []complex128) {
		q := s.transfer(&s.comps[i], 0, 0, z)
		copy(dst, q[:])
	})
	return l
}

// At returns the kinematics (with current) at (x, y) on the layer's plane
// and time t.
func (l *Layer) At(x, y, t float64) Kin {
	var k Kin
	if !l.wet {
		return k
	}
	var v [7]float64
	if l.f != nil {
		l.f.At(x, y, t, v[:])
	}
	k.V = [3]float64{v[0] + l.cur[0], v[1] + l.cur[1], v[2] + l.cur[2]}
	k.A = [3]float64{v[3], v[4], v[5]}
	k.P = v[6]
	return k
}
