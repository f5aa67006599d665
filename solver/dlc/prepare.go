package dlc

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/control/bladed"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windgen"
)

// WindDir is the folder, next to the written .fst, that receives the run's
// wind file.
const WindDir = "Wind"

// PrepareOptions tune PrepareRunWith.
type PrepareOptions struct {
	// SteadyState sets the initial rotor speed and blade pitch from the
	// run's mean wind speed; nil leaves the deck's initial conditions.
	SteadyState SteadyState
	// Boxes, when not nil, holds the batch's turbulence boxes: a run's box
	// is taken from it (generated there once) and linked into the run's
	// Wind/ folder.
	Boxes *BoxCache
	// Notes, when not nil, receives what the run's log should say about
	// the initial conditions chosen (a floating platform's start).
	Notes *[]string
}

// PrepareRun writes one run into dir: the run's wind file (a TurbSim .bts
// for turbulent winds, an InflowWind uniform-wind file for events and steady
// NWP) under dir's Wind/ folder next to the .fst, and a copy of the deck
// (through deck.Write) with:
//
//   - InflowWind pointing at the wind file: WindType 3 with FileName_BTS
//     (the box carries its own URef and hub height; RefHt and HWindSpeed are
//     set to the hub height and speed for consistency), or WindType 2 with
//     FileName_Uni, RefHt_Uni = hub height and RefLength = rotor diameter
//     (the conventions windgen's event rows assume);
//   - the yaw misalignment applied through the wind direction:
//     PropagationDir = Run.Yaw. A positive PropagationDir turns the wind
//     from +X towards −Y, i.e. clockwise seen from above, which leaves the
//     rotor turned counter-clockwise relative to the wind: the same
//     misalignment as NacYaw = +Yaw in still wind. NacYaw is not changed,
//     so a yaw controller (if any) starts aligned with its own set-point;
//   - TMax = Run.TMax; DT_Out and TStart unchanged (the transient is
//     discarded in post-processing);
//   - the initial rotor speed and blade pitch from the deck's steady-state
//     table (SteadyStateFromDeck) when it has one; parked states start with
//     feathered blades (90°) and a standing rotor;
//   - on a floating platform (FloatingPlatform), the initial platform
//     displacements PtfmSurge … PtfmYaw at the platform's static
//     equilibrium under the run's mean rotor load (PlatformStartFor); the
//     mooring lines' initial state is solved for the displaced fairleads
//     by the run itself;
//   - operating-state changes through ServoDyn's timed manoeuvres (see
//     applyState): grid loss, shut-down, emergency stop, start-up.
//
// The Deck is not modified. It returns the path of the written .fst.
func PrepareRun(ctx context.Context, d *deck.Deck, run Run, dir string) (string, error) {
	ss, err := SteadyStateFromDeck(d)
	if err != nil {
		ss = nil // no usable table: leave the initial conditions
	}
	return PrepareRunWith(ctx, d, run, dir, PrepareOptions{SteadyState: ss})
}

// CheckRun makes every check PrepareRunWith makes before it generates the
// wind, without generating it: the deck has InflowWind, the run has exactly
// one valid wind spec (turbulence parameters resolved and the grid
// checked, or the event's rows built), a positive TMax, a yaw in
// [−180°, 180°], an id usable as a file name, and the wind's hub height
// matches the deck's. It costs microseconds for a turbulent run (the box
// is not synthesised), so a service can check a whole load basis at
// submit time and leave the generation to the run itself.
func CheckRun(d *deck.Deck, run Run) error {
	_, err := checkRun(d, run)
	return err
}

