package analysis

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// directDFT is the O(N²) definition X_k = Σ x_n e^{−2πi kn/N}, k = 0..N/2,
// with the phase reduced modulo N in integers so it stays exact for large kn.
func directDFT(x []float64) []complex128 {
	n := len(x)
	out := make([]complex128, n/2+1)
	for k := range out {
		var s complex128
		for j, v := range x {
			q := (k * j) % n
			s += complex(v, 0) * cmplx.Rect(1, -2*math.Pi*float64(q)/float64(n))
		}
		out[k] = s
	}
	return out
}

func TestRealTransformMatchesDirectDFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// 1009 and 2·3·101 = 606 have prime factors above the FFTPACK limit and
	// go through Bluestein; the others through FFTPACK.
	for _, n := range []int{1, 2, 3, 16, 17, 60, 606, 1009, 1024} {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() + 0.5
		}
		got := newRealTransform(n).coefficients(nil, x)
		want := directDFT(x)
		scale := 0.0
		for _, v := range x {
			scale += math.Abs(v)
		}
		for k := range want {
			if d := cmplx.Abs(got[k] - want[k]); d > 1e-11*scale {
				t.Errorf("n=%d k=%d: got %v want %v (|diff| %.3g)", n, k, got[k], want[k], d)
				break
			}
		}
	}
}

// Hand case: y = 1.5 + 2·cos(2π·3f₀t + 0.3) + 0.7·cos(2π f_last t), with f₀ =
// 1/(N dt). For even N the last bin is the Nyquist frequency (cos(πn), not
// doubled); for odd N it is an ordinary bin (doubled). Either way the
// spectrum must read back 1.5, 2 and 0.7.
func TestAmplitudeScalingOddEven(t *testing.T) {
	for _, n := range []int{64, 65, 101} {
		dt := 0.05
		last := n / 2
		y := make([]float64, n)
		for i := range y {
			tt := float64(i) * dt
			f0 := 1 / (float64(n) * dt)
			y[i] = 1.5 + 2*math.Cos(2*math.Pi*3*f0*tt+0.3) + 0.7*math.Cos(2*math.Pi*float64(last)*f0*tt)
		}
		s, err := Amplitude(y, dt, DetrendNone)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Frequency) != n/2+1 {
			t.Fatalf("n=%d: %d bins, want %d", n, len(s.Frequency), n/2+1)
		}
		approx(t, "DC amplitude", s.Amplitude[0], 1.5, 1e-12)
		approx(t, "bin 3 amplitude", s.Amplitude[3], 2, 1e-12)
		approx(t, "last bin amplitude", s.Amplitude[last], 0.7, 1e-12)
		approx(t, "bin 3 frequency", s.Frequency[3], 3/(float64(n)*dt), 1e-14)
		for k, a := range s.Amplitude {
			if k != 0 && k != 3 && k != last && a > 1e-12 {
				t.Errorf("n=%d: bin %d holds %g, want 0", n, k, a)
			}
		}
		// Mean detrending empties the DC bin only.
		s2, err := Amplitude(y, dt, DetrendMean)
		if err != nil {
			t.Fatal(err)
		}
		if s2.Amplitude[0] > 1e-12 || math.Abs(s2.Amplitude[3]-2) > 1e-12 {
			t.Errorf("n=%d mean detrend: DC %g, bin3 %g", n, s2.Amplitude[0], s2.Amplitude[3])
		}
	}
}

func TestDetrendLinearRemovesRamp(t *testing.T) {
	n := 50
	y := make([]float64, n)
	for i := range y {
		y[i] = 3 + 0.25*float64(i) + math.Sin(2*math.Pi*5*float64(i)/float64(n))
	}
	x := make([]float64, n)
	if err := detrendInto(x, y, DetrendLinear); err != nil {
		t.Fatal(err)
	}
	// The sine over whole periods has zero mean but a non-zero slope against
	// the index, so the fitted line is not exactly the ramp; check against
	// the least-squares normal equations solved independently.
	var sx, sy, sxx, sxy float64
	for i, v := range y {
		fi := float64(i)
		sx += fi
		sy += v
		sxx += fi * fi
		sxy += fi * v
	}
	fn := float64(n)
	b := (fn*sxy - sx*sy) / (fn*sxx - sx*sx)
	a := (sy - b*sx) / fn
	for i := range y {
		if d := math.Abs(x[i] - (y[i] - a - b*float64(i))); d > 1e-12 {
			t.Fatalf("sample %d: residual %g differs from least squares by %g", i, x[i], d)
		}
	}
}

