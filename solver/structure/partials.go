package structure

import "math"

// Analytic kinematic coefficients (Kane's method as ElastoDyn applies it;
// Jonkman 2005, the FAST theory manual's partial velocities and partial
// angular velocities): every point of the turbine hangs off a chain of
// bodies — platform, tower, tower top, nacelle and shaft, hub, pitched
// blade — so its partial velocity for a DOF is the partial velocity of the
// body's origin plus the body's partial angular velocity crossed with the
// point's offset, plus the point's own elastic partial within the body
// (tower and blade mode shapes). The velocity-dependent acceleration at
// zero q̈ follows the same chain: origin bias + α₀ × r + ω × (ω × r) +
// 2 ω × ṙ_rel + r̈_rel, where r̈_rel is the second derivative of the
// axial shortening along q̇.

// expMapTangent holds the scalar factors of the tangent of the rotation-
// vector (exponential) map at angle θ = |v|: the spatial angular velocity
// of exp([v×]) is ω = v̇ + a·(v × v̇) + b·(v × (v × v̇)) with
// a = (1 − cos θ)/θ² and b = (θ − sin θ)/θ³; da and db are a′(θ)/θ and
// b′(θ)/θ, so that ȧ = da·(v·v̇).
type expMapTangent struct{ a, b, da, db float64 }

func newExpMapTangent(v vec3) expMapTangent {
	t2 := v.dot(v)
	if t2 < 0.05*0.05 {
		// Taylor series; the next terms are below 1e-16 relative here.
		return expMapTangent{
			a:  0.5 - t2/24 + t2*t2/720 - t2*t2*t2/40320,
			b:  1.0/6 - t2/120 + t2*t2/5040 - t2*t2*t2/362880,
			da: -1.0/12 + t2/180 - t2*t2/6720 + t2*t2*t2/453600,
			db: -1.0/60 + t2/1260 - t2*t2/60480 + t2*t2*t2/4989600,
		}
	}
	th := math.Sqrt(t2)
	s, c := math.Sin(th), math.Cos(th)
	a := (1 - c) / t2
	b := (th - s) / (t2 * th)
	return expMapTangent{
		a:  a,
		b:  b,
		da: (s/th - 2*a) / t2,
		db: ((1-c)/t2 - 3*b) / t2,
	}
}

// apply returns J(v)·x, the angular velocity of exp([v×]) for v̇ = x.
func (e *expMapTangent) apply(v, x vec3) vec3 {
	vx := v.cross(x)
	return x.axpy(e.a, vx).axpy(e.b, v.cross(vx))
}

// rateBias returns J̇(v, v̇)·v̇: the angular acceleration of exp([v×]) at
// v̈ = 0.
func (e *expMapTangent) rateBias(v, vd vec3) vec3 {
	vvd := v.dot(vd)
	vx := v.cross(vd)
	// d/dt [a (v×v̇) + b v×(v×v̇)] with v̈ = 0.
	return vx.scale(e.da*vvd).axpy(e.db*vvd, v.cross(vx)).axpy(e.b, vd.cross(vx))
}

// towerPartials returns the partial velocities of a tower point with
// shape sh in the tower's own (undisplaced platform) axes for the four
// tower DOFs TFA1, TSS1, TFA2, TSS2 (in that DOF order), its velocity
// there and its acceleration at zero q̈: the deflection is linear in the
// mode coordinates and the axial drop −½ Σ A_ab q_a q_b is quadratic.
func towerPartials(sh *towerShape, q, qd []float64) (d [4]vec3, vel, acc vec3) {
	qFA := [2]float64{q[DOFTFA1], q[DOFTFA2]}
	qSS := [2]float64{q[DOFTSS1], q[DOFTSS2]}
	vFA := [2]float64{qd[DOFTFA1], qd[DOFTFA2]}
	vSS := [2]float64{qd[DOFTSS1], qd[DOFTSS2]}
	var zz float64
	for a := 0; a < 2; a++ {
		var zFA, zSS float64
		for b := 0; b < 2; b++ {
			zFA -= 0.5 * (sh.axFA[a][b] + sh.axFA[b][a]) * qFA[b]
			zSS -= 0.5 * (sh.axSS[a][b] + sh.axSS[b][a]) * qSS[b]
			zz -= sh.axFA[a][b]*vFA[a]*vFA[b] + sh.axSS[a][b]*vSS[a]*vSS[b]
		}
		d[2*a] = vec3{sh.fa[a], 0, zFA}
		d[2*a+1] = vec3{0, sh.ss[a], zSS}
	}
	vel = d[0].scale(vFA[0]).axpy(vSS[0], d[1]).axpy(vFA[1], d[2]).axpy(vSS[1], d[3])
	acc = vec3{0, 0, zz}
	return d, vel, acc
}

