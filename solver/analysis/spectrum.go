package analysis

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
)

// Detrend says what is removed from a signal (or from each Welch segment)
// before transforming it.
type Detrend int

const (
	// DetrendMean removes the mean (the default: the DC bin then holds only
	// what the window leaks, and a large mean load does not swamp the plot).
	DetrendMean Detrend = iota
	// DetrendNone transforms the signal as it is.
	DetrendNone
	// DetrendLinear removes the least-squares straight line, for slowly
	// drifting channels (e.g. a rotor azimuth that is not wrapped, a
	// temperature).
	DetrendLinear
)

// ParseDetrend maps "none", "mean" (or "constant") and "linear" to a Detrend.
func ParseDetrend(s string) (Detrend, error) {
	switch s {
	case "", "mean", "constant":
		return DetrendMean, nil
	case "none":
		return DetrendNone, nil
	case "linear":
		return DetrendLinear, nil
	}
	return 0, fmt.Errorf("unknown detrend %q (want none, mean or linear)", s)
}

// String returns the name ParseDetrend accepts.
func (d Detrend) String() string {
	switch d {
	case DetrendMean:
		return "mean"
	case DetrendNone:
		return "none"
	case DetrendLinear:
		return "linear"
	}
	return fmt.Sprintf("Detrend(%d)", int(d))
}

// detrendInto writes x minus its trend into dst.
func detrendInto(dst, x []float64, d Detrend) error {
	n := len(x)
	switch d {
	case DetrendNone:
		copy(dst, x)
	case DetrendMean:
		mean := 0.0
		for _, v := range x {
			mean += v
		}
		mean /= float64(n)
		for i, v := range x {
			dst[i] = v - mean
		}
	case DetrendLinear:
		// Least-squares line a + b·(i − ī) over the sample index; centring
		// the abscissa makes the two normal equations independent.
		if n < 2 {
			for i := range dst {
				dst[i] = 0 // a line through one point fits it exactly
			}
			return nil
		}
		ic := float64(n-1) / 2
		var sy, sxy, sxx float64
		for i, v := range x {
			u := float64(i) - ic
			sy += v
			sxy += u * v
			sxx += u * u
		}
		a, b := sy/float64(n), sxy/sxx
		for i, v := range x {
			dst[i] = v - a - b*(float64(i)-ic)
		}
	default:
		return fmt.Errorf("unknown detrend %d", int(d))
	}
	return nil
}

// SampleInterval returns the constant time step of time, or an error when
// the steps vary by more than 1e-6 relative (spectra need uniform sampling;
// OpenFAST output is uniform at DT_Out).
func SampleInterval(time []float64) (float64, error) {
	n := len(time)
	if n < 2 {
		return 0, errors.New("need at least two time samples for a sample interval")
	}
	dt := (time[n-1] - time[0]) / float64(n-1)
	if !(dt > 0) || math.IsInf(dt, 0) {
		return 0, fmt.Errorf("time does not increase (span %g to %g)", time[0], time[n-1])
	}
	for i := 1; i < n; i++ {
		if step := time[i] - time[i-1]; math.Abs(step-dt) > 1e-6*dt {
			return 0, fmt.Errorf("time step %g at sample %d differs from the mean step %g: sampling is not uniform", step, i, dt)
		}
	}
	return dt, nil
}

// AmplitudeSpectrum is the single-sided amplitude spectrum of a signal:
// Amplitude[k] is the amplitude of the cosine at Frequency[k] = k/(N·dt), so a
// signal A·cos(2πf_k t + φ) with f_k on the frequency grid shows amplitude A
// at f_k. Scaling from the DFT X_k of N samples: |X_0|/N at DC, 2|X_k|/N for
// 0 < k < N/2, and |X_{N/2}|/N at the Nyquist frequency, which exists only
// for even N (for odd N every k ≥ 1 is doubled).
type AmplitudeSpectrum struct {
	Frequency  []float64 `json:"frequency"`  // Hz
	Amplitude  []float64 `json:"amplitude"`  // channel units
	Resolution float64   `json:"resolution"` // Hz, 1/(N·dt)
	N          int       `json:"n"`
}

