// Package rosco is a built-in controller equivalent to NREL's ROSCO v2.9.4
// (Abbas, Zalkind, Pao, Wright 2022, "A reference open-source controller for
// fixed and floating offshore wind turbines", Wind Energ. Sci. 7, 53-73),
// configured from a DISCON.IN file and called through the Bladed-style
// record exchange (bladed.Controller).
//
// Implemented (ROSCO v2.9.4 semantics): generator- and
// rotor-speed low-pass filters (first or second order) and notch filters;
// the wind-speed estimator (WE_Mode 0 filtered hub wind, 1 immersion and
// invariance, 2 extended Kalman filter on the Cp surface); set-point
// computation and the state machine; the set-point smoother (SS_Mode);
// variable-speed torque control (VS_ControlMode 0/1: K·ω² with PI
// transitions in regions 1½ and 2½; 2/3: PI TSR tracking on the estimated
// wind); gain-scheduled collective pitch PI on the filtered commanded pitch;
// peak shaving / minimum pitch (PS_Mode); nacelle-velocity (floating)
// feedback (Fl_Mode 1, 2) with tower-top notches; pitch and torque saturation
// and rate limits; the pitch actuator model (PA_Mode). Individual pitch, yaw,
// tower damping, shutdown, power reference, open loop and
// the other optional modes are rejected by Params.Validate.
package rosco

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// Estimator constants of ROSCO's EKF (Abbas et al. 2022 §2.4; fixed in the
// code, not read from DISCON.IN): turbulence length scale L = 6R, turbulence
// intensity 0.18, measurement noise R_m = 0.02 (rad/s)², process noise on the
// rotor speed 1e-5 and on the mean wind (2 m/s)²/600 s.
const (
	ekfLengthScaleRadii = 6.0
	ekfTurbIntensity    = 0.18
	ekfMeasNoise        = 0.02
	ekfSpeedNoise       = 1e-5
	ekfMeanWindNoise    = 4.0 / 600.0
)

// VS state machine values (ROSCO's VS_State).
const (
	vsStateError     = 0
	vsStateRegion1_5 = 1
	vsStateRegion2   = 2
	vsStateRegion2_5 = 3
	vsStateConstTq   = 4
	vsStateConstPwr  = 5
)

// Controller is the ROSCO-equivalent controller. Create it with New.
type Controller struct {
	p Params

	// Derived parameters (ROSCO SetParameters).
	vsMinOMTq, vsMaxOMTq float64

	started bool

	// Local variables (ROSCO LocalVar), SI units.
	dt, time                   float64
	genSpeed, rotSpeed         float64
	genSpeedF, rotSpeedF       float64
	genTqMeas, genPwr          float64
	genPwrF                    float64
	horWindV, horWindVF        float64
	nacVane                    float64
	flAcc, flAccF, flPitCom    float64
	blPitch                    [3]float64
	blPitchCMeas               float64
	numBl                      int
	pitCom, pitComAct          [3]float64
	pcPitComT, pcPitComTLast   float64
	pcPitComTF                 float64
	pcMinPit, pcMaxPit         float64
	pcSpdErr                   float64
	pcState, vsState           int
	vsRefSpd                   float64
	vsSpdErr, vsSpdErrAr       float64
	vsSpdErrBr                 float64
	vsRgn3Pitch                float64
	vsLastGenTrq, vsLastGenPwr float64
	vsLastGenTrqF              float64
	vsMaxTq                    float64
	genTq, genArTq, genBrTq    float64
	weVw, weVwF, weVwI         float64
	weOp, weOpLast             int
	ssDelOmegaF                float64

	// EKF state.
	ekfX  [3]float64 // rotor speed, turbulent and mean wind
	ekfP  [3][3]float64
	ekfK  [3]float64
	ekfVh float64

	// Filter and controller instances (one per call site).
	fGenSpeed1, fRotSpeed1 lowPass1
	fGenSpeed2, fRotSpeed2 lowPass2
	fGenNotch              []notch
	fFloat                 floatFeedback
	fWindEst               lowPass1
	fHorWind               lowPass1
	fLastGenTrq            lowPass2
	fPitComT               lowPass2
	fSetpoint              lowPass1
	fGenPwr                lowPass1
	fActuator1             [3]lowPass1
	fActuator2             [3]lowPass2
	piPitch, piTorque      piController
	piTorqueAr, piTorqueBr piController
}

