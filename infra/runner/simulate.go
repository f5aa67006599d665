package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/infra/resultcache"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// ErrUsage reports a malformed command line (the usage was printed).
var ErrUsage = errors.New("usage")

// Simulate is the `turbined simulate` command; it runs one OpenFAST deck on the project's solver:
//
//	turbined simulate path/to/main.fst [-o dir] [-tmax s] [-progress text|json|none]
//	turbined simulate base/main.fst -recipe recipe.json -base base [-prepared dir] ...
//
// With -recipe (a DLC batch run, batches.RunRecipe) the .fst is the
// turbine's base deck inside -base: the run's wind file and deck are
// generated into -prepared first, under the same limits, and that deck is
// simulated; the first stderr line names the generated wind (prepare.go).
// The .outb is written into -o (default: next to the .fst). Progress goes to
// stderr as one rewritten line (text) or to stdout as JSON lines (json, the
// form the job worker reads from its child process). A deck error exits
// non-zero with the deck layer's message, which names file, line and
// variable; the deck's warnings (decks.Warnings) go to stderr
// before the run starts, one "warning: file:line: variable: message" line
// each.
func Simulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	outDir := fs.String("o", "", "output directory (default: the directory of the .fst)")
	tMax := fs.Float64("tmax", 0, "simulated end time in s (default: the deck's TMax)")
	progress := fs.String("progress", "text", "progress report: text (stderr), json (JSON lines on stdout) or none")
	var lim rlimits
	fs.Uint64Var(&lim.cpuSeconds, "rlimit-cpu", 0, "CPU-time limit in s (RLIMIT_CPU; 0: unchanged)")
	fs.Uint64Var(&lim.memoryBytes, "rlimit-as", 0, "address-space limit in bytes (RLIMIT_AS; 0: unchanged)")
	fs.Uint64Var(&lim.fileBytes, "rlimit-fsize", 0, "largest file the run may write, bytes (RLIMIT_FSIZE; 0: unchanged)")
	fs.Uint64Var(&lim.processes, "rlimit-nproc", 0, "process/thread limit of the user (RLIMIT_NPROC; 0: unchanged)")
	recipePath := fs.String("recipe", "", "run recipe (JSON, batches.RunRecipe): generate the run's wind file and deck from the base deck first")
	baseDir := fs.String("base", "", "with -recipe: the base deck's folder (the .fst argument is its main file)")
	preparedDir := fs.String("prepared", "", "with -recipe: folder to write the run into (default: prepared/ beside the recipe)")
	boxDir := fs.String("boxes", "", "with -recipe: the batch's turbulence-box folder, shared by its runs (a box is generated there once)")
	rootDir := fs.String("root", "", "folder every file of the deck must lie in (refused otherwise, before it is opened); default: no confinement (a deck of the operator's)")
	// Flags may follow the deck path (turbined simulate main.fst -tmax 5).
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return ErrUsage
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 {
		fmt.Fprintln(stderr, "usage: turbined simulate path/to/main.fst [-o dir] [-tmax s] [-progress text|json|none] [-recipe recipe.json -base dir [-prepared dir]]")
		return ErrUsage
	}
	if *tMax < 0 {
		return fmt.Errorf("simulate: -tmax %g must not be negative", *tMax)
	}
	path := positional[0]
	// Limits first, before any input is read: the job worker runs this
	// command on untrusted decks and passes its limits this way.
	if err := lim.apply(); err != nil {
		return err
	}
	// A DLC batch run: its wind and deck are made here, under the limits
	// just set (and inside the worker's sandbox), not in the worker.
	// dlcTransient is a DLC run's own start-up transient (its DLC's, as
	// stored with the batch), which its analyses leave out.
	var dlcTransient *float64
	if *recipePath != "" {
		prepared := *preparedDir
		if prepared == "" {
			prepared = filepath.Join(filepath.Dir(*recipePath), "prepared")
		}
		fst, note, transient, err := prepareFromRecipe(ctx, *recipePath, *baseDir, path, prepared, *boxDir)
		if err != nil {
			return fmt.Errorf("%s: %w", PrepareFailure, err)
		}
		dlcTransient = &transient
		fmt.Fprintln(stderr, note)
		path = fst
		// The box generation's heap (one velocity component's series and
		// Fourier coefficients, ~95 MB for a 600-s 25 × 25 box) is free
		// now; returned to the system here, it does not stay resident
		// under the run, whose own peak then sets the process's.
		debug.FreeOSMemory()
	}

	d, err := LoadValidDeck(*rootDir, path)
	if err != nil {
		return err
	}
	// What OpenFAST would run with but the engineer should know, before
	// the run starts (files relative to the deck's folder).
	for _, w := range decks.Warnings(filepath.Dir(path), d) {
		fmt.Fprintln(stderr, "warning:", w)
	}
	opts := coupling.Options{TMax: *tMax, SkipUnsupported: true}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return fmt.Errorf("simulate: output directory: %w", err)
		}
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		opts.OutPath = filepath.Join(*outDir, base+".outb")
	}

	var report func(simTime, tEnd float64)
	var finish func()
	switch *progress {
	case "text":
		p := newProgressMeter(time.Now)
		report = func(simTime, tEnd float64) { p.text(stderr, simTime, tEnd) }
		finish = func() { fmt.Fprintln(stderr) }
	case "json":
		p := newProgressMeter(time.Now)
		report = func(simTime, tEnd float64) { p.json(stdout, simTime, tEnd) }
		finish = func() {}
	case "none":
		finish = func() {}
	default:
		return fmt.Errorf("simulate: -progress %q: want text, json or none", *progress)
	}

	res, err := coupling.Run(ctx, d, opts, report)
	finish()
	if err != nil {
		return fmt.Errorf("simulate %s: %w", path, err)
	}
	fmt.Fprintf(stderr, "wrote %s: %d steps, %.3f s simulated in %s (%.2f× real time)\n",
		res.OutPath, res.Steps, res.SimTime, res.Wall.Round(time.Millisecond), ratio(res.SimTime, res.Wall))
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintln(stderr, "channels not computed (skipped):", strings.Join(res.Dropped, ", "))
	}
	// The simulation's modules are garbage once it has returned; handed
	// back to the system before the checks read the output file, the two
	// do not add up in the process's peak.
	debug.FreeOSMemory()
	checks, basis, err := RunChecks(d, res, dlcTransient)
	if err != nil {
		// The run itself succeeded: it stays unchecked, and the log says why.
		fmt.Fprintln(stderr, "warning: plausibility checks not made:", err)
		return nil
	}
	fmt.Fprintln(stderr, "plausibility bounds:", strings.Join(basis, "; "))
	for _, c := range checks {
		fmt.Fprintln(stderr, "check failed:", c.Message)
	}
	if *progress == "json" {
		b, err := json.Marshal(ChecksLine{Checks: checks})
		if err != nil {
			return fmt.Errorf("simulate: encoding the checks: %w", err)
		}
		stdout.Write(append(b, '\n'))
	}
	return nil
}

