package waves

import (
	"math"
	"math/cmplx"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// spreadingCDF is the equal-energy definition computed independently: the
// share of cos^{2S}(π β/R) between -R/2 and b, normalised by its own
// numerical integral (Gauss-Legendre over many points).
func spreadingCDF(spread, r float64) func(b float64) float64 {
	d := func(b float64) float64 { return math.Pow(math.Abs(math.Cos(math.Pi*b/r)), 2*spread) }
	total := quad.Fixed(d, -r/2, r/2, 400, nil, 0)
	return func(b float64) float64 {
		if b <= -r/2 {
			return 0
		}
		return quad.Fixed(d, -r/2, b, 400, nil, 0) / total
	}
}

// handDirections solves P(β_i) = (i - ½)/n by bisection.
func handDirections(spread, r float64, n int) []float64 {
	cdf := spreadingCDF(spread, r)
	out := make([]float64, n)
	for i := range out {
		p := (float64(i) + 0.5) / float64(n)
		lo, hi := -r/2, r/2
		for range 60 {
			mid := (lo + hi) / 2
			if cdf(mid) < p {
				lo = mid
			} else {
				hi = mid
			}
		}
		out[i] = (lo + hi) / 2
	}
	return out
}

// The directions are the equal-energy directions of the cos^2S function
// centred on the mean direction over the full range R (β̄ ± R/2): each
// within the step of SeaState's table (R/max(15N, 1000)) of the direction
// where the numerically integrated spreading function reaches (i - ½)/N,
// and symmetric about the mean direction within one step. (SeaState's
// running sum counts each tabulated point whole, which sets every
// direction about half a step below the exact one: the middle direction
// is WaveDir - R/(2M), reproduced here.) The cases
// cover narrow and wide spreading, a full circle and the large-S
// normalisation (S ≥ 25).
func TestEqualEnergyDirectionsByHand(t *testing.T) {
	for _, c := range []struct {
		spread, r float64
		n         int
	}{{2, 90, 5}, {1, 360, 3}, {10, 60, 11}, {0.5, 180, 7}, {30, 120, 9}, {4, 90, 41}} {
		got, err := equalEnergyDirections(c.spread, c.r, c.n)
		if err != nil {
			t.Fatal(err)
		}
		want := handDirections(c.spread, c.r, c.n)
		tol := 0.6 * c.r / float64(max(15*c.n, 1000))
		for i := range want {
			if math.Abs(got[i]-want[i]) > tol {
				t.Errorf("S %g, R %g°, N %d: direction %d at %.5f°, the equal-energy one at %.5f° (±%.4f°)", c.spread, c.r, c.n, i+1, got[i], want[i], tol)
			}
			if j := c.n - 1 - i; math.Abs(got[i]+got[j]) > 2*tol {
				t.Errorf("S %g, N %d: directions %d and %d (%g°, %g°) not symmetric", c.spread, c.n, i+1, j+1, got[i], got[j])
			}
		}
		t.Logf("S %g, R %g°, N %d: %.4f", c.spread, c.r, c.n, got[:min(c.n, 7)])
	}
}

// SeaState's adjustments of the spreading inputs: an even WaveNDir is
// raised by one; a WaveNDir that does not divide the NStepWave/2 = 7200
// bins of a 3600-s, 0.25-s sea (2^5·3^2·5^2) is raised by 2 until it does,
// even one step past ceil(1.25·WaveNDir) (11 -> 15: 11 and 13 are at most
// 14); none found is a refusal naming WaveNDir (4096 = 2^12 bins have no
// odd divisor); a negative range is its absolute value, 0 is a
// long-crested sea; a range above 360° and a non-positive spreading
// coefficient are refused.
func TestSpreadSettingsAsSeaState(t *testing.T) {
	for _, c := range []struct{ in, half, want int }{{5, 7200, 5}, {7, 7200, 9}, {11, 7200, 15}, {3, 7200, 3}, {13, 7200, 15}} {
		n, _, notes, err := spreadSettings(JONSWAPSea, 1, 2, c.in, 90, c.half)
		if err != nil || n != c.want || (n != c.in) != (len(notes) == 1) {
			t.Errorf("WaveNDir %d of %d bins: %d directions, notes %v, error %v; want %d", c.in, c.half, n, notes, err, c.want)
		}
	}
	if n, _, notes, err := spreadSettings(JONSWAPSea, 1, 2, 4, 90, 7200); n != 5 || err != nil || len(notes) != 1 || notes[0].Variable != "WaveNDir" {
		t.Errorf("even WaveNDir 4: %d, %v, %v; want 5 with a note", n, notes, err)
	}
	if _, _, _, err := spreadSettings(JONSWAPSea, 1, 2, 5, 90, 4096); err == nil || err.Variable != "WaveNDir" {
		t.Errorf("WaveNDir 5 of 4096 bins: %v, want a refusal of WaveNDir", err)
	}
	// 2^12 bins: no odd divisor at all.
	if _, _, _, err := spreadSettings(JONSWAPSea, 1, 2, 5, 90, 4096); err == nil || !strings.Contains(err.Message, "change WaveTMax") {
		t.Errorf("4096 bins: %v", err)
	}
	// 6720 = 2^6·3·5·7 bins: 23 … 31 do not divide (SeaState stops past
	// ceil(1.25·23) = 29) and it names the next values that do, 35 and 105.
	if _, _, _, err := spreadSettings(JONSWAPSea, 1, 2, 23, 90, 3*5*7*64); err == nil || !strings.Contains(err.Message, "from 23 to 31") || !strings.Contains(err.Message, "[35 105]") {
		t.Errorf("WaveNDir 23 of 6720 bins: %v, want the next dividing values 35 and 105 named", err)
	}
	if n, r, _, err := spreadSettings(JONSWAPSea, 1, 2, 5, -60, 7200); n != 5 || r != 60 || err != nil {
		t.Errorf("WaveDirRange -60: %d directions over %g°, %v", n, r, err)
	}
	if n, _, notes, err := spreadSettings(JONSWAPSea, 1, 2, 5, 0, 7200); n != 1 || err != nil || len(notes) != 1 {
		t.Errorf("WaveDirRange 0: %d directions, %v, %v; want long-crested with a note", n, notes, err)
	}
	for name, c := range map[string]struct {
		spread, rng float64
		nDir        int
		variable    string
	}{"range": {2, 400, 5, "WaveDirRange"}, "spread": {0, 90, 5, "WaveDirSpread"}, "ndir": {2, 90, -1, "WaveNDir"}} {
		if _, _, _, err := spreadSettings(JONSWAPSea, 1, c.spread, c.nDir, c.rng, 7200); err == nil || err.Variable != c.variable {
			t.Errorf("%s: %v, want a refusal of %s", name, err, c.variable)
		}
	}
	if n, _, _, err := spreadSettings(Regular, 1, 2, 5, 90, 7200); n != 1 || err != nil {
		t.Errorf("regular wave: %d directions, %v; SeaState spreads spectral seas only", n, err)
	}
}

// fixedSource replays given uniform numbers.
type fixedSource struct {
	u []float64
	i int
}

func (f *fixedSource) Float64() float64 { v := f.u[f.i]; f.i++; return v }

// Directions are dealt in groups of N bins: the group's bins, in order,
// take the directions in increasing order of the group's N numbers (the
// first of equal numbers first); the Nyquist bin takes the smallest of a
// group of its own. Every direction then has half/N bins, one per group,
// and the same stream gives the same assignment.
func TestDealDirections(t *testing.T) {
	src := &fixedSource{u: []float64{0.5, 0.1, 0.9, 0.3, 0.3, 0.2, 0.7, 0.6, 0.05}}
	got := dealDirections(src, 6, 3)
	want := []int{1, 0, 2, 2, 0, 1, 2}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bins take directions %v, want %v", got, want)
		}
	}
	if src.i != 9 {
		t.Errorf("%d numbers drawn, want 3 groups of 3", src.i)
	}
	cfg := Config{WaveSeed: [2]int64{-1234, 0}, RanLux: true}
	a, _ := seaStateGenerator(cfg)
	b, _ := seaStateGenerator(cfg)
	const half, n = 7200, 15
	x, y := dealDirections(a, half, n), dealDirections(b, half, n)
	count := make([]int, n)
	for g := 0; g < half/n; g++ {
		seen := make([]bool, n)
		for k := g * n; k < (g+1)*n; k++ {
			if seen[x[k]] {
				t.Fatalf("group %d gives direction %d twice", g, x[k])
			}
			seen[x[k]] = true
			count[x[k]]++
		}
	}
	for d, c := range count {
		if c != half/n {
			t.Errorf("direction %d has %d bins, want %d", d, c, half/n)
		}
	}
	for i := range x {
		if x[i] != y[i] {
			t.Fatal("the same seed deals other directions")
		}
	}
}

