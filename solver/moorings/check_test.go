package moorings

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// The floating reference deck passes Check; the same deck with a rod in its
// MoorDyn file, an unknown output channel or FEAMooring is refused with
// the file, the line and the option, wrapping deck.ErrNotRun.
func TestCheckRefusesWhatIsNotRun(t *testing.T) {
	fst := testshared.Path(t, "reference-outputs", "iea15_semi_decay_pitch", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst")
	d, err := deck.Load(fst)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(d); err != nil {
		t.Fatalf("reference deck refused: %v", err)
	}
	orig, err := os.ReadFile(d.Offshore.Mooring.Meta.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, from, to, variable string
		line                     int
	}{
		{"rod", "---------------------- POINTS", "---------------------- RODS ----\n---------------------- POINTS", "RODS", 8},
		{"channel", "FairTen3", "Body1Px", "Body1Px", 34},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := editedGeneric(t, orig, c.from, c.to, "MoorDyn")
			p := g.Meta.Path
			d.Offshore.Mooring = g
			err := Check(d)
			var e *deck.Error
			if !errors.As(err, &e) || !errors.Is(err, deck.ErrNotRun) || e.Line != c.line || e.Variable != c.variable || e.File != p {
				t.Errorf("got %v (want %s:%d %s, not run)", err, p, c.line, c.variable)
			}
		})
	}
	d.Main.CompMooring = 2
	if err := Check(d); !errors.Is(err, deck.ErrNotRun) || !strings.Contains(err.Error(), "CompMooring") {
		t.Errorf("FEAMooring: %v", err)
	}
}

// The published IEA 15 MW semi's MAP++ file (one line, repeated at 120° and
// 240°) gives three symmetric catenaries: no net sway force or yaw moment,
// and fairlead tensions within 1 % of the MoorDyn file's lines (its anchors
// sit 0.2 m further out and its seabed friction is CB = 1).
func TestQuasiStaticFromMAPFile(t *testing.T) {
	dir := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi")
	g, err := deck.ReadGeneric(filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi_MAP.dat"), "MAP++")
	if err != nil {
		t.Fatal(err)
	}
	m, err := g.MAP()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := QuasiStaticFromMAP(m, semiEnv, [3]float64{})
	if err != nil {
		t.Fatal(err)
	}
	l, lf, err := qs.Loads(Motion{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lf) != 3 {
		t.Fatalf("%d lines", len(lf))
	}
	if a := qs.lines[1].anchor; math.Abs(a[0]-418.9) > 1e-3 || math.Abs(math.Abs(a[1])-725.56) > 0.01 || a[2] != -200 {
		t.Errorf("repeated anchor at %v", a)
	}
	if math.Abs(l.Force[1]) > 1 || math.Abs(l.Moment[2]) > 100 || math.Abs(l.Force[0]) > 1 {
		t.Errorf("asymmetric loads %v", l)
	}
	ref, _ := QuasiStaticFromMoorDyn(semiMoorDyn(3, 50), semiEnv, [3]float64{})
	_, lr, _ := ref.Loads(Motion{})
	for i := range lf {
		t.Logf("line %d: MAP++ file %.6g N, MoorDyn file %.6g N", i+1, lf[i].Tension(), lr[0].Tension())
		if rel(lf[i].Tension(), lr[0].Tension()) > 0.01 {
			t.Errorf("line %d fairlead tension %.6g N, MoorDyn geometry %.6g N", i+1, lf[i].Tension(), lr[0].Tension())
		}
	}
}

// A mooring system too large to run in a job's limits is refused at the
// line that crosses MaxSegments.
func TestTooManySegmentsRefused(t *testing.T) {
	md := semiMoorDyn(3, 50)
	md.Lines[2].NumSegs = MaxSegments
	md.Lines[2].Line = 42
	_, err := New(md, semiEnv, [3]float64{})
	var e *deck.Error
	if !errors.As(err, &e) || e.Line != 42 || !errors.Is(err, deck.ErrNotRun) {
		t.Errorf("got %v", err)
	}
}

// With CompMooring = 1 the MAP++ file is checked: the published one
// passes; a fairlead straight above its anchor (no catenary) and a connect
// node are refused.
func TestCheckMAP(t *testing.T) {
	d, _, _ := decayCase(t)
	d.Main.CompMooring = 1
	mapPath := testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi_MAP.dat")
	orig, err := os.ReadFile(mapPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"", "", true},
		{"2   Vessel   -58.000", "2   Vessel   -837.800", false},
		{"2   Vessel", "2   Connect", false},
	} {
		d.Offshore.Mooring = editedGeneric(t, orig, c.from, c.to, "MAP++")
		if err := Check(d); (err == nil) != c.ok {
			t.Errorf("%q → %q: Check = %v", c.from, c.to, err)
		}
	}
}

// editedGeneric writes orig with from replaced by to into a temporary file
// and reads it back as a module file of the given kind.
func editedGeneric(t *testing.T, orig []byte, from, to, kind string) *deck.Generic {
	t.Helper()
	p := filepath.Join(t.TempDir(), "mooring.dat")
	if err := os.WriteFile(p, []byte(strings.Replace(string(orig), from, to, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := deck.ReadGeneric(p, kind)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
