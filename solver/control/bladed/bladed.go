// Package bladed defines the in-process equivalent of the Bladed-style
// controller DLL exchange used by OpenFAST's ServoDyn (BladedInterface): the
// avrSWAP record set, how it is filled from turbine measurements each call and
// how commands are read back, and the Controller interface that the built-in
// controllers (NREL 5 MW baseline, ROSCO-equivalent) implement.
//
// Record numbers and meanings follow the Bladed user manual appendix
// ("external controller interface") as used by ServoDyn's Fill_avrSWAP and
// Retrieve_avrSWAP. Indices are 1-based as in the
// documentation; element 0 of Swap is unused.
//
// The DLL exchange is single precision (avrSWAP is C_FLOAT). Fill rounds every
// record through float32 so that a built-in controller sees exactly the values
// a compiled DISCON would see; controllers then compute in float64.
package bladed

import (
	"fmt"
	"math"
)

// SwapSize is the number of records in the standard (non-extended) avrSWAP
// array ServoDyn allocates (record 129 holds the size itself).
const SwapSize = 129

// Record numbers (1-based) of the avrSWAP array. Inputs are written by the
// simulator before a call, outputs by the controller during it.
const (
	RecStatus          = 1   // 0 first call, 1 running, -1 final call
	RecTime            = 2   // current time (s)
	RecCommInterval    = 3   // communication interval DLL_DT (s)
	RecBlPitch1        = 4   // measured pitch of blade 1 (rad)
	RecPitchSetPoint   = 5   // below-rated pitch set-point (rad)
	RecPitchMin        = 6   // minimum pitch (rad)
	RecPitchMax        = 7   // maximum pitch (rad)
	RecPitchRateMin    = 8   // minimum pitch rate (rad/s)
	RecPitchRateMax    = 9   // maximum pitch rate (rad/s)
	RecPitchActType    = 10  // 0 = pitch position actuator
	RecLastPitchDem    = 11  // current demanded pitch angle (rad)
	RecLastPitchRate   = 12  // current demanded pitch rate (rad/s)
	RecPowerDemand     = 13  // demanded power (W)
	RecShaftPower      = 14  // measured shaft power (W)
	RecElecPower       = 15  // measured electrical power output (W)
	RecOptModeGain     = 16  // optimal-mode gain (N·m/(rad/s)²)
	RecMinGenSpdOM     = 17  // minimum generator speed (rad/s)
	RecMaxGenSpdOM     = 18  // optimal-mode maximum speed (rad/s)
	RecGenSpdDemand    = 19  // demanded generator speed above rated (rad/s)
	RecGenSpeed        = 20  // measured generator (HSS) speed (rad/s)
	RecRotorSpeed      = 21  // measured rotor (LSS) speed (rad/s)
	RecGenTqDemand     = 22  // demanded generator torque above rated (N·m)
	RecGenTorque       = 23  // measured generator torque (N·m)
	RecYawError        = 24  // measured yaw error (rad)
	RecTorqueTableIdx  = 25  // start of the torque-speed look-up table
	RecTorqueTableN    = 26  // number of points in the look-up table
	RecHubWind         = 27  // hub-height horizontal wind speed (m/s)
	RecPitchCtrlType   = 28  // 0 collective, 1 individual pitch control
	RecYawCtrlType     = 29  // 0 yaw rate control
	RecRootMyc1        = 30  // blade 1 root out-of-plane moment (N·m)
	RecRootMyc2        = 31  // blade 2 root out-of-plane moment (N·m)
	RecRootMyc3        = 32  // blade 3 root out-of-plane moment (N·m)
	RecBlPitch2        = 33  // measured pitch of blade 2 (rad)
	RecBlPitch3        = 34  // measured pitch of blade 3 (rad)
	RecGenContactor    = 35  // generator contactor (in and out)
	RecBrakeStatus     = 36  // shaft brake status (in and out): 0 off, 1 on
	RecNacYawNorth     = 37  // nacelle yaw angle from north (rad)
	RecYawActTorque    = 41  // demanded yaw actuator torque (out)
	RecPitchDem1       = 42  // demanded pitch blade 1 (out, rad)
	RecPitchDem2       = 43  // demanded pitch blade 2 (out, rad)
	RecPitchDem3       = 44  // demanded pitch blade 3 (out, rad)
	RecPitchDemColl    = 45  // demanded collective pitch (out, rad)
	RecPitchRateDem    = 46  // demanded collective pitch rate (out, rad/s)
	RecGenTqDem        = 47  // demanded generator torque (out, N·m)
	RecYawRateDem      = 48  // demanded nacelle yaw rate (out, rad/s)
	RecMsgMaxChars     = 49  // max characters in the message
	RecInFileChars     = 50  // characters in the DLL_InFile name
	RecOutNameChars    = 51  // characters in the output root name
	RecTwrTopAccFA     = 53  // tower-top fore-aft acceleration (m/s²)
	RecTwrTopAccSS     = 54  // tower-top side-side acceleration (m/s²)
	RecPitchOverride   = 55  // pitch override (out): must be 0
	RecTorqueOverride  = 56  // torque override (out): must be 0
	RecAzimuth         = 60  // rotor azimuth (rad)
	RecNumBlades       = 61  // number of blades
	RecMaxLogVars      = 62  // maximum number of logging channels
	RecLogStart        = 63  // record of the first logging channel
	RecMaxLogChars     = 64  // max characters in logging names
	RecNumLogVars      = 65  // number of logging channels returned (out)
	RecExtStart        = 66  // start of the extended (platform-motion) block
	RecRootMxc1        = 69  // blade 1 root in-plane moment (N·m)
	RecRootMxc2        = 70  // blade 2 root in-plane moment (N·m)
	RecRootMxc3        = 71  // blade 3 root in-plane moment (N·m)
	RecLSSTipMya       = 73  // rotating hub My (N·m)
	RecLSSTipMza       = 74  // rotating hub Mz (N·m)
	RecLSSTipMys       = 75  // fixed hub My (N·m)
	RecLSSTipMzs       = 76  // fixed hub Mz (N·m)
	RecYawBrMyn        = 77  // yaw-bearing My (N·m)
	RecYawBrMzn        = 78  // yaw-bearing Mz (N·m)
	RecNacRollAcc      = 82  // nacelle roll angular acceleration (rad/s²)
	RecNacNodAcc       = 83  // nacelle nodding angular acceleration (rad/s²)
	RecNacYawAcc       = 84  // nacelle yaw angular acceleration (rad/s²)
	RecAirDensity      = 95  // air density (kg/m³)
	RecYawCtrlFlag     = 102 // yaw control flag (out)
	RecBrakeTorqueDem  = 107 // demanded HSS brake torque (out, N·m)
	RecShaftTorque     = 109 // LSS shaft torque (N·m)
	RecShaftFx         = 110 // LSS thrust (N)
	RecShaftFy         = 111 // LSS side force, fixed frame (N)
	RecShaftFz         = 112 // LSS vertical force, fixed frame (N)
	RecControllerState = 117 // controller state (0)
	RecArraySize       = 129 // size of the avrSWAP array
)

