// Package dlc expands IEC 61400-1 design load cases (DLCs) into simulation
// runs and prepares each run's deck and wind file.
//
// The DLC table (Standard) follows IEC 61400-1 ed.4 (2019) Table 2, with
// the DTU reference design load
// basis (wetb dlb/iec61400_1) as the template for seeds, yaw angles and
// durations. The package is a library: Expand turns a Request into Runs,
// PrepareRun writes one run's wind file and deck, ExpandSweep and
// ApplySweepPoint make parametric studies, LoadBasisTable summarises a batch.
// It knows nothing of HTTP, jobs or databases.
package dlc

// WindModel is the IEC wind condition of a DLC (IEC 61400-1 ed.4 §6.3).
type WindModel string

// Wind models.
const (
	NTM   WindModel = "NTM"   // normal turbulence model, §6.3.2.3
	ETM   WindModel = "ETM"   // extreme turbulence model, §6.3.3.3
	EWM50 WindModel = "EWM50" // turbulent extreme wind model, 50-year recurrence, §6.3.3.1
	EWM1  WindModel = "EWM1"  // turbulent extreme wind model, 1-year recurrence, §6.3.3.1
	EOG   WindModel = "EOG"   // extreme operating gust, §6.3.3.2
	EDC   WindModel = "EDC"   // extreme direction change, §6.3.3.4
	ECD   WindModel = "ECD"   // extreme coherent gust with direction change, §6.3.3.5
	EWS   WindModel = "EWS"   // extreme wind shear, §6.3.3.6
	NWP   WindModel = "NWP"   // normal wind profile, steady, §6.3.2.2
)

// Turbulent reports whether the model is a turbulent box (.bts) rather than
// a uniform-wind file.
func (m WindModel) Turbulent() bool {
	switch m {
	case NTM, ETM, EWM50, EWM1:
		return true
	}
	return false
}

// Analysis is the type of analysis a DLC feeds (IEC 61400-1 ed.4 Table 2).
type Analysis string

// Analysis types.
const (
	Ultimate Analysis = "U"
	Fatigue  Analysis = "F"
)

// PSFClass is the partial-safety-factor class of an ultimate DLC: N normal,
// A abnormal, T transport and erection (IEC 61400-1 ed.4 Table 2 and
// §7.6.2); F marks fatigue cases (γ_f = 1.0).
type PSFClass string

// Partial-safety-factor classes.
const (
	PSFNormal    PSFClass = "N"
	PSFAbnormal  PSFClass = "A"
	PSFTransport PSFClass = "T"
	PSFFatigue   PSFClass = "F"
)

// TurbineState is the operating state a DLC simulates.
type TurbineState string

// Turbine states.
const (
	PowerProduction      TurbineState = "power production"
	ProductionFault      TurbineState = "power production plus fault"
	StartUp              TurbineState = "start-up"
	NormalShutdown       TurbineState = "normal shut-down"
	EmergencyStop        TurbineState = "emergency stop"
	Parked               TurbineState = "parked (standing still or idling)"
	ParkedFault          TurbineState = "parked and fault conditions"
	TransportMaintenance TurbineState = "transport, assembly, maintenance and repair"
)

// FaultKind is the fault a "power production plus fault" DLC simulates,
// each through ServoDyn's timed manoeuvres (see applyState). Only faults
// the solver's ServoDyn equivalent can apply are listed; a pitch runaway
// (DLC 2.2p) is not: its loads depend on when the safety system detects
// the overspeed or the pitch asymmetry and shuts down, and the solver has
// no such detection logic (its manoeuvres start at fixed times), so any
// timing chosen here would be an invented protection system. Nor is the
// abnormal yaw error of DLC 2.2y (power production at yaw errors over the
// full circle): at 90° the solver's aerodynamics diverge within a second
// (NREL 5 MW, 12 m/s) and from about 150° the rotor stops, so the loads
// would not be those of a producing turbine.
type FaultKind string

