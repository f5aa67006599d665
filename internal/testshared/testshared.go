// Package testshared locates the team's shared reference material (OpenFAST
// decks, fixtures and reference outputs) for tests.
//
// The material lives beside the repository as ../shared and is never copied
// into it (see shared/SOURCES.md). A user's clone does not have it, so every
// test that needs it must skip with a clear message instead of failing.
package testshared

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar overrides the location of the shared folder.
const EnvVar = "TURBINESIM_SHARED"

// Locate returns the absolute path of the shared folder and whether it exists.
// It honours $TURBINESIM_SHARED, otherwise it walks up from the working
// directory to the module root (the folder holding go.mod) and looks for
// ../shared beside it.
func Locate() (string, bool) {
	if dir := os.Getenv(EnvVar); dir != "" {
		return dir, isDir(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			return shared, isDir(shared)
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// Dir returns the shared folder, or skips the test when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := Locate()
	if !ok {
		tb.Skipf("shared reference material not found (expected ../shared beside the repository, or $%s): skipping", EnvVar)
	}
	return dir
}

// Path returns a path inside the shared folder, skipping the test when the
// shared folder or that entry is absent.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := filepath.Join(append([]string{Dir(tb)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared reference file %s not found: skipping", p)
	}
	return p
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Resolve is Locate for commands: the folder given on the command line when
// there is one, else the located shared folder, else an error saying how to
// name it.
func Resolve(given string) (string, error) {
	if given != "" {
		return given, nil
	}
	dir, ok := Locate()
	if !ok {
		return "", fmt.Errorf("no shared folder found; pass -shared or set %s", EnvVar)
	}
	return dir, nil
}

// CaseDeck returns the main .fst of a reference-outputs case of the shared
// folder (given, or located as Resolve does): the one .fst in the case
// folder, or in its single deck sub-folder (the IEA cases keep the deck one
// level down).
func CaseDeck(given, name string) (string, error) {
	shared, err := Resolve(given)
	if err != nil {
		return "", err
	}
	caseDir := filepath.Join(shared, "reference-outputs", name)
	matches, _ := filepath.Glob(filepath.Join(caseDir, "*.fst"))
	if len(matches) == 0 {
		matches, _ = filepath.Glob(filepath.Join(caseDir, "*", "*.fst"))
	}
	if len(matches) != 1 {
		return "", fmt.Errorf("case %s: want one .fst in %s, found %d", name, caseDir, len(matches))
	}
	return matches[0], nil
}
