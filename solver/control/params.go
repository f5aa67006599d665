// Package control is the ServoDyn-equivalent module of the solver: generator
// torque (simple variable-speed law, induction-generator models, generator
// on/off timing), blade-pitch commands (controller, pitch manoeuvres, pitch
// spring/damper), nacelle-yaw moment (spring/damper toward a commanded yaw,
// yaw manoeuvres), the high-speed-shaft brake, and the Bladed-style
// controller exchange with the built-in controllers of packages baseline and
// rosco (see ResolveController).
//
// The physics follow OpenFAST ServoDyn (ServoDyn user
// documentation and Jonkman & Buhl, FAST User's Guide, NREL/EL-500-38230,
// §"Control Modes"). The module contract is the solver's: New (initialise),
// UpdateStates (advance t → t+dt with inputs at t+dt), CalcOutput (outputs at
// t), End.
package control

import (
	"fmt"
	"math"
)

// Control-mode switch values shared by PCMode, VSContrl, HSSBrMode, YCMode.
const (
	ModeNone   = 0
	ModeSimple = 1 // VSContrl/HSSBrMode: built-in simple model
	ModeDLL    = 5 // Bladed-style controller
)

// Params are the ServoDyn parameters in SI units (rad, rad/s, N·m, W, s,
// efficiency as a fraction). Build them with FromDeck or by hand; Validate
// checks them. Per-blade arrays hold NumBl entries (at most 3).
type Params struct {
	DT    float64 // glue time step (s)
	NumBl int

	// Pitch control.
	PCMode    int
	TPCOn     float64
	PitNeut   [3]float64 // neutral pitch / pitch command without control (rad)
	PitSpr    [3]float64 // pitch spring (N·m/rad), ElastoDyn PitchDOF only
	PitDamp   [3]float64 // pitch damper (N·m/(rad/s))
	TPitManS  [3]float64 // start of override pitch manoeuvre (s)
	PitManRat [3]float64 // manoeuvre rate magnitude (rad/s)
	BlPitchF  [3]float64 // manoeuvre final pitch (rad)

	// Generator and torque control.
	VSContrl int
	GenModel int
	GenEff   float64 // fraction (0,1]
	GenTiStr bool
	GenTiStp bool
	SpdGenOn float64 // HSS speed to switch on (rad/s)
	TimGenOn float64
	TimGenOf float64

	// Simple variable-speed control (VSContrl = 1).
	VSRtGnSp float64 // rated generator speed (rad/s)
	VSRtTq   float64 // rated torque (N·m)
	VSRgn2K  float64 // region-2 constant (N·m/(rad/s)²)
	VSSlPc   float64 // region-2½ slip (%)

	// Simple induction generator (VSContrl = 0, GenModel = 1).
	SIGSlPc float64 // rated slip (%)
	SIGSySp float64 // synchronous speed (rad/s)
	SIGRtTq float64 // rated torque (N·m)
	SIGPORt float64 // pull-out ratio Tpullout/Trated

	// Thevenin-equivalent induction generator (VSContrl = 0, GenModel = 2).
	TECFreq, TECNPol         float64
	TECSRes, TECRRes, TECVLL float64
	TECSLR, TECRLR, TECMR    float64

	// High-speed shaft brake.
	HSSBrMode int
	THSSBrDp  float64
	HSSBrDT   float64
	HSSBrTqF  float64

	// Nacelle yaw.
	YCMode    int
	TYCOn     float64
	YawNeut   float64 // rad
	YawSpr    float64 // N·m/rad
	YawDamp   float64 // N·m/(rad/s)
	TYawManS  float64
	YawManRat float64 // rad/s (magnitude)
	NacYawF   float64 // rad

	// Bladed interface.
	DLLFileName  string
	DLLInFile    string
	DLLProcName  string
	DLLDT        float64 // controller call interval (s); 0 means DT
	DLLRamp      bool
	BPCutoff     float64 // Hz; first-order filter on the controller's pitch
	NacYawNorth  float64 // rad
	PtchCntrl    int
	PtchSetPnt   float64
	PtchMin      float64
	PtchMax      float64
	PtchRateMin  float64
	PtchRateMax  float64
	GainOM       float64
	GenSpdMinOM  float64
	GenSpdMaxOM  float64
	GenSpdDem    float64
	GenTrqDem    float64
	GenPwrDem    float64
	OutRootChars int
}

// derivedParams are quantities ServoDyn precomputes (SrvD_SetParameters).
type derivedParams struct {
	vsSySp, vsSlope, vsTrGnSp float64

	sigPOSl, sigPOTq, sigSlop float64

	tecSySp, tecV1a, tecRe1, tecXe1 float64
	tecA0, tecC0, tecC1, tecC2      float64
}

