// Package gfortranrng reproduces the random numbers of gfortran's
// RANDOM_NUMBER intrinsic (GCC 9 and later, as in the gfortran 12.2.0
// OpenFAST v5.0.0 was built with) after RANDOM_SEED(PUT=…): the xoshiro256**
// generator of Blackman and Vigna ("Scrambled linear pseudorandom number
// generators", ACM TOMS 47 (2021), arXiv:1805.01407), whose 256-bit state is
// the eight 32-bit seed words taken last word first, XORed with four fixed
// 64-bit keys of the GNU Fortran runtime library. A default REAL draw is the
// top 24 bits of a 64-bit output times 2^-24.
//
// OpenFAST's SeaState seeds it with the deck's two integers alternated over
// the eight words (WaveSeed(1), WaveSeed(2), WaveSeed(1), …) when
// WaveSeed(2) is an integer (OpenFAST NWTC library, RandNum_Init), so this
// generator gives the same sea as OpenFAST built with gfortran.
package gfortranrng

import "math/bits"

// scrambleKeys are libgfortran's keys XORed into a PUT seed.
var scrambleKeys = [4]uint64{0xbd0c5b6e50c2df49, 0xd46061cd46e1df38, 0xbb4f4d4ed6103544, 0x114a583d0756ad39}

// SeedWords is the number of default-integer words RANDOM_SEED(SIZE=) reports.
const SeedWords = 8

// Generator is one gfortran random stream. Not safe for concurrent use.
type Generator struct{ s [4]uint64 }

// New returns the stream RANDOM_SEED(PUT=put) starts; put has SeedWords
// words.
func New(put [SeedWords]int32) *Generator {
	g := &Generator{}
	// The runtime copies the words in reverse order into the state's bytes
	// (little-endian), two words per 64-bit state element.
	for k := range g.s {
		lo := uint64(uint32(put[SeedWords-1-2*k]))
		hi := uint64(uint32(put[SeedWords-2-2*k]))
		g.s[k] = (lo | hi<<32) ^ scrambleKeys[k]
	}
	return g
}

// Alternating returns the seed words OpenFAST puts for two seeds: a at the
// odd (1-based) positions, b at the even ones.
func Alternating(a, b int32) [SeedWords]int32 {
	var w [SeedWords]int32
	for i := range w {
		if i%2 == 0 {
			w[i] = a
		} else {
			w[i] = b
		}
	}
	return w
}

// Uint64 returns the next 64-bit xoshiro256** output.
func (g *Generator) Uint64() uint64 {
	s := &g.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// Float32 returns RANDOM_NUMBER for a default (4-byte) REAL, in [0, 1): the
// output's top 24 bits times 2^-24, as a float64.
func (g *Generator) Float32() float64 {
	return float64(g.Uint64()>>40) / (1 << 24)
}