// Swap is the avrSWAP record set. Index i is record i (1-based); index 0 is
// unused so that code reads like the Bladed documentation.
type Swap [SwapSize + 1]float64

// Status values of record 1.
const (
	StatusFirst   = 0
	StatusRunning = 1
	StatusLast    = -1
)

// Controller is a built-in, in-process Bladed-style controller. Call performs
// one controller call: it reads the measurement records of swap and writes
// its demands into it, exactly as DISCON(avrSWAP, …) would. An error
// corresponds to a negative aviFAIL and stops the simulation.
type Controller interface {
	Name() string
	Call(swap *Swap) error
}

// ActuatorLimits are the limits a controller's own parameter set places on
// its demands (e.g. PC_MaxRat, VS_MaxRat, VS_MaxTq of a DISCON.IN). They
// describe the pitch actuator and the converter the controller was tuned
// for, so ServoDyn can hold the applied commands to them at the moments the
// controller does not act on its own — a hand-over at TPCOn, a generator
// connection — and a manoeuvre can be sized to them. Zero means no limit.
type ActuatorLimits struct {
	PitchRate     float64 // largest |dθ/dt| of a blade (rad/s)
	TorqueRate    float64 // largest |dQ/dt| of the generator torque (N·m/s)
	TorqueMax     float64 // largest generator torque (N·m)
	CutInGenSpeed float64 // generator speed below which the torque law gives no torque (rad/s)
}

// LimitedController is a Controller that states its ActuatorLimits.
type LimitedController interface {
	Controller
	ActuatorLimits() ActuatorLimits
}