// Faults.
const (
	// FaultGridLoss: the generator trips at the event time and all blades
	// pitch to feather at the emergency rate (the safety system reacting
	// to the loss of the electrical network).
	FaultGridLoss FaultKind = "grid loss"
	// FaultStuckBlade: at the event time a shut-down is demanded (generator
	// off, emergency pitch rate) and blade 1 is seized at the pitch it has
	// then; blades 2 and 3 pitch to feather.
	FaultStuckBlade FaultKind = "stuck blade"
	// FaultYawError: production goes on with a large yaw misalignment (the
	// yaw system fault), applied through the wind direction like every
	// yaw angle; no manoeuvre.
	FaultYawError FaultKind = "yaw error"
)

// SpeedRange names how a DLC's hub-height wind speeds follow from the
// turbine's key numbers (Request.Turbine) and the class.
type SpeedRange string

// Wind-speed ranges. Ranges with a step use Request.SpeedStep.
const (
	RangeInOut      SpeedRange = "Vin..Vout"         // V_in, V_in+ΔV, …, V_out
	RangeRatedPM2   SpeedRange = "Vr-2,Vr,Vr+2"      // V_r − 2, V_r, V_r + 2
	RangeRatedOut   SpeedRange = "Vr-2,Vr,Vr+2,Vout" // V_r ± 2 and V_out
	RangeInRatedOut SpeedRange = "Vin,Vr-2,Vr,Vr+2,Vout"
	RangeRef        SpeedRange = "Vref"          // V_50 = V_ref (EWM 50-year)
	RangeV1         SpeedRange = "V1=0.8Vref"    // V_1 = 0.8·V_ref (EWM 1-year)
	RangeParkedFat  SpeedRange = "Vout..0.7Vref" // above cut-out up to 0.7·V_ref
	RangeMaint      SpeedRange = "Vmaint"        // maintenance wind speed (Request.Turbine.VMaint)
)

// Variant is one deterministic sub-case of an event DLC: the event's sign
// (EDC, ECD direction; EWS sign) and, for EWS, the shear plane.
type Variant struct {
	Name     string // suffix in run names, e.g. "D+" or "VS-"
	Sign     int    // +1 or −1
	Vertical bool   // EWS: vertical (true) or horizontal shear
}

// DLC is one design load case of the table.
type DLC struct {
	ID          string       `json:"id"` // "1.2"
	Description string       `json:"description"`
	State       TurbineState `json:"state"`
	Wind        WindModel    `json:"wind"`
	Speeds      SpeedRange   `json:"speeds"`
	// Seeds per wind-speed bin and yaw angle; 0 for deterministic winds.
	Seeds int `json:"seeds"`
	// Yaw misalignments [deg], positive in the NacYaw sense
	// (counter-clockwise seen from above).
	Yaw []float64 `json:"yaw"`
	// Duration is the analysis window [s]; the run lasts Transient +
	// Duration.
	Duration  float64 `json:"duration"`
	Transient float64 `json:"transient"`
	// EventStart is when a deterministic event or an operating-state
	// change (grid loss, shut-down) begins, in seconds after the
	// transient.
	EventStart float64 `json:"event_start,omitempty"`
	// Fault is the fault of a ProductionFault DLC (empty: grid loss).
	Fault    FaultKind `json:"fault,omitempty"`
	Analysis Analysis  `json:"analysis"`
	PSF      PSFClass  `json:"psf"`
	Gamma    float64   `json:"gamma_f"` // partial safety factor for loads
	Variants []Variant `json:"variants,omitempty"`
	Notes    string    `json:"notes"`
}

