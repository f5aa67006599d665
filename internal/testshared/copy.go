package testshared

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CopyDeck copies the folder src (a reference case) into a new temporary
// folder and returns it, leaving out what OpenFAST wrote (.outb, .sum,
// .sum.yaml, .log), so that a test can edit a deck without touching the
// shared copy. Files are writable in the copy.
func CopyDeck(tb testing.TB, src string) string {
	tb.Helper()
	dst := tb.TempDir()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		switch filepath.Ext(p) {
		case ".outb", ".sum", ".yaml", ".log":
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dst
}
