package control

import (
	"math"
	"strings"
)

// Channel is an output channel name and unit as OpenFAST's ServoDyn writes
// it in the OutList / .outb header.
type Channel struct {
	Name string
	Unit string
	// Meaning says what the value is and its sign convention.
	Meaning string
}

// OutputChannels lists the ServoDyn OutList channels this module provides,
// in OpenFAST's names and units. Values come from Outputs.Channel.
func OutputChannels() []Channel {
	return []Channel{
		{"GenPwr", "kW", "electrical generator power (ElecPwr)"},
		{"GenTq", "kN-m", "generator torque on the HSS"},
		{"BlPitchC1", "deg", "blade 1 pitch command"},
		{"BlPitchC2", "deg", "blade 2 pitch command"},
		{"BlPitchC3", "deg", "blade 3 pitch command"},
		{"HSSBrTqC", "kN-m", "high-speed shaft brake torque (opposes HSS rotation)"},
		{"YawMomCom", "kN-m", "yaw moment from the yaw spring/damper toward the command"},
	}
}

// Channel returns the value of an OutList channel in OpenFAST's output units
// (see OutputChannels); names are matched case-insensitively. ok is false
// for a channel this module does not produce.
func (y Outputs) Channel(name string) (v float64, ok bool) {
	switch strings.ToUpper(name) {
	case "GENPWR":
		return y.ElecPwr / 1000, true
	case "GENTQ":
		return y.GenTrq / 1000, true
	case "BLPITCHC1":
		return y.BlPitchCom[0] * 180 / math.Pi, true
	case "BLPITCHC2":
		return y.BlPitchCom[1] * 180 / math.Pi, true
	case "BLPITCHC3":
		return y.BlPitchCom[2] * 180 / math.Pi, true
	case "HSSBRTQC":
		return y.HSSBrTrqC / 1000, true
	case "YAWMOMCOM":
		return y.YawMom / 1000, true
	}
	return 0, false
}