// checkRun is CheckRun; it returns the hub height of the run's wind.
func checkRun(d *deck.Deck, run Run) (float64, error) {
	if d == nil || d.Main == nil {
		return 0, fmt.Errorf("dlc: prepare %s: no deck", run.ID)
	}
	if d.InflowWind == nil || d.Main.CompInflow != 1 {
		return 0, fmt.Errorf("dlc: prepare %s: the deck has no InflowWind (CompInflow = %d, must be 1)", run.ID, d.Main.CompInflow)
	}
	if (run.Turbulence == nil) == (run.Event == nil) {
		return 0, fmt.Errorf("dlc: prepare %s: a run needs exactly one of a turbulence spec and an event spec", run.ID)
	}
	if !(run.TMax > 0) || math.IsInf(run.TMax, 0) {
		return 0, fmt.Errorf("dlc: prepare %s: TMax %g s must be positive", run.ID, run.TMax)
	}
	if math.IsNaN(run.Yaw) || math.Abs(run.Yaw) > 180 {
		return 0, fmt.Errorf("dlc: prepare %s: yaw %g° out of [−180, 180]", run.ID, run.Yaw)
	}
	if fileStem(run.ID) == "" {
		return 0, fmt.Errorf("dlc: prepare: run has no id")
	}
	if err := checkSeaState(d, run); err != nil {
		return 0, err
	}
	var hub float64
	if ts := run.Turbulence; ts != nil {
		if err := ts.Validate(); err != nil {
			return 0, fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		hub = ts.Grid.HubHeight
	} else {
		if _, _, err := eventRows(*run.Event, run.TMax); err != nil {
			return 0, fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		hub = run.Event.Site.HubHeight
	}
	if d.ElastoDyn != nil {
		// The box or uniform file is centred on the run's hub height; a
		// turbine of another height would sit off the grid's centre (or
		// outside it).
		if dh := HubHeight(d.ElastoDyn); math.Abs(dh-hub) > math.Max(1, 0.02*dh) {
			return 0, fmt.Errorf("dlc: prepare %s: the run's hub height %g m differs from the deck's %.2f m (ElastoDyn TowerHt + Twr2Shft + OverHang·sin ShftTilt)", run.ID, hub, dh)
		}
	}
	return hub, nil
}

// PrepareRunWith is PrepareRun with explicit options.
func PrepareRunWith(ctx context.Context, d *deck.Deck, run Run, dir string, opt PrepareOptions) (string, error) {
	hub, err := checkRun(d, run)
	if err != nil {
		return "", err
	}
	name := fileStem(run.ID)

	// Shallow copies of every structure changed; slices are not written.
	nd := *d
	m := *d.Main
	nd.Main = &m
	iw := *d.InflowWind
	nd.InflowWind = &iw
	if d.ElastoDyn != nil {
		ed := *d.ElastoDyn
		nd.ElastoDyn = &ed
	}
	if d.ServoDyn != nil {
		sd := *d.ServoDyn
		nd.ServoDyn = &sd
	}
	// Thrust and Ct of a load case are those of the aerodynamic rotor
	// thrust (AeroDyn RtFldFxh; RotThrust adds the rotor's weight along the
	// tilted shaft), so every load-case run records it.
	if d.AeroDyn != nil && !slices.ContainsFunc(d.AeroDyn.OutList, isAeroThrust) {
		ad := *d.AeroDyn
		ad.OutList = append(slices.Clone(d.AeroDyn.OutList), "RtFldFxh")
		nd.AeroDyn = &ad
	}
	// The run's sea state goes into the deck's SeaState file.
	if ss := run.SeaState; ss != nil {
		g, err := seaStateFile(d.Offshore.SeaState, ss, run.TMax)
		if err != nil {
			return "", fmt.Errorf("dlc: prepare %s: sea state: %w", run.ID, err)
		}
		nd.Offshore.SeaState = g
	}
	// The old wind file is no longer referenced: do not copy it.
	nd.Files = nil
	for _, f := range d.Files {
		if isWindVar(f.Var) {
			continue
		}
		nd.Files = append(nd.Files, f)
	}

	// Check the wind first, so a bad spec writes nothing. Event files are
	// small and kept in memory; a box is generated straight into its file
	// after the deck (windgen.GenerateTurbulenceFile: one velocity
	// component in memory at a time).
	var eventText bytes.Buffer
	var cached string // the box's file in opt.Boxes
	var ext string
	var vHub float64
	if ts := run.Turbulence; ts != nil {
		if opt.Boxes != nil {
			if cached, err = opt.Boxes.Box(ctx, *ts); err != nil {
				return "", fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
			}
		} else if err := ts.Validate(); err != nil {
			return "", fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		tg, err := ts.Targets() // the box's URef: V_ref-based for EWM
		if err != nil {
			return "", fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		ext, vHub = ".bts", tg.VHub
	} else {
		ev := run.Event
		rows, info, err := eventRows(*ev, run.TMax)
		if err != nil {
			return "", fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		if err := windgen.WriteUniform(&eventText, rows, info, ev.Site); err != nil {
			return "", fmt.Errorf("dlc: prepare %s: wind: %w", run.ID, err)
		}
		ext, vHub = ".hh", ev.Site.VHub
	}
	windName := name + ext

	// Paths: the wind file sits in Wind/ next to the .fst; InflowWind names
	// it relative to its own folder. deck.Write keeps the deck's relative
	// layout, so relations between virtual paths hold in the output.
	mainV := d.Path
	if mainV == "" {
		mainV = filepath.FromSlash("/deck/deck.fst")
	}
	inflowV := resolve(mainV, m.InflowFile)
	windV := filepath.Join(filepath.Dir(mainV), WindDir, windName)
	rel, err := filepath.Rel(filepath.Dir(inflowV), windV)
	if err != nil {
		return "", fmt.Errorf("dlc: prepare %s: wind path: %w", run.ID, err)
	}
	rel = filepath.ToSlash(rel)

	iw.PropagationDir = run.Yaw
	if run.Turbulence != nil {
		iw.WindType = 3
		iw.FileName_BTS = rel
		iw.HWindSpeed, iw.RefHt = vHub, hub
	} else {
		iw.WindType = 2
		iw.FileName_Uni = rel
		iw.RefHt_Uni = hub
		iw.RefLength = run.Event.Site.RotorDiameter
		iw.HWindSpeed, iw.RefHt = vHub, hub
	}
	m.TMax = run.TMax

	if ed := nd.ElastoDyn; ed != nil {
		if rpm, pitch, ok := opt.SteadyState.At(run.WindSpeed); ok && operating(run.State) {
			ed.RotSpeed = rpm
			for i := range ed.BlPitch {
				ed.BlPitch[i] = pitch
			}
		}
		if FloatingPlatform(d) {
			// A floating platform starts at its static equilibrium under
			// the run's mean rotor load, not at rest undisplaced, so the
			// run does not spend its first minutes drifting there
			// (docs/events.md §6).
			ps, err := PlatformStartFor(ctx, d, run, opt.SteadyState)
			switch {
			case err == nil:
				ed.PtfmSurge, ed.PtfmSway, ed.PtfmHeave = ps.Disp[0], ps.Disp[1], ps.Disp[2]
				ed.PtfmRoll, ed.PtfmPitch, ed.PtfmYaw = ps.Disp[3], ps.Disp[4], ps.Disp[5]
				note(opt, fmt.Sprintf("floating platform started at its static equilibrium under a rotor thrust of %.3g MN (surge %.2f m, sway %.2f m, heave %.2f m, roll %.2f°, pitch %.2f°, yaw %.2f°)",
					ps.Thrust/1e6, ps.Disp[0], ps.Disp[1], ps.Disp[2], ps.Disp[3], ps.Disp[4], ps.Disp[5]))
			case ctx.Err() != nil:
				return "", fmt.Errorf("dlc: prepare %s: %w", run.ID, ctx.Err())
			default:
				// The run can still start from the deck's own initial
				// position; it then carries the start-up drift.
				slog.WarnContext(ctx, "floating platform starts at the deck's initial position: no static equilibrium", "run", run.ID, "err", err)
				note(opt, "floating platform started at the deck's initial position: its static equilibrium was not found")
			}
		}
	}
	// A controller the solver cannot build is refused by the run itself
	// with its own message; the manoeuvres then use the default rates.
	lim, _, err := control.DeckActuatorLimits(d)
	if err != nil {
		lim = bladed.ActuatorLimits{}
	}
	applyState(&nd, run, lim)

	fst, err := deck.Write(dir, &nd)
	if err != nil {
		return "", fmt.Errorf("dlc: prepare %s: %w", run.ID, err)
	}
	windPath := filepath.Join(filepath.Dir(fst), WindDir, windName)
	if err := os.MkdirAll(filepath.Dir(windPath), 0o755); err != nil {
		return "", fmt.Errorf("dlc: prepare %s: %w", run.ID, err)
	}
	switch {
	case cached != "":
		err = linkOrCopy(cached, windPath)
	case run.Turbulence != nil:
		err = windgen.GenerateTurbulenceFile(ctx, *run.Turbulence, windPath)
	default:
		err = os.WriteFile(windPath, eventText.Bytes(), 0o644)
	}
	if err != nil {
		return "", fmt.Errorf("dlc: prepare %s: wind file: %w", run.ID, err)
	}
	return fst, nil
}

// note adds a line for the run's log to opt.Notes.
func note(opt PrepareOptions, line string) {
	if opt.Notes != nil {
		*opt.Notes = append(*opt.Notes, line)
	}
}

// isWindVar says whether v is one of InflowWind's wind-file variables
// (deck.FileRef.Var).
func isWindVar(v string) bool {
	switch v {
	case "FileName_Uni", "FileName_BTS", "FileNameRoot", "FileName_u", "FileName_v", "FileName_w":
		return true
	}
	return false
}

// eventRows makes the uniform-wind rows of an event, or of a steady normal
// wind profile (NWP, IEC 61400-1 §6.3.2.2: power law with α = 0.2).
func eventRows(ev EventSpec, tMax float64) ([]windgen.UniformWindRow, windgen.EventInfo, error) {
	if ev.Kind != EventSteady {
		return windgen.GenerateEvent(ev.Kind, ev.Site, ev.Timing, ev.Sign)
	}
	v := ev.Site.VHub
	if !(v > 0) {
		return nil, windgen.EventInfo{}, fmt.Errorf("NWP: hub speed %g m/s must be positive", v)
	}
	alpha := windgen.NormalShearExponent
	if ev.Site.ShearExponent != nil {
		alpha = *ev.Site.ShearExponent
	}
	rows := []windgen.UniformWindRow{{Time: 0, Speed: v, PowerLaw: alpha}, {Time: tMax, Speed: v, PowerLaw: alpha}}
	return rows, windgen.EventInfo{Name: "NWP"}, nil
}

// operating says whether the rotor starts from a power-production
// operating point.
func operating(s TurbineState) bool {
	switch s {
	case PowerProduction, ProductionFault, NormalShutdown, EmergencyStop:
		return true
	}
	return false
}

// Pitch rates of the state changes [deg/s]: a normal shut-down pitches at
// a moderate rate, an emergency stop and the grid-loss safety system at the
// fastest rate of the deck's pitch actuator (its controller's PC_MaxRat;
// 8°/s for the NREL 5 MW, Jonkman et al. 2009 §7.4, taken when the deck
// states none) [U for the normal rate]. Neither exceeds the actuator's
// limit (see manoeuvreRates).
const (
	NormalPitchRate    = 4.0
	EmergencyPitchRate = 8.0
	FeatherPitch       = 90.0
	// StuckPitchRate is the manoeuvre rate of a seized blade [deg/s]: not
	// zero (ServoDyn requires a positive PitManRat) but too slow to move
	// the blade within any run.
	StuckPitchRate = 1e-6
)

// applyState sets the initial conditions and ServoDyn manoeuvres of the
// run's turbine state:
//   - parked states: blades feathered (BlPitch = PitNeut = 90°), rotor speed 0,
//     generator never on (GenTiStr with TimGenOn beyond TMax), pitch
//     control off (PCMode 0) so the blades stay feathered (idling rotor);
//   - ProductionFault with FaultGridLoss (or no fault named): at EventTime
//     the generator trips (GenTiStp, TimGenOf) and the blades pitch to
//     feather at the emergency rate (TPitManS, PitManRat, BlPitchF);
//     FaultStuckBlade: the same, but blade 1 holds its pitch;
//     FaultYawError: nothing (the misalignment is the wind direction);
//   - NormalShutdown: the same at the normal pitch rate;
//   - EmergencyStop: the same at the emergency rate, and the HSS brake
//     deployed at EventTime (HSSBrMode 1, THSSBrDp) when the deck gives
//     its torque and deployment time (HSSBrTqF, HSSBrDT > 0);
//   - StartUp: rotor idling with feathered blades and pitch control from
//     EventTime on (TPCOn; ServoDyn ramps the blades out of feather at the
//     actuator's rate); the generator is switched on at EventTime
//     (GenTiStr, TimGenOn), or with a DLL torque controller when the
//     rotor reaches the controller's cut-in speed (SpdGenOn); a deck
//     without pitch control (PCMode 0) pitches from feather to its
//     neutral pitch at the normal rate instead.
//
// The manoeuvre rates come from lim (manoeuvreRates); docs/events.md
// lists the hand calculations the tests check.
//
// Decks without ServoDyn only get the ElastoDyn initial conditions.
func applyState(d *deck.Deck, run Run, lim bladed.ActuatorLimits) {
	ed, sd := d.ElastoDyn, d.ServoDyn
	emergencyRate, normalRate := manoeuvreRates(lim)
	// The deck's operating pitch without control, before feather():
	// PitNeut, or for decks without it the initial ElastoDyn pitch (what
	// ServoDyn then uses as neutral).
	var runPitch [3]float64
	switch {
	case sd != nil && (sd.Meta.Has("PitNeut") || sd.Meta.Has("PitNeut(1)")):
		runPitch = sd.PitNeut
	case ed != nil:
		runPitch = ed.BlPitch
	}
	// feather starts the rotor standing with feathered blades. Without
	// active pitch control ServoDyn commands the neutral pitch PitNeut
	// (the initial ElastoDyn pitch only for decks without PitNeut), so
	// PitNeut is feathered too: otherwise the blades of a parked rotor
	// would go to PitNeut (0° for the NREL 5 MW) at the first step.
	feather := func() {
		if ed != nil {
			ed.RotSpeed = 0
			for i := range ed.BlPitch {
				ed.BlPitch[i] = FeatherPitch
			}
		}
		if sd != nil {
			for i := range sd.PitNeut {
				sd.PitNeut[i] = FeatherPitch
			}
		}
	}
	never := run.TMax + 1000
	switch run.State {
	case Parked, ParkedFault, TransportMaintenance:
		feather()
		if sd != nil {
			sd.PCMode = 0
			sd.GenTiStr, sd.TimGenOn = true, never
			for i := range sd.TPitManS {
				sd.TPitManS[i] = never
			}
		}
	case ProductionFault, NormalShutdown, EmergencyStop:
		if run.State == ProductionFault && run.Fault == FaultYawError {
			return // the fault is the yaw misalignment of the wind itself
		}
		rate := emergencyRate
		if run.State == NormalShutdown {
			rate = normalRate
		}
		if sd != nil && run.EventTime > 0 {
			sd.GenTiStp, sd.TimGenOf = true, run.EventTime
			for i := range sd.TPitManS {
				sd.TPitManS[i] = run.EventTime
				sd.PitManRat[i] = rate
				sd.BlPitchF[i] = FeatherPitch
			}
			if run.State == EmergencyStop && sd.HSSBrMode != control.ModeDLL && sd.HSSBrTqF > 0 && sd.HSSBrDT > 0 {
				// The protection system's stop also deploys the HSS brake
				// at the event: ServoDyn's simple brake (HSSBrMode 1) with
				// the deck's own HSSBrTqF and HSSBrDT [U for the timing;
				// the brake of a controller that drives it (mode 5) is
				// left to the controller].
				sd.HSSBrMode, sd.THSSBrDp = control.ModeSimple, run.EventTime
			}
			if run.State == ProductionFault && run.Fault == FaultStuckBlade && len(sd.TPitManS) > 0 {
				// Blade 1 seized: ServoDyn's manoeuvre starts from the
				// blade's pitch at TPitManS, so a rate of StuckPitchRate
				// holds that pitch (0.0001° over a 100-s run); the
				// manoeuvre also overrides the controller's demand.
				sd.PitManRat[0] = StuckPitchRate
			}
		}
	case StartUp:
		feather()
		if sd != nil && run.EventTime > 0 {
			sd.GenTiStr, sd.TimGenOn = true, run.EventTime
			sd.TPCOn = run.EventTime
			if sd.VSContrl == control.ModeDLL && lim.CutInGenSpeed > 0 {
				// The controller starts the turbine: its pitch demand takes
				// over at TPCOn and ServoDyn ramps the blades out of
				// feather at the actuator's rate (ServoDyn.ActuatorLimits);
				// the generator is connected when the rotor reaches the
				// controller's cut-in generator speed (VS_CtInSp,
				// VS_MinOMSpd), not while the rotor stands.
				sd.GenTiStr, sd.SpdGenOn = false, lim.CutInGenSpeed/rpmToRadPerSec
			}
			if sd.PCMode == 0 {
				// No pitch controller to bring the blades in: pitch from
				// feather to the deck's neutral (operating) pitch at the
				// normal rate.
				for i := range sd.TPitManS {
					sd.TPitManS[i] = run.EventTime
					sd.PitManRat[i] = normalRate
					sd.BlPitchF[i] = runPitch[i]
				}
			}
		}
	}
}

// rpmToRadPerSec converts rpm to rad/s.
const rpmToRadPerSec = math.Pi / 30

// manoeuvreRates are the emergency and normal pitch rates of the timed
// manoeuvres [deg/s] for a pitch actuator limited to lim.PitchRate (rad/s;
// zero: EmergencyPitchRate): the emergency rate is the actuator's limit,
// the normal rate NormalPitchRate or the limit when that is slower.
func manoeuvreRates(lim bladed.ActuatorLimits) (emergency, normal float64) {
	emergency = EmergencyPitchRate
	if lim.PitchRate > 0 {
		emergency = lim.PitchRate * 180 / math.Pi
	}
	return emergency, math.Min(NormalPitchRate, emergency)
}

func resolve(from, name string) string {
	n := filepath.FromSlash(strings.ReplaceAll(name, `\`, "/"))
	if filepath.IsAbs(n) {
		return filepath.Clean(n)
	}
	return filepath.Join(filepath.Dir(from), n)
}

// fileStem turns a run id into a file name: letters, digits, '.', '_',
// '+', '-' kept, anything else replaced by '_'.
func fileStem(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '+', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), ".")
}

// isAeroThrust reports whether an OutList entry names AeroDyn's rotor
// thrust (RtFldFxh, or RtAeroFxh before OpenFAST v4), with or without a
// quoted or comma-separated list around it.
func isAeroThrust(entry string) bool {
	for _, f := range strings.FieldsFunc(entry, func(r rune) bool { return r == ',' || r == '"' || r == ' ' || r == '\t' }) {
		if strings.EqualFold(f, "RtFldFxh") || strings.EqualFold(f, "RtAeroFxh") {
			return true
		}
	}
	return false
}
