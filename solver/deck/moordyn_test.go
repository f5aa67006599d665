package deck

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const mdSample = `--------------------- MoorDyn Input File ------------------------------------
test file
FALSE    Echo      - echo the input file data (flag)
----------------------- LINE TYPES ------------------------------------------
Name  Diam  MassDen  EA       BA/-zeta  EI    Cd    Ca    CdAx   CaAx
(-)   (m)   (kg/m)   (N)      (N-s/-)   (-)   (-)   (-)   (-)    (-)
main  0.333  685.00  3.27E+09  -1.0      0    2.0   0.82  0.4    0.27
---------------------- POINTS --------------------------------
ID   Type      X         Y       Z       M    V    CdA   CA
(-)  (-)      (m)       (m)     (m)    (kg) (m^3) (m^2) (-)
1   Vessel  -58.000    0.000 -14.000     0    0    0    0
2   Fixed  -837.600    0.000 -200.000    0    0    0    0
3   Connect  -400    0.000 -150.000     1000    0.5    0    0
---------------------- LINES --------------------------------------
ID  LineType  AttachA   AttachB  UnstrLen  NumSegs  Outputs
(-)   (-)       (-)       (-)      (m)       (-)      (-)
1     main       2         3     450.00      20        -
2     main       3         1     400.00      20        pt
---------------------- SOLVER OPTIONS ---------------------------------------
0.002    dtM       - time step to use in mooring integration (s)
3.0e6    kbot      - bottom stiffness (Pa/m)
60.0     TmaxIC    - max time for ic gen (s)
4.0      CdScaleIC - factor
0.3      FrictionCoefficient - seabed friction
------------------------ OUTPUTS --------------------------------------------
FairTen1
AnchTen2, Con3fx
END
------------------------- need this line --------------------------------------
`

func mdFrom(t *testing.T, text string) (*MoorDyn, error) {
	t.Helper()
	src, err := sourceFromBytes("moor.dat", []byte(text), false)
	if err != nil {
		t.Fatal(err)
	}
	return parseGeneric(src, "MoorDyn").MoorDyn()
}

func TestMoorDynReadsV2Tables(t *testing.T) {
	md, err := mdFrom(t, mdSample)
	if err != nil {
		t.Fatal(err)
	}
	if len(md.LineTypes) != 1 || md.LineTypes[0].EA != 3.27e9 || md.LineTypes[0].BA != -1 || md.LineTypes[0].CaAx != 0.27 || md.LineTypes[0].Line != 7 {
		t.Errorf("line types %+v", md.LineTypes)
	}
	if len(md.Points) != 3 || md.Points[0].Attachment != MDVessel || md.Points[1].Attachment != MDFixed || md.Points[2].Attachment != MDFree ||
		md.Points[1].X != -837.6 || md.Points[2].M != 1000 || md.Points[2].V != 0.5 {
		t.Errorf("points %+v", md.Points)
	}
	if len(md.Lines) != 2 || md.Lines[1].AttachA != 3 || md.Lines[1].AttachB != 1 || md.Lines[1].UnstrLen != 400 || md.Lines[1].NumSegs != 20 || md.Lines[1].Line != 18 {
		t.Errorf("lines %+v", md.Lines)
	}
	o := md.Options
	if o.DtM != 0.002 || o.KBot != 3e6 || o.CBot != 3e5 || o.TmaxIC != 60 || o.CdScaleIC != 4 || o.ThreshIC != 0.001 || o.MuKT != 0.3 || o.MuKA != 0.3 {
		t.Errorf("options %+v", o)
	}
	if !o.Has("dtm") || o.Has("cbot") || o.Set["tmaxic"] != 22 {
		t.Errorf("Set = %v", o.Set)
	}
	var names []string
	for _, out := range md.Outputs {
		names = append(names, out.Name)
	}
	if strings.Join(names, " ") != "FairTen1 AnchTen2 Con3fx" {
		t.Errorf("outputs %v", names)
	}
}

