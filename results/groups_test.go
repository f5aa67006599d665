package results_test

import (
	"reflect"
	"testing"

	"github.com/turbinesim/turbinesim/results"
)

// The offshore channel sets of a floating and of a monopile turbine's output, in
// OpenFAST's names (MoorDyn writes its channels in upper case, SubDyn's may
// carry the output list's sign flip).
func TestOffshoreChannelSets(t *testing.T) {
	floating := []string{"Time", "RotSpeed", "PtfmSurge", "PtfmPitch", "PtfmHeave", "Wave1Elev", "FAIRTEN1", "FAIRTEN2", "ANCHTEN1", "TwrBsMyt", "B1WvsF1xi"}
	monopile := []string{"RotSpeed", "-ReactFXss", "ReactMYss", "ReactMXss", "IntfFXss", "Wave1Elev", "TwrBsMxt", "TwrBsMyt"}
	for _, c := range []struct {
		names []string
		want  []results.OffshoreChannelSet
	}{
		{floating, []results.OffshoreChannelSet{
			{Name: "Platform motions", Channels: []string{"PtfmSurge", "PtfmPitch", "PtfmHeave"}},
			{Name: "Mooring tensions", Channels: []string{"FAIRTEN1", "FAIRTEN2", "ANCHTEN1"}},
			{Name: "Wave elevation", Channels: []string{"Wave1Elev"}},
			{Name: "Tower-base loads", Channels: []string{"TwrBsMyt"}},
		}},
		{monopile, []results.OffshoreChannelSet{
			{Name: "Wave elevation", Channels: []string{"Wave1Elev"}},
			{Name: "Substructure reactions", Channels: []string{"-ReactFXss", "ReactMYss", "ReactMXss"}},
			{Name: "Mudline moments", Channels: []string{"ReactMYss", "ReactMXss"}},
			{Name: "Tower-base loads", Channels: []string{"TwrBsMxt", "TwrBsMyt"}},
		}},
		{[]string{"RotSpeed", "GenPwr"}, nil},
	} {
		if got := results.OffshoreChannelSets(c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("OffshoreChannelSets(%v) = %+v, want %+v", c.names, got, c.want)
		}
	}
}
