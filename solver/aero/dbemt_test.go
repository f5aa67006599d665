package aero

import (
	"math"
	"testing"
)

// oyeStep against a fine RK4 integration of the two filter equations with a
// linearly varying input.
func TestOyeStepMatchesRK4(t *testing.T) {
	for _, tc := range []struct{ v1, v, u0, u1, dt, tau1, tau2 float64 }{
		{0, 0, 1, 1, 0.5, 4, 1.5},
		{1, 0.5, -2, 3, 0.05, 2, 0.3},
		{-1, 2, 0.7, -0.4, 1.3, 10, 3.9},
		{0.2, 0.1, 0.3, 0.9, 0.2, 1, 1}, // tau2 = tau1
	} {
		b := (tc.u1 - tc.u0) / tc.dt
		f := func(tt float64, y [2]float64) [2]float64 {
			u := tc.u0 + b*tt
			return [2]float64{(u + oyeK*tc.tau1*b - y[0]) / tc.tau1, (y[0] - y[1]) / tc.tau2}
		}
		y := [2]float64{tc.v1, tc.v}
		const n = 20000
		h := tc.dt / n
		for i := 0; i < n; i++ {
			tt := float64(i) * h
			k1 := f(tt, y)
			k2 := f(tt+h/2, [2]float64{y[0] + h/2*k1[0], y[1] + h/2*k1[1]})
			k3 := f(tt+h/2, [2]float64{y[0] + h/2*k2[0], y[1] + h/2*k2[1]})
			k4 := f(tt+h, [2]float64{y[0] + h*k3[0], y[1] + h*k3[1]})
			for c := 0; c < 2; c++ {
				y[c] += h / 6 * (k1[c] + 2*k2[c] + 2*k3[c] + k4[c])
			}
		}
		g1, g := oyeStep(tc.v1, tc.v, tc.u0, tc.u1, tc.dt, tc.tau1, tc.tau2)
		if math.Abs(g1-y[0]) > 1e-9 || math.Abs(g-y[1]) > 1e-9 {
			t.Errorf("%+v: exact (%g, %g), RK4 (%g, %g)", tc, g1, g, y[0], y[1])
		}
	}
	// tau1 = 1.1 R / ((1 - 1.3 a) U): a = 0.3, U = 10, R = 60 -> 10.8197 s.
	if got := DBEMTTau1(60, 0.3, 10); math.Abs(got-1.1*60/(0.61*10)) > 1e-12 {
		t.Errorf("tau1 %g", got)
	}
	if got := DBEMTTau2(10, 0.5); math.Abs(got-(0.39-0.065)*10) > 1e-12 {
		t.Errorf("tau2 %g", got)
	}
}

