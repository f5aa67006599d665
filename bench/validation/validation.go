// Package validation runs the solver on every OpenFAST v5.0.0 reference case
// of ../shared/reference-outputs and compares the channels that matter (the
// channels of docs/validation.md) with the reference .outb: mean and standard
// deviation over the settled part of the run, and OpenFAST's own per-sample
// regression rule (OpenFAST reg_tests pass_fail.py: rtol 10^-2, atol
// 10^(floor(log10(range)) − 1.9)). It writes a Markdown report.
//
// A case is a folder holding a CASE.md and, somewhere below it, an .fst
// with an .outb of the same base name beside it: the deck exactly as
// OpenFAST read it and OpenFAST's output.
package validation

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// Channels are the compared channels, in report order.
var Channels = []string{
	"RotSpeed", "GenSpeed", "GenPwr", "GenTq", "BldPitch1", "RotThrust", "RotTorq",
	"RootMyc1", "RootMxc1", "OoPDefl1", "IPDefl1", "TTDspFA", "TwrBsMyt", "TwrBsMxt",
}

// OffshoreChannels are compared as well for a case whose deck has offshore
// modules: the platform motions, the fairlead tensions and the wave
// elevation (issue 20, "Must show"). A bottom-fixed case (a SubDyn
// substructure) compares SubstructureChannels instead.
var OffshoreChannels = []string{
	"PtfmSurge", "PtfmSway", "PtfmHeave", "PtfmRoll", "PtfmPitch", "PtfmYaw",
	"FAIRTEN1", "FAIRTEN2", "FAIRTEN3", "Wave1Elev",
}

// SubstructureChannels are compared for a bottom-fixed case (CompSub = 1):
// the transition-piece motion the substructure allows, the SubDyn base
// reactions and interface loads, HydroDyn's total strip-theory loads and
// the wave elevation. The lateral platform motions of a monopile are
// micrometres and thousandths of a degree, left out.
var SubstructureChannels = []string{
	"PtfmSurge", "PtfmPitch",
	"ReactFXss", "ReactFZss", "ReactMYss", "IntfFXss", "IntfMYss",
	"HydroFxi", "HydroFzi", "HydroMyi", "Wave1Elev",
}

// offshoreChannels returns the offshore channels compared for a deck.
func offshoreChannels(m *deck.Main) []string {
	switch {
	case m.CompSub != 0:
		return SubstructureChannels
	case m.CompHydro != 0 || m.CompMooring != 0:
		return OffshoreChannels
	}
	return nil
}

// DecayChannels are the free-decay motions whose dominant damped mode is
// compared in a decay case (name containing "decay"), with the band of
// damped periods (s) the mode is looked for in.
var DecayChannels = []ModeChannel{
	{"PtfmPitch", 10, 60, 0.5},
	{"PtfmSurge", 60, 300, 0.5},
}

// ModeChannel is a motion whose dominant damped mode is fitted
// (analysis.DecayModes) in the band of damped periods [Min, Max] s, the
// record first averaged over blocks of Block seconds.
type ModeChannel struct {
	Name     string
	Min, Max float64
	Block    float64
}

// TowerModeChannels are fitted in a bottom-fixed case (a SubDyn
// substructure): the tower-top fore-aft deflection over the whole run,
// whose start-up transient (the rotor's thrust applied to the tower at
// rest) rings the first fore-aft mode of the turbine on its support
// structure down under the aerodynamic damping. The band holds the first
// fore-aft period of a multi-megawatt turbine on a monopile (3-10 s); the
// 0.25-s blocks keep that mode (about 20 blocks a period) and make the fit
// cheap.
var TowerModeChannels = []ModeChannel{
	{"TTDspFA", 3, 10, 0.25},
}