// New returns a controller for validated parameters.
func New(p Params) (*Controller, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	c := &Controller{p: p}
	c.vsMinOMTq = p.VSRgn2K * p.VSMinOMSpd * p.VSMinOMSpd
	c.vsMaxOMTq = p.VSRgn2K * p.VSRefSpd * p.VSRefSpd
	c.fGenNotch = make([]notch, len(p.FGenSpdNotchInd))
	c.fFloat.notches = make([]notch, len(p.FTwrTopNotchInd))
	return c, nil
}

// Name identifies the controller in messages.
func (c *Controller) Name() string { return "ROSCO v2.9.4-equivalent (built-in)" }

// ActuatorLimits implements bladed.LimitedController from the DISCON.IN's
// PC_MaxRat, VS_MaxRat, VS_MaxTq and VS_MinOMSpd.
func (c *Controller) ActuatorLimits() bladed.ActuatorLimits { return c.p.ActuatorLimits() }

// ActuatorLimits are the limits of a controller built from p.
func (p Params) ActuatorLimits() bladed.ActuatorLimits {
	return bladed.ActuatorLimits{PitchRate: p.PCMaxRat, TorqueRate: p.VSMaxRat, TorqueMax: p.VSMaxTq, CutInGenSpeed: p.VSMinOMSpd}
}

// Diagnostics are internal signals useful for tests and debugging (ROSCO's
// .dbg channels).
type Diagnostics struct {
	GenSpeedF, RotSpeedF float64
	WindEstimate         float64 // WE_Vw (m/s)
	WindEstimateF        float64 // WE_Vw_F (m/s)
	VSRefSpd             float64
	PCMinPit             float64
	SetpointShift        float64 // SS_DelOmegaF (rad/s)
	VSState, PCState     int
	EstimatorOperating   bool
}

// Diagnostics returns the current internal signals.
func (c *Controller) Diagnostics() Diagnostics {
	return Diagnostics{
		GenSpeedF: c.genSpeedF, RotSpeedF: c.rotSpeedF,
		WindEstimate: c.weVw, WindEstimateF: c.weVwF,
		VSRefSpd: c.vsRefSpd, PCMinPit: c.pcMinPit, SetpointShift: c.ssDelOmegaF,
		VSState: c.vsState, PCState: c.pcState, EstimatorOperating: c.weOp == 1,
	}
}

// Call implements bladed.Controller; the call order is that of ROSCO
// v2.9.4's DISCON: read records, set parameters (first call), pre-filter,
// wind-speed estimator, set-points, state machine, set-point smoother,
// torque control, pitch control.
func (c *Controller) Call(s *bladed.Swap) error {
	status := int(math.Round(s[bladed.RecStatus]))
	// Outputs ROSCO fixes every call.
	s[bladed.RecGenContactor] = 1
	s[bladed.RecBrakeStatus] = 0
	s[bladed.RecYawActTorque] = 0
	s[bladed.RecPitchRateDem] = 0
	s[bladed.RecPitchOverride] = 0
	s[bladed.RecTorqueOverride] = 0
	s[bladed.RecNumLogVars] = 0
	s[bladed.RecYawRateDem] = 0
	if status == bladed.StatusLast {
		return nil
	}
	first := status == bladed.StatusFirst || !c.started
	if err := c.readRecords(s, first); err != nil {
		return err
	}
	if first {
		c.setParameters()
	}
	c.preFilter(first)
	c.windSpeedEstimator(first)
	c.computeSetpoints()
	c.stateMachine(first)
	c.setpointSmoother(first)
	c.variableSpeedControl(s, first)
	c.pitchControl(s, first)
	c.started = true
	for _, v := range []float64{s[bladed.RecGenTqDem], s[bladed.RecPitchDemColl]} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("rosco: non-finite demand at t=%g s (generator speed %g rad/s, wind estimate %g m/s)", c.time, c.genSpeed, c.weVw)
		}
	}
	return nil
}