// A wind step: the dynamic induced velocity starts from the old equilibrium,
// moves only a little within 0.05 s (tau2 ~ 0.3-1.6 s), relaxes to the
// quasi-steady solution, and repeated calls at the same time agree. The
// step comes after a first step in steady wind, which initialises the
// filters (see TestDBEMTInitialisedAtFirstStateUpdate).
func TestDBEMTWindStep(t *testing.T) {
	_, p := load5MW(t)
	p.TwrPotent, p.TwrShadow, p.TwrAero = 0, 0, false
	p.DBEMTMod = DBEMTNone // the deck has DBEMT_Mod=2
	p.UAMod = UANone       // isolate the dynamic wake (the deck has UA_Mod=3)
	qs, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	p.DBEMTMod, p.Tau1Const = DBEMTTauConst, 4
	dyn, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2}
	const node = 10
	eval := func(rot *Rotor, tt, u float64) (thrust, vind float64, o NodeOutput, radius float64) {
		out := evalRigid(t, rot, st, tt, u)
		o = out.Blades[0][node]
		return out.Rotor.Force[0], -o.AxInd * o.Vx, o, out.Rotor.Radius
	}
	t8, v8, o8, _ := eval(qs, 0, 8)
	t11, v11, o11, radius := eval(qs, 0, 11)
	for _, tt := range []float64{0, 0.05} {
		if d, _, _, _ := eval(dyn, tt, 8); math.Abs(d-t8) > 1e-9*t8 {
			t.Fatalf("initial equilibrium at t = %g s: %g vs %g", tt, d, t8)
		}
	}
	f1, w1, _, _ := eval(dyn, 0.1, 11)
	f2, _, _, _ := eval(dyn, 0.1, 11)
	if f1 != f2 {
		t.Errorf("repeated call at the same time: %g then %g", f1, f2)
	}
	// AeroDyn forms the filter input at the start of the step with the
	// inflow of its end (AD_UpdateStates evaluates the wind once, at the
	// newest time, for both ends): -a(8 m/s) Vx(11 m/s). The jump of the
	// wind itself therefore enters without Øye's k tau1 du/dt lead; only
	// the change of the induction factor (a(11) < a(8)) has it, and the
	// induced velocity first moves slightly the other way. The rigid rotor
	// does not move, so Vx at the start and the end of the step is Vx(11).
	u0 := -o8.AxInd * o11.Vx
	tau2 := DBEMTTau2(4, o11.RLocal/radius)
	_, want := oyeStep(v8, v8, u0, v11, 0.05, 4, tau2)
	// The dynamic rotor's start input comes from its stored root, which
	// its solve started from the previous one; the reference a(8 m/s) is
	// a fresh solve. Both roots are known to rootXTol (1e-6 rad).
	if math.Abs(w1-want) > 1e-6 {
		t.Errorf("induced velocity after 0.05 s: %.9f m/s, AeroDyn's discretisation with the start input formed with the new wind gives %.9f", w1, want)
	}
	if frac := (w1 - v8) / (v11 - v8); math.Abs(frac) > 0.15 {
		t.Errorf("induced velocity moved %.3f of the step in 0.05 s", frac)
	}
	var last, wl float64
	for tt := 0.2; tt <= 60; tt += 0.1 {
		last, wl, _, _ = eval(dyn, tt, 11)
	}
	t.Logf("node %d induced velocity: %.4f m/s at 8 m/s, %.4f after 0.05 s at 11 m/s, %.4f after 60 s, quasi-steady %.4f; thrust %.0f -> %.0f (quasi-steady %.0f)",
		node+1, v8, w1, wl, v11, t8, last, t11)
	if math.Abs(last-t11) > 1e-6*t11 || math.Abs(wl-v11) > 1e-6 {
		t.Errorf("after 15 tau1: thrust %g vs %g, vind %g vs %g", last, t11, wl, v11)
	}
}

// AeroDyn initialises the dynamic-wake filters at the first state update,
// not at the first output: BEMT_UpdateStates solves the BEMT again for the
// step-start input, which AD_UpdateStates forms with the inflow of the
// step's end, and DBEMT_InitStates sets both filter states to that
// solution's induced velocities. With the wind changing from 8 to 11 m/s
// between the first two evaluations of a rotor that does not move, the
// start and end inputs of the first step are then the same, so the induced
// velocity after it is the quasi-steady one at 11 m/s: the first output's
// 8-m/s induction never enters the filters. (Initialised at the first
// output instead, the filters would still be near the 8-m/s value.)
func TestDBEMTInitialisedAtFirstStateUpdate(t *testing.T) {
	_, p := load5MW(t)
	p.TwrPotent, p.TwrShadow, p.TwrAero = 0, 0, false
	p.UAMod = UANone
	for _, mod := range []int{DBEMTTauConst, DBEMTTauVary} {
		p.DBEMTMod, p.Tau1Const = mod, 4
		rot, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		pq := p
		pq.DBEMTMod = DBEMTNone
		qs, err := New(pq)
		if err != nil {
			t.Fatal(err)
		}
		st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2}
		eval := func(r *Rotor, tt, u float64) *Output { return evalRigid(t, r, st, tt, u) }
		first := eval(rot, 0, 8)
		dyn := eval(rot, 0.05, 11)
		want := eval(qs, 0, 11)
		for k := range dyn.Blades {
			for j, o := range dyn.Blades[k] {
				w := want.Blades[k][j]
				// Within the roots' tolerance (rootXTol = 1e-6 rad): the
				// dynamic rotor's solve starts from the first root.
				if math.Abs(o.AxInd-w.AxInd) > 1e-5 || math.Abs(o.TanInd-w.TanInd) > 1e-5 {
					t.Errorf("DBEMT_Mod %d blade %d node %d: a = %.6f, a' = %.6f after the first step; the quasi-steady solution at 11 m/s has %.6f, %.6f (at 8 m/s: %.6f)",
						mod, k+1, j+1, o.AxInd, o.TanInd, w.AxInd, w.TanInd, first.Blades[k][j].AxInd)
				}
			}
		}
		if a8, a11 := first.Blades[0][10].AxInd, want.Blades[0][10].AxInd; math.Abs(a8-a11) < 0.01 {
			t.Fatalf("test set-up: the wind change should move node 11's induction (%.4f vs %.4f)", a8, a11)
		}
	}
}

