package unsteady

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// TestConstantsForAllReferenceAirfoils converts every airfoil table of the
// shared reference decks (NREL 5MW, IEA-15, IEA-22), with or without a UA
// block, and builds a node from it; "default" entries must take the
// documented defaults and nothing may fail.
func TestConstantsForAllReferenceAirfoils(t *testing.T) {
	root := testshared.Path(t, "reference-decks")
	var files []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".dat") && strings.Contains(filepath.Base(filepath.Dir(p)), "Airfoils") {
			files = append(files, p)
		}
		return nil
	})
	n := 0
	for _, f := range files {
		a, err := deck.ReadAirfoil(f)
		if err != nil {
			continue // coordinate files and the like
		}
		for i := range a.Tables {
			tab := &a.Tables[i]
			polar, err := NewTablePolar(tab)
			if err != nil {
				t.Errorf("%s table %d: %v", f, i+1, err)
				continue
			}
			c, err := ConstantsFromTable(tab)
			if err != nil {
				t.Errorf("%s table %d: %v", f, i+1, err)
				continue
			}
			if tab.UA.UACutout.Default && c.UACutout != defUACutoutDeg*deg {
				t.Errorf("%s: default UACutout gave %g rad", f, c.UACutout)
			}
			if tab.UA.FiltCutOff.Default && c.FiltCutOff != defFiltCutOff {
				t.Errorf("%s: default filtCutOff gave %g", f, c.FiltCutOff)
			}
			node, err := NewNode(Params{DT: 0.01, FLookup: true}, c, polar, 3, tab.Cm != nil, true)
			if err != nil {
				t.Errorf("%s table %d: %v", f, i+1, err)
				continue
			}
			for k := 0; k < 20; k++ {
				in := Input{Alpha: float64(k-5) * 2 * deg, U: 50}
				if _, err := node.CalcOutput(in); err != nil {
					t.Errorf("%s: %v", f, err)
				}
				if err := node.UpdateStates(float64(k)*0.01, in, in); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			n++
		}
	}
	t.Logf("%d airfoil tables converted", n)
	if n < 8 {
		t.Errorf("only %d airfoil tables found", n)
	}
}