// Validate checks ranges and consistency, naming the offending parameter.
func (p *Params) Validate() error {
	if !(p.DT > 0) {
		return fmt.Errorf("servodyn: DT must be > 0, got %g", p.DT)
	}
	if p.NumBl < 1 || p.NumBl > 3 {
		return fmt.Errorf("servodyn: NumBl must be 1-3, got %d", p.NumBl)
	}
	switch p.PCMode {
	case ModeNone, ModeDLL:
	default:
		return fmt.Errorf("servodyn: PCMode %d not supported (0 none, 5 Bladed-style controller)", p.PCMode)
	}
	switch p.VSContrl {
	case ModeNone:
		switch p.GenModel {
		case 1, 2:
		default:
			return fmt.Errorf("servodyn: GenModel %d not supported with VSContrl 0 (1 simple induction, 2 Thevenin)", p.GenModel)
		}
	case ModeSimple, ModeDLL:
	default:
		return fmt.Errorf("servodyn: VSContrl %d not supported (0 generator model, 1 simple VS, 5 Bladed-style controller)", p.VSContrl)
	}
	if p.GenModel != 2 && !(p.GenEff > 0 && p.GenEff <= 1) {
		return fmt.Errorf("servodyn: GenEff must be in (0, 100] %%, got %g %%", 100*p.GenEff)
	}
	switch p.HSSBrMode {
	case ModeNone, ModeSimple, ModeDLL:
	default:
		return fmt.Errorf("servodyn: HSSBrMode %d not supported (0 none, 1 simple, 5 controller)", p.HSSBrMode)
	}
	if p.HSSBrMode == ModeSimple && !(p.HSSBrDT > 0) {
		return fmt.Errorf("servodyn: HSSBrDT must be > 0 with HSSBrMode 1, got %g", p.HSSBrDT)
	}
	switch p.YCMode {
	case ModeNone, ModeDLL:
	default:
		return fmt.Errorf("servodyn: YCMode %d not supported (0 none, 5 Bladed-style controller)", p.YCMode)
	}
	if p.DLLDT < 0 {
		return fmt.Errorf("servodyn: DLL_DT must be ≥ 0, got %g", p.DLLDT)
	}
	if p.DLLDT > 0 {
		ratio := p.DLLDT / p.DT
		if math.Abs(ratio-math.Round(ratio)) > 1e-6 || ratio < 1-1e-9 {
			return fmt.Errorf("servodyn: DLL_DT (%g s) must be an integer multiple of DT (%g s)", p.DLLDT, p.DT)
		}
	}
	for k := 0; k < p.NumBl; k++ {
		if p.TPitManS[k] < 1e6 && !(p.PitManRat[k] > 0) && p.TPitManS[k] >= 0 {
			return fmt.Errorf("servodyn: PitManRat(%d) must be > 0 for a pitch manoeuvre at TPitManS(%d) = %g s", k+1, k+1, p.TPitManS[k])
		}
	}
	_, err := p.derive()
	return err
}

func (p *Params) derive() (derivedParams, error) {
	var d derivedParams
	switch p.VSContrl {
	case ModeSimple:
		slip := 0.01 * p.VSSlPc
		d.vsSySp = p.VSRtGnSp / (1 + slip)
		if slip < math.Sqrt(2.220446049250313e-16) {
			// No region 2½: the transition is at rated speed.
			d.vsSlope = 9999.9
			d.vsTrGnSp = p.VSRtGnSp
			break
		}
		d.vsSlope = p.VSRtTq / (p.VSRtGnSp - d.vsSySp)
		if math.Abs(p.VSRgn2K) < 2.220446049250313e-16 {
			d.vsTrGnSp = d.vsSySp
		} else {
			disc := d.vsSlope * (d.vsSlope - 4*p.VSRgn2K*d.vsSySp)
			if disc < 0 {
				return d, fmt.Errorf("servodyn: VS_Rgn2K (%g N·m/(rad/s)²) too large: region 2 never meets the region 2½ line (VS_Rgn2K·VS_RtGnSp² must stay below VS_RtTq·(1+VS_SlPc)/VS_SlPc/4)", p.VSRgn2K)
			}
			// Intersection of K·ω² with the 2½ line: K ω² = s(ω − ω_sync).
			d.vsTrGnSp = (d.vsSlope - math.Sqrt(disc)) / (2 * p.VSRgn2K)
		}
	case ModeNone:
		switch p.GenModel {
		case 1:
			if !(p.SIGSlPc > 0) || !(p.SIGSySp > 0) {
				return d, fmt.Errorf("servodyn: SIG_SlPc and SIG_SySp must be > 0, got %g %%, %g rad/s", p.SIGSlPc, p.SIGSySp)
			}
			rtSp := p.SIGSySp * (1 + 0.01*p.SIGSlPc)
			d.sigPOSl = p.SIGPORt * (rtSp - p.SIGSySp)
			d.sigPOTq = p.SIGRtTq * p.SIGPORt
			d.sigSlop = p.SIGRtTq / (rtSp - p.SIGSySp)
		case 2:
			if !(p.TECNPol > 0) || !(p.TECFreq > 0) || !(p.TECMR > 0) || !(p.TECVLL > 0) {
				return d, fmt.Errorf("servodyn: TEC_NPol, TEC_Freq, TEC_MR and TEC_VLL must be > 0")
			}
			// Thevenin equivalent of the induction machine seen from the
			// rotor (ServoDyn SrvD_SetParameters; standard circuit theory).
			den := p.TECSRes*p.TECSRes + (p.TECSLR+p.TECMR)*(p.TECSLR+p.TECMR)
			d.tecRe1 = p.TECSRes * p.TECMR * p.TECMR / den
			d.tecXe1 = p.TECMR * (p.TECSRes*p.TECSRes + p.TECSLR*(p.TECSLR+p.TECMR)) / den
			d.tecV1a = p.TECMR * p.TECVLL / math.Sqrt(3*den)
			d.tecSySp = 4 * math.Pi * p.TECFreq / p.TECNPol
			k1 := (d.tecXe1 + p.TECRLR) * (d.tecXe1 + p.TECRLR)
			k2 := p.TECMR * p.TECMR / den
			d.tecA0 = p.TECRRes * k2 / d.tecSySp
			d.tecC0 = p.TECRRes * p.TECRRes
			d.tecC1 = -2 * d.tecRe1 * p.TECRRes
			d.tecC2 = d.tecRe1*d.tecRe1 + k1
		}
	}
	return d, nil
}

// Unit conversions used by adapters.
const (
	rpmToRadPerSec = math.Pi / 30
	degToRad       = math.Pi / 180
)