// maxRunChecks bounds the checks reported for one run (a deck can ask for
// thousands of channels, every one INVALID); the last one says how many
// more failed.
const maxRunChecks = 100

// ChecksLine is the last JSON line of `simulate -progress json`: the
// plausibility checks the finished run failed (empty when it passed).
type ChecksLine struct {
	Checks []turbinesim.RunCheck `json:"checks"`
}

// RunChecks checks a finished run's output file against the physical
// bounds of its deck (decks.PlausibilityLimits) after its start-up
// transient, and for non-finite samples and INVALID channels over the
// whole record. The transient is the deck's (decks.StartupTransient: the
// first 30 s, on a floating platform the first
// decks.FloatingStartupTransient = 200 s, or the first half of a shorter
// run), or a DLC run's own (dlcTransient, its DLC's as stored with the
// batch, but at least the rotor's 30 s) when that is shorter, so that the
// checks cover every sample the run's analyses use. It is left out because a run starts from the
// deck's initial conditions, not the operating state: the NREL 5 MW at
// 16 m/s, released at its initial rotor speed with no generator torque
// until TimGenOn = 5 s, passes 1.3 × rated at 4 s and then settles; a
// floating platform released at rest drifts tens of metres in surge and
// swings at its pitch period for minutes (docs/events.md §6).
// Post-processing discards that part, so it is not a reason to discard
// the run. It returns the failed checks (empty, not nil, when it passed)
// and where each bound came from, the checked window last.
func RunChecks(d *deck.Deck, res *coupling.Result, dlcTransient *float64) ([]turbinesim.RunCheck, []string, error) {
	out := res.OutPath
	if out == "" {
		out = res.TextPath
	}
	if out == "" {
		return nil, nil, errors.New("the run wrote no output file")
	}
	rec, nonFinite, err := checkedRecord(out)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the output %s: %w", filepath.Base(out), err)
	}
	lim, basis, err := decks.PlausibilityLimits(d)
	if err != nil {
		return nil, nil, err
	}
	floating := dlc.FloatingPlatform(d)
	w := analysis.StartupWindowOf(rec.Time, decks.StartupTransient(floating))
	startup := "the start-up transient"
	if floating {
		startup += " of a floating platform"
	}
	// A DLC run on a floating platform starts at the platform's
	// equilibrium when it starts operating, and its analyses start after
	// its DLC's transient (dlc.FloatingTransient), shorter than the
	// platform's from rest: its checks start there too, so that they
	// cover all its analyses use, though never before the rotor's own
	// start-up transient (the checks of a run whose DLC keeps its whole
	// record start where a land run's do).
	if dlcTransient != nil {
		from, _ := w.Bounds()
		rotor, _ := analysis.StartupWindow(rec.Time).Bounds()
		if t := math.Max(*dlcTransient, rotor); t < from {
			w, startup = analysis.After(t), "its DLC's start-up transient"
		}
	}
	failed, err := analysis.Plausibility(rec, w, lim)
	if err != nil {
		return nil, nil, err
	}
	failed = append(nonFinite, failed...)
	from, _ := w.Bounds()
	basis = append(basis, fmt.Sprintf("checked from t = %g s (after %s; non-finite values and INVALID channels over the whole run)", from, startup))
	checks := make([]turbinesim.RunCheck, 0, min(len(failed), maxRunChecks))
	// Physical failures first, so that the bound on the list never drops
	// one of them for an INVALID channel.
	slices.SortStableFunc(failed, func(a, b analysis.Check) int {
		return cmp.Compare(severity(a.Kind), severity(b.Kind))
	})
	for i, c := range failed {
		if i == maxRunChecks-1 && len(failed) > maxRunChecks {
			rest := failed[i:]
			worst := severity(rest[0].Kind)
			checks = append(checks, turbinesim.RunCheck{Kind: rest[0].Kind, Severity: worst, Channel: rest[0].Channel,
				Message: fmt.Sprintf("%d more checks failed (the first %d are listed)", len(rest), i)})
			break
		}
		checks = append(checks, turbinesim.RunCheck{Kind: c.Kind, Severity: severity(c.Kind), Channel: c.Channel,
			Time: finite(c.Time), Value: finite(c.Value), Limit: finite(c.Limit), Message: c.Message})
	}
	return checks, basis, nil
}

