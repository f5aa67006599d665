package waves

import (
	"fmt"
	"math"
	"sort"
)

// Directional spreading (SeaState WaveDirMod 1) drawn as OpenFAST's
// SeaState draws it, so a spread sea with a given seed is OpenFAST's sea.
// The facts, from the SeaState input-file documentation (docs/source/user/
// seastate/input_files.rst) and, where it is silent, from SeaState v5's
// source read for the facts (Waves.f90: CalculateWaveNDir,
// CalculateWaveSpreading, CalculateWaveDirection; SeaState_Input.f90):
//
//   - spreading applies to the spectral seas only (WaveMod 2); |WaveDirRange|
//     is used, and 0 turns spreading off; WaveDirRange above 360°,
//     WaveDirSpread ≤ 0 and WaveNDir ≤ 0 are errors; an even WaveNDir is
//     raised by one; WaveNDir 1 is a long-crested sea;
//   - the WaveNDir directions are the equal-energy directions of
//     D(β) = C |cos(π (β − β̄)/R)|^{2S} over β̄ ± R/2 (β̄ = WaveDir, R =
//     WaveDirRange, S = WaveDirSpread), C = √π Γ(S+1)/(R Γ(S+½)) making its
//     integral 1 (for S ≥ 25 the asymptotic C = √(πS)(1 + 1/(8S))/R):
//     direction i = 1 … N is where the cumulative integral P(β) reaches
//     (i − ½)/N. SeaState tabulates P at M + 1 equally spaced directions
//     (M = max(15N, 1000)) as the running sum of D(β_j)·R/M including the
//     first point, interpolates that table linearly, and stops when the
//     table's end is not within 1 % of 1;
//   - every one of the frequency bins 0 … NStepWave/2 − 1 gets a direction
//     (zero-amplitude bins too), dealt out in consecutive groups of N bins:
//     for each group N uniform numbers are drawn, and the group's bins, in
//     increasing frequency, take the directions in increasing order of
//     their numbers (the smallest first; the first on ties). So every
//     direction has exactly NStepWave/2/N bins, one in each group. The
//     Nyquist bin NStepWave/2 then gets a group draw of its own;
//   - N must divide NStepWave/2: when it does not, SeaState raises N by 2
//     until it does (a warning) and stops with an error once N has passed
//     ceil(1.25·WaveNDir) without dividing;
//   - the direction draws continue the stream of the phases and amplitudes
//     (seastate_rng.go), after all of them, so spreading leaves the phases
//     and amplitudes of a sea unchanged.
//
// SeaState computes the directions in single precision; these are
// computed in double precision (differences of order 1e-5°).

// spreadSettings applies SeaState's checks and adjustments of the
// spreading inputs for a sea of half = NStepWave/2 frequency bins. It
// returns the number of directions (1 for a long-crested sea), the range
// in degrees, and the adjustments SeaState makes, each naming its input.
func spreadSettings(waveMod, dirMod int, spread float64, nDir int, rangeDeg float64, half int) (n int, rng float64, notes []Unsupported, err *Unsupported) {
	if waveMod != JONSWAPSea {
		return 1, 0, nil, nil
	}
	switch dirMod {
	case 0:
		return 1, 0, nil, nil
	case 1:
	default:
		return 0, 0, nil, &Unsupported{"WaveDirMod", fmt.Sprintf("%d is not a spreading model (0 or 1)", dirMod)}
	}
	rng = math.Abs(rangeDeg)
	if rng == 0 {
		return 1, 0, []Unsupported{{"WaveDirRange", "0: the sea is long-crested (SeaState turns spreading off)"}}, nil
	}
	switch {
	case !(spread > 0) || math.IsInf(spread, 0):
		return 0, 0, nil, &Unsupported{"WaveDirSpread", fmt.Sprintf("%g: the spreading coefficient must be positive", spread)}
	case nDir <= 0:
		return 0, 0, nil, &Unsupported{"WaveNDir", fmt.Sprintf("%d: must be an odd number greater than 0", nDir)}
	case rng > 360:
		return 0, 0, nil, &Unsupported{"WaveDirRange", fmt.Sprintf("%g: the range must not exceed 360°", rangeDeg)}
	}
	if nDir%2 == 0 {
		notes = append(notes, Unsupported{"WaveNDir", fmt.Sprintf("%d is even: %d directions are used, as SeaState does", nDir, nDir+1)})
		nDir++
	}
	if nDir == 1 {
		return 1, 0, notes, nil
	}
	n, ok := seaStateNDir(nDir, half)
	if !ok {
		msg := fmt.Sprintf("%d: SeaState gives every direction the same number of the %d frequency bins (WaveTMax/WaveDT), and no odd number of directions from %d to %d divides %d",
			nDir, half, nDir, n, half)
		if alt := dividingNDirs(nDir, half, 5); len(alt) > 0 {
			msg += fmt.Sprintf("; use one of %v or change WaveTMax", alt)
		} else {
			msg += "; change WaveTMax"
		}
		return 0, 0, nil, &Unsupported{"WaveNDir", msg}
	}
	if n != nDir {
		notes = append(notes, Unsupported{"WaveNDir", fmt.Sprintf("%d does not divide the %d frequency bins: %d directions are used, as SeaState does", nDir, half, n)})
	}
	return n, rng, notes, nil
}

