package structure

import (
	"math"
)

// Outputs are ElastoDyn-equivalent output quantities in SI units and
// radians; the coupling layer converts them to OpenFAST's channel units.
// Frames follow ElastoDyn: coned blade frame c (x out of plane, y in plane
// toward the trailing edge, z radial), pitched blade frame b, rotating shaft
// frame a, tower-top frame p (not yawing), tower-base frame t.
type Outputs struct {
	Azimuth float64 // blade-1 azimuth, rad in [0, 2π)
	// LSSGagAzimuth is the low-speed shaft gage's azimuth, rad in [0, 2π):
	// the generator azimuth DOF's (the gearbox side of the drivetrain's
	// torsion), zero with blade 1 up as Azimuth.
	LSSGagAzimuth float64
	RotSpeed      float64 // LSS speed, rad/s
	GenSpeed      float64 // HSS speed, rad/s
	RotAccel      float64 // rad/s²
	GenAccel      float64 // rad/s²
	BlPitch       []float64
	NacYaw        float64
	YawRate       float64

	OoPDefl, IPDefl []float64 // blade-tip deflections in the coned frame, m
	TipDzc          []float64
	TTDspFA         float64 // tower-top displacement, m
	TTDspSS         float64
	TTDspTwst       float64 // rad (always 0: no tower torsion DOF)
	// TowerNodePos is each ElastoDyn tower node's position (inertial
	// frame, m) and TowerNodeDefl its fore-aft and side-to-side deflection
	// in the tower-base frame, as TTDspFA/TTDspSS at the top: the tower
	// gages' TwHt<g>TP*i and TwHt<g>TD*t outputs.
	TowerNodePos  [][3]float64
	TowerNodeDefl [][2]float64
	// TowerGages lists the tower nodes (0-based) whose section loads
	// Outputs computes into TowerGageF/TowerGageM: the loads of everything
	// above the node on the tower below it, in the node's local tower
	// frame (turned by the tower's slope there), as ElastoDyn's
	// TwHt<g>FLxt … MLzt. Set it with SetTowerGages.
	TowerGages             []int
	TowerGageF, TowerGageM [][3]float64

	RootFc, RootMc [][3]float64 // blade-root loads in the coned frame, N and N·m
	RootFb         [][3]float64 // blade-root forces in the pitched frame, N
	TipDb          [][3]float64 // blade-tip deflection in the pitched frame, m
	RootMb         [][3]float64 // blade-root moments in the pitched frame

	RotThrust, RotTorq float64    // LSS axial force and torque, N, N·m
	LSSTipM            [3]float64 // moments at the apex, rotating frame a
	LSSTipMs, LSShftFs [3]float64 // moment at the apex and shaft force, non-rotating shaft frame s
	LSSGagF, LSSGagM   [3]float64 // at the shaft strain gage, rotating frame a
	RotPwr             float64    // W
	HSShftTq           float64    // N·m
	HSSBrTq            float64    // HSS brake torque applied (System.brakeTorque), N·m

	YawBrF, YawBrM [3]float64 // loads at the yaw bearing, frame p
	YawBrTA        [3]float64 // tower-top acceleration, frame p, m/s²
	NcIMUTA        [3]float64 // nacelle IMU acceleration, non-rotating shaft frame s, m/s²
	NcIMUTV        [3]float64 // nacelle IMU velocity, frame s, m/s
	NcIMURA        [3]float64 // nacelle angular acceleration, frame s, rad/s² (roll, nodding, yaw)
	NcIMURV        [3]float64 // nacelle angular velocity, frame s, rad/s
	TwrClrnc       []float64  // blade-tip to tower (yaw axis) clearance estimate, m
	TwrBsF, TwrBsM [3]float64 // loads at the tower base, frame t

	// Platform reference-point motion: displacement (inertial frame i),
	// rotations (the platform DOFs), translational and angular velocity and
	// acceleration in the inertial frame i and in the platform frame t.
	// Accelerations are kinematic (gravity excluded). Zero on land.
	PtfmTDi, PtfmRDi [3]float64
	PtfmTVi, PtfmTVt [3]float64
	PtfmRVi, PtfmRVt [3]float64
	PtfmTAi, PtfmTAt [3]float64
	PtfmRAi, PtfmRAt [3]float64
	PtfmOrient       [3][3]float64 // rows: platform axes (global → platform DCM)

	Q, QD, QDD []float64

	// Detail holds the outputs few decks ask for (EnableDetail); nil
	// otherwise, and Outputs then spends nothing on them.
	Detail *DetailOutputs

	// Nodes holds ElastoDyn's blade-node outputs for the first len(Nodes)
	// blades (allocated by NewOutputsWithNodes), nil otherwise.
	Nodes [][]NodeOutputs
}

