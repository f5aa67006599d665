package offshore

// Mesh mapping between the platform's rigid-body motion, a substructure's
// nodal mesh and a module's nodes: the point-to-point rigid-arm transfers of
// OpenFAST's mesh mapping (Sprague, Jonkman & Jonkman 2014, "Transferring
// field quantities across non-matching meshes in multiphysics simulations",
// the point-to-point case): a destination node moves with its source node as
// if joined by a rigid arm, and a load moves to the source node together
// with the moment of its arm, so the resultant force and moment are kept.

func add(a, b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func sub(a, b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Cross returns a × b.
func Cross(a, b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// transposeApply returns Oᵀ·v: a body-frame vector v in global axes, for an
// orientation O whose rows are the body axes.
func transposeApply(o *[3][3]float64, v Vec3) Vec3 {
	var r Vec3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[j] += o[i][j] * v[i]
		}
	}
	return r
}

// rigidArm carries the motion of a point (pos, orient, vel, angVel, acc,
// angAcc) to a point at the undisplaced arm arm0 from it:
// r = Oᵀ·arm0, p = p₀ + r, v = v₀ + ω×r, a = a₀ + α×r + ω×(ω×r).
func rigidArm(pos Vec3, orient *[3][3]float64, vel, angVel, acc, angAcc Vec3, arm0 Vec3) (p, v, a Vec3) {
	r := transposeApply(orient, arm0)
	p = add(pos, r)
	v = add(vel, Cross(angVel, r))
	a = add(add(acc, Cross(angAcc, r)), Cross(angVel, Cross(angVel, r)))
	return
}

// Node returns the motion of the point of the rigid body whose undisplaced
// position is p0.
func (r *RigidMotion) Node(p0 Vec3) NodeMotion {
	p, v, a := rigidArm(r.Pos(), &r.Orient, r.Vel, r.AngVel, r.Acc, r.AngAcc, sub(p0, r.RefPos0))
	return NodeMotion{Pos0: p0, Pos: p, Orient: r.Orient, Vel: v, AngVel: r.AngVel, Acc: a, AngAcc: r.AngAcc}
}

// Follow returns the motion of the point whose undisplaced position is p0,
// rigidly attached to node n (whose undisplaced orientation is the global
// frame, as a SubDyn mesh node's is).
func (n *NodeMotion) Follow(p0 Vec3) NodeMotion {
	p, v, a := rigidArm(n.Pos, &n.Orient, n.Vel, n.AngVel, n.Acc, n.AngAcc, sub(p0, n.Pos0))
	return NodeMotion{Pos0: p0, Pos: p, Orient: n.Orient, Vel: v, AngVel: n.AngVel, Acc: a, AngAcc: n.AngAcc}
}

// MovedTo returns the load l acting at point at, expressed about point
// about: the same force, and the moment plus (at − about) × F.
func (l Load) MovedTo(at, about Vec3) Load {
	return Load{Force: l.Force, Moment: add(l.Moment, Cross(sub(at, about), l.Force))}
}

// Nearest returns the index of the point of pts nearest to p (the first of
// equally near ones), or −1 when pts is empty.
func Nearest(pts []Vec3, p Vec3) int {
	best, bd := -1, 0.0
	for i, q := range pts {
		d := sub(q, p)
		dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
		if best < 0 || dd < bd {
			best, bd = i, dd
		}
	}
	return best
}

// PointMass returns the 6×6 mass about a point P of a translational mass m
// (3×3) at P + d: the mass's acceleration is a_P + α × d and its inertia
// load's moment about P is d × F, so M = [[m, −m·[d×]], [[d×]·m, −[d×]·m·[d×]]].
func PointMass(m [3][3]float64, d Vec3) [6][6]float64 {
	s := [3][3]float64{{0, -d[2], d[1]}, {d[2], 0, -d[0]}, {-d[1], d[0], 0}}
	var ms, sm, sms [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				ms[i][j] += m[i][k] * s[k][j]
				sm[i][j] += s[i][k] * m[k][j]
			}
		}
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				sms[i][j] += sm[i][k] * s[k][j]
			}
		}
	}
	var out [6][6]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			out[i][j] = m[i][j]
			out[i][3+j] = -ms[i][j]
			out[3+i][j] = sm[i][j]
			out[3+i][3+j] = -sms[i][j]
		}
	}
	return out
}
