package structure

import "math"

// config is the turbine's configuration at one set of generalized
// coordinates: the coordinate systems of ElastoDyn (tower top b, nacelle d,
// shaft c, hub g, coned i and pitched j per blade) and every point.
type config struct {
	pos []vec3
	// off is each blade point's offset from the apex in its pitched
	// frame's axes (bladeOffset); zero off the blades.
	off       []vec3
	fp        frame // platform (ElastoDyn a, IEC t); identity on land
	fb        frame // tower top (ElastoDyn b, IEC p)
	fn        frame // nacelle (d, n)
	fs        frame // non-rotating shaft (c, s)
	fh        frame // rotating hub (g, h); z points along blade 1
	fc        []frame
	fj        []frame
	towerBase vec3 // tower base (on the platform)
	towerTop  vec3 // point O
	apex      vec3 // point Q
}

func (m *Model) newConfig() *config {
	return &config{
		fp:  identityFrame,
		pos: make([]vec3, m.nPoints),
		off: make([]vec3, m.nPoints),
		fc:  make([]frame, m.p.NumBl),
		fj:  make([]frame, m.p.NumBl),
	}
}

// bladeOffset returns the position of a blade point relative to the apex in
// the pitched frame's axes: twisted mode-shape deflections along j1, j2 and
// the radius minus the axial shortening along j3.
func bladeOffset(sh *bladeShape, qb []float64, radius float64) vec3 {
	var dx, dy, ax float64
	for a := 0; a < 3; a++ {
		dx += sh.dx[a] * qb[a]
		dy += sh.dy[a] * qb[a]
		for c := 0; c < 3; c++ {
			ax += sh.axRed[a][c] * qb[a] * qb[c]
		}
	}
	return vec3{dx, dy, radius - 0.5*ax}
}

// What kinematics computes besides the frames, apex and tower top.
const (
	kinAll      = iota // every point
	kinFrames          // frames only
	kinNoBlades        // every point except the blade nodes and blade load stations
)

