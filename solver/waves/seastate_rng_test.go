package waves

import (
	"math"
	"math/cmplx"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/internal/gfortranrng"
	"github.com/turbinesim/turbinesim/solver/outfile"
	"gonum.org/v1/gonum/stat"
)

// TestRanLuxSeaMatchesOpenFAST builds the seas of two reference cases whose
// SeaState draws with RANLUX from their decks and compares Wave1Elev with
// OpenFAST v5.0.0's record sample by sample: iea15_semi_steady10_irregular
// (JONSWAP Hs 4 m, Tp 10 s, WaveTMax 850 s, WaveSeed −561580799, normally
// distributed amplitudes, second-order difference- and sum-frequency
// elevation) and iea15_monopile_steady10_regular (a regular 6-m, 10-s wave
// whose phase is drawn with WaveSeed 123456789). The same draws give the
// same sea.
func TestRanLuxSeaMatchesOpenFAST(t *testing.T) {
	for _, c := range []struct{ name, turbine string }{
		{"iea15_semi_steady10_irregular", "IEA-15-240-RWT-UMaineSemi"},
		{"iea15_monopile_steady10_regular", "IEA-15-240-RWT-Monopile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testshared.Path(t, "reference-outputs", c.name)
			d, err := deck.Load(filepath.Join(dir, c.turbine, c.turbine+".fst"))
			if err != nil {
				t.Fatal(err)
			}
			s, ss, err := FromDeck(d, dir)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Config().RanLux {
				t.Fatal("the deck's WaveSeed(2) RANLUX was not recognised")
			}
			ref, err := outfile.ReadOutbFile(filepath.Join(dir, c.turbine, c.turbine+".outb"))
			if err != nil {
				t.Fatal(err)
			}
			want, ok := ref.Column("Wave1Elev")
			if !ok {
				t.Fatal("the reference has no Wave1Elev")
			}
			out, _ := s.Outputs(ss)
			got := make([]float64, len(want))
			v := make([]float64, 1)
			var maxDiff float64
			for i, tm := range ref.Time {
				out.Eval(tm, v)
				got[i] = v[0]
				maxDiff = math.Max(maxDiff, math.Abs(v[0]-want[i]))
			}
			r := stat.Correlation(got, want, nil)
			sg, sw := stat.StdDev(got, nil), stat.StdDev(want, nil)
			t.Logf("Wave1Elev: correlation %.6f, std %.4f m vs OpenFAST %.4f m (%+.3f %%), largest difference %.4f m", r, sg, sw, 100*(sg/sw-1), maxDiff)
			if r < 0.999 {
				t.Errorf("correlation %.6f with OpenFAST's Wave1Elev, want > 0.999", r)
			}
			if math.Abs(sg/sw-1) > 0.005 {
				t.Errorf("std %.4f m vs OpenFAST's %.4f m: %+.3f %%, want within 0.5 %%", sg, sw, 100*(sg/sw-1))
			}
			if maxDiff > 0.01 {
				t.Errorf("largest difference from OpenFAST's Wave1Elev %.4f m, want ≤ 0.01 m", maxDiff)
			}
		})
	}
}

// TestSecondOrderTransferIsStokes checks the sum-frequency transfer
// function of one wave with itself against Stokes' second-order wave in
// finite depth, η₂ = (k a²/4) cosh kh (2 + cosh 2kh)/sinh³ kh · cos 2θ
// (DNV-RP-C205 §3.2.3), and the difference-frequency one of two close
// frequencies against its limit, which stays finite.
func TestSecondOrderTransferIsStokes(t *testing.T) {
	for _, h := range []float64{20, 50, 200} {
		s := &Sea{cfg: Config{Gravity: 9.81}, h: h}
		for _, w := range []float64{0.4, 0.63, 1.2} {
			k := WaveNumber(w, 9.81, h)
			c := component{omega: w, k: k, cosB: 1}
			got := s.secondOrderTransfer(&c, &c, false)
			want := k * math.Cosh(k*h) * (2 + math.Cosh(2*k*h)) / (4 * math.Pow(math.Sinh(k*h), 3))
			if math.Abs(got/want-1) > 1e-9 {
				t.Errorf("h %g m, ω %g rad/s: L⁺ = %.6g, Stokes %.6g", h, w, got, want)
			}
			w2 := w * 1.001
			c2 := component{omega: w2, k: WaveNumber(w2, 9.81, h), cosB: 1}
			if l := s.secondOrderTransfer(&c, &c2, true); math.IsNaN(l) || math.IsInf(l, 0) || math.Abs(l) > 10*k {
				t.Errorf("h %g m, ω %g rad/s: L⁻ of a close pair = %g", h, w, l)
			}
		}
	}
}

// TestSmoothLength: SeaState's series length is twice the smallest number
// at least half the step count whose prime factors are at most 23.
func TestSmoothLength(t *testing.T) {
	for n, want := range map[int]int{1700: 1700, 29: 30, 31: 32, 47: 48, 53: 54, 1: 1, 7260: 7260, 9409: 9438} {
		if got := smoothAtLeast(n); got != want {
			t.Errorf("smoothAtLeast(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestIntegerSeedsDrawGfortranStream: with an integer WaveSeed(2) the sea's
// draws are gfortran's RANDOM_NUMBER stream seeded as OpenFAST seeds it, so
// the phase of a regular wave is that of its bin's Box–Muller draw from
// that stream; seeds outside OpenFAST's 4-byte integers are refused.
func TestIntegerSeedsDrawGfortranStream(t *testing.T) {
	cfg := Config{Gravity: 9.81, WtrDpth: 200, WaveMod: Regular, WaveTMax: 800, WaveDT: 0.25, WaveHs: 4, WaveTp: 10,
		WaveSeed: [2]int64{123456789, -987654321}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// bin 80 (10 s over 800 s): draws for bins 0, 2, …, 80 come first
	g := gfortranrng.New(gfortranrng.Alternating(123456789, -987654321))
	var u2 float64
	for i := 0; i <= 80; i++ {
		if i == 1 {
			continue
		}
		g.Float32()
		u2 = g.Float32()
	}
	c := s.Components()[0]
	want := cmplx.Rect(2, -2*math.Pi*u2)
	if cmplx.Abs(c.C-want) > 1e-12 || math.Abs(c.Omega-2*math.Pi/10) > 1e-12 {
		t.Errorf("component %v at %g rad/s, want %v at %g", c.C, c.Omega, want, 2*math.Pi/10)
	}
	cfg.WaveSeed[1] = 1 << 31
	if _, err := New(cfg); err == nil {
		t.Error("WaveSeed(2) = 2^31 accepted")
	}
}