// InterfaceSettings are the constant records ServoDyn takes from its input
// file (BLADED INTERFACE section) and writes every call. Angles in rad,
// speeds in rad/s.
type InterfaceSettings struct {
	CommInterval       float64 // DLL_DT (s)
	PitchIndividual    bool    // Ptch_Cntrl: record 28
	PitchSetPoint      float64 // Ptch_SetPnt: record 5
	PitchMin, PitchMax float64 // records 6, 7
	PitchRateMin       float64 // record 8
	PitchRateMax       float64 // record 9
	OptModeGain        float64 // Gain_OM: record 16
	GenSpdMinOM        float64 // record 17
	GenSpdMaxOM        float64 // record 18
	GenSpdDem          float64 // record 19
	GenTrqDem          float64 // record 22
	GenPwrDem          float64 // record 13
	NacYawNorth        float64 // NacYaw_North: subtracted from the yaw angle for record 37
	InFileChars        int     // length of the DLL_InFile name (record 50)
	OutNameChars       int     // length of the root name (record 51)
}

// Measurements are the turbine signals the simulator provides for one call,
// in SI units (rad, rad/s, N·m, W, m/s). Moments follow ElastoDyn's
// conventions (RootMyc out of plane, RootMxc in plane).
type Measurements struct {
	Time            float64
	NumBlades       int
	BlPitch         [3]float64 // measured pitch angles (rad)
	GenSpeed        float64    // HSS speed (rad/s)
	RotSpeed        float64    // LSS speed (rad/s)
	GenTorque       float64    // generator torque applied in the last step (N·m)
	ElecPower       float64    // electrical power of the last step (W)
	ShaftPower      float64    // LSS shaft power (W)
	YawError        float64    // wind direction minus nacelle yaw (rad)
	NacYaw          float64    // nacelle yaw angle (rad)
	HubWind         float64    // horizontal hub-height wind speed (m/s)
	RootMyc         [3]float64 // out-of-plane root moments (N·m)
	RootMxc         [3]float64 // in-plane root moments (N·m)
	Azimuth         float64    // rotor azimuth (rad)
	TwrTopAccFA     float64    // YawBrTAxp (m/s²)
	TwrTopAccSS     float64    // YawBrTAyp (m/s²)
	LSSTipMya       float64
	LSSTipMza       float64
	LSSTipMys       float64
	LSSTipMzs       float64
	YawBrMyn        float64
	YawBrMzn        float64
	NacAngAcc       [3]float64 // roll, nodding, yaw angular accelerations (rad/s²)
	AirDensity      float64
	ShaftTorque     float64    // LSS torque (N·m)
	ShaftForce      [3]float64 // LSS thrust, side and vertical force (N)
	LastPitchDemand float64    // collective pitch demanded in the previous call (rad)
	GenContactor    float64    // contactor state returned by the previous call
	BrakeStatus     float64    // brake state returned by the previous call
}

// Commands are the demands read back from the record set after a call.
type Commands struct {
	GenTorque       float64    // record 47 (N·m)
	PitchCollective float64    // record 45 (rad)
	PitchIndividual [3]float64 // records 42-44 (rad)
	PitchRate       float64    // record 46 (rad/s)
	YawRate         float64    // record 48 (rad/s)
	YawTorque       float64    // record 41 (N·m)
	GenContactor    float64    // record 35
	BrakeStatus     float64    // record 36
	BrakeTorque     float64    // record 107 (N·m)
	NumLogVars      int        // record 65
}

// f32 rounds to single precision, as the C_FLOAT avrSWAP array does.
func f32(v float64) float64 { return float64(float32(v)) }