// towerDOFs are the tower mode DOFs in towerPartials' order.
var towerDOFs = [4]int{DOFTFA1, DOFTSS1, DOFTFA2, DOFTSS2}

// analyticCoefficients fills the configuration c0, the partial velocities
// (jac), the partial angular velocities of the platform (omP), shaft
// (omS) and pitched blade frames (omJ), the velocity-dependent
// accelerations (abias) and the frames' angular velocities and angular
// accelerations at zero q̈, from the kinematic chain. Only the entries of
// moving DOFs that can be non-zero are written; the others stay zero from
// NewSystem.
func (s *System) analyticCoefficients(q, qdIn, pitch []float64) {
	m := s.m
	p := &m.p
	nd := m.nDOF
	c := s.c0
	m.kinematics(q, pitch, c, kinAll)
	qd := s.qdMoving
	for j := range qd {
		qd[j] = 0
	}
	for _, j := range s.moving {
		qd[j] = qdIn[j]
	}
	on := s.movingSet

	// Platform: the reference point translates with (Sg, Sw, Hv); the
	// rotation R = Rz(yaw)·Ry(pitch)·Rx(roll) turns about the global z
	// axis, the yawed y axis and the platform's own x axis.
	var omP [6]vec3 // partial angular velocities of the platform per platform DOF
	var wP, aP, ref vec3
	fp := &c.fp
	if m.floating {
		ref = c.pos[m.ptPtfmRef]
		sy, cy := math.Sincos(q[DOFY])
		ez := vec3{0, 0, 1}
		yawedY := vec3{-sy, cy, 0}
		omP[DOFR], omP[DOFP], omP[DOFY] = fp[0], yawedY, ez
		wYP := ez.scale(qd[DOFY]).axpy(qd[DOFP], yawedY)
		wP = wYP.axpy(qd[DOFR], fp[0])
		aP = ez.scale(qd[DOFY]).cross(yawedY).scale(qd[DOFP]).add(wYP.cross(fp[0]).scale(qd[DOFR]))
		for j := DOFSg; j <= DOFY; j++ {
			if on[j] {
				s.omP[j] = omP[j]
			}
		}
	}
	// ptfmPoint writes the platform DOFs' partials of a point at x and
	// returns its offset from the reference point.
	ptfmPoint := func(pt int) vec3 {
		r := c.pos[pt].sub(ref)
		J := s.jac[pt*nd:]
		for j := DOFSg; j <= DOFHv; j++ {
			if on[j] {
				var e vec3
				e[j] = 1
				J[j] = e
			}
		}
		for j := DOFR; j <= DOFY; j++ {
			if on[j] {
				J[j] = omP[j].cross(r)
			}
		}
		return r
	}

	// Tower points: elastic partials in the tower's axes, turned by the
	// platform rotation; bias accelerations from the axial drop and, on a
	// moving platform, the platform's rotation (transport, centripetal and
	// Coriolis terms).
	towerPoint := func(pt int, sh *towerShape) (vec3, vec3) {
		d, vel, acc := towerPartials(sh, q, qd)
		J := s.jac[pt*nd:]
		for i, j := range towerDOFs {
			if on[j] {
				J[j] = fp.apply(d[i])
			}
		}
		if !m.floating {
			return vel, acc
		}
		r := ptfmPoint(pt)
		velG := fp.apply(vel)
		acc = fp.apply(acc).add(aP.cross(r)).add(wP.cross(wP.cross(r))).add(wP.cross(velG).scale(2))
		return velG, acc
	}
	N := p.TwrNodes
	for j := 0; j < N; j++ {
		_, s.abias[j] = towerPoint(j, &m.tShape[j+1])
	}
	for i := range m.twrLoadShape {
		_, s.abias[m.ptTwrLoad0+i] = towerPoint(m.ptTwrLoad0+i, &m.twrLoadShape[i])
	}
	top := m.ptYawBr // the yaw bearing is the tower top
	_, aTop := towerPoint(top, &m.tShape[N+1])
	s.abias[top] = aTop
	if m.floating {
		ptfmPoint(m.ptPtfmRef)
		s.abias[m.ptPtfmRef] = vec3{}
		r := ptfmPoint(m.ptPtfmCM)
		s.abias[m.ptPtfmCM] = aP.cross(r).add(wP.cross(wP.cross(r)))
	}

	// Tower-top frame: the platform frame turned by the rotation vector
	// v = (−slope_SS, slope_FA, 0) of the top's mode slopes.
	sh := &m.tShape[N+1]
	v := vec3{-(sh.ssS[0]*q[DOFTSS1] + sh.ssS[1]*q[DOFTSS2]), sh.faS[0]*q[DOFTFA1] + sh.faS[1]*q[DOFTFA2], 0}
	dv := [4]vec3{{0, sh.faS[0], 0}, {-sh.ssS[0], 0, 0}, {0, sh.faS[1], 0}, {-sh.ssS[1], 0, 0}}
	vd := dv[0].scale(qd[DOFTFA1]).axpy(qd[DOFTSS1], dv[1]).axpy(qd[DOFTFA2], dv[2]).axpy(qd[DOFTSS2], dv[3])
	tan := newExpMapTangent(v)
	var omB [4]vec3 // tower-top frame's partial angular velocities per tower DOF (global)
	for i := range dv {
		omB[i] = fp.apply(tan.apply(v, dv[i]))
	}
	wRel := fp.apply(tan.apply(v, vd))
	wB := wP.add(wRel)
	aB := aP.add(wP.cross(wRel)).add(fp.apply(tan.rateBias(v, vd)))
	// Nacelle and shaft: the yaw turns about the tower top's z axis.
	yawAxis := c.fb[2]
	wN := wB.axpy(qd[DOFYaw], yawAxis)
	aN := aB.add(wB.cross(yawAxis).scale(qd[DOFYaw]))
	for j := 0; j < dofBlade0; j++ {
		s.omS[j] = vec3{}
	}
	for j := DOFR; j <= DOFY; j++ {
		s.omS[j] = omP[j]
	}
	for i, j := range towerDOFs {
		s.omS[j] = omB[i]
	}
	s.omS[DOFYaw] = yawAxis
	s.omegaS, s.alphaS = wN, aN
	s.omegaP, s.alphaP = wP, aP

	// Points on the nacelle: the tower top's partials plus the nacelle
	// frame's rotation about the top.
	vTop := s.jac[top*nd : (top+1)*nd]
	nacellePoint := func(pt int, r vec3) {
		J := s.jac[pt*nd : (pt+1)*nd]
		for _, j := range s.moving {
			if j < dofBlade0 && j != DOFGeAz && j != DOFDrTr {
				J[j] = vTop[j].add(s.omS[j].cross(r))
			}
		}
		s.abias[pt] = aTop.add(aN.cross(r)).add(wN.cross(wN.cross(r)))
	}
	towerTop := c.towerTop
	for _, pt := range [3]int{m.ptNac, m.ptHub, m.ptIMU} {
		nacellePoint(pt, c.pos[pt].sub(towerTop))
	}
	// The apex, like the hub, rides on the nacelle.
	rApex := c.apex.sub(towerTop)
	for j := range s.vApex {
		s.vApex[j] = vec3{}
	}
	for _, j := range s.moving {
		if j < dofBlade0 && j != DOFGeAz && j != DOFDrTr {
			s.vApex[j] = vTop[j].add(s.omS[j].cross(rApex))
		}
	}
	aApex := aTop.add(aN.cross(rApex)).add(wN.cross(wN.cross(rApex)))

	// Hub and blades: the rotor azimuth ψ = q_GeAz + q_DrTr turns about the
	// shaft axis. A blade point's partial velocity for a DOF off the blade
	// is the apex's plus the blade frame's rotation about the apex,
	// v_apex,j + ω_j × r, so it is not stored per point: the equations of
	// motion use the blade's mass moments about the apex (bladeLump) and
	// the motions rebuild velocities from the apex's. Only the blade's own
	// mode partials are stored (jac).
	shaft := c.fs[0]
	psiDot := qd[DOFGeAz] + qd[DOFDrTr]
	wH := wN.axpy(psiDot, shaft)
	aH := aN.add(wN.cross(shaft).scale(psiDot))
	s.omegaH = wH
	var vApexRate vec3
	for _, j := range s.moving {
		if j < dofBlade0 {
			vApexRate = vApexRate.axpy(qd[j], s.vApex[j])
		}
	}
	s.vApexRate = vApexRate
	g := vec3{0, 0, -p.Gravity}
	for k := 0; k < p.NumBl; k++ {
		omJ := s.omJ[k]
		for j := 0; j < dofBlade0; j++ {
			omJ[j] = s.omS[j]
		}
		omJ[DOFGeAz], omJ[DOFDrTr] = vec3{}, vec3{}
		for _, j := range [2]int{DOFGeAz, DOFDrTr} {
			if on[j] {
				omJ[j] = shaft
			}
		}
		d0 := DOFBlade(k, 0)
		qb := q[d0 : d0+3]
		qdb := qd[d0 : d0+3]
		fj := &c.fj[k]
		lump := &s.lump[k]
		*lump = bladeLump{}
		// The blade's points in its pitched frame j: offset o from the
		// apex, own-mode partials dlₘ = (Φxₘ, Φyₘ, −Σₙ Āₘₙ qₙ) (Ā the
		// symmetric part of the axial-reduction matrix), and the apex's
		// acceleration and the frame's rotation in the same axes; the
		// blade's sums are formed there and turned to global axes once.
		aApexL, aHL, wHL, gL := fj.local(aApex), fj.local(aH), fj.local(wH), fj.local(g)
		blade := func(pt int, sh *bladeShape, tip bool) {
			dl := &s.bladeDL[pt]
			for md := 0; md < 3; md++ {
				var ax float64
				for n := 0; n < 3; n++ {
					ax += 0.5 * (sh.axRed[md][n] + sh.axRed[n][md]) * qb[n]
				}
				dl[md] = vec3{sh.dx[md], sh.dy[md], -ax}
			}
			mi := m.ptMass[pt]
			if mi <= 0 && !tip {
				// A massless point (a load station) needs its mode
				// partials only: nothing asks for its acceleration. The
				// tip's, massless or not, is an output (TipALxb …).
				return
			}
			r := c.off[pt]
			var relVel vec3
			var zz float64
			for md := 0; md < 3; md++ {
				relVel = relVel.axpy(qdb[md], dl[md])
				for n := 0; n < 3; n++ {
					zz -= sh.axRed[md][n] * qdb[md] * qdb[n]
				}
			}
			ab := aApexL.add(aHL.cross(r)).add(wHL.cross(wHL.cross(r))).add(wHL.cross(relVel).scale(2))
			ab[2] += zz
			s.abias[pt] = fj.apply(ab)
			if mi > 0 {
				lump.add(mi, r, dl, gL.sub(ab).scale(mi))
			}
		}
		i0 := m.ptBlade0 + k*(p.BldNodes+1)
		for jn := 0; jn <= p.BldNodes; jn++ {
			blade(i0+jn, &m.bShape[k][jn+1], jn == p.BldNodes)
		}
		for i := range m.loadR[k] {
			blade(m.ptLoad0[k]+i, &m.loadShape[k][i], false)
		}
		lump.toGlobal(fj)
	}
}

