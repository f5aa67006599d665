package coupling

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/inflow"
	"github.com/turbinesim/turbinesim/solver/offshore"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// sim is one running simulation: the modules, their input histories and
// the latest outputs (OpenFAST's glue-code data for a land-based turbine
// with ElastoDyn, InflowWind, AeroDyn and ServoDyn).
type sim struct {
	dt   float64
	tMax float64

	model *structure.Model
	sys   *structure.System
	integ *structure.Integrator
	st    *structure.State

	// ElastoDyn input history: uPrev2 at t−2dt, uPrev at t−dt, uCur at t,
	// uNext at t+dt.
	uPrev2, uPrev, uCur, uNext *structure.Inputs
	edOut                      *structure.Outputs
	motion                     *structure.Motions

	rotor   *aero.Rotor
	aeroIn  *aero.Input
	aeroOut *aero.Output
	// Aerodynamic twist and AeroDyn BlCrvAng (positive tip downwind) per
	// blade node.
	twistRot, crvRot [][]planeRotation
	span             [][]float64
	// Aerodynamic-centre offsets from the pitch axis (AeroDyn BlCrvAC
	// out of plane, BlSwpAC in plane), carried by the blade section as
	// rigid arms (OpenFAST's line-to-line motion mapping).
	crvAC, swpAC [][]float64
	// lenPerSpan[k][e] is AeroDyn element e's undeflected length per unit
	// of span (1 without prebend or sweep).
	lenPerSpan [][]float64
	arms       [][][3]float64
	// nAD[k] load stations of blade k are AeroDyn nodes; ElastoDyn's
	// element-centre nodes (radii edR) follow them.
	nAD []int
	edR []float64
	// AeroDyn tower nodes (elevations) that are also structural load
	// stations when tower influence or drag is on.
	twrElev []float64
	// The line-to-point load transfer's augmented stations per blade
	// (AeroDyn nodes plus the structural radii inside the line, sorted),
	// each with its AeroDyn element and nearest structural node: fixed by
	// the radii, so built on a blade's first transfer (augmentedStations).
	augStations [][]augStation
	// Scratch for the line-to-point load transfer.
	augP       []float64
	augF, augM [][3]float64
	augPos     [][3]float64

	wind      inflow.Field
	windPts   []inflow.Vec3 // blade node positions, flattened
	windVel   []inflow.Vec3
	hubWind   inflow.Vec3
	probePts  []inflow.Vec3 // InflowWind WindV*List points
	probeVel  []inflow.Vec3
	hubHeight float64

	servo    *control.ServoDyn
	srvIn    control.Inputs // from ElastoDyn's outputs at t
	srvPrev  control.Inputs // at t−dt
	srvPrev2 control.Inputs // at t−2dt
	// interpOrder is the deck's InterpOrder (1 linear, 2 quadratic): the
	// order of the input extrapolation to t+dt.
	interpOrder int
	srvNext     control.Inputs // extrapolated to t+dt
	srvOut      control.Outputs
	airDens     float64
	fixedYaw    float64

	// Offshore modules (solver/offshore seam); sub is the substructure
	// among them, if any. ptfmLoad is their total platform load at the
	// latest output time (without added mass).
	offshore []*offshoreSlot
	sub      *offshoreSlot
	ptfmLoad offshore.Load
	notes    []string

	// Where a failure happened, for error messages.
	stage string
	t     float64
}

