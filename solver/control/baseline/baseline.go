// Package baseline implements the NREL 5 MW baseline control system of
// Jonkman, Butterfield, Musial and Scott (2009), "Definition of a 5-MW
// Reference Wind Turbine for Offshore System Development", NREL/TP-500-38060,
// §7, as a built-in Bladed-style controller (bladed.Controller).
//
// The control laws (§7.1-7.4):
//   - generator speed measured through a single-pole recursive low-pass
//     filter with corner frequency 0.25 Hz (eq. 7-1, α = exp(−2π f_c T_s));
//   - generator torque as a function of filtered speed in regions 1, 1½, 2,
//     2½ and 3 (figure 7-2): zero below cut-in, a linear ramp in 1½, the
//     optimal-mode law K·ω² in 2, a line towards the synchronous speed of a
//     10 %-slip induction machine in 2½, and constant power P/ω in 3 (also
//     whenever the pitch demand exceeds 1°), saturated at 47402.91 N·m and
//     rate-limited to 15 kN·m/s;
//   - collective pitch by a gain-scheduled PI on the filtered speed error,
//     GK(θ) = 1/(1+θ/θ_K) (eq. 7-15, θ_K = 6.302336°), with the integrator
//     saturated at the pitch limits and the demand rate-limited to 8 °/s.
//
// Numbers are those of the report (table 7-1 and appendix) and of NREL's
// published DISCON source for the 5 MW turbine; the arithmetic is float64 on
// float32-rounded avrSWAP records.
package baseline

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/control/bladed"
)

// Params are the controller constants. DefaultParams returns the NREL 5 MW
// values; units are SI (rad, rad/s, N·m, W, s).
type Params struct {
	CornerFreq float64 // generator-speed low-pass corner frequency (rad/s)

	PitchCtrlInterval float64 // PC_DT: pitch controller sample interval (s)
	PitchKI           float64 // PC_KI: integral gain at zero pitch (s)
	PitchKK           float64 // PC_KK: pitch angle where the sensitivity has doubled (rad)
	PitchKP           float64 // PC_KP: proportional gain at zero pitch (s)
	PitchMax          float64 // PC_MaxPit (rad)
	PitchMaxRate      float64 // PC_MaxRat (rad/s)
	PitchMin          float64 // PC_MinPit (rad)
	PitchRefSpeed     float64 // PC_RefSpd: generator speed set-point (rad/s)

	TorqueCtrlInterval float64 // VS_DT: torque controller sample interval (s)
	CutInSpeed         float64 // VS_CtInSp: transitional speed regions 1/1½ (rad/s)
	MaxTorqueRate      float64 // VS_MaxRat (N·m/s)
	MaxTorque          float64 // VS_MaxTq (N·m)
	Rgn2K              float64 // VS_Rgn2K (N·m/(rad/s)²)
	Rgn2Speed          float64 // VS_Rgn2Sp: transitional speed regions 1½/2 (rad/s)
	Rgn3MinPitch       float64 // VS_Rgn3MP: pitch above which region 3 is forced (rad)
	RatedGenSpeed      float64 // VS_RtGnSp: rated speed (rad/s)
	RatedPower         float64 // VS_RtPwr: rated mechanical generator power (W)
	SlipPercent        float64 // VS_SlPc: slip of the region 2½ line (%)
}

// DefaultParams returns the NREL 5 MW baseline constants (Jonkman et al.
// 2009, §7 and the DISCON parameter list). PC_DT and VS_DT are the report's
// 0.00125 s; any glue time step ≥ that makes both act at every call (the
// OpenFAST r-test build uses 0.000125 s with the same effect at DT=0.00625 s).
func DefaultParams() Params {
	return Params{
		CornerFreq:         1.570796,
		PitchCtrlInterval:  0.00125,
		PitchKI:            0.008068634,
		PitchKK:            0.1099965,
		PitchKP:            0.01882681,
		PitchMax:           1.570796,
		PitchMaxRate:       0.1396263,
		PitchMin:           0,
		PitchRefSpeed:      122.9096,
		TorqueCtrlInterval: 0.00125,
		CutInSpeed:         70.16224,
		MaxTorqueRate:      15000,
		MaxTorque:          47402.91,
		Rgn2K:              2.332287,
		Rgn2Speed:          91.21091,
		Rgn3MinPitch:       0.01745329,
		RatedGenSpeed:      121.6805,
		RatedPower:         5296610,
		SlipPercent:        10,
	}
}

