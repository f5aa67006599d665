package coupling

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// channel is one output column: OpenFAST's name and unit and how to read it
// from the simulation after a step.
type channel struct {
	Name string
	Unit string
	get  func(s *sim) float64
	// detail marks a channel read from structure.Outputs.Detail, which
	// the structure computes only when some channel needs it; towerGage
	// one that needs the tower gages' section loads or motions
	// (Outputs.SetTowerGages).
	detail, towerGage bool
}

const (
	deg   = math.Pi / 180
	r2d   = 180 / math.Pi
	rpm   = 30 / math.Pi
	kilo  = 1e-3
	unitN = "kN"
	unitM = "kN-m"
)

// edChannels is the catalogue of ElastoDyn channels (OutListParameters,
// ElastoDyn tab) that the structure provides, keyed by upper-case name.
func edChannels(numBl, nBlGages int, twrGagNd []int) map[string]channel {
	nTwGages := len(twrGagNd)
	c := map[string]channel{}
	add := func(name, unit string, get func(s *sim) float64) {
		c[strings.ToUpper(name)] = channel{Name: name, Unit: unit, get: get}
	}
	invalid := func(name string) {
		c[strings.ToUpper(name)] = channel{Name: name, Unit: "INVALID", get: func(*sim) float64 { return 0 }}
	}
	o := func(s *sim) *structure.Outputs { return s.edOut }
	det := func(s *sim) *structure.DetailOutputs { return s.edOut.Detail }
	// addDetail adds a channel of structure.DetailOutputs.
	addDetail := func(name, unit string, get func(s *sim) float64) {
		c[strings.ToUpper(name)] = channel{Name: name, Unit: unit, get: get, detail: true}
	}
	// addGage adds a tower-gage channel of the section loads (detail
	// false) or of DetailOutputs.TowerGages (detail true).
	addGage := func(name, unit string, detail bool, get func(s *sim) float64) {
		c[strings.ToUpper(name)] = channel{Name: name, Unit: unit, get: get, detail: detail, towerGage: true}
	}
	add("Azimuth", "deg", func(s *sim) float64 { return o(s).Azimuth * r2d })
	add("RotSpeed", "rpm", func(s *sim) float64 { return o(s).RotSpeed * rpm })
	add("LSSTipVxa", "rpm", func(s *sim) float64 { return o(s).RotSpeed * rpm })
	add("GenSpeed", "rpm", func(s *sim) float64 { return o(s).GenSpeed * rpm })
	add("HSShftV", "rpm", func(s *sim) float64 { return o(s).GenSpeed * rpm })
	add("RotAccel", "deg/s^2", func(s *sim) float64 { return o(s).RotAccel * r2d })
	add("GenAccel", "deg/s^2", func(s *sim) float64 { return o(s).GenAccel * r2d })
	// ElastoDyn's other names of the rotor's and generator's azimuth,
	// speed and acceleration (OutListParameters), and the low-speed shaft
	// gage's speed and acceleration: those of the generator azimuth DOF,
	// on the gearbox side of the drivetrain's torsion.
	for _, n := range []string{"LSSTipPxa", "LSSTipPxs", "LSSTipP"} {
		add(n, "deg", func(s *sim) float64 { return o(s).Azimuth * r2d })
	}
	for _, n := range []string{"LSSTipVxs", "LSSTipV"} {
		add(n, "rpm", func(s *sim) float64 { return o(s).RotSpeed * rpm })
	}
	for _, n := range []string{"LSSTipAxa", "LSSTipAxs", "LSSTipA"} {
		add(n, "deg/s^2", func(s *sim) float64 { return o(s).RotAccel * r2d })
	}
	for _, n := range []string{"LSSGagVxa", "LSSGagVxs", "LSSGagV"} {
		add(n, "rpm", func(s *sim) float64 { return o(s).QD[structure.DOFGeAz] * rpm })
	}
	for _, n := range []string{"LSSGagAxa", "LSSGagAxs", "LSSGagA"} {
		add(n, "deg/s^2", func(s *sim) float64 { return o(s).QDD[structure.DOFGeAz] * r2d })
	}
	add("HSShftA", "deg/s^2", func(s *sim) float64 { return o(s).GenAccel * r2d })
	for _, n := range []string{"NacYaw", "YawPzn", "YawPzp", "NacYawP", "YawPos"} {
		add(n, "deg", func(s *sim) float64 { return o(s).NacYaw * r2d })
	}
	for _, n := range []string{"NacYawV", "YawVzn", "YawVzp", "YawRate"} {
		add(n, "deg/s", func(s *sim) float64 { return o(s).YawRate * r2d })
	}
	for _, n := range []string{"YawAzn", "YawAzp", "NacYawA", "YawAccel"} {
		add(n, "deg/s^2", func(s *sim) float64 { return o(s).QDD[structure.DOFYaw] * r2d })
	}
	// The low-speed shaft gage's azimuth: the generator azimuth DOF's
	// (the gearbox side of the drivetrain's torsion), blade 1 up at 0.
	for _, n := range []string{"LSSGagPxa", "LSSGagPxs", "LSSGagP"} {
		add(n, "deg", func(s *sim) float64 { return o(s).LSSGagAzimuth * r2d })
	}
	add("TTDspFA", "m", func(s *sim) float64 { return o(s).TTDspFA })
	add("TTDspSS", "m", func(s *sim) float64 { return o(s).TTDspSS })
	// No tower torsion DOF: the tower top's twist is zero, as in ElastoDyn.
	for _, n := range []string{"TTDspTwst", "YawBrRDzt"} {
		add(n, "deg", func(s *sim) float64 { return 0 })
	}
	// YawBrTDxt/yt are ElastoDyn's other names of TTDspFA/SS.
	add("YawBrTDxt", "m", func(s *sim) float64 { return o(s).TTDspFA })
	add("YawBrTDyt", "m", func(s *sim) float64 { return o(s).TTDspSS })
	// The tower top's motion in other frames (DetailOutputs).
	for i, ax := range []string{"x", "y", "z"} {
		i := i
		addDetail("YawBrTD"+ax+"p", "m", func(s *sim) float64 { return det(s).YawBrTDp[i] })
		addDetail("YawBrTV"+ax+"p", "m/s", func(s *sim) float64 { return det(s).YawBrTVp[i] })
		addDetail("YawBrTAg"+ax+"p", "m/s^2", func(s *sim) float64 { return det(s).YawBrTAgp[i] })
		addDetail("YawBrRV"+ax+"p", "deg/s", func(s *sim) float64 { return det(s).YawBrRVp[i] * r2d })
		addDetail("YawBrRA"+ax+"p", "deg/s^2", func(s *sim) float64 { return det(s).YawBrRAp[i] * r2d })
		for _, n := range []string{"TwrTpTD" + ax + "i", "YawBrTD" + ax + "i"} {
			addDetail(n, "m", func(s *sim) float64 { return det(s).TwrTpTDi[i] })
		}
		addDetail("NcIMUTAg"+ax+"s", "m/s^2", func(s *sim) float64 { return det(s).NcIMUTAg[i] })
		addDetail("PtfmTD"+ax+"t", "m", func(s *sim) float64 { return det(s).PtfmTDt[i] })
		addDetail("PtfmTAg"+ax+"t", "m/s^2", func(s *sim) float64 { return det(s).PtfmTAgt[i] })
		addDetail("PtfmTAg"+ax+"i", "m/s^2", func(s *sim) float64 { return det(s).PtfmTAgi[i] })
		addDetail("YawBrF"+ax+"n", unitN, func(s *sim) float64 { return det(s).YawBrFn[i] * kilo })
		if i < 2 {
			addDetail("YawBrM"+ax+"n", unitM, func(s *sim) float64 { return det(s).YawBrMn[i] * kilo })
		}
	}
	// The yaw moment is the same about the nacelle's and the tower top's z axes.
	add("YawBrMzn", unitM, func(s *sim) float64 { return o(s).YawBrM[2] * kilo })
	for _, n := range []string{"YawBrTDzt", "TTDspAx"} {
		addDetail(n, "m", func(s *sim) float64 { return det(s).YawBrTDt[2] })
	}
	for _, n := range []string{"YawBrRDxt", "TTDspRoll"} {
		addDetail(n, "deg", func(s *sim) float64 { return det(s).YawBrRDt[0] * r2d })
	}
	for _, n := range []string{"YawBrRDyt", "TTDspPtch"} {
		addDetail(n, "deg", func(s *sim) float64 { return det(s).YawBrRDt[1] * r2d })
	}
	// Tower gages (TwrGagNd): the node's position in the inertial frame
	// and its deflection in the tower-base frame.
	for g, nd := range twrGagNd {
		j := nd - 1
		h := "TwHt" + strconv.Itoa(g+1)
		for i, ax := range []string{"x", "y", "z"} {
			i := i
			add(h+"TP"+ax+"i", "m", func(s *sim) float64 { return o(s).TowerNodePos[j][i] })
		}
		add(h+"TDxt", "m", func(s *sim) float64 { return o(s).TowerNodeDefl[j][0] })
		add(h+"TDyt", "m", func(s *sim) float64 { return o(s).TowerNodeDefl[j][1] })
		// Section loads and the gage's motion (DetailOutputs.TowerGages):
		// when one of these is asked for, resolveChannels has the
		// structure compute them at every gage (Outputs.SetTowerGages).
		g := g
		for i, ax := range []string{"x", "y", "z"} {
			i := i
			addGage(h+"FL"+ax+"t", unitN, false, func(s *sim) float64 { return o(s).TowerGageF[g][i] * kilo })
			addGage(h+"ML"+ax+"t", unitM, false, func(s *sim) float64 { return o(s).TowerGageM[g][i] * kilo })
			addGage(h+"AL"+ax+"t", "m/s^2", true, func(s *sim) float64 { return det(s).TowerGages[g].AL[i] })
			addGage(h+"ALg"+ax+"t", "m/s^2", true, func(s *sim) float64 { return det(s).TowerGages[g].ALg[i] })
			addGage(h+"RD"+ax+"t", "deg", true, func(s *sim) float64 { return det(s).TowerGages[g].RD[i] * r2d })
			addGage(h+"RP"+ax+"i", "deg", true, func(s *sim) float64 { return det(s).TowerGages[g].RP[i] * r2d })
		}
		addGage(h+"TDzt", "m", true, func(s *sim) float64 { return det(s).TowerGages[g].TD[2] })
	}
	for i, n := range []string{"x", "y", "z"} {
		i := i
		add("NcIMUTA"+n+"s", "m/s^2", func(s *sim) float64 { return o(s).NcIMUTA[i] })
		add("NcIMUTV"+n+"s", "m/s", func(s *sim) float64 { return o(s).NcIMUTV[i] })
		add("NcIMURA"+n+"s", "deg/s^2", func(s *sim) float64 { return o(s).NcIMURA[i] * r2d })
		add("NcIMURV"+n+"s", "deg/s", func(s *sim) float64 { return o(s).NcIMURV[i] * r2d })
		add("YawBrTA"+n+"p", "m/s^2", func(s *sim) float64 { return o(s).YawBrTA[i] })
		add("YawBrF"+n+"p", unitN, func(s *sim) float64 { return o(s).YawBrF[i] * kilo })
		add("YawBrM"+n+"p", unitM, func(s *sim) float64 { return o(s).YawBrM[i] * kilo })
		add("TwrBsF"+n+"t", unitN, func(s *sim) float64 { return o(s).TwrBsF[i] * kilo })
		add("TwrBsM"+n+"t", unitM, func(s *sim) float64 { return o(s).TwrBsM[i] * kilo })
	}
	// Platform motion (ElastoDyn's platform channels; zero on land): the
	// reference point's displacement, the platform rotations, and the
	// velocities and accelerations along the inertial (i) and platform (t)
	// axes.
	for i, n := range []string{"x", "y", "z"} {
		i := i
		add("PtfmTD"+n+"i", "m", func(s *sim) float64 { return o(s).PtfmTDi[i] })
		add("PtfmRD"+n+"i", "deg", func(s *sim) float64 { return o(s).PtfmRDi[i] * r2d })
		add("PtfmTV"+n+"i", "m/s", func(s *sim) float64 { return o(s).PtfmTVi[i] })
		add("PtfmTV"+n+"t", "m/s", func(s *sim) float64 { return o(s).PtfmTVt[i] })
		add("PtfmRV"+n+"i", "deg/s", func(s *sim) float64 { return o(s).PtfmRVi[i] * r2d })
		add("PtfmRV"+n+"t", "deg/s", func(s *sim) float64 { return o(s).PtfmRVt[i] * r2d })
		add("PtfmTA"+n+"i", "m/s^2", func(s *sim) float64 { return o(s).PtfmTAi[i] })
		add("PtfmTA"+n+"t", "m/s^2", func(s *sim) float64 { return o(s).PtfmTAt[i] })
		add("PtfmRA"+n+"i", "deg/s^2", func(s *sim) float64 { return o(s).PtfmRAi[i] * r2d })
		add("PtfmRA"+n+"t", "deg/s^2", func(s *sim) float64 { return o(s).PtfmRAt[i] * r2d })
	}
	for i, n := range []string{"PtfmSurge", "PtfmSway", "PtfmHeave"} {
		i := i
		add(n, "m", func(s *sim) float64 { return o(s).PtfmTDi[i] })
	}
	for i, n := range []string{"PtfmRoll", "PtfmPitch", "PtfmYaw"} {
		i := i
		add(n, "deg", func(s *sim) float64 { return o(s).PtfmRDi[i] * r2d })
	}
	for i, n := range []string{"Sg", "Sw", "Hv", "R", "P", "Y"} {
		j := structure.DOFSg + i
		unit := "m"
		if i >= 3 {
			unit = "rad"
		}
		add("Q_"+n, unit, func(s *sim) float64 { return s.st.Q[j] })
		add("QD_"+n, unit+"/s", func(s *sim) float64 { return s.st.QD[j] })
		add("QD2_"+n, unit+"/s^2", func(s *sim) float64 { return o(s).QDD[j] })
	}
	add("RotThrust", unitN, func(s *sim) float64 { return o(s).RotThrust * kilo })
	add("LSShftFxa", unitN, func(s *sim) float64 { return o(s).RotThrust * kilo })
	add("LSShftFxs", unitN, func(s *sim) float64 { return o(s).RotThrust * kilo })
	add("RotTorq", unitM, func(s *sim) float64 { return o(s).RotTorq * kilo })
	add("LSShftMxa", unitM, func(s *sim) float64 { return o(s).RotTorq * kilo })
	add("LSShftMxs", unitM, func(s *sim) float64 { return o(s).RotTorq * kilo })
	add("LSSTipMxa", unitM, func(s *sim) float64 { return o(s).RotTorq * kilo })
	add("LSSTipMya", unitM, func(s *sim) float64 { return o(s).LSSTipM[1] * kilo })
	add("LSSTipMza", unitM, func(s *sim) float64 { return o(s).LSSTipM[2] * kilo })
	add("LSSTipMys", unitM, func(s *sim) float64 { return o(s).LSSTipMs[1] * kilo })
	add("LSSTipMzs", unitM, func(s *sim) float64 { return o(s).LSSTipMs[2] * kilo })
	add("LSShftFys", unitN, func(s *sim) float64 { return o(s).LSShftFs[1] * kilo })
	add("LSShftFzs", unitN, func(s *sim) float64 { return o(s).LSShftFs[2] * kilo })
	add("LSSGagFya", unitN, func(s *sim) float64 { return o(s).LSSGagF[1] * kilo })
	add("LSSGagFza", unitN, func(s *sim) float64 { return o(s).LSSGagF[2] * kilo })
	add("LSSGagMya", unitM, func(s *sim) float64 { return o(s).LSSGagM[1] * kilo })
	add("LSSGagMza", unitM, func(s *sim) float64 { return o(s).LSSGagM[2] * kilo })
	addDetail("LSSGagMys", unitM, func(s *sim) float64 { return det(s).LSSGagMs[1] * kilo })
	addDetail("LSSGagMzs", unitM, func(s *sim) float64 { return det(s).LSSGagMs[2] * kilo })
	// ElastoDyn's other names of the shaft's thrust, torque and shear
	// forces (the same all along the shaft).
	for _, n := range []string{"LSSGagFxa", "LSSGagFxs"} {
		add(n, unitN, func(s *sim) float64 { return o(s).RotThrust * kilo })
	}
	for _, n := range []string{"LSSGagMxa", "LSSGagMxs", "LSShftTq"} {
		add(n, unitM, func(s *sim) float64 { return o(s).RotTorq * kilo })
	}
	add("LSShftFya", unitN, func(s *sim) float64 { return o(s).LSSGagF[1] * kilo })
	add("LSShftFza", unitN, func(s *sim) float64 { return o(s).LSSGagF[2] * kilo })
	add("LSSGagFys", unitN, func(s *sim) float64 { return o(s).LSShftFs[1] * kilo })
	add("LSSGagFzs", unitN, func(s *sim) float64 { return o(s).LSShftFs[2] * kilo })
	add("RotPwr", "kW", func(s *sim) float64 { return o(s).RotPwr * kilo })
	add("LSShftPwr", "kW", func(s *sim) float64 { return o(s).RotPwr * kilo })
	add("HSShftTq", unitM, func(s *sim) float64 { return o(s).HSShftTq * kilo })
	add("HSSBrTq", unitM, func(s *sim) float64 { return o(s).HSSBrTq * kilo })
	add("HSShftPwr", "kW", func(s *sim) float64 { return o(s).HSShftTq * o(s).GenSpeed * kilo })
	// The degrees of freedom, their rates and accelerations (ElastoDyn's
	// Q_, QD_ and QD2_ channels). ElastoDyn's side-to-side tower DOFs
	// point the other way from this model's.
	dofs := []struct {
		name string
		dof  int
		unit string
		sign float64
	}{
		{"GeAz", structure.DOFGeAz, "rad", 1}, {"DrTr", structure.DOFDrTr, "rad", 1}, {"Yaw", structure.DOFYaw, "rad", 1},
		{"TFA1", structure.DOFTFA1, "m", 1}, {"TSS1", structure.DOFTSS1, "m", -1},
		{"TFA2", structure.DOFTFA2, "m", 1}, {"TSS2", structure.DOFTSS2, "m", -1},
	}
	for k := 0; k < numBl; k++ {
		b := strconv.Itoa(k + 1)
		for m, mode := range []string{"F1", "E1", "F2"} {
			dofs = append(dofs, struct {
				name string
				dof  int
				unit string
				sign float64
			}{"B" + b + mode, structure.DOFBlade(k, m), "m", 1})
		}
	}
	for _, d := range dofs {
		j, sg := d.dof, d.sign
		add("Q_"+d.name, d.unit, func(s *sim) float64 { return sg * s.st.Q[j] })
		add("QD_"+d.name, d.unit+"/s", func(s *sim) float64 { return sg * s.st.QD[j] })
		add("QD2_"+d.name, d.unit+"/s^2", func(s *sim) float64 { return sg * o(s).QDD[j] })
	}
	// No teeter hinge (two-bladed rotors are refused) and no furling:
	// ElastoDyn writes these as INVALID. Yaw friction (ElastoDyn's
	// YawFrctMod) is not modelled, so its torque and the yaw rate and
	// acceleration its model holds are INVALID too.
	for _, n := range []string{"YawFriMom", "YawFriMfp", "YawFriMz", "OmegaYF", "dOmegaYF", "TeetDefl",
		"Q_Teet", "QD_Teet", "QD2_Teet", "TeetPya", "TeetVya", "TeetAya", "RotTeetP", "RotTeetV", "RotTeetA",
		"Q_RFrl", "QD_RFrl", "QD2_RFrl", "Q_TFrl", "QD_TFrl", "QD2_TFrl", "RotFurl", "RotFurlP", "RotFurlV", "RotFurlA",
		"TailFurl", "TailFurlP", "TailFurlV", "TailFurlA", "RFrlBrM", "TFrlBrM"} {
		invalid(n)
	}
	for k := 0; k < numBl; k++ {
		k := k
		b := strconv.Itoa(k + 1)
		for _, n := range []string{"BldPitch", "PtchPMzc", "PtchPMzb", "BlPitch"} {
			add(n+b, "deg", func(s *sim) float64 { return o(s).BlPitch[k] * r2d })
		}
		// The pitch is prescribed (ElastoDyn's PitchDOF is refused): its
		// rate and acceleration channels are INVALID, as ElastoDyn writes
		// them without the pitch DOF.
		invalid("BldPRate" + b)
		invalid("BldPAcc" + b)
		add("OoPDefl"+b, "m", func(s *sim) float64 { return o(s).OoPDefl[k] })
		add("TipDxc"+b, "m", func(s *sim) float64 { return o(s).OoPDefl[k] })
		add("IPDefl"+b, "m", func(s *sim) float64 { return o(s).IPDefl[k] })
		add("TipDyc"+b, "m", func(s *sim) float64 { return o(s).IPDefl[k] })
		add("TipDzc"+b, "m", func(s *sim) float64 { return o(s).TipDzc[k] })
		// No blade torsion DOF: the tip twist is zero, as in ElastoDyn.
		add("TwstDefl"+b, "deg", func(*sim) float64 { return 0 })
		add("TipRDzc"+b, "deg", func(*sim) float64 { return 0 })
		add("TipRDzb"+b, "deg", func(*sim) float64 { return 0 })
		// The tip's acceleration in the last node's element frame and its
		// bending slopes (DetailOutputs).
		for i, ax := range []string{"x", "y", "z"} {
			i := i
			addDetail("TipAL"+ax+"b"+b, "m/s^2", func(s *sim) float64 { return det(s).TipAL[k][i] })
			addDetail("TipALg"+ax+"b"+b, "m/s^2", func(s *sim) float64 { return det(s).TipALg[k][i] })
		}
		for _, n := range []string{"TipRDxb", "RollDefl"} {
			addDetail(n+b, "deg", func(s *sim) float64 { return det(s).TipRD[k][0] * r2d })
		}
		for _, n := range []string{"TipRDyb", "PtchDefl"} {
			addDetail(n+b, "deg", func(s *sim) float64 { return det(s).TipRD[k][1] * r2d })
		}
		add("TwrClrnc"+b, "m", func(s *sim) float64 { return o(s).TwrClrnc[k] })
		add("TipClrnc"+b, "m", func(s *sim) float64 { return o(s).TwrClrnc[k] })
		add("Tip2Twr"+b, "m", func(s *sim) float64 { return o(s).TwrClrnc[k] })
		// The root moments' other names: in-plane and out-of-plane in the
		// coned frame, edgewise and flapwise in the pitched frame.
		add("RootMIP"+b, unitM, func(s *sim) float64 { return o(s).RootMc[k][0] * kilo })
		add("RootMOoP"+b, unitM, func(s *sim) float64 { return o(s).RootMc[k][1] * kilo })
		add("RootMEdg"+b, unitM, func(s *sim) float64 { return o(s).RootMb[k][0] * kilo })
		add("RootMFlp"+b, unitM, func(s *sim) float64 { return o(s).RootMb[k][1] * kilo })
		for i, ax := range []string{"x", "y", "z"} {
			i := i
			add("RootF"+ax+"c"+b, unitN, func(s *sim) float64 { return o(s).RootFc[k][i] * kilo })
			add("RootM"+ax+"c"+b, unitM, func(s *sim) float64 { return o(s).RootMc[k][i] * kilo })
			add("RootM"+ax+"b"+b, unitM, func(s *sim) float64 { return o(s).RootMb[k][i] * kilo })
			add("RootF"+ax+"b"+b, unitN, func(s *sim) float64 { return o(s).RootFb[k][i] * kilo })
			add("TipD"+ax+"b"+b, "m", func(s *sim) float64 { return o(s).TipDb[k][i] })
		}
		// Blade strain-gage channels are INVALID when the gage does not exist.
		for g := nBlGages + 1; g <= 9; g++ {
			for _, q := range []string{"ML", "FL", "TD", "RD", "AL", "ALg"} {
				for _, ax := range []string{"x", "y", "z"} {
					invalid(fmt.Sprintf("Spn%d%s%sb%s", g, q, ax, b))
				}
			}
		}
	}
	for g := nTwGages + 1; g <= 9; g++ {
		for _, q := range []string{"MLxt", "MLyt", "MLzt", "FLxt", "FLyt", "FLzt", "TDxt", "TDyt", "TDzt", "RDxt", "RDyt", "RDzt",
			"ALxt", "ALyt", "ALzt", "ALgxt", "ALgyt", "ALgzt", "TPxi", "TPyi", "TPzi", "RPxi", "RPyi", "RPzi"} {
			invalid(fmt.Sprintf("TwHt%d%s", g, q))
		}
	}
	return c
}

