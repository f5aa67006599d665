package aero

import "math"

// The BEM of AeroDyn with BEM_Mod = 1 (legacy; AeroDyn's "no sweep, pitch
// and twist" projection) resolves the relative wind of a node in a frame
// built from Euler angles rather than from the node's own axes:
//
//  1. the blade root orientation relative to the hub is decomposed into
//     Euler angles (θ1, θ2, θ3) of the x-y-z sequence and θ3 (the pitch) is
//     removed: the unpitched root frame R = E(θ1, θ2, 0)·H;
//  2. each node's orientation relative to R is decomposed the same way; −θ3
//     is the local twist + pitch (aerodynamic and elastic) used in
//     α = φ − θ, and the frame in which Vx and Vy are taken keeps only θ2
//     (out-of-plane curvature, including flap deflection): W = E(0, θ2, 0)·R,
//     i.e. the in-plane ("live sweep") slope of the deflected blade is
//     dropped.
//
// For a rigid blade this is the same as resolving in the plane through the
// shaft axis and the blade axis. For a deflected blade the angles differ at
// second order: the in-plane slope times the precone and flap slope rotate
// the extracted twist, which changes the once-per-revolution angle of attack
// of the outer blade by some hundredths of a degree under gravity-driven
// edgewise bending.
//
// E(θ) is the direction-cosine matrix of the x-y-z rotation sequence,
// E = R3(θ3)·R2(θ2)·R1(θ1) with Rᵢ the passive elementary rotations (rows
// are the rotated axes in the original components), as in the NWTC
// Library's EulerConstruct/EulerExtract.

// eulerConstruct returns R3(θ3)·R2(θ2)·R1(θ1).
func eulerConstruct(t [3]float64) DCM {
	s1, c1 := math.Sincos(t[0])
	s2, c2 := math.Sincos(t[1])
	s3, c3 := math.Sincos(t[2])
	return DCM{
		{c2 * c3, c1*s3 + s1*s2*c3, s1*s3 - c1*s2*c3},
		{-c2 * s3, c1*c3 - s1*s2*s3, s1*c3 + c1*s2*s3},
		{s2, -s1 * c2, c1 * c2},
	}
}

// eulerExtract inverts eulerConstruct for |θ2| < π/2: θ2 from the (3,1)
// element, θ1 and θ3 from the third row and first column.
func eulerExtract(m DCM) [3]float64 {
	t2 := math.Asin(clamp(m[2][0], -1, 1))
	t1 := math.Atan2(-m[2][1], m[2][2])
	t3 := math.Atan2(-m[1][0], m[0][0])
	return [3]float64{t1, t2, t3}
}

// mulT returns a·bᵀ.
func mulT(a, b DCM) DCM {
	var r DCM
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = a[i][0]*b[j][0] + a[i][1]*b[j][1] + a[i][2]*b[j][2]
		}
	}
	return r
}

// mul returns a·b.
func mul(a, b DCM) DCM {
	var r DCM
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return r
}

// unpitchedRoot is step 1: the root frame without pitch, E(θ1, θ2, 0)·H.
func unpitchedRoot(root, hub DCM) DCM {
	t := eulerExtract(mulT(root, hub))
	t[2] = 0
	return mul(eulerConstruct(t), hub)
}

// legacyProjection is step 2 for one node: the twist + pitch θ and the
// axes x', y', z' of the frame W without sweep, pitch and twist.
func legacyProjection(node, rootNoPitch DCM) (theta float64, w DCM) {
	// Only θ2 and θ3 of the node's angles are used: eulerExtract without
	// its θ1.
	m := mulT(node, rootNoPitch)
	t2 := math.Asin(clamp(m[2][0], -1, 1))
	theta = -math.Atan2(-m[1][0], m[0][0])
	w = mul(eulerConstruct([3]float64{0, t2, 0}), rootNoPitch)
	return theta, w
}