// seaStateNDir returns the number of directions SeaState settles on for an
// odd request nDir and half frequency bins: nDir raised by 2 until it
// divides half, given up (false, with the limit) once it has passed
// ceil(1.25·nDir) (false, with the last number tried).
func seaStateNDir(nDir, half int) (int, bool) {
	limit := int(math.Ceil(1.25 * float64(nDir)))
	n := nDir
	for half%n != 0 {
		if n > limit {
			return n, false
		}
		n += 2
	}
	return n, true
}

// dividingNDirs lists up to max odd numbers above nDir, at most half/4,
// that divide half (what SeaState suggests when it gives up).
func dividingNDirs(nDir, half, max int) []int {
	var out []int
	for n := nDir; n <= half/4 && len(out) < max; n += 2 {
		if half%n == 0 {
			out = append(out, n)
		}
	}
	return out
}

// equalEnergyDirections returns the n equal-energy directions of the
// cos^2S spreading function over a range of rangeDeg degrees, as offsets
// from the mean direction in degrees, ascending (see the facts above for
// SeaState's table and interpolation).
func equalEnergyDirections(spread, rangeDeg float64, n int) ([]float64, error) {
	m := max(15*n, 1000)
	step := rangeDeg / float64(m)
	var norm float64
	if spread < 25 {
		a, _ := math.Lgamma(spread + 1)
		b, _ := math.Lgamma(spread + 0.5)
		norm = math.Sqrt(math.Pi) * math.Exp(a-b) / rangeDeg
	} else {
		norm = math.Sqrt(math.Pi*spread) * (1 + 0.125/spread) / rangeDeg
	}
	beta := make([]float64, m+1)
	cum := make([]float64, m+1)
	var sum float64
	for j := range beta {
		beta[j] = float64(j)*step - rangeDeg/2
		sum += norm * math.Pow(math.Abs(math.Cos(math.Pi*beta[j]/rangeDeg)), 2*spread) * step
		cum[j] = sum
	}
	if sum < 0.99 || sum > 1.01 {
		return nil, fmt.Errorf("waves: the cos^2S spreading function of WaveDirSpread %g over WaveDirRange %g° integrates to %g, not 1", spread, rangeDeg, sum)
	}
	out := make([]float64, n)
	for i := range out {
		p := (float64(i) + 0.5) / float64(n)
		switch {
		case p <= cum[0]:
			out[i] = beta[0]
		case p >= cum[m]:
			out[i] = beta[m]
		default:
			// the interval cum[j] ≤ p < cum[j+1]
			j := sort.Search(m+1, func(k int) bool { return cum[k] > p }) - 1
			out[i] = beta[j] + (p-cum[j])/(cum[j+1]-cum[j])*(beta[j+1]-beta[j])
		}
	}
	return out, nil
}

// dealDirections assigns one of n directions to each frequency bin
// 0 … half, drawing from src in SeaState's order (see the facts above);
// n divides half.
func dealDirections(src uniformSource, half, n int) []int {
	bins := make([]int, half+1)
	u := make([]float64, n)
	draw := func() {
		for i := range u {
			u[i] = src.Float64()
		}
	}
	smallest := func() int {
		k := 0
		for i := 1; i < n; i++ {
			if u[i] < u[k] {
				k = i
			}
		}
		u[k] = math.Inf(1)
		return k
	}
	k := 0
	for range half / n {
		draw()
		for range n {
			bins[k] = smallest()
			k++
		}
	}
	draw()
	bins[half] = smallest()
	return bins
}

// spreadOffsets returns the direction offset (rad, from WaveDir) of every
// frequency bin 0 … half of a spread sea, drawn from src after the phases,
// with SeaState's adjustments as notes; nil offsets for a long-crested sea.
func spreadOffsets(cfg Config, half int, src uniformSource) ([]float64, []Unsupported, error) {
	n, rng, notes, bad := spreadSettings(cfg.WaveMod, cfg.WaveDirMod, cfg.WaveDirSpr, cfg.WaveNDir, cfg.WaveDirRng, half)
	if bad != nil {
		return nil, nil, fmt.Errorf("waves: %s %s", bad.Variable, bad.Message)
	}
	if n <= 1 {
		return nil, notes, nil
	}
	dirs, err := equalEnergyDirections(cfg.WaveDirSpr, rng, n)
	if err != nil {
		return nil, nil, err
	}
	offsets := make([]float64, half+1)
	for i, d := range dealDirections(src, half, n) {
		offsets[i] = dirs[d] * math.Pi / 180
	}
	return offsets, notes, nil
}