// Amplitude computes the single-sided amplitude spectrum of y sampled every
// dt seconds after removing the trend d. No window is applied, so a
// component that is not on the frequency grid leaks into neighbouring bins;
// use Welch for a density estimate of random loads.
func Amplitude(y []float64, dt float64, d Detrend) (AmplitudeSpectrum, error) {
	n := len(y)
	if n < 2 {
		return AmplitudeSpectrum{}, fmt.Errorf("amplitude spectrum: need at least 2 samples, have %d", n)
	}
	if !(dt > 0) || math.IsInf(dt, 0) {
		return AmplitudeSpectrum{}, fmt.Errorf("amplitude spectrum: sample interval %g must be positive", dt)
	}
	if i := firstNonFinite(y); i >= 0 {
		return AmplitudeSpectrum{}, fmt.Errorf("amplitude spectrum: sample %d is not finite (%v)", i, y[i])
	}
	x := make([]float64, n)
	if err := detrendInto(x, y, d); err != nil {
		return AmplitudeSpectrum{}, fmt.Errorf("amplitude spectrum: %w", err)
	}
	coef := newRealTransform(n).coefficients(nil, x)
	s := AmplitudeSpectrum{
		Frequency:  make([]float64, len(coef)),
		Amplitude:  make([]float64, len(coef)),
		Resolution: 1 / (float64(n) * dt),
		N:          n,
	}
	for k, c := range coef {
		a := cmplx.Abs(c) / float64(n)
		if k > 0 && !(n%2 == 0 && k == n/2) {
			a *= 2
		}
		s.Frequency[k] = float64(k) * s.Resolution
		s.Amplitude[k] = a
	}
	return s, nil
}

// ChannelAmplitude is Amplitude of a named channel over a window.
func ChannelAmplitude(rec *Record, name string, w Window, d Detrend) (AmplitudeSpectrum, error) {
	y, dt, err := channelWindow(rec, name, w)
	if err != nil {
		return AmplitudeSpectrum{}, fmt.Errorf("amplitude spectrum: %w", err)
	}
	s, err := Amplitude(y, dt, d)
	if err != nil {
		return AmplitudeSpectrum{}, fmt.Errorf("channel %q: %w", name, err)
	}
	return s, nil
}

func channelWindow(rec *Record, name string, w Window) ([]float64, float64, error) {
	if err := rec.Validate(); err != nil {
		return nil, 0, err
	}
	y, err := rec.Channel(name)
	if err != nil {
		return nil, 0, err
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, 0, err
	}
	dt, err := SampleInterval(rec.Time[lo:hi])
	if err != nil {
		return nil, 0, fmt.Errorf("channel %q: %w", name, err)
	}
	return y[lo:hi], dt, nil
}

func firstNonFinite(y []float64) int {
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}

// SpectralWindow is the taper applied to each Welch segment. All are the
// periodic (DFT-even) forms of length L, w[n] for n = 0..L−1, as used for
// spectral estimation (Harris 1978):
//
//	Hann:        0.5 − 0.5·cos(2πn/L)                          (default)
//	Hamming:     0.54 − 0.46·cos(2πn/L)
//	Blackman:    0.42 − 0.5·cos(2πn/L) + 0.08·cos(4πn/L)
//	Rectangular: 1 (boxcar; no taper, most leakage, finest resolution)
type SpectralWindow int

const (
	Hann SpectralWindow = iota
	Hamming
	Blackman
	Rectangular
)

// ParseSpectralWindow maps "hann" ("hanning"), "hamming", "blackman" and
// "rectangular" ("boxcar") to a window.
func ParseSpectralWindow(s string) (SpectralWindow, error) {
	switch s {
	case "", "hann", "hanning":
		return Hann, nil
	case "hamming":
		return Hamming, nil
	case "blackman":
		return Blackman, nil
	case "rectangular", "boxcar", "none":
		return Rectangular, nil
	}
	return 0, fmt.Errorf("unknown spectral window %q (want hann, hamming, blackman or rectangular)", s)
}

func (w SpectralWindow) String() string {
	switch w {
	case Hann:
		return "hann"
	case Hamming:
		return "hamming"
	case Blackman:
		return "blackman"
	case Rectangular:
		return "rectangular"
	}
	return fmt.Sprintf("SpectralWindow(%d)", int(w))
}