// DetailOutputs are ElastoDyn's motion outputs beyond the common set
// (OutListParameters, ElastoDyn tab), in SI units and radians. Accelerations
// "relative to g" are the absolute acceleration minus gravity's, a − g with
// g = (0, 0, −Gravity), as an accelerometer reads it: at rest they are
// Gravity along the upward vertical. Frames as in Outputs; n is the nacelle
// frame (yawing with the nacelle), i the inertial frame.
type DetailOutputs struct {
	// Tower top (yaw bearing, point O): its deflection from the
	// undeflected tower top (on the displaced platform) in frames t and p;
	// its displacement in the inertial frame from its undisplaced,
	// undeflected position (all platform motion included); its velocity,
	// acceleration relative to g, angular deflection (small-angle bending
	// slopes, t frame), angular velocity and acceleration (p frame).
	YawBrTDt, YawBrTDp, TwrTpTDi [3]float64
	YawBrTVp, YawBrTAgp          [3]float64
	YawBrRDt, YawBrRVp, YawBrRAp [3]float64
	NcIMUTAg                     [3]float64 // frame s
	PtfmTDt, PtfmTAgt, PtfmTAgi  [3]float64 // platform reference point
	LSSGagMs                     [3]float64 // moment at the shaft strain gage, frame s
	YawBrFn, YawBrMn             [3]float64 // yaw-bearing loads in the nacelle frame n
	TipAL, TipALg, TipRD         [][3]float64
	TowerGages                   []TowerGageMotion
}

// TowerGageMotion is the motion of one tower gage node (ElastoDyn's
// TwHt<g> channels): acceleration, absolute and relative to g, in the
// node's local tower frame (the platform frame turned by the tower's
// slope there); deflection from the undeflected node in frame t (axial
// shortening included); angular deflection (small-angle slopes, frame t);
// and the section's roll, pitch and yaw angles in the inertial frame
// (intrinsic Z-Y-X, the platform rotation and the bending slope combined).
type TowerGageMotion struct {
	AL, ALg, TD, RD, RP [3]float64
}

// EnableDetail makes Outputs compute Detail.
func (o *Outputs) EnableDetail() {
	if o.Detail == nil {
		o.Detail = &DetailOutputs{}
	}
}

// NodeOutputs are ElastoDyn's all-blade-node outputs at one structural node
// (ElastoDyn_AllBldNdOuts): deflection and rotation relative to the
// undeflected node in the pitched blade frame, absolute acceleration and
// the section loads from everything outboard of the node in the local
// element frame (with structural twist) and in the untwisted frame (NT).
type NodeOutputs struct {
	TD         [3]float64 // m, frame j
	RD         [3]float64 // rad about j1, j2 (j3 always 0: no torsion)
	AL         [3]float64 // m/s², element frame n
	ALg        [3]float64 // acceleration relative to g, m/s², element frame n
	FL, ML     [3]float64 // N, N·m, element frame n
	FLNT, MLNT [3]float64 // N, N·m, element frame without structural twist
}

// NewOutputs allocates Outputs for the model.
func (m *Model) NewOutputs() *Outputs {
	nb := m.p.NumBl
	return &Outputs{
		BlPitch: make([]float64, nb), OoPDefl: make([]float64, nb), IPDefl: make([]float64, nb),
		TipDzc: make([]float64, nb), TwrClrnc: make([]float64, nb),
		RootFb: make([][3]float64, nb), TipDb: make([][3]float64, nb),
		RootFc: make([][3]float64, nb), RootMc: make([][3]float64, nb), RootMb: make([][3]float64, nb),
		Q: make([]float64, m.nDOF), QD: make([]float64, m.nDOF), QDD: make([]float64, m.nDOF),
		TowerNodePos: make([][3]float64, m.p.TwrNodes), TowerNodeDefl: make([][2]float64, m.p.TwrNodes),
	}
}

// BladeMotion is the motion of one blade's load stations for the
// aerodynamics: position, translational velocity and orientation. Orient[i]
// holds the section axes as rows (x toward the suction side / out of plane,
// y toward the trailing edge, z along the span) in global coordinates, i.e.
// the direction-cosine matrix from global to local, like an OpenFAST mesh's
// Orientation. Structural twist is not included.
type BladeMotion struct {
	Pos    [][3]float64
	Vel    [][3]float64
	Orient [][3][3]float64
	// AngVel is each station's angular velocity (rad/s, global): the
	// blade frame's (rotor speed, shaft, nacelle and tower motion) plus the
	// rates of the bending slopes, as ElastoDyn's blade mesh RotationVel
	// (AngVelEM). Pitch rate is not included, as in ElastoDyn.
	AngVel [][3]float64
}