// aeroChannel resolves an AeroDyn channel through the aero package.
func aeroChannel(name string, blOutNd []int, probe *aero.Output) (channel, bool) {
	_, unit, ok := aero.Channel(probe, name, blOutNd)
	if !ok {
		return channel{}, false
	}
	return channel{Name: name, Unit: unit, get: func(s *sim) float64 {
		v, _, _ := aero.Channel(s.aeroOut, name, blOutNd)
		return v
	}}, true
}

// servoChannel resolves a ServoDyn channel through the control package.
func servoChannel(name string) (channel, bool) {
	for _, c := range control.OutputChannels() {
		if strings.EqualFold(c.Name, name) {
			return channel{Name: name, Unit: c.Unit, get: func(s *sim) float64 {
				v, _ := s.srvOut.Channel(name)
				return v
			}}, true
		}
	}
	return channel{}, false
}

// inflowChannel resolves Wind<n>Vel<X|Y|Z> for the InflowWind output points.
func inflowChannel(name string, nPoints int) (channel, bool) {
	u := strings.ToUpper(name)
	if !strings.HasPrefix(u, "WIND") || len(u) != len("WIND1VELX") || u[5:8] != "VEL" {
		return channel{}, false
	}
	i := int(u[4] - '1')
	ax := strings.IndexByte("XYZ", u[8])
	if i < 0 || i >= 9 || ax < 0 {
		return channel{}, false
	}
	if i >= nPoints {
		return channel{Name: name, Unit: "INVALID", get: func(*sim) float64 { return 0 }}, true
	}
	return channel{Name: name, Unit: "m/s", get: func(s *sim) float64 { return s.probeVel[i][ax] }}, true
}