func (c *Controller) readRecords(s *bladed.Swap, first bool) error {
	c.time = s[bladed.RecTime]
	c.dt = s[bladed.RecCommInterval]
	if !(c.dt > 0) {
		return fmt.Errorf("rosco: communication interval (record %d) must be > 0, got %g", bladed.RecCommInterval, c.dt)
	}
	c.genSpeed = s[bladed.RecGenSpeed]
	c.rotSpeed = s[bladed.RecRotorSpeed]
	c.genPwr = s[bladed.RecElecPower]
	c.genTqMeas = s[bladed.RecGenTorque]
	c.nacVane = s[bladed.RecYawError]
	switch c.p.FlMode {
	case 1:
		c.flAcc = s[bladed.RecTwrTopAccFA]
	case 2:
		c.flAcc = s[bladed.RecNacNodAcc]
	}
	if first && c.time == 0 {
		c.flAcc = 0 // ROSCO forces the acceleration signals to start at 0
	}
	c.horWindV = s[bladed.RecHubWind]
	c.numBl = int(math.Round(s[bladed.RecNumBlades]))
	if c.numBl < 1 || c.numBl > 3 {
		return fmt.Errorf("rosco: number of blades (record %d) is %d, need 1-3", bladed.RecNumBlades, c.numBl)
	}
	// ROSCO feeds back its own previous actuator demand as the pitch
	// "measurement" after the first call (v2.9 ReadAvrSWAP).
	if first {
		c.blPitch = [3]float64{s[bladed.RecBlPitch1], s[bladed.RecBlPitch2], s[bladed.RecBlPitch3]}
	} else {
		c.blPitch = c.pitComAct
	}
	sum := 0.0
	for k := 0; k < c.numBl; k++ {
		sum += c.blPitch[k]
	}
	c.blPitchCMeas = sum / float64(c.numBl)
	return nil
}

// setParameters initialises local variables on the first call (ROSCO
// SetParameters).
func (c *Controller) setParameters() {
	p := c.p
	c.pitCom = c.blPitch
	c.pitComAct = c.blPitch
	c.pcPitComT = c.blPitch[0]
	c.pcPitComTLast = c.blPitch[0]
	c.pcMinPit = p.PCFinePit
	c.weVw = c.horWindV
	c.weVwI = c.weVw - p.WEGamma*c.rotSpeed
	c.ssDelOmegaF = 0
	if c.genSpeed > 0.98*p.PCRefSpd {
		c.genTq = p.VSRtTq
	} else {
		c.genTq = math.Min(p.VSRtTq, p.VSRgn2K*c.genSpeed*c.genSpeed)
	}
	c.vsLastGenTrq = c.genTq
	c.vsMaxTq = p.VSMaxTq
	c.genPwr = c.genTq * c.genSpeed
	// VS_LastGenPwr is not initialised by ROSCO's SetParameters: it is set
	// only at the end of the torque controller, so the set-point smoother of
	// the first call sees 0 (a power deficit of 100 %, ΔΩ = −SS_PCGain·
	// PC_RefSpd before filtering). The smoother's filter starts from that
	// value, which shifts the pitch speed reference of the whole start-up
	// (visible in OpenFAST's 13 m/s IEA-15 start-up where the pitch leaves
	// its peak-shaving minimum at 3.6 s).
	c.vsLastGenPwr = 0
}