// Motions are the structural motions the aerodynamics and inflow need.
type Motions struct {
	Blades     []BladeMotion
	RootOrient [][3][3]float64 // pitched blade frame at each root (rows = axes)
	RootPos    [][3]float64

	HubPos    [3]float64
	HubOrient [3][3]float64 // rows: shaft axis (downwind), ya, za (blade 1)
	HubRotVel [3]float64    // rad/s, global

	TowerPos []([3]float64) // tower load stations
	TowerVel []([3]float64)

	NacellePos    [3]float64 // tower top (yaw bearing)
	NacelleOrient [3][3]float64
	Azimuth       float64 // rad
	RotSpeed      float64 // rad/s

	// Platform reference point (floating models; on land the undisplaced
	// point at rest): position, orientation (rows: platform axes), velocity
	// and angular velocity.
	PtfmPos, PtfmVel, PtfmAngVel [3]float64
	PtfmOrient                   [3][3]float64
}

// SetTowerGages makes Outputs compute the section loads of the tower
// nodes (0-based) in nodes.
func (o *Outputs) SetTowerGages(nodes []int) {
	o.TowerGages = append([]int(nil), nodes...)
	o.TowerGageF = make([][3]float64, len(nodes))
	o.TowerGageM = make([][3]float64, len(nodes))
}

// NewOutputsWithNodes allocates Outputs that also carry the blade-node
// outputs of the first nBlades blades.
func (m *Model) NewOutputsWithNodes(nBlades int) *Outputs {
	o := m.NewOutputs()
	if nBlades > m.p.NumBl {
		nBlades = m.p.NumBl
	}
	o.Nodes = make([][]NodeOutputs, nBlades)
	for k := range o.Nodes {
		o.Nodes[k] = make([]NodeOutputs, m.p.BldNodes)
	}
	return o
}

// NewMotions allocates Motions for the model.
func (m *Model) NewMotions() *Motions {
	nb := m.p.NumBl
	mo := &Motions{Blades: make([]BladeMotion, nb), RootOrient: make([][3][3]float64, nb), RootPos: make([][3]float64, nb),
		TowerPos: make([][3]float64, len(m.twrLoadElev)), TowerVel: make([][3]float64, len(m.twrLoadElev))}
	for k := range mo.Blades {
		n := len(m.loadR[k])
		mo.Blades[k] = BladeMotion{Pos: make([][3]float64, n), Vel: make([][3]float64, n), Orient: make([][3][3]float64, n), AngVel: make([][3]float64, n)}
	}
	return mo
}

func rows(f *frame) [3][3]float64 { return [3][3]float64{f[0], f[1], f[2]} }

// Azimuth returns the output azimuth (blade 1 up = AzimB1Up) in [0, 2π)
// for generalized coordinates q.
func (m *Model) Azimuth(q []float64) float64 {
	return wrap2Pi(q[DOFGeAz] + q[DOFDrTr] + m.p.AzimB1Up + math.Pi/2)
}

func wrap2Pi(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a
}

// Motions computes the load-station motions at state st and pitch angles.
func (s *System) Motions(st *State, pitch []float64, mo *Motions) {
	m := s.m
	p := &m.p
	nd := m.nDOF
	s.kinematicCoefficients(st, pitch)
	c := s.c0
	for k := 0; k < p.NumBl; k++ {
		fj := c.fj[k]
		qb := st.Q[DOFBlade(k, 0) : DOFBlade(k, 0)+3]
		qdb := st.QD[DOFBlade(k, 0) : DOFBlade(k, 0)+3]
		b := &mo.Blades[k]
		// Angular velocity of the pitched blade frame (all DOFs but the
		// blade's own modes, which bend the sections only).
		wFrame := s.omegaH
		d0 := DOFBlade(k, 0)
		qdm := s.qdMoving[d0 : d0+3]
		for i := range m.loadR[k] {
			pi := m.ptLoad0[k] + i
			b.Pos[i] = c.pos[pi]
			// The apex's velocity, the blade frame's rotation about it and
			// the blade's own mode rates.
			var rel vec3
			for md := 0; md < 3; md++ {
				rel = rel.axpy(qdm[md], s.bladeDL[pi][md])
			}
			b.Vel[i] = s.vApexRate.add(wFrame.cross(c.pos[pi].sub(c.apex))).add(fj.apply(rel))
			sh := &m.loadShape[k][i]
			var rx, ry, rxDot, ryDot float64
			for md := 0; md < 3; md++ {
				rx -= sh.sy[md] * qb[md]
				ry += sh.sx[md] * qb[md]
				rxDot -= sh.sy[md] * qdb[md]
				ryDot += sh.sx[md] * qdb[md]
			}
			// Small-angle section rotation rate from the slope rates, as in
			// the generalized moments (Dynamics: partial angular velocities).
			b.AngVel[i] = wFrame.axpy(rxDot, fj[0]).axpy(ryDot, fj[1])
			sec := fj
			if rx != 0 || ry != 0 {
				// Rotate the pitched frame by the section's bending slope.
				sec = bendFrame(&fj, rx, ry)
			}
			b.Orient[i] = rows(&sec)
		}
		mo.RootOrient[k] = rows(&fj)
		mo.RootPos[k] = c.apex.add(fj[2].scale(p.HubRad))
	}
	for i := range m.twrLoadElev {
		pi := m.ptTwrLoad0 + i
		mo.TowerPos[i] = c.pos[pi]
		var v vec3
		for _, j := range s.moving {
			v = v.axpy(st.QD[j], s.jac[pi*nd+j])
		}
		mo.TowerVel[i] = v
	}
	mo.HubPos = c.apex
	mo.HubOrient = rows(&c.fh)
	psiDot := st.QD[DOFGeAz] + st.QD[DOFDrTr]
	mo.HubRotVel = s.omegaS.axpy(psiDot, c.fs[0])
	mo.NacellePos = c.towerTop
	mo.NacelleOrient = rows(&c.fn)
	mo.Azimuth = m.Azimuth(st.Q)
	mo.RotSpeed = psiDot
	mo.PtfmPos, mo.PtfmOrient = [3]float64(m.ptfmRef0), rows(&identityFrame)
	mo.PtfmVel, mo.PtfmAngVel = [3]float64{}, [3]float64{}
	if m.floating {
		ref := m.ptPtfmRef
		var v vec3
		for _, j := range s.moving {
			v = v.axpy(st.QD[j], s.jac[ref*nd+j])
		}
		mo.PtfmPos, mo.PtfmOrient = [3]float64(c.pos[ref]), rows(&c.fp)
		mo.PtfmVel, mo.PtfmAngVel = [3]float64(v), [3]float64(s.omegaP)
	}
}

