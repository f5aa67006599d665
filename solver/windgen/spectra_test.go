package windgen

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// welch accumulates Welch averaged auto- and cross-spectra of pairs of
// series (50 % overlapping segments), written for the tests independently of
// the synthesis. Spectra are one-sided, in units²/Hz.
type welch struct {
	nseg   int
	dt     float64
	window []float64
	wss    float64 // Σ w²
	fft    *fourier.FFT
	count  int
	sxx    []float64
	syy    []float64
	sxy    []complex128
}

// newWelch prepares segments of nseg samples with a Hann window, or a
// boxcar window when boxcar is set.
func newWelch(nseg int, dt float64, boxcar bool) *welch {
	w := &welch{nseg: nseg, dt: dt, fft: fourier.NewFFT(nseg)}
	w.window = make([]float64, nseg)
	for i := range w.window {
		w.window[i] = 1
		if !boxcar {
			w.window[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(nseg))
		}
		w.wss += w.window[i] * w.window[i]
	}
	nf := nseg/2 + 1
	w.sxx = make([]float64, nf)
	w.syy = make([]float64, nf)
	w.sxy = make([]complex128, nf)
	return w
}

// add accumulates the segments of x and y (y may equal x).
func (w *welch) add(x, y []float64) {
	bx := make([]float64, w.nseg)
	by := make([]float64, w.nseg)
	for start := 0; start+w.nseg <= len(x); start += w.nseg / 2 {
		mx, my := 0.0, 0.0
		for i := range w.nseg {
			mx += x[start+i]
			my += y[start+i]
		}
		mx /= float64(w.nseg)
		my /= float64(w.nseg)
		for i := range w.nseg {
			bx[i] = (x[start+i] - mx) * w.window[i]
			by[i] = (y[start+i] - my) * w.window[i]
		}
		cx := w.fft.Coefficients(nil, bx)
		cy := w.fft.Coefficients(nil, by)
		for k := range cx {
			w.sxx[k] += real(cx[k] * cmplx.Conj(cx[k]))
			w.syy[k] += real(cy[k] * cmplx.Conj(cy[k]))
			w.sxy[k] += cx[k] * cmplx.Conj(cy[k])
		}
		w.count++
	}
}

// freq is the frequency of bin k [Hz].
func (w *welch) freq(k int) float64 { return float64(k) / (float64(w.nseg) * w.dt) }

// psdX is the averaged one-sided PSD of x at bin k (0 < k < nseg/2).
func (w *welch) psdX(k int) float64 {
	return 2 * w.sxx[k] * w.dt / (w.wss * float64(w.count))
}

// msc is the magnitude-squared coherence of x and y at bin k.
func (w *welch) msc(k int) float64 {
	a := cmplx.Abs(w.sxy[k])
	return a * a / (w.sxx[k] * w.syy[k])
}

func toFloat64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