// derived are the quantities the torque law derives from Params.
type derived struct {
	syncSpeed  float64 // VS_SySp: synchronous speed of the 2½ induction line
	slope15    float64 // torque/speed slope in region 1½
	slope25    float64 // torque/speed slope in region 2½
	trGenSpeed float64 // VS_TrGnSp: transitional speed regions 2/2½
}

func (p Params) derive() (derived, error) {
	var d derived
	if p.SlipPercent <= 0 {
		return d, fmt.Errorf("baseline: SlipPercent must be > 0, got %g", p.SlipPercent)
	}
	if !(p.CutInSpeed < p.Rgn2Speed && p.Rgn2Speed < p.RatedGenSpeed) {
		return d, fmt.Errorf("baseline: need CutInSpeed < Rgn2Speed < RatedGenSpeed, got %g, %g, %g", p.CutInSpeed, p.Rgn2Speed, p.RatedGenSpeed)
	}
	if p.PitchKI <= 0 || p.PitchKK <= 0 {
		return d, fmt.Errorf("baseline: PitchKI and PitchKK must be > 0, got %g, %g", p.PitchKI, p.PitchKK)
	}
	d.syncSpeed = p.RatedGenSpeed / (1 + 0.01*p.SlipPercent)
	d.slope15 = p.Rgn2K * p.Rgn2Speed * p.Rgn2Speed / (p.Rgn2Speed - p.CutInSpeed)
	d.slope25 = (p.RatedPower / p.RatedGenSpeed) / (p.RatedGenSpeed - d.syncSpeed)
	if p.Rgn2K == 0 {
		d.trGenSpeed = d.syncSpeed
	} else {
		disc := d.slope25 * (d.slope25 - 4*p.Rgn2K*d.syncSpeed)
		if disc < 0 {
			return d, fmt.Errorf("baseline: region 2 and 2½ torque curves do not intersect (Rgn2K %g too large)", p.Rgn2K)
		}
		// Intersection of K·ω² with the 2½ line (report §7.3, quadratic root).
		d.trGenSpeed = (d.slope25 - math.Sqrt(disc)) / (2 * p.Rgn2K)
	}
	return d, nil
}

// TorqueLaw returns the unsaturated, un-rate-limited generator torque demand
// of figure 7-2 for filtered generator speed ω (rad/s) and current pitch
// demand θ (rad). It is exported so tests and tools can check the curve.
func (p Params) TorqueLaw(omega, pitchDemand float64) (float64, error) {
	d, err := p.derive()
	if err != nil {
		return 0, err
	}
	return p.torque(d, omega, pitchDemand), nil
}

func (p Params) torque(d derived, omega, pitchDemand float64) float64 {
	switch {
	case omega <= p.CutInSpeed: // region 1
		// Tested before region 3: DISCON tests the pitch first, which
		// makes a feathered rotor at rest demand P/ω (unbounded as ω → 0,
		// negative when it rocks backwards) and drives its saved torque
		// demand far negative at VS_MaxRat while a turbine idles before a
		// start-up. Below cut-in speed the generator gives no torque
		// (Jonkman et al. 2009 §7.3, region 1) whatever the pitch; above
		// it the two orders agree.
		return 0
	case omega >= p.RatedGenSpeed || pitchDemand >= p.Rgn3MinPitch: // region 3: constant power
		return p.RatedPower / omega
	case omega < p.Rgn2Speed: // region 1½
		return d.slope15 * (omega - p.CutInSpeed)
	case omega < d.trGenSpeed: // region 2
		return p.Rgn2K * omega * omega
	default: // region 2½
		return d.slope25 * (omega - d.syncSpeed)
	}
}

