package deck

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// TestHydroDynSeaStateTyped reads the v5 SeaState and HydroDyn files of the
// reference monopile and semi cases into their typed structures.
func TestHydroDynSeaStateTyped(t *testing.T) {
	dir := testshared.Path(t, "reference-outputs")
	mono, err := Load(filepath.Join(dir, "iea15_monopile_steady10_regular", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	ss, err := mono.Offshore.SeaState.SeaState()
	if err != nil {
		t.Fatal(err)
	}
	if mod, _, _, err := ss.WaveModel(); err != nil || mod != 1 {
		t.Errorf("WaveMod = %d (%v), want 1", mod, err)
	}
	if ss.WaveHs != 6 || ss.WaveTp != 10 || ss.NZ != 40 || ss.XHalfWidth != 10 || ss.WaveTMax != 3630 || !ss.WavePkShp.Default {
		t.Errorf("SeaState values: %+v", ss)
	}
	if ss.WaveSeed1 != "123456789" || ss.WaveSeed2 != "RANLUX" || !ss.WaveNDAmp {
		t.Errorf("seeds %q %q NDAmp %v", ss.WaveSeed1, ss.WaveSeed2, ss.WaveNDAmp)
	}
	if len(ss.OutList) != 1 || ss.OutList[0] != "Wave1Elev" || ss.NWaveElev != 1 || len(ss.WaveElevxi) != 1 {
		t.Errorf("outputs %v NWaveElev %d %v", ss.OutList, ss.NWaveElev, ss.WaveElevxi)
	}
	hd, err := mono.Offshore.HydroDyn.HydroDyn()
	if err != nil {
		t.Fatal(err)
	}
	if len(hd.Joints) != 2 || hd.Joints[0].Z != -30.1 || hd.Joints[1].Z != 15 {
		t.Errorf("joints %+v", hd.Joints)
	}
	if len(hd.PropSets) != 1 || hd.PropSets[0].D != 10 || hd.PropSets[0].Thck != 0.055341 {
		t.Errorf("prop sets %+v", hd.PropSets)
	}
	if len(hd.Members) != 1 || hd.Members[0].DivSize != 0.5 || hd.Members[0].PropPot || hd.Members[0].CoefMod != 1 {
		t.Errorf("members %+v", hd.Members)
	}
	if hd.Simple.Cd != 1 || hd.Simple.Ca != 1 || hd.Simple.AxCa != 1 || hd.Simple.Cb != 1 || hd.Simple.AxCd != 0 {
		t.Errorf("simple coefficients %+v", hd.Simple)
	}
	if len(hd.FillGroups) != 1 || !hd.FillGroups[0].DensDflt || len(hd.FillGroups[0].Members) != 1 {
		t.Errorf("fill groups %+v", hd.FillGroups)
	}
	if hd.AddBLin[2][2] != 4389794.6 || len(hd.JOutLst) != 2 || hd.JOutLst[1] != 2 {
		t.Errorf("AddBLin33 %g JOutLst %v", hd.AddBLin[2][2], hd.JOutLst)
	}
	if len(hd.OutList) != 6 || hd.OutList[5] != "HydroMzi" {
		t.Errorf("OutList %v", hd.OutList)
	}

	semi, err := Load(filepath.Join(dir, "iea15_semi_steady10_irregular", "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	hs, err := semi.Offshore.HydroDyn.HydroDyn()
	if err != nil {
		t.Fatal(err)
	}
	if hs.PotMod != 1 || hs.RdtnMod != 1 || hs.RdtnTMax != 60 || !hs.RdtnDT.Default || hs.PotFile != "HydroData/IEA-15-240-RWT-UMaineSemi" || hs.PtfmVol0 != 20206.34889 {
		t.Errorf("semi HydroDyn %+v", hs)
	}
	if hs.AddBQuad[0][0] != 9.23e5 || hs.AddBQuad[0][4] != -8.92e6 || hs.AddBQuad[5][5] != 4.8e10 || len(hs.Members) != 0 {
		t.Errorf("AddBQuad %v", hs.AddBQuad)
	}
	if len(hs.OutList) != 20 {
		t.Errorf("OutList %v", hs.OutList)
	}
	ss2, err := semi.Offshore.SeaState.SeaState()
	if err != nil {
		t.Fatal(err)
	}
	if ss2.WaveMod != "2" || ss2.WaveSeed1 != "-561580799" || ss2.WvLowCOff != 0.111527 || ss2.WaveDT != 0.25 {
		t.Errorf("semi SeaState %+v", ss2)
	}
}

// TestValueRunIntoItsNameIsAnError: a SeaState line whose value is run
// into its name ("17WaveNDir", a missing space) is an error naming the
// file, the line and the variable, as OpenFAST stops on it; read as an
// absent optional variable it gave WaveNDir its default, 1, in silence.
func TestValueRunIntoItsNameIsAnError(t *testing.T) {
	src := testshared.Path(t, "reference-outputs", "iea15_semi_steady10_irregular")
	dir := testshared.CopyDeck(t, src)
	sea := filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi_SeaState.dat")
	b, err := os.ReadFile(sea)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\S+\s+WaveNDir\s`)
	loc := re.FindIndex(b)
	if loc == nil {
		t.Fatal("no WaveNDir line")
	}
	at := 1 + bytes.Count(b[:loc[0]], []byte("\n"))
	b = re.ReplaceAll(b, []byte("17WaveNDir "))
	if err := os.WriteFile(sea, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(filepath.Join(dir, "IEA-15-240-RWT-UMaineSemi", "IEA-15-240-RWT-UMaineSemi.fst"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Offshore.SeaState.SeaState()
	var e *Error
	if !errors.As(err, &e) || e.Line != at || e.Variable != "WaveNDir" || !strings.HasSuffix(e.File, "_SeaState.dat") || !strings.Contains(e.Msg, `"17WaveNDir"`) {
		t.Fatalf("got %v (%+v), want an error at line %d naming WaveNDir", err, e, at)
	}
}
