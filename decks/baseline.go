package decks

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/control/baseline"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/perf"
)

// A deck built from scratch runs the built-in NREL 5 MW baseline controller
// (ServoDyn PCMode = VSContrl = 5, DLL_FileName DISCON.dll) with constants
// retuned to the requested turbine, written to a baseline parameter file
// (solver/control/baseline ParseParams) that DLL_InFile names.

// builtBaselineFile is the name of the baseline parameter file a build
// writes next to the ServoDyn file.
const builtBaselineFile = "Baseline_Controller.in"

// builtBaselineMarker is the first line of a baseline parameter file the
// builder wrote; PUT /turbines/{id} retunes only files that carry it.
const builtBaselineMarker = "turbinesim baseline controller parameters, written by the turbine builder"

// builtWarningPrefix starts a header line of a built parameter file that
// is also a warning to the user (Warnings reads them back).
const builtWarningPrefix = "WARNING: "

// The NREL 5 MW rotor and drive train the baseline constants are tuned to
// (Jonkman et al. 2009, Table 1-1 and §7): tip radius and gearbox ratio;
// and the pitch regulator's response (§7.2).
const (
	nrel5MWTipRadM       = 63.0
	nrel5MWGearboxRatio  = 97.0
	pitchDampingRatio    = 0.7  // ζ of the pitch regulator, Jonkman et al. 2009 §7.2
	pitchNaturalFreqRadS = 0.6  // ω_n of the pitch regulator, Jonkman et al. 2009 §7.2
	cutOutWindSpeed      = 25.0 // m/s, the last region-3 point of the pitch sensitivity (Jonkman et al. 2009 Table 1-1)
)

// drivetrainInertia is the rotational inertia about the low-speed shaft
// (kg m^2): the blades' distributed mass (ElastoDyn BMassDen × AdjBlMs,
// trapezoidal over BlFract, at radius HubRad + span, precone neglected),
// the hub (HubIner) and the generator seen through the gearbox
// (GBRatio² × GenIner). For the NREL 5 MW deck this gives 43,576,670
// kg m^2, 0.48 % below the report's 43,784,725 (Jonkman et al. 2009 §7.2).
func drivetrainInertia(ed *deck.ElastoDyn) (float64, error) {
	if len(ed.Blades) == 0 {
		return 0, fmt.Errorf("ElastoDyn has no blade files to take the rotor inertia from")
	}
	bladeLen := ed.TipRad - ed.HubRad
	rotor := ed.HubIner
	for i := 0; i < ed.NumBl && i < len(ed.Blades); i++ {
		b := ed.Blades[i]
		if b == nil || len(b.BlFract) < 2 || len(b.BMassDen) != len(b.BlFract) {
			return 0, fmt.Errorf("ElastoDyn blade %d has no distributed mass table", i+1)
		}
		adj := b.AdjBlMs
		if adj == 0 {
			adj = 1
		}
		f := func(k int) float64 {
			r := ed.HubRad + b.BlFract[k]*bladeLen
			return adj * b.BMassDen[k] * r * r
		}
		for k := 1; k < len(b.BlFract); k++ {
			rotor += 0.5 * (f(k-1) + f(k)) * (b.BlFract[k] - b.BlFract[k-1]) * bladeLen
		}
	}
	return rotor + ed.GBRatio*ed.GBRatio*ed.GenIner, nil
}

