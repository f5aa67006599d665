package deck

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// copyDeck writes the shared NREL 5 MW deck into a temporary directory and
// returns the path of its .fst, so tests can break files of their own.
func copyDeck(t *testing.T) string {
	t.Helper()
	d := loadShared(t, sharedDecks[0])
	p, err := Write(t.TempDir(), d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// editLine replaces the value of the line labelled label in file and
// returns that line's number.
func editLine(t *testing.T, file, label, value string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && f[1] == label {
			lines[i] = value + " " + strings.Join(f[1:], " ")
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return i + 1
		}
	}
	t.Fatalf("%s: no line labelled %s", file, label)
	return 0
}

func expectError(t *testing.T, err error, want ...string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not *deck.Error", err, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err.Error(), w)
		}
	}
	return e
}

func TestErrorWrongType(t *testing.T) {
	p := copyDeck(t)
	ed := filepath.Join(filepath.Dir(p), "onshore", "ElastoDyn.dat")
	n := editLine(t, ed, "TipRad", "abc")
	_, err := Load(p)
	e := expectError(t, err, "ElastoDyn.dat:", `TipRad: expected a real number, got "abc"`)
	if e.Line != n || e.Variable != "TipRad" || filepath.Base(e.File) != "ElastoDyn.dat" {
		t.Errorf("error at %s:%d %s, want line %d", e.File, e.Line, e.Variable, n)
	}
	if want := filepath.Base(ed) + ":" + itoa(n) + ": TipRad: expected a real number, got \"abc\""; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestErrorBadLogicalAndInteger(t *testing.T) {
	p := copyDeck(t)
	ed := filepath.Join(filepath.Dir(p), "onshore", "ElastoDyn.dat")
	n := editLine(t, ed, "GenDOF", "maybe")
	_, err := Load(p)
	e := expectError(t, err, "GenDOF: expected a logical (True/False), got \"maybe\"")
	if e.Line != n {
		t.Errorf("line %d, want %d", e.Line, n)
	}
	p = copyDeck(t)
	n = editLine(t, p, "CompAero", "2.5")
	_, err = Load(p)
	e = expectError(t, err, "CompAero: expected an integer, got \"2.5\"")
	if e.Line != n {
		t.Errorf("line %d, want %d", e.Line, n)
	}
}

func TestErrorMissingAirfoil(t *testing.T) {
	p := copyDeck(t)
	af := filepath.Join(filepath.Dir(p), "5MW_Baseline", "Airfoils", "DU30_A17.dat")
	if err := os.Remove(af); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	e := expectError(t, err, "AeroDyn.dat:", "AFNames", "DU30_A17.dat", "not found")
	if !errors.Is(err, ErrMissingFile) {
		t.Errorf("error does not wrap ErrMissingFile")
	}
	// AFNames line + 4 (fifth airfoil)
	d, _ := Detect(p)
	if d == nil || len(d.Missing) != 1 || filepath.Base(d.Missing[0].Path) != "DU30_A17.dat" {
		t.Fatalf("Detect missing = %+v", d)
	}
	if e.Line != d.Missing[0].Line || e.Line == 0 {
		t.Errorf("error line %d, reference line %d", e.Line, d.Missing[0].Line)
	}
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "onshore", "AeroDyn.dat"))
	if got := strings.Split(string(b), "\n")[e.Line-1]; !strings.Contains(got, "DU30_A17.dat") {
		t.Errorf("line %d is %q, not the DU30 entry", e.Line, got)
	}
}

func TestErrorTruncatedTables(t *testing.T) {
	p := copyDeck(t)
	dir := filepath.Dir(p)
	// airfoil: cut the polar after 10 rows (file ends)
	af := filepath.Join(dir, "5MW_Baseline", "Airfoils", "DU25_A17.dat")
	b, _ := os.ReadFile(af)
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, "NumAlf") {
			lines = lines[:i+12] // NumAlf line, comment line, 10 rows
			break
		}
	}
	if err := os.WriteFile(af, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	expectError(t, err, "DU25_A17.dat:", "NumAlf", "table truncated: expected", "found 10")

	// ElastoDyn blade: NBlInpSt larger than the table: the mode-shape lines
	// are reached and reported
	p = copyDeck(t)
	bl := filepath.Join(filepath.Dir(p), "5MW_Baseline", "NRELOffshrBsline5MW_Blade.dat")
	editLine(t, bl, "NBlInpSt", "60")
	_, err = Load(p)
	expectError(t, err, "NRELOffshrBsline5MW_Blade.dat:", "BlFract: table truncated: expected 60 rows, found 49", "BLADE MODE SHAPES")
}

func TestErrorBinaryAndMissingMain(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "junk.fst")
	if err := os.WriteFile(bin, []byte("\x7fELF\x02\x01\x01\x00\x00\x00binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(bin)
	expectError(t, err, "junk.fst", "binary data")
	_, err = Load(filepath.Join(dir, "nothere.fst"))
	expectError(t, err, "nothere.fst", "file not found")
	if !errors.Is(err, ErrMissingFile) {
		t.Errorf("missing main file should wrap ErrMissingFile")
	}
}

func TestErrorUnknownSwitchAndMissingLine(t *testing.T) {
	p := copyDeck(t)
	n := editLine(t, p, "CompAero", "7")
	_, err := Load(p)
	e := expectError(t, err, "CompAero: unknown switch value 7")
	if e.Line != n {
		t.Errorf("line %d, want %d", e.Line, n)
	}
	p = copyDeck(t)
	ed := filepath.Join(filepath.Dir(p), "onshore", "ElastoDyn.dat")
	b, _ := os.ReadFile(ed)
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "TipRad" {
			continue
		}
		kept = append(kept, l)
	}
	if err := os.WriteFile(ed, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(p)
	expectError(t, err, "ElastoDyn.dat", "TipRad: line not found")
}

func TestErrorAeroDyn14Deck(t *testing.T) {
	p := copyDeck(t)
	ad := filepath.Join(filepath.Dir(p), "onshore", "AeroDyn.dat")
	if err := os.WriteFile(ad, []byte("--------- AeroDyn v14.04.* INPUT FILE ----\ntitle\n\"BEDDOES\" StallMod - x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	expectError(t, err, "AeroDyn.dat:1", "AeroDyn v14")
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("want ErrUnsupported")
	}
}

// Row counts come from the file: a huge count must give a clear error, not
// a huge allocation.
func TestHugeRowCount(t *testing.T) {
	s := strings.Replace(seedBlade, "3 NBlInpSt", "2000000000 NBlInpSt", 1)
	src, err := sourceFromBytes("blade.dat", []byte(s), false)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = parseEDBlade(src)
	runtime.ReadMemStats(&after)
	expectError(t, err, "blade.dat:", "BlFract: table truncated: expected 2000000000 rows")
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("parsing allocated %d bytes", got)
	}
}

func TestIncludeCycleAndBudget(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "self.dat")
	if err := os.WriteFile(self, []byte("! x\n@self.dat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadAirfoil(self)
	expectError(t, err, "include cycle")
	// many includes of one file: bounded by the total size budget, not
	// exponential work
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("!"+strings.Repeat("x", 1023)+"\n", 1<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	many := filepath.Join(dir, "many.dat")
	if err := os.WriteFile(many, []byte(strings.Repeat("@big.txt\n", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadAirfoil(many)
	expectError(t, err, "exceed")
}
