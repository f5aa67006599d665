package deck

import (
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// sharedDecks lists the primary files of the reference decks.
var sharedDecks = [][]string{
	{"reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"},
	{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"},
	{"reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"},
	{"reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT-Monopile.fst"},
	{"reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Semi", "IEA-22-280-RWT-Semi.fst"},
	{"reference-outputs", "nrel5mw_steady8_full", "Main_Onshore.fst"},
	{"reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore.fst"},
}

func loadShared(t *testing.T, elem []string) *Deck {
	t.Helper()
	p := testshared.Path(t, elem...)
	d, err := Load(p)
	if err != nil {
		t.Fatalf("Load(%s): %v", filepath.Base(p), err)
	}
	return d
}

func TestLoadSharedDecks(t *testing.T) {
	for _, elem := range sharedDecks {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			ed := d.ElastoDyn
			t.Logf("NumBl=%d TipRad=%g TowerHt=%g blades=%d stations=%d tower stations=%d", ed.NumBl, ed.TipRad, ed.TowerHt, len(ed.Blades), ed.Blades[0].NBlInpSt, ed.Tower.NTwInpSt)
			if d.AeroDyn != nil {
				t.Logf("AD Wake_Mod=%d DBEMT=%d UA=%d Skew=%d airfoils=%d nodes=%d legacy=%v", d.AeroDyn.Wake_Mod, d.AeroDyn.DBEMT_Mod, d.AeroDyn.UA_Mod, d.AeroDyn.Skew_Mod, len(d.AeroDyn.Airfoils), d.AeroDyn.Blades[0].NumBlNds, d.AeroDyn.Meta.Legacy)
			}
			t.Logf("absent main=%v ed=%v", d.Main.Meta.Absent, ed.Meta.Absent)
		})
	}
}
