package waves

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/turbinesim/turbinesim/solver/internal/gfortranrng"
	"github.com/turbinesim/turbinesim/solver/internal/ranlux"
)

// The facts below reproduce the random sea of OpenFAST's SeaState (OpenFAST
// v5 SeaState and NWTC library, built with gfortran):
//
//   - with WaveSeed(2) = "RANLUX" the uniform numbers come from F. James'
//     RANLUX (Comput. Phys. Commun. 79 (1994) 111) at luxury level 3 (p =
//     223), seeded with |WaveSeed(1)| (0 meaning James' default seed);
//   - with an integer WaveSeed(2) they come from the compiler's
//     RANDOM_NUMBER, seeded by RANDOM_SEED(PUT=) with WaveSeed(1) and
//     WaveSeed(2) alternated over its eight seed words: gfortran's
//     xoshiro256** (solver/internal/gfortranrng);
//   - one complex unit-variance Gaussian W = √(−2 ln U₁) e^{i 2π U₂} is drawn
//     per frequency bin 0, 2, 3, …, N/2 − 1 in that order (bin 1, the first
//     non-zero frequency, and the Nyquist bin N/2 get none and stay zero),
//     U₁ before U₂ and U₁ drawn again while it is 0 (Box–Muller); without
//     normally distributed amplitudes (WaveNDAmp false) U₁ is still drawn
//     and |W| = √2;
//   - every bin gets its draw whatever the cut-off frequencies, so the
//     cut-offs do not shift the draws of the bins inside them; a regular
//     wave takes the phase of its bin's draw;
//   - the elevation is η(t) = Re Σ_k W_k √(S(ω_k) Δω) e^{+iω_k t} (a real
//     inverse FFT of N = WaveTMax/WaveDT points, rounded up to twice a
//     product of primes ≤ 23, Δω = 2π/(N WaveDT)), so E[η²] = Σ S Δω.

// uniformSource is a stream of uniform deviates in [0, 1).
type uniformSource interface{ Float64() float64 }

// seaStateLuxury is the luxury level SeaState runs RANLUX at.
const seaStateLuxury = 3

// gfortranReal4 draws default-REAL RANDOM_NUMBER values.
type gfortranReal4 struct{ g *gfortranrng.Generator }

func (r gfortranReal4) Float64() float64 { return r.g.Float32() }

// seaStateGenerator starts the generator SeaState uses for the deck's seeds.
func seaStateGenerator(cfg Config) (uniformSource, error) {
	s1, s2 := cfg.WaveSeed[0], cfg.WaveSeed[1]
	if s1 < math.MinInt32 || s1 > math.MaxInt32 || (!cfg.RanLux && (s2 < math.MinInt32 || s2 > math.MaxInt32)) {
		return nil, fmt.Errorf("waves: WaveSeed(1) = %d, WaveSeed(2) = %d: the seeds must lie within ±2147483647", s1, s2)
	}
	if !cfg.RanLux {
		return gfortranReal4{gfortranrng.New(gfortranrng.Alternating(int32(s1), int32(s2)))}, nil
	}
	if s1 < 0 {
		s1 = -s1
	}
	if s1 > math.MaxInt32 {
		return nil, fmt.Errorf("waves: WaveSeed(1) = %d: RANLUX takes a seed within ±2147483647", cfg.WaveSeed[0])
	}
	return ranlux.New(seaStateLuxury, int32(s1))
}

// seaStateDraws returns the Box–Muller draws W of bins 0 … half (half = N/2),
// zero for bins 1 and half, in SeaState's order.
func seaStateDraws(g uniformSource, half int, normalAmp bool) []complex128 {
	w := make([]complex128, half+1)
	for i := 0; i < half; i++ {
		if i == 1 {
			continue
		}
		u1 := g.Float64()
		for u1 == 0 {
			u1 = g.Float64()
		}
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
