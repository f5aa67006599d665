package deck

import (
	"fmt"
	"strings"
)

// ElastoDyn is the ElastoDyn primary input file, v5 layout. Angles are in
// degrees (BlPitch, TeetDefl, Azimuth, NacYaw, PtfmRoll/Pitch/Yaw, PreCone,
// Delta3, AzimB1Up, ShftTilt, TeetDmpP, TeetSStP, TeetHStP), RotSpeed in rpm,
// lengths in m, masses in kg, inertias in kg m^2, GBoxEff in %.
type ElastoDyn struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	Echo   bool    `fst:"Echo" sec:"SIMULATION CONTROL" desc:"Echo input data to \"<RootName>.ech\" (flag)"`
	Method int     `fst:"Method" desc:"Integration method: {1: RK4, 2: AB4, or 3: ABM4} (-)"`
	DT     DefReal `fst:"DT" desc:"Integration time step (s) (or \"default\" = glue-code DT)"`

	FlapDOF1  bool `fst:"FlapDOF1" sec:"DEGREES OF FREEDOM" desc:"First flapwise blade mode DOF (flag)"`
	FlapDOF2  bool `fst:"FlapDOF2" desc:"Second flapwise blade mode DOF (flag)"`
	EdgeDOF   bool `fst:"EdgeDOF" desc:"First edgewise blade mode DOF (flag)"`
	PitchDOF  bool `fst:"PitchDOF" opt:"False" desc:"Blade pitch DOF (flag)"`
	TeetDOF   bool `fst:"TeetDOF" desc:"Rotor-teeter DOF (flag) [unused for 3 blades]"`
	DrTrDOF   bool `fst:"DrTrDOF" desc:"Drivetrain rotational-flexibility DOF (flag)"`
	GenDOF    bool `fst:"GenDOF" desc:"Generator DOF (flag)"`
	YawDOF    bool `fst:"YawDOF" desc:"Yaw DOF (flag)"`
	TwFADOF1  bool `fst:"TwFADOF1" desc:"First fore-aft tower bending-mode DOF (flag)"`
	TwFADOF2  bool `fst:"TwFADOF2" desc:"Second fore-aft tower bending-mode DOF (flag)"`
	TwSSDOF1  bool `fst:"TwSSDOF1" desc:"First side-to-side tower bending-mode DOF (flag)"`
	TwSSDOF2  bool `fst:"TwSSDOF2" desc:"Second side-to-side tower bending-mode DOF (flag)"`
	PtfmSgDOF bool `fst:"PtfmSgDOF" desc:"Platform horizontal surge translation DOF (flag)"`
	PtfmSwDOF bool `fst:"PtfmSwDOF" desc:"Platform horizontal sway translation DOF (flag)"`
	PtfmHvDOF bool `fst:"PtfmHvDOF" desc:"Platform vertical heave translation DOF (flag)"`
	PtfmRDOF  bool `fst:"PtfmRDOF" desc:"Platform roll tilt rotation DOF (flag)"`
	PtfmPDOF  bool `fst:"PtfmPDOF" desc:"Platform pitch tilt rotation DOF (flag)"`
	PtfmYDOF  bool `fst:"PtfmYDOF" desc:"Platform yaw rotation DOF (flag)"`

	OoPDefl   float64    `fst:"OoPDefl" sec:"INITIAL CONDITIONS" desc:"Initial out-of-plane blade-tip displacement (meters)"`
	IPDefl    float64    `fst:"IPDefl" desc:"Initial in-plane blade-tip deflection (meters)"`
	BlPitch   [3]float64 `fst:"BlPitch" desc:"Blade initial pitch (degrees)"`
	TeetDefl  float64    `fst:"TeetDefl" desc:"Initial or fixed teeter angle (degrees) [unused for 3 blades]"`
	Azimuth   float64    `fst:"Azimuth" desc:"Initial azimuth angle for blade 1 (degrees)"`
	RotSpeed  float64    `fst:"RotSpeed" desc:"Initial or fixed rotor speed (rpm)"`
	NacYaw    float64    `fst:"NacYaw" desc:"Initial or fixed nacelle-yaw angle (degrees)"`
	TTDspFA   float64    `fst:"TTDspFA" desc:"Initial fore-aft tower-top displacement (meters)"`
	TTDspSS   float64    `fst:"TTDspSS" desc:"Initial side-to-side tower-top displacement (meters)"`
	PtfmSurge float64    `fst:"PtfmSurge" desc:"Initial or fixed horizontal surge translational displacement of platform (meters)"`
	PtfmSway  float64    `fst:"PtfmSway" desc:"Initial or fixed horizontal sway translational displacement of platform (meters)"`
	PtfmHeave float64    `fst:"PtfmHeave" desc:"Initial or fixed vertical heave translational displacement of platform (meters)"`
	PtfmRoll  float64    `fst:"PtfmRoll" desc:"Initial or fixed roll tilt rotational displacement of platform (degrees)"`
	PtfmPitch float64    `fst:"PtfmPitch" desc:"Initial or fixed pitch tilt rotational displacement of platform (degrees)"`
	PtfmYaw   float64    `fst:"PtfmYaw" desc:"Initial or fixed yaw rotational displacement of platform (degrees)"`

	NumBl     int        `fst:"NumBl" sec:"TURBINE CONFIGURATION" desc:"Number of blades (-)"`
	TipRad    float64    `fst:"TipRad" desc:"The distance from the rotor apex to the blade tip (meters)"`
	HubRad    float64    `fst:"HubRad" desc:"The distance from the rotor apex to the blade root (meters)"`
	PreCone   [3]float64 `fst:"PreCone" desc:"Blade cone angle (degrees)"`
	HubCM     float64    `fst:"HubCM" desc:"Distance from rotor apex to hub mass [positive downwind] (meters)"`
	UndSling  float64    `fst:"UndSling" desc:"Undersling length [distance from teeter pin to the rotor apex] (meters) [unused for 3 blades]"`
	Delta3    float64    `fst:"Delta3" desc:"Delta-3 angle for teetering rotors (degrees) [unused for 3 blades]"`
	AzimB1Up  float64    `fst:"AzimB1Up" desc:"Azimuth value to use for I/O when blade 1 points up (degrees)"`
	OverHang  float64    `fst:"OverHang" desc:"Distance from yaw axis to rotor apex [3 blades] or teeter pin [2 blades] (meters)"`
	ShftGagL  float64    `fst:"ShftGagL" desc:"Distance from rotor apex [3 blades] or teeter pin [2 blades] to shaft strain gages [positive for upwind rotors] (meters)"`
	ShftTilt  float64    `fst:"ShftTilt" desc:"Rotor shaft tilt angle (degrees)"`
	NacCMxn   float64    `fst:"NacCMxn" desc:"Downwind distance from the tower-top to the nacelle CM (meters)"`
	NacCMyn   float64    `fst:"NacCMyn" desc:"Lateral  distance from the tower-top to the nacelle CM (meters)"`
	NacCMzn   float64    `fst:"NacCMzn" desc:"Vertical distance from the tower-top to the nacelle CM (meters)"`
	NcIMUxn   float64    `fst:"NcIMUxn" desc:"Downwind distance from the tower-top to the nacelle IMU (meters)"`
	NcIMUyn   float64    `fst:"NcIMUyn" desc:"Lateral  distance from the tower-top to the nacelle IMU (meters)"`
	NcIMUzn   float64    `fst:"NcIMUzn" desc:"Vertical distance from the tower-top to the nacelle IMU (meters)"`
	Twr2Shft  float64    `fst:"Twr2Shft" desc:"Vertical distance from the tower-top to the rotor shaft (meters)"`
	TowerHt   float64    `fst:"TowerHt" desc:"Height of tower relative to ground level [onshore], MSL [offshore], or seabed [MHK] (meters)"`
	TowerBsHt float64    `fst:"TowerBsHt" desc:"Height of tower base relative to ground level [onshore], MSL [offshore], or seabed [MHK] (meters)"`
	PtfmCMxt  float64    `fst:"PtfmCMxt" desc:"Downwind distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform CM (meters)"`
	PtfmCMyt  float64    `fst:"PtfmCMyt" desc:"Lateral distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform CM (meters)"`
	PtfmCMzt  float64    `fst:"PtfmCMzt" desc:"Vertical distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform CM (meters)"`
	PtfmRefxt float64    `fst:"PtfmRefxt" opt:"0" desc:"Downwind distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform reference point (meters)"`
	PtfmRefyt float64    `fst:"PtfmRefyt" opt:"0" desc:"Lateral distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform reference point (meters)"`
	PtfmRefzt float64    `fst:"PtfmRefzt" desc:"Vertical distance from the ground level [onshore], MSL [offshore], or seabed [MHK] to the platform reference point (meters)"`

	TipMass        [3]float64 `fst:"TipMass" sec:"MASS AND INERTIA" desc:"Tip-brake mass (kg)"`
	PBrIner        [3]float64 `fst:"PBrIner" opt:"0" desc:"Pitch bearing/actuator inertia (kg m^2)"`
	BlPIner        [3]float64 `fst:"BlPIner" opt:"0" desc:"Pitch inertia of an undeflected blade (kg m^2)"`
	HubMass        float64    `fst:"HubMass" desc:"Hub mass (kg)"`
	HubIner        float64    `fst:"HubIner" desc:"Hub inertia about rotor axis [3 blades] or teeter axis [2 blades] (kg m^2)"`
	HubIner_Teeter float64    `fst:"HubIner_Teeter" opt:"0" desc:"Hub inertia about teeter axis (2-blades) (kg m^2)"`
	GenIner        float64    `fst:"GenIner" desc:"Generator inertia about HSS (kg m^2)"`
	NacMass        float64    `fst:"NacMass" desc:"Nacelle mass (kg)"`
	NacYIner       float64    `fst:"NacYIner" desc:"Nacelle inertia about yaw axis (kg m^2)"`
	YawBrMass      float64    `fst:"YawBrMass" desc:"Yaw bearing mass (kg)"`
	PtfmMass       float64    `fst:"PtfmMass" desc:"Platform mass (kg)"`
	PtfmRIner      float64    `fst:"PtfmRIner" desc:"Platform inertia for roll tilt rotation about the platform CM (kg m^2)"`
	PtfmPIner      float64    `fst:"PtfmPIner" desc:"Platform inertia for pitch tilt rotation about the platform CM (kg m^2)"`
	PtfmYIner      float64    `fst:"PtfmYIner" desc:"Platform inertia for yaw rotation about the platform CM (kg m^2)"`
	PtfmXYIner     float64    `fst:"PtfmXYIner" opt:"0" desc:"Platform xy moment of inertia about the platform CM (=-int(xydm)) (kg m^2)"`
	PtfmYZIner     float64    `fst:"PtfmYZIner" opt:"0" desc:"Platform yz moment of inertia about the platform CM (=-int(yzdm)) (kg m^2)"`
	PtfmXZIner     float64    `fst:"PtfmXZIner" opt:"0" desc:"Platform xz moment of inertia about the platform CM (=-int(xzdm)) (kg m^2)"`

	BldNodes int       `fst:"BldNodes" sec:"BLADE" desc:"Number of blade nodes (per blade) used for analysis (-)"`
	BldFile  [3]string `fst:"BldFile" desc:"Name of file containing properties for blade i (quoted string)"`

	TeetMod  int     `fst:"TeetMod" opt:"0" sec:"ROTOR-TEETER" desc:"Rotor-teeter spring/damper model {0: none, 1: standard, 2: user-defined from routine UserTeet} (switch) [unused for 3 blades]"`
	TeetDmpP float64 `fst:"TeetDmpP" opt:"0" desc:"Rotor-teeter damper position (degrees) [used only for 2 blades and when TeetMod=1]"`
	TeetDmp  float64 `fst:"TeetDmp" opt:"0" desc:"Rotor-teeter damping constant (N-m/(rad/s)) [used only for 2 blades and when TeetMod=1]"`
	TeetCDmp float64 `fst:"TeetCDmp" opt:"0" desc:"Rotor-teeter rate-independent Coulomb-damping moment (N-m) [used only for 2 blades and when TeetMod=1]"`
	TeetSStP float64 `fst:"TeetSStP" opt:"0" desc:"Rotor-teeter soft-stop position (degrees) [used only for 2 blades and when TeetMod=1]"`
	TeetHStP float64 `fst:"TeetHStP" opt:"0" desc:"Rotor-teeter hard-stop position (degrees) [used only for 2 blades and when TeetMod=1]"`
	TeetSSSp float64 `fst:"TeetSSSp" opt:"0" desc:"Rotor-teeter soft-stop linear-spring constant (N-m/rad) [used only for 2 blades and when TeetMod=1]"`
	TeetHSSp float64 `fst:"TeetHSSp" opt:"0" desc:"Rotor-teeter hard-stop linear-spring constant (N-m/rad) [used only for 2 blades and when TeetMod=1]"`

	YawFrctMod int     `fst:"YawFrctMod" opt:"0" sec:"YAW-FRICTION" desc:"Yaw-friction model {0: none, 1: friction independent of yaw-bearing force and bending moment, 2: friction with Coulomb terms depending on yaw-bearing force and bending moment, 3: user defined model} (switch)"`
	M_CSmax    float64 `fst:"M_CSmax" opt:"0" desc:"Maximum static Coulomb friction torque (N-m)"`
	M_FCSmax   float64 `fst:"M_FCSmax" opt:"0" desc:"Maximum static Coulomb friction torque proportional to yaw bearing shear force (N-m)"`
	M_MCSmax   float64 `fst:"M_MCSmax" opt:"0" desc:"Maximum static Coulomb friction torque proportional to yaw bearing bending moment (N-m)"`
	M_CD       float64 `fst:"M_CD" opt:"0" desc:"Dynamic Coulomb friction moment (N-m)"`
	M_FCD      float64 `fst:"M_FCD" opt:"0" desc:"Dynamic Coulomb friction moment proportional to yaw bearing shear force (N-m)"`
	M_MCD      float64 `fst:"M_MCD" opt:"0" desc:"Dynamic Coulomb friction moment proportional to yaw bearing bending moment (N-m)"`
	Sig_v      float64 `fst:"sig_v" opt:"0" desc:"Linear viscous friction coefficient (N-m/(rad/s))"`
	Sig_v2     float64 `fst:"sig_v2" opt:"0" desc:"Quadratic viscous friction coefficient (N-m/(rad/s)^2)"`
	OmgCut     float64 `fst:"OmgCut" opt:"0" desc:"Yaw angular velocity cutoff below which viscous friction is linearized (rad/s)"`

	GBoxEff  float64 `fst:"GBoxEff" sec:"DRIVETRAIN" desc:"Gearbox efficiency (%)"`
	GBRatio  float64 `fst:"GBRatio" desc:"Gearbox ratio (-)"`
	DTTorSpr float64 `fst:"DTTorSpr" desc:"Drivetrain torsional spring (N-m/rad)"`
	DTTorDmp float64 `fst:"DTTorDmp" desc:"Drivetrain torsional damper (N-m/(rad/s))"`

	Furling  bool   `fst:"Furling" sec:"FURLING" desc:"Read in additional model properties for furling turbine (flag) [must currently be FALSE]"`
	FurlFile string `fst:"FurlFile" opt:"unused" desc:"Name of file containing furling properties (quoted string) [unused when Furling=False]"`

	TwrNodes int    `fst:"TwrNodes" sec:"TOWER" desc:"Number of tower nodes used for analysis (-)"`
	TwrFile  string `fst:"TwrFile" desc:"Name of file containing tower properties (quoted string)"`

	SumPrint bool    `fst:"SumPrint" sec:"OUTPUT" desc:"Print summary data to \"<RootName>.sum\" (flag)"`
	OutFile  int     `fst:"OutFile" opt:"1" desc:"Switch to determine where output will be placed: {1: in module output file only; 2: in glue code output file only; 3: both} (currently unused)"`
	TabDelim bool    `fst:"TabDelim" opt:"True" desc:"Use tab delimiters in text tabular output file? (flag) (currently unused)"`
	OutFmt   string  `fst:"OutFmt" opt:"ES10.3E2" desc:"Format used for text tabular output (except time). Resulting field should be 10 characters. (quoted string) (currently unused)"`
	TStart   float64 `fst:"TStart" opt:"0" desc:"Time to begin tabular output (s) (currently unused)"`
	DecFact  int     `fst:"DecFact" opt:"1" desc:"Decimation factor for tabular output {1: output every time step} (-) (currently unused)"`
	NTwGages int     `fst:"NTwGages" desc:"Number of tower nodes that have strain gages for output [0 to 9] (-)"`
	TwrGagNd []int   `fst:"TwrGagNd" opt:"" desc:"List of tower nodes that have strain gages [1 to TwrNodes] (-) [unused if NTwGages=0]"`
	NBlGages int     `fst:"NBlGages" desc:"Number of blade nodes that have strain gages for output [0 to 9] (-)"`
	BldGagNd []int   `fst:"BldGagNd" opt:"" desc:"List of blade nodes that have strain gages [1 to BldNodes] (-) [unused if NBlGages=0]"`
	OutList  OutList `fst:"OutList" desc:"The next line(s) contains a list of output parameters. See OutListParameters.xlsx for a listing of available output channels, (-)"`

	Nodal NodalOutputs `fst:"-"`
	_     struct{}     `block:"nodal"`

	// Blades and Tower are the referenced files (loaded by Load; nil after
	// ReadElastoDyn). Blades has NumBl entries; entries naming the same
	// file share one *EDBlade.
	Blades []*EDBlade `fst:"-"`
	Tower  *EDTower   `fst:"-"`
}

