package moorings

import (
	"errors"
	"fmt"
	"math"
)

// Catenary is one mooring line in the quasi-static elastic-catenary model
// (Irvine, "Cable Structures", ch. 1-2; Jonkman 2007, NREL/TP-500-41958,
// §4.2, eqs. 4-14 to 4-16, which MAP++ solves per line): an extensible
// line of uniform weight hanging between an anchor and a fairlead, part of
// which may rest on a flat seabed with Coulomb friction.
//
// The two catenary equations give the horizontal and vertical fairlead
// span (x, z) as functions of the horizontal and vertical fairlead tension
// (HF, VF); Solve inverts them by Newton's method.
type Catenary struct {
	L  float64 // unstretched length, m
	W  float64 // apparent weight per unit length in water, N/m (> 0)
	EA float64 // axial stiffness, N
	CB float64 // seabed friction coefficient (0: frictionless)
}

// CatenaryState is a solved line: the fairlead and anchor tension
// components and the length lying on the seabed.
type CatenaryState struct {
	HF, VF float64 // horizontal and vertical tension at the fairlead, N
	HA, VA float64 // horizontal and vertical tension at the anchor, N
	LB     float64 // length resting on the seabed, m
	// Jac is ∂(x, z)/∂(HF, VF), the flexibility of the fairlead; its
	// inverse is the 2×2 tangent stiffness of the line in its own plane.
	Jac    [2][2]float64
	Seabed bool // the anchor lies on the seabed (contact was allowed)
}

// ErrCatenary is wrapped by failures of the catenary solve.
var ErrCatenary = errors.New("catenary solve did not converge")

// Spans evaluates the catenary equations: the fairlead position (x, z)
// relative to the anchor for tensions (hf, vf), and the Jacobian of (x, z)
// with respect to (hf, vf). With seabed true the anchor lies on the seabed
// and the part of the line with negative vertical tension rests on it.
func (c Catenary) Spans(hf, vf float64, seabed bool) (x, z float64, st CatenaryState) {
	w, L, ea := c.W, c.L, c.EA
	st = CatenaryState{HF: hf, VF: vf, Seabed: seabed}
	a := vf / hf
	sa := math.Sqrt(1 + a*a)
	if !seabed || vf >= w*L {
		// Fully suspended (Jonkman 2007 eq. 4-14).
		b := (vf - w*L) / hf
		sb := math.Sqrt(1 + b*b)
		x = hf/w*(math.Asinh(a)-math.Asinh(b)) + hf*L/ea
		z = hf/w*(sa-sb) + (vf*L-w*L*L/2)/ea
		st.Jac[0][0] = (math.Asinh(a)-math.Asinh(b)-a/sa+b/sb)/w + L/ea
		st.Jac[0][1] = (1/sa - 1/sb) / w
		st.Jac[1][0] = (1/sa - 1/sb) / w
		st.Jac[1][1] = (a/sa-b/sb)/w + L/ea
		st.HA, st.VA = hf, vf-w*L
		return x, z, st
	}
	// Part of the line on the seabed (Jonkman 2007 eq. 4-15): LB rests on
	// it, with the horizontal tension falling by CB·W per unit length
	// towards the anchor (never below zero).
	lb := L - vf/w
	st.LB = lb
	x = lb + hf/w*math.Asinh(a) + hf*L/ea
	z = hf/w*(sa-1) + vf*vf/(2*ea*w)
	st.Jac[0][0] = (math.Asinh(a)-a/sa)/w + L/ea
	st.Jac[0][1] = (-1 + 1/sa) / w
	st.Jac[1][0] = (1/sa - 1) / w
	st.Jac[1][1] = a/sa/w + vf/(ea*w)
	st.HA = hf
	if c.CB > 0 {
		s := lb - hf/(c.CB*w) // length of seabed line with zero tension
		if s > 0 {
			x += c.CB * w / (2 * ea) * (-lb*lb + s*s)
			st.Jac[0][0] += -s / ea
			st.Jac[0][1] += hf / (ea * w)
			st.HA = 0
		} else {
			x += -c.CB * w * lb * lb / (2 * ea)
			st.Jac[0][1] += c.CB * lb / ea
			st.HA = hf - c.CB*w*lb
		}
	}
	return x, z, st
}

