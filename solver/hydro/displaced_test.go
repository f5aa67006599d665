package hydro

import (
	"math"
	"math/cmplx"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/waves"
)

// regularSea is a regular Airy wave of height H, period T and heading
// dirDeg in water of depth h, phase zero.
func regularSea(t *testing.T, h, H, T, dirDeg float64) *waves.Sea {
	t.Helper()
	ph := 0.0
	sea, err := waves.New(waves.Config{Gravity: grav, WtrDens: rho, WtrDpth: h, WaveMod: waves.Regular,
		WaveTMax: 800, WaveDT: 0.1, WaveHs: H, WaveTp: T, WaveDir: dirDeg, RegularPhase: &ph})
	if err != nil {
		t.Fatal(err)
	}
	return sea
}

// flatExcitation is a WAMIT excitation that is the same at every heading:
// X_d(ω) = (d+1)·(1 + 0.3i)·1e6·ω, so each DOF has its own amplitude and
// the phase is not zero.
func flatExcitation() *Excitation {
	e := &Excitation{Headings: []float64{-180, 180}}
	for w := 0.1; w <= 2.0; w += 0.1 {
		e.Omega = append(e.Omega, w)
		var x [6]complex128
		for d := range x {
			x[d] = complex(float64(d+1)*1e6*w, 0.3*float64(d+1)*1e6*w)
		}
		e.X = append(e.X, [][6]complex128{x, x})
	}
	return e
}

// TestExcitationAtDisplacedPositionIsDelayed: a platform held at a constant
// offset Δ = (Δx, Δy) in a regular wave of heading β feels the excitation
// of the undisplaced platform delayed by the wave's travel time over Δ,
// τ = k (Δx cos β + Δy sin β)/ω (HydroDyn ExctnDisp 1; and ExctnDisp 2 once
// its filter holds the constant offset). The hand calculation:
// F_d(t) = Re(a conj(X_d(ω)) e^{−iω(t−τ)}), a = H/2.
func TestExcitationAtDisplacedPositionIsDelayed(t *testing.T) {
	const h, H, T, dir = 200.0, 4.0, 10.0, 30.0
	sea := regularSea(t, h, H, T, dir)
	w := 2 * math.Pi / T
	k := waves.WaveNumber(w, grav, h)
	beta := dir * math.Pi / 180
	exc := flatExcitation()
	undisplaced, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Exc: exc}, sea)
	if err != nil {
		t.Fatal(err)
	}
	for _, disp := range []int{1, 2} {
		p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Exc: exc, ExctnDisp: disp, ExctnCutOff: 0.01}, sea)
		if err != nil {
			t.Fatal(err)
		}
		dx, dy := 30.0, -7.0
		m := Motion{Q: [6]float64{dx, dy, -0.3, 0.01, 0.07, 0.02}}
		p.Advance(0, m)
		tau := k * (dx*math.Cos(beta) + dy*math.Sin(beta)) / w
		if w*tau < 0.5 {
			t.Fatalf("delay %g s moves the phase by %g rad only: the test cannot tell", tau, w*tau)
		}
		x := exc.At(w, dir)
		for i, tm := range []float64{0.05, 1.3, 4.77, 9.9, 123.4} {
			if i > 0 {
				p.Advance(tm-0.01, m)
			}
			got := p.Loads(tm, m).Excitation
			ref := undisplaced.Loads(tm-tau, Motion{}).Excitation
			for d := 0; d < 6; d++ {
				want := real(complex(H/2, 0) * cmplx.Conj(x[d]) * cmplx.Exp(complex(0, -w*(tm-tau))))
				amp := H / 2 * cmplx.Abs(x[d])
				if math.Abs(got[d]-want) > 1e-9*amp {
					t.Fatalf("ExctnDisp %d, t=%g, DOF %d: %g, hand calculation %g", disp, tm, d+1, got[d], want)
				}
				// the undisplaced series, interpolated in time at WaveDT
				if math.Abs(got[d]-ref[d]) > 2e-3*amp {
					t.Fatalf("ExctnDisp %d, t=%g, DOF %d: %g, undisplaced at t−τ %g", disp, tm, d+1, got[d], ref[d])
				}
			}
			// the delay is not zero: the undisplaced excitation at t differs
			if d0 := undisplaced.Loads(tm, Motion{}).Excitation[0]; math.Abs(d0-got[0]) < 0.1*H/2*cmplx.Abs(x[0]) && i == 0 {
				t.Fatalf("t=%g: displaced %g, undisplaced %g: no visible delay", tm, got[0], d0)
			}
		}
	}
}

