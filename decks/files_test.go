package decks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The diff names each changed parameter by file and name with both
// values, treats 90 and 90.0 as equal, numbers other differing lines and
// reports files only one deck has; identical trees give nothing.
func TestDiffDecksByParameter(t *testing.T) {
	a := writeTree(t, map[string]string{
		"Main.fst":            "------- OpenFAST -------\n60.0   TMax   - total run time (s)\n\"ElastoDyn.dat\"   EDFile  - ElastoDyn file\n",
		"ElastoDyn.dat":       "90.0   TowerHt  - tower height (m)\n5.0  ShftTilt - tilt\n  0.0  1.0  2.0\n",
		"Airfoils/Only_A.dat": "1 x\n",
	})
	b := writeTree(t, map[string]string{
		"Main.fst":      "------- OpenFAST -------\n60   TMax   - total run time (s)\n\"ElastoDyn.dat\"   EDFile  - ElastoDyn file\n",
		"ElastoDyn.dat": "117.6  TowerHt  - tower height (m)\n5.0  ShftTilt - tilt\n  0.0  1.5  2.0\n",
	})
	rows, err := decks.DiffDecks(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		v := func(s *string) string {
			if s == nil {
				return "-"
			}
			return *s
		}
		got = append(got, r.File+" "+r.Parameter+" "+v(r.A)+" "+v(r.B))
	}
	want := []string{
		"Airfoils/Only_A.dat (file) 4 bytes -",
		"ElastoDyn.dat TowerHt 90.0 117.6",
		"ElastoDyn.dat line 3 0.0 1.0 2.0 0.0 1.5 2.0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rows, err := decks.DiffDecks(a, a); err != nil || len(rows) != 0 {
		t.Fatalf("a deck against itself: %v %v", rows, err)
	}
}

// A file is read only inside the deck, bounded, and binary files give no
// text; the ZIP holds the deck's own paths and extracts to an equal deck.
func TestReadFileAndZipStayInTheDeck(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.txt": "do not show"})
	dir := writeTree(t, map[string]string{
		"Main.fst":     "60 TMax\n",
		"sub/big.dat":  strings.Repeat("é", decks.MaxViewBytes), // 2 bytes each: cut mid-way
		"sub/data.bin": "\x00\x01\x02",
	})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../" + filepath.Base(outside) + "/secret.txt", "/etc/passwd", "link.txt", "sub", "missing.dat"} {
		_, err := decks.ReadFile(dir, rel)
		if turbinesim.ErrorCode(err) != turbinesim.ENOTFOUND || strings.Contains(err.Error(), dir) {
			t.Fatalf("ReadFile(%q) = %v, want a 404 without the server path", rel, err)
		}
	}
	f, err := decks.ReadFile(dir, "sub/big.dat")
	if err != nil || !f.Truncated || f.Binary || len(f.Text) > decks.MaxViewBytes || !strings.HasPrefix(f.Text, "éé") {
		t.Fatalf("big file: truncated %v binary %v %d bytes (%v)", f.Truncated, f.Binary, len(f.Text), err)
	}
	if f, err := decks.ReadFile(dir, "sub/data.bin"); err != nil || !f.Binary || f.Text != "" {
		t.Fatalf("binary file: %+v %v", f, err)
	}
	files, err := decks.ListFiles(dir)
	if err != nil || len(files) != 3 {
		t.Fatalf("files %+v (%v): want the three regular files, no link", files, err)
	}
	var zipped bytes.Buffer
	if err := decks.WriteZip(&zipped, dir); err != nil {
		t.Fatal(err)
	}
	back := t.TempDir()
	if err := decks.ExtractZip(bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), back, decks.DefaultZipLimits); err != nil {
		t.Fatal(err)
	}
	// The link is not a file of the deck; everything else comes back.
	if rows, err := decks.DiffDecks(dir, back); err != nil || len(rows) != 0 {
		t.Fatalf("extracted ZIP differs: %+v %v", rows, err)
	}
}
