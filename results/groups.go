package results

import (
	"regexp"
	"strings"
)

// OffshoreChannelSet is a named set of offshore output channels the
// results page offers to plot together (finer than the picker's module
// groups, ChannelGroup).
type OffshoreChannelSet struct {
	Name     string   `json:"name"`
	Channels []string `json:"channels"`
}

// channelGroupRules match OpenFAST's channel names (case-insensitive; a
// leading "-", the sign flip OpenFAST allows in an output list, is
// ignored): ElastoDyn's platform motions, MoorDyn's fairlead and anchor
// tensions, SeaState's wave elevations, SubDyn's base reactions (about the
// reaction joint at the mudline) and ElastoDyn's tower-base loads.
var offshoreSetRules = []struct {
	name  string
	match *regexp.Regexp
}{
	{"Platform motions", regexp.MustCompile(`^PTFM(SURGE|SWAY|HEAVE|ROLL|PITCH|YAW)$`)},
	{"Mooring tensions", regexp.MustCompile(`^(FAIRTEN|ANCHTEN)\d+$`)},
	{"Wave elevation", regexp.MustCompile(`^WAVE\dELEV$`)},
	{"Substructure reactions", regexp.MustCompile(`^REACT[FM][XYZ]SS$`)},
	{"Mudline moments", regexp.MustCompile(`^REACTM[XY]SS$`)},
	{"Tower-base loads", regexp.MustCompile(`^TWRBS[FM][XYZ]T$`)},
}

// OffshoreChannelSets returns the sets a job's channels fill: platform
// motions, mooring tensions and wave elevation (floating turbines),
// substructure reactions and mudline moments (bottom-fixed turbines) and
// tower-base loads, each with the channels present in output order; sets
// with no channel are left out.
func OffshoreChannelSets(names []string) []OffshoreChannelSet {
	var out []OffshoreChannelSet
	for _, r := range offshoreSetRules {
		g := OffshoreChannelSet{Name: r.name}
		for _, n := range names {
			if r.match.MatchString(strings.ToUpper(strings.TrimPrefix(n, "-"))) {
				g.Channels = append(g.Channels, n)
			}
		}
		if len(g.Channels) > 0 {
			out = append(out, g)
		}
	}
	return out
}