// DecayResult compares one channel's dominant free-decay mode
// (analysis.DecayModes) with the reference's.
type DecayResult struct {
	Name               string
	RefPeriod, Period  float64 // damped period, s
	RefFreq, Freq      float64 // undamped natural frequency, Hz
	RefZeta, Zeta      float64 // damping ratio
	PeriodErr, ZetaErr float64 // relative errors
	FreqErr            float64
	Missing            string
}

// Case is one reference run.
type Case struct {
	Name string // folder name, e.g. nrel5mw_steady8_full
	Dir  string // case folder
	FST  string // the deck's main file
	Outb string // OpenFAST's output of that deck
	// Settle is the start of the compared window (s): 30 s, or 60 s for the
	// 120-s runs whose first minute is a controller transient (README of
	// reference-outputs).
	Settle float64
	// TMax is the deck's simulated time (s); OpenFASTWall is the wall time
	// CASE.md reports for the reference run (0 when not found).
	TMax         float64
	OpenFASTWall float64
	// Offshore is true when the deck has offshore modules (hydrodynamics,
	// moorings or a substructure): OffshoreChannels are compared too.
	Offshore bool
}

// Discover lists the cases under refDir (sorted by name).
func Discover(refDir string) ([]Case, error) {
	entries, err := os.ReadDir(refDir)
	if err != nil {
		return nil, fmt.Errorf("validation: reading %s: %w", refDir, err)
	}
	var cases []Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(refDir, e.Name())
		caseMD, err := os.ReadFile(filepath.Join(dir, "CASE.md"))
		if err != nil {
			continue // not a case folder
		}
		c := Case{Name: e.Name(), Dir: dir, OpenFASTWall: openFASTWall(string(caseMD))}
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".fst") {
				return nil
			}
			outb := strings.TrimSuffix(p, filepath.Ext(p)) + ".outb"
			if _, err := os.Stat(outb); err == nil {
				if c.FST != "" {
					return fmt.Errorf("two decks with outputs: %s and %s", c.FST, p)
				}
				c.FST, c.Outb = p, outb
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("validation: case %s: %w", e.Name(), err)
		}
		if c.FST == "" {
			return nil, fmt.Errorf("validation: case %s: no .fst with an .outb beside it", e.Name())
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("validation: no cases (folders with CASE.md) under %s", refDir)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}

// wallRE matches CASE.md's "Wall time (`/usr/bin/time -v`, Elapsed): **0:12.28** (12.28 s)".
var wallRE = regexp.MustCompile(`Wall time[^\n]*?\(([0-9.]+) s\)`)

func openFASTWall(caseMD string) float64 {
	m := wallRE.FindStringSubmatch(caseMD)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// Basis names what an error is relative to.
type Basis string

const (
	BasisMean  Basis = "mean"  // the reference mean
	BasisRange Basis = "range" // the reference range over the window (mean near zero)
	BasisStd   Basis = "std"   // the reference standard deviation
	BasisNone  Basis = "abs"   // the reference is constant: absolute difference
)

// MissingInReference is ChannelResult.Missing for a channel the reference
// case did not write.
const MissingInReference = "not in the reference output"

// ChannelResult compares one channel.
type ChannelResult struct {
	Name, Unit       string
	Missing          string // why the channel was not compared ("" when it was)
	RefMean, Mean    float64
	RefStd, Std      float64
	RefRange         float64 // max − min of the reference over the window
	Quantum          float64 // reference int16 resolution over the whole run
	MeanErr          float64 // signed error of the mean relative to MeanBasis (fraction)
	MeanBasis        Basis
	StdErr           float64 // signed error of the std relative to StdBasis (fraction)
	StdBasis         Basis
	RuleAll          float64 // fraction of all samples passing OpenFAST's rule
	RuleSettled      float64 // fraction of the settled samples passing it
	RuleWorstSettled float64 // largest |test−base| / allowed over the settled samples
}

// CaseResult is one case's run and comparison.
type CaseResult struct {
	Case
	Err  error
	Wall time.Duration
	// CPU is the process CPU time (user + system) of the run, measured only
	// when the cases run one at a time (-j 1); zero otherwise.
	CPU      time.Duration
	SimTime  float64
	Steps    int
	Channels []ChannelResult
	Decays   []DecayResult // decay cases only
}

// SimWall is the simulated-to-wall time ratio of the run.
func (r *CaseResult) SimWall() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return r.SimTime / r.Wall.Seconds()
}