func (c *Controller) preFilter(reset bool) {
	p := c.p
	if p.FLPFType == 1 {
		c.genSpeedF = c.fGenSpeed1.step(c.genSpeed, c.dt, p.FLPFCornerFreq, reset, c.genSpeed)
		c.rotSpeedF = c.fRotSpeed1.step(c.rotSpeed, c.dt, p.FLPFCornerFreq, reset, c.rotSpeed)
	} else {
		c.genSpeedF = c.fGenSpeed2.step(c.genSpeed, c.dt, p.FLPFCornerFreq, p.FLPFDamping, reset)
		c.rotSpeedF = c.fRotSpeed2.step(c.rotSpeed, c.dt, p.FLPFCornerFreq, p.FLPFDamping, reset)
	}
	for i, k := range p.FGenSpdNotchInd {
		c.genSpeedF = c.fGenNotch[i].step(c.genSpeedF, c.dt, p.FNotchFreqs[k-1], p.FNotchBetaNum[k-1], p.FNotchBetaDen[k-1], reset)
	}
	c.weVwF = c.fWindEst.step(c.weVw, c.dt, p.FWECornerFreq, reset, c.weVw)
	// Commands fed back for the estimator and the gain schedule: the last
	// torque demand (2nd order at F_LPFCornerFreq, ζ 0.7) and the last
	// collective pitch demand (2nd order at F_LPFCornerFreq/4, ζ 0.7).
	c.vsLastGenTrqF = c.fLastGenTrq.step(c.vsLastGenTrq, c.dt, p.FLPFCornerFreq, 0.7, reset)
	c.pcPitComTF = c.fPitComT.step(c.pcPitComT, c.dt, p.FLPFCornerFreq*0.25, 0.7, reset)
}

// windSpeedEstimator implements WE_Mode 0, 1 and 2 (Abbas et al. 2022 §2.4).
func (c *Controller) windSpeedEstimator(first bool) {
	p := c.p
	// Saturate the estimator inputs; leaving the valid range switches the
	// estimator off (WE_Op = 0) and falls back on the filtered hub wind.
	minSpeed := 0.25 * p.VSMinOMSpd / math.Max(p.WEGearboxRatio, 1e-12)
	inSpeed := c.rotSpeedF
	if inSpeed < minSpeed {
		inSpeed = minSpeed + 2.220446049250313e-16
	}
	maxPitch := 0.0
	if p.WEMode > 0 {
		maxPitch = p.PerfTable.PitchDeg[len(p.PerfTable.PitchDeg)-1] * math.Pi / 180
	}
	inPitch := saturate(c.blPitchCMeas, p.PCMinPit, maxPitch)
	inTorque := c.vsLastGenTrqF
	if inTorque < 1e-4*p.VSRtTq {
		inTorque = 1e-4 * p.VSRtTq
	}
	c.weOpLast = c.weOp
	switch {
	case inPitch != c.blPitchCMeas, inTorque != c.vsLastGenTrqF, inSpeed != c.rotSpeedF:
		c.weOp = 0
	default:
		c.weOp = 1
	}
	restart := first
	if p.WEMode > 0 && c.weOp != c.weOpLast && !first {
		restart = true
	}
	c.horWindVF = math.Cos(c.nacVane) * c.fHorWind.step(c.horWindV, c.dt, p.FWECornerFreq, restart, c.weVw)

	switch {
	case p.WEMode == 1 && c.weOp > 0:
		tau := c.aeroTorque(c.rotSpeedF, c.blPitchCMeas)
		dvi := p.WEGamma / p.WEJtot * (c.vsLastGenTrq*p.WEGearboxRatio - tau)
		c.weVwI += dvi * c.dt
		c.weVw = c.weVwI + p.WEGamma*c.rotSpeedF
	case p.WEMode == 2 && c.weOp > 0:
		c.extendedKalmanFilter(restart, inSpeed, inPitch, inTorque)
	default:
		c.weVw = c.horWindVF
	}
}

// aeroTorque is the rotor torque the estimator expects from the Cp surface:
// Q = ½ρπR² v³ Cp(β, λ)/Ω with λ = ΩR/v at the current estimate v.
func (c *Controller) aeroTorque(rotSpeed, pitch float64) float64 {
	p := c.p
	v := math.Max(c.weVw, 2.220446049250313e-16)
	lambda := rotSpeed * p.WEBladeRadius / v
	cp := p.PerfTable.CpAt(pitch*180/math.Pi, lambda)
	return 0.5 * p.WERhoAir * math.Pi * p.WEBladeRadius * p.WEBladeRadius * v * v * v * cp / rotSpeed
}

