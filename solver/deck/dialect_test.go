package deck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// dropLines removes the lines labelled with any of names from a file.
func dropLines(t *testing.T, file string, names ...string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	drop := map[string]bool{}
	for _, n := range names {
		drop[normName(n)] = true
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && drop[normName(f[1])] {
			continue
		}
		kept = append(kept, l)
	}
	if err := os.WriteFile(file, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A v4.x-style deck (the v5 lines removed, values at their v5 defaults)
// must load to the same structures as the v5 deck, and be detected as v4.
func TestV4DialectLoadsLikeV5(t *testing.T) {
	d5 := loadShared(t, sharedDecks[5]) // v5 syntax, written by the OpenFAST team
	dir := t.TempDir()
	p, err := Write(dir, d5)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(p)
	dropLines(t, p, "ModCoupling", "RhoInf", "ConvTol", "MaxConvIter", "NRotors", "MirrorRotor", "CompSoil", "SoilFile")
	dropLines(t, filepath.Join(root, "onshore", "ElastoDyn.dat"), "PitchDOF", "PtfmRefxt", "PtfmRefyt", "PBrIner(1)", "PBrIner(2)", "PBrIner(3)",
		"BlPIner(1)", "BlPIner(2)", "BlPIner(3)", "HubIner_Teeter", "PtfmXYIner", "PtfmYZIner", "PtfmXZIner")
	dropLines(t, filepath.Join(root, "onshore", "AeroDyn.dat"), "SectAvg", "SectAvgWeighting", "SectAvgNPoints", "SectAvgPsiBwd", "SectAvgPsiFwd", "NacArea", "NacCd", "NacDragAC")
	d4, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	det := DetectDeck(d4)
	if det.Dialect != DialectV4 {
		t.Errorf("dialect %s, want v4; files %+v", det.Dialect, det.Files)
	}
	// the dropped lines took their v5 defaults, which the v5 deck also has
	// except for values set away from the default in that deck
	d5.ElastoDyn.PBrIner, d5.ElastoDyn.BlPIner = [3]float64{}, [3]float64{}
	if s := diff("Deck", reflect.ValueOf(d5), reflect.ValueOf(d4)); s != "" {
		t.Errorf("v4 deck differs from v5 deck at %s", s)
	}
	for _, n := range []string{"ModCoupling", "NRotors"} {
		found := false
		for _, a := range d4.Main.Meta.Absent {
			found = found || a == n
		}
		if !found {
			t.Errorf("%s not listed as absent: %v", n, d4.Main.Meta.Absent)
		}
	}
}