// Parseval for Welch: for every window, Σ P·Δf equals the average over the
// segments of Σ(w·x_seg)²/Σw², computed here in the time domain. For a
// rectangular window and one segment that is the population variance.
func TestWelchParseval(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1000, 1001} {
		y := make([]float64, n)
		for i := range y {
			y[i] = 10 + 3*rng.NormFloat64() + 2*math.Sin(0.3*float64(i))
		}
		dt := 0.0125
		// One rectangular segment over everything: exactly the variance.
		p, err := Welch(y, dt, WelchOptions{SegmentLength: n, Window: Rectangular, Detrend: DetrendMean})
		if err != nil {
			t.Fatal(err)
		}
		st, err := SeriesStatistics(uniformTime(n, dt), y, WholeRecord())
		if err != nil {
			t.Fatal(err)
		}
		approx(t, "rectangular single-segment ∫PSD", p.Variance(), st.Std*st.Std, 1e-12)

		for _, win := range []SpectralWindow{Hann, Hamming, Blackman, Rectangular} {
			for _, seg := range []int{128, 255} {
				opt := WelchOptions{SegmentLength: seg, Overlap: 0.5, Window: win, Detrend: DetrendLinear}
				p, err := Welch(y, dt, opt)
				if err != nil {
					t.Fatal(err)
				}
				w, _ := win.coefficients(seg)
				sumW2 := 0.0
				for _, v := range w {
					sumW2 += v * v
				}
				step := seg - seg/2
				want, count := 0.0, 0
				buf := make([]float64, seg)
				for s := 0; s+seg <= n; s += step {
					_ = detrendInto(buf, y[s:s+seg], DetrendLinear)
					e := 0.0
					for i, v := range buf {
						e += (w[i] * v) * (w[i] * v)
					}
					want += e / sumW2
					count++
				}
				want /= float64(count)
				if p.Segments != count {
					t.Errorf("%v seg %d: %d segments, want %d", win, seg, p.Segments, count)
				}
				approx(t, "Welch Parseval "+win.String(), p.Variance(), want, 1e-12)
			}
		}
	}
}

// White noise of variance σ²: the default Welch estimate integrates to σ²
// (within the estimator's scatter) and is flat at 2σ²/f_s.
func TestWelchWhiteNoiseLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 1 << 16
	sigma := 2.5
	y := make([]float64, n)
	for i := range y {
		y[i] = sigma * rng.NormFloat64()
	}
	dt := 0.01
	p, err := Welch(y, dt, DefaultWelchOptions())
	if err != nil {
		t.Fatal(err)
	}
	if p.SegmentLength != n/4 || p.Segments != 7 || p.Overlap != n/8 {
		t.Errorf("defaults: L=%d segments=%d overlap=%d", p.SegmentLength, p.Segments, p.Overlap)
	}
	approx(t, "∫PSD of white noise", p.Variance(), sigma*sigma, 0.02)
	level := 0.0
	for _, v := range p.Density[1 : len(p.Density)-1] {
		level += v
	}
	level /= float64(len(p.Density) - 2)
	approx(t, "white-noise density level", level, 2*sigma*sigma*dt, 0.02)
}

// A sine of amplitude A between bins: the Welch peak sits at the nearest bin
// and the area around it is A²/2.
func TestWelchSinePeak(t *testing.T) {
	n := 20000
	dt := 0.01
	f := 1.234
	amp := 3.0
	y := make([]float64, n)
	for i := range y {
		y[i] = amp * math.Sin(2*math.Pi*f*float64(i)*dt)
	}
	p, err := Welch(y, dt, WelchOptions{SegmentLength: 2048, Overlap: 0.5, Window: Hann})
	if err != nil {
		t.Fatal(err)
	}
	kMax := 0
	for k, v := range p.Density {
		if v > p.Density[kMax] {
			kMax = k
		}
	}
	if math.Abs(p.Frequency[kMax]-f) > p.Resolution {
		t.Errorf("peak at %g Hz, want %g ± %g", p.Frequency[kMax], f, p.Resolution)
	}
	area := 0.0
	for k := kMax - 6; k <= kMax+6; k++ {
		area += p.Density[k] * p.Resolution
	}
	approx(t, "sine power", area, amp*amp/2, 0.01)
}

func TestWelchErrors(t *testing.T) {
	y := []float64{1, 2, 3, 4}
	if _, err := Welch(y, 0.1, WelchOptions{SegmentLength: 5}); err == nil {
		t.Error("segment longer than signal: no error")
	}
	if _, err := Welch(y, 0, DefaultWelchOptions()); err == nil {
		t.Error("dt = 0: no error")
	}
	if _, err := Welch([]float64{1, math.Inf(1), 2}, 0.1, DefaultWelchOptions()); err == nil {
		t.Error("Inf sample: no error")
	}
	if _, err := Welch(y, 0.1, WelchOptions{Overlap: 1}); err == nil {
		t.Error("overlap 1: no error")
	}
	if _, err := SampleInterval([]float64{0, 0.1, 0.25, 0.3}); err == nil {
		t.Error("non-uniform time: no error")
	}
}

func TestRotorHarmonics(t *testing.T) {
	h, err := RotorHarmonics(12.1)
	if err != nil {
		t.Fatal(err)
	}
	// 12.1 rpm = 12.1/60 Hz = 0.201666… Hz.
	want := map[string]float64{"1P": 12.1 / 60, "3P": 3 * 12.1 / 60, "6P": 6 * 12.1 / 60}
	if len(h) != 3 {
		t.Fatalf("got %d harmonics", len(h))
	}
	for _, x := range h {
		approx(t, x.Label, x.Frequency, want[x.Label], 1e-15)
	}
	approx(t, "1P literal", h[0].Frequency, 0.2016666666666667, 1e-15)
	if _, err := RotorHarmonics(10, 0); err == nil {
		t.Error("order 0: no error")
	}
}