// extendedKalmanFilter is ROSCO's continuous-discrete EKF on the states
// (Ω, v_t, v_m): Ω̇ = (Q_a − N·Q_g)/J, v̇_t = −π v_m/(2L)·v_t, v̇_m = 0,
// measuring the filtered rotor speed (Abbas et al. 2022 §2.4, eq. 13-16).
func (c *Controller) extendedKalmanFilter(restart bool, inSpeed, inPitch, inTorque float64) {
	p := c.p
	L := ekfLengthScaleRadii * p.WEBladeRadius
	if restart {
		vm := math.Max(c.weVw, 3)
		c.ekfX = [3]float64{inSpeed, 0, vm}
		c.ekfVh = vm
		c.ekfP = [3][3]float64{{0.01, 0, 0}, {0, 0.01, 0}, {0, 0, 1}}
		c.ekfK = [3]float64{}
		return
	}
	omR, vt, vm, vh := c.ekfX[0], c.ekfX[1], c.ekfX[2], c.ekfVh
	aOp := interp1(p.WEFOPolesV, p.WEFOPoles, vh)
	lambda := math.Max(inSpeed, 2.220446049250313e-16) * p.WEBladeRadius / vh
	cpOp := math.Max(0, p.PerfTable.CpAt(inPitch*180/math.Pi, lambda))

	var F, Q [3][3]float64
	dOmdV := 1 / (2 * p.WEJtot) * p.WERhoAir * math.Pi * p.WEBladeRadius * p.WEBladeRadius / omR * 3 * cpOp * vh * vh
	F[0][0] = aOp
	F[0][1] = dOmdV
	F[0][2] = dOmdV
	F[1][1] = -math.Pi * vm / (2 * L)
	F[1][2] = -math.Pi * vt / (2 * L)
	Q[0][0] = ekfSpeedNoise
	Q[1][1] = math.Pi * vm * vm * vm * ekfTurbIntensity * ekfTurbIntensity / L
	Q[2][2] = ekfMeanWindNoise

	// Prediction.
	tau := c.aeroTorque(inSpeed, inPitch)
	a := math.Pi * vm / (2 * L)
	c.ekfX[0] += c.dt * (tau - p.WEGearboxRatio*inTorque) / p.WEJtot
	c.ekfX[1] += c.dt * (-a * vt)
	var P [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			fp, pf := 0.0, 0.0
			for k := 0; k < 3; k++ {
				fp += F[i][k] * c.ekfP[k][j]
				pf += c.ekfP[i][k] * F[j][k]
			}
			P[i][j] = c.ekfP[i][j] + c.dt*(fp+pf+Q[i][j]-c.ekfK[i]*ekfMeasNoise*c.ekfK[j])
		}
	}
	// Measurement update with H = [1 0 0].
	S := P[0][0] + ekfMeasNoise
	for i := 0; i < 3; i++ {
		c.ekfK[i] = P[i][0] / S
	}
	innov := inSpeed - omR
	for i := 0; i < 3; i++ {
		c.ekfX[i] += c.ekfK[i] * innov
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c.ekfP[i][j] = P[i][j] - c.ekfK[i]*P[0][j]
		}
	}
	c.ekfX[0] = math.Max(c.ekfX[0], 2.220446049250313e-16)
	c.ekfVh = c.ekfX[1] + c.ekfX[2]
	c.weVw = c.ekfVh
	if math.IsNaN(c.ekfVh) {
		c.ekfX = [3]float64{inSpeed, 0, c.horWindV}
		c.ekfVh = c.horWindV
		c.weVw = c.horWindV
	}
}