// validNames lists the available channel names for error messages.
func validNames(ed map[string]channel, extra []string) string {
	var names []string
	for _, c := range ed {
		if c.Unit != "INVALID" {
			names = append(names, c.Name)
		}
	}
	sort.Strings(names)
	names = append(names, extra...)
	return strings.Join(names, ", ")
}

// edGageChannel builds ElastoDyn's blade strain-gage channel
// Spn<g><Q><axis>b<b> for gage g at node bldGagNd[g-1]: the node's
// deflection, rotation, acceleration and section loads, which are the
// all-blade-node outputs of that node (ElastoDyn computes both from the
// same loads outboard of the node). ok is false for other names.
func edGageChannel(name string, bldGagNd []int, numBl int) (c channel, blade int, ok bool) {
	u := strings.ToUpper(name)
	n := len(u)
	if n < len("SPN1MLXB1") || !strings.HasPrefix(u, "SPN") || u[n-2] != 'B' {
		return channel{}, 0, false
	}
	g, b := int(u[3]-'0'), int(u[n-1]-'0')
	q := u[4 : n-2]
	if g < 1 || g > len(bldGagNd) || b < 1 || b > numBl {
		return channel{}, 0, false
	}
	j := bldGagNd[g-1] - 1
	switch q {
	case "ALGX", "ALGY", "ALGZ":
		// The acceleration relative to g has no all-blade-node channel.
		i := int(q[3] - 'X')
		return channel{Name: name, Unit: "m/s^2", get: func(s *sim) float64 { return s.edOut.Nodes[b-1][j].ALg[i] }}, b, true
	}
	if len(q) != 3 || q[2] < 'X' || q[2] > 'Z' {
		return channel{}, 0, false
	}
	nodal, ok := edNodalChannel(q, b-1, j)
	if !ok {
		return channel{}, 0, false
	}
	nodal.Name = name
	return nodal, b, true
}

