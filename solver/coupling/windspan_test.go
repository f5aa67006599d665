package coupling

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

// TestWindFileShorterThanTheRunIsRefused: a non-periodic box of 20 s at
// 12 m/s, 145 m wide, reaches the rotor (OverHang −5.0191 m) after
// (72.5 + 5.0191)/12 = 6.46 s, so it carries a run of 13.54 s at most: a
// 30-s run is refused before any step, naming the InflowWind file, the line
// of FileName_BTS and what would fit; a 13-s run passes. The periodic 90-s
// reference box is warned about with its repeat period for a 600-s run. On
// main the 30-s run failed 13.5 s into the simulation ("outside the box")
// and the 600-s run repeated the box without a word.
func TestWindFileShorterThanTheRunIsRefused(t *testing.T) {
	d, err := deck.Load(testshared.Path(t, "reference-outputs", "nrel5mw_turb12_full", "Main_Onshore.fst"))
	if err != nil {
		t.Fatal(err)
	}
	warn, err := CheckWindDuration(d, 600)
	if err != nil || !strings.Contains(warn, "repeat every 90 s") || !strings.Contains(warn, "NREL5MW_12mps_IECKAI_B.bts") {
		t.Errorf("periodic 90-s box, 600-s run: warning %q, error %v; want the repeat period", warn, err)
	}
	if warn, err := CheckWindDuration(d, 60); warn != "" || err != nil {
		t.Errorf("periodic box, 60-s run: warning %q, error %v; want neither", warn, err)
	}

	box := windfile.NewFullField(3, 3, 401, 0)
	box.DT, box.DY, box.DZ, box.URef, box.ZHub, box.GridBottom = 0.05, 72.5, 72.5, 12, 90, 17.5
	for i := 0; i < len(box.Grid); i += 3 {
		box.Grid[i] = 12
	}
	short := filepath.Join(t.TempDir(), "short.bts")
	if err := windfile.WriteBTSFile(short, box); err != nil {
		t.Fatal(err)
	}
	d.InflowWind.FileName_BTS = short
	_, err = CheckWindDuration(d, 30)
	var u *Unsupported
	if !errors.As(err, &u) {
		t.Fatalf("20-s non-periodic box, 30-s run: %v, want *Unsupported", err)
	}
	if u.File != "5MW_Baseline/NRELOffshrBsline5MW_InflowWind_Turb12mps.dat" || u.Line != 22 || u.Variable != "FileName_BTS" {
		t.Errorf("refusal names %s:%d %s, want the InflowWind file, line 22, FileName_BTS", u.File, u.Line, u.Variable)
	}
	for _, want := range []string{"20 s of wind", "needs 36.46 s", "TMax to at most 13.54 s"} {
		if !strings.Contains(u.Message, want) {
			t.Errorf("message %q lacks %q", u.Message, want)
		}
	}
	if strings.Contains(u.Error(), filepath.Dir(short)) {
		t.Errorf("message carries a server path: %s", u.Error())
	}
	if _, err := Run(context.Background(), d, Options{OutPath: "-", TMax: 30}, nil); !errors.As(err, &u) {
		t.Errorf("Run of the 30-s run: %v, want the same refusal before simulating", err)
	}
	if warn, err := CheckWindDuration(d, 13); warn != "" || err != nil {
		t.Errorf("13-s run in the 20-s box: warning %q, error %v; want neither", warn, err)
	}

	// The same box as a Bladed .wnd/.sum pair (WindType 4): the span comes
	// from its header and sizes alone, with the same verdicts.
	var wnd, sum bytes.Buffer
	if err := windfile.WriteBladed(&wnd, &sum, box); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "short")
	os.WriteFile(root+".wnd", wnd.Bytes(), 0o644)
	os.WriteFile(root+".sum", sum.Bytes(), 0o644)
	d.InflowWind.WindType, d.InflowWind.FileNameRoot = 4, root
	if _, err := CheckWindDuration(d, 30); !errors.As(err, &u) || u.Variable != "FileNameRoot" || !strings.Contains(u.Message, "needs 36.46 s") || strings.Contains(u.Error(), filepath.Dir(root)) {
		t.Errorf("20-s Bladed box, 30-s run: %v, want the refusal naming FileNameRoot without a server path", err)
	}
	if warn, err := CheckWindDuration(d, 13); warn != "" || err != nil {
		t.Errorf("13-s run in the 20-s Bladed box: warning %q, error %v; want neither", warn, err)
	}
	os.WriteFile(root+".wnd", wnd.Bytes()[:wnd.Len()-2], 0o644)
	if _, err := CheckWindDuration(d, 13); !errors.As(err, &u) || !strings.Contains(u.Message, "cannot be read") {
		t.Errorf("truncated Bladed box: %v, want a refusal", err)
	}
}