// NodalOutputs is the optional "all blade nodes" output section of
// ElastoDyn and AeroDyn (BldNd_BladesOut, BldNd_BlOutNd, channel list).
type NodalOutputs struct {
	Present   bool   // the section exists in the file
	BladesOut int    // BldNd_BladesOut: number of blades to output
	BlOutNd   string // BldNd_BlOutNd: node selection as written ("All", "99", ...)
	OutList   OutList
}

func decodeNodal(r *reader, n *NodalOutputs) error {
	i, v, _, ok := r.find(normName("BldNd_BladesOut"))
	if !ok {
		return nil
	}
	n.Present = true
	if len(v) > 0 {
		k, ok := parseInt(v[0].Text)
		if !ok {
			return r.errLine(i, "BldNd_BladesOut", "expected an integer, got %q", v[0].Text)
		}
		n.BladesOut = k
	}
	j, v2, _, ok := r.find(normName("BldNd_BlOutNd"))
	if ok && len(v2) > 0 {
		n.BlOutNd = v2[0].Text
	} else {
		j = i
	}
	// the list header is the next data line (named OutList, OutListAD, ...)
	for k := j + 1; k < r.hi; k++ {
		l := &r.src.Lines[k]
		if len(l.toks) == 0 {
			continue
		}
		if strings.HasPrefix(strings.ToLower(l.toks[0].Text), "outlist") {
			r.cur = k
			list, _, err := r.outList(l.toks[0].Text)
			if err != nil {
				return err
			}
			n.OutList = list
		}
		break
	}
	return nil
}

