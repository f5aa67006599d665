package deck

// Main is the primary OpenFAST input file (.fst), v5 layout. Older dialects
// (v3.x, v4.x) load with the v5-only lines absent and their defaults applied;
// Meta.Absent lists them. Times are in seconds.
type Main struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"` // second line of the file (free text)

	Echo        bool    `fst:"Echo" sec:"SIMULATION CONTROL" desc:"Echo input data to <RootName>.ech (flag)"`
	AbortLevel  string  `fst:"AbortLevel" opt:"FATAL" desc:"Error level when simulation should abort (string) {\"WARNING\", \"SEVERE\", \"FATAL\"}"`
	TMax        float64 `fst:"TMax" desc:"Total run time (s)"`
	DT          float64 `fst:"DT" desc:"Recommended module time step (s)"`
	ModCoupling int     `fst:"ModCoupling" opt:"1" desc:"Module coupling method (switch) {1=loose; 2=tight with fixed Jacobian updates (DT_UJac); 3=tight with automatic Jacobian updates}"`
	InterpOrder int     `fst:"InterpOrder" desc:"Interpolation order for input/output time history (-) {1=linear, 2=quadratic}"`
	NumCrctn    int     `fst:"NumCrctn" opt:"0" desc:"Number of correction iterations (-) {0=explicit calculation, i.e., no corrections}"`
	RhoInf      float64 `fst:"RhoInf" opt:"1.0" desc:"Numerical damping parameter for tight coupling generalized-alpha integrator (-) [0.0 to 1.0]"`
	ConvTol     float64 `fst:"ConvTol" opt:"1e-4" desc:"Convergence iteration error tolerance for tight coupling generalized alpha integrator (-)"`
	MaxConvIter int     `fst:"MaxConvIter" opt:"6" desc:"Maximum number of convergence iterations for tight coupling generalized alpha integrator (-)"`
	DT_UJac     float64 `fst:"DT_UJac" opt:"99999" desc:"Time between calls to get Jacobians (s)"`
	UJacSclFact float64 `fst:"UJacSclFact" opt:"1e6" desc:"Scaling factor used in Jacobians (-)"`

	NRotors     int  `fst:"NRotors" opt:"1" sec:"FEATURE SWITCHES AND FLAGS" desc:"Number of rotors in turbine (-)"`
	CompElast   int  `fst:"CompElast" desc:"Compute structural dynamics (switch) {1=ElastoDyn; 2=ElastoDyn + BeamDyn for blades; 3=Simplified ElastoDyn}"`
	CompInflow  int  `fst:"CompInflow" desc:"Compute inflow wind velocities (switch) {0=still air; 1=InflowWind; 2=external from ExtInflow}"`
	CompAero    int  `fst:"CompAero" desc:"Compute aerodynamic loads (switch) {0=None; 1=AeroDisk; 2=AeroDyn; 3=ExtLoads}"`
	CompServo   int  `fst:"CompServo" desc:"Compute control and electrical-drive dynamics (switch) {0=None; 1=ServoDyn}"`
	CompSeaSt   int  `fst:"CompSeaSt" opt:"0" desc:"Compute sea state information (switch) {0=None; 1=SeaState}"`
	CompHydro   int  `fst:"CompHydro" desc:"Compute hydrodynamic loads (switch) {0=None; 1=HydroDyn}"`
	CompSub     int  `fst:"CompSub" desc:"Compute sub-structural dynamics (switch) {0=None; 1=SubDyn; 2=External Platform MCKF}"`
	CompMooring int  `fst:"CompMooring" desc:"Compute mooring system (switch) {0=None; 1=MAP++; 2=FEAMooring; 3=MoorDyn; 4=OrcaFlex}"`
	CompIce     int  `fst:"CompIce" desc:"Compute ice loads (switch) {0=None; 1=IceFloe; 2=IceDyn}"`
	CompSoil    int  `fst:"CompSoil" opt:"0" desc:"Compute soil-structural dynamics (switch) {0=None; 1=SoilDyn}"`
	MHK         int  `fst:"MHK" opt:"0" desc:"MHK turbine type (switch) {0=Not an MHK turbine; 1=Fixed MHK turbine; 2=Floating MHK turbine}"`
	MirrorRotor bool `fst:"MirrorRotor" opt:"False" desc:"Flag to reverse rotor rotation direction [1 to NRotors] {F=Normal, T=Mirror}"`

	Gravity  float64 `fst:"Gravity" sec:"ENVIRONMENTAL CONDITIONS" desc:"Gravitational acceleration (m/s^2)"`
	AirDens  float64 `fst:"AirDens" opt:"1.225" desc:"Air density (kg/m^3)"`
	WtrDens  float64 `fst:"WtrDens" opt:"1025" desc:"Water density (kg/m^3)"`
	KinVisc  float64 `fst:"KinVisc" opt:"1.464e-05" desc:"Kinematic viscosity of working fluid (m^2/s)"`
	SpdSound float64 `fst:"SpdSound" opt:"335" desc:"Speed of sound in working fluid (m/s)"`
	Patm     float64 `fst:"Patm" opt:"103500" desc:"Atmospheric pressure (Pa) [used only for an MHK turbine cavitation check]"`
	Pvap     float64 `fst:"Pvap" opt:"1700" desc:"Vapour pressure of working fluid (Pa) [used only for an MHK turbine cavitation check]"`
	WtrDpth  float64 `fst:"WtrDpth" opt:"0" desc:"Water depth (m)"`
	MSL2SWL  float64 `fst:"MSL2SWL" opt:"0" desc:"Offset between still-water level and mean sea level (m) [positive upward]"`

	EDFile      string    `fst:"EDFile" sec:"INPUT FILES" desc:"Name of file containing ElastoDyn input parameters (quoted string)"`
	BDBldFile   [3]string `fst:"BDBldFile" opt:"unused" desc:"Name of file containing BeamDyn input parameters for blade i (quoted string)"`
	InflowFile  string    `fst:"InflowFile" desc:"Name of file containing inflow wind input parameters (quoted string)"`
	AeroFile    string    `fst:"AeroFile" desc:"Name of file containing aerodynamic input parameters (quoted string)"`
	ServoFile   string    `fst:"ServoFile" desc:"Name of file containing control and electrical-drive input parameters (quoted string)"`
	SeaStFile   string    `fst:"SeaStFile" opt:"unused" desc:"Name of file containing sea state input parameters (quoted string)"`
	HydroFile   string    `fst:"HydroFile" opt:"unused" desc:"Name of file containing hydrodynamic input parameters (quoted string)"`
	SubFile     string    `fst:"SubFile" opt:"unused" desc:"Name of file containing sub-structural input parameters (quoted string)"`
	MooringFile string    `fst:"MooringFile" opt:"unused" desc:"Name of file containing mooring system input parameters (quoted string)"`
	IceFile     string    `fst:"IceFile" opt:"unused" desc:"Name of file containing ice input parameters (quoted string)"`
	SoilFile    string    `fst:"SoilFile" opt:"unused" desc:"Name of the file containing the SoilDyn input parameters (quoted string)"`

	SumPrint   bool    `fst:"SumPrint" sec:"OUTPUT" desc:"Print summary data to \"<RootName>.sum\" (flag)"`
	SttsTime   float64 `fst:"SttsTime" opt:"10" desc:"Amount of time between screen status messages (s)"`
	ChkptTime  float64 `fst:"ChkptTime" opt:"99999" desc:"Amount of time between creating checkpoint files for potential restart (s)"`
	DT_Out     DefReal `fst:"DT_Out" desc:"Time step for tabular output (s) (or \"default\" = DT)"`
	TStart     float64 `fst:"TStart" desc:"Time to begin tabular output (s)"`
	OutFileFmt int     `fst:"OutFileFmt" desc:"Format for tabular (time-marching) output file (switch) {1: text file [<RootName>.out], 2: binary file [<RootName>.outb], 3: both 1 and 2, 4: uncompressed binary [<RootName>.outb], 5: both 1 and 4}"`
	TabDelim   bool    `fst:"TabDelim" opt:"True" desc:"Use tab delimiters in text tabular output file? (flag) {uses spaces if false}"`
	OutFmt     string  `fst:"OutFmt" opt:"ES10.3E2" desc:"Format used for text tabular output, excluding the time channel. Resulting field should be 10 characters. (quoted string)"`

	Linearize  bool      `fst:"Linearize" opt:"False" sec:"LINEARIZATION" desc:"Linearization analysis (flag)"`
	CalcSteady bool      `fst:"CalcSteady" opt:"False" desc:"Calculate a steady-state periodic operating point before linearization? [unused if Linearize=False] (flag)"`
	TrimCase   int       `fst:"TrimCase" opt:"3" desc:"Controller parameter to be trimmed {1:yaw; 2:torque; 3:pitch} [used only if CalcSteady=True] (-)"`
	TrimTol    float64   `fst:"TrimTol" opt:"0.001" desc:"Tolerance for the rotational speed convergence [used only if CalcSteady=True] (-)"`
	TrimGain   float64   `fst:"TrimGain" opt:"0.01" desc:"Proportional gain for the rotational speed error (>0) [used only if CalcSteady=True] (rad/(rad/s) for yaw or pitch; Nm/(rad/s) for torque)"`
	Twr_Kdmp   float64   `fst:"Twr_Kdmp" opt:"0" desc:"Damping factor for the tower [used only if CalcSteady=True] (N/(m/s))"`
	Bld_Kdmp   float64   `fst:"Bld_Kdmp" opt:"0" desc:"Damping factor for the blades [used only if CalcSteady=True] (N/(m/s))"`
	NLinTimes  int       `fst:"NLinTimes" opt:"2" desc:"Number of times to linearize (-) [>=1] [unused if Linearize=False]"`
	LinTimes   []float64 `fst:"LinTimes" opt:"30" desc:"List of times at which to linearize (s) [1 to NLinTimes] [used only when Linearize=True and CalcSteady=False]"`
	LinInputs  int       `fst:"LinInputs" opt:"1" desc:"Inputs included in linearization (switch) {0=none; 1=standard; 2=all module inputs (debug)} [unused if Linearize=False]"`
	LinOutputs int       `fst:"LinOutputs" opt:"1" desc:"Outputs included in linearization (switch) {0=none; 1=from OutList(s); 2=all module outputs (debug)} [unused if Linearize=False]"`
	LinOutJac  bool      `fst:"LinOutJac" opt:"False" desc:"Include full Jacobians in linearization output (for debug) (flag) [unused if Linearize=False; used only if LinInputs=LinOutputs=2]"`
	LinOutMod  bool      `fst:"LinOutMod" opt:"False" desc:"Write module-level linearization output files in addition to output for full system? (flag) [unused if Linearize=False]"`

	WrVTK      int     `fst:"WrVTK" opt:"0" sec:"VISUALIZATION" desc:"VTK visualization data output: (switch) {0=none; 1=initialization data only; 2=animation; 3=mode shapes}"`
	VTK_type   int     `fst:"VTK_type" opt:"2" desc:"Type of VTK visualization data: (switch) {1=surfaces; 2=basic meshes (lines/points); 3=all meshes (debug)} [unused if WrVTK=0]"`
	VTK_fields bool    `fst:"VTK_fields" opt:"False" desc:"Write mesh fields to VTK data files? (flag) {true/false} [unused if WrVTK=0]"`
	VTK_fps    float64 `fst:"VTK_fps" opt:"15" desc:"Frame rate for VTK output (frames per second){will use closest integer multiple of DT} [used only if WrVTK=2 or WrVTK=3]"`
}

// titleOf returns the free-text title (second line) of a file.
func titleOf(src *Source) string {
	for _, l := range src.Lines {
		if l.Num == 2 && l.File == src.Path {
			return l.Raw
		}
	}
	return ""
}

// ReadMain reads a primary .fst file (without the files it references).
func ReadMain(path string) (*Main, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseMain(src)
}

func parseMain(src *Source) (*Main, error) {
	m := &Main{}
	r := newReader(src, &m.Meta).skipHeader()
	m.Title = titleOf(src)
	if err := decode(r, m); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Main) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- OpenFAST INPUT FILE (v5 syntax, written by turbinesim) ----------------")
	w.line(oneLine(m.Title))
	if err := encode(w, m); err != nil {
		return "", err
	}
	return w.b.String(), nil
}

// oneLine makes a title safe to write as a single line.
func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	if len(b) == 0 {
		return "-"
	}
	return string(b)
}