// Outputs evaluates the equations of motion at st with inputs u and fills
// out with deflections, accelerations and section loads (Newton–Euler sums
// of the applied, gravity and inertia loads outboard of each section).
func (s *System) Outputs(st *State, u *Inputs, out *Outputs) error {
	m := s.m
	p := &m.p
	nd := m.nDOF
	if err := s.Derivative(st, u, out.QDD); err != nil {
		return err
	}
	copy(out.Q, st.Q)
	copy(out.QD, st.QD)
	qdd := out.QDD
	c := s.c0
	g := vec3{0, 0, -p.Gravity}

	out.Azimuth = m.Azimuth(st.Q)
	out.LSSGagAzimuth = wrap2Pi(st.Q[DOFGeAz] + p.AzimB1Up + math.Pi/2)
	out.RotSpeed = st.QD[DOFGeAz] + st.QD[DOFDrTr]
	out.GenSpeed = st.QD[DOFGeAz] * p.GBRatio
	out.RotAccel = qdd[DOFGeAz] + qdd[DOFDrTr]
	out.GenAccel = qdd[DOFGeAz] * p.GBRatio
	out.HSSBrTq = s.brakeTorque(u.HSSBrTrq, st.QD[DOFGeAz])
	copy(out.BlPitch, u.BlPitch)
	out.NacYaw = st.Q[DOFYaw]
	out.YawRate = st.QD[DOFYaw]

	// The apex's acceleration and the hub's angular acceleration from q̈:
	// a blade point's acceleration is a₀ + a_apex + α × r + Σ φₘ q̈ₘ.
	var aApex, alphaH vec3
	for _, j := range s.active {
		if j < dofBlade0 {
			aApex = aApex.axpy(qdd[j], s.vApex[j])
			alphaH = alphaH.axpy(qdd[j], s.omJ[0][j])
		}
	}
	accel := func(i int) vec3 {
		a := s.abias[i]
		if k := s.bladeOf[i]; k >= 0 {
			d0 := DOFBlade(k, 0)
			var rel vec3
			for md := 0; md < 3; md++ {
				rel = rel.axpy(qdd[d0+md], s.bladeDL[i][md])
			}
			return a.add(aApex).add(alphaH.cross(c.pos[i].sub(c.apex))).add(c.fj[k].apply(rel))
		}
		for _, j := range s.active {
			a = a.axpy(qdd[j], s.jac[i*nd+j])
		}
		return a
	}
	load := func(i int) vec3 {
		mi := m.ptMass[i]
		if mi == 0 {
			return vec3{}
		}
		return g.sub(accel(i)).scale(mi)
	}
	// Shaft-frame angular acceleration and the reaction moments of the
	// single-axis inertias: −dH/dt = −I·λ̇·a − I·λ·(ω×a).
	alpha := s.alphaS
	for _, j := range s.active {
		alpha = alpha.axpy(qdd[j], s.omS[j])
	}
	bodyMoment := func(iner float64, axis vec3, spinRate, spinAcc float64) vec3 {
		lam := s.omegaS.dot(axis) + spinRate
		lamDot := alpha.dot(axis) + spinAcc
		return axis.scale(-iner * lamDot).add(s.omegaS.cross(axis).scale(-iner * lam))
	}

	// Blades.
	var FR, MR vec3
	Q := c.apex
	for k := 0; k < p.NumBl; k++ {
		root := Q.add(c.fj[k][2].scale(p.HubRad))
		var F, M vec3
		i0 := m.ptBlade0 + k*(p.BldNodes+1)
		for i := i0; i <= i0+p.BldNodes; i++ {
			L := load(i)
			F = F.add(L)
			M = M.add(c.pos[i].sub(root).cross(L))
		}
		for i := range m.loadR[k] {
			pi := m.ptLoad0[k] + i
			L := vec3(u.BladeForce[k][i])
			F = F.add(L)
			M = M.add(c.pos[pi].sub(root).cross(L)).add(vec3(u.BladeMoment[k][i]))
		}
		out.RootFc[k] = c.fc[k].local(F)
		out.RootFb[k] = c.fj[k].local(F)
		out.RootMc[k] = c.fc[k].local(M)
		out.RootMb[k] = c.fj[k].local(M)
		FR = FR.add(F)
		MR = MR.add(M).add(root.sub(Q).cross(F))

		// Tip deflection relative to the undeflected tip, in the coned frame.
		tip := c.pos[i0+p.BldNodes]
		undeflected := Q.add(c.fj[k][2].scale(p.TipRad))
		d := c.fc[k].local(tip.sub(undeflected))
		out.OoPDefl[k], out.IPDefl[k], out.TipDzc[k] = d[0], d[1], d[2]
		out.TipDb[k] = [3]float64(c.fj[k].local(tip.sub(undeflected)))
	}
	// Hub.
	Lh := load(m.ptHub)
	FR = FR.add(Lh)
	MR = MR.add(c.pos[m.ptHub].sub(Q).cross(Lh))
	psiDot := st.QD[DOFGeAz] + st.QD[DOFDrTr]
	MR = MR.add(bodyMoment(p.HubIner, c.fs[0], psiDot, qdd[DOFGeAz]+qdd[DOFDrTr]))

	xs := c.fs[0]
	out.RotThrust = FR.dot(xs)
	out.RotTorq = MR.dot(xs)
	out.LSSTipM = c.fh.local(MR)
	out.LSSTipMs = c.fs.local(MR)
	out.LSShftFs = c.fs.local(FR)
	sgn := -1.0
	if p.OverHang > 0 {
		sgn = 1
	}
	gage := Q.sub(xs.scale(sgn * p.ShftGagL))
	MG := MR.add(Q.sub(gage).cross(FR))
	out.LSSGagF = c.fh.local(FR)
	out.LSSGagM = c.fh.local(MG)
	out.RotPwr = out.RotTorq * out.RotSpeed
	out.HSShftTq = out.RotTorq * p.GBoxEff / p.GBRatio
	if s.genEffFac != 0 {
		out.HSShftTq = out.RotTorq * s.genEffFac / p.GBRatio
	}

	// Yaw bearing: rotor, nacelle mass, generator and nacelle inertias.
	O := c.towerTop
	Ln := load(m.ptNac)
	FY := FR.add(Ln)
	MY := MR.add(Q.sub(O).cross(FR)).add(c.pos[m.ptNac].sub(O).cross(Ln))
	MY = MY.add(bodyMoment(p.GenIner, xs, p.GBRatio*st.QD[DOFGeAz], p.GBRatio*qdd[DOFGeAz]))
	MY = MY.add(bodyMoment(m.nacIner, c.fn[2], 0, 0))
	out.YawBrF = c.fb.local(FY)
	out.YawBrM = c.fb.local(MY)
	out.YawBrTA = c.fb.local(accel(m.ptYawBr))
	out.NcIMUTA = c.fs.local(accel(m.ptIMU))
	var vIMU vec3
	for _, j := range s.moving {
		vIMU = vIMU.axpy(st.QD[j], s.jac[m.ptIMU*nd+j])
	}
	out.NcIMUTV = c.fs.local(vIMU)
	// The IMU rides on the nacelle: its rotation is the shaft frame's
	// (the nacelle frame tilted by a constant angle).
	out.NcIMURA = c.fs.local(alpha)
	out.NcIMURV = c.fs.local(s.omegaS)
	// Tip-to-tower clearance (ElastoDyn TwrClrnc): below the yaw bearing the
	// distance from the yaw axis, above it the distance to the bearing.
	for k := 0; k < p.NumBl; k++ {
		d := c.pos[m.ptBlade0+k*(p.BldNodes+1)+p.BldNodes].sub(O)
		if h := d.dot(c.fb[2]); h < 0 {
			d = d.sub(c.fb[2].scale(h))
		}
		out.TwrClrnc[k] = math.Sqrt(d.dot(d))
	}

	// Tower base.
	B := c.towerBase
	Lyb := load(m.ptYawBr)
	FT := FY.add(Lyb)
	MT := MY.add(O.sub(B).cross(FT))
	for j := 0; j < p.TwrNodes; j++ {
		L := load(j)
		FT = FT.add(L)
		MT = MT.add(c.pos[j].sub(B).cross(L))
	}
	for i := range m.twrLoadElev {
		L := vec3(u.TowerForce[i])
		FT = FT.add(L)
		MT = MT.add(c.pos[m.ptTwrLoad0+i].sub(B).cross(L))
	}
	for g, J := range out.TowerGages {
		F, M := s.towerSectionLoads(J, FY.add(Lyb), MY, O, load, u)
		f, _ := s.towerSectionFrame(&m.tShape[J+1], st.Q)
		out.TowerGageF[g], out.TowerGageM[g] = [3]float64(f.local(F)), [3]float64(f.local(M))
	}
	out.TwrBsF = FT
	out.TwrBsM = MT
	if m.floating {
		// Tower-base loads in the platform frame t, which tilts with it.
		out.TwrBsF = c.fp.local(FT)
		out.TwrBsM = c.fp.local(MT)
		s.platformOutputs(st, qdd, accel, out)
	}

	for k := range out.Nodes {
		s.nodeOutputs(k, st, u, load, accel, out.Nodes[k])
	}
	if out.Detail != nil {
		s.detailOutputs(st, qdd, accel, alpha, MG, FY, MY, out)
	}
	top := &m.tShape[p.TwrNodes+1]
	out.TTDspFA = top.fa[0]*st.Q[DOFTFA1] + top.fa[1]*st.Q[DOFTFA2]
	out.TTDspSS = top.ss[0]*st.Q[DOFTSS1] + top.ss[1]*st.Q[DOFTSS2]
	out.TTDspTwst = 0
	for j := range out.TowerNodePos {
		out.TowerNodePos[j] = [3]float64(c.pos[j])
		sh := &m.tShape[j+1]
		out.TowerNodeDefl[j] = [2]float64{
			sh.fa[0]*st.Q[DOFTFA1] + sh.fa[1]*st.Q[DOFTFA2],
			sh.ss[0]*st.Q[DOFTSS1] + sh.ss[1]*st.Q[DOFTSS2],
		}
	}
	return nil
}