// Solve finds the fairlead tensions for a fairlead at horizontal distance
// X > 0 and height Z above the anchor. guess, when non-nil and positive,
// starts Newton's iteration (e.g. the previous time step's solution);
// otherwise the initial estimate of Peyrot and Goulois (1979), as used by
// Jonkman (2007, eqs. 4-19 to 4-21), is taken.
func (c Catenary) Solve(X, Z float64, seabed bool, guess *[2]float64) (CatenaryState, error) {
	if !(c.L > 0) || !(c.W > 0) || !(c.EA > 0) || !(X > 0) {
		return CatenaryState{}, fmt.Errorf("%w: need L, W, EA and horizontal span > 0 (L=%g W=%g EA=%g X=%g)", ErrCatenary, c.L, c.W, c.EA, X)
	}
	var hf, vf float64
	if guess != nil && guess[0] > 0 {
		hf, vf = guess[0], guess[1]
	} else {
		lam := 0.2
		if c.L > math.Hypot(X, Z) {
			lam = math.Sqrt(3 * ((c.L*c.L-Z*Z)/(X*X) - 1))
		}
		hf = math.Max(math.Abs(c.W*X/(2*lam)), 1e-6*c.W*c.L)
		vf = c.W / 2 * (Z/math.Tanh(lam) + c.L)
	}
	tol := 1e-10 * math.Max(1, math.Hypot(X, Z))
	for it := 0; it < 200; it++ {
		x, z, st := c.Spans(hf, vf, seabed)
		rx, rz := x-X, z-Z
		if math.Abs(rx) < tol && math.Abs(rz) < tol {
			return st, nil
		}
		det := st.Jac[0][0]*st.Jac[1][1] - st.Jac[0][1]*st.Jac[1][0]
		if det == 0 || math.IsNaN(det) {
			break
		}
		dh := -(st.Jac[1][1]*rx - st.Jac[0][1]*rz) / det
		dv := -(-st.Jac[1][0]*rx + st.Jac[0][0]*rz) / det
		// Keep the horizontal tension positive: a step that would make
		// it negative goes only part of the way.
		if hf+dh <= 0 {
			f := 0.5 * hf / math.Abs(dh)
			dh, dv = dh*f, dv*f
		}
		hf += dh
		vf += dv
		if seabed && vf < 0 {
			vf = 0
		}
	}
	return CatenaryState{}, fmt.Errorf("%w (X=%.6g m, Z=%.6g m, L=%.6g m)", ErrCatenary, X, Z, c.L)
}

// Profile returns the position (x, z) relative to the anchor of the point
// at unstretched arc length s from the anchor, for a solved state.
func (c Catenary) Profile(st CatenaryState, s float64) (x, z float64) {
	w, ea, hf := c.W, c.EA, st.HF
	if !st.Seabed || st.LB <= 0 {
		va := st.VF - w*c.L
		v := va + w*s
		x = hf/w*(math.Asinh(v/hf)-math.Asinh(va/hf)) + hf*s/ea
		z = hf/w*(math.Sqrt(1+(v/hf)*(v/hf))-math.Sqrt(1+(va/hf)*(va/hf))) + (va*s+w*s*s/2)/ea
		return x, z
	}
	lb := st.LB
	// Stretch of the seabed part: tension T(σ) = max(HF − CB·W·(LB − σ), 0).
	stretch := func(s float64) float64 {
		if c.CB <= 0 {
			return hf * s / ea
		}
		s0 := lb - hf/(c.CB*w) // tension is zero for σ < s0
		if s <= s0 {
			return 0
		}
		lo := math.Max(s0, 0)
		// ∫_lo^s (HF − CB·W·(LB − σ)) dσ / EA
		f := func(u float64) float64 { return (hf-c.CB*w*lb)*u + c.CB*w*u*u/2 }
		return (f(s) - f(lo)) / ea
	}
	if s <= lb {
		return s + stretch(s), 0
	}
	u := s - lb
	x = lb + stretch(lb) + hf/w*math.Asinh(w*u/hf) + hf*u/ea
	z = hf/w*(math.Sqrt(1+(w*u/hf)*(w*u/hf))-1) + w*u*u/(2*ea)
	return x, z
}