func encodeNodal(w *writer, n *NodalOutputs, sec bool) {
	if !n.Present {
		return
	}
	if sec {
		w.section("NODE OUTPUTS")
	}
	w.kv(fmt.Sprint(n.BladesOut), "BldNd_BladesOut", "Number of blades to output all node information at (-)")
	sel := n.BlOutNd
	if sel == "" {
		sel = "All"
	}
	if _, ok := parseInt(sel); ok {
		w.kv(sel, "BldNd_BlOutNd", "Blade nodes on each blade (currently unused)")
	} else {
		w.kv(quote(sel), "BldNd_BlOutNd", "Blade nodes on each blade (currently unused)")
	}
	writeOutList(w, "OutList", "", n.OutList)
}

func (e *ElastoDyn) decodeBlock(name string, r *reader) error {
	return decodeNodal(r, &e.Nodal)
}

func (e *ElastoDyn) encodeBlock(name string, w *writer) error {
	encodeNodal(w, &e.Nodal, true)
	return nil
}

// ReadElastoDyn reads an ElastoDyn primary file (without blade and tower files).
func ReadElastoDyn(path string) (*ElastoDyn, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseElastoDyn(src)
}

func parseElastoDyn(src *Source) (*ElastoDyn, error) {
	e := &ElastoDyn{}
	r := newReader(src, &e.Meta).skipHeader()
	e.Title = titleOf(src)
	if err := decode(r, e); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *ElastoDyn) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- ELASTODYN INPUT FILE (OpenFAST v5 syntax, written by turbinesim) -----")
	w.line(oneLine(e.Title))
	if err := encode(w, e); err != nil {
		return "", err
	}
	w.line("---------------------------------------------------------------------------------------")
	return w.b.String(), nil
}