// towerSectionLoads returns the force and the moment about tower node J
// that everything above the node applies to the tower below it: the
// tower top's loads (fTop and mTop about the yaw bearing O, its own mass
// included), the tower nodes above J, half of node J's element acting a
// quarter element above it, and the aerodynamic tower loads above J (half
// of one at the node), as nodeOutputs does for a blade section.
func (s *System) towerSectionLoads(J int, fTop, mTop, O vec3, load func(int) vec3, u *Inputs) (F, M vec3) {
	m := s.m
	c := s.c0
	pJ := c.pos[J]
	F = fTop
	M = mTop.add(O.sub(pJ).cross(fTop))
	for j := J + 1; j < m.p.TwrNodes; j++ {
		L := load(j)
		F = F.add(L)
		M = M.add(c.pos[j].sub(pJ).cross(L))
	}
	up := c.pos[m.ptYawBr].sub(c.towerBase)
	up = up.scale(1 / math.Sqrt(up.dot(up)))
	quarter := up.scale(0.25 * m.twrDH)
	half := load(J).scale(0.5)
	F = F.add(half)
	M = M.add(quarter.cross(half))
	for i, h := range m.twrLoadH {
		L := vec3(u.TowerForce[i])
		switch {
		case math.Abs(h-m.hNodes[J]) < 1e-9*m.twrFlexL:
			F = F.add(L.scale(0.5))
			M = M.add(quarter.cross(L.scale(0.5)))
		case h > m.hNodes[J]:
			F = F.add(L)
			M = M.add(c.pos[m.ptTwrLoad0+i].sub(pJ).cross(L))
		}
	}
	return F, M
}

