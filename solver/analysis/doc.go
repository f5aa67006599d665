// Package analysis post-processes simulation outputs held in memory as
// columnar channel data: one time vector plus one []float64 per channel.
//
// It has no I/O, HTTP or database code; callers (the result endpoints, batch
// jobs) read .outb/.out files with solver/outfile and hand the columns here.
//
// What it computes, and the conventions used (with their public sources):
//
//   - Statistics per channel over a time window: min, max (with their
//     times), mean, population standard deviation, skewness and Pearson
//     kurtosis (3 for a Gaussian). Population moments (divide by N) are what
//     pCrunch's AeroelasticOutput reports (numpy std and scipy.stats.moment),
//     and for 10-min records of 10^4–10^5 samples the N−1 correction is
//     immaterial; the sample standard deviation is also returned for callers
//     who need the unbiased estimator of the variance.
//   - Downsampling for plots: every k-th sample, and a min/max envelope per
//     bucket that keeps every peak.
//   - Spectra: single-sided amplitude spectrum (FFT), Welch power spectral
//     density (one-sided density, ∫PSD df = variance), rotor harmonics nP.
//   - Fatigue: ASTM E1049-85 §5.4.4 rainflow counting, short-term
//     damage-equivalent loads (DEL, optionally Goodman-corrected) and the
//     damage-consistent lifetime DEL over a batch weighted by a Weibull or
//     Rayleigh wind-speed distribution, with start-up and shut-down damage
//     added per event from events per year (LifetimeFatigue).
//   - Load spectra: rainflow Markov matrices (range × mean) and load-duration
//     and load-revolution distributions, per record and over a batch's
//     lifetime with the lifetime DEL's weights and its start-up and
//     shut-down events counted per event (LifetimeMarkovMatrix,
//     LifetimeLoadDuration in loadspectra.go).
//   - Extremes: max/min per channel over a batch with time, run and
//     concurrent values of other channels; partial safety factors per DLC.
//   - Extrapolation: extreme loads extrapolated to a return period (IEC
//     61400-1 Annex F; DLC 1.1's 50-year load): a Gumbel per wind-speed bin
//     of the runs' 10-min maxima, summed over the bins with the wind
//     distribution's probabilities (extrapolation.go).
//   - Batch curves: power, thrust, Cp, Ct, pitch and rotor speed binned by
//     mean wind speed (IEC 61400-12-1 0.5 m/s bins or the batch's own grid)
//     and the annual energy production (IEC 61400-12-1 bin sum).
//
// Bad input (empty or mismatched columns, non-finite samples, a window with no
// samples) returns an error naming the channel and what is wrong; nothing here
// panics on user data.
package analysis
