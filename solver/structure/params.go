// Package structure is the project's ElastoDyn-equivalent structural model of
// a horizontal-axis wind turbine: the six rigid-body DOFs of a platform
// (surge, sway, heave, roll, pitch, yaw, with its mass and inertia, loaded
// at its reference point by the offshore modules), assumed-mode flexible
// tower (fore-aft and side-to-side modes 1 and 2) standing on it and blades
// (flap modes 1 and 2, edge mode 1), nacelle yaw, generator azimuth and
// drivetrain torsion. A land-based model (platform DOFs off, no platform
// displacement) skips the platform entirely.
//
// Physics follows the ElastoDyn theory (Jonkman 2005, "FAST User's Guide" and
// the ElastoDyn coordinate systems FASTKinematics/FASTKinetics): the blades
// and tower are chains of point masses at element centres whose displacement
// is a sum of polynomial mode shapes (including ElastoDyn's "twisted" blade
// shape functions and the second-order axial shortening), rotating bodies
// (hub, generator, nacelle) carry inertia about a single axis, and the
// equations of motion are Kane's equations M(q,t) q̈ = f(q,q̇,t).
//
// Instead of coding every partial velocity by hand, the model computes the
// partial velocities (∂v/∂q̇ = ∂p/∂q) of every material point and the partial
// angular velocities of the rotating bodies by central differences of the
// exact kinematics, and the velocity-dependent accelerations by a second
// directional difference along q̇. This is Kane's method with numerically
// evaluated kinematic coefficients; it reproduces ElastoDyn's equations
// (same kinematics, same generalized stiffness and damping) without its
// hand-linearised terms.
//
// Coordinates are OpenFAST's global (IEC) frame: x downwind, z up, y to the
// left looking downwind. Angles in radians, SI units throughout.
package structure

import (
	"errors"
	"fmt"
	"math"
)

// BladeProps are the distributed properties and mode shapes of one blade as
// given by an ElastoDyn blade file.
type BladeProps struct {
	// Distributed properties at stations BlFract (0 = root, 1 = tip).
	BlFract  []float64
	StrcTwst []float64 // structural twist, rad
	BMassDen []float64 // kg/m
	FlpStff  []float64 // N·m²
	EdgStff  []float64 // N·m²

	BldFlDmp [2]float64 // flap modes 1,2 structural damping, % of critical
	BldEdDmp float64    // edge mode 1 structural damping, % of critical
	FlStTunr [2]float64 // flap modal stiffness tuners
	AdjBlMs  float64    // mass density factor
	AdjFlSt  float64    // flap stiffness factor
	AdjEdSt  float64    // edge stiffness factor

	// Mode-shape polynomial coefficients of x^2..x^6.
	BldFl1Sh [5]float64
	BldFl2Sh [5]float64
	BldEdgSh [5]float64
}

// TowerProps are the distributed properties and mode shapes of the tower as
// given by an ElastoDyn tower file.
type TowerProps struct {
	HtFract  []float64
	TMassDen []float64 // kg/m
	TwFAStif []float64 // N·m²
	TwSSStif []float64 // N·m²

	TwrFADmp [2]float64 // % of critical
	TwrSSDmp [2]float64
	FAStTunr [2]float64
	SSStTunr [2]float64
	AdjTwMa  float64
	AdjFASt  float64
	AdjSSSt  float64

	TwFAM1Sh [5]float64
	TwFAM2Sh [5]float64
	TwSSM1Sh [5]float64
	TwSSM2Sh [5]float64
}

// DOFFlags switch the degrees of freedom on, with ElastoDyn's names.
type DOFFlags struct {
	FlapDOF1, FlapDOF2, EdgeDOF bool
	DrTrDOF, GenDOF, YawDOF     bool
	TwFADOF1, TwFADOF2          bool
	TwSSDOF1, TwSSDOF2          bool
	// Platform surge, sway, heave, roll, pitch and yaw.
	PtfmSgDOF, PtfmSwDOF, PtfmHvDOF bool
	PtfmRDOF, PtfmPDOF, PtfmYDOF    bool
}

// InitialConditions are ElastoDyn's initial-condition inputs (SI, radians).
type InitialConditions struct {
	OoPDefl, IPDefl float64   // initial blade-tip deflections, m
	BlPitch         []float64 // rad, per blade
	Azimuth         float64   // blade-1 azimuth, rad (0 = up when AzimB1Up = 0)
	RotSpeed        float64   // rad/s
	NacYaw          float64   // rad
	TTDspFA         float64   // m
	TTDspSS         float64   // m
	// Initial (or, with the DOF off, fixed) platform displacements:
	// translations of the reference point, m, and rotations, rad.
	PtfmSurge, PtfmSway, PtfmHeave float64
	PtfmRoll, PtfmPitch, PtfmYaw   float64
}

