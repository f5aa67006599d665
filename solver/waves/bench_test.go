package waves

import "testing"

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