// tuneBaselineController returns the baseline constants for the turbine of
// ed at the given rated electrical power, rated rotor speed and generator
// efficiency (%), scaled from the NREL 5 MW values (baseline.DefaultParams):
//   - generator speeds follow rated rotor speed × gearbox ratio: PC_RefSpd
//     is rated, VS_RtGnSp, VS_Rgn2Sp and VS_CtInSp keep their 5 MW ratios
//     to it (0.99, 0.742, 0.571);
//   - VS_RtPwr is the rated mechanical power (electrical / GenEff, as the
//     5 MW's 5,296,610 W); VS_MaxTq is 1.1 × rated torque (VS_RtPwr /
//     PC_RefSpd) and VS_MaxRat scales with rated torque;
//   - VS_Rgn2K = π ρ R^5 Cp / (2 λ^3 G^3) scales with R^5 / G^3 (same blade
//     aerodynamics, Jonkman et al. 2009 §7.1);
//   - the pitch PI gains follow Jonkman et al. 2009 §7.2,
//     KP = 2 I Ω0 ζ ωn / (G (−∂P/∂θ(0))), KI = I Ω0 ωn² / (G (−∂P/∂θ(0))),
//     with ζ = 0.7, ωn = 0.6 rad/s, I the drive-train inertia of the deck
//     (drivetrainInertia) and Ω0 the rated rotor speed; ∂P/∂θ(0) and PC_KK
//     (θK, where the sensitivity doubles) come from the linear fit
//     ∂P/∂θ(θ) = ∂P/∂θ(0) (1 + θ/θK) of the rotor's own frozen-wake pitch
//     sensitivity at rated rotor speed and rated mechanical power, from
//     rated wind speed to 25 m/s (perf.PitchSensitivityAt on the deck's
//     AeroDyn rotor, quasi-steady BEMT). Where that cannot be had — the
//     fit's zero-pitch sensitivity not negative (a blade whose power
//     rises when pitched from zero at rated) or rated power not reached
//     at zero pitch below 25 m/s — the gains fall back to the 5 MW
//     −25.52 MW/rad scaled with rated power and PC_KK keeps the 5 MW
//     value; the returned note (written into the file) says which, and
//     its warning, for the user, says that the gains are not this rotor's.
//
// The sensitivity sweep (15 or so BEM operating points, about 0.2 s) stops
// when ctx is done, and the error is returned rather than the fallback.
//
// With the NREL 5 MW deck at 5000 kW, 12.1 rpm and 94.4 % this reproduces
// DefaultParams to 1e-6 in the speeds, powers and torques; the computed
// sensitivity is −23.47 MW/rad at zero pitch and θK 5.49° (report −25.52
// MW/rad and 6.30°, from FAST's older AeroDyn), so PC_KP and PC_KI come out
// 8 % above the report's and PC_KK 13 % below.
func tuneBaselineController(ctx context.Context, d *deck.Deck, genEffPct, ratedPowerKW, ratedRotorRPM float64) (p baseline.Params, note sensitivityNote, err error) {
	p = baseline.DefaultParams()
	ref := baseline.DefaultParams()
	ed := d.ElastoDyn
	if ed == nil || d.AeroDyn == nil || d.Main == nil {
		return p, note, fmt.Errorf("tuning the baseline controller: the deck lacks ElastoDyn or AeroDyn")
	}
	if !(ed.GBRatio > 0) || !(genEffPct > 0) {
		return p, note, fmt.Errorf("tuning the baseline controller: gearbox ratio %g and generator efficiency %g %% must be positive", ed.GBRatio, genEffPct)
	}
	rotorSpeed := ratedRotorRPM * math.Pi / 30
	genSpeed := rotorSpeed * ed.GBRatio
	speedScale := genSpeed / ref.PitchRefSpeed
	p.PitchRefSpeed = genSpeed
	p.RatedGenSpeed = ref.RatedGenSpeed * speedScale
	p.Rgn2Speed = ref.Rgn2Speed * speedScale
	p.CutInSpeed = ref.CutInSpeed * speedScale

	p.RatedPower = ratedPowerKW * 1000 / (genEffPct / 100)
	ratedTorque := p.RatedPower / genSpeed
	p.MaxTorque = 1.1 * ratedTorque
	p.MaxTorqueRate = ref.MaxTorqueRate * ratedTorque / (ref.RatedPower / ref.PitchRefSpeed)
	p.Rgn2K = ref.Rgn2K * math.Pow(ed.TipRad/nrel5MWTipRadM, 5) * math.Pow(nrel5MWGearboxRatio/ed.GBRatio, 3)

	inertia, err := drivetrainInertia(ed)
	if err != nil {
		return p, note, fmt.Errorf("tuning the baseline controller: %w", err)
	}
	dPdTheta0, sn, err := rotorPitchSensitivity(ctx, d, rotorSpeed, p.RatedPower)
	if err != nil {
		return p, note, err
	}
	if dPdTheta0 < 0 {
		p.PitchKK = sn.pitchDoubling
	} else {
		dPdTheta0 = nrel5MWDPowerDPitch * p.RatedPower / ref.RatedPower
	}
	denom := ed.GBRatio * -dPdTheta0
	p.PitchKP = 2 * inertia * rotorSpeed * pitchDampingRatio * pitchNaturalFreqRadS / denom
	p.PitchKI = inertia * rotorSpeed * pitchNaturalFreqRadS * pitchNaturalFreqRadS / denom
	if err := p.Validate(); err != nil {
		return p, note, turbinesim.Errorf(turbinesim.EINVALID, "rated_power_kw: %g kW at %g rpm cannot be met by the baseline controller for this rotor (%v); raise the rated power or lower rated_rotor_speed_rpm", ratedPowerKW, ratedRotorRPM, err)
	}
	return p, sn, nil
}

