package substructure

import "math"

// mat12 is a 12×12 element matrix; DOFs per node are ux uy uz θx θy θz.
type mat12 [12][12]float64

// section holds the properties of a uniform beam element.
type section struct {
	E, G, Rho   float64
	A           float64 // m²
	Ixx, Iyy    float64 // second moments about the local x and y axes, m⁴
	J           float64 // polar moment (mass), m⁴
	Jt          float64 // torsion constant (stiffness), m⁴
	Asx, Asy    float64 // shear areas along local x and y, m² (0: Euler–Bernoulli)
	outerD, inD float64
}

// tubeSection returns the section of a circular tube of outer diameter d
// and wall t. The shear area factor is Steinboeck et al. (2013) for hollow
// circular sections, as the SubDyn theory manual uses (Damiani et al.
// 2015, eq. for k_ax), with Poisson's ratio ν = E/(2G) − 1.
func tubeSection(e, g, rho, d, t float64, timoshenko bool) section {
	di := d - 2*t
	a := math.Pi / 4 * (d*d - di*di)
	i := math.Pi / 64 * (d*d*d*d - di*di*di*di)
	s := section{E: e, G: g, Rho: rho, A: a, Ixx: i, Iyy: i, J: 2 * i, Jt: 2 * i, outerD: d, inD: di}
	if timoshenko {
		k := tubeShearFactor(e, g, d, di)
		s.Asx, s.Asy = k*a, k*a
	}
	return s
}

// tubeShearFactor is the shear correction factor of a hollow circle.
func tubeShearFactor(e, g, d, di float64) float64 {
	nu := e/(2*g) - 1
	m2 := (di / d) * (di / d)
	p := (1 + m2) * (1 + m2)
	return 6 * (1 + nu) * (1 + nu) * p / (p*(7+14*nu+8*nu*nu) + 4*m2*(5+10*nu+4*nu*nu))
}

// beamMatrices returns the local stiffness and consistent mass matrices of a
// uniform 3-D beam of length l whose axis is the local z: Timoshenko
// bending when the shear areas are set (shear parameter Φ = 12EI/(G·As·l²)),
// Euler–Bernoulli otherwise (Przemieniecki 1968, §5.6 and §11.3; the same
// forms are in the SubDyn theory manual). The mass matrix is the
// Euler–Bernoulli consistent one with rotary inertia; axial and torsional
// terms are linear.
func beamMatrices(s section, l float64) (k, m mat12) {
	// axial (uz: 2, 8) and torsion (θz: 5, 11)
	ea := s.E * s.A / l
	gj := s.G * s.Jt / l
	set2(&k, 2, 8, ea, -ea)
	set2(&k, 5, 11, gj, -gj)
	ma := s.Rho * s.A * l / 6
	mj := s.Rho * s.J * l / 6
	set2(&m, 2, 8, 2*ma, ma)
	set2(&m, 5, 11, 2*mj, mj)
	// bending in the x–z plane: ux (0, 6) with θy (4, 10), θy = dux/dz
	bend(&k, &m, s, l, s.Iyy, s.Asx, 0, 4, 6, 10, 1)
	// bending in the y–z plane: uy (1, 7) with θx (3, 9), θx = −duy/dz
	bend(&k, &m, s, l, s.Ixx, s.Asy, 1, 3, 7, 9, -1)
	return k, m
}

// set2 fills the 2×2 block of DOFs a, b with [[d, o], [o, d]].
func set2(x *mat12, a, b int, d, o float64) {
	x[a][a] += d
	x[b][b] += d
	x[a][b] += o
	x[b][a] += o
}

// bend adds one bending plane: translations u1, u2 and rotations r1, r2
// with r = sign·du/dz.
func bend(k, m *mat12, s section, l, inertia, as float64, u1, r1, u2, r2 int, sign float64) {
	phi := 0.0
	if as > 0 {
		phi = 12 * s.E * inertia / (s.G * as * l * l)
	}
	c := s.E * inertia / (l * l * l * (1 + phi))
	// stiffness in (u1, r1, u2, r2) with r = du/dz
	ks := [4][4]float64{
		{12, 6 * l, -12, 6 * l},
		{6 * l, (4 + phi) * l * l, -6 * l, (2 - phi) * l * l},
		{-12, -6 * l, 12, -6 * l},
		{6 * l, (2 - phi) * l * l, -6 * l, (4 + phi) * l * l},
	}
	mt := s.Rho * s.A * l / 420
	mr := s.Rho * inertia / (30 * l)
	mtr := [4][4]float64{
		{156, 22 * l, 54, -13 * l},
		{22 * l, 4 * l * l, 13 * l, -3 * l * l},
		{54, 13 * l, 156, -22 * l},
		{-13 * l, -3 * l * l, -22 * l, 4 * l * l},
	}
	mrot := [4][4]float64{
		{36, 3 * l, -36, 3 * l},
		{3 * l, 4 * l * l, -3 * l, -l * l},
		{-36, -3 * l, 36, -3 * l},
		{3 * l, -l * l, -3 * l, 4 * l * l},
	}
	idx := [4]int{u1, r1, u2, r2}
	sg := [4]float64{1, sign, 1, sign}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			f := sg[a] * sg[b]
			k[idx[a]][idx[b]] += f * c * ks[a][b]
			m[idx[a]][idx[b]] += f * (mt*mtr[a][b] + mr*mrot[a][b])
		}
	}
}

