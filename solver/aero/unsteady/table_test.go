package unsteady

import (
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/deck"
)

func TestTablePolarLinear(t *testing.T) {
	tab := &deck.AirfoilTable{Alpha: []float64{-10, 0, 10}, Cl: []float64{-1, 0.2, 1.2}, Cd: []float64{0.02, 0.01, 0.03}}
	p, err := NewTablePolar(tab)
	if err != nil {
		t.Fatal(err)
	}
	// Hand values: at 5°, halfway between rows 2 and 3.
	cl, cd, cm := p.Static(5 * deg)
	if math.Abs(cl-0.7) > 1e-12 || math.Abs(cd-0.02) > 1e-12 || cm != 0 {
		t.Errorf("Static(5°) = %g %g %g, want 0.7 0.02 0", cl, cd, cm)
	}
	// End values held; 370° wraps to 10°.
	if cl, _, _ := p.Static(-40 * deg); cl != -1 {
		t.Errorf("below table: %g", cl)
	}
	if cl, _, _ := p.Static(370 * deg); math.Abs(cl-1.2) > 1e-12 {
		t.Errorf("wrapped 370°: %g", cl)
	}
	if _, err := NewTablePolar(&deck.AirfoilTable{Alpha: []float64{0, 0}, Cl: []float64{0, 0}, Cd: []float64{0, 0}}); err == nil {
		t.Error("non-increasing alpha accepted")
	}
}
