package windgen

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time: a box's generation
// cost on a machine other jobs share, where the wall time is not.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// generate runs the benchmark of spec and reports its CPU seconds per box.
func generate(b *testing.B, spec TurbulenceSpec) {
	start := cpuTime(b)
	for b.Loop() {
		if _, err := GenerateTurbulence(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime(b)-start).Seconds()/float64(b.N), "cpu-s/op")
}

// referenceBoxSpec is the NREL 5 MW DLC box of the reference output: class
// B NTM at 12 m/s, 31 × 31 points over 145 m at a 90 m hub, tower points,
// dt 0.05 s; the duration is the benchmark's.
func referenceBoxSpec(duration float64) TurbulenceSpec {
	return TurbulenceSpec{
		Class: ClassI, Category: CategoryB, Model: NTM, VHub: 12,
		Grid:     GridSpec{NY: 31, NZ: 31, Width: 145, Height: 145, HubHeight: 90, TowerPoints: true},
		Dt:       0.05,
		Duration: duration,
		Periodic: true,
		Seed:     1,
	}
}

// BenchmarkBox31x31x600s is the full-size DLC box: 964 points × 12 000 steps.
func BenchmarkBox31x31x600s(b *testing.B) {
	spec := referenceBoxSpec(600)
	generate(b, spec)
}

// BenchmarkBox31x31x90s matches the reference TurbSim run (90 s, which
// TurbSim v5.0.0 took 135 s of CPU for on this machine).
func BenchmarkBox31x31x90s(b *testing.B) {
	spec := referenceBoxSpec(90)
	generate(b, spec)
}

// BenchmarkBox31x31x90sExact factorises the u coherence matrix at every
// frequency (CoherenceTol < 0), as TurbSim does.
func BenchmarkBox31x31x90sExact(b *testing.B) {
	spec := referenceBoxSpec(90)
	spec.CoherenceTol = -1
	generate(b, spec)
}