// nrel5MWDPowerDPitch is the report's ∂P/∂θ of the NREL 5 MW at zero pitch
// (Jonkman et al. 2009 §7.2), the fallback of tuneBaselineController.
const nrel5MWDPowerDPitch = -25.52e6 // W/rad

// sensitivityNote describes where the pitch gains came from.
type sensitivityNote struct {
	pitchDoubling float64 // θK of the fit (rad), when used
	text          string
	// warning, when the gains are the 5 MW fallback, tells the user so in
	// plain words (the parameter file's WARNING line, the API's warnings).
	warning string
}

// rotorPitchSensitivity returns the fitted zero-pitch ∂P/∂θ of the deck's
// rotor at the rated point (perf.PitchSensitivityAt), or 0 with the reason
// in the note when the fit is unusable or rated power is not reached. A
// done ctx is an error, not a reason to fall back.
func rotorPitchSensitivity(ctx context.Context, d *deck.Deck, rotorSpeed, mechPower float64) (float64, sensitivityNote, error) {
	rot, g, err := perf.RotorFromDeck(d)
	if err != nil {
		return 0, sensitivityNote{}, fmt.Errorf("tuning the baseline controller: %w", err)
	}
	sens, err := perf.PitchSensitivityAt(ctx, rot, g, perf.Region3Options{RotorSpeed: rotorSpeed, Power: mechPower, CutOutSpeed: cutOutWindSpeed})
	if ctxErr := ctx.Err(); err != nil && ctxErr != nil {
		return 0, sensitivityNote{}, fmt.Errorf("tuning the baseline controller: %w", ctxErr)
	}
	var reason string
	switch {
	case err != nil:
		reason = err.Error()
	case !(sens.DPdTheta0 < 0) || !(sens.PitchDoubling > 0):
		reason = fmt.Sprintf("this rotor's fit %.4g W/rad at zero pitch, thetaK %.3g deg, does not fall with pitch", sens.DPdTheta0, sens.PitchDoubling*180/math.Pi)
	default:
		return sens.DPdTheta0, sensitivityNote{pitchDoubling: sens.PitchDoubling,
			text: fmt.Sprintf("pitch gains and PC_KK from this rotor's frozen-wake dP/dtheta (steady BEMT, %.2f to %g m/s): %.4g W/rad at zero pitch, thetaK %.3f deg", sens.RatedWindSpeed, cutOutWindSpeed, sens.DPdTheta0, sens.PitchDoubling*180/math.Pi)}, nil
	}
	return 0, sensitivityNote{
		text: "pitch gains from the 5 MW dP/dtheta (-25.52 MW/rad) scaled with rated power, 5 MW PC_KK: " + reason,
		warning: "controller: the pitch controller's gains (PC_KP, PC_KI, PC_KK in " + builtBaselineFile + ") are not tuned to this rotor: " +
			"its pitch sensitivity could not be used (" + reason + "), so they are the NREL 5 MW values scaled with rated power; " +
			"check the pitch response above rated wind speed before relying on region-3 results",
	}, nil
}