// Integration methods of ElastoDyn's Method input.
const (
	MethodRK4  = 1
	MethodAB4  = 2
	MethodABM4 = 3
)

// Params holds everything ElastoDyn reads that the land-based model uses.
type Params struct {
	Gravity float64 // m/s²

	Method int     // MethodRK4, MethodAB4 or MethodABM4
	DT     float64 // integration step, s

	DOF  DOFFlags
	Init InitialConditions

	NumBl     int
	TipRad    float64
	HubRad    float64
	PreCone   []float64 // rad, per blade
	HubCM     float64
	AzimB1Up  float64 // rad
	OverHang  float64
	ShftGagL  float64
	ShftTilt  float64 // rad
	NacCMxn   float64
	NacCMyn   float64
	NacCMzn   float64
	NcIMUxn   float64 // nacelle IMU position from the tower top, nacelle axes
	NcIMUyn   float64
	NcIMUzn   float64
	Twr2Shft  float64
	TowerHt   float64
	TowerBsHt float64
	// Platform: centre of mass and reference point (the point whose
	// translation the platform DOFs are) in the undisplaced position.
	PtfmCMxt, PtfmCMyt, PtfmCMzt    float64
	PtfmRefxt, PtfmRefyt, PtfmRefzt float64

	TipMass   []float64 // kg, per blade
	HubMass   float64
	HubIner   float64 // kg·m² about the shaft
	GenIner   float64 // kg·m² about the HSS
	NacMass   float64
	NacYIner  float64 // kg·m² about the yaw axis
	YawBrMass float64
	// Platform mass and inertia about its CM in the platform axes; the
	// products of inertia are −∫xy dm, −∫yz dm, −∫xz dm (ElastoDyn v5).
	PtfmMass, PtfmRIner, PtfmPIner, PtfmYIner float64
	PtfmXYIner, PtfmYZIner, PtfmXZIner        float64

	GBoxEff  float64 // fraction (ElastoDyn reads percent)
	GBRatio  float64
	DTTorSpr float64 // N·m/rad
	DTTorDmp float64 // N·m/(rad/s)

	BldNodes int
	TwrNodes int
	Blades   []BladeProps // one per blade
	Tower    TowerProps
}

// Validate checks the parameters and reports the first problem, naming it.
func (p *Params) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	finite := func(name string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad("%s is not finite (%v)", name, v)
		}
	}
	if p.NumBl != 2 && p.NumBl != 3 {
		bad("NumBl must be 2 or 3, got %d", p.NumBl)
	}
	if p.NumBl == 2 {
		bad("2-bladed (teetering) rotors are not supported")
	}
	if p.Method != MethodRK4 && p.Method != MethodAB4 && p.Method != MethodABM4 {
		bad("Method must be 1 (RK4), 2 (AB4) or 3 (ABM4), got %d", p.Method)
	}
	if !(p.DT > 0) {
		bad("DT must be positive, got %v", p.DT)
	}
	if !(p.TipRad > p.HubRad) || p.HubRad < 0 {
		bad("need 0 <= HubRad < TipRad, got HubRad=%v TipRad=%v", p.HubRad, p.TipRad)
	}
	if !(p.TowerHt > p.TowerBsHt) {
		bad("TowerHt (%v) must exceed TowerBsHt (%v)", p.TowerHt, p.TowerBsHt)
	}
	if p.BldNodes < 1 || p.TwrNodes < 1 {
		bad("BldNodes and TwrNodes must be >= 1, got %d and %d", p.BldNodes, p.TwrNodes)
	}
	if !(p.GBRatio > 0) {
		bad("GBRatio must be positive, got %v", p.GBRatio)
	}
	if !(p.GBoxEff > 0) || p.GBoxEff > 1 {
		bad("GBoxEff must be in (0,1] as a fraction, got %v", p.GBoxEff)
	}
	for name, v := range map[string]float64{"Gravity": p.Gravity, "HubMass": p.HubMass, "HubIner": p.HubIner,
		"GenIner": p.GenIner, "NacMass": p.NacMass, "NacYIner": p.NacYIner, "YawBrMass": p.YawBrMass,
		"DTTorSpr": p.DTTorSpr, "DTTorDmp": p.DTTorDmp, "OverHang": p.OverHang, "Twr2Shft": p.Twr2Shft,
		"ShftTilt": p.ShftTilt, "HubCM": p.HubCM, "PtfmMass": p.PtfmMass, "PtfmRIner": p.PtfmRIner,
		"PtfmPIner": p.PtfmPIner, "PtfmYIner": p.PtfmYIner, "PtfmXYIner": p.PtfmXYIner, "PtfmYZIner": p.PtfmYZIner,
		"PtfmXZIner": p.PtfmXZIner, "PtfmCMxt": p.PtfmCMxt, "PtfmCMyt": p.PtfmCMyt, "PtfmCMzt": p.PtfmCMzt,
		"PtfmRefxt": p.PtfmRefxt, "PtfmRefyt": p.PtfmRefyt, "PtfmRefzt": p.PtfmRefzt} {
		finite(name, v)
	}
	for name, v := range map[string]float64{"HubMass": p.HubMass, "HubIner": p.HubIner, "GenIner": p.GenIner,
		"NacMass": p.NacMass, "YawBrMass": p.YawBrMass, "DTTorSpr": p.DTTorSpr, "DTTorDmp": p.DTTorDmp,
		"PtfmMass": p.PtfmMass, "PtfmRIner": p.PtfmRIner, "PtfmPIner": p.PtfmPIner, "PtfmYIner": p.PtfmYIner} {
		if v < 0 {
			bad("%s must not be negative, got %v", name, v)
		}
	}
	if p.DOF.DrTrDOF && !(p.DTTorSpr > 0) {
		bad("DrTrDOF needs DTTorSpr > 0, got %v", p.DTTorSpr)
	}
	if p.NumBl >= 1 {
		if len(p.PreCone) < p.NumBl || len(p.TipMass) < p.NumBl || len(p.Init.BlPitch) < p.NumBl {
			bad("PreCone, TipMass and BlPitch need %d values", p.NumBl)
		}
		if len(p.Blades) < p.NumBl {
			bad("need %d blade property sets, got %d", p.NumBl, len(p.Blades))
		}
	}
	for k := 0; k < len(p.Blades) && k < p.NumBl; k++ {
		if err := p.Blades[k].validate(); err != nil {
			bad("blade %d: %w", k+1, err)
		}
	}
	if err := p.Tower.validate(); err != nil {
		bad("tower: %w", err)
	}
	return errors.Join(errs...)
}

