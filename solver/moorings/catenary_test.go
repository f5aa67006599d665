package moorings

import (
	"math"
	"testing"
)

// An (almost) inextensible suspended line is the ordinary catenary
// z = a·cosh(x/a): for a span cut from it between x1 and x2 the arc length,
// the spans and the end tensions are closed-form (HF = w·a, VF = w·a·sinh(x2/a)),
// and every point of the solved profile lies on the curve.
func TestCatenarySuspendedClosedForm(t *testing.T) {
	const w, a, x1, x2 = 5000.0, 200.0, 50.0, 600.0
	L := a * (math.Sinh(x2/a) - math.Sinh(x1/a))
	X := x2 - x1
	Z := a * (math.Cosh(x2/a) - math.Cosh(x1/a))
	c := Catenary{L: L, W: w, EA: 1e16}
	for _, seabed := range []bool{false, true} { // anchor above the vertex: no contact either way
		st, err := c.Solve(X, Z, seabed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rel(st.HF, w*a) > 1e-7 || rel(st.VF, w*a*math.Sinh(x2/a)) > 1e-7 || math.Abs(st.VA-w*a*math.Sinh(x1/a)) > 1e-7*st.VF || st.LB != 0 {
			t.Errorf("seabed=%v: HF=%.9g VF=%.9g VA=%.9g LB=%g, want %.9g %.9g %.9g 0", seabed, st.HF, st.VF, st.VA, st.LB, w*a, w*a*math.Sinh(x2/a), w*a*math.Sinh(x1/a))
		}
		for k := 0; k <= 20; k++ {
			s := L * float64(k) / 20
			x, z := c.Profile(st, s)
			// Arc length from x1 on the curve: s = a(sinh(x/a) − sinh(x1/a)).
			xe := a*math.Asinh(s/a+math.Sinh(x1/a)) - x1
			ze := a * (math.Cosh((xe+x1)/a) - math.Cosh(x1/a))
			if math.Abs(x-xe) > 1e-5 || math.Abs(z-ze) > 1e-5 {
				t.Errorf("s=%g: (%.6f, %.6f), want (%.6f, %.6f)", s, x, z, xe, ze)
			}
		}
	}
}

// A line partly on a frictionless seabed: the suspended part is the
// catenary from its vertex at the touch-down point, so with LB on the
// seabed and a horizontal extent xs suspended, L = LB + a·sinh(xs/a),
// X = LB + xs, Z = a(cosh(xs/a) − 1), HF = w·a, VF = w·a·sinh(xs/a). With
// seabed friction CB the anchor's horizontal tension is HF − CB·w·LB.
func TestCatenarySeabedClosedForm(t *testing.T) {
	const w, a, xs, lb = 5000.0, 200.0, 300.0, 400.0
	L := lb + a*math.Sinh(xs/a)
	X, Z := lb+xs, a*(math.Cosh(xs/a)-1)
	c := Catenary{L: L, W: w, EA: 1e16}
	st, err := c.Solve(X, Z, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rel(st.HF, w*a) > 1e-7 || rel(st.VF, w*a*math.Sinh(xs/a)) > 1e-7 || math.Abs(st.LB-lb) > 1e-5 || st.HA != st.HF || st.VA != 0 {
		t.Errorf("HF=%.9g VF=%.9g LB=%.9g HA=%g VA=%g, want %.9g %.9g %g", st.HF, st.VF, st.LB, st.HA, st.VA, w*a, w*a*math.Sinh(xs/a), lb)
	}
	for _, s := range []float64{0, 100, lb, lb + 50, L} {
		x, z := c.Profile(st, s)
		xe, ze := s, 0.0
		if s > lb {
			xe = lb + a*math.Asinh((s-lb)/a)
			ze = a * (math.Cosh((xe-lb)/a) - 1)
		}
		if math.Abs(x-xe) > 1e-5 || math.Abs(z-ze) > 1e-5 {
			t.Errorf("s=%g: (%.6f, %.6f), want (%.6f, %.6f)", s, x, z, xe, ze)
		}
	}
	// Friction: inextensible, so the geometry and HF/VF are unchanged.
	c.CB = 0.5
	st, err = c.Solve(X, Z, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := w*a - 0.5*w*lb; rel(st.HA, want) > 1e-7 || rel(st.HF, w*a) > 1e-7 {
		t.Errorf("with friction HA=%.9g HF=%.9g, want %.9g %.9g", st.HA, st.HF, want, w*a)
	}
	c.CB = 2 // friction takes up all the tension before the anchor
	if st, err = c.Solve(X, Z, true, nil); err != nil || st.HA != 0 {
		t.Errorf("full friction: HA=%g err=%v, want 0", st.HA, err)
	}
}

// The elastic profile satisfies the differential equilibrium of an
// extensible cable: along the unstretched arc length s the tangent is
// (HF, V(s))/T and the stretch |dr/ds| = 1 + T/EA, with V(s) = VA + w·s
// and T = √(HF² + V²) (Irvine, "Cable Structures", ch. 1). Checked by
// finite differences of Profile, for a suspended and a grounded line.
func TestCatenaryElasticProfile(t *testing.T) {
	c := Catenary{L: 850, W: 5842, EA: 3.27e7} // EA low enough for 4 % stretch
	for _, g := range []struct {
		X, Z   float64
		seabed bool
	}{{700, 186, false}, {790, 186, true}} {
		st, err := c.Solve(g.X, g.Z, g.seabed, nil)
		if err != nil {
			t.Fatal(err)
		}
		x, z := c.Profile(st, c.L)
		if math.Abs(x-g.X) > 1e-7 || math.Abs(z-g.Z) > 1e-7 {
			t.Errorf("profile ends at (%g, %g), want (%g, %g)", x, z, g.X, g.Z)
		}
		if g.seabed && st.LB <= 0 {
			t.Errorf("no line on the seabed for X=%g", g.X)
		}
		const h = 1e-4
		for s := 5.0; s < c.L; s += 45 {
			x0, z0 := c.Profile(st, s-h)
			x1, z1 := c.Profile(st, s+h)
			dx, dz := (x1-x0)/(2*h), (z1-z0)/(2*h)
			v := st.VF - c.W*(c.L-s)
			if g.seabed && v < 0 {
				v = 0
			}
			T := math.Hypot(st.HF, v)
			if math.Abs(math.Hypot(dx, dz)-(1+T/c.EA)) > 1e-6 || math.Abs(dx*T-st.HF*math.Hypot(dx, dz)) > 1e-3*T {
				t.Errorf("X=%g s=%g: |dr/ds|=%.8f want %.8f, slope %.6f want %.6f", g.X, s, math.Hypot(dx, dz), 1+T/c.EA, dz/dx, v/st.HF)
			}
		}
	}
}

// The Jacobian Spans returns is the derivative of the spans (checked by
// central differences), on both branches and with friction.
func TestCatenaryJacobian(t *testing.T) {
	for _, c := range []Catenary{{L: 850, W: 5842, EA: 3.27e9}, {L: 850, W: 5842, EA: 3.27e7, CB: 0.3}} {
		for _, p := range []struct {
			hf, vf float64
			seabed bool
		}{{1.4e6, 2.0e6, true}, {1.4e6, 6e6, true}, {1.4e6, 2.0e6, false}, {2e5, 1e6, true}} {
			_, _, st := c.Spans(p.hf, p.vf, p.seabed)
			for k := 0; k < 2; k++ {
				h := 1e-3 * p.hf
				dh, dv := h, 0.0
				if k == 1 {
					dh, dv = 0, h
				}
				xp, zp, _ := c.Spans(p.hf+dh, p.vf+dv, p.seabed)
				xm, zm, _ := c.Spans(p.hf-dh, p.vf-dv, p.seabed)
				gx, gz := (xp-xm)/(2*h), (zp-zm)/(2*h)
				if math.Abs(gx-st.Jac[0][k]) > 1e-5*math.Abs(gx)+1e-12 || math.Abs(gz-st.Jac[1][k]) > 1e-5*math.Abs(gz)+1e-12 {
					t.Errorf("CB=%g %+v col %d: J=(%g, %g), differences (%g, %g)", c.CB, p, k, st.Jac[0][k], st.Jac[1][k], gx, gz)
				}
			}
		}
	}
}

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
