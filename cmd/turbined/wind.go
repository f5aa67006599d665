package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim/solver/windfile"
	"github.com/turbinesim/turbinesim/solver/windgen"
)

// runWind generates IEC 61400-1 design wind files from the command line:
//
//	turbined wind turbulence [flags] -o box.bts   a TurbSim full-field box
//	turbined wind turbulence -format bladed [flags] -o box.wnd   the same box as a Bladed-style .wnd with its .sum (InflowWind WindType 4)
//	turbined wind event -kind EOG [flags] -o eog.wnd   a uniform-wind event
func runWind(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "usage: turbined wind turbulence|event [flags]  (-h for the flags of each)")
		return errUsage
	}
	switch args[0] {
	case "turbulence":
		return runWindTurbulence(ctx, env, args[1:])
	case "event":
		return runWindEvent(env, args[1:])
	default:
		return fmt.Errorf("wind: unknown kind %q (want turbulence or event)", args[0])
	}
}

// windSiteFlags are the flags both kinds of wind file share: the IEC class
// and category and the rotor the wind is made for.
type windSiteFlags struct {
	class, category        string
	vHub, hubHeight, diam  float64
	shear                  float64
	output                 string
	turbineClass           windgen.TurbineClass
	turbulenceCategory     windgen.TurbulenceCategory
	shearExponentSpecified bool
}

func (s *windSiteFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.class, "class", "I", "IEC turbine class: I, II or III")
	fs.StringVar(&s.category, "category", "B", "IEC turbulence category: A+, A, B or C")
	fs.Float64Var(&s.vHub, "vhub", 12, "hub-height mean wind speed [m/s]")
	fs.Float64Var(&s.hubHeight, "hub", 90, "hub height [m]")
	fs.Float64Var(&s.diam, "diameter", 126, "rotor diameter [m]")
	fs.Float64Var(&s.shear, "shear", -1, "power-law shear exponent (default: the IEC value of the wind model)")
	fs.StringVar(&s.output, "o", "", "output file (required)")
}

func (s *windSiteFlags) parse() error {
	var err error
	if s.output == "" {
		return errors.New("wind: -o output file is required")
	}
	if s.turbineClass, err = windgen.ParseTurbineClass(s.class); err != nil {
		return fmt.Errorf("wind: -class: %w", err)
	}
	if s.turbulenceCategory, err = windgen.ParseTurbulenceCategory(s.category); err != nil {
		return fmt.Errorf("wind: -category: %w", err)
	}
	s.shearExponentSpecified = s.shear >= 0
	return nil
}

func (s *windSiteFlags) shearExponent() *float64 {
	if !s.shearExponentSpecified {
		return nil
	}
	v := s.shear
	return &v
}

