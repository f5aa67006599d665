package analysis

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// realTransform computes the unnormalised DFT X_k = Σ x_n e^{−2πi kn/N},
// k = 0..N/2, of real sequences of one fixed length N. Lengths whose prime
// factors are small go straight to gonum's FFTPACK port; lengths with a large
// prime factor (an output of 100 003 samples, say), for which FFTPACK's
// generic radix degrades towards O(N²), go through Bluestein's chirp-z
// algorithm (Bluestein 1970; Rabiner, Schafer & Rader 1969) on a power-of-two
// complex FFT, which is O(N log N) for every N.
type realTransform struct {
	n      int
	direct *fourier.FFT
	// Bluestein state: chirp c_n = e^{−πi n²/N}, the transformed conjugate
	// chirp kernel, and scratch buffers of the padded length.
	chirp   []complex128
	kernel  []complex128
	padded  *fourier.CmplxFFT
	scratch []complex128
}

// bluesteinPrimeLimit is the largest prime factor left to FFTPACK.
const bluesteinPrimeLimit = 97

func newRealTransform(n int) *realTransform {
	t := &realTransform{n: n}
	if largestPrimeFactor(n) <= bluesteinPrimeLimit {
		t.direct = fourier.NewFFT(n)
		return t
	}
	m := 1
	for m < 2*n-1 {
		m <<= 1
	}
	t.chirp = make([]complex128, n)
	for i := 0; i < n; i++ {
		// i² mod 2N keeps the phase argument small, so the chirp stays exact
		// to rounding for large N.
		q := (int64(i) * int64(i)) % int64(2*n)
		t.chirp[i] = cmplx.Rect(1, -math.Pi*float64(q)/float64(n))
	}
	b := make([]complex128, m)
	b[0] = cmplx.Conj(t.chirp[0])
	for i := 1; i < n; i++ {
		b[i] = cmplx.Conj(t.chirp[i])
		b[m-i] = b[i]
	}
	t.padded = fourier.NewCmplxFFT(m)
	t.kernel = t.padded.Coefficients(nil, b)
	t.scratch = make([]complex128, m)
	return t
}

// coefficients returns X_0..X_{N/2} of x (len(x) must be N) in dst, which is
// allocated when nil.
func (t *realTransform) coefficients(dst []complex128, x []float64) []complex128 {
	if dst == nil {
		dst = make([]complex128, t.n/2+1)
	}
	if t.direct != nil {
		return t.direct.Coefficients(dst, x)
	}
	// X_k = c_k Σ_n (x_n c_n) conj(c_{k−n}): a convolution with the
	// conjugate chirp, done by FFT on the padded length.
	a := t.scratch
	for i := range a {
		a[i] = 0
	}
	for i, v := range x {
		a[i] = complex(v, 0) * t.chirp[i]
	}
	fa := t.padded.Coefficients(a, a)
	for i := range fa {
		fa[i] *= t.kernel[i]
	}
	conv := t.padded.Sequence(fa, fa)
	scale := 1 / float64(len(conv))
	for k := range dst {
		dst[k] = conv[k] * t.chirp[k] * complex(scale, 0)
	}
	return dst
}

func largestPrimeFactor(n int) int {
	largest := 1
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			largest = p
			n /= p
		}
	}
	if n > 1 {
		largest = n
	}
	return largest
}
