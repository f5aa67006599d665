package deck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

func TestTreeRefusesEverythingOutsideOrIrregular(t *testing.T) {
	out := testshared.NewOutsideDir(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "ok.dat"), []byte("fine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(out.Secret, filepath.Join(root, "link.dat")))
	must(os.Symlink(out.Dir, filepath.Join(root, "linkdir")))
	must(os.Mkdir(filepath.Join(root, "sub"), 0o755))
	must(syscall.Mkfifo(filepath.Join(root, "sub", "pipe"), 0o600))

	tree, err := OpenTree(root)
	must(err)
	defer tree.Close()
	if b, err := tree.ReadFile(filepath.Join(root, "ok.dat")); err != nil || string(b) != "fine\n" {
		t.Fatalf("regular file inside: %q, %v", b, err)
	}
	cases := map[string]string{
		"absolute path outside":          out.Secret,
		"absolute FIFO outside":          out.FIFO,
		"dot-dot escape":                 filepath.Join(root, "..", filepath.Base(out.Dir), "secret.dat"),
		"symbolic link to outside":       filepath.Join(root, "link.dat"),
		"link to an outside directory":   filepath.Join(root, "linkdir", "secret.dat"),
		"FIFO inside":                    filepath.Join(root, "sub", "pipe"),
		"/dev/zero":                      "/dev/zero",
		"/proc/self/environ":             "/proc/self/environ",
		"a directory inside":             filepath.Join(root, "sub"),
		"missing file inside":            filepath.Join(root, "nothing.dat"),
		"absolute path to the root only": root,
	}
	for name, p := range cases {
		done := make(chan error, 1)
		go func() { _, err := tree.ReadFile(p); done <- err }()
		select {
		case err := <-done:
			var de *Error
			if err == nil || !errors.As(err, &de) {
				t.Errorf("%s: read succeeded or not a deck error: %v", name, err)
				continue
			}
			if strings.Contains(de.Msg, "/") {
				t.Errorf("%s: message carries a path: %q", name, de.Msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the read blocked (a FIFO was opened)", name)
		}
		out.AssertUntouched(t, name)
	}
}

// The untrusted-deck loader refuses, by name, file and line, every kind of
// reference that leaves the tree, and opens nothing outside it; Load (for
// operator decks) still bounds what it reads.
func TestLoadInRefusesReferencesLeavingTheDeck(t *testing.T) {
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	out := testshared.NewOutsideDir(t)
	refs := []struct{ file, variable string }{
		{"Main_Onshore.fst", "EDFile"},
		{"Main_Onshore.fst", "InflowFile"},
		{"Main_Onshore.fst", "AeroFile"},
		{"Main_Onshore.fst", "ServoFile"},
	}
	attacks := map[string]string{
		"absolute":    out.Secret,
		"dot-dot":     "../../../../../../../../" + strings.TrimPrefix(out.Secret, "/"),
		"FIFO":        out.FIFO,
		"/dev/zero":   "/dev/zero",
		"/proc":       "/proc/self/environ",
		"symlink":     "link.dat",
		"inside FIFO": "pipe.dat",
	}
	for _, r := range refs {
		for name, value := range attacks {
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out.Secret, filepath.Join(root, "link.dat")); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(root, "pipe.dat"), 0o600); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(root, r.file)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			edited, ok := testshared.SetValue(b, r.variable, `"`+value+`"`)
			if !ok {
				t.Fatalf("%s: no %s line", r.file, r.variable)
			}
			if err := os.WriteFile(p, edited, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := LoadIn(root, r.file); done <- err }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s: LoadIn blocked (a FIFO was opened)", r.variable, name)
			}
			var de *Error
			if !errors.As(err, &de) || !errors.Is(err, ErrOutsideDeck) {
				t.Errorf("%s = %s: want an outside-the-deck error, got %v", r.variable, name, err)
				continue
			}
			if filepath.Base(de.File) != r.file || de.Variable != r.variable || de.Line == 0 {
				t.Errorf("%s = %s: error names %s:%d %s", r.variable, name, filepath.Base(de.File), de.Line, de.Variable)
			}
			if strings.Contains(de.Msg, root) || strings.Contains(de.Msg, "environ") && name != "/proc" {
				t.Errorf("%s = %s: message leaks a path: %q", r.variable, name, de.Msg)
			}
			out.AssertUntouched(t, r.variable+" = "+name)
		}
	}
}
