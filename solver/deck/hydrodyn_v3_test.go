package deck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// TestHydroDynTypedV3 reads the published v3-layout HydroDyn files (member
// tables without MSecGeom/MHstLMod, NPropSets, NCoefDpth) into the typed
// structure.
func TestHydroDynTypedV3(t *testing.T) {
	root := testshared.Path(t, "reference-decks")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".dat" && filepath.Base(filepath.Dir(p)) != "" && containsFold(filepath.Base(p), "HydroDyn") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no HydroDyn files in reference-decks")
	}
	for _, f := range files {
		g, err := ReadGeneric(f, "HydroDyn")
		if err != nil {
			t.Fatal(err)
		}
		h, err := g.HydroDyn()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		t.Logf("%s: PotMod %d, %d joints, %d members, %d prop sets", filepath.Base(f), h.PotMod, len(h.Joints), len(h.Members), len(h.PropSets))
	}
}