// Controller is the NREL 5 MW baseline controller. Its state plays the role
// of the Fortran SAVEd variables.
type Controller struct {
	p Params
	d derived

	genSpeedF  float64
	intSpdErr  float64
	lastGenTrq float64
	lastTime   float64
	lastTimePC float64
	lastTimeVS float64
	pitCom     [3]float64
	started    bool
	// heldFeathered is true from an initialisation with feathered blades
	// and the rotor below cut-in speed (a turbine waiting to start) until
	// the blades leave feather (see Call).
	heldFeathered bool
	heldPitch     float64 // the feathered pitch at that initialisation (rad)
}

// releasedPitchDrop is how far below its feathered pitch blade 1 must
// have moved for the controller to count the blades as released to it
// (rad, 0.5°): well above a float32 round-off of the measured pitch and
// below the 8°/s·0.1 s a released actuator moves within a few steps.
const releasedPitchDrop = 0.5 * math.Pi / 180

// New validates p and returns a controller ready for its first call.
func New(p Params) (*Controller, error) {
	d, err := p.derive()
	if err != nil {
		return nil, err
	}
	return &Controller{p: p, d: d}, nil
}

// Name identifies the controller in messages.
func (c *Controller) Name() string { return "NREL 5MW baseline (Jonkman et al. 2009 §7)" }

// ActuatorLimits implements bladed.LimitedController: PC_MaxRat, VS_MaxRat,
// VS_MaxTq and VS_CtInSp (Jonkman et al. 2009 Table 7-1 for the 5 MW).
func (c *Controller) ActuatorLimits() bladed.ActuatorLimits {
	return c.p.ActuatorLimits()
}

// ActuatorLimits are the limits of a controller built from p.
func (p Params) ActuatorLimits() bladed.ActuatorLimits {
	return bladed.ActuatorLimits{PitchRate: p.PitchMaxRate, TorqueRate: p.MaxTorqueRate, TorqueMax: p.MaxTorque, CutInGenSpeed: p.CutInSpeed}
}

// FilteredGenSpeed is the low-pass filtered generator speed (rad/s).
func (c *Controller) FilteredGenSpeed() float64 { return c.genSpeedF }