// Fill writes the input records for one call, following ServoDyn's
// Fill_avrSWAP: status, time, settings, and the measurements.
func Fill(s *Swap, status int, m Measurements, set InterfaceSettings) {
	put := func(rec int, v float64) { s[rec] = f32(v) }
	put(RecStatus, float64(status))
	put(RecTime, m.Time)
	put(RecCommInterval, set.CommInterval)
	put(RecBlPitch1, m.BlPitch[0])
	put(RecBlPitch2, m.BlPitch[1])
	put(RecBlPitch3, m.BlPitch[2])
	put(RecPitchSetPoint, set.PitchSetPoint)
	put(RecPitchMin, set.PitchMin)
	put(RecPitchMax, set.PitchMax)
	put(RecPitchRateMin, set.PitchRateMin)
	put(RecPitchRateMax, set.PitchRateMax)
	put(RecPitchActType, 0)
	put(RecLastPitchDem, m.LastPitchDemand)
	put(RecLastPitchRate, 0)
	put(RecPowerDemand, set.GenPwrDem)
	put(RecShaftPower, m.ShaftPower)
	put(RecElecPower, m.ElecPower)
	put(RecOptModeGain, set.OptModeGain)
	put(RecMinGenSpdOM, set.GenSpdMinOM)
	put(RecMaxGenSpdOM, set.GenSpdMaxOM)
	put(RecGenSpdDemand, set.GenSpdDem)
	put(RecGenSpeed, m.GenSpeed)
	put(RecRotorSpeed, m.RotSpeed)
	put(RecGenTqDemand, set.GenTrqDem)
	put(RecGenTorque, m.GenTorque)
	put(RecYawError, m.YawError)
	put(RecTorqueTableIdx, 0)
	put(RecTorqueTableN, 0)
	put(RecHubWind, m.HubWind)
	if set.PitchIndividual {
		put(RecPitchCtrlType, 1)
	} else {
		put(RecPitchCtrlType, 0)
	}
	put(RecYawCtrlType, 0)
	for k := 0; k < 3; k++ {
		put(RecRootMyc1+k, m.RootMyc[k])
		put(RecRootMxc1+k, m.RootMxc[k])
	}
	put(RecGenContactor, m.GenContactor)
	put(RecBrakeStatus, m.BrakeStatus)
	put(RecNacYawNorth, m.NacYaw-set.NacYawNorth)
	put(RecMsgMaxChars, 1024)
	put(RecInFileChars, float64(set.InFileChars))
	put(RecOutNameChars, float64(set.OutNameChars))
	put(RecTwrTopAccFA, m.TwrTopAccFA)
	put(RecTwrTopAccSS, m.TwrTopAccSS)
	put(RecAzimuth, m.Azimuth)
	put(RecNumBlades, float64(m.NumBlades))
	put(RecMaxLogVars, 300)
	put(RecLogStart, SwapSize+1)
	put(RecMaxLogChars, 1024)
	put(RecExtStart, 0)
	put(RecLSSTipMya, m.LSSTipMya)
	put(RecLSSTipMza, m.LSSTipMza)
	put(RecLSSTipMys, m.LSSTipMys)
	put(RecLSSTipMzs, m.LSSTipMzs)
	put(RecYawBrMyn, m.YawBrMyn)
	put(RecYawBrMzn, m.YawBrMzn)
	put(RecNacRollAcc, m.NacAngAcc[0])
	put(RecNacNodAcc, m.NacAngAcc[1])
	put(RecNacYawAcc, m.NacAngAcc[2])
	put(RecAirDensity, m.AirDensity)
	put(RecShaftTorque, m.ShaftTorque)
	put(RecShaftFx, m.ShaftForce[0])
	put(RecShaftFy, m.ShaftForce[1])
	put(RecShaftFz, m.ShaftForce[2])
	put(RecControllerState, 0)
	put(RecArraySize, SwapSize)
}

// Retrieve reads the demands after a call, following ServoDyn's
// Retrieve_avrSWAP. A controller asking for a pitch or torque override
// (records 55/56 non-zero), which ServoDyn does not support, is an error, as
// is a non-finite demand.
func Retrieve(s *Swap) (Commands, error) {
	var c Commands
	if s[RecPitchOverride] != 0 {
		return c, fmt.Errorf("bladed: record %d (pitch override) is %g, only 0 is supported", RecPitchOverride, s[RecPitchOverride])
	}
	if s[RecTorqueOverride] != 0 {
		return c, fmt.Errorf("bladed: record %d (torque override) is %g, only 0 is supported", RecTorqueOverride, s[RecTorqueOverride])
	}
	for _, rec := range []int{RecGenTqDem, RecPitchDemColl, RecPitchDem1, RecPitchDem2, RecPitchDem3, RecYawRateDem} {
		if math.IsNaN(s[rec]) || math.IsInf(s[rec], 0) {
			return c, fmt.Errorf("bladed: record %d is not finite (%g)", rec, s[rec])
		}
	}
	c.GenTorque = s[RecGenTqDem]
	c.PitchCollective = s[RecPitchDemColl]
	c.PitchIndividual = [3]float64{s[RecPitchDem1], s[RecPitchDem2], s[RecPitchDem3]}
	c.PitchRate = s[RecPitchRateDem]
	c.YawRate = s[RecYawRateDem]
	c.YawTorque = s[RecYawActTorque]
	c.GenContactor = s[RecGenContactor]
	c.BrakeStatus = s[RecBrakeStatus]
	c.BrakeTorque = s[RecBrakeTorqueDem]
	c.NumLogVars = int(s[RecNumLogVars])
	return c, nil
}

// BladePitch returns the pitch demand for blade k (0-based): the individual
// record when the interface is set to individual pitch, else the collective.
func (c Commands) BladePitch(k int, individual bool) float64 {
	if individual && k >= 0 && k < 3 {
		return c.PitchIndividual[k]
	}
	return c.PitchCollective
}
