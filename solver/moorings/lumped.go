package moorings

import "math"

// line is one mooring line in the lumped-mass model of Hall & Goupee
// (2015, Ocean Engineering 104, §2): N segments of unstretched length
// l = L/N joined at N+1 nodes. Each node carries half of the mass, weight,
// buoyancy and hydrodynamic load of its neighbouring segments; segments
// carry axial tension EA·ε (none in compression) and internal damping
// BA·dε/dt. Nodes 0 and N are the ends, attached to points (anchors,
// fairleads or free points); nodes 1..N-1 are integrated by the system.
type line struct {
	id     int
	n      int     // number of segments
	l      float64 // unstretched segment length, m
	length float64 // unstretched line length, m
	d      float64 // diameter, m
	ea     float64 // axial stiffness, N
	ba     float64 // internal damping, N·s
	w      float64 // apparent weight in water per unit length, N/m
	cd     float64 // transverse drag coefficient
	cdAx   float64 // tangential drag coefficient
	// Node mass-matrix coefficients for an interior node (length l): the
	// mass matrix is alpha·I + beta·q qᵀ with q the node's tangent
	// (structural mass plus added mass ρV·(Ca (I − qqᵀ) + CaAx qqᵀ)).
	alpha, beta float64
	ptA, ptB    int // indices of the end points in System.points
	stateOff    int // offset of the interior nodes' states in the state vector

	r, v []float64 // node positions and velocities, 3(N+1)
	acc  []float64 // node accelerations, 3(N+1) (interior nodes)
	f    []float64 // net node forces, 3(N+1)
	ls   []float64 // stretched segment lengths
	u    []float64 // segment unit vectors, 3N
	ten  []float64 // segment axial force (tension + damping), N
}

func newLine(id, n int, length, d, massDen, ea, ba, cd, ca, cdAx, caAx, rho, g float64) *line {
	l := length / float64(n)
	if ba < 0 {
		// Negative BA is the segment damping ratio ζ (MoorDyn
		// documentation, "Model Stability and Segment Damping"):
		// BA = ζ·(L/N)·√(EA·w), w the mass per unit length.
		ba = -ba * l * math.Sqrt(ea*massDen)
	}
	area := math.Pi / 4 * d * d
	ln := &line{
		id: id, n: n, l: l, length: length, d: d, ea: ea, ba: ba,
		w:  (massDen - rho*area) * g,
		cd: cd, cdAx: cdAx,
		alpha: massDen*l + rho*area*l*ca,
		beta:  rho * area * l * (caAx - ca),
		r:     make([]float64, 3*(n+1)),
		v:     make([]float64, 3*(n+1)),
		acc:   make([]float64, 3*(n+1)),
		f:     make([]float64, 3*(n+1)),
		ls:    make([]float64, n),
		u:     make([]float64, 3*n),
		ten:   make([]float64, n),
	}
	return ln
}

// seabed describes the flat seabed and its contact and friction model.
type seabed struct {
	depth      float64 // seabed at z = −depth
	kbot, cbot float64 // contact stiffness (Pa/m) and damping (Pa·s/m)
	muT, muA   float64 // kinetic friction coefficients, transverse and axial
	fricDamp   float64 // velocity scale (s/m) of the friction ramp
}

// hydro holds the fluid constants.
type hydro struct {
	rho, g float64
}

