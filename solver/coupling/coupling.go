// Package coupling is the solver's glue code: it builds the structural
// (ElastoDyn-equivalent), inflow, aerodynamic and control modules from a
// loaded OpenFAST deck and marches them in time with OpenFAST's loose
// coupling (ModCoupling = 1, OpenFAST glue-code documentation), writing the
// requested output channels under OpenFAST's names and units to a .outb file
// (FileID 4).
package coupling

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/inflow"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/outfile"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// Options adjust a run.
type Options struct {
	// OutPath is the .outb file to write. Empty: the .fst path with the
	// extension replaced by .outb. "-" writes no file (Result.Data only).
	// When the deck's OutFileFmt asks for a text file too (1, 3 or 5), it is
	// written beside it with the extension .out.
	OutPath string
	// TMax overrides the deck's TMax when positive.
	TMax float64
	// Channels replaces the deck's OutLists when non-nil (names as in an
	// OutList; Time is always first and must not be listed).
	Channels []string
	// SkipUnsupported drops requested channels this solver does not
	// compute (listed in Result.Dropped) instead of failing.
	SkipUnsupported bool
	// KeepData keeps the output table in Result.Data.
	KeepData bool
	// Modules are offshore modules to run besides those the deck selects
	// (e.g. a linear restoring model in tests); their loads act on the
	// platform reference point through the same seam.
	Modules []offshore.Module
}

// Result describes a finished run.
type Result struct {
	OutPath  string            // binary file written, or "" when none
	TextPath string            // text file written, or "" when none
	Channels []outfile.Channel // output columns after Time
	Time     []float64         // output times (only with KeepData)
	Data     [][]float64       // Data[c][k] (only with KeepData)
	Steps    int               // time steps taken
	SimTime  float64           // simulated time, s
	Wall     time.Duration
	Dropped  []string // requested channels that were skipped
	Notes    []string // modelling simplifications reported by the modules
}

// Column returns the kept data of the output channel called name (as
// listed in Channels); ok is false when the run has no such channel or
// kept no data.
func (r *Result) Column(name string) (data []float64, ok bool) {
	for i, c := range r.Channels {
		if c.Name == name && i < len(r.Data) {
			return r.Data[i], true
		}
	}
	return nil, false
}

// SimError is a failure inside the physics: which module, at what time.
type SimError struct {
	Time   float64
	Module string
	Err    error
}

func (e *SimError) Error() string {
	return fmt.Sprintf("simulation failed at t=%.6g s in %s: %v", e.Time, e.Module, e.Err)
}

func (e *SimError) Unwrap() error { return e.Err }

