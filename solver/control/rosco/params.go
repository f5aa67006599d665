package rosco

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Params are the DISCON.IN parameters the ROSCO-equivalent controller uses
// (ROSCO v2.9.4 names and units: rad, rad/s, N·m, W). Modes this controller
// does not implement must be 0 (see Validate).
type Params struct {
	// Controller flags.
	FLPFType, IPCControlMode, VSControlMode, VSConstPower, PCControlMode int
	YControlMode, SSMode, PRCMode, WEMode, PSMode, SDMode, FlMode        int
	TDMode, TRAMode, FlpMode, OLMode, PAMode, PFMode, AWCMode, ExtMode   int
	ZMQMode, CCMode, StCMode                                             int

	// Filters.
	FLPFCornerFreq, FLPFDamping      float64
	FNotchFreqs                      []float64
	FNotchBetaNum, FNotchBetaDen     []float64
	FGenSpdNotchInd                  []int // 1-based indices into FNotchFreqs
	FSSCornerFreq, FWECornerFreq     float64
	PCGSAngles, PCGSKP, PCGSKI       []float64
	PCMaxPit, PCMinPit               float64
	PCMaxRat, PCMinRat               float64
	PCRefSpd, PCFinePit, PCSwitch    float64
	VSGenEff, VSArSatTq, VSMaxRat    float64
	VSMaxTq, VSMinTq, VSMinOMSpd     float64
	VSRgn2K, VSRtPwr, VSRtTq         float64
	VSRefSpd                         float64
	VSKP, VSKI                       []float64
	VSTSRopt                         float64
	VSPwrFiltF                       float64 // rad/s, VS_ControlMode 3
	SSVSGain, SSPCGain               float64
	WEBladeRadius, WEGamma           float64
	WEGearboxRatio, WEJtot, WERhoAir float64
	PerfFileName                     string
	PerfTableSize                    [2]int
	WEFOPolesV, WEFOPoles            []float64
	PSWindSpeeds, PSBldPitchMin      []float64
	PACornerFreq, PADamping          float64
	SDMaxPit, SDCornerFreq           float64
	PerfTable                        *PerfTable // loaded when WEMode > 0

	// Floating feedback (Fl_Mode 1, 2) and tower-top notches.
	FFlCornerFreq   [2]float64 // natural frequency (rad/s) and damping of the 2nd-order LPF
	FFlHighPassFreq float64    // rad/s
	FTwrTopNotchInd []int      // 1-based indices into FNotchFreqs
	FlKp, FlU       []float64
}

// reader collects the first error while pulling typed values out of KeyValues.
type reader struct {
	d    *deck.Discon
	file string
	err  error
}

func (r *reader) fail(name, format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("rosco: %s: %s: %s", r.file, name, fmt.Sprintf(format, a...))
	}
}

func (r *reader) raw(name string, optional bool) []string {
	e, ok := r.d.Entry(name)
	if !ok {
		if !optional {
			r.fail(name, "required parameter missing")
		}
		return nil
	}
	v := make([]string, len(e.Values))
	for i, t := range e.Values {
		v[i] = t.Text
	}
	return v
}

func (r *reader) float(name string, optional bool) float64 {
	v := r.raw(name, optional)
	if len(v) == 0 {
		return 0
	}
	x, err := strconv.ParseFloat(strings.Replace(strings.Replace(v[0], "d", "e", 1), "D", "e", 1), 64)
	if err != nil {
		r.fail(name, "%q is not a number", v[0])
	}
	return x
}

func (r *reader) int(name string, optional bool) int {
	x := r.float(name, optional)
	if x != float64(int(x)) {
		r.fail(name, "%g is not an integer", x)
	}
	return int(x)
}

func (r *reader) floats(name string, n int, optional bool) []float64 {
	v := r.raw(name, optional)
	if len(v) == 0 || n == 0 {
		return nil
	}
	if len(v) < n {
		r.fail(name, "expected %d values, found %d", n, len(v))
		return nil
	}
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		x, err := strconv.ParseFloat(v[i], 64)
		if err != nil {
			r.fail(name, "value %d %q is not a number", i+1, v[i])
			return nil
		}
		out[i] = x
	}
	return out
}