// Channel returns the named channel's result.
func (r *CaseResult) Channel(name string) (*ChannelResult, bool) {
	for i := range r.Channels {
		if r.Channels[i].Name == name {
			return &r.Channels[i], true
		}
	}
	return nil, false
}

// RunCase runs one case with our solver (no output file written) and
// compares the channels.
func RunCase(ctx context.Context, c Case, channels []string) CaseResult {
	res := CaseResult{Case: c}
	ref, err := outfile.ReadOutbFile(c.Outb)
	if err != nil {
		res.Err = fmt.Errorf("reading the reference: %w", err)
		return res
	}
	d, err := deck.Load(c.FST)
	if err != nil {
		res.Err = fmt.Errorf("loading the deck: %w", err)
		return res
	}
	if c.Offshore {
		channels = append([]string(nil), channels...)
		for _, o := range offshoreChannels(d.Main) {
			if !slices.Contains(channels, o) {
				channels = append(channels, o)
			}
		}
	}
	run, err := coupling.Run(ctx, d, coupling.Options{OutPath: "-", Channels: channels, KeepData: true}, nil)
	if err != nil {
		res.Err = err
		return res
	}
	res.Wall, res.SimTime, res.Steps = run.Wall, run.SimTime, run.Steps
	for _, name := range channels {
		cr := ChannelResult{Name: name}
		col := -1
		for i, ch := range run.Channels {
			if ch.Name == name {
				col, cr.Unit = i, ch.Unit
			}
		}
		base, ok := ref.Column(name)
		switch {
		case col < 0:
			cr.Missing = "not computed by the solver"
		case !ok:
			cr.Missing = MissingInReference
		default:
			compare(&cr, ref.Time, base, run.Time, run.Data[col], c.Settle)
		}
		res.Channels = append(res.Channels, cr)
	}
	switch {
	case strings.Contains(c.Name, "decay"):
		res.Decays = decays(ref, run, DecayChannels)
	case d.Main.CompSub != 0:
		res.Decays = decays(ref, run, TowerModeChannels)
	}
	return res
}

// decays compares the dominant damped mode of each motion of channels: ten
// modes fitted to the whole record averaged over the channel's blocks
// (0.5 s for the platform motions, which removes the tower and blade
// vibrations but not the platform modes).
func decays(ref *outfile.File, run *coupling.Result, channels []ModeChannel) []DecayResult {
	var out []DecayResult
	for _, dc := range channels {
		r := DecayResult{Name: dc.Name}
		base, ok := ref.Column(dc.Name)
		col := -1
		for i, ch := range run.Channels {
			if ch.Name == dc.Name {
				col = i
			}
		}
		if !ok || col < 0 || len(ref.Time) < 2 || len(run.Time) < 2 {
			r.Missing = "channel missing"
			out = append(out, r)
			continue
		}
		fit := func(t, x []float64) (analysis.DampedMode, error) {
			block := max(1, int(math.Round(dc.Block/(t[1]-t[0]))))
			modes, err := analysis.DecayModes(t, x, 10, block)
			if err != nil {
				return analysis.DampedMode{}, err
			}
			m, ok := analysis.DominantMode(modes, dc.Min, dc.Max)
			if !ok {
				return m, fmt.Errorf("no mode with a period of %g-%g s", dc.Min, dc.Max)
			}
			return m, nil
		}
		mr, err1 := fit(ref.Time, base)
		mo, err2 := fit(run.Time, run.Data[col])
		if err := errors.Join(err1, err2); err != nil {
			r.Missing = err.Error()
			out = append(out, r)
			continue
		}
		r.RefPeriod, r.Period, r.RefZeta, r.Zeta = mr.Period, mo.Period, mr.Zeta, mo.Zeta
		r.RefFreq, r.Freq = mr.Frequency, mo.Frequency
		r.PeriodErr = mo.Period/mr.Period - 1
		r.FreqErr = mo.Frequency/mr.Frequency - 1
		r.ZetaErr = mo.Zeta/mr.Zeta - 1
		out = append(out, r)
	}
	return out
}

