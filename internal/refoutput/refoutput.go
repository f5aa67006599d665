// Package refoutput reads OpenFAST reference outputs (../shared) for tests
// that compare the solver's operating points with them. It is separate from
// testshared because the file-format packages' own tests use testshared and
// cannot import a package that imports them.
package refoutput

import (
	"testing"

	"github.com/turbinesim/turbinesim/solver/outfile"
)

// Means reads an OpenFAST .outb and returns the named channels' means over
// t ≥ from; a read error or a missing channel fails the test.
func Means(tb testing.TB, path string, from float64, names ...string) []float64 {
	tb.Helper()
	f, err := outfile.ReadOutbFile(path)
	if err == nil {
		var means []float64
		if means, err = f.MeansFrom(from, names...); err == nil {
			return means
		}
	}
	tb.Fatalf("%s: %v", path, err)
	return nil
}