// A spread sea keeps the phases and amplitudes of the long-crested sea of
// the same seed (the direction draws come after them), and its directional
// spectrum estimated from the components is the cos^2S spreading function:
// each of the N directions carries 1/N of the energy within 3 %, and the
// energy at directions up to each direction (half its own counted) is the
// spreading function's integral up to it, computed numerically, within
// 0.01. The same seed gives the same sea, another seed other directions.
// The sea is 7200 s long (Δω = 0.00087 rad/s), so that many groups of N
// frequencies carry energy.
func TestSpreadSeaDirectionalSpectrum(t *testing.T) {
	base := Config{Gravity: g0, WtrDens: 1025, WtrDpth: 200, WaveMod: JONSWAPSea, WaveTMax: 7200, WaveDT: 0.5,
		WaveHs: 4, WaveTp: 10, PkShpDflt: true, WvLowCOff: 0.05, WvHiCOff: 4, WaveSeed: [2]int64{98765, 0}, RanLux: true, WaveDir: 20}
	uni, err := New(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spread, rng float64
		nDir, nUsed int
	}{{2, 90, 11, 15}, {6, 180, 9, 9}, {1, 360, 25, 25}} {
		cfg := base
		cfg.WaveDirMod, cfg.WaveDirSpr, cfg.WaveNDir, cfg.WaveDirRng = 1, c.spread, c.nDir, c.rng
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.comps) != len(uni.comps) {
			t.Fatalf("%d components, long-crested %d", len(s.comps), len(uni.comps))
		}
		mean := cfg.WaveDir * math.Pi / 180
		var e float64
		share := map[float64]float64{}
		for i, k := range s.comps {
			if k.c != uni.comps[i].c || k.omega != uni.comps[i].omega {
				t.Fatalf("component %d: %v at %g rad/s, long-crested %v at %g", i, k.c, k.omega, uni.comps[i].c, uni.comps[i].omega)
			}
			b := math.Atan2(k.sinB, k.cosB) - mean
			en := cmplx.Abs(k.c) * cmplx.Abs(k.c)
			e += en
			share[math.Round(b*180/math.Pi*1e6)/1e6] += en
		}
		if len(share) != c.nUsed {
			t.Fatalf("S %g: %d directions, want %d", c.spread, len(share), c.nUsed)
		}
		dirs := make([]float64, 0, len(share))
		for b := range share {
			dirs = append(dirs, b)
		}
		sort.Float64s(dirs)
		cdf := spreadingCDF(c.spread, c.rng)
		below := 0.0
		for _, b := range dirs {
			f := share[b] / e
			if math.Abs(f*float64(c.nUsed)-1) > 0.03 {
				t.Errorf("S %g, R %g°: direction %+.3f° holds %.4f of the energy, want 1/%d", c.spread, c.rng, b, f, c.nUsed)
			}
			if p := cdf(b); math.Abs(below+f/2-p) > 0.01 {
				t.Errorf("S %g, R %g°: energy up to %+.3f° is %.4f, the cos^2S function's %.4f", c.spread, c.rng, b, below+f/2, p)
			}
			below += f
		}
		again, _ := New(cfg)
		cfg.WaveSeed[0]++
		other, _ := New(cfg)
		same, differ := true, false
		for i := range s.comps {
			same = same && again.comps[i] == s.comps[i]
			differ = differ || other.comps[i].cosB != s.comps[i].cosB
		}
		if !same || !differ {
			t.Errorf("same seed same sea %v, other seed other directions %v", same, differ)
		}
	}
}