// TestExcitationPositionFilter: ExctnDisp 2's first-order low-pass filter
// of the horizontal position has unit gain at zero frequency and gain
// 1/√2 (phase −45°) at its corner frequency ExctnCutOff.
func TestExcitationPositionFilter(t *testing.T) {
	const fc, dt = 0.02, 0.025 // Hz, s
	sea := regularSea(t, 200, 4, 10, 0)
	p, err := NewPlatform(PlatformConfig{Rho: rho, G: grav, Exc: flatExcitation(), ExctnDisp: 2, ExctnCutOff: fc}, sea)
	if err != nil {
		t.Fatal(err)
	}
	wc := 2 * math.Pi * fc
	// surge oscillating at the corner about 15 m, sway constant at −4 m
	x := func(tm float64) [6]float64 { return [6]float64{15 + 2*math.Sin(wc*tm), -4} }
	p.Advance(0, Motion{Q: x(0)})
	n := int(40 / fc / dt) // 40 periods
	var sc, ss, mean float64
	var cnt int
	for i := 1; i <= n; i++ {
		tm := float64(i) * dt
		m := Motion{Q: x(tm)}
		pos := p.ExcitationPosition(tm, m)
		p.Advance(tm, m)
		if pos[1] != -4 && math.Abs(pos[1]+4) > 1e-9 {
			t.Fatalf("t=%g: constant sway −4 m filtered to %g (DC gain not 1)", tm, pos[1])
		}
		if tm >= 20/fc { // the last 20 periods: the transient has decayed (e^{-2π·20})
			v := pos[0] - 15
			sc += v * math.Cos(wc*tm)
			ss += v * math.Sin(wc*tm)
			mean += pos[0]
			cnt++
		}
	}
	// projection on sin and cos over whole periods: amplitude and phase
	a, b := 2*ss/float64(cnt), 2*sc/float64(cnt)
	gain := math.Hypot(a, b) / 2
	phase := math.Atan2(b, a) * 180 / math.Pi
	if math.Abs(gain-1/math.Sqrt2) > 0.005 {
		t.Errorf("gain at the corner %g, want 1/√2 = %.4f", gain, 1/math.Sqrt2)
	}
	if math.Abs(phase+45) > 0.5 {
		t.Errorf("phase at the corner %g°, want −45°", phase)
	}
	if m := mean / float64(cnt); math.Abs(m-15) > 1e-3 {
		t.Errorf("mean of the filtered surge %g, want 15 (DC gain 1)", m)
	}
}