func (w SpectralWindow) coefficients(l int) ([]float64, error) {
	c := make([]float64, l)
	for i := range c {
		phase := 2 * math.Pi * float64(i) / float64(l)
		switch w {
		case Hann:
			c[i] = 0.5 - 0.5*math.Cos(phase)
		case Hamming:
			c[i] = 0.54 - 0.46*math.Cos(phase)
		case Blackman:
			c[i] = 0.42 - 0.5*math.Cos(phase) + 0.08*math.Cos(2*phase)
		case Rectangular:
			c[i] = 1
		default:
			return nil, fmt.Errorf("unknown spectral window %d", int(w))
		}
	}
	return c, nil
}

// WelchOptions configure Welch's method. Start from DefaultWelchOptions: the
// zero value means a Hann window, mean detrend, default segment length and
// no overlap.
type WelchOptions struct {
	// SegmentLength in samples; 0 picks the largest power of two not above
	// N/4 (about 7 segments at 50 % overlap, a variance reduction of roughly
	// 4–5× at a frequency resolution still fine enough for 1P), or N when
	// N < 256. Longer than N is an error.
	SegmentLength int
	// Overlap is the fraction of a segment shared with the next, in [0, 0.95].
	Overlap float64
	Window  SpectralWindow
	Detrend Detrend
}

// DefaultWelchOptions: Hann window, 50 % overlap, mean removed per segment,
// default segment length.
func DefaultWelchOptions() WelchOptions {
	return WelchOptions{Overlap: 0.5, Window: Hann, Detrend: DetrendMean}
}

// PowerSpectralDensity is a one-sided PSD: Density[k] in (channel unit)²/Hz
// at Frequency[k], scaled so that Σ_k Density[k]·Resolution equals the mean
// square of the detrended, windowed-and-renormalised segments; for a
// rectangular window over one segment this is exactly the variance
// (Parseval), and for a tapered window it is an unbiased estimate of it.
type PowerSpectralDensity struct {
	Frequency     []float64 `json:"frequency"` // Hz
	Density       []float64 `json:"density"`   // unit²/Hz
	Resolution    float64   `json:"resolution"`
	SegmentLength int       `json:"segment_length"`
	Segments      int       `json:"segments"`
	Overlap       int       `json:"overlap"` // samples
	Window        string    `json:"window"`
	Detrend       string    `json:"detrend"`
}

// Welch estimates the power spectral density of y sampled every dt seconds
// by Welch's method (Welch 1967): the signal is cut into segments of L
// samples overlapping by floor(Overlap·L); each is detrended, multiplied by
// the window w and transformed; the periodograms
//
//	P_k = |X_k|² / (f_s · Σ w²),  doubled for 0 < k < L/2 (one-sided)
//
// are averaged. Dividing by f_s·Σw² (not (Σw)²) is the density scaling: it
// makes ∫P df the signal power whatever the window, so areas under the PSD
// are variances. Samples after the last full segment are not used.
func Welch(y []float64, dt float64, opt WelchOptions) (PowerSpectralDensity, error) {
	n := len(y)
	if n < 2 {
		return PowerSpectralDensity{}, fmt.Errorf("welch: need at least 2 samples, have %d", n)
	}
	if !(dt > 0) || math.IsInf(dt, 0) {
		return PowerSpectralDensity{}, fmt.Errorf("welch: sample interval %g must be positive", dt)
	}
	if i := firstNonFinite(y); i >= 0 {
		return PowerSpectralDensity{}, fmt.Errorf("welch: sample %d is not finite (%v)", i, y[i])
	}
	l := opt.SegmentLength
	if l == 0 {
		l = defaultSegmentLength(n)
	}
	if l < 2 || l > n {
		return PowerSpectralDensity{}, fmt.Errorf("welch: segment length %d must be in [2, %d]", l, n)
	}
	if opt.Overlap < 0 || opt.Overlap > 0.95 || math.IsNaN(opt.Overlap) {
		return PowerSpectralDensity{}, fmt.Errorf("welch: overlap %g must be in [0, 0.95]", opt.Overlap)
	}
	overlap := int(math.Floor(opt.Overlap * float64(l)))
	step := l - overlap
	win, err := opt.Window.coefficients(l)
	if err != nil {
		return PowerSpectralDensity{}, fmt.Errorf("welch: %w", err)
	}
	sumW2 := 0.0
	for _, v := range win {
		sumW2 += v * v
	}
	fs := 1 / dt
	tr := newRealTransform(l)
	seg := make([]float64, l)
	coef := make([]complex128, l/2+1)
	acc := make([]float64, l/2+1)
	segments := 0
	for start := 0; start+l <= n; start += step {
		if err := detrendInto(seg, y[start:start+l], opt.Detrend); err != nil {
			return PowerSpectralDensity{}, fmt.Errorf("welch: %w", err)
		}
		for i := range seg {
			seg[i] *= win[i]
		}
		tr.coefficients(coef, seg)
		for k, c := range coef {
			acc[k] += real(c)*real(c) + imag(c)*imag(c)
		}
		segments++
	}
	psd := PowerSpectralDensity{
		Frequency:     make([]float64, len(acc)),
		Density:       make([]float64, len(acc)),
		Resolution:    fs / float64(l),
		SegmentLength: l,
		Segments:      segments,
		Overlap:       overlap,
		Window:        opt.Window.String(),
		Detrend:       opt.Detrend.String(),
	}
	scale := 1 / (fs * sumW2 * float64(segments))
	for k, v := range acc {
		p := v * scale
		if k > 0 && !(l%2 == 0 && k == l/2) {
			p *= 2
		}
		psd.Frequency[k] = float64(k) * psd.Resolution
		psd.Density[k] = p
	}
	return psd, nil
}