// kinematics fills c for coordinates q and blade pitch angles; what says
// which points are computed (kinAll, kinFrames, kinNoBlades).
func (m *Model) kinematics(q, pitch []float64, c *config, what int) {
	p := &m.p
	N := p.TwrNodes
	base := vec3{0, 0, p.TowerBsHt}
	qFA := [2]float64{q[DOFTFA1], q[DOFTFA2]}
	qSS := [2]float64{q[DOFTSS1], q[DOFTSS2]}
	towerPoint := func(sh *towerShape, h float64) vec3 {
		var ux, uy, ax float64
		for a := 0; a < 2; a++ {
			ux += sh.fa[a] * qFA[a]
			uy += sh.ss[a] * qSS[a]
			for b := 0; b < 2; b++ {
				ax += sh.axFA[a][b]*qFA[a]*qFA[b] + sh.axSS[a][b]*qSS[a]*qSS[b]
			}
		}
		return vec3{base[0] + ux, base[1] + uy, base[2] + h - 0.5*ax}
	}
	if m.floating {
		// The tower stands on the platform: a point at undisplaced
		// position x moves to ref + R·(x − ref₀), R the platform rotation
		// and ref the displaced reference point.
		c.fp = platformFrame(vec3{q[DOFR], q[DOFP], q[DOFY]})
		ref := m.ptfmRef0.add(vec3{q[DOFSg], q[DOFSw], q[DOFHv]})
		onLand := towerPoint
		towerPoint = func(sh *towerShape, h float64) vec3 {
			return ref.add(c.fp.apply(onLand(sh, h).sub(m.ptfmRef0)))
		}
		c.pos[m.ptPtfmRef] = ref
		c.pos[m.ptPtfmCM] = ref.add(c.fp.apply(vec3{p.PtfmCMxt, p.PtfmCMyt, p.PtfmCMzt}.sub(m.ptfmRef0)))
	}
	top := &m.tShape[N+1]
	c.towerBase = towerPoint(&m.tShape[0], 0)
	c.towerTop = towerPoint(top, m.twrFlexL)
	// Tower-top tilt from the mode slopes: fore-aft deflection toward +x
	// turns the top about +y, side-to-side toward +y turns it about -x.
	sFA := top.faS[0]*qFA[0] + top.faS[1]*qFA[1]
	sSS := top.ssS[0]*qSS[0] + top.ssS[1]*qSS[1]
	c.fb = rotationVector(vec3{-sSS, sFA, 0})
	if m.floating {
		for i := range c.fb {
			c.fb[i] = c.fp.apply(c.fb[i])
		}
	}
	c.fn = c.fb.rotZ(q[DOFYaw])
	c.fs = c.fn.rotY(-p.ShftTilt)
	c.apex = c.towerTop.add(c.fn[2].scale(p.Twr2Shft)).add(c.fs[0].scale(p.OverHang))
	// Rotor azimuth: ElastoDyn's internal azimuth is 90° behind the output
	// azimuth, so blade 1 points along -sinψ·z_s - cosψ·y_s.
	psi := q[DOFGeAz] + q[DOFDrTr]
	c.fh = c.fs.rotX(psi + math.Pi/2)
	for k := 0; k < p.NumBl; k++ {
		c.fc[k] = c.fh.rotX(2 * math.Pi * float64(k) / float64(p.NumBl)).rotY(p.PreCone[k])
		c.fj[k] = c.fc[k].rotZ(-pitch[k])
	}
	if what == kinFrames {
		return
	}
	for j := 0; j < N; j++ {
		c.pos[j] = towerPoint(&m.tShape[j+1], m.hNodes[j])
	}
	for i := range m.twrLoadShape {
		c.pos[m.ptTwrLoad0+i] = towerPoint(&m.twrLoadShape[i], m.twrLoadH[i])
	}
	c.pos[m.ptYawBr] = c.towerTop
	c.pos[m.ptNac] = c.towerTop.add(c.fn.apply(vec3{p.NacCMxn, p.NacCMyn, p.NacCMzn}))
	c.pos[m.ptHub] = c.apex.add(c.fs[0].scale(p.HubCM))
	c.pos[m.ptIMU] = c.towerTop.add(c.fn.apply(vec3{p.NcIMUxn, p.NcIMUyn, p.NcIMUzn}))
	if what == kinNoBlades {
		return
	}
	for k := 0; k < p.NumBl; k++ {
		qb := q[DOFBlade(k, 0) : DOFBlade(k, 0)+3]
		fj := &c.fj[k]
		i0 := m.ptBlade0 + k*(p.BldNodes+1)
		at := func(pt int, o vec3) {
			c.off[pt] = o
			c.pos[pt] = c.apex.add(fj.apply(o))
		}
		for j := 0; j < p.BldNodes; j++ {
			at(i0+j, bladeOffset(&m.bShape[k][j+1], qb, p.HubRad+m.rNodes[j]))
		}
		at(i0+p.BldNodes, bladeOffset(&m.bShape[k][p.BldNodes+1], qb, p.TipRad))
		for i := range m.loadR[k] {
			at(m.ptLoad0[k]+i, bladeOffset(&m.loadShape[k][i], qb, p.HubRad+m.loadR[k][i]))
		}
	}
}

// platformFrame returns the platform axes for the platform rotations
// θ = (roll, pitch, yaw). OpenFAST v4+ ElastoDyn (the large-yaw platform
// kinematics; ElastoDyn's user documentation, platform DOFs) treats the three
// angles as intrinsic Z-Y-X Euler angles: yaw about the global z axis,
// then pitch about the yawed y axis, then roll about the yawed and pitched
// x axis, so R = Rz(yaw)·Ry(pitch)·Rx(roll) and HydroDyn's and MoorDyn's
// ZYX extraction of the platform orientation gives the generalized
// coordinates back. (Jonkman's 2007 formulation, the orthonormalised
// small-angle rotation I + [θ×], agrees to first order only: with the
// 4° mean pitch and 0.3° yaw of a semi at rated thrust the second-order
// difference is 0.02° of roll, 5 % of its mean offset.)
func platformFrame(th vec3) frame {
	return identityFrame.rotZ(th[2]).rotY(th[1]).rotX(th[0])
}
