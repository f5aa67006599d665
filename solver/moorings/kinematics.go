package moorings

import "math"

// Motion is the rigid-body motion of the platform reference point (the
// point MoorDyn's vessel-point coordinates are measured from; OpenFAST's
// PtfmRefxt/yt/zt), in the inertial frame: x downwind, z up, origin at the
// still-water level.
type Motion struct {
	// Disp holds surge, sway, heave (m) of the reference point from its
	// undisplaced position and roll, pitch, yaw (rad).
	Disp [6]float64
	// Vel holds the translational (m/s) and angular (rad/s) velocity.
	Vel [6]float64
	// Acc holds the translational (m/s²) and angular (rad/s²)
	// acceleration; used only for the inertia of the line ends carried by
	// the platform.
	Acc [6]float64
	// Orient, when non-nil, is the platform's orientation (columns: body
	// axes in the inertial frame), as the structural model computes it;
	// otherwise it is built from Disp[3:6] as a rotation about the
	// rotation vector (roll, pitch, yaw), exact for a rotation about one
	// axis.
	Orient *[3][3]float64
}

// Orientation returns the platform's rotation matrix (body → inertial).
func (m *Motion) Orientation() [3][3]float64 {
	if m.Orient != nil {
		return *m.Orient
	}
	return rotationVector([3]float64{m.Disp[3], m.Disp[4], m.Disp[5]})
}

// rotationVector returns the rotation matrix of a rotation by |th| about
// th/|th| (Rodrigues' formula).
func rotationVector(th [3]float64) [3][3]float64 {
	a := math.Sqrt(th[0]*th[0] + th[1]*th[1] + th[2]*th[2])
	R := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	if a == 0 {
		return R
	}
	k := [3]float64{th[0] / a, th[1] / a, th[2] / a}
	s, c := math.Sin(a), math.Cos(a)
	K := [3][3]float64{{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			kk := 0.0
			for l := 0; l < 3; l++ {
				kk += K[i][l] * K[l][j]
			}
			R[i][j] += s*K[i][j] + (1-c)*kk
		}
	}
	return R
}

// RigidPoint is the mesh mapping from the platform reference point to an
// attachment point fixed on the platform: Body is its position in the
// platform frame relative to the reference point.
type RigidPoint struct{ Body [3]float64 }

// Kinematics returns the attachment point's position, velocity and
// acceleration for the platform motion u, with ref the undisplaced
// reference point.
func (p RigidPoint) Kinematics(ref [3]float64, u *Motion) (r, v, a [3]float64) {
	R := u.Orientation()
	rel := mulMat(R, p.Body)
	w := [3]float64{u.Vel[3], u.Vel[4], u.Vel[5]}
	al := [3]float64{u.Acc[3], u.Acc[4], u.Acc[5]}
	wr := cross(w, rel)
	wwr := cross(w, wr)
	ar := cross(al, rel)
	for i := 0; i < 3; i++ {
		r[i] = ref[i] + u.Disp[i] + rel[i]
		v[i] = u.Vel[i] + wr[i]
		a[i] = u.Acc[i] + ar[i] + wwr[i]
	}
	return r, v, a
}

// Loads is a force and moment about the displaced platform reference
// point, in the inertial frame.
type Loads struct {
	Force  [3]float64 // N
	Moment [3]float64 // N·m
}

// add accumulates force f applied at r, with o the reference point.
func (l *Loads) add(o, r, f [3]float64) {
	arm := [3]float64{r[0] - o[0], r[1] - o[1], r[2] - o[2]}
	m := cross(arm, f)
	for i := 0; i < 3; i++ {
		l.Force[i] += f[i]
		l.Moment[i] += m[i]
	}
}

// Vector returns the loads as (Fx, Fy, Fz, Mx, My, Mz).
func (l Loads) Vector() [6]float64 {
	return [6]float64{l.Force[0], l.Force[1], l.Force[2], l.Moment[0], l.Moment[1], l.Moment[2]}
}

func mulMat(R [3][3]float64, x [3]float64) [3]float64 {
	return [3]float64{
		R[0][0]*x[0] + R[0][1]*x[1] + R[0][2]*x[2],
		R[1][0]*x[0] + R[1][1]*x[1] + R[1][2]*x[2],
		R[2][0]*x[0] + R[2][1]*x[1] + R[2][2]*x[2],
	}
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func norm(a [3]float64) float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }
