// Command boxgen times the turbulent-box generation of a DLC run: the
// NREL 5 MW's IEC class IB NTM box at 12 m/s, 31 × 31 points over 145 m at
// a 90-m hub with tower points, 0.05 s steps (solver/windgen, as the batch
// runner makes it), and prints the wall and CPU seconds of each box, with
// an optional pprof CPU profile:
//
//	go run ./bench/boxgen [-duration 600] [-n 3] [-workers 0] [-cpuprofile cpu.out]
//
// The CPU time is the one to compare on a machine other jobs share; the
// figures before and after a change are in docs/benchmarks.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/turbinesim/turbinesim/solver/windgen"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	duration := flag.Float64("duration", 600, "box length (s)")
	n := flag.Int("n", 3, "boxes to generate")
	workers := flag.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	exact := flag.Bool("exact", false, "factorise the full coherence matrix at every frequency, as TurbSim does")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	spec := windgen.TurbulenceSpec{
		Class: windgen.ClassI, Category: windgen.CategoryB, Model: windgen.NTM, VHub: 12,
		Grid:     windgen.GridSpec{NY: 31, NZ: 31, Width: 145, Height: 145, HubHeight: 90, TowerPoints: true},
		Dt:       0.05,
		Duration: *duration,
		Periodic: true,
		Workers:  *workers,
	}
	if *exact {
		spec.CoherenceTol = -1
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "boxgen:", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "boxgen:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	for i := range *n {
		spec.Seed = uint64(i + 1)
		wall, cpu := time.Now(), cpuTime()
		if _, err := windgen.GenerateTurbulence(context.Background(), spec); err != nil {
			fmt.Fprintln(os.Stderr, "boxgen:", err)
			os.Exit(1)
		}
		fmt.Printf("box %d (seed %d): %.2f s wall, %.2f s CPU\n", i+1, spec.Seed, time.Since(wall).Seconds(), (cpuTime() - cpu).Seconds())
	}
}