// checkedRecord reads what the plausibility checks need of the output file
// out. A .outb (the service's runs write one; a 600-s floating run's holds
// ~800 channels × 24 000 rows, 155 MB as float64) is not read whole: the
// channels the checks bound (analysis.PlausibilityChannels) and those
// marked INVALID are read as columns, every other channel is scanned a row
// at a time for its first non-finite sample (the checks returned). A text
// output is read whole.
func checkedRecord(out string) (*analysis.Record, []analysis.Check, error) {
	rd, err := outfile.OpenOutb(out)
	if err != nil {
		f, err := outfile.ReadFile(out)
		if err != nil {
			return nil, nil, err
		}
		return resultcache.FromFile(f), nil, nil
	}
	defer rd.Close()
	chans := rd.Header.Channels
	bounded := analysis.PlausibilityChannels()
	read := make([]bool, len(chans))
	var idx []int
	for c, ch := range chans {
		invalid := strings.EqualFold(strings.Trim(ch.Unit, "()"), "INVALID")
		if invalid || slices.ContainsFunc(bounded, func(n string) bool { return strings.EqualFold(n, ch.Name) }) {
			read[c] = true
			idx = append(idx, c)
		}
	}
	t, cols, err := rd.ReadChannels(idx)
	if err != nil {
		return nil, nil, err
	}
	rec := &analysis.Record{Time: t, Channels: cols}
	for _, c := range idx {
		rec.Names = append(rec.Names, chans[c].Name)
		rec.Units = append(rec.Units, chans[c].Unit)
	}
	var checks []analysis.Check
	row := make([]float64, len(chans))
	seen := slices.Clone(read)
	for {
		_, tk, err := rd.Next(row)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		for c, v := range row {
			if !seen[c] && (math.IsNaN(v) || math.IsInf(v, 0)) {
				seen[c] = true
				checks = append(checks, analysis.NonFiniteCheck(chans[c].Name, tk, v))
			}
		}
	}
	return rec, checks, nil
}

// severity is a check kind's RunCheck severity: an INVALID channel is
// a channel without values, every other kind a non-physical run.
func severity(kind string) string {
	if kind == analysis.CheckInvalid {
		return turbinesim.CheckWarning
	}
	return turbinesim.CheckError
}