// Default timings [s]: 600-s windows for turbulent cases, 100-s runs for
// deterministic events, as in the DTU DLB.
const (
	TurbulentWindow    = 600
	TurbulentTransient = 60
	EventWindow        = 70
	EventTransient     = 30
	EventDelay         = 10 // event start after the transient
	// FloatingTransient is the least transient of every DLC that starts
	// in an operating state on a floating platform whose runs start at
	// its static equilibrium under the run's mean rotor load
	// (LoadedPlatformStart, PlatformStartFor), so what remains is the controller's own
	// start-up, which sets the platform surging (a ROSCO-controlled rotor
	// pitches out for the first 20 s): on the IEA 15 MW VolturnUS-S in
	// turbulent DLC 1.2 bins at 10 and 18 m/s the statistics from 60 s on
	// hold no start-up any more (surge standard deviation within 10 %,
	// largest fairlead tension equal to those from 200 s on); at a steady
	// 10 m/s, the worst case, those from 100 s on are as settled as those
	// from 200 s on were from rest (largest FAIRTEN1 +1.9 %, surge standard
	// deviation 1.7× those from 400 s on; from rest at 200 s: +2.4 %,
	// 1.6×). docs/events.md §6.
	FloatingTransient = 100
	// FloatingParkedTransient is the least transient of every other DLC
	// on a floating platform: those that start parked or idling, whose
	// equilibrium leaves out the wind's drag on the parked rotor and the
	// tower, and every DLC of a deck without the performance table of the
	// loaded start; the platform still drifts to its mean offset there
	// (not measured with the equilibrium start; the transient the
	// platform needs from rest).
	FloatingParkedTransient = 200
)

