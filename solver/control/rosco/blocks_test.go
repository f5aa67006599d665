package rosco

import (
	"math"
	"math/cmplx"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// The bilinear first-order filter has the exact frequency response
// H(e^{jωT}) of ω_c/(s+ω_c) with s = (2/T)(z−1)/(z+1): check its steady
// sinusoidal gain against that closed form, its unit DC gain, and the reset.
func TestLowPass1Response(t *testing.T) {
	const dt, wc = 0.01, 2.0
	for _, w := range []float64{0.5, 2, 10} {
		var f lowPass1
		amp := 0.0
		n := int(200 / dt)
		for i := 0; i < n; i++ {
			y := f.step(math.Sin(w*float64(i)*dt), dt, wc, i == 0, 0)
			if float64(i)*dt > 150 {
				amp = math.Max(amp, math.Abs(y))
			}
		}
		z := cmplx.Exp(complex(0, w*dt))
		s := complex(2/dt, 0) * (z - 1) / (z + 1)
		want := cmplx.Abs(complex(wc, 0) / (s + complex(wc, 0)))
		if math.Abs(amp-want) > 2e-3 {
			t.Errorf("ω=%g: gain %.5f, want %.5f", w, amp, want)
		}
	}
	var f lowPass1
	if y := f.step(3, dt, wc, true, 3); y != 3 {
		t.Errorf("reset output %g, want the input 3", y)
	}
	for i := 0; i < 5000; i++ {
		f.step(5, dt, wc, false, 0)
	}
	if y := f.step(5, dt, wc, false, 0); math.Abs(y-5) > 1e-12 {
		t.Errorf("DC gain: %g", y)
	}
}

// Second-order low-pass and notch: compare the steady sinusoidal gain with
// the bilinear-mapped continuous transfer functions.
func TestLowPass2AndNotchResponse(t *testing.T) {
	const dt, wn, zeta = 0.005, 1.0081, 0.7
	tf := func(w float64, h func(s complex128) complex128) float64 {
		z := cmplx.Exp(complex(0, w*dt))
		return cmplx.Abs(h(complex(2/dt, 0) * (z - 1) / (z + 1)))
	}
	for _, w := range []float64{0.3, 1.0081, 3} {
		var lp lowPass2
		var nf notch
		ampLP, ampN := 0.0, 0.0
		for i := 0; i < int(400/dt); i++ {
			u := math.Sin(w * float64(i) * dt)
			y1 := lp.step(u, dt, wn, zeta, i == 0)
			y2 := nf.step(u, dt, 1.2, 0.01, 0.2, i == 0)
			if float64(i)*dt > 300 {
				ampLP = math.Max(ampLP, math.Abs(y1))
				ampN = math.Max(ampN, math.Abs(y2))
			}
		}
		wantLP := tf(w, func(s complex128) complex128 {
			return complex(wn*wn, 0) / (s*s + complex(2*zeta*wn, 0)*s + complex(wn*wn, 0))
		})
		wantN := tf(w, func(s complex128) complex128 {
			return (s*s + complex(2*1.2*0.01, 0)*s + complex(1.44, 0)) / (s*s + complex(2*1.2*0.2, 0)*s + complex(1.44, 0))
		})
		if math.Abs(ampLP-wantLP) > 2e-3 || math.Abs(ampN-wantN) > 2e-3 {
			t.Errorf("ω=%g: LPF2 gain %.5f (want %.5f), notch gain %.5f (want %.5f)", w, ampLP, wantLP, ampN, wantN)
		}
	}
}

// PI: bumpless reset, integrator clamped at the limits (anti-windup), and
// the output kp·e + I.
func TestPIController(t *testing.T) {
	var c piController
	if y := c.step(1, 2, 3, -10, 10, 0.1, 4, true); y != 4 {
		t.Fatalf("reset output %g, want 4", y)
	}
	if y := c.step(1, 2, 3, -10, 10, 0.1, 0, false); math.Abs(y-(2+4.3)) > 1e-12 {
		t.Errorf("output %g, want 6.3", y)
	}
	for i := 0; i < 1000; i++ {
		c.step(1, 2, 3, -10, 10, 0.1, 0, false)
	}
	if c.iTerm != 10 {
		t.Errorf("integrator %g, want clamped at 10", c.iTerm)
	}
	if y := c.step(-1, 2, 3, -10, 10, 0.1, 0, false); math.Abs(y-(10-0.3-2)) > 1e-12 {
		t.Errorf("unwinding output %g, want 7.7 (no wind-up beyond the limit)", y)
	}
}

func TestInterpolation(t *testing.T) {
	x, y := []float64{1, 2, 4}, []float64{10, 20, 0}
	for _, c := range []struct{ q, want float64 }{{0, 10}, {1.5, 15}, {3, 10}, {5, 0}} {
		if got := interp1(x, y, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("interp1(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	pt := &PerfTable{PitchDeg: []float64{0, 10}, TSR: []float64{5, 7}, Cp: [][]float64{{0.1, 0.3}, {0.5, 0.9}}}
	// Bilinear: at (5°, 6): mean of the four corners = 0.45; clamped outside.
	if got := pt.CpAt(5, 6); math.Abs(got-0.45) > 1e-12 {
		t.Errorf("CpAt(5,6) = %g", got)
	}
	if got := pt.CpAt(-3, 9); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("CpAt clamped = %g", got)
	}
}

// The IEA-15 table: 36 pitch × 26 TSR, and spot values read off the file
// (row TSR 9.0, columns −5° and 0°: 0.403225 and 0.469256).
func TestReadPerfTableIEA15(t *testing.T) {
	path := testshared.Path(t, "reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT", "Cp_Ct_Cq.IEA15MW.txt")
	pt, err := ReadPerfTableFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(pt.PitchDeg) != 36 || len(pt.TSR) != 26 || len(pt.Cp) != 26 || len(pt.Ct) != 26 || len(pt.Cq) != 26 {
		t.Fatalf("sizes %d × %d", len(pt.PitchDeg), len(pt.TSR))
	}
	if got := pt.CpAt(-5, 9); math.Abs(got-0.403225) > 1e-9 {
		t.Errorf("Cp(−5°, 9) = %g", got)
	}
	if got := pt.CpAt(0, 9); math.Abs(got-0.469256) > 1e-9 {
		t.Errorf("Cp(0°, 9) = %g", got)
	}
	if _, err := ReadPerfTable(strings.NewReader("# x\n1 2\n3 4\n5\n0.1 0.2\n")); err == nil {
		t.Error("truncated table accepted")
	}
}

// DISCON.IN values of the IEA-15 deck reach Params with ROSCO's units.
func TestLoadParamsIEA15(t *testing.T) {
	path := testshared.Path(t, "reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore_DISCON.IN")
	p, err := LoadParams(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.VSControlMode != 2 || p.WEMode != 2 || p.PSMode != 1 || p.SSMode != 1 || p.FLPFType != 2 {
		t.Errorf("modes %+v", p)
	}
	if p.PCRefSpd != 0.79168 || p.VSRtTq != 19786767.46773 || p.VSTSRopt != 9 || p.WEJtot != 312456272 {
		t.Errorf("values PC_RefSpd %g VS_RtTq %g VS_TSRopt %g WE_Jtot %g", p.PCRefSpd, p.VSRtTq, p.VSTSRopt, p.WEJtot)
	}
	if len(p.PCGSAngles) != 30 || p.PCGSKP[0] != -1.156615 || len(p.WEFOPoles) != 60 || len(p.PSBldPitchMin) != 60 {
		t.Errorf("tables: %d angles, KP[0] %g, %d poles, %d PS", len(p.PCGSAngles), p.PCGSKP[0], len(p.WEFOPoles), len(p.PSBldPitchMin))
	}
	p.IPCControlMode = 1
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "IPC_ControlMode") {
		t.Errorf("IPC accepted: %v", err)
	}
}

// Floating feedback: a tower-top acceleration A·sin(ωt) between the high-pass
// and low-pass corners integrates to a velocity of amplitude A/ω·|H_LP·H_HP|
// (bilinear responses), and the pitch increment is Fl_Kp times it.
func TestFloatFeedbackGain(t *testing.T) {
	p := Params{FFlCornerFreq: [2]float64{5, 1}, FFlHighPassFreq: 0.01, FlKp: []float64{-0.15}}
	const dt, w, A = 0.01, 0.5, 0.2
	var f floatFeedback
	amp := 0.0
	for i := 0; i < int(1500/dt); i++ {
		tm := float64(i) * dt
		_, pitch := f.step(&p, A*math.Sin(w*tm), 12, dt, i == 0)
		if tm > 1200 {
			amp = math.Max(amp, math.Abs(pitch))
		}
	}
	z := cmplx.Exp(complex(0, w*dt))
	s := complex(2/dt, 0) * (z - 1) / (z + 1)
	wn, zeta, wh := 5.0, 1.0, 0.01
	hLP := complex(wn*wn, 0) / (s*s + complex(2*zeta*wn, 0)*s + complex(wn*wn, 0))
	hHP := s / (s + complex(wh, 0))
	// Forward-Euler integration of a sinusoid: gain dt/|1−z⁻¹|.
	hInt := complex(dt, 0) / (1 - 1/z)
	want := 0.15 * A * cmplx.Abs(hLP*hHP*hInt)
	if math.Abs(amp-want) > 0.01*want {
		t.Errorf("pitch amplitude %.6f rad, want %.6f (≈ Kp·A/ω = %.6f)", amp, want, 0.15*A/w)
	}
}

// The feedback opposes the nacelle velocity through ROSCO's negative gain:
// a nacelle accelerating downwind (positive acceleration, so positive
// velocity) gets a positive pitch increment, −Fl_Kp·v (ROSCO computes it as
// (0 − v)·Fl_Kp). With the opposite sign the IEA 15 MW semi at 10 m/s
// pitched to fine pitch while OpenFAST's feathered to 4.5°.
func TestFloatFeedbackOpposesNacelleVelocity(t *testing.T) {
	p := Params{FFlCornerFreq: [2]float64{5, 1}, FFlHighPassFreq: 0.01, FlKp: []float64{-9.2}}
	var f floatFeedback
	var pitch float64
	for i := 0; i < 200; i++ { // 2 s of 0.01 rad/s² nodding acceleration
		_, pitch = f.step(&p, 0.01, 10, 0.01, i == 0)
	}
	if !(pitch > 0) {
		t.Fatalf("pitch increment %g rad for a nacelle speeding up downwind, want > 0", pitch)
	}
}

// Every DISCON.IN shipped with the reference decks (IEA-15 monopile and
// semi-submersible, IEA-22 monopile and semi) is accepted, with its Cp table.
func TestReferenceDeckDISCONsLoad(t *testing.T) {
	root := testshared.Path(t, "reference-decks")
	files, err := filepath.Glob(filepath.Join(root, "*", "*", "*DISCON*.IN"))
	if err != nil || len(files) < 4 {
		t.Fatalf("found %d DISCON.IN files (%v)", len(files), err)
	}
	for _, f := range files {
		p, err := LoadParams(f)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if _, err := New(p); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}