func runWindTurbulence(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("wind turbulence", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var site windSiteFlags
	site.register(fs)
	model := fs.String("model", "NTM", "turbulence model: NTM, ETM, EWM50 or EWM1")
	gridPoints := fs.Int("grid", 31, "grid points across and up (n × n)")
	margin := fs.Float64("margin", 0.15, "grid size beyond the rotor diameter, relative")
	dt := fs.Float64("dt", 0.05, "time step [s]")
	duration := fs.Float64("duration", 600, "usable length of the series [s]")
	periodic := fs.Bool("periodic", true, "periodic box (TurbSim UsableTime = ALL)")
	seed := fs.Uint64("seed", 1, "random seed; the same inputs and seed give the same box")
	scale := fs.String("scale", "hub", "rescale fluctuations: none (TurbSim ScaleIEC 0), hub (1), all (2)")
	format := fs.String("format", "bts", "bts: a TurbSim .bts (InflowWind WindType 3); bladed: a Bladed-style .wnd and its summary .sum beside it (WindType 4, FileNameRoot = the name without .wnd)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := site.parse(); err != nil {
		return err
	}
	var write func(*windgen.FullField) error
	switch *format {
	case "bts":
		write = func(box *windgen.FullField) error { return writeAtomically(site.output, box.WriteBTSFile) }
	case "bladed":
		if !strings.HasSuffix(site.output, ".wnd") {
			return fmt.Errorf("wind: -format bladed: -o %q must end in .wnd (the summary goes beside it as .sum)", site.output)
		}
		write = func(box *windgen.FullField) error { return writeBladedBox(site.output, box) }
	default:
		return fmt.Errorf("wind: -format %q: want bts or bladed", *format)
	}
	turbulenceModel, err := windgen.ParseTurbulenceModel(*model)
	if err != nil {
		return fmt.Errorf("wind: -model: %w", err)
	}
	scaleMode, err := parseScaleMode(*scale)
	if err != nil {
		return err
	}
	grid, err := windgen.GridForRotor(site.diam, site.hubHeight, *gridPoints, *margin)
	if err != nil {
		return fmt.Errorf("wind: grid: %w", err)
	}
	spec := windgen.TurbulenceSpec{
		Class: site.turbineClass, Category: site.turbulenceCategory, Model: turbulenceModel,
		VHub: site.vHub, ShearExponent: site.shearExponent(), Grid: grid,
		Dt: *dt, Duration: *duration, Periodic: *periodic, Seed: *seed, Scale: scaleMode,
	}
	targets, err := spec.Targets()
	if err != nil {
		return fmt.Errorf("wind: %w", err)
	}
	started := time.Now()
	box, err := windgen.GenerateTurbulence(ctx, spec)
	if err != nil {
		return fmt.Errorf("wind: %w", err)
	}
	if err := write(box); err != nil {
		return err
	}
	hub := box.HubReport()
	fmt.Fprintf(env.Stdout, "wrote %s: %d×%d grid, %d steps of %g s, seed %d, in %.1f s\n",
		site.output, box.NY, box.NZ, box.NT, box.Dt, *seed, time.Since(started).Seconds())
	fmt.Fprintf(env.Stdout, "IEC target: V_hub %.2f m/s, σ1 %.3f m/s (TI %.2f %%), Λ1 %.1f m, shear exponent %.2f\n",
		targets.VHub, targets.Sigma1, 100*targets.Sigma1/targets.VHub, targets.Lambda1, targets.Alpha)
	for c, name := range []string{"u", "v", "w"} {
		fmt.Fprintf(env.Stdout, "hub point %s: mean %.3f m/s, σ %.3f m/s, min %.3f, max %.3f\n",
			name, hub[c].Mean, hub[c].Sigma, hub[c].Min, hub[c].Max)
	}
	return nil
}

func parseScaleMode(s string) (windgen.ScaleMode, error) {
	switch strings.ToLower(s) {
	case "none", "0":
		return windgen.ScaleNone, nil
	case "hub", "1":
		return windgen.ScaleHub, nil
	case "all", "individual", "2":
		return windgen.ScaleIndividual, nil
	}
	return 0, fmt.Errorf("wind: -scale %q: want none, hub or all", s)
}

func runWindEvent(env *Env, args []string) error {
	fs := flag.NewFlagSet("wind event", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var site windSiteFlags
	site.register(fs)
	kind := fs.String("kind", "EOG", "IEC event: EOG, EDC, ECD, EWS-V or EWS-H")
	start := fs.Float64("start", 20, "time the event starts [s]")
	length := fs.Float64("length", 60, "length of the file [s]")
	dt := fs.Float64("dt", 0.05, "row spacing [s]")
	sign := fs.Int("sign", 1, "direction of EDC, ECD and EWS: +1 or -1")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := site.parse(); err != nil {
		return err
	}
	if *sign != 1 && *sign != -1 {
		return fmt.Errorf("wind: -sign %d: want +1 or -1", *sign)
	}
	eventSite := windgen.EventSite{
		Class: site.turbineClass, Category: site.turbulenceCategory,
		HubHeight: site.hubHeight, RotorDiameter: site.diam, VHub: site.vHub,
		ShearExponent: site.shearExponent(),
	}
	rows, info, err := windgen.GenerateEvent(windgen.EventKind(strings.ToUpper(*kind)), eventSite,
		windgen.EventTiming{Start: *start, Length: *length, Dt: *dt}, *sign)
	if err != nil {
		return fmt.Errorf("wind: %w", err)
	}
	err = writeAtomically(site.output, func(path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := windgen.WriteUniform(f, rows, info, eventSite); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %s, %d rows, σ1 %.3f m/s, Λ1 %.1f m, T %g s, amplitude %.4f\n",
		site.output, info.Name, len(rows), info.Sigma1, info.Lambda1, info.Period, info.Amplitude)
	return nil
}

// writeBladedBox writes the box as wnd and its summary beside it (.sum),
// each atomically, the summary last: a reader finds either no summary or
// one whose .wnd is complete.
func writeBladedBox(wnd string, box *windgen.FullField) error {
	ff, err := box.ToBTS()
	if err != nil {
		return fmt.Errorf("wind: %w", err)
	}
	var sum bytes.Buffer
	err = writeAtomically(wnd, func(path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := windfile.WriteBladed(f, &sum, ff); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
	if err != nil {
		return err
	}
	return writeAtomically(strings.TrimSuffix(wnd, ".wnd")+".sum", func(path string) error {
		return os.WriteFile(path, sum.Bytes(), 0o644)
	})
}

// writeAtomically lets write fill a temporary file beside path and renames it
// into place only when write succeeded, so a failure never leaves a
// half-written wind file where a simulation would pick it up.
func writeAtomically(path string, write func(tmp string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("wind: %w", err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	if err := write(tmpName); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("wind: writing %s: %w", path, err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("wind: %w", err)
	}
	return nil
}