// Check refuses, naming WaveNDir, a spreading SeaState cannot fit to the
// frequencies (a 1024-s, 0.125-s sea has 4096 bins), before anything is
// built; FromDeck warns, naming the file and line, when SeaState would
// change WaveNDir.
func TestCheckSpreading(t *testing.T) {
	ss := &deck.SeaState{WaveMod: "2", WaveTMax: 1024, WaveDT: 0.125, WaveHs: 2, WaveTp: 8, WaveDirMod: 1, WaveDirSpr: 2, WaveNDir: 5, WaveDirRng: 90,
		WaveSeed1: "1", WaveSeed2: "RANLUX"}
	if u := Check(ss); u == nil || u.Variable != "WaveNDir" {
		t.Fatalf("WaveNDir 5 of 4096 bins: %v, want a refusal of WaveNDir", u)
	} else {
		t.Log(u.Message)
	}
	ss.WaveTMax = 1800 // 7200 steps, 3600 = 2^4·3^2·5^2 bins: 5 divides
	if u := Check(ss); u != nil {
		t.Errorf("WaveNDir 5 of 3600 bins: %v", u)
	}
	ss.WaveNDir = 4 // raised to 5, as SeaState does
	if u := Check(ss); u != nil {
		t.Errorf("WaveNDir 4: %v, want it raised to 5", u)
	}
}