func (c *Controller) computeSetpoints() {
	p := c.p
	pcRef := p.PCRefSpd
	if c.ssDelOmegaF < 0 {
		pcRef -= c.ssDelOmegaF
	}
	c.pcSpdErr = pcRef - c.genSpeedF

	ref := p.VSRefSpd
	if p.VSControlMode == 2 {
		// TSR tracking: Ω_ref = λ_opt·v̂/R, on the HSS side.
		ref = p.VSTSRopt * c.weVwF / p.WEBladeRadius * p.WEGearboxRatio
	} else if p.VSControlMode == 3 {
		// Power-based reference independent of the wind estimate: the speed
		// at which K·ω² would absorb the filtered power, ω = (P_f/K)^(1/3).
		c.genPwrF = c.fGenPwr.step(c.genPwr, c.dt, p.VSPwrFiltF, !c.started, c.genPwr)
		ref = math.Cbrt(math.Max(c.genPwrF, 0) / p.VSRgn2K)
	}
	ref = saturate(ref, p.VSMinOMSpd, p.VSRefSpd)
	if c.ssDelOmegaF > 0 {
		ref -= c.ssDelOmegaF
	}
	ref = math.Max(ref, p.VSMinOMSpd)
	c.vsRefSpd = ref
	if p.VSControlMode >= 2 {
		c.vsSpdErr = ref - c.genSpeedF
	}
	c.vsSpdErrAr = ref - c.genSpeedF
	c.vsSpdErrBr = p.VSMinOMSpd - c.genSpeedF
	c.vsRgn3Pitch = c.pcMinPit + p.PCSwitch
}

func (c *Controller) stateMachine(first bool) {
	p := c.p
	region3 := func() int {
		if p.VSConstPower == 1 {
			return vsStateConstPwr
		}
		return vsStateConstTq
	}
	if first {
		if c.pitCom[0] >= c.vsRgn3Pitch {
			c.vsState, c.pcState = region3(), 1
		} else {
			c.vsState, c.pcState = vsStateRegion2, 0
		}
		return
	}
	if p.PCControlMode == 1 {
		c.pcState = 1
	} else {
		c.pcState = 0
	}
	switch {
	case c.pcPitComT >= c.vsRgn3Pitch:
		c.vsState = region3()
	case c.genArTq >= c.vsMaxOMTq*1.01:
		c.vsState = vsStateRegion2_5
	case c.genSpeedF < p.VSRefSpd && c.genBrTq >= c.vsMinOMTq:
		c.vsState = vsStateRegion2
	case c.genBrTq < c.vsMinOMTq:
		c.vsState = vsStateRegion1_5
	default:
		c.vsState = vsStateError
	}
}

// setpointSmoother shifts the torque and pitch speed references apart near
// rated (Abbas et al. 2022 §2.3): ΔΩ = [(θ−θ_min)/0.524·k_VS − (P_r−P)/P_r·k_PC]·Ω_ref,
// low-pass filtered at F_SSCornerFreq.
func (c *Controller) setpointSmoother(first bool) {
	p := c.p
	if p.SSMode != 1 {
		c.ssDelOmegaF = 0
		return
	}
	del := (c.pcPitComT-c.pcMinPit)/0.524*p.SSVSGain - (p.VSRtPwr-c.vsLastGenPwr)/p.VSRtPwr*p.SSPCGain
	del *= p.PCRefSpd
	c.ssDelOmegaF = c.fSetpoint.step(del, c.dt, p.FSSCornerFreq, first, del)
}

func (c *Controller) variableSpeedControl(s *bladed.Swap, first bool) {
	p := c.p
	c.vsMaxTq = p.VSRtTq
	eff := p.VSGenEff / 100
	if p.VSControlMode >= 2 {
		if p.VSConstPower == 1 {
			c.vsMaxTq = math.Min(p.VSRtPwr/eff/c.genSpeedF, p.VSMaxTq)
		}
		c.genTq = c.piTorque.step(c.vsSpdErr, p.VSKP[0], p.VSKI[0], p.VSMinTq, c.vsMaxTq, c.dt, c.vsLastGenTrq, first)
		c.genTq = saturate(c.genTq, p.VSMinTq, c.vsMaxTq)
	} else {
		c.genArTq = c.piTorqueAr.step(c.vsSpdErrAr, p.VSKP[0], p.VSKI[0], c.vsMaxOMTq, p.VSArSatTq, c.dt, c.vsMaxOMTq, first)
		c.genBrTq = c.piTorqueBr.step(c.vsSpdErrBr, p.VSKP[0], p.VSKI[0], p.VSMinTq, c.vsMinOMTq, c.dt, c.vsMinOMTq, first)
		switch c.vsState {
		case vsStateRegion1_5:
			c.genTq = c.genBrTq
		case vsStateRegion2:
			c.genTq = p.VSRgn2K * c.genSpeedF * c.genSpeedF
		case vsStateRegion2_5:
			c.genTq = c.genArTq
		case vsStateConstTq:
			c.genTq = p.VSRtTq
		case vsStateConstPwr:
			c.genTq = p.VSRtPwr / eff / c.genSpeedF
		}
		c.genTq = saturate(c.genTq, p.VSMinTq, p.VSMaxTq)
	}
	c.genTq = math.Min(c.genTq, p.VSMaxTq)
	c.genTq = rateLimitReset(c.genTq, c.vsLastGenTrq, -p.VSMaxRat, p.VSMaxRat, c.dt, first, c.genTq)
	c.vsLastGenTrq = c.genTq
	c.vsLastGenPwr = c.genPwr
	s[bladed.RecGenTqDem] = math.Max(0, c.vsLastGenTrq)
}

