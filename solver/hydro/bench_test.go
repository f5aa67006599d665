package hydro

import (
	"testing"

	"github.com/turbinesim/turbinesim/solver/waves"
)

// BenchmarkRadiationStep is one step of the VolturnUS-S radiation memory
// (60-s kernel at 0.025 s: 2401 lags, the non-negligible DOF pairs):
// Loads (the convolution) plus Advance.
func BenchmarkRadiationStep(b *testing.B) {
	r, _, c := readSemi(b)
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Vol0: 20206, Hst: c, Rad: r, RdtnMod: 1, RdtnDT: 0.025, RdtnTMax: 60}, nil)
	if err != nil {
		b.Fatal(err)
	}
	m := Motion{QD: [6]float64{0.1, 0, 0.05, 0, 0.01, 0}}
	for i := 0; i < 3000; i++ { // fill the history
		p.Advance(float64(i)*0.025, m)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tm := float64(3000+i) * 0.025
		_ = p.Loads(tm, m)
		p.Advance(tm, m)
	}
}

// BenchmarkSSRadiationStep is the same step with the published
// VolturnUS-S state-space fit (RdtnMod 2, 60 states): Loads plus Advance.
func BenchmarkSSRadiationStep(b *testing.B) {
	r, _, c := readSemi(b)
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Vol0: 20206, Hst: c, Rad: r, RdtnMod: 2, SSRad: readSS(b, ".ss")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	m := Motion{QD: [6]float64{0.1, 0, 0.05, 0, 0.01, 0}}
	for i := 0; i < 10; i++ {
		p.Advance(float64(i)*0.025, m)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tm := float64(10+i) * 0.025
		_ = p.Loads(tm, m)
		p.Advance(tm, m)
	}
}

// BenchmarkMorisonNodeStep is the strip-theory load per node and step on
// the IEA 15 MW monopile's pile (10 m, 0.5-m strips) in an irregular sea.
func BenchmarkMorisonNodeStep(b *testing.B) {
	sea, err := waves.New(waves.Config{WtrDpth: 30, WaveMod: waves.JONSWAPSea, WaveTMax: 3600, WaveDT: 0.25, WaveHs: 6, WaveTp: 10,
		PkShpDflt: true, WvLowCOff: 0.15, WvHiCOff: 3.2, WaveSeed: [2]int64{1, 2}, WaveNDAmp: true})
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewMorison(pile(10, 0.5, -30.1, 15), sea, "bench")
	if err != nil {
		b.Fatal(err)
	}
	mot := make([]NodeMotion, len(m.Nodes))
	out := make([]NodeLoad, len(m.Nodes))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Loads(float64(i)*0.01, mot, out)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(m.Nodes)), "ns/node")
}
