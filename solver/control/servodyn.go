package control

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// Inputs are what ServoDyn receives from the structure and inflow at one
// instant (ElastoDyn → ServoDyn and InflowWind → ServoDyn mappings,
// as in OpenFAST's glue code). SI units; angles in rad.
type Inputs struct {
	BlPitch  [3]float64 // blade pitch angles
	BlPRate  [3]float64 // blade pitch rates (rad/s)
	Yaw      float64    // nacelle yaw angle
	YawRate  float64    // nacelle yaw rate (rad/s)
	HSSSpd   float64    // generator (HSS) speed (rad/s)
	LSSSpd   float64    // rotor (LSS) speed (rad/s)
	RotPwr   float64    // rotor (LSS) power (W)
	HorWindV float64    // hub-height horizontal wind speed (m/s)
	WindDir  float64    // hub-height wind direction (rad)
	YawErr   float64    // wind direction minus yaw (rad)
	Azimuth  float64    // rotor azimuth (rad)
	RootMyc  [3]float64 // out-of-plane root moments (N·m)
	RootMxc  [3]float64 // in-plane root moments (N·m)

	TwrTopAccFA, TwrTopAccSS float64 // YawBrTAxp, YawBrTAyp (m/s²)
	LSSTipMya, LSSTipMza     float64
	LSSTipMys, LSSTipMzs     float64
	YawBrMyn, YawBrMzn       float64
	NacAngAcc                [3]float64 // nacelle roll, nodding, yaw angular accelerations
	LSSTorque                float64    // N·m
	LSSForce                 [3]float64 // N
	AirDensity               float64
}

// Outputs are ServoDyn's commands to ElastoDyn plus its output channels.
type Outputs struct {
	BlPitchCom [3]float64 // blade pitch commands (rad)
	BlPitchMom [3]float64 // pitch actuator moments for PitchDOF (N·m)
	GenTrq     float64    // generator torque on the HSS (N·m)
	HSSBrTrqC  float64    // HSS brake torque (N·m)
	ElecPwr    float64    // electrical power (W)
	YawMom     float64    // yaw moment (N·m)
	YawPosCom  float64    // commanded yaw (rad)
	YawRateCom float64    // commanded yaw rate (rad/s)
}

// ServoDyn is the module instance. It is not safe for concurrent use.
type ServoDyn struct {
	p    Params
	d    derivedParams
	ctrl bladed.Controller
	set  bladed.InterfaceSettings
	swap bladed.Swap

	// Generator state (latched on/off; ServoDyn other states).
	genOnLine, genOff4Good bool

	// Controller exchange.
	dllCalled        bool
	lastCallTime     float64
	cmd, prevCmd     bladed.Commands
	pitchFiltered    [3]float64
	pitchFilterReady bool
	yawPosComInt     float64
	lastGenTrq       float64
	lastElecPwr      float64

	// Manoeuvres: start values latched when a manoeuvre begins.
	pitManActive [3]bool
	pitManStart  [3]float64
	pitManRate   [3]float64
	pitManEnd    [3]float64
	yawManActive bool
	yawManStart  float64
	yawManRate   float64
	yawManEnd    float64

	// Actuator limits and the commands last applied (committed at the end
	// of Init and UpdateStates), from which CalcOutput limits the next.
	limits        bladed.ActuatorLimits
	applied       bool
	appliedTime   float64
	appliedPitch  [3]float64
	appliedGenTrq float64
}

// New validates p and creates the module. ctrl is required when any of
// PCMode, VSContrl, HSSBrMode or YCMode is 5 (see ResolveController).
func New(p Params, ctrl bladed.Controller) (*ServoDyn, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	d, err := p.derive()
	if err != nil {
		return nil, err
	}
	if p.usesController() && ctrl == nil {
		return nil, fmt.Errorf("servodyn: a Bladed-style controller is required (PCMode %d, VSContrl %d, HSSBrMode %d, YCMode %d) but none was given",
			p.PCMode, p.VSContrl, p.HSSBrMode, p.YCMode)
	}
	dllDT := p.DLLDT
	if dllDT == 0 {
		dllDT = p.DT
	}
	s := &ServoDyn{p: p, d: d, ctrl: ctrl}
	s.p.DLLDT = dllDT
	if lc, ok := ctrl.(bladed.LimitedController); ok && p.usesController() {
		s.limits = lc.ActuatorLimits()
	}
	if s.limits.PitchRate == 0 && p.usesController() && p.PtchRateMax > 0 {
		// Record 9 of the Bladed interface: the largest pitch rate the
		// deck declares for its actuator.
		s.limits.PitchRate = p.PtchRateMax
	}
	s.set = bladed.InterfaceSettings{
		CommInterval:    dllDT,
		PitchIndividual: p.PtchCntrl == 1,
		PitchSetPoint:   p.PtchSetPnt, PitchMin: p.PtchMin, PitchMax: p.PtchMax,
		PitchRateMin: p.PtchRateMin, PitchRateMax: p.PtchRateMax,
		OptModeGain: p.GainOM, GenSpdMinOM: p.GenSpdMinOM, GenSpdMaxOM: p.GenSpdMaxOM,
		GenSpdDem: p.GenSpdDem, GenTrqDem: p.GenTrqDem, GenPwrDem: p.GenPwrDem,
		NacYawNorth: p.NacYawNorth, InFileChars: len(p.DLLInFile) + 1, OutNameChars: p.OutRootChars + 1,
	}
	return s, nil
}

