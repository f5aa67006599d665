// Package results answers the analysis questions about finished jobs and
// batches: time series, statistics and spectra of a job (job.go), Markov
// matrices and load-duration distributions (spectra.go), power curves, AEP,
// damage-equivalent loads and extremes of a batch (batch.go), extrapolated
// extreme loads (extrapolation.go) and the certification report
// (report.go). It reads the outputs through outputs.ResultService and
// computes with solver/analysis.
package results
