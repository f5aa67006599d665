// Command boxgen times the turbulent-box generation of a DLC run: the
// NREL 5 MW's IEC class IB NTM box at 12 m/s, 31 × 31 points over 145 m at
// a 90-m hub with tower points, 0.05 s steps (solver/windgen, as the batch
// runner makes it), and prints the wall and CPU seconds of each box, with
// an optional pprof CPU profile, and the process's peak resident set. With
// -o the boxes are written into that folder as a DLC run writes them
// (windgen.GenerateTurbulenceFile: one velocity component in memory at a
// time) instead of held whole:
//
//	go run ./bench/boxgen [-duration 600] [-n 3] [-workers 0] [-cpuprofile cpu.out] [-o dir]
//
// The CPU time is the one to compare on a machine other jobs share; the
// figures before and after a change are in docs/benchmarks.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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

// peakRSS is the process's peak resident set in MB (getrusage ru_maxrss,
// kilobytes on Linux).
func peakRSS() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

func main() {
	duration := flag.Float64("duration", 600, "box length (s)")
	n := flag.Int("n", 3, "boxes to generate")
	workers := flag.Int("workers", 0, "goroutines (0: GOMAXPROCS)")
	exact := flag.Bool("exact", false, "factorise the full coherence matrix at every frequency, as TurbSim does")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	outDir := flag.String("o", "", "write each box as a .bts into this folder, a component at a time, as a DLC run does")
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
		var err error
		if *outDir != "" {
			err = windgen.GenerateTurbulenceFile(context.Background(), spec, filepath.Join(*outDir, fmt.Sprintf("box%d.bts", i+1)))
		} else {
			_, err = windgen.GenerateTurbulence(context.Background(), spec)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "boxgen:", err)
			os.Exit(1)
		}
		fmt.Printf("box %d (seed %d): %.2f s wall, %.2f s CPU, peak resident %.0f MB so far\n", i+1, spec.Seed, time.Since(wall).Seconds(), (cpuTime() - cpu).Seconds(), peakRSS())
	}
}