// EDBlade is an ElastoDyn blade file. Distributed properties are per station:
// BlFract (-, 0 at root, 1 at tip), PitchAxis (-, only in older files, nil
// otherwise), StrcTwst (degrees), BMassDen (kg/m), FlpStff and EdgStff (N m^2).
// Mode shapes are the coefficients of x^2..x^6 (index 0 = x^2).
type EDBlade struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	NBlInpSt int        `fst:"NBlInpSt" sec:"BLADE PARAMETERS" desc:"Number of blade input stations (-)"`
	BldFlDmp [2]float64 `fst:"BldFlDmp" desc:"Blade flap mode structural damping in percent of critical (%)"`
	BldEdDmp [1]float64 `fst:"BldEdDmp" desc:"Blade edge mode #1 structural damping in percent of critical (%)"`
	FlStTunr [2]float64 `fst:"FlStTunr" sec:"BLADE ADJUSTMENT FACTORS" desc:"Blade flapwise modal stiffness tuner (-)"`
	AdjBlMs  float64    `fst:"AdjBlMs" desc:"Factor to adjust blade mass density (-)"`
	AdjFlSt  float64    `fst:"AdjFlSt" desc:"Factor to adjust blade flap stiffness (-)"`
	AdjEdSt  float64    `fst:"AdjEdSt" desc:"Factor to adjust blade edge stiffness (-)"`

	BlFract   []float64 `fst:"-"`
	PitchAxis []float64 `fst:"-"`
	StrcTwst  []float64 `fst:"-"`
	BMassDen  []float64 `fst:"-"`
	FlpStff   []float64 `fst:"-"`
	EdgStff   []float64 `fst:"-"`
	_         struct{}  `block:"table" sec:"DISTRIBUTED BLADE PROPERTIES"`

	BldFl1Sh [5]float64 `fst:"BldFl1Sh" from:"2" sec:"BLADE MODE SHAPES" desc:"Flap mode 1, coefficient of x^i"`
	BldFl2Sh [5]float64 `fst:"BldFl2Sh" from:"2" desc:"Flap mode 2, coefficient of x^i"`
	BldEdgSh [5]float64 `fst:"BldEdgSh" from:"2" desc:"Edge mode 1, coefficient of x^i"`
}