// Call implements bladed.Controller.
func (c *Controller) Call(s *bladed.Swap) error {
	status := int(math.Round(s[bladed.RecStatus]))
	t := s[bladed.RecTime]
	genSpeed := s[bladed.RecGenSpeed]
	pitchIndividual := s[bladed.RecPitchCtrlType] == 1
	numBl := int(math.Round(s[bladed.RecNumBlades]))
	if numBl < 1 || numBl > 3 {
		return fmt.Errorf("baseline: number of blades (record %d) is %d, need 1-3", bladed.RecNumBlades, numBl)
	}
	blPitch := [3]float64{s[bladed.RecBlPitch1], s[bladed.RecBlPitch2], s[bladed.RecBlPitch3]}

	// Fixed outputs (DISCON writes these every call).
	s[bladed.RecGenContactor] = 1
	s[bladed.RecBrakeStatus] = 0
	s[bladed.RecYawActTorque] = 0
	s[bladed.RecPitchRateDem] = 0
	s[bladed.RecYawRateDem] = 0
	s[bladed.RecPitchOverride] = 0
	s[bladed.RecTorqueOverride] = 0
	s[bladed.RecNumLogVars] = 0

	if status == bladed.StatusLast {
		return nil
	}
	p := c.p
	if status == bladed.StatusFirst || !c.started {
		// Initialisation (DISCON, iStatus = 0): filter starts at the
		// measurement, the integrator is back-computed so that the PI
		// reproduces the current pitch, and both controllers act at once.
		c.started = true
		c.genSpeedF = genSpeed
		c.pitCom = blPitch
		gk := 1 / (1 + c.pitCom[0]/p.PitchKK)
		c.intSpdErr = c.pitCom[0] / (gk * p.PitchKI)
		c.lastTime = t
		c.lastTimePC = t - p.PitchCtrlInterval
		c.lastTimeVS = t - p.TorqueCtrlInterval
		c.lastGenTrq = s[bladed.RecGenTorque]
		// A turbine waiting to start: blades at the feathered limit
		// (within 1°) and the rotor below cut-in speed.
		c.heldFeathered = blPitch[0] >= p.PitchMax-math.Pi/180 && math.Abs(genSpeed) < p.CutInSpeed
		c.heldPitch = blPitch[0]
	}

	// Eq. 7-1: single-pole low-pass filter, discretised with the actual
	// elapsed time (α = exp(−ω_c Δt)).
	alpha := math.Exp((c.lastTime - t) * p.CornerFreq)
	c.genSpeedF = (1-alpha)*genSpeed + alpha*c.genSpeedF

	// The Fortran compares time·(1+ε) against the next sample instant to be
	// robust to round-off; ε of single precision.
	const onePlusEps = 1 + 1.1920929e-07

	// Variable-speed torque control (§7.3).
	if t*onePlusEps-c.lastTimeVS >= p.TorqueCtrlInterval {
		trq := p.torque(c.d, c.genSpeedF, c.pitCom[0])
		trq = math.Min(trq, p.MaxTorque)
		elap := t - c.lastTimeVS
		rate := (trq - c.lastGenTrq) / elap
		rate = clamp(rate, -p.MaxTorqueRate, p.MaxTorqueRate)
		c.lastGenTrq += rate * elap
		c.lastTimeVS = t
	}
	s[bladed.RecGenTqDem] = c.lastGenTrq

	// Gain-scheduled PI collective pitch control (§7.4).
	if t*onePlusEps-c.lastTimePC >= p.PitchCtrlInterval {
		elap := t - c.lastTimePC
		gk := 1 / (1 + c.pitCom[0]/p.PitchKK) // eq. 7-15 on the last demand of blade 1
		spdErr := c.genSpeedF - p.PitchRefSpeed
		if c.heldFeathered && blPitch[0] < c.heldPitch-releasedPitchDrop {
			c.heldFeathered = false
		}
		if c.heldFeathered {
			// Start-up: while the supervisor holds the blades feathered
			// (ServoDyn's neutral pitch before TPCOn) the integral term
			// tracks the measured pitch — back-calculation anti-windup
			// (Åström and Hägglund, Advanced PID Control, 2006, §3.5) —
			// and so sits at its PC_MaxPit limit, instead of integrating
			// the standing rotor's speed error down to fine pitch. Released,
			// the blades leave feather at the actuator limit only down to
			// the PI's output (90° plus the proportional term, 80° at rest
			// for the 5 MW) and then come in as fast as the speed error
			// integrates: the rotor runs up under speed control instead of
			// meeting rated speed with the blades at fine pitch.
			// docs/events.md §2 describes the sequence.
			c.intSpdErr = (blPitch[0] - gk*p.PitchKP*spdErr) / (gk * p.PitchKI)
		}
		c.intSpdErr += spdErr * elap
		c.intSpdErr = clamp(c.intSpdErr, p.PitchMin/(gk*p.PitchKI), p.PitchMax/(gk*p.PitchKI))
		pitComP := gk * p.PitchKP * spdErr
		pitComI := gk * p.PitchKI * c.intSpdErr
		pitComT := clamp(pitComP+pitComI, p.PitchMin, p.PitchMax)
		for k := 0; k < numBl; k++ {
			// Rate limit relative to the measured pitch of each blade.
			rate := clamp((pitComT-blPitch[k])/elap, -p.PitchMaxRate, p.PitchMaxRate)
			c.pitCom[k] = clamp(blPitch[k]+rate*elap, p.PitchMin, p.PitchMax)
		}
		c.lastTimePC = t
	}
	if pitchIndividual {
		s[bladed.RecPitchDem1] = c.pitCom[0]
		s[bladed.RecPitchDem2] = c.pitCom[1]
		s[bladed.RecPitchDem3] = c.pitCom[2]
	} else {
		s[bladed.RecPitchDemColl] = c.pitCom[0]
	}
	// Mirror the collective demand in 42-44 too so either reading works.
	if !pitchIndividual {
		s[bladed.RecPitchDem1], s[bladed.RecPitchDem2], s[bladed.RecPitchDem3] = c.pitCom[0], c.pitCom[0], c.pitCom[0]
	}
	c.lastTime = t
	return nil
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
