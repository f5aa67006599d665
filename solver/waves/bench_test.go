package waves

import (
	"math"
	"testing"
)

// BenchmarkProbeIrregular is the per-node, per-step cost of the wave
// kinematics of an irregular sea (precomputed series, interpolated).
func BenchmarkProbeIrregular(b *testing.B) {
	s := irregular(b, 1, true)
	p := s.Probe(0, 0, -10)
	b.ReportAllocs()
	b.ResetTimer()
	var sum float64
	for i := 0; i < b.N; i++ {
		sum += p.At(float64(i) * 0.0125).V[0]
	}
	_ = sum
}

// BenchmarkProbeRegular is the per-node, per-step cost for a regular wave
// (summed directly).
func BenchmarkProbeRegular(b *testing.B) {
	ph := 0.0
	s, err := New(Config{WtrDpth: 30, WaveMod: Regular, WaveTMax: 3630, WaveDT: 0.25, WaveHs: 6, WaveTp: 10, RegularPhase: &ph})
	if err != nil {
		b.Fatal(err)
	}
	p := s.Probe(0, 0, -10)
	b.ReportAllocs()
	b.ResetTimer()
	var sum float64
	for i := 0; i < b.N; i++ {
		sum += p.At(float64(i) * 0.0125).V[0]
	}
	_ = sum
}

// BenchmarkProbeBuild is the set-up cost of one node's series (8 inverse
// FFTs of 14,400 points for a 3600-s sea).
func BenchmarkProbeBuild(b *testing.B) {
	s := irregular(b, 1, true)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Probe(0, 0, -10)
	}
}

// BenchmarkProbeBuildSecondOrder is the set-up cost of one node's series
// with the second-order waves of the IEA 15 MW monopile deck's cut-offs
// turned on (WvDiffQTF and WvSumQTF, 0–3.04 and 0.31–3.2 rad/s) in a
// 3630-s, 30-m sea: 2.24 M second-order terms from 1758 components.
func BenchmarkProbeBuildSecondOrder(b *testing.B) {
	s, err := New(Config{Gravity: g0, WtrDens: 1025, WtrDpth: 30, WaveMod: JONSWAPSea, WaveTMax: 3630, WaveDT: 0.25,
		WaveHs: 6, WaveTp: 10, PkShpDflt: true, WvLowCOff: 0.15708, WvHiCOff: 3.2, WaveSeed: [2]int64{1, 2},
		WvDiffQTF: true, WvSumQTF: true, WvHiCOffD: 3.04292, WvLowCOffS: 0.314159, WvHiCOffS: 3.2})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.Probe(0, 0, -10)
	}
}

// semiSea is the sea of iea15_semi_steady10_irregular: JONSWAP Hs 4 m, Tp
// 10 s over 850 s at 0.25 s, 0.111–3.2 rad/s (about 420 components).
func semiSea(b *testing.B) *Sea {
	s, err := New(Config{Gravity: g0, WtrDens: 1025, WtrDpth: 200, WaveMod: JONSWAPSea, WaveTMax: 850, WaveDT: 0.25,
		WaveHs: 4, WaveTp: 10, PkShpDflt: true, WvLowCOff: 0.111527, WvHiCOff: 3.2, WaveSeed: [2]int64{1, 7}, WaveNDAmp: true})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkLayerSemi is the per-node, per-step cost of the kinematics at a
// displaced position (WaveDisp 1): the direct sum over the semi sea's
// components, one sine and cosine each.
func BenchmarkLayerSemi(b *testing.B) { benchmarkLayer(b, semiSea(b)) }

// BenchmarkLayerIrregular is the same for the 3600-s sea of
// BenchmarkProbeIrregular (about 2220 components).
func BenchmarkLayerIrregular(b *testing.B) { benchmarkLayer(b, irregular(b, 1, true)) }

// benchmarkLayer evaluates a layer 10 m down at a point moving about 20 m
// downwave.
func benchmarkLayer(b *testing.B, s *Sea) {
	l := s.Layer(-10)
	b.ReportAllocs()
	b.ResetTimer()
	b.ReportMetric(float64(s.NumComponents()), "components")
	var sum float64
	for i := 0; i < b.N; i++ {
		tm := float64(i) * 0.025
		sum += l.At(20+0.1*math.Sin(tm), 0, tm).V[0]
	}
	_ = sum
}

// BenchmarkDisplacedExcitationSemi is the per-evaluation cost of the six
// excitation loads at a displaced position (ExctnDisp 1 and 2) in the semi
// sea: a Field of six responses.
func BenchmarkDisplacedExcitationSemi(b *testing.B) {
	s := semiSea(b)
	f := s.Field(6, func(c Component, dst []complex128) {
		for d := range dst {
			dst[d] = c.C * complex(float64(d+1), 0.5)
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	var out [6]float64
	var sum float64
	for i := 0; i < b.N; i++ {
		tm := float64(i) * 0.025
		f.At(20+0.1*math.Sin(tm), 0.2, tm, out[:])
		sum += out[0]
	}
	_ = sum
}
