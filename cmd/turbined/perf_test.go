package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/perf"
)

// `turbined perf` writes a table the ROSCO-layout reader reads back, on the
// grid asked for, naming this program (not ROSCO) as its writer.
func TestPerfWritesROSCOLayout(t *testing.T) {
	fst := testshared.Path(t, "reference-decks", "NREL-5MW-Land", "Main_Onshore.fst")
	out := filepath.Join(t.TempDir(), "cp.txt")
	msg, err := runForTest(t, "perf", "-wind", "8", "-tsr", "6:1:9", "-pitch", "0,2", "-sectors", "1", "-o", out, fst)
	if err != nil {
		t.Fatalf("perf: %v\n%s", err, msg)
	}
	s, err := perf.ReadFile(out)
	if err != nil {
		t.Fatalf("reading the written table: %v", err)
	}
	if len(s.TSR) != 4 || len(s.Pitch) != 2 || s.WindSpeed != 8 {
		t.Fatalf("grid %v × %v at %g m/s, want 4 TSR × 2 pitch at 8 m/s", s.TSR, s.Pitch, s.WindSpeed)
	}
	if s.Tool != perf.DefaultTool {
		t.Fatalf("header names %q as the writer, want %q", s.Tool, perf.DefaultTool)
	}
	// The NREL 5 MW rotor peaks near Cp 0.48 at TSR 7–8 and fine pitch
	// (Jonkman et al. 2009, fig. 9-1); a table far from that is wrong.
	peak := 0.0
	for i := range s.TSR {
		peak = max(peak, s.Cp[i][0])
	}
	if peak < 0.45 || peak > 0.51 {
		t.Fatalf("peak Cp at 0° pitch %.3f, want about 0.48", peak)
	}
	if !strings.Contains(msg, "peak Cp") {
		t.Fatalf("summary line missing: %s", msg)
	}
}

func TestPerfRejectsBadRange(t *testing.T) {
	if _, err := runForTest(t, "perf", "-tsr", "9:1:2", "x.fst"); err == nil || !strings.Contains(err.Error(), "-tsr") {
		t.Fatalf("err = %v, want one naming -tsr", err)
	}
}