// baselineFileText is the baseline parameter file a build writes.
func baselineFileText(p baseline.Params, pitch sensitivityNote, ratedPowerKW, ratedRotorRPM, genEffPct float64) []byte {
	heading := []string{builtBaselineMarker,
		fmt.Sprintf("tuned for %g kW electrical at %g rpm rotor speed, generator efficiency %g %%;", ratedPowerKW, ratedRotorRPM, genEffPct),
		"scaled from the NREL 5 MW baseline (Jonkman et al. 2009 §7), pitch PI gains from §7.2;",
		pitch.text + "."}
	if pitch.warning != "" {
		heading = append(heading, builtWarningPrefix+pitch.warning+".")
	}
	return baseline.EncodeParams(p, append(heading, "Format: NAME value, SI units, # comments.")...)
}

// useBuiltBaseline points ServoDyn of m at a tuned baseline parameter file
// and adds the file to the model's data files (next to the ServoDyn file).
// It returns the tuning's warnings for the user.
func useBuiltBaseline(ctx context.Context, m *DeckModel, ratedPowerKW, ratedRotorRPM float64) ([]string, error) {
	sd := m.ServoDyn
	// The rotor as the deck will load it (the model's typed modules).
	d := &deck.Deck{Main: m.Main, ElastoDyn: m.ElastoDyn, AeroDyn: m.AeroDyn, InflowWind: m.InflowWind, ServoDyn: m.ServoDyn}
	p, note, err := tuneBaselineController(ctx, d, sd.GenEff, ratedPowerKW, ratedRotorRPM)
	if err != nil {
		return nil, err
	}
	sd.PCMode, sd.VSContrl = 5, 5
	sd.DLL_FileName, sd.DLL_InFile, sd.DLL_ProcName = "DISCON.dll", builtBaselineFile, "DISCON"
	servoDir := path.Dir(strings.ReplaceAll(m.Main.ServoFile, `\`, "/"))
	rel := path.Join(servoDir, builtBaselineFile)
	var lines [][]string
	for _, l := range strings.Split(strings.TrimSuffix(string(baselineFileText(p, note, ratedPowerKW, ratedRotorRPM, sd.GenEff)), "\n"), "\n") {
		lines = append(lines, []string{l})
	}
	kept := m.DataFiles[:0]
	for _, f := range m.DataFiles {
		if f.Path != rel {
			kept = append(kept, f)
		}
	}
	m.DataFiles = append(kept, ValueFile{Path: rel, Lines: lines})
	if note.warning == "" {
		return nil, nil
	}
	return []string{note.warning}, nil
}

// builtBaselinePath returns the path of the baseline parameter file a
// loaded deck's ServoDyn names when the deck runs the built-in baseline
// controller from a file the builder wrote, else "".
func builtBaselinePath(d *deck.Deck) string {
	sd := d.ServoDyn
	if sd == nil || d.Controller != nil || !(sd.PCMode == 5 || sd.VSContrl == 5) {
		return ""
	}
	in := resolvedDLLInFile(sd)
	if kind, err := control.ClassifyController(sd.DLL_FileName, in); err != nil || kind != control.KindBaseline || in == "" {
		return ""
	}
	src, err := os.ReadFile(in)
	if err != nil || !bytes.HasPrefix(src, []byte("# "+builtBaselineMarker+"\n")) {
		return ""
	}
	return in
}

// resolvedDLLInFile is DLL_InFile resolved against the ServoDyn file's
// folder, as OpenFAST and solver/control resolve it ("" when unset).
func resolvedDLLInFile(sd *deck.ServoDyn) string {
	in := strings.TrimSpace(sd.DLL_InFile)
	if in == "" || strings.EqualFold(in, "unused") {
		return ""
	}
	in = filepath.FromSlash(strings.ReplaceAll(in, `\`, "/"))
	if !filepath.IsAbs(in) && sd.Meta.Path != "" {
		in = filepath.Join(filepath.Dir(sd.Meta.Path), in)
	}
	return in
}
