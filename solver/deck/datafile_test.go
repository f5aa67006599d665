package deck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadDataFile: a data file inside the deck's root reads; one outside
// (by .. or a symbolic link) or over the size limit is an error that does
// not show the server path.
func TestReadDataFile(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "deck")
	if err := os.MkdirAll(filepath.Join(root, "HydroData"), 0o755); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(root, "HydroDyn.dat")
	os.WriteFile(filepath.Join(root, "HydroData", "p.1"), []byte("-1 1 1 2.0\n"), 0o644)
	os.WriteFile(filepath.Join(base, "secret.1"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(base, "secret.1"), filepath.Join(root, "HydroData", "link.1"))

	if b, err := ReadDataFile(root, from, "HydroData/p.1", 0); err != nil || string(b) != "-1 1 1 2.0\n" {
		t.Fatalf("inside: %q, %v", b, err)
	}
	for _, named := range []string{"../secret.1", "HydroData/link.1"} {
		_, err := ReadDataFile(root, from, named, 0)
		if !errors.Is(err, ErrOutsideDeck) {
			t.Errorf("%s: err %v, want ErrOutsideDeck", named, err)
		}
		if err != nil && strings.Contains(err.Error(), base) {
			t.Errorf("%s: error shows the server path: %v", named, err)
		}
	}
	// a named pipe is refused at once (not waited on)
	if err := syscall.Mkfifo(filepath.Join(root, "HydroData", "pipe.1"), 0o644); err == nil {
		if _, err := ReadDataFile(root, from, "HydroData/pipe.1", 0); !errors.Is(err, ErrOutsideDeck) {
			t.Errorf("FIFO: %v, want ErrOutsideDeck", err)
		}
	}
	if _, err := ReadDataFile(root, from, "HydroData/p.1", 4); err == nil {
		t.Error("over the size limit: no error")
	}
	if _, err := ReadDataFile(root, from, "HydroData/none.1", 0); !errors.Is(err, ErrMissingFile) || strings.Contains(err.Error(), base) {
		t.Errorf("missing file: %v", err)
	}
}