// In yawed inflow the Pitt/Peters redistribution varies the axial induction
// once per revolution by a·K·tan(χ/2)·(r/R). AeroDyn applies it after the
// dynamic-wake filter, so with DBEMT on (tau1 = 4 s, far slower than the
// 6-s revolution) the settled once-per-revolution variation must still have
// that full amplitude, not a filtered fraction of it.
func TestSkewRedistributionAfterDBEMT(t *testing.T) {
	_, p := load5MW(t)
	p.TwrPotent, p.TwrShadow, p.TwrAero = 0, 0, false
	p.UAMod = UANone
	p.DBEMTMod, p.Tau1Const = DBEMTTauConst, 4
	if p.SkewMod != 1 {
		t.Fatalf("the deck's Skew_Mod is not 1 (%d)", p.SkewMod)
	}
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	const omega, yaw, node = 1.0, 20 * deg2rad, 14
	var in Input
	out := rot.NewOutput()
	eval := func(tt float64) NodeOutput {
		st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: omega, Azimuth: omega * tt, Yaw: yaw}
		if err := rot.RigidInput(st, func(Vec3) Vec3 { return Vec3{8, 0, 0} }, &in); err != nil {
			t.Fatal(err)
		}
		if err := rot.CalcOutput(tt, &in, out); err != nil {
			t.Fatal(err)
		}
		return out.Blades[0][node]
	}
	const dt = 0.02
	tt := 0.0
	for ; tt < 60; tt += dt {
		eval(tt)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var sum float64
	n := 0
	for end := tt + 2*math.Pi/omega; tt < end; tt += dt {
		a := eval(tt).AxInd
		lo, hi = math.Min(lo, a), math.Max(hi, a)
		sum += a
		n++
	}
	mean := sum / float64(n)
	chi0 := out.Rotor.Skew
	chi := (0.6*mean + 1) * chi0
	o := out.Blades[0][node]
	want := mean * p.SkewRedistrFactor * math.Tan(chi/2) * o.RLocal / out.Rotor.Radius
	got := (hi - lo) / 2
	t.Logf("node %d: a = %.4f ± %.4f over a revolution; Pitt/Peters amplitude by hand %.4f (chi0 %.1f°)", node+1, mean, got, want, chi0/deg2rad)
	if math.Abs(got-want) > 0.15*want {
		t.Errorf("once-per-revolution induction amplitude %.4f, want %.4f ± 15 %%", got, want)
	}
}

// tau1 of DBEMT_Mod 2 uses AeroDyn's Un_disk: the disk-averaged relative
// wind projected on the shaft axis, not the mean of the nodes' normal
// components Vx, which a coned (or flapped) blade sees reduced by the cosine
// of its cone. With a 20° cone in axial wind U the two differ by 6 %.
func TestDBEMTTau1UsesShaftNormalInflow(t *testing.T) {
	af := thinAirfoil(0.01)
	rot := simpleRotor(t, af)
	p := rot.Params()
	p.DBEMTMod = DBEMTTauVary
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	const U, cone = 10.0, -20 * math.Pi / 180
	var in Input
	st := RigidState{HubPosition: Vec3{0, 0, 90}, Precone: []float64{cone}, Azimuth: 0.2, RotorSpeed: 7 * U / 63}
	if err := rot.RigidInput(st, uniformWind(U), &in); err != nil {
		t.Fatal(err)
	}
	out := rot.NewOutput()
	if err := rot.CalcOutput(0, &in, out); err != nil {
		t.Fatal(err)
	}
	// At the first evaluation the filters start in equilibrium, so the
	// nodes carry the quasi-steady induction that sets tau1.
	rl := make([][]float64, len(out.Blades))
	var vxSum float64
	n := 0
	for k := range out.Blades {
		for _, o := range out.Blades[k] {
			rl[k] = append(rl[k], o.RLocal)
			vxSum += o.Vx
			n++
		}
	}
	w := dbemtDiskWeights(rl)
	var aDisk float64
	for k := range out.Blades {
		for j, o := range out.Blades[k] {
			aDisk += w[k][j] * o.AxInd
		}
	}
	rTip := (p.HubRadius + p.Blades[0].Span[len(p.Blades[0].Span)-1]) * math.Cos(cone)
	want := DBEMTTau1(rTip, aDisk, U)
	nodeMean := DBEMTTau1(rTip, aDisk, vxSum/float64(n))
	got := rot.dyn.committed.tau1
	t.Logf("tau1 %.5f s; with Un = U: %.5f s; with the mean node Vx (%.4f m/s): %.5f s", got, want, vxSum/float64(n), nodeMean)
	if math.Abs(nodeMean-want) < 0.03*want {
		t.Fatalf("test set-up: the cone should separate the two definitions (%g vs %g)", nodeMean, want)
	}
	if math.Abs(got-want) > 1e-9*want {
		t.Errorf("tau1 = %.6f s, want %.6f s from Un_disk = %g m/s", got, want, U)
	}
}

