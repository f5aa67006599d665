package aero

import (
	"math"
	"strconv"
	"strings"
)

// Channel returns the value and unit of one AeroDyn output channel for the
// state last computed into out, by the names of AeroDyn's
// OutListParameters (matched case-insensitively):
//
//   - rotor: RtSpeed (rpm), RtTSR, RtVAvgxh/yh/zh (m/s), RtSkew (deg),
//     RtFldFxh/Fyh/Fzh (N), RtFldMxh/Myh/Mzh (N-m), RtFldPwr (W), RtArea (m^2),
//     RtFldCp, RtFldCq, RtFldCt, and the pre-v5 names RtAeroFxh ... RtAeroCt;
//   - selected blade nodes: B<b>N<k><Q> where node k (1-9) indexes blOutNd,
//     e.g. B1N1Alpha;
//   - every blade node: AB<b>N<nnn><Q> (AeroDyn's nodal outputs), e.g.
//     AB1N001Alpha.
//
// with Q one of Alpha, Phi, Theta (deg), AxInd, TnInd, Cl, Cd, Cm, Cx, Cy, Cn,
// Ct, Re, Vx, Vy, Vrel (m/s), Vindx, Vindy (m/s: the induced velocity
// normal to and in the rotor plane, −a·Vx and a'·Vy), M (Mach number
// Vrel/SpdSound), Fx, Fy, Fn, Ft (N/m), Mm (N-m/m). ok is false for names
// this package does not produce.
func Channel(out *Output, name string, blOutNd []int) (value float64, unit string, ok bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	ro := &out.Rotor
	const rad2deg = 180 / math.Pi
	switch n {
	case "rtspeed":
		return ro.Speed * 30 / math.Pi, "rpm", true
	case "rttsr":
		return ro.TSR, "-", true
	case "rtvavgxh":
		return ro.VAvg[0], "m/s", true
	case "rtvavgyh":
		return ro.VAvg[1], "m/s", true
	case "rtvavgzh":
		return ro.VAvg[2], "m/s", true
	case "rtskew":
		return ro.Skew * rad2deg, "deg", true
	case "rtarea":
		return ro.Area, "m^2", true
	}
	for _, pre := range []string{"rtfld", "rtaero"} {
		if !strings.HasPrefix(n, pre) {
			continue
		}
		switch n[len(pre):] {
		case "fxh":
			return ro.Force[0], "N", true
		case "fyh":
			return ro.Force[1], "N", true
		case "fzh":
			return ro.Force[2], "N", true
		case "mxh":
			return ro.Moment[0], "N-m", true
		case "myh":
			return ro.Moment[1], "N-m", true
		case "mzh":
			return ro.Moment[2], "N-m", true
		case "pwr":
			return ro.Power, "W", true
		case "cp":
			return ro.Cp, "-", true
		case "cq":
			return ro.Cq, "-", true
		case "ct":
			return ro.Ct, "-", true
		}
	}
	// Node channels.
	nodal := strings.HasPrefix(n, "ab")
	rest := n
	if nodal {
		rest = n[1:]
	}
	if len(rest) < 4 || rest[0] != 'b' {
		return 0, "", false
	}
	b := int(rest[1] - '0')
	if b < 1 || b > len(out.Blades) || rest[2] != 'n' {
		return 0, "", false
	}
	rest = rest[3:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits == len(rest) {
		return 0, "", false
	}
	k, err := strconv.Atoi(rest[:digits])
	if err != nil {
		return 0, "", false
	}
	if !nodal {
		if digits != 1 || k < 1 || k > len(blOutNd) {
			return 0, "", false
		}
		k = blOutNd[k-1]
	}
	if k < 1 || k > len(out.Blades[b-1]) {
		return 0, "", false
	}
	o := &out.Blades[b-1][k-1]
	switch rest[digits:] {
	case "alpha":
		return o.Alpha * rad2deg, "deg", true
	case "phi":
		return o.Phi * rad2deg, "deg", true
	case "theta":
		return o.Theta * rad2deg, "deg", true
	case "axind":
		return o.AxInd, "-", true
	case "tnind":
		return o.TanInd, "-", true
	case "cl":
		return o.Cl, "-", true
	case "cd":
		return o.Cd, "-", true
	case "cm":
		return o.Cm, "-", true
	case "cx":
		return o.Cx, "-", true
	case "cy":
		return o.Cy, "-", true
	case "cn":
		return o.Cn, "-", true
	case "ct":
		return o.Ct, "-", true
	case "re":
		return o.Re, "-", true
	case "vx":
		return o.Vx, "m/s", true
	case "vy":
		return o.Vy, "m/s", true
	case "vrel":
		return o.Vrel, "m/s", true
	case "vindx":
		// AeroDyn's nodal outputs (OutListParameters, AeroDyn_Nodes):
		// the axial induced velocity opposes the inflow normal to the
		// rotor plane, the tangential one adds to the in-plane inflow.
		return -o.AxInd * o.Vx, "m/s", true
	case "vindy":
		return o.TanInd * o.Vy, "m/s", true
	case "m":
		if out.SpeedOfSound <= 0 {
			return 0, "-", true
		}
		return o.Vrel / out.SpeedOfSound, "-", true
	case "fx":
		return o.Fx, "N/m", true
	case "fy":
		return o.Fy, "N/m", true
	case "fn":
		return o.Fn, "N/m", true
	case "ft":
		return o.Ft, "N/m", true
	case "mm":
		return o.Mm, "N-m/m", true
	}
	return 0, "", false
}
