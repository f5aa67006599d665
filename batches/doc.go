// Package batches expands and submits batches of runs of a stored turbine:
// a design load basis of IEC 61400-1 design load cases (dlc.go, with the
// run recipe each job's child process applies, recipe.go) and a parametric
// sweep of one deck value (parametric.go). The batch and its jobs are
// stored by the BatchService (package db).
package batches
