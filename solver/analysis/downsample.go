package analysis

import (
	"errors"
	"fmt"
)

// Trace is one channel prepared for plotting: its own time axis (an envelope
// keeps each channel's peaks at their own instants) and values.
type Trace struct {
	Name   string    `json:"name"`
	Unit   string    `json:"unit,omitempty"`
	Time   []float64 `json:"time"`
	Values []float64 `json:"values"`
}

// Decimate keeps every k-th sample of the named channels (all when names is
// empty) inside the window, starting with the window's first sample. k = 1
// returns the window unchanged. It does not low-pass filter: it is for
// plotting, where aliasing of fast content is accepted; use Envelope when
// peaks must stay visible.
func Decimate(rec *Record, names []string, w Window, k int) ([]Trace, error) {
	if k < 1 {
		return nil, fmt.Errorf("decimate: factor %d must be at least 1", k)
	}
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("decimate: %w", err)
	}
	cols, err := selectColumns(rec, names)
	if err != nil {
		return nil, fmt.Errorf("decimate: %w", err)
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, fmt.Errorf("decimate: %w", err)
	}
	m := (hi - lo + k - 1) / k
	tm := make([]float64, 0, m)
	for i := lo; i < hi; i += k {
		tm = append(tm, rec.Time[i])
	}
	out := make([]Trace, len(cols))
	for j, c := range cols {
		v := make([]float64, 0, m)
		col := rec.Channels[c]
		for i := lo; i < hi; i += k {
			v = append(v, col[i])
		}
		// The time axis is shared between channels: it is never modified.
		out[j] = Trace{Name: rec.Names[c], Unit: rec.Unit(c), Time: tm, Values: v}
	}
	return out, nil
}

// Envelope reduces each named channel (all when names is empty) inside the
// window to at most 2·buckets points: the window is split into buckets of
// equal sample count and each bucket contributes its minimum and maximum, in
// the order they occur (one point when both are the same sample). Every
// global and local peak that is the extreme of its bucket survives, so a
// plotted envelope shows the true range of the signal, which every-k-th
// decimation does not. When the window holds no more than 2·buckets samples
// they are returned unchanged.
func Envelope(rec *Record, names []string, w Window, buckets int) ([]Trace, error) {
	if buckets < 1 {
		return nil, fmt.Errorf("envelope: bucket count %d must be at least 1", buckets)
	}
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("envelope: %w", err)
	}
	cols, err := selectColumns(rec, names)
	if err != nil {
		return nil, fmt.Errorf("envelope: %w", err)
	}
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, fmt.Errorf("envelope: %w", err)
	}
	out := make([]Trace, len(cols))
	for j, c := range cols {
		tm, v, err := envelopeOf(rec.Time[lo:hi], rec.Channels[c][lo:hi], buckets)
		if err != nil {
			return nil, fmt.Errorf("envelope of channel %q: %w", rec.Names[c], err)
		}
		out[j] = Trace{Name: rec.Names[c], Unit: rec.Unit(c), Time: tm, Values: v}
	}
	return out, nil
}

// envelopeOf is the min/max bucket reduction of one signal. Bucket b covers
// samples [b·n/buckets, (b+1)·n/buckets), so bucket sizes differ by at most one.
func envelopeOf(time, y []float64, buckets int) ([]float64, []float64, error) {
	n := len(y)
	if n == 0 {
		return nil, nil, errors.New("no samples")
	}
	if n <= 2*buckets {
		return append([]float64(nil), time...), append([]float64(nil), y...), nil
	}
	tm := make([]float64, 0, 2*buckets)
	v := make([]float64, 0, 2*buckets)
	for b := 0; b < buckets; b++ {
		first := b * n / buckets
		last := (b + 1) * n / buckets
		iMin, iMax := first, first
		for i := first + 1; i < last; i++ {
			if y[i] < y[iMin] {
				iMin = i
			} else if y[i] > y[iMax] {
				iMax = i
			}
		}
		if y[iMin] != y[iMin] || y[iMax] != y[iMax] {
			return nil, nil, fmt.Errorf("bucket starting at t = %g holds NaN", time[first])
		}
		a, c := iMin, iMax
		if c < a {
			a, c = c, a
		}
		tm = append(tm, time[a])
		v = append(v, y[a])
		if c != a {
			tm = append(tm, time[c])
			v = append(v, y[c])
		}
	}
	return tm, v, nil
}