// Run simulates the deck from t = 0 to TMax. progress, if non-nil, is called
// after every output row with the simulated time. Cancelling ctx stops the
// run within one time step; the output file is then not written (it is
// written atomically at the end). Errors from the physics are *SimError.
func Run(ctx context.Context, d *deck.Deck, opts Options, progress func(simTime, tMax float64)) (res *Result, err error) {
	start := time.Now()
	s, cols, notes, dropped, err := build(d, opts)
	if err != nil {
		return nil, fmt.Errorf("coupling: %w", err)
	}
	defer s.closeWind()
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = &SimError{Time: s.t, Module: s.stage, Err: fmt.Errorf("panic: %v\n%s", r, debug.Stack())}
		}
	}()
	m := d.Main
	dtOut := m.DT_Out.Or(s.dt)
	decim := int(math.Round(dtOut / s.dt))
	if decim < 1 || math.Abs(float64(decim)*s.dt-dtOut) > 1e-6*s.dt {
		return nil, fmt.Errorf("coupling: DT_Out=%g is not a positive multiple of DT=%g", dtOut, s.dt)
	}
	nSteps := int(math.Round(s.tMax / s.dt))
	if math.Abs(float64(nSteps)*s.dt-s.tMax) > 1e-6*s.dt {
		nSteps = int(math.Floor(s.tMax/s.dt + 1e-9))
	}
	chans := make([]outfile.Channel, len(cols))
	for i, c := range cols {
		chans[i] = outfile.Channel{Name: c.Name, Unit: c.Unit}
	}
	res = &Result{Channels: chans, Dropped: dropped, Notes: notes}
	outPath := opts.OutPath
	if outPath == "" {
		outPath = strings.TrimSuffix(d.Path, filepath.Ext(d.Path)) + ".outb"
	}
	// Output rows are streamed to the files as they are computed (the
	// int16 .outb packing needs each channel's range, so outfile spills
	// rows to a temporary file until Close); the table is kept in memory
	// only with KeepData. Nothing appears at the destination unless the run
	// finishes: on any error or cancellation the writers are aborted.
	var writers []*outfile.StreamWriter
	finished := false
	defer func() {
		if !finished { // error, cancellation or panic
			for _, w := range writers {
				w.Abort()
			}
		}
	}()
	if outPath != "-" {
		desc := "Predictions were generated by turbinesim (OpenFAST v5-compatible loose coupling) on " + time.Now().UTC().Format("02-Jan-2006 at 15:04:05") + " using the deck " + filepath.Base(d.Path)
		open := func(path string, f outfile.Format) error {
			w, err := outfile.Create(path, outfile.StreamOptions{
				Format: f, Description: desc, TimeChannel: outfile.Channel{Name: "Time", Unit: "s"}, Channels: chans,
				Outb: outfile.OutbOptions{FileID: outfile.FileIDChanLenIn, TimeStep: dtOut},
				Text: outfile.TextOptions{ValueFormat: m.OutFmt, TMax: s.tMax, SpaceDelimited: !m.TabDelim},
			})
			if err != nil {
				return fmt.Errorf("coupling: creating %s: %w", path, err)
			}
			writers = append(writers, w)
			return nil
		}
		switch m.OutFileFmt {
		case 1, 3, 5:
			res.TextPath = strings.TrimSuffix(outPath, filepath.Ext(outPath)) + ".out"
			if err := open(res.TextPath, outfile.FormatText); err != nil {
				return nil, err
			}
		}
		if m.OutFileFmt != 1 {
			res.OutPath = outPath
			if err := open(outPath, outfile.FormatOutb); err != nil {
				return nil, err
			}
		}
	}
	var times []float64
	var data [][]float64
	if opts.KeepData {
		rows := nSteps/decim + 1
		times = make([]float64, 0, rows)
		data = make([][]float64, len(cols))
		for i := range data {
			data[i] = make([]float64, 0, rows)
		}
	}
	row := make([]float64, len(cols))
	record := func(t float64) error {
		if t < m.TStart-1e-9*s.dt {
			return nil
		}
		for i, c := range cols {
			v := c.get(s)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &SimError{Time: t, Module: "output", Err: fmt.Errorf("channel %s is %v", c.Name, v)}
			}
			row[i] = v
		}
		if opts.KeepData {
			times = append(times, t)
			for i := range cols {
				data[i] = append(data[i], row[i])
			}
		}
		for _, w := range writers {
			if err := w.Append(t, row); err != nil {
				return fmt.Errorf("coupling: writing the output at t=%g s: %w", t, err)
			}
		}
		if progress != nil {
			progress(t, s.tMax)
		}
		return nil
	}
	if err := s.initialize(); err != nil {
		return nil, &SimError{Time: 0, Module: s.stage, Err: err}
	}
	if err := record(0); err != nil {
		return nil, err
	}
	for n := 0; n < nSteps; n++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("coupling: run cancelled at t=%.6g s: %w", float64(n)*s.dt, err)
		}
		if err := s.step(n); err != nil {
			return nil, &SimError{Time: s.t, Module: s.stage, Err: err}
		}
		if (n+1)%decim == 0 {
			if err := record(float64(n+1) * s.dt); err != nil {
				return nil, err
			}
		}
	}
	res.Steps = nSteps
	res.SimTime = float64(nSteps) * s.dt
	if opts.KeepData {
		res.Time, res.Data = times, data
	}
	for i, w := range writers {
		if err := w.Close(); err != nil {
			for _, rest := range writers[i+1:] {
				rest.Abort()
			}
			writers = nil
			return nil, fmt.Errorf("coupling: finishing the output: %w", err)
		}
	}
	finished = true
	res.Wall = time.Since(start)
	return res, nil
}

