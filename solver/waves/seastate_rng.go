package waves

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/turbinesim/turbinesim/solver/internal/ranlux"
)

// The facts below reproduce the random sea of OpenFAST's SeaState when the
// deck's WaveSeed(2) is "RANLUX" (OpenFAST v5 SeaState; the generator is
// F. James' RANLUX, Comput. Phys. Commun. 79 (1994) 111):
//
//   - the generator runs at luxury level 3 (p = 223), seeded with
//     |WaveSeed(1)| (0 meaning James' default seed);
//   - one complex unit-variance Gaussian W = √(−2 ln U₁) e^{i 2π U₂} is drawn
//     per frequency bin 0, 2, 3, …, N/2 − 1 in that order (bin 1, the first
//     non-zero frequency, and the Nyquist bin N/2 get none and stay zero),
//     U₁ before U₂ (Box–Muller); without normally distributed amplitudes
//     (WaveNDAmp false) U₁ is still drawn and |W| = √2;
//   - every bin gets its draw whatever the cut-off frequencies, so the
//     cut-offs do not shift the draws of the bins inside them;
//   - the elevation is η(t) = Re Σ_k W_k √(S(ω_k) Δω) e^{+iω_k t} (a real
//     inverse FFT of N = WaveTMax/WaveDT points, rounded up to twice a
//     product of primes ≤ 23, Δω = 2π/(N WaveDT)), so E[η²] = Σ S Δω.

// seaStateLuxury is the luxury level SeaState runs RANLUX at.
const seaStateLuxury = 3

// seaStateRanLux starts the generator as SeaState does for WaveSeed(1).
func seaStateRanLux(seed1 int64) (*ranlux.Generator, error) {
	if seed1 < 0 {
		seed1 = -seed1
	}
	if seed1 > math.MaxInt32 {
		return nil, fmt.Errorf("waves: WaveSeed(1) = %d: RANLUX takes a seed within ±2147483647", seed1)
	}
	return ranlux.New(seaStateLuxury, int32(seed1))
}

// seaStateDraws returns the Box–Muller draws W of bins 0 … half (half = N/2),
// zero for bins 1 and half, in SeaState's order.
func seaStateDraws(g *ranlux.Generator, half int, normalAmp bool) []complex128 {
	w := make([]complex128, half+1)
	for i := 0; i < half; i++ {
		if i == 1 {
			continue
		}
		u1 := g.Float64() // never 0: RANLUX excludes it
		u2 := g.Float64()
		r := math.Sqrt2
		if normalAmp {
			r = math.Sqrt(-2 * math.Log(u1))
		}
		w[i] = cmplx.Rect(r, 2*math.Pi*u2)
	}
	return w
}

// smoothAtLeast returns the smallest integer ≥ n whose prime factors are
// all among the first nine primes (2 … 23).
func smoothAtLeast(n int) int {
	if n < 1 {
		n = 1
	}
	for m := n; ; m++ {
		r := m
		for _, p := range [...]int{2, 3, 5, 7, 11, 13, 17, 19, 23} {
			for r%p == 0 {
				r /= p
			}
		}
		if r == 1 {
			return m
		}
	}
}
