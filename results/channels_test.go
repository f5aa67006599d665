package results

import "testing"

// TestChannelGroup classifies the OpenFAST names of each module as the
// results page's picker groups them.
func TestChannelGroup(t *testing.T) {
	for name, want := range map[string]string{
		"Wind1VelX": GroupWind, "RtVAvgxh": GroupWind,
		"RotSpeed": GroupRotor, "RtAeroCp": GroupRotor, "Azimuth": GroupRotor, "RotThrust": GroupRotor,
		"RootMyb1": GroupBlade1, "Spn4MLxb2": GroupBlade2, "TipDxc3": GroupBlade3, "BldPitch2": GroupBlade2,
		"AB3N005Alpha": GroupBlade3, "B1N1VRel": GroupBlade1, "TipClrnc1": GroupBlade1,
		"TwrBsMyt": GroupTower, "TwHt3MLxt": GroupTower, "YawBrFxp": GroupTower, "TTDspFA": GroupTower,
		"NacYaw": GroupNacelle, "NcIMUTAxs": GroupNacelle,
		"GenPwr": GroupDrivetrain, "LSShftTq": GroupDrivetrain, "HSShftPwr": GroupDrivetrain, "LSSTipMys": GroupDrivetrain,
		"BlPitchC1": GroupController, "YawMomCom": GroupController,
		"PtfmPitch": GroupPlatform, "Wave1Elev": GroupPlatform, "FAIRTEN1": GroupPlatform, "FairTen1": GroupPlatform,
		"M1N1FMxe": GroupPlatform, "B1Surge": GroupPlatform, "ReactFXss": GroupPlatform,
		"Q_BF1": GroupOther,
	} {
		if got := ChannelGroup(name); got != want {
			t.Errorf("ChannelGroup(%q) = %q, want %q", name, got, want)
		}
	}
	for unit, want := range map[string]bool{"INVALID": true, "(INVALID)": true, "kN-m": false, "": false} {
		if InvalidChannel(unit) != want {
			t.Errorf("InvalidChannel(%q) = %v", unit, !want)
		}
	}
}