func (b *BladeProps) validate() error {
	n := len(b.BlFract)
	if n < 2 {
		return fmt.Errorf("need at least 2 stations, got %d", n)
	}
	if len(b.StrcTwst) != n || len(b.BMassDen) != n || len(b.FlpStff) != n || len(b.EdgStff) != n {
		return errors.New("property columns differ in length")
	}
	for i := 0; i < n; i++ {
		if i > 0 && !(b.BlFract[i] > b.BlFract[i-1]) {
			return fmt.Errorf("BlFract not increasing at station %d", i+1)
		}
		if b.BMassDen[i] < 0 || !(b.FlpStff[i] > 0) || !(b.EdgStff[i] > 0) {
			return fmt.Errorf("station %d: mass must be >= 0 and stiffnesses > 0", i+1)
		}
	}
	if !(b.AdjBlMs > 0) || !(b.AdjFlSt > 0) || !(b.AdjEdSt > 0) {
		return errors.New("AdjBlMs, AdjFlSt and AdjEdSt must be positive")
	}
	if !(b.FlStTunr[0] > 0) || !(b.FlStTunr[1] > 0) {
		return errors.New("FlStTunr must be positive")
	}
	return nil
}

func (t *TowerProps) validate() error {
	n := len(t.HtFract)
	if n < 2 {
		return fmt.Errorf("need at least 2 stations, got %d", n)
	}
	if len(t.TMassDen) != n || len(t.TwFAStif) != n || len(t.TwSSStif) != n {
		return errors.New("property columns differ in length")
	}
	for i := 0; i < n; i++ {
		if i > 0 && !(t.HtFract[i] > t.HtFract[i-1]) {
			return fmt.Errorf("HtFract not increasing at station %d", i+1)
		}
		if t.TMassDen[i] < 0 || !(t.TwFAStif[i] > 0) || !(t.TwSSStif[i] > 0) {
			return fmt.Errorf("station %d: mass must be >= 0 and stiffnesses > 0", i+1)
		}
	}
	if !(t.AdjTwMa > 0) || !(t.AdjFASt > 0) || !(t.AdjSSSt > 0) {
		return errors.New("AdjTwMa, AdjFASt and AdjSSSt must be positive")
	}
	for i := 0; i < 2; i++ {
		if !(t.FAStTunr[i] > 0) || !(t.SSStTunr[i] > 0) {
			return errors.New("FAStTunr and SSStTunr must be positive")
		}
	}
	return nil
}