// bladeLump holds one blade's mass moments about the apex at the current
// configuration — Σm, Σm·r, the inertia tensor Σm(|r|²I − r rᵀ), and per
// own mode Σm·φₘ, Σm·r×φₘ and Σm·φₘ·φₙ — and the resultants of its
// gravity and inertia loads at zero q̈, L = Σm(g − a₀) and Σ r×L, with
// their modal forces Σ φₘ·L. With them the blade's share of Kane's
// generalized mass and forces, Σᵢ mᵢ vᵢ,ᵣ·vᵢ,ₛ and Σᵢ vᵢ,ᵣ·Lᵢ for
// vᵢ,ᵣ = v_apex,r + ωᵣ × rᵢ, is a few dot products per DOF pair instead of
// a sum over the blade's points.
type bladeLump struct {
	mass          float64
	first         vec3
	inertia       [3][3]float64
	modeMom       [3]vec3       // Σ m φₘ
	modeAng       [3]vec3       // Σ m r × φₘ
	modeMass      [3][3]float64 // Σ m φₘ·φₙ
	force, moment vec3          // Σ L, Σ r × L
	modeForce     [3]float64    // Σ φₘ·L
}

func (b *bladeLump) add(mi float64, r vec3, phi *[3]vec3, L vec3) {
	// Summed in the blade's pitched frame; toGlobal turns the vectors and
	// the tensor to global axes (the scalars do not change).
	b.mass += mi
	b.first = b.first.axpy(mi, r)
	rr := r.dot(r)
	for x := 0; x < 3; x++ {
		for y := 0; y < 3; y++ {
			v := -mi * r[x] * r[y]
			if x == y {
				v += mi * rr
			}
			b.inertia[x][y] += v
		}
	}
	for md := 0; md < 3; md++ {
		b.modeMom[md] = b.modeMom[md].axpy(mi, phi[md])
		b.modeAng[md] = b.modeAng[md].axpy(mi, r.cross(phi[md]))
		for n := 0; n < 3; n++ {
			b.modeMass[md][n] += mi * phi[md].dot(phi[n])
		}
		b.modeForce[md] += phi[md].dot(L)
	}
	b.force = b.force.add(L)
	b.moment = b.moment.add(r.cross(L))
}