func (c *Controller) pitchControl(s *bladed.Swap, first bool) {
	p := c.p
	if p.PCControlMode == 0 {
		for k := 0; k < 3; k++ {
			c.pitComAct[k] = p.PCFinePit
		}
		c.writePitch(s)
		return
	}
	if c.pcState == 1 {
		c.pcMaxPit = p.PCMaxPit
	} else {
		c.pcMaxPit = p.PCFinePit
	}
	// Gains scheduled on the filtered commanded pitch (v2.9.4).
	kp := interp1(p.PCGSAngles, p.PCGSKP, c.pcPitComTF)
	ki := interp1(p.PCGSAngles, p.PCGSKI, c.pcPitComTF)
	c.pcPitComT = c.piPitch.step(c.pcSpdErr, kp, ki, c.pcMinPit, c.pcMaxPit, c.dt, c.blPitch[0], first)

	// Peak shaving: minimum pitch from the estimated wind (PS_Mode 1).
	if p.PSMode > 0 {
		c.pcMinPit = math.Max(interp1(p.PSWindSpeeds, p.PSBldPitchMin, c.weVwF), p.PCFinePit)
	} else {
		c.pcMinPit = p.PCFinePit
	}
	// Nacelle-velocity feedback (Fl_Mode 1, 2), added before saturation.
	if p.FlMode > 0 {
		c.flAccF, c.flPitCom = c.fFloat.step(&c.p, c.flAcc, c.weVwF, c.dt, first)
		c.pcPitComT += c.flPitCom
	}

	c.pcPitComT = saturate(c.pcPitComT, c.pcMinPit, p.PCMaxPit)
	c.pcPitComT = rateLimitReset(c.pcPitComT, c.pcPitComTLast, p.PCMinRat, p.PCMaxRat, c.dt, first, c.blPitchCMeas)
	c.pcPitComTLast = c.pcPitComT
	for k := 0; k < c.numBl; k++ {
		cmd := saturate(c.pcPitComT, c.pcMinPit, p.PCMaxPit)
		c.pitCom[k] = rateLimitReset(cmd, c.pitCom[k], p.PCMinRat, p.PCMaxRat, c.dt, first, c.blPitch[k])
	}
	for k := 0; k < c.numBl; k++ {
		act := c.pitCom[k]
		switch p.PAMode {
		case 1:
			act = c.fActuator1[k].step(act, c.dt, p.PACornerFreq, first, act)
		case 2:
			act = c.fActuator2[k].step(act, c.dt, p.PACornerFreq, p.PADamping, first)
		}
		act = saturate(act, c.pcMinPit, p.PCMaxPit)
		c.pitComAct[k] = rateLimitReset(act, c.blPitch[k], p.PCMinRat, p.PCMaxRat, c.dt, first, c.blPitch[k])
	}
	c.writePitch(s)
}

func (c *Controller) writePitch(s *bladed.Swap) {
	s[bladed.RecPitchDem1] = c.pitComAct[0]
	s[bladed.RecPitchDem2] = c.pitComAct[1]
	s[bladed.RecPitchDem3] = c.pitComAct[2]
	s[bladed.RecPitchDemColl] = c.pitComAct[0]
}