// finite is v, or nil for NaN and ±Inf (JSON has neither).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// LoadValidDeck loads a deck and refuses it when Validate finds an error
// (warnings pass). The returned error is the deck layer's own message, so it
// names the file, the line and the variable. A non-empty root confines every
// file the deck names to that folder (deck.LoadIn); the job worker always
// sets it.
func LoadValidDeck(root, path string) (*deck.Deck, error) {
	var d *deck.Deck
	var err error
	if root != "" {
		d, err = deck.LoadIn(root, path)
	} else {
		d, err = deck.Load(path)
	}
	if err != nil {
		return nil, err
	}
	var msgs []string
	for _, p := range deck.Validate(d) {
		if !p.Warning {
			msgs = append(msgs, p.String())
		}
	}
	if len(msgs) > 0 {
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	return d, nil
}

// progressMeter turns (simulated time, end time) samples into the progress
// figures: percent, simulated/wall ratio and the ETA extrapolated from the
// ratio so far. Output is throttled to a few lines a second.
type progressMeter struct {
	now   func() time.Time
	start time.Time
	mu    sync.Mutex
	last  time.Time
}

func newProgressMeter(now func() time.Time) *progressMeter {
	return &progressMeter{now: now, start: now()}
}

// ProgressLine is one JSON progress record of `simulate -progress json`.
type ProgressLine struct {
	SimTime    float64 `json:"sim_time"`
	TMax       float64 `json:"t_max"`
	Percent    float64 `json:"percent"`
	ETASeconds float64 `json:"eta_seconds"`
	Ratio      float64 `json:"ratio"`
}

func (p *progressMeter) sample(simTime, tEnd float64, force bool) (ProgressLine, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if !force && now.Sub(p.last) < 250*time.Millisecond {
		return ProgressLine{}, false
	}
	p.last = now
	wall := now.Sub(p.start)
	l := ProgressLine{SimTime: simTime, TMax: tEnd, Ratio: ratio(simTime, wall), ETASeconds: -1}
	if tEnd > 0 {
		l.Percent = 100 * min(simTime/tEnd, 1)
	}
	if simTime > 0 && tEnd > 0 {
		l.ETASeconds = max(tEnd-simTime, 0) * wall.Seconds() / simTime
	}
	return l, true
}

func (p *progressMeter) text(w io.Writer, simTime, tEnd float64) {
	l, ok := p.sample(simTime, tEnd, simTime >= tEnd)
	if !ok {
		return
	}
	eta := "?"
	if l.ETASeconds >= 0 {
		eta = (time.Duration(l.ETASeconds * float64(time.Second))).Round(time.Second).String()
	}
	fmt.Fprintf(w, "\rt = %8.2f / %.2f s  %5.1f%%  ETA %s  %.2f× real time   ", simTime, tEnd, l.Percent, eta, l.Ratio)
}

func (p *progressMeter) json(w io.Writer, simTime, tEnd float64) {
	l, ok := p.sample(simTime, tEnd, simTime >= tEnd)
	if !ok {
		return
	}
	b, _ := json.Marshal(l)
	w.Write(append(b, '\n'))
}

func ratio(simTime float64, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return simTime / wall.Seconds()
}

// rlimits are the resource limits `simulate` sets on itself before reading
// the deck (setrlimit(2)); exceeding RLIMIT_CPU ends the process with
// SIGXCPU/SIGKILL and RLIMIT_FSIZE makes the oversized write fail.
type rlimits struct {
	cpuSeconds, memoryBytes, fileBytes, processes uint64
}

func (l rlimits) apply() error {
	for _, r := range []struct {
		name     string
		resource int
		value    uint64
	}{
		{"rlimit-cpu", syscall.RLIMIT_CPU, l.cpuSeconds},
		{"rlimit-as", syscall.RLIMIT_AS, l.memoryBytes},
		{"rlimit-fsize", syscall.RLIMIT_FSIZE, l.fileBytes},
		{"rlimit-nproc", rlimitNPROC, l.processes},
	} {
		if r.value == 0 {
			continue
		}
		if err := syscall.Setrlimit(r.resource, &syscall.Rlimit{Cur: r.value, Max: r.value}); err != nil {
			return fmt.Errorf("simulate: -%s %d: %w", r.name, r.value, err)
		}
	}
	return nil
}

// rlimitNPROC is RLIMIT_NPROC on Linux (not exported by package syscall).
const rlimitNPROC = 6