// nodeOutputs fills the blade-node outputs of blade k. Section loads at
// node J follow ElastoDyn: elements outboard of J, half of element J (its
// load acting a quarter element outboard), the tip mass, and the
// aerodynamic point loads outboard of the node.
func (s *System) nodeOutputs(k int, st *State, u *Inputs, load func(int) vec3, accel func(int) vec3, nodes []NodeOutputs) {
	m := s.m
	p := &m.p
	c := s.c0
	fj := c.fj[k]
	qb := st.Q[DOFBlade(k, 0) : DOFBlade(k, 0)+3]
	i0 := m.ptBlade0 + k*(p.BldNodes+1)
	up := vec3{0, 0, p.Gravity}
	for J := range nodes {
		sh := &m.bShape[k][J+1]
		no := &nodes[J]
		off := bladeOffset(sh, qb, 0)
		no.TD = [3]float64(off)
		rx, ry := bladeSlopes(sh, qb)
		no.RD = [3]float64{rx, ry, 0}
		nt, n := s.bladeSectionFrame(k, J, rx, ry)
		pJ := c.pos[i0+J]
		aJ := accel(i0 + J)
		no.AL = [3]float64(n.local(aJ))
		no.ALg = [3]float64(n.local(aJ.add(up)))
		var F, M vec3
		for i := J + 1; i <= p.BldNodes; i++ {
			L := load(i0 + i)
			F = F.add(L)
			M = M.add(c.pos[i0+i].sub(pJ).cross(L))
		}
		half := load(i0 + J).scale(0.5)
		F = F.add(half)
		M = M.add(fj[2].scale(0.25 * m.bldDR).cross(half))
		for i, r := range m.loadR[k] {
			L := vec3(u.BladeForce[k][i])
			Mo := vec3(u.BladeMoment[k][i])
			switch {
			case math.Abs(r-m.rNodes[J]) < 1e-9*m.bldFlexL:
				// A point load at the node stands for its element: half of
				// it is outboard, acting a quarter element out.
				F = F.add(L.scale(0.5))
				M = M.add(fj[2].scale(0.25 * m.bldDR).cross(L.scale(0.5))).add(Mo.scale(0.5))
			case r > m.rNodes[J]:
				F = F.add(L)
				M = M.add(c.pos[m.ptLoad0[k]+i].sub(pJ).cross(L)).add(Mo)
			}
		}
		no.FL, no.ML = [3]float64(n.local(F)), [3]float64(n.local(M))
		no.FLNT, no.MLNT = [3]float64(nt.local(F)), [3]float64(nt.local(M))
	}
}

