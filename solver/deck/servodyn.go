package deck

import "fmt"

// ServoDyn is the ServoDyn input file, v5 layout. Angles in degrees
// (PitNeut, BlPitchF, YawNeut, NacYawF, Ptch_*), rates in deg/s, generator
// speeds in rpm (SpdGenOn, VS_RtGnSp, SIG_SySp, GenSpd_*), VS_Rgn2K in
// N m/rpm^2, efficiencies and slips in %, torques in N m.
// PCMode/VSContrl/YCMode/HSSBrMode 5 = Bladed-style DLL.
type ServoDyn struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	Echo bool    `fst:"Echo" sec:"SIMULATION CONTROL" desc:"Echo input data to <RootName>.ech (flag)"`
	DT   DefReal `fst:"DT" desc:"Communication interval for controllers (s) (or \"default\")"`

	PCMode    int        `fst:"PCMode" sec:"PITCH CONTROL" desc:"Pitch control mode {0: none, 3: user-defined from routine PitchCntrl, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`
	TPCOn     float64    `fst:"TPCOn" desc:"Time to enable active pitch control (s) [unused when PCMode=0]"`
	PitNeut   [3]float64 `fst:"PitNeut" opt:"0" desc:"Blade neutral pitch position--pitch spring moment is zero at this position (degrees)"`
	PitSpr    [3]float64 `fst:"PitSpr" opt:"0" desc:"Blade pitch spring constant (N-m/rad) [used only when PitchDOF=True]"`
	PitDamp   [3]float64 `fst:"PitDamp" opt:"0" desc:"Blade pitch damping constant (N-m/(rad/s)) [used only when PitchDOF=True]"`
	TPitManS  [3]float64 `fst:"TPitManS" desc:"Time to start override pitch maneuver for blade i and end standard pitch control (s)"`
	PitManRat [3]float64 `fst:"PitManRat" desc:"Pitch rate at which override pitch maneuver heads toward final pitch angle for blade i (deg/s)"`
	BlPitchF  [3]float64 `fst:"BlPitchF" desc:"Blade i final pitch for pitch maneuvers (degrees)"`

	VSContrl int     `fst:"VSContrl" sec:"GENERATOR AND TORQUE CONTROL" desc:"Variable-speed control mode {0: none, 1: simple VS, 3: user-defined from routine UserVSCont, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`
	GenModel int     `fst:"GenModel" desc:"Generator model {1: simple, 2: Thevenin, 3: user-defined from routine UserGen} (switch) [used only when VSContrl=0]"`
	GenEff   float64 `fst:"GenEff" desc:"Generator efficiency [ignored by the Thevenin and user-defined generator models] (%)"`
	GenTiStr bool    `fst:"GenTiStr" desc:"Method to start the generator {T: timed using TimGenOn, F: generator speed using SpdGenOn} (flag)"`
	GenTiStp bool    `fst:"GenTiStp" desc:"Method to stop the generator {T: timed using TimGenOf, F: when generator power = 0} (flag)"`
	SpdGenOn float64 `fst:"SpdGenOn" desc:"Generator speed to turn on the generator for a startup (HSS speed) (rpm) [used only when GenTiStr=False]"`
	TimGenOn float64 `fst:"TimGenOn" desc:"Time to turn on the generator for a startup (s) [used only when GenTiStr=True]"`
	TimGenOf float64 `fst:"TimGenOf" desc:"Time to turn off the generator (s) [used only when GenTiStp=True]"`

	VS_RtGnSp float64 `fst:"VS_RtGnSp" sec:"SIMPLE VARIABLE-SPEED TORQUE CONTROL" desc:"Rated generator speed for simple variable-speed generator control (HSS side) (rpm) [used only when VSContrl=1]"`
	VS_RtTq   float64 `fst:"VS_RtTq" desc:"Rated generator torque/constant generator torque in Region 3 for simple variable-speed generator control (HSS side) (N-m) [used only when VSContrl=1]"`
	VS_Rgn2K  float64 `fst:"VS_Rgn2K" desc:"Generator torque constant in Region 2 for simple variable-speed generator control (HSS side) (N-m/rpm^2) [used only when VSContrl=1]"`
	VS_SlPc   float64 `fst:"VS_SlPc" desc:"Rated generator slip percentage in Region 2 1/2 for simple variable-speed generator control (%) [used only when VSContrl=1]"`

	SIG_SlPc float64 `fst:"SIG_SlPc" sec:"SIMPLE INDUCTION GENERATOR" desc:"Rated generator slip percentage (%) [used only when VSContrl=0 and GenModel=1]"`
	SIG_SySp float64 `fst:"SIG_SySp" desc:"Synchronous (zero-torque) generator speed (rpm) [used only when VSContrl=0 and GenModel=1]"`
	SIG_RtTq float64 `fst:"SIG_RtTq" desc:"Rated torque (N-m) [used only when VSContrl=0 and GenModel=1]"`
	SIG_PORt float64 `fst:"SIG_PORt" desc:"Pull-out ratio (Tpullout/Trated) (-) [used only when VSContrl=0 and GenModel=1]"`

	TEC_Freq float64 `fst:"TEC_Freq" sec:"THEVENIN-EQUIVALENT INDUCTION GENERATOR" desc:"Line frequency [50 or 60] (Hz) [used only when VSContrl=0 and GenModel=2]"`
	TEC_NPol int     `fst:"TEC_NPol" desc:"Number of poles [even integer > 0] (-) [used only when VSContrl=0 and GenModel=2]"`
	TEC_SRes float64 `fst:"TEC_SRes" desc:"Stator resistance (ohms) [used only when VSContrl=0 and GenModel=2]"`
	TEC_RRes float64 `fst:"TEC_RRes" desc:"Rotor resistance (ohms) [used only when VSContrl=0 and GenModel=2]"`
	TEC_VLL  float64 `fst:"TEC_VLL" desc:"Line-to-line RMS voltage (volts) [used only when VSContrl=0 and GenModel=2]"`
	TEC_SLR  float64 `fst:"TEC_SLR" desc:"Stator leakage reactance (ohms) [used only when VSContrl=0 and GenModel=2]"`
	TEC_RLR  float64 `fst:"TEC_RLR" desc:"Rotor leakage reactance (ohms) [used only when VSContrl=0 and GenModel=2]"`
	TEC_MR   float64 `fst:"TEC_MR" desc:"Magnetizing reactance (ohms) [used only when VSContrl=0 and GenModel=2]"`

	HSSBrMode int     `fst:"HSSBrMode" sec:"HIGH-SPEED SHAFT BRAKE" desc:"HSS brake model {0: none, 1: simple, 3: user-defined from routine UserHSSBr, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`
	THSSBrDp  float64 `fst:"THSSBrDp" desc:"Time to initiate deployment of the HSS brake (s)"`
	HSSBrDT   float64 `fst:"HSSBrDT" desc:"Time for HSS-brake to reach full deployment once initiated (sec) [used only when HSSBrMode=1]"`
	HSSBrTqF  float64 `fst:"HSSBrTqF" desc:"Fully deployed HSS-brake torque (N-m)"`

	YCMode    int     `fst:"YCMode" sec:"NACELLE-YAW CONTROL" desc:"Yaw control mode {0: none, 3: user-defined from routine UserYawCont, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`
	TYCOn     float64 `fst:"TYCOn" desc:"Time to enable active yaw control (s) [unused when YCMode=0]"`
	YawNeut   float64 `fst:"YawNeut" desc:"Neutral yaw position--yaw spring force is zero at this yaw (degrees)"`
	YawSpr    float64 `fst:"YawSpr" desc:"Nacelle-yaw spring constant (N-m/rad)"`
	YawDamp   float64 `fst:"YawDamp" desc:"Nacelle-yaw damping constant (N-m/(rad/s))"`
	TYawManS  float64 `fst:"TYawManS" desc:"Time to start override yaw maneuver and end standard yaw control (s)"`
	YawManRat float64 `fst:"YawManRat" desc:"Yaw maneuver rate (in absolute value) (deg/s)"`
	NacYawF   float64 `fst:"NacYawF" desc:"Final yaw angle for override yaw maneuvers (degrees)"`

	AfCmode   int     `fst:"AfCmode" opt:"0" sec:"AERODYNAMIC FLOW CONTROL" desc:"Airfoil control mode {0: none, 1: cosine wave cycle, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`
	AfC_Mean  float64 `fst:"AfC_Mean" opt:"0" desc:"Mean level for cosine cycling or steady value (-) [used only with AfCmode==1]"`
	AfC_Amp   float64 `fst:"AfC_Amp" opt:"0" desc:"Amplitude for cosine cycling of flap signal (-) [used only with AfCmode==1]"`
	AfC_Phase float64 `fst:"AfC_Phase" opt:"0" desc:"Phase relative to the blade azimuth (0 is vertical) for cosine cycling of flap signal (deg) [used only with AfCmode==1]"`

	NumBStC   int      `fst:"NumBStC" opt:"0" sec:"STRUCTURAL CONTROL" desc:"Number of blade structural controllers (integer)"`
	BStCfiles []string `fst:"-"`
	_         struct{} `block:"BStCfiles"`
	NumNStC   int      `fst:"NumNStC" opt:"0" desc:"Number of nacelle structural controllers (integer)"`
	NStCfiles []string `fst:"-"`
	_         struct{} `block:"NStCfiles"`
	NumTStC   int      `fst:"NumTStC" opt:"0" desc:"Number of tower structural controllers (integer)"`
	TStCfiles []string `fst:"-"`
	_         struct{} `block:"TStCfiles"`
	NumSStC   int      `fst:"NumSStC" opt:"0" desc:"Number of substructure structural controllers (integer)"`
	SStCfiles []string `fst:"-"`
	_         struct{} `block:"SStCfiles"`

	CCmode int `fst:"CCmode" opt:"0" sec:"CABLE CONTROL" desc:"Cable control mode {0: none, 4: user-defined from Simulink/Labview, 5: user-defined from Bladed-style DLL} (switch)"`

	DLL_FileName string  `fst:"DLL_FileName" sec:"BLADED INTERFACE" desc:"Name/location of the dynamic library {.dll [Windows] or .so [Linux]} in the Bladed-DLL format (-) [used only with Bladed Interface]"`
	DLL_InFile   string  `fst:"DLL_InFile" desc:"Name of input file sent to the DLL (-) [used only with Bladed Interface]"`
	DLL_ProcName string  `fst:"DLL_ProcName" desc:"Name of procedure in DLL to be called (-) [case sensitive; used only with DLL Interface]"`
	DLL_DT       DefReal `fst:"DLL_DT" desc:"Communication interval for dynamic library (s) (or \"default\") [used only with Bladed Interface]"`
	DLL_Ramp     bool    `fst:"DLL_Ramp" desc:"Whether a linear ramp should be used between DLL_DT time steps [introduces time shift when true] (flag) [used only with Bladed Interface]"`
	BPCutoff     float64 `fst:"BPCutoff" desc:"Cutoff frequency for low-pass filter on blade pitch from DLL (Hz) [used only with Bladed Interface]"`
	NacYaw_North float64 `fst:"NacYaw_North" desc:"Reference yaw angle of the nacelle when the upwind end points due North (deg) [used only with Bladed Interface]"`
	Ptch_Cntrl   int     `fst:"Ptch_Cntrl" desc:"Record 28: Use individual pitch control {0: collective pitch; 1: individual pitch control} (switch) [used only with Bladed Interface]"`
	Ptch_SetPnt  float64 `fst:"Ptch_SetPnt" desc:"Record 5: Below-rated pitch angle set-point (deg) [used only with Bladed Interface]"`
	Ptch_Min     float64 `fst:"Ptch_Min" desc:"Record 6: Minimum pitch angle (deg) [used only with Bladed Interface]"`
	Ptch_Max     float64 `fst:"Ptch_Max" desc:"Record 7: Maximum pitch angle (deg) [used only with Bladed Interface]"`
	PtchRate_Min float64 `fst:"PtchRate_Min" desc:"Record 8: Minimum pitch rate (most negative value allowed) (deg/s) [used only with Bladed Interface]"`
	PtchRate_Max float64 `fst:"PtchRate_Max" desc:"Record 9: Maximum pitch rate (deg/s) [used only with Bladed Interface]"`
	Gain_OM      float64 `fst:"Gain_OM" desc:"Record 16: Optimal mode gain (Nm/(rad/s)^2) [used only with Bladed Interface]"`
	GenSpd_MinOM float64 `fst:"GenSpd_MinOM" desc:"Record 17: Minimum generator speed (rpm) [used only with Bladed Interface]"`
	GenSpd_MaxOM float64 `fst:"GenSpd_MaxOM" desc:"Record 18: Optimal mode maximum speed (rpm) [used only with Bladed Interface]"`
	GenSpd_Dem   float64 `fst:"GenSpd_Dem" desc:"Record 19: Demanded generator speed above rated (rpm) [used only with Bladed Interface]"`
	GenTrq_Dem   float64 `fst:"GenTrq_Dem" desc:"Record 22: Demanded generator torque above rated (Nm) [used only with Bladed Interface]"`
	GenPwr_Dem   float64 `fst:"GenPwr_Dem" desc:"Record 13: Demanded power (W) [used only with Bladed Interface]"`

	DLL_NumTrq int       `fst:"DLL_NumTrq" sec:"BLADED INTERFACE TORQUE-SPEED LOOK-UP TABLE" desc:"Record 26: No. of points in torque-speed look-up table {0 = none and use the optimal mode parameters; nonzero = ignore the optimal mode PARAMETERs by setting Record 16 to 0.0} (-) [used only with Bladed Interface]"`
	GenSpd_TLU []float64 `fst:"-"` // rpm
	GenTrq_TLU []float64 `fst:"-"` // N m
	_          struct{}  `block:"torque"`

	// EXavrSWAP (OpenFAST 3.x only) is read but not written in v5 syntax.
	EXavrSWAP bool `fst:"EXavrSWAP" opt:"False" w:"-"`

	SumPrint bool    `fst:"SumPrint" sec:"OUTPUT" desc:"Print summary data to <RootName>.sum (flag) (currently unused)"`
	OutFile  int     `fst:"OutFile" opt:"1" desc:"Switch to determine where output will be placed: {1: in module output file only; 2: in glue code output file only; 3: both} (currently unused)"`
	TabDelim bool    `fst:"TabDelim" opt:"True" desc:"Use tab delimiters in text tabular output file? (flag) (currently unused)"`
	OutFmt   string  `fst:"OutFmt" opt:"ES10.3E2" desc:"Format used for text tabular output (except time). Resulting field should be 10 characters. (quoted string) (currently unused)"`
	TStart   float64 `fst:"TStart" opt:"0" desc:"Time to begin tabular output (s) (currently unused)"`
	OutList  OutList `fst:"OutList" desc:"The next line(s) contains a list of output parameters. See OutListParameters.xlsx for a listing of available output channels, (-)"`
}