// finite reports whether every component is a finite number.
func finite3(v [3]float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// sampleWind evaluates the inflow at every AeroDyn blade node (its
// aerodynamic centre, see aeroLoads), the tower nodes, the hub and the probe
// points.
func (s *sim) sampleWind(t float64) error {
	s.stage = "inflow"
	n := 0
	for k := range s.aeroIn.Blades {
		for i := range s.aeroIn.Blades[k] {
			s.windPts[n] = s.aeroIn.Blades[k][i].Position
			n++
		}
	}
	for _, p := range s.motion.TowerPos {
		s.windPts[n] = p
		n++
	}
	if err := s.wind.Velocities(t, s.windPts, s.windVel); err != nil {
		return fmt.Errorf("wind at the blade nodes: %w", err)
	}
	hv, err := s.wind.Velocity(t, s.motion.HubPos)
	if err != nil {
		return fmt.Errorf("wind at the hub: %w", err)
	}
	s.hubWind = hv
	if len(s.probePts) > 0 {
		if err := s.wind.Velocities(t, s.probePts, s.probeVel); err != nil {
			return fmt.Errorf("wind at the InflowWind output points: %w", err)
		}
	}
	return nil
}

// aeroLoads moves the aerodynamic nodes with the structure at time t,
// computes the loads and lumps them onto the structural load stations (the
// Line2-to-point transfer OpenFAST does from AeroDyn to ElastoDyn: a linear
// distribution on each element is consistently lumped to its two nodes,
// which keeps the resultant force and moment).
func (s *sim) aeroLoads(t float64, u *structure.Inputs) error {
	s.stage = "structure"
	s.sys.Motions(s.st, u.BlPitch, s.motion)
	if s.rotor == nil {
		// No aerodynamics: only the InflowWind output points.
		if len(s.probePts) > 0 {
			s.stage = "inflow"
			if err := s.wind.Velocities(t, s.probePts, s.probeVel); err != nil {
				return fmt.Errorf("wind at the InflowWind output points: %w", err)
			}
		}
		return nil
	}
	s.stage = "aero"
	in := s.aeroIn
	in.HubPosition = s.motion.HubPos
	in.HubOrientation = s.motion.HubOrient
	// AeroDyn's rotor speed (RtSpeed, and with it RtFldPwr, RtTSR, RtFldCp)
	// is the hub's angular velocity along the shaft, which includes the
	// tower-top roll and yaw rates, not the drivetrain rate alone.
	in.RotorSpeed = dot3(s.motion.HubRotVel, s.motion.HubOrient[0])
	in.Azimuth = s.motion.Azimuth
	// The blade-root frames let the BEMT resolve the inflow in AeroDyn's
	// BEM_Mod=1 frames (Euler angles relative to the unpitched root), which
	// differ from the deflected node frames at second order.
	if len(in.BladeRoot) != len(in.Blades) {
		in.BladeRoot = make([]aero.DCM, len(in.Blades))
	}
	for k := range in.BladeRoot {
		in.BladeRoot[k] = s.motion.RootOrient[k]
	}
	// An aerodynamic centre off the structural axis moves with the
	// station's full angular velocity (rotor speed plus the rates of the
	// bending slopes), as OpenFAST's Line2-to-Line2 motion mapping gives it:
	// v = v_axis + ω × offset.
	for k := range in.Blades {
		bm := &s.motion.Blades[k]
		for i := range in.Blades[k] {
			w := bm.AngVel[i]
			node := &in.Blades[k][i]
			o := &bm.Orient[i]
			var arm [3]float64
			for c := 0; c < 3; c++ {
				arm[c] = s.crvAC[k][i]*o[0][c] + s.swpAC[k][i]*o[1][c]
			}
			s.arms[k][i] = arm
			node.Position = add3(bm.Pos[i], arm)
			node.Velocity = add3(bm.Vel[i], cross3(w, arm))
			node.Orientation = twistAbout(curveAbout(*o, s.crvRot[k][i]), s.twistRot[k][i])
		}
	}
	// The wind is sampled where AeroDyn's blade nodes are: at the
	// aerodynamic centre (BlCrvAC, BlSwpAC off the reference axis; AeroDyn
	// blade input, AeroDyn user guide "Blade Definition"), not on the
	// structural axis. The NREL 5 MW blade's BlSwpAC reaches -0.57 m, a
	// tenth of a TurbSim cell, enough to shift the sampled turbulence.
	if err := s.sampleWind(t); err != nil {
		return err
	}
	s.stage = "aero"
	n := 0
	for k := range in.Blades {
		for i := range in.Blades[k] {
			in.Blades[k][i].Wind = s.windVel[n]
			n++
		}
	}
	for i := range in.Tower {
		in.Tower[i] = aero.TowerNodeMotion{Position: s.motion.TowerPos[i], Velocity: s.motion.TowerVel[i], Wind: s.windVel[n]}
		n++
	}
	if err := s.rotor.UpdateStates(t, s.dt, in); err != nil {
		return err
	}
	if err := s.rotor.CalcOutput(t, in, s.aeroOut); err != nil {
		return err
	}
	for k := range u.BladeForce {
		if err := s.transferLoads(k, u.BladeForce[k], u.BladeMoment[k]); err != nil {
			return err
		}
	}
	// Tower drag per unit length, lumped consistently onto the tower nodes.
	for i := range u.TowerForce {
		u.TowerForce[i] = [3]float64{}
	}
	if len(s.aeroOut.Tower) == len(u.TowerForce) {
		tw := s.aeroOut.Tower
		for i := 0; i+1 < len(tw); i++ {
			L := s.twrElev[i+1] - s.twrElev[i]
			for c := 0; c < 3; c++ {
				u.TowerForce[i][c] += L * (2*tw[i].Force[c] + tw[i+1].Force[c]) / 6
				u.TowerForce[i+1][c] += L * (tw[i].Force[c] + 2*tw[i+1].Force[c]) / 6
			}
		}
		for i := range u.TowerForce {
			if !finite3(u.TowerForce[i]) {
				return fmt.Errorf("tower load at node %d is not finite (%v)", i+1, u.TowerForce[i])
			}
		}
	}
	return nil
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func add3(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// planeRotation is a fixed rotation angle with its cosine and sine, so the
// per-step frame rotations of the blade nodes take no trigonometry.
type planeRotation struct {
	angle, cos, sin float64
}

func newPlaneRotation(a float64) planeRotation {
	return planeRotation{angle: a, cos: math.Cos(a), sin: math.Sin(a)}
}

// curveAbout rotates a node frame (rows x, y, z) about its own y axis by
// AeroDyn's curvature angle BlCrvAng (positive tilts z toward +x, tip
// downwind), applied before the twist as AeroDyn orients its blade nodes.
func curveAbout(o [3][3]float64, a planeRotation) [3][3]float64 {
	if a.angle == 0 {
		return o
	}
	c, sn := a.cos, a.sin
	var r [3][3]float64
	for i := 0; i < 3; i++ {
		r[0][i] = c*o[0][i] - sn*o[2][i]
		r[1][i] = o[1][i]
		r[2][i] = sn*o[0][i] + c*o[2][i]
	}
	return r
}

// twistAbout rotates a node frame (rows x, y, z) about its own z axis by the
// aerodynamic twist, positive toward feather like pitch (the leading edge,
// −y, turns into the wind).
func twistAbout(o [3][3]float64, tw planeRotation) [3][3]float64 {
	if tw.angle == 0 {
		return o
	}
	c, sn := tw.cos, tw.sin
	var r [3][3]float64
	for i := 0; i < 3; i++ {
		r[0][i] = c*o[0][i] - sn*o[1][i]
		r[1][i] = sn*o[0][i] + c*o[1][i]
		r[2][i] = o[2][i]
	}
	return r
}

// servoInputs maps ElastoDyn and InflowWind outputs to ServoDyn inputs.
func (s *sim) servoInputs(o *structure.Outputs, u *control.Inputs) {
	for k := 0; k < len(o.BlPitch) && k < 3; k++ {
		u.BlPitch[k] = o.BlPitch[k]
		u.RootMyc[k] = o.RootMc[k][1]
		u.RootMxc[k] = o.RootMc[k][0]
	}
	u.Yaw = o.NacYaw
	u.YawRate = o.YawRate
	u.HSSSpd = o.GenSpeed
	u.LSSSpd = o.RotSpeed
	u.RotPwr = o.RotPwr
	u.HorWindV = math.Hypot(s.hubWind[0], s.hubWind[1])
	u.WindDir = math.Atan2(s.hubWind[1], s.hubWind[0])
	u.YawErr = u.WindDir - o.NacYaw
	u.Azimuth = o.Azimuth
	u.TwrTopAccFA = o.YawBrTA[0]
	u.TwrTopAccSS = o.YawBrTA[1]
	// ServoDyn hands ElastoDyn's NcIMURAxs/ys/zs to the controller
	// (avrSWAP records 82-84; ROSCO's Fl_Mode 2 floating feedback uses the
	// nodding acceleration, record 83).
	u.NacAngAcc = o.NcIMURA
	u.LSSTipMya = o.LSSTipM[1]
	u.LSSTipMza = o.LSSTipM[2]
	u.LSSTorque = o.RotTorq
	u.LSSForce = o.LSSGagF
	u.LSSForce[0] = o.RotThrust
	u.AirDensity = s.airDens
}

// extrapolateServo extrapolates ServoDyn's inputs to t+dt from their values
// at t (cur), t−dt (prev) and t−2dt (prev2) with the polynomial of the deck's
// InterpOrder, as OpenFAST's glue code does for every module's inputs before
// a step (SrvD_Input_ExtrapInterp: order 1 next = 2·cur − prev, order 2
// next = 3·cur − 3·prev + prev2 for equal steps). Without this the yaw spring
// and the generator torque would act one step late, which destabilises the
// stiff yaw spring/damper of ServoDyn. The azimuth is unwrapped first
// (OpenFAST extrapolates LSSTipPxa as a plain number across its 2π wrap).
func extrapolateServo(order int, next, prev2, prev, cur *control.Inputs) {
	ext := func(a2, a, b float64) float64 { return 2*b - a }
	if order == 2 {
		ext = func(a2, a, b float64) float64 { return 3*b - 3*a + a2 }
	}
	*next = *cur
	for k := 0; k < 3; k++ {
		next.BlPitch[k] = ext(prev2.BlPitch[k], prev.BlPitch[k], cur.BlPitch[k])
		next.BlPRate[k] = ext(prev2.BlPRate[k], prev.BlPRate[k], cur.BlPRate[k])
		next.RootMyc[k] = ext(prev2.RootMyc[k], prev.RootMyc[k], cur.RootMyc[k])
		next.RootMxc[k] = ext(prev2.RootMxc[k], prev.RootMxc[k], cur.RootMxc[k])
	}
	next.Yaw = ext(prev2.Yaw, prev.Yaw, cur.Yaw)
	next.YawRate = ext(prev2.YawRate, prev.YawRate, cur.YawRate)
	next.HSSSpd = ext(prev2.HSSSpd, prev.HSSSpd, cur.HSSSpd)
	next.LSSSpd = ext(prev2.LSSSpd, prev.LSSSpd, cur.LSSSpd)
	next.RotPwr = ext(prev2.RotPwr, prev.RotPwr, cur.RotPwr)
	next.HorWindV = ext(prev2.HorWindV, prev.HorWindV, cur.HorWindV)
	next.WindDir = ext(prev2.WindDir, prev.WindDir, cur.WindDir)
	next.YawErr = ext(prev2.YawErr, prev.YawErr, cur.YawErr)
	// Azimuth history unwrapped onto cur's branch.
	a1 := cur.Azimuth - math.Remainder(cur.Azimuth-prev.Azimuth, 2*math.Pi)
	a2 := a1 - math.Remainder(prev.Azimuth-prev2.Azimuth, 2*math.Pi)
	next.Azimuth = math.Mod(ext(a2, a1, cur.Azimuth)+4*math.Pi, 2*math.Pi)
	next.TwrTopAccFA = ext(prev2.TwrTopAccFA, prev.TwrTopAccFA, cur.TwrTopAccFA)
	next.TwrTopAccSS = ext(prev2.TwrTopAccSS, prev.TwrTopAccSS, cur.TwrTopAccSS)
	for c := 0; c < 3; c++ {
		next.NacAngAcc[c] = ext(prev2.NacAngAcc[c], prev.NacAngAcc[c], cur.NacAngAcc[c])
	}
	next.LSSTipMya = ext(prev2.LSSTipMya, prev.LSSTipMya, cur.LSSTipMya)
	next.LSSTipMza = ext(prev2.LSSTipMza, prev.LSSTipMza, cur.LSSTipMza)
	next.LSSTorque = ext(prev2.LSSTorque, prev.LSSTorque, cur.LSSTorque)
	for c := 0; c < 3; c++ {
		next.LSSForce[c] = ext(prev2.LSSForce[c], prev.LSSForce[c], cur.LSSForce[c])
	}
}

// applyServo copies ServoDyn's commands into ElastoDyn inputs.
func (s *sim) applyServo(y *control.Outputs, u *structure.Inputs) error {
	s.stage = "control"
	u.GenTrq = y.GenTrq
	u.HSSBrTrq = y.HSSBrTrqC
	u.YawMom = y.YawMom
	for k := range u.BlPitch {
		u.BlPitch[k] = y.BlPitchCom[k]
	}
	for _, v := range []float64{y.GenTrq, y.HSSBrTrqC, y.YawMom, y.BlPitchCom[0], y.BlPitchCom[1], y.BlPitchCom[2]} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("command is not finite: GenTrq=%v HSSBrTrq=%v YawMom=%v BlPitchCom=%v", y.GenTrq, y.HSSBrTrqC, y.YawMom, y.BlPitchCom)
		}
	}
	return nil
}

// initialize solves the outputs at t = 0 (OpenFAST FAST_Solution0).
func (s *sim) initialize() error {
	p := s.model.Params()
	for k := range s.uCur.BlPitch {
		s.uCur.BlPitch[k] = p.Init.BlPitch[k]
	}
	if err := s.aeroLoads(0, s.uCur); err != nil {
		return err
	}
	if err := s.offshoreInit(s.uCur); err != nil {
		return err
	}
	s.stage = "structure"
	if err := s.sys.Outputs(s.st, s.uCur, s.edOut); err != nil {
		return err
	}
	if s.servo != nil {
		s.servoInputs(s.edOut, &s.srvIn)
		s.stage = "control"
		y, err := s.servo.Init(0, s.srvIn)
		if err != nil {
			return err
		}
		s.srvOut = y
		if err := s.applyServo(&s.srvOut, s.uCur); err != nil {
			return err
		}
		// Aerodynamics again with the commanded pitch, then outputs.
		if err := s.aeroLoads(0, s.uCur); err != nil {
			return err
		}
		s.stage = "structure"
		if err := s.sys.Outputs(s.st, s.uCur, s.edOut); err != nil {
			return err
		}
	}
	s.offshoreAccelerations()
	s.offshoreShift()
	// OpenFAST starts every input history with copies of the initial inputs.
	s.uPrev.CopyFrom(s.uCur)
	s.uPrev2.CopyFrom(s.uCur)
	return nil
}

// extrapolateStructureInputs sets ElastoDyn's inputs at t+dt from its input
// history with the deck's InterpOrder, as OpenFAST extrapolates every
// module's inputs before a step (ED_Input_ExtrapInterp; order 2 is the
// quadratic through t−2dt, t−dt and t). The controls are then replaced by
// ServoDyn's outputs at t+dt; the aerodynamic loads stay extrapolated for
// the structural step.
func (s *sim) extrapolateStructureInputs() {
	if s.interpOrder == 2 {
		s.uNext.Extrapolate2(s.uPrev2, s.uPrev, s.uCur)
	} else {
		s.uNext.Blend(s.uPrev, s.uCur, 2)
	}
}

// step advances every module from t to t+dt in OpenFAST's loose-coupling
// order (FAST_Solution in FAST_Subs.f90): inputs extrapolated to t+dt;
// ServoDyn updates and outputs its commands at t+dt; ElastoDyn integrates
// t→t+dt with its inputs at t and t+dt; InflowWind and AeroDyn compute the
// loads at t+dt with the new motion; ElastoDyn's outputs at t+dt are
// recomputed with those loads and mapped to ServoDyn's inputs.
func (s *sim) step(n int) error {
	t := float64(n) * s.dt
	tNext := float64(n+1) * s.dt
	s.t = t
	s.extrapolateStructureInputs()
	if s.servo != nil {
		s.stage = "control"
		if n == 0 {
			// OpenFAST starts every input history with copies of the
			// initial inputs (at t0, t0−dt, t0−2dt).
			s.srvPrev, s.srvPrev2 = s.srvIn, s.srvIn
		}
		extrapolateServo(s.interpOrder, &s.srvNext, &s.srvPrev2, &s.srvPrev, &s.srvIn)
		if err := s.servo.UpdateStates(t, s.srvNext); err != nil {
			return err
		}
		y, err := s.servo.CalcOutput(tNext, s.srvNext)
		if err != nil {
			return err
		}
		s.srvOut = y
		if err := s.applyServo(&s.srvOut, s.uNext); err != nil {
			return err
		}
	}
	s.stage = "structure"
	// With InterpOrder 2 the mid-step inputs of ElastoDyn's Runge-Kutta
	// start-up steps come off the quadratic through t−dt, t and t+dt.
	uPrevForMid := (*structure.Inputs)(nil)
	if s.interpOrder == 2 {
		uPrevForMid = s.uPrev
	}
	if err := s.integ.StepQuadratic(t, s.st, uPrevForMid, s.uCur, s.uNext); err != nil {
		return err
	}
	s.t = tNext
	if err := s.aeroLoads(tNext, s.uNext); err != nil {
		return err
	}
	if err := s.offshoreStep(t, s.uNext); err != nil {
		return err
	}
	s.stage = "structure"
	if err := s.sys.Outputs(s.st, s.uNext, s.edOut); err != nil {
		return err
	}
	s.offshoreAccelerations()
	s.offshoreShift()
	if s.servo != nil {
		s.srvPrev2, s.srvPrev = s.srvPrev, s.srvIn
		s.servoInputs(s.edOut, &s.srvIn)
	}
	// Shift the input history.
	s.uPrev2, s.uPrev, s.uCur, s.uNext = s.uPrev, s.uCur, s.uNext, s.uPrev2
	return nil
}

// transferLoads maps blade k's AeroDyn line loads (per unit length at the
// aerodynamic nodes) onto ElastoDyn's element-centre nodes the way OpenFAST's
// Line2-to-Point load transfer does: the line is split at the projections
// of the structural nodes, each piece's linear distribution is lumped
// consistently onto its two ends together with the pair of end couples of
// OpenFAST's Lump_Line2_to_Point, and every lumped load moves to the
// nearest structural node together with the moment of its offset. The
// resultant force and moment are preserved.
func (s *sim) transferLoads(k int, F, M [][3]float64) error {
	n := s.nAD[k]
	sp := s.span[k]
	nodes := s.aeroOut.Blades[k]
	bm := &s.motion.Blades[k]
	for i := range F {
		F[i] = [3]float64{}
		M[i] = [3]float64{}
	}
	aug := s.augmentedStations(k)
	na := len(aug)
	if cap(s.augF) < na {
		s.augF = make([][3]float64, na)
		s.augM = make([][3]float64, na)
		s.augPos = make([][3]float64, na)
		s.augP = make([]float64, na)
	}
	augF, augM, augPos := s.augF[:na], s.augM[:na], s.augPos[:na]
	// Per-length loads and positions at the augmented stations (linear in span).
	fAt := func(i int, r float64) (f, m, pos [3]float64) {
		t := 0.0
		if sp[i+1] > sp[i] {
			t = (r - sp[i]) / (sp[i+1] - sp[i])
		}
		a, b := &nodes[i], &nodes[i+1]
		pa, pb := add3(bm.Pos[i], s.arms[k][i]), add3(bm.Pos[i+1], s.arms[k][i+1])
		for c := 0; c < 3; c++ {
			f[c] = a.Force[c] + t*(b.Force[c]-a.Force[c])
			m[c] = a.Moment[c] + t*(b.Moment[c]-a.Moment[c])
			pos[c] = pa[c] + t*(pb[c]-pa[c])
		}
		return
	}
	var fPrev, mPrev [3]float64
	for i, a := range aug {
		r := a.r
		f, m, pos := fAt(a.elem, r)
		augPos[i] = pos
		augF[i], augM[i] = [3]float64{}, [3]float64{}
		if i > 0 {
			e := aug[i-1].piece // AeroDyn element holding the piece
			// The piece's share of its element's undeflected length (the
			// lumping length of OpenFAST's mapping, see
			// aero.BladeGeometry.ElementLength); with prebend it exceeds
			// the span difference.
			L := (r - aug[i-1].r) * s.lenPerSpan[k][e]
			for c := 0; c < 3; c++ {
				augF[i-1][c] += L * (2*fPrev[c] + f[c]) / 6
				augF[i][c] += L * (fPrev[c] + 2*f[c]) / 6
				augM[i-1][c] += L * (2*mPrev[c] + m[c]) / 6
				augM[i][c] += L * (mPrev[c] + 2*m[c]) / 6
			}
			// The lumped end moments of the force distribution (Sprague,
			// Jonkman & Jonkman 2014, eqs. 40-43; OpenFAST's Line2-to-Point
			// lumping): a couple (L/12)·Δp × (f₁ + f₂) on the inner end
			// and its opposite on the outer end, Δp the displaced piece.
			// It leaves the resultant unchanged but moves the load's
			// bending effect inboard on a flexible blade.
			dp := sub3(pos, augPos[i-1])
			couple := cross3(dp, add3(fPrev, f))
			for c := 0; c < 3; c++ {
				augM[i-1][c] += L / 12 * couple[c]
				augM[i][c] -= L / 12 * couple[c]
			}
		}
		fPrev, mPrev = f, m
	}
	// Move each lumped load to the nearest structural node.
	for i, a := range aug {
		d := n + a.node
		q := bm.Pos[d]
		F[d] = add3(F[d], augF[i])
		arm := sub3(augPos[i], q)
		M[d] = add3(add3(M[d], augM[i]), cross3(arm, augF[i]))
	}
	for i := n; i < len(F); i++ {
		if !finite3(F[i]) || !finite3(M[i]) {
			return fmt.Errorf("load on blade %d structural node %d is not finite (force %v, moment %v)", k+1, i-n+1, F[i], M[i])
		}
	}
	return nil
}

// augStation is one station of the line-to-point load transfer: its span
// r, the AeroDyn element its loads are interpolated in (elem), the element
// holding the piece from r outward (piece) and the structural node nearest
// to it (node, counted from the first structural node).
type augStation struct {
	r                 float64
	elem, piece, node int
}

// augmentedStations returns blade k's augmented stations (AeroDyn nodes
// plus the structural radii inside the line, sorted by span).
func (s *sim) augmentedStations(k int) []augStation {
	if s.augStations == nil {
		s.augStations = make([][]augStation, len(s.span))
	}
	if s.augStations[k] != nil {
		return s.augStations[k]
	}
	n := s.nAD[k]
	sp := s.span[k]
	rs := append([]float64(nil), sp...)
	for _, r := range s.edR {
		if r > sp[0] && r < sp[n-1] {
			rs = append(rs, r)
		}
	}
	sortFloats(rs)
	aug := make([]augStation, len(rs))
	for i, r := range rs {
		a := augStation{r: r}
		for a.elem < n-2 && sp[a.elem+1] < r {
			a.elem++
		}
		for a.piece < n-2 && sp[a.piece+1] <= r {
			a.piece++
		}
		for a.node+1 < len(s.edR) && math.Abs(s.edR[a.node+1]-r) < math.Abs(s.edR[a.node]-r) {
			a.node++
		}
		aug[i] = a
	}
	s.augStations[k] = aug
	return aug
}

// sortFloats sorts a short slice in place (insertion sort, no allocation).
func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