// AeroDyn forms the dynamic wake's input at the start of a step from the
// stored BEM root (z%phi) and the step-start Vx, Vy (BEMT_UpdateStates,
// calculate_Inductions_from_BEMT), not from the inductions solved with the
// earlier inflow. The two differ where Vx changes sign between the step's
// end input and the next step's start input: a still rotor at 1.2 rad/s in
// a 0.5-m/s wind that reverses to -0.5 m/s between the second and third
// evaluations. The filters after the third evaluation must be Øye's step
// from the stored state with the start input InductionsAtPhi(root, Vx0,
// Vy0); with the old start input (the stored inductions applied to the
// reversed Vx) some nodes would differ by more than 1e-3 m/s.
func TestDBEMTStartInputFromBEMRoot(t *testing.T) {
	_, p := load5MW(t)
	p.TwrPotent, p.TwrShadow, p.TwrAero = 0, 0, false
	p.UAMod = UANone
	p.DBEMTMod, p.Tau1Const = DBEMTTauConst, 4
	rot, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	st := RigidState{HubPosition: Vec3{0, 0, 90}, RotorSpeed: 1.2}
	eval := func(tt, u float64) *Output { return evalRigid(t, rot, st, tt, u) }
	const u, dt = 0.5, 0.05
	eval(0, u)
	eval(dt, u)
	base := rot.dyn.latest.cloneInto(rot) // the state at dt: the next step's start
	end := eval(2*dt, -u)
	got := rot.dyn.latest
	changed, withRoot := 0, 0
	for k := range got.v {
		for j := range got.v[k] {
			vx0, vy0 := base.frame[k][j].inflow(Vec3{-u, 0, 0})
			u0 := [2]float64{-base.qa[k][j][0] * vx0, base.qa[k][j][1] * vy0}
			old := u0
			if base.hasRoot[k][j] {
				withRoot++
				a, ap, ok := InductionsAtPhi(base.rootPhi[k][j], vx0, vy0, &base.sec[k][j], &p.BEMT)
				if !ok {
					t.Fatalf("blade %d node %d: no inductions at the stored root", k+1, j+1)
				}
				u0 = [2]float64{-a * vx0, ap * vy0}
			}
			w := end.work[k][j]
			e := SolveNode(w.vx, w.vy, &w.sec, &p.BEMT, true)
			u1 := [2]float64{-e.AxInd * w.vx, e.TanInd * w.vy}
			t2 := DBEMTTau2(4, math.Min(rot.dynSpan[k][j]/rot.dynRadius, 1))
			for c := 0; c < 2; c++ {
				w1, wv := oyeStep(base.v1[k][j][c], base.v[k][j][c], u0[c], u1[c], dt, 4, t2)
				if math.Abs(got.v1[k][j][c]-w1) > 1e-9 || math.Abs(got.v[k][j][c]-wv) > 1e-9 {
					t.Errorf("blade %d node %d component %d: filters (%.9g, %.9g), want (%.9g, %.9g) from the start input at the stored root", k+1, j+1, c, got.v1[k][j][c], got.v[k][j][c], w1, wv)
				}
				o1, _ := oyeStep(base.v1[k][j][c], base.v[k][j][c], old[c], u1[c], dt, 4, t2)
				if math.Abs(o1-w1) > 1e-3 {
					changed++
				}
			}
		}
	}
	if withRoot == 0 || changed == 0 {
		t.Fatalf("test set-up: %d nodes with a BEM root, %d filter components where the start input matters", withRoot, changed)
	}
	t.Logf("%d nodes with a stored root; %d filter components differ by > 1e-3 m/s from the stored-inductions start input", withRoot, changed)
}