// UsesDLL reports whether any ServoDyn control mode uses the Bladed-style
// DLL (mode 5), i.e. whether DLL_InFile / DISCON.IN matters.
func (s *ServoDyn) UsesDLL() bool {
	return s.PCMode == 5 || s.VSContrl == 5 || s.YCMode == 5 || s.HSSBrMode == 5 || s.AfCmode == 5 || s.CCmode == 5
}

// nameList reads count file names: the first on the line labelled label,
// the others alone on the following lines (AFNames, StC files).
func nameList(r *reader, label string, count int) ([]string, error) {
	i, v, _, ok := r.find(normName(label))
	if !ok {
		if count > 0 {
			return nil, r.errLine(r.cur, label, "line not found (expected %d file names)", count)
		}
		return nil, nil
	}
	if count <= 0 {
		return nil, nil
	}
	if len(v) == 0 {
		return nil, r.errLine(i, label, "expected a file name, got nothing")
	}
	out := []string{v[0].Text}
	idx, err := r.dataLines(i, count-1, label)
	if err != nil {
		return nil, err
	}
	for _, j := range idx {
		out = append(out, r.src.Lines[j].toks[0].Text)
	}
	if len(idx) > 0 {
		r.cur = idx[len(idx)-1] + 1
	}
	return out, nil
}