// bladeSectionFrame returns blade k's section frames at node J (0-based)
// for the bending slopes rx, ry about j1, j2: without structural twist
// (the pitched frame turned by the slopes) and the element frame n (then
// turned by the structural twist about its z axis, like pitch).
func (s *System) bladeSectionFrame(k, J int, rx, ry float64) (nt, n frame) {
	m := s.m
	fj := s.c0.fj[k]
	b := &m.p.Blades[k]
	tw := interp(m.rNodes[J]/m.bldFlexL, b.BlFract, b.StrcTwst)
	nt = fj
	if rx != 0 || ry != 0 {
		nt = bendFrame(&fj, rx, ry)
	}
	return nt, nt.rotZ(-tw)
}

// bladeSlopes returns the bending slopes about j1 and j2 of blade k's
// shape sh: deflection toward +j2 along the span turns the section about
// −j1, toward +j1 about +j2.
func bladeSlopes(sh *bladeShape, qb []float64) (rx, ry float64) {
	for md := 0; md < 3; md++ {
		rx -= sh.sy[md] * qb[md]
		ry += sh.sx[md] * qb[md]
	}
	return rx, ry
}

// towerSectionFrame returns the local tower frame of the section with
// shape sh (the platform frame turned by the bending slopes; ElastoDyn's
// t1, t2, t3 of the node) and the slopes' small-angle rotation
// (−side-to-side slope, fore-aft slope, 0) in the platform frame.
func (s *System) towerSectionFrame(sh *towerShape, q []float64) (frame, vec3) {
	sFA := sh.faS[0]*q[DOFTFA1] + sh.faS[1]*q[DOFTFA2]
	sSS := sh.ssS[0]*q[DOFTSS1] + sh.ssS[1]*q[DOFTSS2]
	rd := vec3{-sSS, sFA, 0}
	f := rotationVector(rd)
	for i := range f {
		f[i] = s.c0.fp.apply(f[i])
	}
	return f, rd
}

// eulerZYX returns the roll, pitch and yaw angles (intrinsic Z-Y-X, as
// platformFrame composes them) of a frame whose rows are its axes.
func eulerZYX(f *frame) [3]float64 {
	return [3]float64{
		math.Atan2(f[1][2], f[2][2]),
		-math.Asin(math.Max(-1, math.Min(1, f[0][2]))),
		math.Atan2(f[0][1], f[0][0]),
	}
}

