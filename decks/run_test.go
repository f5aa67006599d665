package decks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testshared"
)

// A warning whose variable the file does not hold (the default was taken)
// has no line to name: the IEA 15 MW monopile deck, in the pre-v4 layout
// without CompSeaSt, is "file: CompSeaSt: message", never "file:0: ...".
// Files are relative to the folder given, also when the main file lies in
// a subfolder. (Warnings with a line: handlers/deck_warnings_test.go.)
func TestLoadRunnableDeckWarningLocations(t *testing.T) {
	dir := testshared.Path(t, "reference-decks", "IEA-15-240-RWT")
	const entry = "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst"
	testshared.Path(t, "reference-decks", "IEA-15-240-RWT", filepath.FromSlash(entry))
	_, warnings, err := decks.LoadRunnableDeck(dir, entry)
	if err != nil {
		t.Fatal(err)
	}
	const seaState = entry + ": CompSeaSt: HydroDyn is on without SeaState"
	found := 0
	for _, w := range warnings {
		if strings.Contains(w, ":0:") {
			t.Errorf("warning %q names line 0", w)
		}
		if strings.HasPrefix(w, seaState) {
			found++
		}
	}
	if found != 1 {
		t.Fatalf("warnings %q: want one starting %q", warnings, seaState)
	}
}