// compare fills the statistics of one channel: test (tTest, test) against
// the reference (tBase, base).
func compare(cr *ChannelResult, tBase, base, tTest, test []float64, settle float64) {
	lo, hi := minMax(base)
	cr.Quantum = (hi - lo) / 65535
	// Test values at the reference times (the same grid when DT_Out agrees).
	at := resample(tTest, test, tBase)
	var winBase, winTest []float64
	for i, t := range tBase {
		if t >= settle-1e-9 {
			winBase = append(winBase, base[i])
			winTest = append(winTest, at[i])
		}
	}
	cr.RefMean, cr.RefStd = meanStd(winBase)
	cr.Mean, cr.Std = meanStd(winTest)
	wlo, whi := minMax(winBase)
	cr.RefRange = whi - wlo
	// Mean error: relative to the reference mean, or to the window's range
	// when the mean is near zero (smaller than a tenth of the range).
	switch {
	case math.Abs(cr.RefMean) >= 0.1*cr.RefRange && cr.RefMean != 0:
		cr.MeanErr, cr.MeanBasis = (cr.Mean-cr.RefMean)/math.Abs(cr.RefMean), BasisMean
	case cr.RefRange > 0:
		cr.MeanErr, cr.MeanBasis = (cr.Mean-cr.RefMean)/cr.RefRange, BasisRange
	default:
		cr.MeanErr, cr.MeanBasis = cr.Mean-cr.RefMean, BasisNone
	}
	// Standard-deviation error: relative to the reference std, unless that
	// is below 1 % of the channel's level (max of |mean| and range) or two
	// int16 quanta of the reference — a fluctuation that small is
	// resolution-limited, so its error is stated relative to the level.
	level := math.Max(math.Abs(cr.RefMean), cr.RefRange)
	switch {
	case cr.RefStd >= 0.01*level && cr.RefStd > 2*cr.Quantum:
		cr.StdErr, cr.StdBasis = (cr.Std-cr.RefStd)/cr.RefStd, BasisStd
	case level > 0:
		cr.StdErr = (cr.Std - cr.RefStd) / level
		cr.StdBasis = BasisMean
		if cr.MeanBasis == BasisRange {
			cr.StdBasis = BasisRange
		}
	default:
		cr.StdErr, cr.StdBasis = cr.Std-cr.RefStd, BasisNone
	}
	cr.RuleAll, _ = passFraction(base, at)
	cr.RuleSettled, cr.RuleWorstSettled = passFractionWindow(base, at, tBase, settle)
}

// ruleTolerance returns OpenFAST's per-sample tolerances for a baseline
// channel (reg_tests/lib/pass_fail.py with RTOL=2, ATOL=1.9: rtol = 10^-2,
// atol = max(10^(floor(log10(max(base) − min(base))) − 1.9), 1e-6)).
func ruleTolerance(base []float64) (rtol, atol float64) {
	lo, hi := minMax(base)
	atol = 1e-6
	if r := hi - lo; r > 0 {
		atol = math.Max(math.Pow(10, math.Floor(math.Log10(r))-1.9), 1e-6)
	}
	return 1e-2, atol
}

// passes is numpy.isclose(test, base, rtol, atol): |test − base| ≤
// atol + rtol·|base|, NaN never close.
func allowed(base, rtol, atol float64) float64 { return atol + rtol*math.Abs(base) }