func writeNameList(w *writer, label, desc string, names []string) {
	if len(names) == 0 {
		w.kv(`"unused"`, label, desc)
		return
	}
	for i, n := range names {
		if i == 0 {
			w.kv(quote(n), label, desc)
		} else {
			w.line(quote(n))
		}
	}
}

func (s *ServoDyn) stc(name string) (*[]string, int) {
	switch name {
	case "BStCfiles":
		return &s.BStCfiles, s.NumBStC
	case "NStCfiles":
		return &s.NStCfiles, s.NumNStC
	case "TStCfiles":
		return &s.TStCfiles, s.NumTStC
	case "SStCfiles":
		return &s.SStCfiles, s.NumSStC
	}
	return nil, 0
}

func (s *ServoDyn) decodeBlock(name string, r *reader) error {
	if dst, n := s.stc(name); dst != nil {
		if n < 0 {
			return r.errLine(r.cur-1, "Num"+name[:4], "must be >= 0, got %d", n)
		}
		list, err := nameList(r, name, n)
		if err != nil {
			return err
		}
		*dst = list
		return nil
	}
	if name == "torque" && s.DLL_NumTrq > 0 {
		cols, rows, err := r.headerTable("GenSpd_TLU", s.DLL_NumTrq, "GenSpd_TLU")
		if err != nil {
			return err
		}
		if err := takeColumn(r, cols, rows, "GenSpd_TLU", &s.GenSpd_TLU); err != nil {
			return err
		}
		return takeColumn(r, cols, rows, "GenTrq_TLU", &s.GenTrq_TLU)
	}
	return nil
}