// detailOutputs fills out.Detail (DetailOutputs) from the configuration,
// the generalized accelerations, the shaft frame's angular acceleration
// alpha, the shaft gage moment mGage and the yaw-bearing loads fY, mY
// (global axes).
func (s *System) detailOutputs(st *State, qdd []float64, accel func(int) vec3, alpha, mGage, fY, mY vec3, out *Outputs) {
	m := s.m
	p := &m.p
	nd := m.nDOF
	c := s.c0
	d := out.Detail
	up := vec3{0, 0, p.Gravity}
	O, B := c.towerTop, c.towerBase

	rOPO := O.sub(B).sub(c.fp[2].scale(m.twrFlexL))
	d.YawBrTDt, d.YawBrTDp = [3]float64(c.fp.local(rOPO)), [3]float64(c.fb.local(rOPO))
	d.TwrTpTDi = [3]float64(O.sub(vec3{0, 0, p.TowerBsHt + m.twrFlexL}))
	var vO vec3
	for _, j := range s.moving {
		vO = vO.axpy(st.QD[j], s.jac[m.ptYawBr*nd+j])
	}
	d.YawBrTVp = [3]float64(c.fb.local(vO))
	d.YawBrTAgp = [3]float64(c.fb.local(accel(m.ptYawBr).add(up)))
	_, rdTop := s.towerSectionFrame(&m.tShape[p.TwrNodes+1], st.Q)
	d.YawBrRDt = [3]float64(rdTop)
	// The nacelle turns on the tower top about its z axis at the yaw
	// rate, so ω_p = ω_s − ψ̇ z_p and α_p = α_s − ψ̈ z_p − ψ̇ ω_p × z_p
	// (the shaft frame is the nacelle's tilted by a constant angle).
	zp := c.fb[2]
	wB := s.omegaS.axpy(-st.QD[DOFYaw], zp)
	aB := alpha.axpy(-qdd[DOFYaw], zp).sub(wB.cross(zp).scale(st.QD[DOFYaw]))
	d.YawBrRVp, d.YawBrRAp = [3]float64(c.fb.local(wB)), [3]float64(c.fb.local(aB))
	d.NcIMUTAg = [3]float64(c.fs.local(accel(m.ptIMU).add(up)))

	aZ := vec3(out.PtfmTAi)
	d.PtfmTDt = [3]float64(c.fp.local(vec3(out.PtfmTDi)))
	d.PtfmTAgi = [3]float64(aZ.add(up))
	d.PtfmTAgt = [3]float64(c.fp.local(aZ.add(up)))
	d.LSSGagMs = [3]float64(c.fs.local(mGage))
	d.YawBrFn, d.YawBrMn = [3]float64(c.fn.local(fY)), [3]float64(c.fn.local(mY))

	// Blade tips: acceleration in the last node's element frame (the tip
	// has no structural twist of its own), slopes of the tip's shape.
	if len(d.TipAL) != p.NumBl {
		d.TipAL, d.TipALg, d.TipRD = make([][3]float64, p.NumBl), make([][3]float64, p.NumBl), make([][3]float64, p.NumBl)
	}
	for k := 0; k < p.NumBl; k++ {
		qb := st.Q[DOFBlade(k, 0) : DOFBlade(k, 0)+3]
		J := p.BldNodes - 1
		rxJ, ryJ := bladeSlopes(&m.bShape[k][J+1], qb)
		_, n := s.bladeSectionFrame(k, J, rxJ, ryJ)
		tip := accel(m.ptBlade0 + k*(p.BldNodes+1) + p.BldNodes)
		d.TipAL[k], d.TipALg[k] = [3]float64(n.local(tip)), [3]float64(n.local(tip.add(up)))
		rx, ry := bladeSlopes(&m.bShape[k][p.BldNodes+1], qb)
		d.TipRD[k] = [3]float64{rx, ry, 0}
	}

	if len(d.TowerGages) != len(out.TowerGages) {
		d.TowerGages = make([]TowerGageMotion, len(out.TowerGages))
	}
	for g, J := range out.TowerGages {
		f, rd := s.towerSectionFrame(&m.tShape[J+1], st.Q)
		a := accel(J)
		td := c.fp.local(c.pos[J].sub(B))
		td[2] -= m.hNodes[J]
		d.TowerGages[g] = TowerGageMotion{
			AL: [3]float64(f.local(a)), ALg: [3]float64(f.local(a.add(up))),
			TD: [3]float64(td), RD: [3]float64(rd), RP: eulerZYX(&f),
		}
	}
}

// platformOutputs fills the platform reference point's motion.
func (s *System) platformOutputs(st *State, qdd []float64, accel func(int) vec3, out *Outputs) {
	m := s.m
	nd := m.nDOF
	c := s.c0
	ref := m.ptPtfmRef
	var v vec3
	for _, j := range s.moving {
		v = v.axpy(st.QD[j], s.jac[ref*nd+j])
	}
	a := accel(ref)
	alpha := s.alphaP
	for _, j := range s.active {
		alpha = alpha.axpy(qdd[j], s.omP[j])
	}
	out.PtfmTDi = [3]float64(c.pos[ref].sub(m.ptfmRef0))
	out.PtfmRDi = [3]float64{st.Q[DOFR], st.Q[DOFP], st.Q[DOFY]}
	out.PtfmTVi, out.PtfmTVt = [3]float64(v), [3]float64(c.fp.local(v))
	out.PtfmRVi, out.PtfmRVt = [3]float64(s.omegaP), [3]float64(c.fp.local(s.omegaP))
	out.PtfmTAi, out.PtfmTAt = [3]float64(a), [3]float64(c.fp.local(a))
	out.PtfmRAi, out.PtfmRAt = [3]float64(alpha), [3]float64(c.fp.local(alpha))
	out.PtfmOrient = rows(&c.fp)
}

// Floating reports whether the platform moves or is displaced (platform
// DOFs on or a non-zero initial platform displacement).
func (m *Model) Floating() bool { return m.floating }

// PlatformRef0 is the undisplaced platform reference point.
func (m *Model) PlatformRef0() [3]float64 { return [3]float64(m.ptfmRef0) }