// build creates the modules and resolves the output channels.
func build(d *deck.Deck, opts Options) (*sim, []channel, []string, []string, error) {
	if d == nil || d.Main == nil {
		return nil, nil, nil, nil, errors.New("no deck")
	}
	m := d.Main
	if err := Supported(d); err != nil {
		return nil, nil, nil, nil, err
	}
	if !(m.DT > 0) {
		return nil, nil, nil, nil, fmt.Errorf("DT must be positive, got %v", m.DT)
	}
	var notes []string
	// A box shorter than the run is refused before anything is simulated
	// (InflowWind stops at the end of a non-periodic box); a periodic box
	// that repeats within the run is noted.
	warn, err := CheckWindDuration(d, opts.TMax)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if warn != "" {
		notes = append(notes, warn)
	}
	if m.ModCoupling != 1 {
		notes = append(notes, fmt.Sprintf("ModCoupling=%d: run with loose coupling (ModCoupling=1)", m.ModCoupling))
	}
	if m.NumCrctn != 0 {
		notes = append(notes, fmt.Sprintf("NumCrctn=%d: correction iterations are not performed", m.NumCrctn))
	}
	sp, err := structure.ParamsFromDeck(d)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if math.Abs(sp.DT-m.DT) > 1e-9*m.DT {
		return nil, nil, nil, nil, fmt.Errorf("ElastoDyn DT=%g differs from the glue DT=%g (sub-stepping is not supported)", sp.DT, m.DT)
	}
	// Without aerodynamics (CompAero = 0, e.g. free-decay tests) the
	// structure has no load stations and the rotor is not evaluated.
	var (
		ap                 aero.Params
		rotor              *aero.Rotor
		stations, crv, swp [][]float64
		twistRot, crvRot   [][]planeRotation
		lenPerSpan         [][]float64
		nAD                []int
		edR                []float64
		all                [][]float64
		twrElev            []float64
	)
	if m.CompAero == 2 {
		var aNotes []string
		ap, aNotes, err = aero.ParamsFromDeck(d)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		for _, n := range aNotes {
			notes = append(notes, "aero: "+n)
		}
		rotor, err = aero.New(ap)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		stations = make([][]float64, sp.NumBl)
		twistRot = make([][]planeRotation, sp.NumBl)
		crv = make([][]float64, sp.NumBl)
		swp = make([][]float64, sp.NumBl)
		crvRot = make([][]planeRotation, sp.NumBl)
		lenPerSpan = make([][]float64, sp.NumBl)
		for k := range stations {
			g := rotor.Blade(k)
			lenPerSpan[k] = make([]float64, len(g.Span)-1)
			for e := range lenPerSpan[k] {
				lenPerSpan[k][e] = g.ElementLength(e) / (g.Span[e+1] - g.Span[e])
			}
			stations[k] = append([]float64(nil), g.Span...)
			twistRot[k] = make([]planeRotation, len(g.Span))
			crv[k] = make([]float64, len(g.Span))
			crvRot[k] = make([]planeRotation, len(g.Span))
			swp[k] = make([]float64, len(g.Span))
			for i := range g.Span {
				if g.CrvAC != nil {
					crv[k][i] = g.CrvAC[i]
				}
				if g.SwpAC != nil {
					swp[k][i] = g.SwpAC[i]
				}
				if g.CrvAng != nil {
					crvRot[k][i] = newPlaneRotation(g.CrvAng[i])
				}
				twistRot[k][i] = newPlaneRotation(g.Twist[i])
			}
		}
		// Load stations: the AeroDyn nodes (for their motion) followed by
		// ElastoDyn's element-centre nodes, where OpenFAST's line-to-point
		// transfer delivers the aerodynamic loads.
		nAD = make([]int, sp.NumBl)
		edR = make([]float64, sp.BldNodes)
		for j := range edR {
			edR[j] = (float64(j) + 0.5) * (sp.TipRad - sp.HubRad) / float64(sp.BldNodes)
		}
		all = make([][]float64, sp.NumBl)
		for k := range stations {
			nAD[k] = len(stations[k])
			all[k] = append(append([]float64(nil), stations[k]...), edR...)
		}
		if ap.Tower != nil && (ap.TwrAero || ap.TwrPotent != 0 || ap.TwrShadow != 0) {
			twrElev = ap.Tower.Elev
		}
	}
	model, err := structure.NewModelWithTower(sp, all, twrElev)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	st, err := model.InitialState()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	sys := structure.NewSystem(model)
	s := &sim{
		dt: m.DT, tMax: m.TMax, interpOrder: m.InterpOrder,
		model: model, sys: sys, integ: structure.NewIntegrator(sys), st: st,
		uPrev2: model.NewInputs(), uPrev: model.NewInputs(), uCur: model.NewInputs(), uNext: model.NewInputs(),
		edOut: model.NewOutputs(), motion: model.NewMotions(),
		rotor: rotor, aeroIn: &aero.Input{},
		twistRot: twistRot, span: stations, crvAC: crv, swpAC: swp, crvRot: crvRot, lenPerSpan: lenPerSpan, nAD: nAD, edR: edR,
		airDens: ap.AirDens,
	}
	if rotor == nil {
		s.airDens = m.AirDens
	}
	if rotor != nil {
		s.aeroOut = rotor.NewOutput()
	}
	if opts.TMax > 0 {
		s.tMax = opts.TMax
	}
	nNodes := 0
	if rotor != nil {
		s.aeroIn.Blades = make([][]aero.BladeNodeMotion, sp.NumBl)
		for k := range s.aeroIn.Blades {
			s.aeroIn.Blades[k] = make([]aero.BladeNodeMotion, len(stations[k]))
			nNodes += len(stations[k])
		}
		s.arms = make([][][3]float64, sp.NumBl)
		for k := range s.arms {
			s.arms[k] = make([][3]float64, len(stations[k]))
		}
	}
	if len(twrElev) > 0 {
		s.aeroIn.Tower = make([]aero.TowerNodeMotion, len(twrElev))
		s.twrElev = twrElev
		nNodes += len(twrElev)
	}
	s.windPts = make([]inflow.Vec3, nNodes)
	s.windVel = make([]inflow.Vec3, nNodes)
	if m.CompInflow == 1 {
		wind, probes, err := inflowFromDeck(d)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		s.wind = wind
		s.probePts = probes
		s.probeVel = make([]inflow.Vec3, len(probes))
	} else {
		s.wind = stillAir{}
	}
	if err := s.buildOffshore(d, opts); err != nil {
		return nil, nil, nil, nil, err
	}
	notes = append(notes, s.notes...)
	if m.CompServo == 1 {
		if d.ServoDyn == nil {
			return nil, nil, nil, nil, errors.New("CompServo=1 but no ServoDyn input was loaded")
		}
		opt := control.DeckOptions{GlueDT: m.DT, NumBl: sp.NumBl}
		for k := 0; k < sp.NumBl && k < 3; k++ {
			opt.InitialPitch[k] = sp.Init.BlPitch[k]
		}
		srv, err := control.NewFromDeck(d.ServoDyn, opt)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		s.servo = srv
	}
	cols, dropped, err := resolveChannels(d, s, opts)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return s, cols, notes, dropped, nil
}

