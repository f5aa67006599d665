package deck

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestSummarize(t *testing.T) {
	d := loadShared(t, sharedDecks[0])
	s, err := Summarize(d)
	if err != nil {
		t.Fatal(err)
	}
	// NREL 5 MW: 126 m rotor, 90 m hub height (Jonkman et al. 2009, Table 1-1)
	if s.RotorDiameter != 126 || math.Abs(s.HubHeight-90) > 0.01 || s.ShaftTilt != -5 || s.PreCone != -2.5 || s.NumBl != 3 || s.Offshore {
		t.Errorf("%+v", s)
	}
	d = loadShared(t, sharedDecks[1])
	s, _ = Summarize(d)
	// IEA 15 MW: 240 m rotor, 150 m hub height, 15 MW (Gaertner et al. 2020)
	if math.Abs(s.RotorDiameter-241.94) > 0.01 || math.Abs(s.HubHeight-150) > 0.1 || s.RatedPower != 15e6 || !s.Offshore {
		t.Errorf("%+v", s)
	}
}

func TestFindMainFST(t *testing.T) {
	d := loadShared(t, sharedDecks[1])
	root := t.TempDir()
	p, err := Write(root, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FindMainFST(root)
	if err != nil || got != p {
		t.Fatalf("FindMainFST = %q, %v; want %q", got, err, p)
	}
	// a second, broken .fst deeper down does not confuse it
	extra := filepath.Join(root, "IEA-15-240-RWT", "old", "copy.fst")
	if err := os.MkdirAll(filepath.Dir(extra), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(extra, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := FindMainFST(root); err != nil || got != p {
		t.Fatalf("with a copy: %q, %v", got, err)
	}
	if _, err := FindMainFST(t.TempDir()); err == nil {
		t.Error("empty directory: want an error")
	}
}
