package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim/solver/perf"
)

// runPerf computes the steady performance surface (Cp, Ct, Cq over tip-speed
// ratio × blade pitch) of a deck's rotor and writes it in the text layout of
// ROSCO's Cp_Ct_Cq.*.txt files:
//
//	turbined perf [flags] path/to/main.fst
func runPerf(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("perf", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	output := fs.String("o", "", "output file (default Cp_Ct_Cq.<deck>.txt in the working directory)")
	wind := fs.Float64("wind", 0, "hub-height wind speed [m/s] (default: that of the controller's performance table, else 10)")
	tsr := fs.String("tsr", "", "tip-speed ratios as start:step:end (default 2:0.5:14.5, or the controller table's grid)")
	pitch := fs.String("pitch", "", "blade pitch angles [deg] as start:step:end (default -5:1:30, or the controller table's grid)")
	shear := fs.Float64("shear", 0.2, "power-law shear exponent about the hub height (ROSCO uses 0.2)")
	sectors := fs.Int("sectors", 8, "azimuth positions averaged per point")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(env.Stderr, "usage: turbined perf [flags] path/to/main.fst")
		return errUsage
	}
	fstPath := fs.Arg(0)
	opts := perf.Options{WindSpeed: *wind, ShearExp: *shear, NSector: *sectors}
	var err error
	if opts.TSR, err = parseRange("-tsr", *tsr); err != nil {
		return err
	}
	if opts.Pitch, err = parseRange("-pitch", *pitch); err != nil {
		return err
	}
	started := time.Now()
	surface, err := perf.FromDeck(ctx, fstPath, opts)
	if err != nil {
		return fmt.Errorf("perf: %w", err)
	}
	out := *output
	if out == "" {
		out = "Cp_Ct_Cq." + strings.TrimSuffix(filepath.Base(fstPath), filepath.Ext(fstPath)) + ".txt"
	}
	if err := writeAtomically(out, func(tmp string) error { return perf.WriteFile(tmp, surface) }); err != nil {
		return err
	}
	best, bestTSR, bestPitch := 0.0, 0.0, 0.0
	for i := range surface.TSR {
		for j := range surface.Pitch {
			if cp := surface.Cp[i][j]; cp > best {
				best, bestTSR, bestPitch = cp, surface.TSR[i], surface.Pitch[j]
			}
		}
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %d TSR × %d pitch at %g m/s in %.1f s; peak Cp %.4f at TSR %g, pitch %g°\n",
		out, len(surface.TSR), len(surface.Pitch), surface.WindSpeed, time.Since(started).Seconds(), best, bestTSR, bestPitch)
	return nil
}

// parseRange reads "start:step:end" (inclusive, as MATLAB and ROSCO write
// their grids) or a comma-separated list; an empty string means the default.
func parseRange(flagName, s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	if parts := strings.Split(s, ":"); len(parts) == 3 {
		var v [3]float64
		for i, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return nil, fmt.Errorf("perf: %s %q: %q is not a number", flagName, s, p)
			}
			v[i] = f
		}
		start, step, end := v[0], v[1], v[2]
		if step <= 0 || end < start {
			return nil, fmt.Errorf("perf: %s %q: want start:step:end with step > 0 and end ≥ start", flagName, s)
		}
		n := int((end-start)/step+1e-9) + 1
		if n > 10000 {
			return nil, fmt.Errorf("perf: %s %q: %d points is too many (at most 10000)", flagName, s, n)
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = start + float64(i)*step
		}
		return out, nil
	}
	var out []float64
	for _, p := range strings.Split(s, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("perf: %s %q: %q is not a number", flagName, s, p)
		}
		out = append(out, f)
	}
	return out, nil
}
