// Command simspeed runs the 60-s NREL 5 MW reference case of
// ../shared/reference-outputs (the full deck: flexible structure, DBEMT,
// UA_Mod 3, tower influence, its 520-channel OutList written to a .outb) and
// prints the simulated-to-wall time ratio of each run, with optional pprof
// profiles:
//
//	go run ./bench/simspeed [-case nrel5mw_steady8_full] [-n 3] [-cpuprofile cpu.out] [-memprofile mem.out]
//
// OpenFAST v5.0.0 ran this deck at 4.9–5.2× real time on a 2-core machine of
// this kind (reference-outputs README); the project's target is ≥ 10×.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"syscall"
	"time"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "simspeed:", err)
		os.Exit(1)
	}
}

func run() error {
	shared := flag.String("shared", "", "folder holding reference-outputs (default: the shared folder beside the repository)")
	name := flag.String("case", "nrel5mw_steady8_full", "reference case to run")
	n := flag.Int("n", 3, "runs")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of all runs")
	memProfile := flag.String("memprofile", "", "write an allocation profile after the runs")
	flag.Parse()
	fst, err := testshared.CaseDeck(*shared, *name)
	if err != nil {
		return err
	}
	d, err := deck.Load(fst)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "simspeed")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average before: %s", b)
	}
	var ratios, cpuRatios []float64
	for i := 0; i < *n; i++ {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		cpu0 := cpuTime()
		start := time.Now()
		// Channels of the deck's OutList the solver does not compute (the
		// floating decks ask for a few ElastoDyn ones) are dropped and
		// counted, as the service's runs drop them.
		res, err := coupling.Run(context.Background(), d, coupling.Options{OutPath: filepath.Join(tmp, "run.outb"), SkipUnsupported: true}, nil)
		if err != nil {
			return err
		}
		wall := time.Since(start)
		cpu := cpuTime() - cpu0
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		r := res.SimTime / wall.Seconds()
		ratios = append(ratios, r)
		cpuRatios = append(cpuRatios, res.SimTime/cpu.Seconds())
		fmt.Printf("%s run %d: %.0f s simulated, %d steps, %d channels, wall %.2f s (sim/wall %.1f×), process CPU %.2f s (sim/CPU %.1f×), %d allocations (%.1f MB)\n",
			*name, i+1, res.SimTime, res.Steps, len(res.Channels), wall.Seconds(), r, cpu.Seconds(), res.SimTime/cpu.Seconds(),
			after.Mallocs-before.Mallocs, float64(after.TotalAlloc-before.TotalAlloc)/1e6)
		if len(res.Dropped) > 0 {
			fmt.Printf("  %d requested channels not computed and dropped: %v\n", len(res.Dropped), res.Dropped)
		}
	}
	sort.Float64s(ratios)
	sort.Float64s(cpuRatios)
	// On a shared machine the wall time includes other processes' work;
	// the process CPU time (user + system, all goroutines) does not.
	fmt.Printf("median sim/wall %.1f×, median sim/CPU %.1f× over %d runs (OpenFAST v5.0.0: 4.9–5.2× sim/wall, single-threaded)\n",
		ratios[len(ratios)/2], cpuRatios[len(cpuRatios)/2], len(ratios))
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	return nil
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
