package control

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
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