// cableMatrices returns the local stiffness, mass and pretension load of a
// pretensioned cable of undisplaced length l (SubDyn theory manual,
// "Pretension Cable Element Formulation"): axial EA/L0, lateral
// EA/L0·ε0/(1+ε0) with ε0 = T0/EA and L0 = l/(1+ε0); translational DOFs
// only. The load f0 = EA·ε0·[0 0 −1 … 0 0 1] is applied with gravity.
func cableMatrices(ea, rhoL, t0, l float64) (k, m mat12, f0 [12]float64) {
	eps := t0 / ea
	l0 := l / (1 + eps)
	kax := ea / l0
	klat := kax * eps / (1 + eps)
	set2(&k, 0, 6, klat, -klat)
	set2(&k, 1, 7, klat, -klat)
	set2(&k, 2, 8, kax, -kax)
	ml := rhoL * l
	set2(&m, 0, 6, ml*13/35, ml*9/70)
	set2(&m, 1, 7, ml*13/35, ml*9/70)
	set2(&m, 2, 8, ml/3, ml/6)
	f0[2], f0[8] = -ea*eps, ea*eps
	return k, m, f0
}

// directionCosines returns the matrix Dc whose columns are the element's
// local x, y, z axes in global coordinates (SubDyn theory manual, eq.
// "Dc"): z along the element from node 1 to node 2, x horizontal.
func directionCosines(p1, p2 [3]float64) [3][3]float64 {
	dx, dy, dz := p2[0]-p1[0], p2[1]-p1[1], p2[2]-p1[2]
	le := math.Sqrt(dx*dx + dy*dy + dz*dz)
	lxy := math.Sqrt(dx*dx + dy*dy)
	if lxy < 1e-9*le {
		if dz >= 0 {
			return [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
		}
		return [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}
	}
	return [3][3]float64{
		{dy / lxy, dx * dz / (lxy * le), dx / le},
		{-dx / lxy, dy * dz / (lxy * le), dy / le},
		{0, -lxy / le, dz / le},
	}
}

// toGlobal returns T·x·Tᵀ with T = diag(Dc, Dc, Dc, Dc).
func toGlobal(x *mat12, dc *[3][3]float64) mat12 {
	var tmp, out mat12
	// tmp = x·Tᵀ: tmp[i][3b+c] = Σ_d x[i][3b+d]·Dc[c][d]
	for i := 0; i < 12; i++ {
		for b := 0; b < 4; b++ {
			for c := 0; c < 3; c++ {
				var s float64
				for d := 0; d < 3; d++ {
					s += x[i][3*b+d] * dc[c][d]
				}
				tmp[i][3*b+c] = s
			}
		}
	}
	for b := 0; b < 4; b++ {
		for c := 0; c < 3; c++ {
			for j := 0; j < 12; j++ {
				var s float64
				for d := 0; d < 3; d++ {
					s += dc[c][d] * tmp[3*b+d][j]
				}
				out[3*b+c][j] = s
			}
		}
	}
	return out
}

// vecToLocal returns Tᵀ·v for a 12-vector in global axes.
func vecToLocal(v *[12]float64, dc *[3][3]float64) [12]float64 { return rotate12(v, dc, true) }

// vecToGlobal returns T·v for a 12-vector in local axes.
func vecToGlobal(v *[12]float64, dc *[3][3]float64) [12]float64 { return rotate12(v, dc, false) }

// rotate12 applies Dc (or Dcᵀ) to each of the four 3-vectors of v.
func rotate12(v *[12]float64, dc *[3][3]float64, transpose bool) [12]float64 {
	var out [12]float64
	for b := 0; b < 4; b++ {
		for c := 0; c < 3; c++ {
			var s float64
			for d := 0; d < 3; d++ {
				m := dc[c][d]
				if transpose {
					m = dc[d][c]
				}
				s += m * v[3*b+d]
			}
			out[3*b+c] = s
		}
	}
	return out
}