func (s *ServoDyn) encodeBlock(name string, w *writer) error {
	if dst, _ := s.stc(name); dst != nil {
		writeNameList(w, name, fmt.Sprintf("Name of the files for %s structural controllers (quoted strings)", map[byte]string{'B': "blade", 'N': "nacelle", 'T': "tower", 'S': "substructure"}[name[0]]), *dst)
		return nil
	}
	if name == "torque" {
		n := s.DLL_NumTrq
		if n < 0 {
			n = 0
		}
		return writeTable(w, []string{"GenSpd_TLU", "GenTrq_TLU"}, []string{"(rpm)", "(Nm)"}, [][]float64{s.GenSpd_TLU, s.GenTrq_TLU}, n)
	}
	return nil
}

// ReadServoDyn reads a ServoDyn input file (not the DLL input file).
func ReadServoDyn(path string) (*ServoDyn, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseServoDyn(src)
}

func parseServoDyn(src *Source) (*ServoDyn, error) {
	s := &ServoDyn{}
	r := newReader(src, &s.Meta).skipHeader()
	s.Title = titleOf(src)
	if err := decode(r, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *ServoDyn) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- SERVODYN INPUT FILE (OpenFAST v5 syntax, written by turbinesim) ------")
	w.line(oneLine(s.Title))
	if err := encode(w, s); err != nil {
		return "", err
	}
	w.line("---------------------------------------------------------------------------------------")
	return w.b.String(), nil
}