func (p *Params) usesController() bool {
	return p.PCMode == ModeDLL || p.VSContrl == ModeDLL || p.HSSBrMode == ModeDLL || p.YCMode == ModeDLL
}

// Init performs the controller's first call (status 0) with the initial
// inputs at t0 and returns the outputs at t0.
func (s *ServoDyn) Init(t0 float64, u Inputs) (Outputs, error) {
	s.yawPosComInt = u.Yaw
	s.genOnLine = s.generatorStarts(t0, u.HSSSpd)
	if s.ctrl != nil {
		if err := s.callController(bladed.StatusFirst, t0, u); err != nil {
			return Outputs{}, err
		}
		s.prevCmd = s.cmd
		for k := 0; k < 3; k++ {
			s.pitchFiltered[k] = s.cmd.BladePitch(k, s.set.PitchIndividual)
		}
		s.pitchFilterReady = true
	}
	y, err := s.CalcOutput(t0, u)
	if err != nil {
		return y, err
	}
	s.lastGenTrq, s.lastElecPwr = y.GenTrq, y.ElecPwr
	s.commit(t0, &y)
	return y, nil
}

// ActuatorLimits are the pitch-rate and generator-torque limits ServoDyn
// holds its applied commands to: the controller's own (its parameter
// set's PC_MaxRat, VS_MaxRat, VS_MaxTq), else the pitch rate of the
// Bladed-interface block (PtchRate_Max). Zero fields are not limited.
func (s *ServoDyn) ActuatorLimits() bladed.ActuatorLimits { return s.limits }

// commit records the commands applied at t; the next CalcOutput limits its
// commands relative to them.
func (s *ServoDyn) commit(t float64, y *Outputs) {
	s.applied, s.appliedTime = true, t
	s.appliedPitch = y.BlPitchCom
	s.appliedGenTrq = y.GenTrq
}

// limitStep moves from prev toward target by at most rate·dt (rate > 0).
func limitStep(prev, target, rate, dt float64) float64 {
	if !(rate > 0) {
		return target
	}
	// The glue's clock (n·DT) and ServoDyn's (t + DT) can differ in the
	// last bit, so an output asked for at the committed instant may come a
	// hair before it: no time has passed, the command cannot move.
	dt = math.Max(dt, 0)
	// The relative slack keeps a controller that honours the same limit
	// in its own arithmetic (single precision for a DLL) untouched.
	d := rate * dt * (1 + 1e-6)
	return math.Max(prev-d, math.Min(prev+d, target))
}

// UpdateStates advances the module from t to t+DT. uNext are the inputs at
// t+DT (extrapolated by the glue, as OpenFAST does for ServoDyn). The
// controller is called at t+DT when a DLL_DT interval has elapsed.
func (s *ServoDyn) UpdateStates(t float64, uNext Inputs) error {
	tNext := t + s.p.DT
	// Generator contactor logic evaluated at t+DT.
	if !s.genOff4Good {
		if s.genOnLine {
			if s.p.GenTiStp && tNext >= s.p.TimGenOf {
				s.genOnLine, s.genOff4Good = false, true
			}
		} else if s.generatorStarts(tNext, uNext.HSSSpd) {
			s.genOnLine = true
		}
	}
	if s.ctrl != nil && tNext-s.lastCallTime >= s.p.DLLDT*(1-1e-9) {
		s.prevCmd = s.cmd
		if err := s.callController(bladed.StatusRunning, tNext, uNext); err != nil {
			return err
		}
	}
	if s.ctrl != nil {
		// First-order low-pass on the controller's pitch demand, corner
		// BPCutoff (Hz), discretised exactly for the step DT.
		alpha := 0.0
		if s.p.BPCutoff > 0 {
			alpha = math.Exp(-2 * math.Pi * s.p.BPCutoff * s.p.DT)
		}
		for k := 0; k < 3; k++ {
			target := s.cmd.BladePitch(k, s.set.PitchIndividual)
			s.pitchFiltered[k] = alpha*s.pitchFiltered[k] + (1-alpha)*target
		}
		if s.p.YCMode == ModeDLL && tNext >= s.p.TYCOn {
			s.yawPosComInt += s.cmd.YawRate * s.p.DT
		}
	}
	// Off for good when the power falls to zero (GenTiStp = false).
	y, err := s.CalcOutput(tNext, uNext)
	if err != nil {
		return err
	}
	if s.genOnLine && !s.p.GenTiStp && y.ElecPwr <= 0 {
		s.genOnLine, s.genOff4Good = false, true
		y.GenTrq, y.ElecPwr = 0, 0
	}
	s.lastGenTrq, s.lastElecPwr = y.GenTrq, y.ElecPwr
	s.commit(tNext, &y)
	return nil
}