// Standard returns the DLC table encoded from IEC 61400-1 ed.4 Table 2
// (partial safety factors from Table 3) with the DTU DLB's seeds and
// yaw angles. It returns a new slice on every call, so callers may modify it.
func Standard() []DLC {
	dirPM := []Variant{{Name: "D+", Sign: 1}, {Name: "D-", Sign: -1}}
	ews := []Variant{{Name: "VS+", Sign: 1, Vertical: true}, {Name: "VS-", Sign: -1, Vertical: true},
		{Name: "HS+", Sign: 1}, {Name: "HS-", Sign: -1}}
	yaw10 := []float64{-10, 0, 10}
	yaw0 := []float64{0}
	turb := func(d DLC) DLC {
		d.Duration, d.Transient = TurbulentWindow, TurbulentTransient
		return d
	}
	// short turbulent runs with a state change (DTU DLB: 100 s)
	short := func(d DLC) DLC {
		d.Duration, d.Transient, d.EventStart = EventWindow, EventTransient, EventDelay
		return d
	}
	event := func(d DLC) DLC {
		d.Duration, d.Transient, d.EventStart = EventWindow, EventTransient, EventDelay
		return d
	}
	return []DLC{
		turb(DLC{ID: "1.1", Description: "Power production, normal turbulence, extreme loads by statistical extrapolation",
			State: PowerProduction, Wind: NTM, Speeds: RangeInOut, Seeds: 6, Yaw: yaw10,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.25,
			Notes: "γ_f = 1.25 applies to loads extrapolated to 50-year recurrence (ed.4); the extrapolation is a post-processing step"}),
		turb(DLC{ID: "1.2", Description: "Power production, normal turbulence, fatigue",
			State: PowerProduction, Wind: NTM, Speeds: RangeInOut, Seeds: 6, Yaw: yaw10,
			Analysis: Fatigue, PSF: PSFFatigue, Gamma: 1.0,
			Notes: "weights: Rayleigh probability of each bin (V_ave = 0.2·V_ref) split over seeds and yaw angles"}),
		turb(DLC{ID: "1.3", Description: "Power production, extreme turbulence",
			State: PowerProduction, Wind: ETM, Speeds: RangeInOut, Seeds: 6, Yaw: yaw10,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35}),
		event(DLC{ID: "1.4", Description: "Power production, extreme coherent gust with direction change",
			State: PowerProduction, Wind: ECD, Speeds: RangeRatedPM2, Yaw: yaw0, Variants: dirPM,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "no turbulence; both directions of the direction change"}),
		event(DLC{ID: "1.5", Description: "Power production, extreme wind shear",
			State: PowerProduction, Wind: EWS, Speeds: RangeInOut, Yaw: yaw0, Variants: ews,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "no turbulence; vertical and horizontal shear, both signs"}),
		short(DLC{ID: "2.1", Description: "Power production plus control-system fault or loss of electrical network",
			State: ProductionFault, Fault: FaultGridLoss, Wind: NTM, Speeds: RangeInOut, Seeds: 4, Yaw: yaw10,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "grid loss at EventStart after the transient: generator torque off, blades pitch to feather (ServoDyn TimGenOf, TPitManS)"}),
		short(DLC{ID: "2.2b", Description: "Power production plus fault of the protection system: shut-down with one blade stuck",
			State: ProductionFault, Fault: FaultStuckBlade, Wind: NTM, Speeds: RangeInOut, Seeds: 12, Yaw: yaw0,
			Analysis: Ultimate, PSF: PSFAbnormal, Gamma: 1.1,
			Notes: "at EventStart after the transient: generator off, blades 2 and 3 pitch to feather at the emergency rate, blade 1 seized at its pitch of that moment " +
				"(ServoDyn TimGenOf, TPitManS). Pitch runaway (2.2p) is not offered: it needs the safety system's overspeed detection, which the solver does not model"}),
		event(DLC{ID: "2.3", Description: "Power production plus loss of electrical network with extreme operating gust",
			State: ProductionFault, Fault: FaultGridLoss, Wind: EOG, Speeds: RangeRatedOut, Yaw: yaw0,
			Analysis: Ultimate, PSF: PSFAbnormal, Gamma: 1.1,
			Notes: "grid loss at the gust start; the standard asks for the most severe timing (DTU: three timings), here one timing at the gust start"}),
		turb(DLC{ID: "2.4", Description: "Power production plus fault not causing a shut-down: large yaw error, fatigue",
			State: ProductionFault, Fault: FaultYawError, Wind: NTM, Speeds: RangeInOut, Seeds: 3, Yaw: []float64{-20, 20},
			Analysis: Fatigue, PSF: PSFFatigue, Gamma: 1.0,
			Notes: "yaw misalignment ±20° for the whole run (DTU DLB); the hours per year spent with the fault come from the manufacturer: " +
				"weights are Rayleigh within this DLC and its probability is that of the wind-speed range, not reduced by the fault's occurrence"}),
		event(DLC{ID: "3.1", Description: "Start-up, normal wind profile, fatigue",
			State: StartUp, Wind: NWP, Speeds: RangeInRatedOut, Yaw: yaw0,
			Analysis: Fatigue, PSF: PSFFatigue, Gamma: 1.0,
			Notes: "steady NWP wind; rotor idling, generator switched on at EventStart; fatigue counts per year come from the manufacturer (weight 0 here)"}),
		event(DLC{ID: "3.2", Description: "Start-up at extreme operating gust",
			State: StartUp, Wind: EOG, Speeds: RangeInRatedOut, Yaw: yaw0,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "rotor idling, generator switched on at the gust start (ServoDyn TimGenOn); pitch controller on from the same time"}),
		event(DLC{ID: "3.3", Description: "Start-up at extreme direction change",
			State: StartUp, Wind: EDC, Speeds: RangeInRatedOut, Yaw: yaw0, Variants: dirPM,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "rotor idling, generator switched on at the direction change start"}),
		event(DLC{ID: "4.1", Description: "Normal shut-down, normal wind profile, fatigue",
			State: NormalShutdown, Wind: NWP, Speeds: RangeInRatedOut, Yaw: yaw0,
			Analysis: Fatigue, PSF: PSFFatigue, Gamma: 1.0,
			Notes: "steady NWP wind; shut-down at EventStart; fatigue counts per year come from the manufacturer (weight 0 here)"}),
		event(DLC{ID: "4.2", Description: "Normal shut-down at extreme operating gust",
			State: NormalShutdown, Wind: EOG, Speeds: RangeRatedOut, Yaw: yaw0,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "shut-down (pitch to feather at the normal rate, generator off) starting with the gust"}),
		short(DLC{ID: "5.1", Description: "Emergency stop, normal turbulence",
			State: EmergencyStop, Wind: NTM, Speeds: RangeRatedOut, Seeds: 6, Yaw: yaw0,
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "emergency pitch to feather at the maximum pitch rate and generator off at EventStart after the transient"}),
		turb(DLC{ID: "6.1", Description: "Parked, 50-year extreme wind (turbulent)",
			State: Parked, Wind: EWM50, Speeds: RangeRef, Seeds: 6, Yaw: []float64{-8, 0, 8},
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "σ1 = 0.11·V_hub, shear exponent 0.11; blades feathered, rotor idling"}),
		turb(DLC{ID: "6.2", Description: "Parked, 50-year extreme wind, loss of electrical network",
			State: ParkedFault, Wind: EWM50, Speeds: RangeRef, Seeds: 1,
			Yaw:      []float64{-180, -150, -120, -90, -60, -30, 0, 30, 60, 90, 120, 150},
			Analysis: Ultimate, PSF: PSFAbnormal, Gamma: 1.1,
			Notes: "no yaw control: yaw errors over the full circle (30° steps here; DTU uses 15°)"}),
		turb(DLC{ID: "6.3", Description: "Parked, 1-year extreme wind, extreme yaw misalignment",
			State: Parked, Wind: EWM1, Speeds: RangeV1, Seeds: 6, Yaw: []float64{-20, 20},
			Analysis: Ultimate, PSF: PSFNormal, Gamma: 1.35,
			Notes: "V_1 = 0.8·V_ref; yaw misalignment ±20°"}),
		turb(DLC{ID: "6.4", Description: "Parked, normal turbulence, fatigue",
			State: Parked, Wind: NTM, Speeds: RangeParkedFat, Seeds: 6, Yaw: []float64{-8, 0, 8},
			Analysis: Fatigue, PSF: PSFFatigue, Gamma: 1.0,
			Notes: "speeds above V_out up to 0.7·V_ref (the part below V_out is DLC 1.2 time); weights are Rayleigh bin probabilities"}),
		turb(DLC{ID: "7.1", Description: "Parked with fault, 1-year extreme wind",
			State: ParkedFault, Wind: EWM1, Speeds: RangeV1, Seeds: 1,
			Yaw:      []float64{-180, -150, -120, -90, -60, -30, 0, 30, 60, 90, 120, 150},
			Analysis: Ultimate, PSF: PSFAbnormal, Gamma: 1.1,
			Notes: "fault (e.g. yaw system) leaves any yaw error; one blade stuck is not modelled here"}),
		turb(DLC{ID: "8.1", Description: "Maintenance, normal turbulence at the maintenance wind speed",
			State: TransportMaintenance, Wind: NTM, Speeds: RangeMaint, Seeds: 6, Yaw: []float64{-8, 0, 8},
			Analysis: Ultimate, PSF: PSFTransport, Gamma: 1.5,
			Notes: "V_maint from the manufacturer (Request.Turbine.VMaint)"}),
	}
}

// Lookup returns the standard DLC with the given id ("1.2", also "DLC1.2").
func Lookup(id string) (DLC, bool) {
	id = normaliseID(id)
	for _, d := range Standard() {
		if d.ID == id {
			return d, true
		}
	}
	return DLC{}, false
}

// IDs lists the ids of the standard table in order.
func IDs() []string {
	t := Standard()
	ids := make([]string, len(t))
	for i, d := range t {
		ids[i] = d.ID
	}
	return ids
}
