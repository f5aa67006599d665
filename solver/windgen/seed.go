package windgen

import "math"

// CaseSeed derives the seed of one turbulent case from a batch seed, the
// hub speed and the seed index, so that every wind speed and seed of a DLC
// batch gets its own phases (reusing one seed at every speed gives boxes
// with identical phases, the problem of WEIS PR #17 "Unique Wind and Wave
// Seeds"). The same inputs always give the same seed.
func CaseSeed(batch uint64, vHub float64, index int) uint64 {
	h := splitMix64(batch)
	h = splitMix64(h ^ math.Float64bits(vHub))
	return splitMix64(h ^ uint64(index))
}
