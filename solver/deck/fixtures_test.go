package deck

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// Every FASTIn_* input-file variant of openfast_toolbox's examples: either it
// reads as the expected kind (with a value checked against the file) or it
// is a legacy format and the error says "unsupported".
func TestFixtureVariants(t *testing.T) {
	dir := testshared.Path(t, "fixtures", "openfast-io")
	cases := []struct {
		file  string
		kind  Kind
		check func(t *testing.T, v any)
	}{
		{"FASTIn_AD14.dat", KindAeroDyn14, nil},
		{"FASTIn_AD_F7.dat", KindAeroDyn14, nil},
		{"FASTIn_AD14_arf.dat", KindAD14Airfoil, nil},
		{"FASTIn_AD14_arf_3col.dat", KindAD14Airfoil, nil},
		{"FASTIn_AD14_arf_Re.dat", KindAD14Airfoil, nil},
		{"FASTIn_AD_twr.dat", KindAD14Tower, nil},
		{"FASTIn_ExtPtfm_SubSef.dat", KindExtPtfmFlex, nil},
		{"FASTIn_AD15.dat", KindAeroDyn, func(t *testing.T, v any) {
			a := v.(*AeroDyn)
			if a.NumAFfiles != len(a.AFNames) || a.NumAFfiles == 0 {
				t.Errorf("NumAFfiles=%d names=%d", a.NumAFfiles, len(a.AFNames))
			}
		}},
		{"FASTIn_AD15_latin.dat", KindAeroDyn, nil},
		{"FASTIn_AD15_of34.dat", KindAeroDyn, func(t *testing.T, v any) {
			if a := v.(*AeroDyn); a.Meta.Legacy["WakeMod"] != "2" || a.Wake_Mod != 1 {
				t.Errorf("legacy WakeMod 2 → Wake_Mod %d", a.Wake_Mod)
			}
		}},
		{"FASTIn_AD15_arf_multitabs.dat", KindAirfoil, func(t *testing.T, v any) {
			a := v.(*Airfoil)
			if a.NumTabs < 2 || len(a.Tables) != a.NumTabs {
				t.Errorf("NumTabs=%d tables=%d", a.NumTabs, len(a.Tables))
			}
			for i, tab := range a.Tables {
				if len(tab.Alpha) != tab.NumAlf || tab.NumAlf == 0 {
					t.Errorf("table %d: %d rows for NumAlf=%d", i+1, len(tab.Alpha), tab.NumAlf)
				}
			}
			if a.Tables[0].Re == a.Tables[1].Re && a.Tables[0].UserProp == a.Tables[1].UserProp {
				t.Errorf("tables 1 and 2 have the same Re and UserProp: %g %g", a.Tables[0].Re, a.Tables[0].UserProp)
			}
		}},
		{"FASTIn_AD15_arfl.dat", KindAirfoil, nil}, // its @include file is not shipped: see below
		{"FASTIn_AD15_arfl0.dat", KindAirfoil, nil},
		{"FASTIn_AD15_bld.dat", KindADBlade, func(t *testing.T, v any) {
			if b := v.(*ADBlade); b.NumBlNds != 19 || b.BlChord[0] != 3.542 {
				t.Errorf("NumBlNds=%d chord=%v", b.NumBlNds, b.BlChord[:1])
			}
		}},
		{"FASTIn_Blade.dat", KindADBlade, func(t *testing.T, v any) {
			if b := v.(*ADBlade); b.NumBlNds != 22 || b.BlSpn[1] != 0.325 || b.BlTwist[0] != 13.9573 {
				t.Errorf("NumBlNds=%d", b.NumBlNds)
			}
		}},
		{"FASTIn_ED.dat", KindElastoDyn, nil},
		{"FASTIn_ED_bld.dat", KindEDBlade, nil},
		{"FASTIn_ED_bld_F7.dat", KindEDBlade, func(t *testing.T, v any) {
			if b := v.(*EDBlade); b.NBlInpSt != 10 || len(b.BlFract) != 10 {
				t.Errorf("NBlInpSt=%d rows=%d", b.NBlInpSt, len(b.BlFract))
			}
		}},
		{"FASTIn_ED_twr.dat", KindEDTower, nil},
		{"FASTIn_ED_twr_F7.dat", KindEDTower, func(t *testing.T, v any) {
			if tw := v.(*EDTower); tw.NTwInpSt != 9 || len(tw.HtFract) != 9 {
				t.Errorf("NTwInpSt=%d rows=%d", tw.NTwInpSt, len(tw.HtFract))
			}
		}},
		{"FASTIn_IF_NoHead.dat", KindInflowWind, func(t *testing.T, v any) {
			if w := v.(*InflowWind); w.WindType != 4 {
				t.Errorf("WindType=%d", w.WindType)
			}
		}},
		{"FASTIn_SD.dat", KindServoDyn, func(t *testing.T, v any) {
			if s := v.(*ServoDyn); s.DT.Value != 0.001 || s.PCMode != 0 {
				t.Errorf("DT=%+v PCMode=%d", s.DT, s.PCMode)
			}
		}},
		{"FASTIn_HD.dat", KindHydroDyn, nil},
		{"FASTIn_HD2.dat", KindHydroDyn, nil},
		{"FASTIn_HD_SeaState.dat", KindSeaState, nil},
		{"FASTIn_SbD.dat", KindSubDyn, nil},
		{"FASTIn_SbD_comments.dat", KindSubDyn, nil},
		{"FASTIn_MD-v1.dat", KindMoorDyn, nil},
		{"FASTIn_MD-v2.dat", KindMoorDyn, nil},
		{"FASTIn_BD.dat", KindBeamDyn, nil},
		{"FASTIn_BD_bld.dat", KindBeamDyn, nil},
		{"FASTIn_BD_bld_2.dat", KindBeamDyn, nil},
		{"FASTIn_TurbSim.dat", KindTurbSim, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := dir + string(os.PathSeparator) + c.file
			if _, err := os.Stat(p); err != nil {
				t.Skipf("fixture %s absent", c.file)
			}
			k, v, err := ReadAny(p)
			if k != c.kind {
				t.Fatalf("kind %q, want %q (err %v)", k, c.kind, err)
			}
			if !c.kind.Supported() {
				if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), "not read") {
					t.Fatalf("want an unsupported-format error naming the file, got %v", err)
				}
				return
			}
			if c.file == "FASTIn_AD15_arfl.dat" {
				// the fixture includes "63-224.txt", which is not shipped with it
				if err == nil || !errors.Is(err, ErrMissingFile) || !strings.Contains(err.Error(), "FASTIn_AD15_arfl.dat:8: @include") || !strings.Contains(err.Error(), "63-224.txt") {
					t.Fatalf("want a missing-include error at line 8, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadAny: %v", err)
			}
			if c.check != nil {
				c.check(t, v)
			}
		})
	}
}
