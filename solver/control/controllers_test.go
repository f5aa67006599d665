package control

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/control/baseline"
)

func TestClassifyController(t *testing.T) {
	discon := testshared.Path(t, "reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore_DISCON.IN")
	notROSCO := filepath.Join(t.TempDir(), "DISCON.IN")
	if err := os.WriteFile(notROSCO, []byte("1 ! something - not a ROSCO file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dll, in string
		want    ControllerKind
	}{
		{"../IEA-15-240-RWT/ServoData/libdiscon.so", discon, KindROSCO},
		{"/usr/share/miniconda3/envs/test/lib/libdiscon.so", discon, KindROSCO},
		{"../5MW_Baseline/ServoData/DISCON.dll", "", KindBaseline},
		{`..\5MW_Baseline\ServoData\DISCON_gwin64.dll`, notROSCO, KindBaseline},
		{"libdiscon.so", filepath.Join(t.TempDir(), "missing.IN"), KindBaseline},
		{"ROSCO.dll", discon, KindROSCO},
	}
	for _, c := range cases {
		got, err := ClassifyController(c.dll, c.in)
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.dll, got, err, c.want)
		}
	}
	for _, dll := range []string{"../5MW_Baseline/ServoData/DISCON_OC3Hywind.dll", "vendor_ctrl.so", "unused"} {
		if _, err := ClassifyController(dll, discon); !errors.Is(err, ErrNoBuiltinController) {
			t.Errorf("%s: want ErrNoBuiltinController, got %v", dll, err)
		}
	}
	ctrl, err := ResolveController("libdiscon.so", discon)
	if err != nil {
		t.Fatal(err)
	}
	if ctrl.Name() == "" {
		t.Error("controller without a name")
	}
}

// The baseline DISCON reads its constants from an existing non-ROSCO
// DLL_InFile (a baseline parameter file) and keeps the NREL 5 MW constants
// for "unused" or a missing file; a bad file is an error naming it.
func TestBaselineParamsFromFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "Baseline.in")
	if err := os.WriteFile(good, []byte("PC_RefSpd 110 # rad/s\nVS_RtPwr 6e6\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, fromFile, err := BaselineParamsFrom(good)
	if err != nil || !fromFile || p.PitchRefSpeed != 110 || p.RatedPower != 6e6 || p.PitchKP != baseline.DefaultParams().PitchKP {
		t.Fatalf("from file: %+v fromFile=%v err=%v", p, fromFile, err)
	}
	for _, in := range []string{"", filepath.Join(dir, "unused"), filepath.Join(dir, "absent.in")} {
		p, fromFile, err := BaselineParamsFrom(in)
		if err != nil || fromFile || p != baseline.DefaultParams() {
			t.Fatalf("%q: %+v fromFile=%v err=%v", in, p, fromFile, err)
		}
	}
	bad := filepath.Join(dir, "Bad.in")
	if err := os.WriteFile(bad, []byte("PC_RefSpd 110\nVS_Bogus 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ResolveController("DISCON.dll", bad)
	if err == nil || !strings.Contains(err.Error(), bad+":2:") {
		t.Fatalf("bad file: %v, want an error naming %s:2", err, bad)
	}
	if _, err := ResolveController("DISCON.dll", good); err != nil {
		t.Fatalf("good file: %v", err)
	}
}