// ChannelWelch is Welch of a named channel over a window.
func ChannelWelch(rec *Record, name string, w Window, opt WelchOptions) (PowerSpectralDensity, error) {
	y, dt, err := channelWindow(rec, name, w)
	if err != nil {
		return PowerSpectralDensity{}, fmt.Errorf("welch: %w", err)
	}
	p, err := Welch(y, dt, opt)
	if err != nil {
		return PowerSpectralDensity{}, fmt.Errorf("channel %q: %w", name, err)
	}
	return p, nil
}

func defaultSegmentLength(n int) int {
	if n < 256 {
		return n
	}
	l := 1
	for 2*l <= n/4 {
		l *= 2
	}
	return l
}

// Variance integrates the density: Σ Density·Resolution (rectangle rule on
// the bin grid, which is what Parseval's theorem sums).
func (p PowerSpectralDensity) Variance() float64 {
	s := 0.0
	for _, v := range p.Density {
		s += v
	}
	return s * p.Resolution
}

// Harmonic is a rotor harmonic nP: n times the rotational frequency.
type Harmonic struct {
	Label     string  `json:"label"` // "1P", "3P", ...
	Order     int     `json:"order"`
	Frequency float64 `json:"frequency"` // Hz
}

// RotorHarmonics returns the nP frequencies for the mean rotor speed in rpm
// (f_1P = Ω/60 Hz). Without orders it returns 1P, 3P and 6P: the
// once-per-revolution (imbalance, shear seen by one blade), the blade-passing
// frequency of a three-bladed rotor and its first multiple.
func RotorHarmonics(meanRotorSpeedRPM float64, orders ...int) ([]Harmonic, error) {
	if math.IsNaN(meanRotorSpeedRPM) || math.IsInf(meanRotorSpeedRPM, 0) {
		return nil, fmt.Errorf("rotor harmonics: rotor speed %v is not finite", meanRotorSpeedRPM)
	}
	if len(orders) == 0 {
		orders = []int{1, 3, 6}
	}
	f1 := math.Abs(meanRotorSpeedRPM) / 60
	out := make([]Harmonic, len(orders))
	for i, o := range orders {
		if o < 1 {
			return nil, fmt.Errorf("rotor harmonics: order %d must be at least 1", o)
		}
		out[i] = Harmonic{Label: fmt.Sprintf("%dP", o), Order: o, Frequency: float64(o) * f1}
	}
	return out, nil
}

// ChannelHarmonics returns the rotor harmonics for the mean of a rotor-speed
// channel in rpm (OpenFAST RotSpeed) over the window.
func ChannelHarmonics(rec *Record, rotorSpeed string, w Window, orders ...int) ([]Harmonic, error) {
	st, err := Statistics(rec, []string{rotorSpeed}, w)
	if err != nil {
		return nil, fmt.Errorf("rotor harmonics: %w", err)
	}
	return RotorHarmonics(st[0].Mean, orders...)
}
