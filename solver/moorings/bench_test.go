package moorings

import (
	"context"
	"math"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time: the machine is shared,
// so wall time overstates the cost.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCouplingStep is one 0.025 s coupling step of the IEA 15 MW semi
// mooring (3 lines × 50 segments, dtM = 0.001 s: 25 RK2 sub-steps) with
// the platform surging and pitching, followed by CalcOutput; cpu-ms/op and
// sim-s/cpu-s are CPU time. Run:
//
//	go test ./solver/moorings -run '^$' -bench CouplingStep -benchmem
func BenchmarkCouplingStep(b *testing.B) {
	s := initSystem(b, semiMoorDyn(3, 50), Motion{})
	ctx := context.Background()
	const dt = 0.025
	motion := func(t float64) Motion {
		var u Motion
		w := 2 * math.Pi / 30
		u.Disp[0], u.Vel[0] = 2*math.Sin(w*t), 2*w*math.Cos(w*t)
		u.Disp[4], u.Vel[4] = 0.03*math.Sin(w*t), 0.03*w*math.Cos(w*t)
		return u
	}
	var l Loads
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime(b)
	for k := 0; k < b.N; k++ {
		t := float64(k) * dt
		u0, u1 := motion(t), motion(t+dt)
		if err := s.UpdateStates(ctx, t, dt, u0, &u1); err != nil {
			b.Fatal(err)
		}
		if err := s.CalcOutput(t+dt, u1, &l); err != nil {
			b.Fatal(err)
		}
	}
	cpu := (cpuTime(b) - c0).Seconds()
	b.ReportMetric(cpu/float64(b.N)*1e3, "cpu-ms/op")
	b.ReportMetric(dt*float64(b.N)/cpu, "sim-s/cpu-s")
}