// forces computes the net force on every node (tension, internal damping,
// weight and buoyancy, drag, seabed contact and friction) and the
// accelerations of the interior nodes, for the current r and v.
// cdScale multiplies the drag coefficients (dynamic relaxation).
func (ln *line) forces(h hydro, sb *seabed, cdScale float64) {
	n := ln.n
	r, v, f := ln.r, ln.v, ln.f
	// Loop invariants hoisted: divisions cost more than the rest of a
	// node's arithmetic.
	invL := 1 / ln.l
	c := ln.ba * invL
	eaInvL := ln.ea * invL
	ls, us, ten := ln.ls[:n], ln.u[:3*n], ln.ten[:n]
	for j := range ls {
		k := 3 * j
		// Fixed-size views: one bounds check per segment.
		rs, vs, u := (*[6]float64)(r[k:k+6]), (*[6]float64)(v[k:k+6]), (*[3]float64)(us[k:k+3])
		ex, ey, ez := rs[3]-rs[0], rs[4]-rs[1], rs[5]-rs[2]
		lsj := math.Sqrt(ex*ex + ey*ey + ez*ez)
		il := 1 / lsj
		ux, uy, uz := ex*il, ey*il, ez*il
		ls[j] = lsj
		u[0], u[1], u[2] = ux, uy, uz
		t := 0.0
		if lsj > ln.l {
			t = eaInvL*lsj - ln.ea
		}
		// Rate of stretch of the segment along its axis.
		dl := ux*(vs[3]-vs[0]) + uy*(vs[4]-vs[1]) + uz*(vs[5]-vs[2])
		ten[j] = t + c*dl
	}
	qfScale := ln.beta / (ln.alpha + ln.beta)
	ia := 1 / ln.alpha
	halfRhoCdD := 0.5 * h.rho * ln.cd * cdScale * ln.d
	halfRhoCdAxPiD := 0.5 * h.rho * ln.cdAx * cdScale * math.Pi * ln.d
	friction := sb.muT > 0 || sb.muA > 0
	bedZ := -sb.depth
	w, l, d := ln.w, ln.l, ln.d
	acc := ln.acc[:3*(n+1)]
	r, v, f = r[:3*(n+1)], v[:3*(n+1)], f[:3*(n+1)]
	for i := 0; i <= n; i++ {
		k := 3 * i
		var fx, fy, fz float64
		var qx, qy, qz, lsAvg, lw float64
		switch {
		case i == 0:
			qx, qy, qz = us[0], us[1], us[2]
			lsAvg, lw = ls[0]/2, l/2
		case i == n:
			qx, qy, qz = us[k-3], us[k-2], us[k-1]
			lsAvg, lw = ls[n-1]/2, l/2
		default:
			// Tangent: the direction between the neighbours, i.e. the
			// sum of the adjacent segments' vectors u·ls.
			qx = us[k-3]*ls[i-1] + us[k]*ls[i]
			qy = us[k-2]*ls[i-1] + us[k+1]*ls[i]
			qz = us[k-1]*ls[i-1] + us[k+2]*ls[i]
			iq := 1 / math.Sqrt(qx*qx+qy*qy+qz*qz)
			qx, qy, qz = qx*iq, qy*iq, qz*iq
			lsAvg, lw = (ls[i-1]+ls[i])/2, l
		}
		if i < n {
			t := ten[i]
			fx += t * us[k]
			fy += t * us[k+1]
			fz += t * us[k+2]
		}
		if i > 0 {
			t := ten[i-1]
			fx -= t * us[k-3]
			fy -= t * us[k-2]
			fz -= t * us[k-1]
		}
		fz -= w * lw
		// Morison drag in still water (Hall & Goupee 2015, eq. 5):
		// transverse on the frontal area d·l, tangential on π·d·l.
		vx, vy, vz := v[k], v[k+1], v[k+2]
		vp := vx*qx + vy*qy + vz*qz
		tx, ty, tz := vx-vp*qx, vy-vp*qy, vz-vp*qz
		vt := math.Sqrt(tx*tx + ty*ty + tz*tz)
		dq := halfRhoCdD * lsAvg * vt
		dp := halfRhoCdAxPiD * lsAvg * math.Abs(vp)
		fx -= dq*tx + dp*vp*qx
		fy -= dq*ty + dp*vp*qy
		fz -= dq*tz + dp*vp*qz
		// Seabed contact: a pressure kbot·penetration − cbot·vz on the
		// area d·l (MoorDyn documentation, Options), and Coulomb
		// friction ramped in over the velocity scale 1/FricDamp.
		if pen := bedZ - r[k+2]; pen > 0 {
			fc := (sb.kbot*pen - sb.cbot*vz) * d * lw
			fz += fc
			if fc > 0 && friction {
				ffx, ffy := sb.friction(fc, qx, qy, vx, vy)
				fx -= ffx
				fy -= ffy
			}
		}
		f[k], f[k+1], f[k+2] = fx, fy, fz
		if i == 0 || i == n {
			continue
		}
		// a = M⁻¹F with M = αI + β qqᵀ: M⁻¹ = (I − β/(α+β) qqᵀ)/α.
		qf := (qx*fx + qy*fy + qz*fz) * qfScale
		acc[k] = (fx - qf*qx) * ia
		acc[k+1] = (fy - qf*qy) * ia
		acc[k+2] = (fz - qf*qz) * ia
	}
}

// friction returns the seabed friction force (x, y) on a node pressed on
// the bed by fc, with tangent (qx, qy, ·) and velocity (vx, vy, ·): kinetic
// Coulomb friction across (muT) and along (muA) the line's horizontal
// direction, ramped in over the velocity scale 1/FricDamp.
func (sb *seabed) friction(fc, qx, qy, vx, vy float64) (fx, fy float64) {
	hx, hy := qx, qy
	if hn := math.Hypot(hx, hy); hn > 0 {
		hx, hy = hx/hn, hy/hn
	}
	va := vx*hx + vy*hy
	wx, wy := vx-va*hx, vy-va*hy
	if vw := math.Hypot(wx, wy); vw > 0 {
		ff := sb.muT * fc * math.Min(sb.fricDamp*vw, 1) / vw
		fx += ff * wx
		fy += ff * wy
	}
	if va != 0 {
		ff := sb.muA * fc * math.Min(sb.fricDamp*math.Abs(va), 1) * math.Copysign(1, va)
		fx += ff * hx
		fy += ff * hy
	}
	return fx, fy
}

// endMass returns the mass matrix of end node 0 (end=0) or N (end=1):
// half an interior node's, about the adjacent segment's direction.
func (ln *line) endMass(end int) [3][3]float64 {
	k := 0
	if end == 1 {
		k = 3 * (ln.n - 1)
	}
	q := [3]float64{ln.u[k], ln.u[k+1], ln.u[k+2]}
	var m [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m[i][j] = ln.beta / 2 * q[i] * q[j]
		}
		m[i][i] += ln.alpha / 2
	}
	return m
}

// endForce returns the net force on end node 0 (end=0) or N (end=1): what
// the line applies to the point it is attached to.
func (ln *line) endForce(end int) [3]float64 {
	k := 0
	if end == 1 {
		k = 3 * ln.n
	}
	return [3]float64{ln.f[k], ln.f[k+1], ln.f[k+2]}
}