// End makes the controller's final call (status −1).
func (s *ServoDyn) End(t float64, u Inputs) error {
	if s.ctrl == nil {
		return nil
	}
	return s.callController(bladed.StatusLast, t, u)
}

func (s *ServoDyn) generatorStarts(t, hssSpd float64) bool {
	if s.genOff4Good {
		return false
	}
	if s.p.GenTiStr {
		return t >= s.p.TimGenOn
	}
	return hssSpd >= s.p.SpdGenOn
}

func (s *ServoDyn) callController(status int, t float64, u Inputs) error {
	m := bladed.Measurements{
		Time: t, NumBlades: s.p.NumBl, BlPitch: u.BlPitch,
		GenSpeed: u.HSSSpd, RotSpeed: u.LSSSpd,
		GenTorque: s.lastGenTrq, ElecPower: s.lastElecPwr, ShaftPower: u.RotPwr,
		YawError: u.YawErr, NacYaw: u.Yaw, HubWind: u.HorWindV,
		RootMyc: u.RootMyc, RootMxc: u.RootMxc, Azimuth: u.Azimuth,
		TwrTopAccFA: u.TwrTopAccFA, TwrTopAccSS: u.TwrTopAccSS,
		LSSTipMya: u.LSSTipMya, LSSTipMza: u.LSSTipMza, LSSTipMys: u.LSSTipMys, LSSTipMzs: u.LSSTipMzs,
		YawBrMyn: u.YawBrMyn, YawBrMzn: u.YawBrMzn, NacAngAcc: u.NacAngAcc,
		AirDensity: u.AirDensity, ShaftTorque: u.LSSTorque, ShaftForce: u.LSSForce,
		LastPitchDemand: s.cmd.PitchCollective,
		GenContactor:    s.cmd.GenContactor, BrakeStatus: s.cmd.BrakeStatus,
	}
	if status == bladed.StatusFirst {
		m.GenContactor = 1
	}
	bladed.Fill(&s.swap, status, m, s.set)
	if err := s.ctrl.Call(&s.swap); err != nil {
		return fmt.Errorf("servodyn: controller %s at t=%g s: %w", s.ctrl.Name(), t, err)
	}
	if status == bladed.StatusLast {
		return nil
	}
	cmd, err := bladed.Retrieve(&s.swap)
	if err != nil {
		return fmt.Errorf("servodyn: controller %s at t=%g s: %w", s.ctrl.Name(), t, err)
	}
	s.cmd = cmd
	s.lastCallTime = t
	s.dllCalled = true
	return nil
}

// CalcOutput computes the outputs at time t for inputs u. It does not change
// the module state except to latch the start of manoeuvres.
func (s *ServoDyn) CalcOutput(t float64, u Inputs) (Outputs, error) {
	var y Outputs
	s.pitchOutput(t, u, &y)
	if err := s.torqueOutput(t, u, &y); err != nil {
		return y, err
	}
	s.brakeOutput(t, u, &y)
	s.yawOutput(t, u, &y)
	return y, nil
}

