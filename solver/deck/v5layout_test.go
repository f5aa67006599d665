package deck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// layout lists, line by line, what a file holds up to its first OutList:
// "----" for section lines, the variable name for value lines, "#" for
// table rows. ElastoDyn and the .fst are read by position in OpenFAST v5,
// so the written files must match the v5 files line for line.
func layout(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.EqualFold(f[0], "outlist") || len(f) > 1 && strings.EqualFold(f[1], "outlist") {
			break
		}
		tk := tokenize(stripComment(l))
		switch {
		case len(tk) == 0:
			continue
		case isSeparator(tk[0]):
			out = append(out, "----")
			continue
		}
		k := labelCandidates(tk)
		name := "#"
		switch {
		case k[0].pos == 1 && !isNumber(tk[1].Text):
			name = k[0].name
		case k[1].pos > 0:
			name = k[1].name
		case k[2].pos == 0 && len(tk) > 1 && tk[1].Text == "-":
			name = k[2].name
		}
		out = append(out, name)
	}
	return out
}

func TestWrittenFilesHaveV5Layout(t *testing.T) {
	cases := []struct {
		deck  []string
		ref   []string
		files [][2]string // written (relative to the written .fst), reference
	}{
		{sharedDecks[0], []string{"reference-outputs", "nrel5mw_steady8_full"}, [][2]string{
			{"Main_Onshore.fst", "Main_Onshore.fst"},
			{"onshore/ElastoDyn.dat", "onshore/ElastoDyn.dat"},
			{"onshore/AeroDyn.dat", "onshore/AeroDyn.dat"},
			{"onshore/ServoDyn_Simple.dat", "onshore/ServoDyn_Simple.dat"},
			{"5MW_Baseline/NRELOffshrBsline5MW_InflowWind_Steady8mps.dat", "5MW_Baseline/NRELOffshrBsline5MW_InflowWind_Steady8mps.dat"},
			{"5MW_Baseline/NRELOffshrBsline5MW_Blade.dat", "5MW_Baseline/NRELOffshrBsline5MW_Blade.dat"},
			{"5MW_Baseline/NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat", "5MW_Baseline/NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat"},
			{"5MW_Baseline/Airfoils/DU21_A17.dat", "5MW_Baseline/Airfoils/DU21_A17.dat"},
		}},
		{sharedDecks[1], []string{"reference-outputs", "iea15_onshore_steady10_rosco"}, [][2]string{
			{"IEA-15-240-RWT-Monopile_ElastoDyn.dat", "IEA-15-240-RWT-Onshore/IEA-15-240-RWT-Onshore_ElastoDyn.dat"},
			{"IEA-15-240-RWT-Monopile_AeroDyn15.dat", "IEA-15-240-RWT-Onshore/IEA-15-240-RWT-Onshore_AeroDyn15.dat"},
			{"IEA-15-240-RWT-Monopile_ServoDyn.dat", "IEA-15-240-RWT-Onshore/IEA-15-240-RWT-Onshore_ServoDyn.dat"},
			{"../IEA-15-240-RWT/IEA-15-240-RWT_InflowFile.dat", "IEA-15-240-RWT/IEA-15-240-RWT_InflowFile.dat"},
		}},
	}
	for _, c := range cases {
		d := loadShared(t, c.deck)
		ref := testshared.Path(t, c.ref...)
		p, err := Write(t.TempDir(), d)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.files {
			got := layout(t, filepath.Join(filepath.Dir(p), filepath.FromSlash(f[0])))
			want := layout(t, filepath.Join(ref, filepath.FromSlash(f[1])))
			if len(got) != len(want) {
				t.Errorf("%s: %d lines before OutList, v5 reference has %d", f[0], len(got), len(want))
			}
			for i := 0; i < len(got) && i < len(want); i++ {
				if got[i] != want[i] {
					t.Errorf("%s: line item %d is %q, v5 reference has %q", f[0], i+1, got[i], want[i])
					break
				}
			}
		}
	}
}
