package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/infra/runner"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// copyNREL5MW copies the NREL 5 MW land deck into a temporary directory
// (tests may edit the copy) and returns the path of its .fst.
func copyNREL5MW(t *testing.T) string {
	t.Helper()
	src := filepath.Dir(testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst"))
	dst := filepath.Join(t.TempDir(), "deck")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatalf("copying the deck: %v", err)
	}
	return filepath.Join(dst, "Main_Onshore.fst")
}

// A short run writes an .outb whose time column ends at -tmax (0.5 s at the
// deck's DT = 0.01 s: 51 rows including t = 0), and the JSON progress lines
// end at 100 %.
func TestSimulateWritesOutbAndJSONProgress(t *testing.T) {
	fst := copyNREL5MW(t)
	out := filepath.Join(t.TempDir(), "results", "run1") // created by -o

	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"simulate", fst, "-o", out, "-tmax", "0.5", "-progress", "json"},
		func(string) string { return "" }, &stdout, &stderr)
	if err != nil {
		t.Fatalf("simulate: %v\n%s", err, stderr.String())
	}
	f, err := outfile.ReadOutbFile(filepath.Join(out, "Main_Onshore.outb"))
	if err != nil {
		t.Fatalf("reading the output: %v", err)
	}
	if n := len(f.Time); n == 0 || math.Abs(f.Time[n-1]-0.5) > 1e-9 {
		t.Fatalf("time column ends at %v (%d rows), want 0.5", f.Time[len(f.Time)-1], n)
	}
	var last runner.ProgressLine
	lines := 0
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatalf("progress line %q: %v", sc.Text(), err)
		}
		lines++
	}
	if lines == 0 || last.Percent != 100 || last.SimTime != 0.5 || last.TMax != 0.5 {
		t.Fatalf("last of %d progress lines = %+v, want 100%% at 0.5 s", lines, last)
	}
}

// A deck error stops the run before it starts, with the deck layer's
// message naming the file, the line and the variable.
func TestSimulateDeckErrorNamesFileAndLine(t *testing.T) {
	fst := copyNREL5MW(t)
	b, err := os.ReadFile(fst)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if !strings.Contains(lines[5], "TMax") {
		t.Fatalf("line 6 of the reference deck is %q, expected TMax", lines[5])
	}
	lines[5] = "        abc   TMax            - Total run time (s)"
	if err := os.WriteFile(fst, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	msg, err := runForTest(t, "simulate", fst, "-o", out, "-progress", "none")
	if err == nil {
		t.Fatalf("simulate accepted a deck with TMax = abc\n%s", msg)
	}
	for _, want := range []string{"Main_Onshore.fst:6", "TMax"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("output directory not empty after a deck error: %v", entries)
	}
}

// The deck's warnings go to stderr before the run, one "warning: file:line:
// variable: message" line each, the file relative to the deck's folder:
// the reference deck with its first tower fore-aft mode's x^2 coefficient
// raised from 0.7004 to 0.8004 (coefficients adding up to 1.1) gives
// exactly that warning, and runs; the unedited deck gives none.
func TestSimulatePrintsDeckWarnings(t *testing.T) {
	const (
		towerFile = "5MW_Baseline/NRELOffshrBsline5MW_Onshore_ElastoDyn_Tower.dat"
		want      = "warning: " + towerFile + ":32: TwFAM1Sh(2): mode-shape coefficients of TwFAM1Sh add up to 1.1, expected 1"
	)
	for _, edited := range []bool{true, false} {
		fst := copyNREL5MW(t)
		if edited {
			p := filepath.Join(filepath.Dir(fst), filepath.FromSlash(towerFile))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			if !strings.HasPrefix(lines[31], "     0.7004   TwFAM1Sh(2)") {
				t.Fatalf("line 32 of the tower file is %q, expected TwFAM1Sh(2) = 0.7004", lines[31])
			}
			lines[31] = strings.Replace(lines[31], "0.7004", "0.8004", 1)
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"simulate", fst, "-o", t.TempDir(), "-tmax", "0.05", "-progress", "none"},
			func(string) string { return "" }, &stdout, &stderr)
		if err != nil {
			t.Fatalf("simulate (edited %v): %v\n%s", edited, err, stderr.String())
		}
		var warnings []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(l, "warning:") {
				warnings = append(warnings, l)
			}
		}
		switch {
		case edited && (len(warnings) != 1 || warnings[0] != want):
			t.Fatalf("edited deck: warnings %q, want exactly [%q]\n%s", warnings, want, stderr.String())
		case !edited && len(warnings) != 0:
			t.Fatalf("unedited deck: warnings %q, want none", warnings)
		}
		if edited && !strings.HasPrefix(stderr.String(), want+"\n") {
			t.Fatalf("the warning is not printed before the run:\n%s", stderr.String())
		}
	}
}
