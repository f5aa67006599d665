package control

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
	"github.com/turbinesim/turbinesim/solver/control/rosco"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// DeckOptions are the values ServoDyn takes from the rest of the model.
type DeckOptions struct {
	GlueDT  float64 // the .fst DT (s); ServoDyn's "default" DT
	NumBl   int     // ElastoDyn NumBl
	RootLen int     // length of the output root name (record 51), optional
	// InitialPitch (rad) replaces PitNeut for decks written before PitNeut
	// existed (OpenFAST ≤ 4 held the initial ElastoDyn pitch instead).
	InitialPitch [3]float64
}

// FromDeck converts a ServoDyn input file read by solver/deck into Params
// (degrees → rad, rpm → rad/s, N·m/rpm² → N·m/(rad/s)², % → fraction for
// GenEff).
func FromDeck(sd *deck.ServoDyn, opt DeckOptions) (Params, error) {
	if sd == nil {
		return Params{}, fmt.Errorf("servodyn: no ServoDyn input")
	}
	if !(opt.GlueDT > 0) {
		return Params{}, fmt.Errorf("servodyn %s: glue DT must be > 0, got %g", sd.Meta.Path, opt.GlueDT)
	}
	dt := sd.DT.Or(opt.GlueDT)
	p := Params{
		DT: dt, NumBl: opt.NumBl,
		PCMode: sd.PCMode, TPCOn: sd.TPCOn,
		VSContrl: sd.VSContrl, GenModel: sd.GenModel, GenEff: sd.GenEff / 100,
		GenTiStr: sd.GenTiStr, GenTiStp: sd.GenTiStp,
		SpdGenOn: sd.SpdGenOn * rpmToRadPerSec, TimGenOn: sd.TimGenOn, TimGenOf: sd.TimGenOf,
		VSRtGnSp: sd.VS_RtGnSp * rpmToRadPerSec, VSRtTq: sd.VS_RtTq,
		VSRgn2K: sd.VS_Rgn2K / (rpmToRadPerSec * rpmToRadPerSec), VSSlPc: sd.VS_SlPc,
		SIGSlPc: sd.SIG_SlPc, SIGSySp: sd.SIG_SySp * rpmToRadPerSec, SIGRtTq: sd.SIG_RtTq, SIGPORt: sd.SIG_PORt,
		TECFreq: sd.TEC_Freq, TECNPol: float64(sd.TEC_NPol),
		TECSRes: sd.TEC_SRes, TECRRes: sd.TEC_RRes, TECVLL: sd.TEC_VLL,
		TECSLR: sd.TEC_SLR, TECRLR: sd.TEC_RLR, TECMR: sd.TEC_MR,
		HSSBrMode: sd.HSSBrMode, THSSBrDp: sd.THSSBrDp, HSSBrDT: sd.HSSBrDT, HSSBrTqF: sd.HSSBrTqF,
		YCMode: sd.YCMode, TYCOn: sd.TYCOn, YawNeut: sd.YawNeut * degToRad,
		YawSpr: sd.YawSpr, YawDamp: sd.YawDamp, TYawManS: sd.TYawManS,
		YawManRat: sd.YawManRat * degToRad, NacYawF: sd.NacYawF * degToRad,
		DLLFileName: sd.DLL_FileName, DLLInFile: sd.DLL_InFile, DLLProcName: sd.DLL_ProcName,
		DLLDT: sd.DLL_DT.Or(dt), DLLRamp: sd.DLL_Ramp, BPCutoff: sd.BPCutoff,
		NacYawNorth: sd.NacYaw_North * degToRad, PtchCntrl: sd.Ptch_Cntrl,
		PtchSetPnt: sd.Ptch_SetPnt * degToRad, PtchMin: sd.Ptch_Min * degToRad, PtchMax: sd.Ptch_Max * degToRad,
		PtchRateMin: sd.PtchRate_Min * degToRad, PtchRateMax: sd.PtchRate_Max * degToRad,
		GainOM: sd.Gain_OM, GenSpdMinOM: sd.GenSpd_MinOM * rpmToRadPerSec, GenSpdMaxOM: sd.GenSpd_MaxOM * rpmToRadPerSec,
		GenSpdDem: sd.GenSpd_Dem * rpmToRadPerSec, GenTrqDem: sd.GenTrq_Dem, GenPwrDem: sd.GenPwr_Dem,
		OutRootChars: opt.RootLen,
	}
	hasPitNeut := sd.Meta.Has("PitNeut") || sd.Meta.Has("PitNeut(1)")
	for k := 0; k < 3; k++ {
		if hasPitNeut {
			p.PitNeut[k] = sd.PitNeut[k] * degToRad
		} else {
			p.PitNeut[k] = opt.InitialPitch[k]
		}
		p.PitSpr[k], p.PitDamp[k] = sd.PitSpr[k], sd.PitDamp[k]
		p.TPitManS[k] = sd.TPitManS[k]
		p.PitManRat[k] = sd.PitManRat[k] * degToRad
		p.BlPitchF[k] = sd.BlPitchF[k] * degToRad
	}
	for _, m := range []struct {
		name string
		v    int
	}{{"AfCmode", sd.AfCmode}, {"CCmode", sd.CCmode}, {"NumBStC", sd.NumBStC}, {"NumNStC", sd.NumNStC}, {"NumTStC", sd.NumTStC}, {"NumSStC", sd.NumSStC}} {
		if m.v != 0 {
			return Params{}, fmt.Errorf("servodyn %s: %s = %d is not supported (only 0)", sd.Meta.Path, m.name, m.v)
		}
	}
	if sd.DLL_NumTrq != 0 && p.usesController() {
		return Params{}, fmt.Errorf("servodyn %s: DLL_NumTrq = %d: the torque-speed look-up table is not supported", sd.Meta.Path, sd.DLL_NumTrq)
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", sd.Meta.Path, err)
	}
	return p, nil
}