var edBladeCols = []string{"BlFract", "StrcTwst", "BMassDen", "FlpStff", "EdgStff"}

func (b *EDBlade) decodeBlock(name string, r *reader) error {
	cols, rows, err := r.headerTable("BlFract", b.NBlInpSt, "BlFract")
	if err != nil {
		return err
	}
	dst := []*[]float64{&b.BlFract, &b.StrcTwst, &b.BMassDen, &b.FlpStff, &b.EdgStff}
	for k, c := range edBladeCols {
		if err := takeColumn(r, cols, rows, c, dst[k]); err != nil {
			return err
		}
	}
	if colIndex(cols, "PitchAxis") >= 0 {
		if err := takeColumn(r, cols, rows, "PitchAxis", &b.PitchAxis); err != nil {
			return err
		}
	}
	return nil
}

// takeColumn copies a named column out of header-table rows.
func takeColumn(r *reader, cols []string, rows [][]float64, name string, dst *[]float64) error {
	c := colIndex(cols, name)
	if c < 0 {
		return r.errLine(r.cur-1, name, "column %s missing from table header (have %s)", name, strings.Join(cols, " "))
	}
	out := make([]float64, len(rows))
	for i, row := range rows {
		if c >= len(row) {
			return r.errLine(r.cur-1, name, "table row %d has %d columns, column %s is number %d", i+1, len(row), name, c+1)
		}
		out[i] = row[c]
	}
	*dst = out
	return nil
}

