package deck

import (
	"errors"
	"strings"
	"testing"
)

const mapSample = `---------------------- LINE DICTIONARY ---------------------------------------
LineType     Diam     MassDenInAir    EA        CB   CIntDamp  Ca   Cdn  Cdt
(-)          (m)      (kg/m)         (N)       (-)   (Pa-s)   (-)  (-)  (-)
main        0.333     685.00      3.27E+09     1.0    0        0    0    0
---------------------- NODE PROPERTIES ---------------------------------------
Node Type       X        Y        Z      M     B     FX    FY    FZ
(-)  (-)       (m)      (m)      (m)    (kg)  (m^3)  (N)   (N)   (N)
1   fix     -837.800     0.0     depth    0    0      0     0     0
2   Vessel   -58.000     0.0   -14.000    0    0      0     0     0
---------------------- LINE PROPERTIES ---------------------------------------
Line   LineType  UnstrLen    NodeAnch  NodeFair  Flags
(-)      (-)       (m)         (-)       (-)       (-)
1       main     850.00        1         2
---------------------- SOLVER OPTIONS-----------------------------------------
Option
(-)
help
outer_tol 1e-5
repeat 120 240
`

func mapFrom(t *testing.T, text string) (*MAPFile, error) {
	t.Helper()
	src, err := sourceFromBytes("map.dat", []byte(text), false)
	if err != nil {
		t.Fatal(err)
	}
	return parseGeneric(src, "MAP++").MAP()
}

func TestMAPReads(t *testing.T) {
	m, err := mapFrom(t, mapSample)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.LineTypes) != 1 || m.LineTypes[0].CB != 1 || m.LineTypes[0].EA != 3.27e9 {
		t.Errorf("types %+v", m.LineTypes)
	}
	if len(m.Nodes) != 2 || !m.Nodes[0].ZDepth || m.Nodes[0].X != -837.8 || m.Nodes[1].Type != "vessel" || m.Nodes[1].Z != -14 {
		t.Errorf("nodes %+v", m.Nodes)
	}
	if len(m.Lines) != 1 || m.Lines[0].NodeAnch != 1 || m.Lines[0].UnstrLen != 850 {
		t.Errorf("lines %+v", m.Lines)
	}
	if len(m.Repeat) != 2 || m.Repeat[1] != 240 || m.RepeatLine != 19 {
		t.Errorf("repeat %v at %d", m.Repeat, m.RepeatLine)
	}
	for _, c := range []struct {
		from, to string
		line     int
		notRun   bool
	}{
		{"2   Vessel", "2   Connect", 9, true},
		{"850.00        1         2", "850.00        1         2   tension_fair", 13, true},
		{"help", "lm_model", 17, true},
		{"main     850.00", "chain     850.00", 13, false},
		{"3.27E+09", "abc", 4, false},
	} {
		_, err := mapFrom(t, strings.Replace(mapSample, c.from, c.to, 1))
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || errors.Is(err, ErrNotRun) != c.notRun {
			t.Errorf("%q → %q: %v (want line %d, not-run %v)", c.from, c.to, err, c.line, c.notRun)
		}
	}
}

// The published IEA 15 MW semi deck ships a MAP++ file beside its MoorDyn one.
func TestMAPSharedDeck(t *testing.T) {
	d := loadShared(t, sharedDecks[2])
	src, err := readSource(strings.TrimSuffix(d.Path, ".fst")+"_MAP.dat", false)
	if err != nil {
		t.Skipf("no MAP++ file: %v", err)
	}
	m, err := parseGeneric(src, "MAP++").MAP()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Lines) != 1 || len(m.Repeat) != 2 {
		t.Errorf("lines %d repeat %v", len(m.Lines), m.Repeat)
	}
}