// What OpenFAST runs but this solver does not is refused with the line and
// the table or option, wrapping ErrNotRun; malformed input is an error
// without it.
func TestMoorDynRefusals(t *testing.T) {
	cases := []struct {
		name, from, to string
		line           int
		variable       string
		notRun         bool
	}{
		{"rods", "---------------------- POINTS", "---------------------- RODS ----\nID RodType\n(-) (-)\n---------------------- POINTS", 8, "RODS", true},
		{"bodies", "---------------------- POINTS", "---------------------- BODIES ----\n---------------------- POINTS", 8, "BODIES", true},
		{"bending", "-1.0      0    2.0", "-1.0      5e3    2.0", 7, "LINE TYPES EI", true},
		{"body point", "1   Vessel", "1   Body1", 11, "POINTS Attachment", true},
		{"wave kinematics", "3.0e6    kbot", "1 WaveKin\n3.0e6    kbot", 21, "WaveKin", true},
		{"unknown option", "3.0e6    kbot", "7 Frobnicate\n3.0e6    kbot", 21, "Frobnicate", true},
		{"time scheme", "3.0e6    kbot", "RK4 tScheme\n3.0e6    kbot", 21, "tScheme", true},
		{"undefined point", "1     main       2         3", "1     main       2         9", 17, "LINES", false},
		{"undefined type", "2     main       3", "2     chain       3", 18, "LINES LineType", false},
		{"bad number", "3.27E+09", "3.27Q+09", 7, "LINES TYPES", false},
		{"bad dtM", "0.002    dtM", "0    dtM", 20, "dtM", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(mdSample, c.from, c.to, 1)
			if text == mdSample {
				t.Fatalf("replacement %q not applied", c.from)
			}
			_, err := mdFrom(t, text)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Line != c.line || (c.variable != "LINES TYPES" && e.Variable != c.variable) {
				t.Errorf("error at line %d variable %q, want %d %q: %v", e.Line, e.Variable, c.line, c.variable, err)
			}
			if errors.Is(err, ErrNotRun) != c.notRun {
				t.Errorf("errors.Is(ErrNotRun) = %v, want %v: %v", !c.notRun, c.notRun, err)
			}
		})
	}
	if _, err := mdFrom(t, strings.Replace(mdSample, "main  0.333", "1 NTypes\nmain  0.333", 1)); err == nil {
		t.Error("table starting with a count row accepted")
	}
}

// The floating reference decks' MoorDyn files read (IEA 15 MW and 22 MW semis).
func TestMoorDynSharedDecks(t *testing.T) {
	for _, elem := range [][]string{sharedDecks[2], sharedDecks[4]} {
		t.Run(elem[len(elem)-1], func(t *testing.T) {
			d := loadShared(t, elem)
			if d.Offshore.MooringKind != "MoorDyn" || d.Offshore.Mooring == nil {
				t.Fatalf("mooring kind %q", d.Offshore.MooringKind)
			}
			md, err := d.Offshore.Mooring.MoorDyn()
			if err != nil {
				t.Fatal(err)
			}
			if len(md.Lines) != 3 || len(md.Points) != 6 || md.Lines[0].NumSegs != 50 || md.Options.DtM != 0.001 {
				t.Errorf("lines %d points %d segs %d dtM %g", len(md.Lines), len(md.Points), md.Lines[0].NumSegs, md.Options.DtM)
			}
		})
	}
}

// Validate reports a malformed MoorDyn file (here a line attached to an
// undefined point) with its file and line, and nothing for the reference
// deck.
func TestValidateReportsMalformedMoorDyn(t *testing.T) {
	d := loadShared(t, sharedDecks[2])
	for _, p := range Validate(d) {
		if p.File == d.Offshore.Mooring.Meta.Path && !p.Warning {
			t.Errorf("reference MoorDyn file reported: %v", p)
		}
	}
	src := d.Offshore.Mooring.Meta.Src
	for i := range src.Lines {
		if strings.HasPrefix(strings.TrimSpace(src.Lines[i].Raw), "2     main") {
			bad := strings.Replace(src.Lines[i].Raw, "2     main       4", "2     main       9", 1)
			if bad == src.Lines[i].Raw {
				t.Fatalf("line 2 of LINES not as expected: %q", bad)
			}
			b := []byte{}
			for j := range src.Lines {
				raw := src.Lines[j].Raw
				if j == i {
					raw = bad
				}
				b = append(b, raw+"\n"...)
			}
			s2, err := sourceFromBytes(src.Path, b, false)
			if err != nil {
				t.Fatal(err)
			}
			d.Offshore.Mooring = parseGeneric(s2, "MoorDyn")
			for _, p := range Validate(d) {
				if p.File == src.Path && p.Line == src.Lines[i].Num && !p.Warning {
					return
				}
			}
			t.Fatalf("undefined point 9 at line %d not reported: %v", src.Lines[i].Num, Validate(d))
		}
	}
	t.Fatal("LINES row 2 not found")
}

// Section separators without their names (as a deck stored as words
// writes them back) are read by the table header that follows, with a
// warning per separator; the result is the same as with the names.
func TestMoorDynNamelessSeparators(t *testing.T) {
	var b strings.Builder
	for i, l := range strings.Split(mdSample, "\n") {
		if i > 0 && strings.HasPrefix(l, "---") {
			l = "---"
		}
		b.WriteString(l + "\n")
	}
	want, err := mdFrom(t, mdSample)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mdFrom(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 5 || len(want.Warnings) != 0 {
		t.Errorf("warnings %v (named: %v)", got.Warnings, want.Warnings)
	}
	got.Warnings = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nameless separators read as\n%+v\nwant\n%+v", got, want)
	}
}