func (r *reader) str(name string, optional bool) string {
	v := r.raw(name, optional)
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// LoadParams reads a DISCON.IN file and, when the wind-speed estimator needs
// it (WE_Mode > 0), the Cp/Ct/Cq table named by PerfFileName (relative to the
// DISCON.IN folder).
func LoadParams(path string) (Params, error) {
	d, err := deck.ReadDiscon(path)
	if err != nil {
		return Params{}, fmt.Errorf("rosco: %w", err)
	}
	p, err := ParamsFromDiscon(d)
	if err != nil {
		return Params{}, err
	}
	if p.WEMode > 0 {
		perfPath := p.PerfFileName
		if !filepath.IsAbs(perfPath) {
			perfPath = filepath.Join(filepath.Dir(path), perfPath)
		}
		t, err := ReadPerfTableFile(perfPath)
		if err != nil {
			return Params{}, err
		}
		if len(t.PitchDeg) != p.PerfTableSize[0] || len(t.TSR) != p.PerfTableSize[1] {
			return Params{}, fmt.Errorf("rosco: %s: PerfTableSize %d %d does not match %s (%d pitch × %d TSR)",
				path, p.PerfTableSize[0], p.PerfTableSize[1], perfPath, len(t.PitchDeg), len(t.TSR))
		}
		p.PerfTable = t
	}
	return p, p.Validate()
}

// ParamsFromDiscon converts the DISCON.IN entries read by solver/deck into
// Params (without the Cp table; LoadParams adds it). Optional parameters
// (those ROSCO 2.9 defaults) read as 0.
func ParamsFromDiscon(d *deck.Discon) (Params, error) {
	r := &reader{d: d, file: d.Meta.Path}
	var p Params
	p.FLPFType = r.int("F_LPFType", false)
	p.IPCControlMode = r.int("IPC_ControlMode", true)
	p.VSControlMode = r.int("VS_ControlMode", false)
	p.VSConstPower = r.int("VS_ConstPower", true)
	p.PCControlMode = r.int("PC_ControlMode", false)
	p.YControlMode = r.int("Y_ControlMode", true)
	p.SSMode = r.int("SS_Mode", true)
	p.PRCMode = r.int("PRC_Mode", true)
	p.WEMode = r.int("WE_Mode", false)
	p.PSMode = r.int("PS_Mode", true)
	p.SDMode = r.int("SD_Mode", true)
	p.FlMode = r.int("Fl_Mode", true)
	p.TDMode = r.int("TD_Mode", true)
	p.TRAMode = r.int("TRA_Mode", true)
	p.FlpMode = r.int("Flp_Mode", true)
	p.OLMode = r.int("OL_Mode", true)
	p.PAMode = r.int("PA_Mode", true)
	p.PFMode = r.int("PF_Mode", true)
	p.AWCMode = r.int("AWC_Mode", true)
	p.ExtMode = r.int("Ext_Mode", true)
	p.ZMQMode = r.int("ZMQ_Mode", true)
	p.CCMode = r.int("CC_Mode", true)
	p.StCMode = r.int("StC_Mode", true)

	p.FLPFCornerFreq = r.float("F_LPFCornerFreq", false)
	p.FLPFDamping = r.float("F_LPFDamping", p.FLPFType != 2)
	nNotch := r.int("F_NumNotchFilts", true)
	p.FNotchFreqs = r.floats("F_NotchFreqs", nNotch, nNotch == 0)
	p.FNotchBetaNum = r.floats("F_NotchBetaNum", nNotch, nNotch == 0)
	p.FNotchBetaDen = r.floats("F_NotchBetaDen", nNotch, nNotch == 0)
	nGenNotch := r.int("F_GenSpdNotch_N", true)
	for _, x := range r.floats("F_GenSpdNotch_Ind", nGenNotch, nGenNotch == 0) {
		p.FGenSpdNotchInd = append(p.FGenSpdNotchInd, int(x))
	}
	nTwrNotch := r.int("F_TwrTopNotch_N", true)
	for _, x := range r.floats("F_TwrTopNotch_Ind", nTwrNotch, nTwrNotch == 0) {
		p.FTwrTopNotchInd = append(p.FTwrTopNotchInd, int(x))
	}
	if fl := r.floats("F_FlCornerFreq", 2, p.FlMode == 0); len(fl) == 2 {
		p.FFlCornerFreq = [2]float64{fl[0], fl[1]}
	}
	p.FFlHighPassFreq = r.float("F_FlHighPassFreq", p.FlMode == 0)
	p.FSSCornerFreq = r.float("F_SSCornerFreq", p.SSMode == 0)
	p.FWECornerFreq = r.float("F_WECornerFreq", true)

	nGS := r.int("PC_GS_n", false)
	p.PCGSAngles = r.floats("PC_GS_angles", nGS, false)
	p.PCGSKP = r.floats("PC_GS_KP", nGS, false)
	p.PCGSKI = r.floats("PC_GS_KI", nGS, false)
	p.PCMaxPit = r.float("PC_MaxPit", false)
	p.PCMinPit = r.float("PC_MinPit", false)
	p.PCMaxRat = r.float("PC_MaxRat", false)
	p.PCMinRat = r.float("PC_MinRat", false)
	p.PCRefSpd = r.float("PC_RefSpd", false)
	p.PCFinePit = r.float("PC_FinePit", false)
	p.PCSwitch = r.float("PC_Switch", false)

	p.VSGenEff = r.float("VS_GenEff", false)
	p.VSArSatTq = r.float("VS_ArSatTq", false)
	p.VSMaxRat = r.float("VS_MaxRat", false)
	p.VSMaxTq = r.float("VS_MaxTq", false)
	p.VSMinTq = r.float("VS_MinTq", false)
	p.VSMinOMSpd = r.float("VS_MinOMSpd", false)
	p.VSRgn2K = r.float("VS_Rgn2K", false)
	p.VSRtPwr = r.float("VS_RtPwr", false)
	p.VSRtTq = r.float("VS_RtTq", false)
	p.VSRefSpd = r.float("VS_RefSpd", false)
	nVS := r.int("VS_n", false)
	p.VSKP = r.floats("VS_KP", nVS, false)
	p.VSKI = r.floats("VS_KI", nVS, false)
	p.VSTSRopt = r.float("VS_TSRopt", p.VSControlMode != 2)
	p.VSPwrFiltF = r.float("VS_PwrFiltF", p.VSControlMode != 3)

	p.SSVSGain = r.float("SS_VSGain", p.SSMode == 0)
	p.SSPCGain = r.float("SS_PCGain", p.SSMode == 0)

	needWE := p.WEMode > 0 || p.VSControlMode >= 2
	p.WEBladeRadius = r.float("WE_BladeRadius", !needWE)
	p.WEGamma = r.float("WE_Gamma", p.WEMode != 1)
	p.WEGearboxRatio = r.float("WE_GearboxRatio", !needWE)
	p.WEJtot = r.float("WE_Jtot", p.WEMode == 0)
	p.WERhoAir = r.float("WE_RhoAir", p.WEMode == 0)
	p.PerfFileName = r.str("PerfFileName", p.WEMode == 0)
	if sz := r.floats("PerfTableSize", 2, p.WEMode == 0); len(sz) == 2 {
		p.PerfTableSize = [2]int{int(sz[0]), int(sz[1])}
	}
	nPoles := r.int("WE_FOPoles_N", p.WEMode != 2)
	p.WEFOPolesV = r.floats("WE_FOPoles_v", nPoles, p.WEMode != 2)
	p.WEFOPoles = r.floats("WE_FOPoles", nPoles, p.WEMode != 2)

	nPS := r.int("PS_BldPitchMin_N", p.PSMode == 0)
	p.PSWindSpeeds = r.floats("PS_WindSpeeds", nPS, p.PSMode == 0)
	p.PSBldPitchMin = r.floats("PS_BldPitchMin", nPS, p.PSMode == 0)

	nFl := r.int("Fl_n", true)
	if nFl < 1 {
		nFl = 1
	}
	p.FlKp = r.floats("Fl_Kp", nFl, p.FlMode == 0)
	if nFl > 1 {
		p.FlU = r.floats("Fl_U", nFl, p.FlMode == 0)
	}
	p.PACornerFreq = r.float("PA_CornerFreq", p.PAMode == 0)
	p.PADamping = r.float("PA_Damping", p.PAMode != 2)
	p.SDMaxPit = r.float("SD_MaxPit", true)
	p.SDCornerFreq = r.float("SD_CornerFreq", true)
	if r.err != nil {
		return Params{}, r.err
	}
	return p, nil
}

// Validate rejects parameter sets that need features this controller does not
// implement and values that would make the control laws undefined.
func (p Params) Validate() error {
	unsupported := []struct {
		name string
		v    int
	}{
		{"IPC_ControlMode", p.IPCControlMode}, {"Y_ControlMode", p.YControlMode},
		{"PRC_Mode", p.PRCMode}, {"SD_Mode", p.SDMode},
		{"TD_Mode", p.TDMode}, {"TRA_Mode", p.TRAMode}, {"Flp_Mode", p.FlpMode},
		{"OL_Mode", p.OLMode}, {"PF_Mode", p.PFMode}, {"AWC_Mode", p.AWCMode},
		{"Ext_Mode", p.ExtMode}, {"ZMQ_Mode", p.ZMQMode}, {"CC_Mode", p.CCMode},
		{"StC_Mode", p.StCMode},
	}
	for _, u := range unsupported {
		if u.v != 0 {
			return fmt.Errorf("rosco: %s = %d is not supported by the built-in ROSCO-equivalent controller (only 0)", u.name, u.v)
		}
	}
	ranges := []struct {
		name   string
		v, max int
	}{
		{"F_LPFType", p.FLPFType, 2}, {"VS_ControlMode", p.VSControlMode, 3},
		{"VS_ConstPower", p.VSConstPower, 1}, {"PC_ControlMode", p.PCControlMode, 1},
		{"SS_Mode", p.SSMode, 1}, {"WE_Mode", p.WEMode, 2}, {"PS_Mode", p.PSMode, 1},
		{"PA_Mode", p.PAMode, 2}, {"Fl_Mode", p.FlMode, 2},
	}
	for _, r := range ranges {
		if r.v < 0 || r.v > r.max {
			return fmt.Errorf("rosco: %s = %d is out of range 0..%d", r.name, r.v, r.max)
		}
	}
	if p.FLPFType == 0 {
		return fmt.Errorf("rosco: F_LPFType must be 1 or 2")
	}
	if p.FLPFCornerFreq <= 0 {
		return fmt.Errorf("rosco: F_LPFCornerFreq must be > 0, got %g", p.FLPFCornerFreq)
	}
	for _, k := range append(append([]int{}, p.FGenSpdNotchInd...), p.FTwrTopNotchInd...) {
		if k < 1 || k > len(p.FNotchFreqs) {
			return fmt.Errorf("rosco: notch index %d (F_GenSpdNotch_Ind / F_TwrTopNotch_Ind) outside 1..F_NumNotchFilts (%d)", k, len(p.FNotchFreqs))
		}
	}
	if p.FlMode > 0 {
		if len(p.FlKp) == 0 || p.FFlCornerFreq[0] <= 0 || p.FFlHighPassFreq <= 0 {
			return fmt.Errorf("rosco: Fl_Mode %d needs Fl_Kp, F_FlCornerFreq > 0 and F_FlHighPassFreq > 0", p.FlMode)
		}
		if len(p.FlKp) > 1 && len(p.FlU) != len(p.FlKp) {
			return fmt.Errorf("rosco: Fl_U needs %d values (Fl_n)", len(p.FlKp))
		}
	}
	if len(p.PCGSAngles) == 0 || len(p.VSKP) == 0 || len(p.VSKI) == 0 {
		return fmt.Errorf("rosco: PC_GS tables and VS_KP/VS_KI need at least one entry")
	}
	if p.VSControlMode == 3 && (p.VSPwrFiltF <= 0 || p.VSRgn2K <= 0) {
		return fmt.Errorf("rosco: VS_ControlMode 3 needs VS_PwrFiltF > 0 and VS_Rgn2K > 0")
	}
	if p.VSControlMode >= 2 && (p.WEBladeRadius <= 0 || p.WEGearboxRatio <= 0) {
		return fmt.Errorf("rosco: VS_ControlMode %d needs WE_BladeRadius > 0 and WE_GearboxRatio > 0", p.VSControlMode)
	}
	if p.WEMode > 0 {
		if p.PerfTable == nil {
			return fmt.Errorf("rosco: WE_Mode %d needs the Cp table (PerfFileName)", p.WEMode)
		}
		if p.WEJtot <= 0 || p.WERhoAir <= 0 || p.WEBladeRadius <= 0 {
			return fmt.Errorf("rosco: WE_Mode %d needs WE_Jtot, WE_RhoAir and WE_BladeRadius > 0", p.WEMode)
		}
	}
	if p.WEMode == 2 && len(p.WEFOPoles) == 0 {
		return fmt.Errorf("rosco: WE_Mode 2 needs WE_FOPoles")
	}
	if p.VSRtPwr <= 0 || p.VSGenEff <= 0 {
		return fmt.Errorf("rosco: VS_RtPwr and VS_GenEff must be > 0")
	}
	return nil
}