// NewFromDeck builds the module from a ServoDyn file: parameters via
// FromDeck and, when a mode is 5, the built-in controller mapped from
// DLL_FileName (ClassifyController), with DLL_InFile resolved against the
// ServoDyn file's folder as OpenFAST does.
func NewFromDeck(sd *deck.ServoDyn, opt DeckOptions) (*ServoDyn, error) {
	p, err := FromDeck(sd, opt)
	if err != nil {
		return nil, err
	}
	var ctrl bladed.Controller
	if p.usesController() {
		in := strings.TrimSpace(p.DLLInFile)
		if in != "" && !strings.EqualFold(in, "unused") && !filepath.IsAbs(in) {
			in = filepath.Join(filepath.Dir(sd.Meta.Path), in)
		}
		if ctrl, err = ResolveController(p.DLLFileName, in); err != nil {
			return nil, fmt.Errorf("%s: %w", sd.Meta.Path, err)
		}
	}
	return New(p, ctrl)
}

// ControllerName returns the name of the built-in controller in use, or "".
func (s *ServoDyn) ControllerName() string {
	if s.ctrl == nil {
		return ""
	}
	return s.ctrl.Name()
}

// DeckActuatorLimits returns the actuator limits a run of d would hold its
// commands to (ServoDyn.ActuatorLimits) without building the module: those
// of the built-in controller the deck's DLL_FileName maps to — ROSCO from
// the DISCON.IN loaded with the deck (deck.Deck.Controller), the baseline
// from its parameter file or the NREL 5 MW constants — or, for a deck with
// no controller, the Bladed block's PtchRate_Max (zero: no limit). ok is
// false when the deck has no ServoDyn.
func DeckActuatorLimits(d *deck.Deck) (lim bladed.ActuatorLimits, ok bool, err error) {
	if d == nil || d.ServoDyn == nil {
		return bladed.ActuatorLimits{}, false, nil
	}
	sd := d.ServoDyn
	uses := sd.PCMode == ModeDLL || sd.VSContrl == ModeDLL || sd.HSSBrMode == ModeDLL || sd.YCMode == ModeDLL
	if uses {
		in := ""
		if f := strings.TrimSpace(sd.DLL_InFile); f != "" && !strings.EqualFold(f, "unused") && d.Controller == nil {
			in = f
			if !filepath.IsAbs(in) {
				in = filepath.Join(filepath.Dir(sd.Meta.Path), in)
			}
		}
		switch {
		case d.Controller != nil && isROSCODiscon(d.Controller):
			p, err := rosco.ParamsFromDiscon(d.Controller)
			if err != nil {
				return bladed.ActuatorLimits{}, true, fmt.Errorf("servodyn: DLL_InFile: %w", err)
			}
			lim = p.ActuatorLimits()
		default:
			if _, err := ClassifyController(sd.DLL_FileName, in); err != nil {
				return bladed.ActuatorLimits{}, true, err
			}
			p, _, err := BaselineParamsFrom(in)
			if err != nil {
				return bladed.ActuatorLimits{}, true, fmt.Errorf("servodyn: DLL_InFile: %w", err)
			}
			lim = p.ActuatorLimits()
		}
	}
	if lim.PitchRate == 0 && uses && sd.PtchRate_Max > 0 {
		lim.PitchRate = sd.PtchRate_Max * degToRad
	}
	return lim, true, nil
}

func isROSCODiscon(d *deck.Discon) bool {
	for _, k := range []string{"F_LPFType", "VS_ControlMode", "PC_GS_angles"} {
		if _, ok := d.Entry(k); !ok {
			return false
		}
	}
	return true
}