func (b *EDBlade) encodeBlock(name string, w *writer) error {
	cols := []string{"BlFract"}
	data := [][]float64{b.BlFract}
	units := []string{"(-)"}
	if b.PitchAxis != nil {
		cols, data, units = append(cols, "PitchAxis"), append(data, b.PitchAxis), append(units, "(-)")
	}
	cols = append(cols, "StrcTwst", "BMassDen", "FlpStff", "EdgStff")
	data = append(data, b.StrcTwst, b.BMassDen, b.FlpStff, b.EdgStff)
	units = append(units, "(deg)", "(kg/m)", "(Nm^2)", "(Nm^2)")
	return writeTable(w, cols, units, data, b.NBlInpSt)
}

// writeTable writes a header line, a units line and n rows of columns.
func writeTable(w *writer, cols, units []string, data [][]float64, n int) error {
	var sb strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&sb, "%-24s ", c)
	}
	w.line(strings.TrimRight(sb.String(), " "))
	sb.Reset()
	for _, u := range units {
		fmt.Fprintf(&sb, "%-24s ", u)
	}
	w.line(strings.TrimRight(sb.String(), " "))
	for i := 0; i < n; i++ {
		sb.Reset()
		for c, col := range data {
			if i >= len(col) {
				return fmt.Errorf("deck: table column %s has %d rows, expected %d", cols[c], len(col), n)
			}
			fmt.Fprintf(&sb, "%-24s ", fmtReal(col[i]))
		}
		w.line(strings.TrimRight(sb.String(), " "))
	}
	return nil
}

