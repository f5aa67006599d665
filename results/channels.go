package results

import (
	"regexp"
	"strings"
)

// Channel groups: the module an OpenFAST output channel belongs to, read
// from its name as OpenFAST's OutListParameters spreadsheet names them
// (docs/source/user/*/ of OpenFAST: ElastoDyn, AeroDyn, ServoDyn,
// InflowWind, HydroDyn, SubDyn, MoorDyn). The results page filters its
// channel picker by these groups, so that "blade 2" or "tower" finds the
// channels of that part among several hundred.
const (
	GroupWind       = "wind"
	GroupRotor      = "rotor"
	GroupBlade1     = "blade 1"
	GroupBlade2     = "blade 2"
	GroupBlade3     = "blade 3"
	GroupTower      = "tower"
	GroupNacelle    = "nacelle"
	GroupDrivetrain = "drivetrain"
	GroupController = "controller"
	GroupPlatform   = "platform/hydro"
	GroupOther      = "other"
)

// ChannelGroups lists the groups in the order the picker shows them.
func ChannelGroups() []string {
	return []string{GroupWind, GroupRotor, GroupBlade1, GroupBlade2, GroupBlade3, GroupTower, GroupNacelle,
		GroupDrivetrain, GroupController, GroupPlatform, GroupOther}
}

var (
	// Controller commands and controller-internal signals (ServoDyn's
	// BlPitchC1-3, YawMomCom, HSSBrTqC; ROSCO-style *Com channels).
	controllerName = regexp.MustCompile(`^(BlPitchC\d?|BlPitchCom\d?|YawMomCom|YawPosCom|YawRateCom|HSSBrTqC|GenTqCom|GenPwrCom|GenSpdCom|TMD\w*|NTMD\w*|TTMD\w*)$|Com\d?$`)
	// Floating and offshore: platform motions and loads (ElastoDyn Ptfm*,
	// HydroDyn wave elevations, HydroDyn body motions B1Surge…, Morison
	// member and SubDyn member outputs M1N1…, SubDyn reactions and
	// interface loads, mooring fairlead and anchor tensions).
	platformName = regexp.MustCompile(`^(Ptfm|Wave|Hydro|HD|Fair|Anch|Moor|Line|ReactF|ReactM|IntfF|IntfM|SSqm|SSqmd|SSqmdd|Morison|Mudline|Sub)|^M\d+N\d+|^B\d(Surge|Sway|Heave|Roll|Pitch|Yaw|Wave)|^[TL]\d+(N\d+)?(Ten|Fx|Fy|Fz)|^(?i:fairten|anchten)`)
	// A blade's channels: AeroDyn node outputs (AB1N001Alpha, B1N1VRel),
	// BeamDyn (B1RootFxr), ElastoDyn's blade-frame channels ending in the
	// blade number after the frame letter (RootMyb1, Spn4MLxb2, TipDxc3,
	// TipRDyb1), pitch, tip clearance and twist per blade.
	bladeName = []struct {
		re    *regexp.Regexp
		index int
	}{
		{regexp.MustCompile(`^A?B([1-3])N\d`), 1},
		{regexp.MustCompile(`^B([1-3])(Root|Tip|Azimuth|Pitch|AxInd|TnInd)`), 1},
		{regexp.MustCompile(`^(BldPitch|BlPitch|TwstDefl|TipClrnc|Tip2Twr|BlFlap|BlEdge)([1-3])$`), 2},
		{regexp.MustCompile(`^Bld([1-3])`), 1},
		{regexp.MustCompile(`[bc]([1-3])$`), 1},
	}
	towerName      = regexp.MustCompile(`^(Tw|Twr|TTDsp|TwHt|TwrBs|YawBr|TwN|TwrClr)`)
	windName       = regexp.MustCompile(`^(Wind|HWind|RtVAvg|Uhub|WindHub|HorWind|VWind|RtSkew|RtVAvgxh|RtVAvgyh|RtVAvgzh|Hub\w*Vel)`)
	nacelleName    = regexp.MustCompile(`^(NacYaw|Nc|YawPzn|YawVzn|YawAzn|NacYawErr|Yaw)`)
	drivetrainName = regexp.MustCompile(`^(LSS|HSS|Gen|LSShft|LSSTip|LSSGag|Gbx|Brake)`)
	rotorName      = regexp.MustCompile(`^(Rot|Rt|Azimuth|Hub|Spn|Tip)`)
)

// ChannelGroup is the group of an OpenFAST output channel name (one of
// ChannelGroups; GroupOther when the name follows none of the patterns).
func ChannelGroup(name string) string {
	switch {
	case name == "":
		return GroupOther
	case controllerName.MatchString(name):
		return GroupController
	case platformName.MatchString(name):
		return GroupPlatform
	case windName.MatchString(name):
		return GroupWind
	}
	for _, b := range bladeName {
		if m := b.re.FindStringSubmatch(name); m != nil {
			return "blade " + m[b.index]
		}
	}
	switch {
	case towerName.MatchString(name):
		return GroupTower
	case nacelleName.MatchString(name):
		return GroupNacelle
	case drivetrainName.MatchString(name):
		return GroupDrivetrain
	case rotorName.MatchString(name):
		return GroupRotor
	}
	return GroupOther
}

// InvalidChannel reports whether unit is OpenFAST's INVALID marker: the
// OutList named a channel the model does not have, and the file carries
// zeros in its place. Such a channel is kept in tables (marked) but never
// plotted or analysed as data.
func InvalidChannel(unit string) bool {
	return strings.EqualFold(strings.Trim(strings.TrimSpace(unit), "()"), "INVALID")
}
