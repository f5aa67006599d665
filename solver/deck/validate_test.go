package deck

import (
	"path/filepath"
	"strings"
	"testing"
)

func filepathBase(p string) string { return filepath.Base(p) }

// Runs Validate and Detect on every shared deck and prints the findings;
// published decks may carry defects, which are reported, never fixed.
func TestValidateSharedDecks(t *testing.T) {
	for _, elem := range sharedDecks {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			for _, p := range Validate(d) {
				t.Log(p.String())
			}
			t.Log(DetectDeck(d).String())
		})
	}
}

// Deliberate inconsistencies must each be reported with file, line and variable.
func TestValidateFindsDefects(t *testing.T) {
	d := loadShared(t, sharedDecks[0])
	ad := d.AeroDyn
	bl := *ad.Blades[1] // copy so the other blades keep their table
	bl.BlAFID = append([]int(nil), bl.BlAFID...)
	bl.BlAFID[4] = 9 // only 8 airfoils
	bl.BlSpn = append([]float64(nil), bl.BlSpn...)
	bl.BlSpn[6] = bl.BlSpn[5] // not increasing
	ad.Blades[1] = &bl
	d.ElastoDyn.TowerHt = -1
	d.ElastoDyn.Method = 7
	d.Main.CompServo = 4
	d.InflowWind.NWindVel = 3
	d.ElastoDyn.DT = DefReal{Value: 0.003} // glue DT is 0.01
	ad.DTAero = DefReal{Value: 0.01}       // fine: equal to DT
	tw := *d.ElastoDyn.Tower
	tw.TwFAM1Sh[0] += 0.5
	d.ElastoDyn.Tower = &tw
	probs := Validate(d)
	want := []struct{ file, variable, text string }{
		{"NRELOffshrBsline5MW_AeroDyn_blade.dat", "BlAFID", "airfoil 9 outside 1..NumAFfiles=8"},
		{"NRELOffshrBsline5MW_AeroDyn_blade.dat", "BlSpn", "must increase strictly: row 7"},
		{"ElastoDyn.dat", "TowerHt", "must be above TowerBsHt"},
		{"ElastoDyn.dat", "Method", "value 7 not allowed"},
		{"ElastoDyn.dat", "DT", "does not divide the glue-code DT=0.01 s"},
		{"Main_Onshore.fst", "CompServo", "value 4 not allowed"},
		{"NRELOffshrBsline5MW_InflowWind_Steady8mps.dat", "WindVxiList", "NWindVel=3"},
		{"NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat", "TwFAM1Sh(2)", "add up to 1.5"},
	}
	for _, w := range want {
		found := false
		for _, p := range probs {
			if filepathBase(p.File) == w.file && p.Variable == w.variable && strings.Contains(p.Message, w.text) {
				found = true
				if p.Line == 0 && w.variable != "BlAFID" && w.variable != "BlSpn" {
					t.Errorf("%s %s: no line number", w.file, w.variable)
				}
			}
		}
		if !found {
			t.Errorf("missing problem %s %s %q; got:", w.file, w.variable, w.text)
			for _, p := range probs {
				t.Log(p)
			}
		}
	}
	for _, p := range probs {
		if p.Variable == "DTAero" {
			t.Errorf("DTAero equal to DT reported: %v", p)
		}
	}
	// the table problems point at the table header line
	for _, p := range probs {
		if p.Variable == "BlAFID" && p.Line != 5 {
			t.Errorf("BlAFID problem at line %d, expected the header line 5", p.Line)
		}
	}
}