// toGlobal turns the sums from the pitched frame f's axes to global axes.
func (b *bladeLump) toGlobal(f *frame) {
	b.first = f.apply(b.first)
	for md := 0; md < 3; md++ {
		b.modeMom[md] = f.apply(b.modeMom[md])
		b.modeAng[md] = f.apply(b.modeAng[md])
	}
	b.force, b.moment = f.apply(b.force), f.apply(b.moment)
	// I_global = R·I·Rᵀ, R's columns the frame's axes.
	var ri [3]vec3 // R·I, column by column
	for y := 0; y < 3; y++ {
		ri[y] = f.apply(vec3{b.inertia[0][y], b.inertia[1][y], b.inertia[2][y]})
	}
	var g [3][3]float64
	for x := 0; x < 3; x++ {
		row := vec3{ri[0][x], ri[1][x], ri[2][x]} // row x of R·I
		for y := 0; y < 3; y++ {
			g[x][y] = row[0]*f[0][y] + row[1]*f[1][y] + row[2]*f[2][y]
		}
	}
	b.inertia = g
}

func mul33(a *[3][3]float64, v vec3) vec3 {
	return vec3{
		a[0][0]*v[0] + a[0][1]*v[1] + a[0][2]*v[2],
		a[1][0]*v[0] + a[1][1]*v[1] + a[1][2]*v[2],
		a[2][0]*v[0] + a[2][1]*v[1] + a[2][2]*v[2],
	}
}

// partialVelocity is the partial velocity of point pt for DOF j.
func (s *System) partialVelocity(pt, j int) vec3 {
	if k := s.bladeOf[pt]; k >= 0 {
		if j < dofBlade0 {
			return s.vApex[j].add(s.omJ[k][j].cross(s.c0.pos[pt].sub(s.c0.apex)))
		}
		if md := j - DOFBlade(k, 0); md >= 0 && md < 3 {
			return s.c0.fj[k].apply(s.bladeDL[pt][md])
		}
		return vec3{}
	}
	return s.jac[pt*s.m.nDOF+j]
}