func (s *ServoDyn) pitchOutput(t float64, u Inputs, y *Outputs) {
	p := &s.p
	for k := 0; k < p.NumBl; k++ {
		var com, rateCom float64
		if p.PCMode == ModeDLL && t >= p.TPCOn {
			com = s.pitchFiltered[k]
			if p.DLLRamp && s.dllCalled && p.DLLDT > p.DT {
				// Linear ramp from the previous to the latest demand over
				// one DLL_DT (introduces a DLL_DT time shift, as in ServoDyn).
				prev := s.prevCmd.BladePitch(k, s.set.PitchIndividual)
				frac := saturate01((t - s.lastCallTime) / p.DLLDT)
				com = prev + frac*(s.cmd.BladePitch(k, s.set.PitchIndividual)-prev)
			}
		} else {
			// No active pitch control: hold the neutral pitch (v5 behaviour).
			com = p.PitNeut[k]
		}
		// Override pitch manoeuvre: linear ramp at PitManRat toward BlPitchF
		// from the pitch at TPitManS.
		if t >= p.TPitManS[k] {
			if !s.pitManActive[k] {
				s.pitManActive[k] = true
				s.pitManStart[k] = u.BlPitch[k]
				s.pitManRate[k] = math.Copysign(p.PitManRat[k], p.BlPitchF[k]-u.BlPitch[k])
				s.pitManEnd[k] = p.TPitManS[k]
				if s.pitManRate[k] != 0 {
					s.pitManEnd[k] += (p.BlPitchF[k] - u.BlPitch[k]) / s.pitManRate[k]
				}
			}
			if t >= s.pitManEnd[k] {
				com, rateCom = p.BlPitchF[k], 0
			} else {
				com = s.pitManStart[k] + s.pitManRate[k]*(t-p.TPitManS[k])
				rateCom = s.pitManRate[k]
			}
		} else {
			s.pitManActive[k] = false
		}
		if s.applied {
			// The pitch actuator moves no faster than its rate limit: a
			// hand-over (the controller taking over at TPCOn from the
			// neutral pitch, a manoeuvre faster than the actuator) ramps
			// instead of stepping. OpenFAST passes the demand unchanged; a
			// controller that respects its own PC_MaxRat is not affected.
			com = limitStep(s.appliedPitch[k], com, s.limits.PitchRate, t-s.appliedTime)
		}
		y.BlPitchCom[k] = com
		// Pitch actuator spring/damper toward the command (used by
		// ElastoDyn only when PitchDOF is enabled).
		y.BlPitchMom[k] = -p.PitSpr[k]*(u.BlPitch[k]-com) - p.PitDamp[k]*(u.BlPRate[k]-rateCom)
	}
}

func saturate01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// GenOnLine reports whether the generator is connected at the last update.
func (s *ServoDyn) GenOnLine() bool { return s.genOnLine }

func (s *ServoDyn) torqueOutput(t float64, u Inputs, y *Outputs) error {
	p := &s.p
	online := s.genOnLine || s.generatorStarts(t, u.HSSSpd) && !s.genOff4Good
	if s.genOnLine && p.GenTiStp && t >= p.TimGenOf {
		online = false
	}
	if !online {
		y.GenTrq, y.ElecPwr = 0, 0
		return nil
	}
	w := u.HSSSpd
	switch p.VSContrl {
	case ModeSimple:
		y.GenTrq = SimpleVSTorque(w, p.VSRtGnSp, p.VSRtTq, p.VSRgn2K, s.d.vsTrGnSp, s.d.vsSlope, s.d.vsSySp)
		y.ElecPwr = elecPower(y.GenTrq, w, p.GenEff)
	case ModeDLL:
		if s.cmd.GenContactor == 0 && s.dllCalled {
			y.GenTrq, y.ElecPwr = 0, 0
			return nil
		}
		y.GenTrq = s.cmd.GenTorque
		if lim := s.limits; lim.TorqueMax > 0 || lim.TorqueRate > 0 {
			// The converter of a limited controller delivers generating
			// torque up to VS_MaxTq, changing at VS_MaxRat from what it
			// applied last (zero while disconnected, so a connection
			// ramps the torque in rather than stepping it).
			y.GenTrq = math.Max(0, y.GenTrq)
			if lim.TorqueMax > 0 {
				y.GenTrq = math.Min(y.GenTrq, lim.TorqueMax)
			}
			if s.applied {
				y.GenTrq = limitStep(s.appliedGenTrq, y.GenTrq, lim.TorqueRate, t-s.appliedTime)
			}
		}
		y.ElecPwr = elecPower(y.GenTrq, w, p.GenEff)
	case ModeNone:
		switch p.GenModel {
		case 1:
			// Simple induction generator: linear in slip up to the pull-out
			// slip, constant pull-out torque beyond.
			slip := w - p.SIGSySp
			if math.Abs(slip) > s.d.sigPOSl {
				y.GenTrq = math.Copysign(s.d.sigPOTq, slip)
			} else {
				y.GenTrq = slip * s.d.sigSlop
			}
			if y.GenTrq > 0 {
				y.ElecPwr = y.GenTrq * w * p.GenEff
			} else {
				y.ElecPwr = y.GenTrq * w / p.GenEff
			}
		case 2:
			y.GenTrq, y.ElecPwr = s.theveninGenerator(w)
		}
	}
	return nil
}

