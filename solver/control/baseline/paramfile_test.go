package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An encoded parameter set reads back exactly, and a file stating only
// some keys keeps the NREL 5 MW values for the rest.
func TestParamFileRoundTripAndDefaults(t *testing.T) {
	p := DefaultParams()
	p.PitchRefSpeed, p.RatedGenSpeed, p.RatedPower = 115.2, 114.048, 6.355932203389831e6
	got, err := ParseParams("x.in", EncodeParams(p, "heading"))
	if err != nil {
		t.Fatal(err)
	}
	if got != p {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, p)
	}
	src := "# partial file\n\n  pc_refspd 120   # rad/s\nVS_RtPwr 5.0e6\n"
	got, err = ParseParams("partial.in", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultParams()
	want.PitchRefSpeed, want.RatedPower = 120, 5e6
	if got != want {
		t.Fatalf("partial file:\n got %+v\nwant %+v", got, want)
	}
}

// Errors name the file and the line.
func TestParamFileErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, src, want string
	}{
		{"unknown", "PC_KP 0.01\nPC_Foo 3\n", "unknown.in:2: unknown baseline controller parameter \"PC_Foo\""},
		{"badvalue", "# c\nVS_RtPwr 5MW\n", "badvalue.in:2: VS_RtPwr: \"5MW\" is not a finite number"},
		{"nan", "VS_MaxTq NaN\n", "nan.in:1: VS_MaxTq: \"NaN\" is not a finite number"},
		{"extra", "\nPC_KI 0.008 0.009\n", "extra.in:2: PC_KI needs exactly one value, got 2 words"},
		{"missingvalue", "PC_KI\n", "missingvalue.in:1: PC_KI needs exactly one value, got 0 words"},
		{"duplicate", "PC_KI 0.008\nVS_DT 0.01\npc_ki 0.009\n", "duplicate.in:3: PC_KI already given on line 1"},
		{"negative", "PC_KP -0.01\n", "negative.in: PC_KP must be > 0, got -0.01"},
		{"order", "VS_Rgn2Sp 130\n", "order.in: baseline: need CutInSpeed < Rgn2Speed < RatedGenSpeed"},
	} {
		path := filepath.Join(dir, c.name+".in")
		if err := os.WriteFile(path, []byte(c.src), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadParams(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