// ReadEDBlade reads an ElastoDyn blade file.
func ReadEDBlade(path string) (*EDBlade, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseEDBlade(src)
}

func parseEDBlade(src *Source) (*EDBlade, error) {
	b := &EDBlade{}
	r := newReader(src, &b.Meta).skipHeader()
	b.Title = titleOf(src)
	if err := decode(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *EDBlade) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- ELASTODYN INDIVIDUAL BLADE INPUT FILE (written by turbinesim) ---------")
	w.line(oneLine(b.Title))
	if err := encode(w, b); err != nil {
		return "", err
	}
	return w.b.String(), nil
}

// EDTower is an ElastoDyn tower file. Per station: HtFract (-, 0 at the
// tower base, 1 at the top), TMassDen (kg/m), TwFAStif and TwSSStif (N m^2).
// Mode shapes are the coefficients of x^2..x^6 (index 0 = x^2).
type EDTower struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	NTwInpSt int        `fst:"NTwInpSt" sec:"TOWER PARAMETERS" desc:"Number of input stations to specify tower geometry"`
	TwrFADmp [2]float64 `fst:"TwrFADmp" desc:"Tower fore-aft mode structural damping ratio (%)"`
	TwrSSDmp [2]float64 `fst:"TwrSSDmp" desc:"Tower side-to-side mode structural damping ratio (%)"`
	FAStTunr [2]float64 `fst:"FAStTunr" sec:"TOWER ADJUSTMENT FACTORS" desc:"Tower fore-aft modal stiffness tuner (-)"`
	SSStTunr [2]float64 `fst:"SSStTunr" desc:"Tower side-to-side stiffness tuner (-)"`
	AdjTwMa  float64    `fst:"AdjTwMa" desc:"Factor to adjust tower mass density (-)"`
	AdjFASt  float64    `fst:"AdjFASt" desc:"Factor to adjust tower fore-aft stiffness (-)"`
	AdjSSSt  float64    `fst:"AdjSSSt" desc:"Factor to adjust tower side-to-side stiffness (-)"`

	HtFract  []float64 `fst:"-"`
	TMassDen []float64 `fst:"-"`
	TwFAStif []float64 `fst:"-"`
	TwSSStif []float64 `fst:"-"`
	_        struct{}  `block:"table" sec:"DISTRIBUTED TOWER PROPERTIES"`

	TwFAM1Sh [5]float64 `fst:"TwFAM1Sh" from:"2" sec:"TOWER FORE-AFT MODE SHAPES" desc:"Mode 1, coefficient of x^i term"`
	TwFAM2Sh [5]float64 `fst:"TwFAM2Sh" from:"2" desc:"Mode 2, coefficient of x^i term"`
	TwSSM1Sh [5]float64 `fst:"TwSSM1Sh" from:"2" sec:"TOWER SIDE-TO-SIDE MODE SHAPES" desc:"Mode 1, coefficient of x^i term"`
	TwSSM2Sh [5]float64 `fst:"TwSSM2Sh" from:"2" desc:"Mode 2, coefficient of x^i term"`
}