// edNodalChannel builds ElastoDyn's all-blade-node channel B<b>N<nnn><Q>.
func edNodalChannel(q string, k, j int) (channel, bool) {
	name := fmt.Sprintf("B%dN%03d%s", k+1, j+1, q)
	var get func(n *structure.NodeOutputs) float64
	unit := ""
	switch strings.ToUpper(q) {
	case "TDX", "TDY", "TDZ":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = "m", func(n *structure.NodeOutputs) float64 { return n.TD[i] }
	case "RDX", "RDY", "RDZ":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = "deg", func(n *structure.NodeOutputs) float64 { return n.RD[i] * r2d }
	case "ALX", "ALY", "ALZ":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = "m/s^2", func(n *structure.NodeOutputs) float64 { return n.AL[i] }
	case "FLX", "FLY", "FLZ":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = unitN, func(n *structure.NodeOutputs) float64 { return n.FL[i] * kilo }
	case "MLX", "MLY", "MLZ":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = unitM, func(n *structure.NodeOutputs) float64 { return n.ML[i] * kilo }
	case "FLXNT", "FLYNT":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = unitN, func(n *structure.NodeOutputs) float64 { return n.FLNT[i] * kilo }
	case "MLXNT", "MLYNT":
		i := int(strings.ToUpper(q)[2] - 'X')
		unit, get = unitM, func(n *structure.NodeOutputs) float64 { return n.MLNT[i] * kilo }
	default:
		return channel{}, false
	}
	return channel{Name: name, Unit: unit, get: func(s *sim) float64 { return get(&s.edOut.Nodes[k][j]) }}, true
}