// closeWind releases the wind field's file (a streamed TurbSim box).
func (s *sim) closeWind() {
	if c, ok := s.wind.(io.Closer); ok {
		c.Close()
	}
}

// inflowFromDeck builds the wind field of the InflowWind input and the
// output points of its WindV*List.
func inflowFromDeck(d *deck.Deck) (inflow.Field, []inflow.Vec3, error) {
	iw := d.InflowWind
	if iw == nil {
		return nil, nil, errors.New("no InflowWind input was loaded")
	}
	var probes []inflow.Vec3
	for i := 0; i < iw.NWindVel && i < len(iw.WindVxiList) && i < len(iw.WindVyiList) && i < len(iw.WindVziList); i++ {
		probes = append(probes, inflow.Vec3{iw.WindVxiList[i], iw.WindVyiList[i], iw.WindVziList[i]})
	}
	// One reader of InflowWind's wind types for the whole solver: steady,
	// uniform file (IEC events, measured series), TurbSim and Bladed boxes.
	f, err := inflow.FromDeck(d)
	if err != nil {
		return nil, nil, fmt.Errorf("InflowWind: %w", err)
	}
	return f, probes, nil
}

// resolveChannels turns the requested OutLists into channels in OpenFAST's
// file order: glue-code channels, InflowWind, ElastoDyn, AeroDyn, ServoDyn.
func resolveChannels(d *deck.Deck, s *sim, opts Options) ([]channel, []string, error) {
	p := s.model.Params()
	ed := d.ElastoDyn
	edCat := edChannels(p.NumBl, ed.NBlGages, ed.TwrGagNd[:min(ed.NTwGages, len(ed.TwrGagNd))])
	nProbe := len(s.probePts)
	var blOutNd []int
	if d.AeroDyn != nil && d.AeroDyn.NBlOuts > 0 {
		blOutNd = d.AeroDyn.BlOutNd
		if len(blOutNd) > d.AeroDyn.NBlOuts {
			blOutNd = blOutNd[:d.AeroDyn.NBlOuts]
		}
	}
	var probe *aero.Output
	if s.rotor != nil {
		probe = s.rotor.NewOutput()
	}
	needNodes := 0
	lookup := func(name string) (channel, bool) {
		if c, ok := edCat[strings.ToUpper(name)]; ok {
			return c, true
		}
		if c, kb, ok := edGageChannel(name, ed.BldGagNd[:min(ed.NBlGages, len(ed.BldGagNd))], p.NumBl); ok {
			needNodes = max(needNodes, kb)
			return c, true
		}
		// ElastoDyn blade-node channels B<b>N<nnn><Q>.
		var kb, jn int
		var q string
		if n, _ := fmt.Sscanf(name, "B%1dN%3d%s", &kb, &jn, &q); n == 3 && kb >= 1 && kb <= p.NumBl && jn >= 1 && jn <= p.BldNodes {
			if c, ok := edNodalChannel(q, kb-1, jn-1); ok {
				needNodes = max(needNodes, kb)
				return c, true
			}
		}
		if c, ok := inflowChannel(name, nProbe); ok {
			return c, true
		}
		if probe != nil {
			if c, ok := aeroChannel(name, blOutNd, probe); ok {
				return c, true
			}
		}
		if c, ok := servoChannel(name); ok {
			return c, true
		}
		if c, ok := s.offshoreChannel(name); ok {
			return c, true
		}
		// AeroDyn's selected-node channels B<b>N<k><Q> for k beyond NBlOuts
		// are written as zeros with unit INVALID, as OpenFAST does.
		if n, _ := fmt.Sscanf(name, "B%1dN%1d%s", &kb, &jn, &q); n == 3 && jn > len(blOutNd) && jn <= 9 {
			return channel{Name: name, Unit: "INVALID", get: func(*sim) float64 { return 0 }}, true
		}
		return channel{}, false
	}
	// OpenFAST's output lists read a leading "-" or "_", or an "m" or "M"
	// that does not begin a channel's name, as "minus": the channel
	// negated, under the name as written (NWTC library,
	// FindValidChannelIndx; ElastoDyn's SetOutParam keeps the name).
	resolve := func(name string) (channel, bool) {
		if c, ok := lookup(name); ok {
			return c, true
		}
		if name == "" || !strings.ContainsRune("-_mM", rune(name[0])) {
			return channel{}, false
		}
		c, ok := lookup(name[1:])
		if !ok {
			return channel{}, false
		}
		get := c.get
		c.Name = name
		c.get = func(s *sim) float64 { return 0 - get(s) }
		return c, true
	}
	// v5 glue-code channels as OpenFAST v5.0.0 writes them for loose
	// coupling: one "iteration" per step, no error, one Jacobian count at
	// initialisation.
	cols := []channel{
		{Name: "ConvIter", Unit: "-", get: func(s *sim) float64 { return b2f(s.t > 0) }},
		{Name: "ConvError", Unit: "-", get: func(*sim) float64 { return 0 }},
		{Name: "NumUJac", Unit: "-", get: func(s *sim) float64 { return b2f(s.t == 0) }},
	}
	var requested []string
	if opts.Channels != nil {
		requested = opts.Channels
	} else {
		if d.InflowWind != nil {
			requested = append(requested, d.InflowWind.OutList...)
		}
		requested = append(requested, ed.OutList...)
		if ed.Nodal.Present && ed.Nodal.BladesOut > 0 {
			for _, q := range ed.Nodal.OutList {
				for k := 0; k < ed.Nodal.BladesOut && k < p.NumBl; k++ {
					for j := 0; j < p.BldNodes; j++ {
						requested = append(requested, fmt.Sprintf("B%dN%03d%s", k+1, j+1, q))
					}
				}
			}
		}
		if d.AeroDyn != nil {
			requested = append(requested, d.AeroDyn.OutList...)
			if nd := d.AeroDyn.Nodal; nd.Present && nd.BladesOut > 0 {
				for _, q := range nd.OutList {
					for k := 0; k < nd.BladesOut && k < p.NumBl; k++ {
						for j := 0; j < s.rotor.NumNodes(k); j++ {
							requested = append(requested, fmt.Sprintf("AB%dN%03d%s", k+1, j+1, q))
						}
					}
				}
			}
		}
		if d.ServoDyn != nil {
			requested = append(requested, d.ServoDyn.OutList...)
		}
		requested = append(requested, s.offshoreOutLists()...)
	}
	var dropped, unknown []string
	for _, name := range requested {
		c, ok := resolve(name)
		if !ok {
			if opts.SkipUnsupported {
				dropped = append(dropped, name)
				continue
			}
			unknown = append(unknown, name)
			continue
		}
		cols = append(cols, c)
	}
	if needNodes > 0 {
		s.edOut = s.model.NewOutputsWithNodes(needNodes)
	}
	towerGages := false
	for _, c := range cols {
		if c.detail {
			s.edOut.EnableDetail()
		}
		towerGages = towerGages || c.towerGage
	}
	// The tower gages' section loads and motions are computed only for a
	// run that asks for one of their channels.
	if n := min(ed.NTwGages, len(ed.TwrGagNd)); n > 0 && towerGages {
		gages := make([]int, n)
		for g, nd := range ed.TwrGagNd[:n] {
			gages[g] = nd - 1
		}
		s.edOut.SetTowerGages(gages)
	}
	if len(unknown) > 0 {
		var extra []string
		for i := 1; i <= nProbe; i++ {
			extra = append(extra, fmt.Sprintf("Wind%dVelX, Wind%dVelY, Wind%dVelZ", i, i, i))
		}
		extra = append(extra, "AeroDyn: RtSpeed, RtTSR, RtVAvgxh/yh/zh, RtSkew, RtFldFxh/Fyh/Fzh, RtFldMxh/Myh/Mzh, RtFldPwr, RtArea, RtFldCp/Cq/Ct, B<b>N<k><Q>, AB<b>N<nnn><Q>")
		var srv []string
		for _, c := range control.OutputChannels() {
			srv = append(srv, c.Name)
		}
		extra = append(extra, "ServoDyn: "+strings.Join(srv, ", "))
		return nil, nil, fmt.Errorf("unknown output channel(s) %s; valid channels: %s", strings.Join(unknown, ", "), validNames(edCat, extra))
	}
	return cols, dropped, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