func (t *EDTower) decodeBlock(name string, r *reader) error {
	// The ElastoDyn tower table is read by position (first four columns).
	cols, rows, err := r.headerTable("HtFract", t.NTwInpSt, "HtFract")
	if err != nil {
		return err
	}
	return r.positionalColumns("HtFract", "tower table: HtFract TMassDen TwFAStif TwSSStif", rows, len(cols),
		&t.HtFract, &t.TMassDen, &t.TwFAStif, &t.TwSSStif)
}

func (t *EDTower) encodeBlock(name string, w *writer) error {
	return writeTable(w, []string{"HtFract", "TMassDen", "TwFAStif", "TwSSStif"},
		[]string{"(-)", "(kg/m)", "(Nm^2)", "(Nm^2)"},
		[][]float64{t.HtFract, t.TMassDen, t.TwFAStif, t.TwSSStif}, t.NTwInpSt)
}

// ReadEDTower reads an ElastoDyn tower file.
func ReadEDTower(path string) (*EDTower, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseEDTower(src)
}

func parseEDTower(src *Source) (*EDTower, error) {
	t := &EDTower{}
	r := newReader(src, &t.Meta).skipHeader()
	t.Title = titleOf(src)
	if err := decode(r, t); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *EDTower) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- ELASTODYN TOWER INPUT FILE (written by turbinesim) --------------------")
	w.line(oneLine(t.Title))
	if err := encode(w, t); err != nil {
		return "", err
	}
	return w.b.String(), nil
}