// SimpleVSTorque is ServoDyn's simple variable-speed law (VSContrl = 1):
// constant torque at and above rated speed, K·ω² below the transition speed,
// and the region-2½ line of slope s through the synchronous speed between.
func SimpleVSTorque(w, rtGnSp, rtTq, rgn2K, trGnSp, slope, sySp float64) float64 {
	switch {
	case w >= rtGnSp:
		return rtTq
	case w < trGnSp:
		return rgn2K * w * w
	default:
		return slope * (w - sySp)
	}
}

// elecPower applies the efficiency subtractively when generating and
// additively when motoring (ServoDyn CalculateElecPwr).
func elecPower(trq, w, eff float64) float64 {
	if trq*w >= 0 {
		return trq * w * eff
	}
	return trq * w / eff
}

// theveninGenerator returns torque and electrical power of the
// Thevenin-equivalent induction generator at HSS speed w.
func (s *ServoDyn) theveninGenerator(w float64) (float64, float64) {
	p, d := &s.p, &s.d
	slipRat := (w - d.tecSySp) / d.tecSySp
	if slipRat == 0 {
		return 0, 0
	}
	trq := d.tecA0 * p.TECVLL * p.TECVLL * slipRat / (d.tecC0 + d.tecC1*slipRat + d.tecC2*slipRat*slipRat)
	rr := d.tecRe1 - p.TECRRes/slipRat
	xx := d.tecXe1 + p.TECRLR
	den := rr*rr + xx*xx
	i2 := complex(d.tecV1a*rr/den, -d.tecV1a*xx/den)
	im := complex(0, -d.tecV1a/p.TECMR)
	i1 := i2 + im
	lossS := 3 * math.Pow(cmplx.Abs(i1), 2) * p.TECSRes
	lossR := 3 * math.Pow(cmplx.Abs(i2), 2) * p.TECRRes
	return trq, trq*w - lossS - lossR
}

func (s *ServoDyn) brakeOutput(t float64, u Inputs, y *Outputs) {
	p := &s.p
	frac := 0.0
	switch p.HSSBrMode {
	case ModeSimple:
		if t >= p.THSSBrDp {
			// Linear deployment over HSSBrDT, then full torque.
			frac = saturate01((t - p.THSSBrDp) / p.HSSBrDT)
		}
	case ModeDLL:
		if s.cmd.BrakeTorque > 0 && p.HSSBrTqF > 0 {
			frac = saturate01(s.cmd.BrakeTorque / p.HSSBrTqF)
		} else if s.cmd.BrakeStatus != 0 {
			frac = 1
		}
	}
	// The brake torque opposes the shaft rotation.
	y.HSSBrTrqC = math.Copysign(frac*p.HSSBrTqF, u.HSSSpd)
	if frac == 0 {
		y.HSSBrTrqC = 0
	}
}

func (s *ServoDyn) yawOutput(t float64, u Inputs, y *Outputs) {
	p := &s.p
	posCom, rateCom := p.YawNeut, 0.0
	if p.YCMode == ModeDLL && t >= p.TYCOn {
		posCom, rateCom = s.yawPosComInt, s.cmd.YawRate
	}
	// Override yaw manoeuvre: linear ramp at YawManRat toward NacYawF from
	// the command at TYawManS.
	if t >= p.TYawManS {
		if !s.yawManActive {
			s.yawManActive = true
			s.yawManStart = posCom
			s.yawManRate = math.Copysign(p.YawManRat, p.NacYawF-posCom)
			s.yawManEnd = p.TYawManS
			if s.yawManRate != 0 {
				s.yawManEnd += (p.NacYawF - posCom) / s.yawManRate
			}
		}
		if t >= s.yawManEnd {
			posCom, rateCom = p.NacYawF, 0
		} else {
			posCom = s.yawManStart + s.yawManRate*(t-p.TYawManS)
			rateCom = s.yawManRate
		}
	} else {
		s.yawManActive = false
	}
	y.YawPosCom, y.YawRateCom = posCom, rateCom
	// Yaw spring and damper toward the commanded position and rate.
	y.YawMom = -p.YawSpr*(u.Yaw-posCom) - p.YawDamp*(u.YawRate-rateCom)
}
