// Command memrun runs a reference deck (by default the full NREL 5 MW one)
// for 600 s with its OutList written to a .outb and reports the peak
// resident set (VmHWM) and the peak Go heap sampled during the run. The
// target is under 200 MB resident: coupling streams the output rows to the
// file (outfile.StreamWriter) and keeps no history unless Options.KeepData.
// Channels of the OutList the solver does not compute are dropped, as the
// service's runs drop them (the floating decks ask for a few).
//
//	go run ./bench/memrun [-case nrel5mw_steady8_full] [-tmax 600] [-dtout 0.00625]
//	go run ./bench/memrun -case iea15_semi_steady10_irregular   # floating, irregular waves
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "memrun:", err)
		os.Exit(1)
	}
}

func run() error {
	shared := flag.String("shared", "", "folder holding reference-outputs (default: the shared folder beside the repository)")
	name := flag.String("case", "nrel5mw_steady8_full", "reference case whose deck is run")
	tmax := flag.Float64("tmax", 600, "simulated time (s)")
	dtOut := flag.Float64("dtout", 0, "output time step (s); 0 keeps the deck's DT_Out, the glue DT gives the largest output")
	flag.Parse()
	fst, err := testshared.CaseDeck(*shared, *name)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "memrun")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "run.outb")
	var peakHeap uint64
	var ms runtime.MemStats
	rows := 0
	start := time.Now()
	d, err := deck.Load(fst)
	if err != nil {
		return err
	}
	if *dtOut > 0 {
		d.Main.DT_Out = deck.DefReal{Value: *dtOut}
	}
	res, err := coupling.Run(context.Background(), d, coupling.Options{OutPath: out, TMax: *tmax, SkipUnsupported: true}, func(t, _ float64) {
		rows++
		if rows%500 == 0 {
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
		}
	})
	if err != nil {
		return err
	}
	runtime.ReadMemStats(&ms)
	peakHeap = max(peakHeap, ms.HeapInuse)
	st, err := os.Stat(out)
	if err != nil {
		return err
	}
	hwm, err := statusKB("VmHWM")
	if err != nil {
		return err
	}
	table := float64(rows) * float64(len(res.Channels)+1) * 8 / 1e6
	fmt.Printf("%s: %.0f s simulated, %d rows × %d channels (%.0f MB as a float64 table), .outb %.1f MB, wall %.1f s\n",
		*name, res.SimTime, rows, len(res.Channels), table, float64(st.Size())/1e6, time.Since(start).Seconds())
	fmt.Printf("peak resident set (VmHWM) %.1f MB; peak Go heap in use (sampled every 500 rows) %.1f MB; target < 200 MB resident\n",
		float64(hwm)/1024, float64(peakHeap)/1e6)
	return nil
}

// statusKB reads a "kB" field of /proc/self/status.
func statusKB(field string) (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				return 0, fmt.Errorf("parsing %s: %w", field, err)
			}
			return kb, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}