// TestMorisonNodeAtDisplacedPosition: with WaveDisp 1 a strip-theory node
// moved by D sees the Airy kinematics at its displaced horizontal position
// and rest height (closed form, DNV-RP-C205 Table 3-1), not those of its
// rest position; the inertia load follows.
func TestMorisonNodeAtDisplacedPosition(t *testing.T) {
	const h, H, T, dir = 50.0, 4.0, 8.0, 25.0 // T divides WaveTMax: the wave is not moved to a neighbouring frequency
	sea := regularSea(t, h, H, T, dir)
	hd := pile(2, 1, -20, 5)
	hd.WaveDisp = 1
	m, err := NewMorison(hd, sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	rest, err := NewMorison(pile(2, 1, -20, 5), sea, "test")
	if err != nil {
		t.Fatal(err)
	}
	a, w := H/2, 2*math.Pi/T
	k := waves.WaveNumber(w, grav, h)
	beta := dir * math.Pi / 180
	mot := make([]NodeMotion, len(m.Nodes))
	for i := range mot {
		// a platform surged 18 m, swayed −3 m and heaved 0.4 m: the heave
		// is not taken into the kinematics without stretching
		mot[i].D = [3]float64{18, -3, 0.4}
	}
	loads := make([]NodeLoad, len(m.Nodes))
	restLoads := make([]NodeLoad, len(m.Nodes))
	checked := 0
	for _, tm := range []float64{0.3, 2.2, 5.1} {
		m.Loads(tm, mot, loads)
		rest.Loads(tm, mot, restLoads)
		for i, n := range m.Nodes {
			if n.WetLen == 0 {
				continue
			}
			x, y, z := n.Eval[0]+18, n.Eval[1]-3, n.Eval[2]
			th := k*(x*math.Cos(beta)+y*math.Sin(beta)) - w*tm
			ch := math.Cosh(k*(z+h)) / math.Sinh(k*h)
			sh := math.Sinh(k*(z+h)) / math.Sinh(k*h)
			want := waves.Kin{
				V: [3]float64{a * w * ch * math.Cos(th) * math.Cos(beta), a * w * ch * math.Cos(th) * math.Sin(beta), a * w * sh * math.Sin(th)},
				A: [3]float64{a * w * w * ch * math.Sin(th) * math.Cos(beta), a * w * w * ch * math.Sin(th) * math.Sin(beta), -a * w * w * sh * math.Cos(th)},
				P: rho * grav * a * math.Cosh(k*(z+h)) / math.Cosh(k*h) * math.Cos(th),
			}
			got := m.Last[i].Kin
			for c := 0; c < 3; c++ {
				if math.Abs(got.V[c]-want.V[c]) > 1e-9 || math.Abs(got.A[c]-want.A[c]) > 1e-9 {
					t.Fatalf("node %d (z %g), t=%g: %+v, Airy at the displaced position %+v", i, z, tm, got, want)
				}
			}
			if math.Abs(got.P-want.P) > 1e-6 {
				t.Fatalf("node %d, t=%g: p %g, Airy %g", i, tm, got.P, want.P)
			}
			// WaveDisp 0 keeps the rest position's kinematics
			th0 := k*(n.Eval[0]*math.Cos(beta)+n.Eval[1]*math.Sin(beta)) - w*tm
			if u0 := a * w * ch * math.Cos(th0) * math.Cos(beta); math.Abs(rest.Last[i].Kin.V[0]-u0) > 1e-6 {
				t.Fatalf("WaveDisp 0, node %d: u %g, Airy at rest %g", i, rest.Last[i].Kin.V[0], u0)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("%d wet nodes checked", checked)
	}
	// the displacement moves the wave phase by k·D (≈ 0.8 rad here): the
	// horizontal loads differ
	m.Loads(1, mot, loads)
	rest.Loads(1, mot, restLoads)
	r, r0 := m.Resultant(loads, [3]float64{}), rest.Resultant(restLoads, [3]float64{})
	if math.Abs(r[0]-r0[0]) < 0.1*math.Abs(r0[0]) {
		t.Errorf("surge force %g with WaveDisp 1, %g with 0: the displacement did not move the phase", r[0], r0[0])
	}
}

// checkCase is a HydroDyn file and sea that Check accepts (refused "")
// or refuses naming the variable refused.
type checkCase struct {
	name    string
	hd      *deck.HydroDyn
	sea     SeaOptions
	refused string
}

func checkCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		u := Check(c.hd, c.sea)
		switch {
		case c.refused == "" && u != nil:
			t.Errorf("%s: refused: %+v", c.name, u)
		case c.refused != "" && u == nil:
			t.Errorf("%s: accepted", c.name)
		case c.refused != "" && u.Variable != c.refused:
			t.Errorf("%s: refused as %s (%s), want %s", c.name, u.Variable, u.Message, c.refused)
		}
	}
}

// TestCheckDisplacedPositionOptions: ExctnDisp 0–2 and WaveDisp 0–1 are
// accepted; ExctnDisp 2 needs a positive ExctnCutOff, and WaveDisp 1 on
// strip-theory members is refused with stretching (the vertical
// displacement and HydroDyn's free-surface load smoothing are not
// modelled) and with second-order kinematics, naming the option.
func TestCheckDisplacedPositionOptions(t *testing.T) {
	potential := func() *deck.HydroDyn {
		return &deck.HydroDyn{PotMod: 1, NBody: 1, ExctnMod: 1, RdtnMod: 1, RdtnTMax: 60, RdtnDT: deck.DefReal{Default: true}, WAMITULEN: 1, PotFile: "HydroData/semi", ExctnCutOff: 0.01}
	}
	checkCases(t, []checkCase{
		{"ExctnDisp 1", func() *deck.HydroDyn { h := potential(); h.ExctnDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, ""},
		{"ExctnDisp 2", func() *deck.HydroDyn { h := potential(); h.ExctnDisp = 2; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, ""},
		{"ExctnDisp 1 state-space excitation", func() *deck.HydroDyn { h := potential(); h.ExctnMod = 2; h.ExctnDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea}, "ExctnDisp"},
		{"ExctnDisp 3", func() *deck.HydroDyn { h := potential(); h.ExctnDisp = 3; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, "ExctnDisp"},
		{"ExctnDisp 2 cut-off 0", func() *deck.HydroDyn { h := potential(); h.ExctnDisp = 2; h.ExctnCutOff = 0; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, "ExctnCutOff"},
		{"WaveDisp 1", func() *deck.HydroDyn { h := pile(2, 1, -20, 5); h.WaveDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, ""},
		{"WaveDisp 1 stretched", func() *deck.HydroDyn { h := pile(2, 1, -20, 5); h.WaveDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 1}, "WaveDisp"},
		{"WaveDisp 1 no members stretched", func() *deck.HydroDyn { h := potential(); h.WaveDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 2}, ""},
		{"WaveDisp 1 second order", func() *deck.HydroDyn { h := pile(2, 1, -20, 5); h.WaveDisp = 1; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, SecondOrder: true}, "WaveDisp"},
		{"WaveDisp 1 still water second order", func() *deck.HydroDyn { h := pile(2, 1, -20, 5); h.WaveDisp = 1; return h }(), SeaOptions{WaveMod: waves.StillWater, SecondOrder: true}, ""},
		{"WaveDisp 2", func() *deck.HydroDyn { h := pile(2, 1, -20, 5); h.WaveDisp = 2; return h }(), SeaOptions{WaveMod: waves.JONSWAPSea, WaveStMod: 0}, "WaveDisp"},
	})
}

// TestCheckStateSpaceExcitationRefusesSecondOrder: ExctnMod 2 is refused,
// naming the option, with any second-order wave load (MnDrift, NewmanApp,
// DiffQTF, SumQTF) or second-order kinematics, as OpenFAST v5.0.0's
// HydroDyn refuses them (it stops at initialisation on the semi deck with
// ExctnMod 2 and its DiffQTF 12); without them it is accepted.
func TestCheckStateSpaceExcitationRefusesSecondOrder(t *testing.T) {
	ss := func(edit func(h *deck.HydroDyn)) *deck.HydroDyn {
		h := &deck.HydroDyn{PotMod: 1, NBody: 1, ExctnMod: 2, RdtnMod: 1, RdtnTMax: 60, RdtnDT: deck.DefReal{Default: true}, WAMITULEN: 1, PotFile: "HydroData/semi"}
		edit(h)
		return h
	}
	irregular := SeaOptions{WaveMod: waves.JONSWAPSea}
	checkCases(t, []checkCase{
		{"first order only", ss(func(h *deck.HydroDyn) {}), irregular, ""},
		{"DiffQTF", ss(func(h *deck.HydroDyn) { h.DiffQTF = 12 }), irregular, "DiffQTF"},
		{"SumQTF", ss(func(h *deck.HydroDyn) { h.SumQTF = 12 }), irregular, "SumQTF"},
		{"MnDrift", ss(func(h *deck.HydroDyn) { h.MnDrift = 8 }), irregular, "MnDrift"},
		{"NewmanApp", ss(func(h *deck.HydroDyn) { h.NewmanApp = 8 }), irregular, "NewmanApp"},
		{"second-order kinematics", ss(func(h *deck.HydroDyn) {}), SeaOptions{WaveMod: waves.JONSWAPSea, SecondOrder: true}, "ExctnMod"},
		{"DiffQTF with ExctnMod 1", ss(func(h *deck.HydroDyn) { h.ExctnMod, h.DiffQTF = 1, 12 }), SeaOptions{WaveMod: waves.JONSWAPSea, SecondOrder: true}, ""},
	})
}

// TestCoarseGridNote: with ExctnDisp 1 the semi's SeaState grid (NX 2,
// X_HalfWidth 60 m: points 60 m apart) is coarse for its 10-s waves
// (156 m), where OpenFAST's interpolation over the grid moves the parked
// platform's motions by 6-9 % (docs/validation.md §10.6), so the run
// carries a note naming the SeaState file's NX line; a 1-m grid, or the
// undisplaced excitation, carries none.
func TestCoarseGridNote(t *testing.T) {
	const hd = semiFolder + "_HydroDyn.dat"
	const ss = semiFolder + "_SeaState.dat"
	note := func(edits ...[3]string) string {
		root, d := semiCopy(t, "iea15_semi_steady10_irregular", edits...)
		m, err := modelOf(t, root, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range m.Warnings {
			if strings.Contains(w, "wave grid") {
				return w
			}
		}
		return ""
	}
	if w := note([3]string{hd, "ExctnDisp", "1"}); !strings.HasPrefix(w, ss+":12: NX:") || !strings.Contains(w, "dX 60 m") || !strings.Contains(w, "7.8 m") {
		t.Errorf("coarse grid: note %q", w)
	}
	if w := note([3]string{hd, "ExctnDisp", "1"}, [3]string{ss, "NX", "61"}); w != "" {
		t.Errorf("1-m grid: note %q", w)
	}
	if w := note(); w != "" {
		t.Errorf("ExctnDisp 0: note %q", w)
	}
}