func passFraction(base, test []float64) (float64, float64) {
	return passFractionWindow(base, test, nil, math.Inf(-1))
}

// passFractionWindow applies the rule (tolerances from the whole baseline
// channel, as OpenFAST does) to the samples at t ≥ from and returns the
// fraction passing and the worst ratio |test − base| / allowed.
func passFractionWindow(base, test, t []float64, from float64) (frac, worst float64) {
	rtol, atol := ruleTolerance(base)
	n, ok := 0, 0
	for i := range base {
		if t != nil && t[i] < from-1e-9 {
			continue
		}
		n++
		d := math.Abs(test[i] - base[i])
		a := allowed(base[i], rtol, atol)
		if d <= a {
			ok++
		}
		if r := d / a; r > worst || math.IsNaN(d) {
			worst = r
		}
	}
	if n == 0 {
		return 0, 0
	}
	return float64(ok) / float64(n), worst
}

// resample evaluates (t, x) linearly at the times want (held constant
// outside t's range; NaN when x is empty).
func resample(t, x, want []float64) []float64 {
	out := make([]float64, len(want))
	if len(t) == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	j := 0
	for i, w := range want {
		for j+1 < len(t) && t[j+1] <= w+1e-9 {
			j++
		}
		switch {
		case math.Abs(t[j]-w) <= 1e-9 || j+1 >= len(t) || w < t[j]:
			out[i] = x[j]
		default:
			f := (w - t[j]) / (t[j+1] - t[j])
			out[i] = x[j] + f*(x[j+1]-x[j])
		}
	}
	return out
}

func minMax(x []float64) (lo, hi float64) {
	if len(x) == 0 {
		return 0, 0
	}
	lo, hi = x[0], x[0]
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// meanStd returns the mean and population standard deviation.
func meanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		std += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(std / float64(len(x)))
}

// RunAll runs the cases on `workers` goroutines, longest decks first so
// that the two cores stay busy to the end, and returns the results in the
// order of cases. progress (optional) is called as each case finishes.
func RunAll(ctx context.Context, cases []Case, channels []string, workers int, progress func(CaseResult)) []CaseResult {
	if workers < 1 {
		workers = 1
	}
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	// A 120-s IEA-15 run costs far more than a 60-s NREL 5 MW run.
	sort.SliceStable(order, func(a, b int) bool { return cases[order[a]].OpenFASTWall > cases[order[b]].OpenFASTWall })
	results := make([]CaseResult, len(cases))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				cpu0 := ProcessCPU()
				r := RunCase(ctx, cases[i], channels)
				if workers == 1 {
					r.CPU = ProcessCPU() - cpu0
				}
				results[i] = r
				if progress != nil {
					mu.Lock()
					progress(r)
					mu.Unlock()
				}
			}
		}()
	}
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i := range results {
		if results[i].Name == "" {
			results[i] = CaseResult{Case: cases[i], Err: errors.New("not run: cancelled")}
		}
	}
	return results
}

// prepare fills Settle and TMax from the deck (the compared window starts at
// 60 s for runs of 120 s or more, whose first minute is a transient).
func prepare(c *Case) error {
	d, err := deck.Load(c.FST)
	if err != nil {
		return fmt.Errorf("validation: case %s: %w", c.Name, err)
	}
	c.TMax = d.Main.TMax
	m := d.Main
	c.Offshore = m.CompHydro != 0 || m.CompMooring != 0 || m.CompSub != 0
	c.Settle = 30
	if c.TMax >= 120-1e-9 {
		c.Settle = 60
	}
	return nil
}

// Prepare fills each case's TMax and settled window from its deck.
func Prepare(cases []Case) error {
	for i := range cases {
		if err := prepare(&cases[i]); err != nil {
			return err
		}
	}
	return nil
}

// ProcessCPU is the process's user + system CPU time so far (0 where
// getrusage is unavailable). On a shared machine it measures the solver's
// own work, which the wall time does not.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
