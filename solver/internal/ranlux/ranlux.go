// Package ranlux is Lüscher's RANLUX pseudo-random number generator in the
// single-precision form published by F. James (Comput. Phys. Commun. 79
// (1994) 111): Marsaglia and Zaman's subtract-with-borrow recurrence on
// 24-bit integers with lags 24 and 10,
//
//	x_n = x_{n−10} − x_{n−24} − c_{n−1}  (mod 2^24),
//
// c_n = 1 when the subtraction borrowed, of which only 24 of every p values
// are delivered (M. Lüscher, Comput. Phys. Commun. 79 (1994) 100): the
// luxury level chooses p = 24, 48, 97, 223 or 389 (levels 0–4). The 24
// initial values come from a 32-bit multiplicative linear congruential
// generator (L'Ecuyer's 40014 mod 2147483563, by Schrage's method) started at
// the seed, as James' RLUXGO does. OpenFAST's SeaState draws its random wave
// phases and amplitudes from this generator at luxury level 3 when the
// deck's WaveSeed(2) is "RANLUX" (OpenFAST user documentation, SeaState
// input file), so reproducing its sea needs the same sequence.
package ranlux

import "fmt"

const (
	lagR = 24 // long lag r
	lagS = 10 // short lag s

	// DefaultSeed is the seed James' generator uses when given 0.
	DefaultSeed = 314159265
	// DefaultLevel is the default luxury level (p = 223).
	DefaultLevel = 3

	two24 = 1 << 24
	lcgM  = 2147483563 // L'Ecuyer's modulus
	lcgA  = 40014
	lcgQ  = 53668 // lcgM / lcgA (Schrage)
	lcgR  = 12211 // lcgM mod lcgA
)

// skips per luxury level: p − 24 values are discarded after every 24.
var levelSkip = [...]int{0, 24, 73, 199, 365}

const (
	twoM24 = 1.0 / two24
	twoM12 = 1.0 / (1 << 12)
)

// Generator is one RANLUX stream. It is not safe for concurrent use.
type Generator struct {
	x     [lagR]int32 // the last 24 values, a ring
	i, j  int         // ring positions of lag 24 (oldest) and lag 10
	carry int32
	skip  int // values discarded after every 24 delivered
	n24   int // values delivered since the last skip
}

// New returns a generator at luxury level (0–4), or, for level ≥ 24, at
// p = level (level − 24 values skipped after every 24), started from seed
// (> 0; 0 means DefaultSeed), as James' RLUXGO(level, seed, 0, 0).
func New(level int, seed int32) (*Generator, error) {
	g := &Generator{}
	switch {
	case level >= 0 && level < len(levelSkip):
		g.skip = levelSkip[level]
	case level >= lagR && level <= 2000:
		g.skip = level - lagR
	default:
		return nil, fmt.Errorf("ranlux: luxury level %d is not 0–4 nor a p value within 24–2000", level)
	}
	if seed < 0 {
		return nil, fmt.Errorf("ranlux: seed %d must be ≥ 0", seed)
	}
	s := int64(seed)
	if s == 0 {
		s = DefaultSeed
	}
	// x[k] holds the k-th initial value; the recurrence reads the oldest
	// value at position i and the one 10 places later at position j,
	// walking the ring downwards from the last initial value.
	for k := 0; k < lagR; k++ {
		q := s / lcgQ
		s = lcgA*(s-q*lcgQ) - q*lcgR
		if s < 0 {
			s += lcgM
		}
		g.x[k] = int32(s % two24)
	}
	g.i, g.j = lagR-1, lagS-1
	if g.x[lagR-1] == 0 {
		g.carry = 1
	}
	return g, nil
}

// step advances the recurrence by one value and returns it (0 ≤ x < 2^24).
func (g *Generator) step() int32 {
	v := g.x[g.j] - g.x[g.i] - g.carry
	if v < 0 {
		v += two24
		g.carry = 1
	} else {
		g.carry = 0
	}
	g.x[g.i] = v
	g.i = prev(g.i)
	g.j = prev(g.j)
	return v
}

func prev(k int) int {
	if k == 0 {
		return lagR - 1
	}
	return k - 1
}

// Float64 returns the next uniform deviate in (0, 1): a multiple of 2^-24,
// where values below 2^-12 get the next 24 bits from the lag-10 value so
// that small numbers keep their precision, and 0 is never returned (James
// 1994).
func (g *Generator) Float64() float64 {
	v := g.step()
	u := float64(v) * twoM24
	if u < twoM12 {
		u += twoM24 * float64(g.x[g.j]) * twoM24
		if u == 0 {
			u = twoM24 * twoM24
		}
	}
	g.n24++
	if g.n24 == lagR {
		g.n24 = 0
		for k := 0; k < g.skip; k++ {
			g.step()
		}
	}
	return u
}
