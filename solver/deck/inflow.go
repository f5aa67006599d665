package deck

// InflowWind is the InflowWind input file. Angles (PropagationDir,
// VFlowAng) are in degrees; speeds in m/s; heights and lengths in m.
// WindType: 1 steady, 2 uniform file, 3 TurbSim .bts, 4 Bladed .wnd+.sum,
// 5 HAWC, 6 user, 7 native Bladed.
type InflowWind struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	Echo           bool      `fst:"Echo" sec:"" desc:"Echo input data to <RootName>.ech (flag)"`
	WindType       int       `fst:"WindType" desc:"switch for wind file type (1=steady; 2=uniform; 3=binary TurbSim FF; 4=binary Bladed-style FF; 5=HAWC format; 6=User defined; 7=native Bladed FF)"`
	PropagationDir float64   `fst:"PropagationDir" desc:"Direction of wind propagation (meteorological rotation from aligned with X (positive rotates towards -Y) -- degrees) (not used for native Bladed format WindType=7)"`
	VFlowAng       float64   `fst:"VFlowAng" opt:"0" desc:"Upflow angle (degrees) (not used for native Bladed format WindType=7)"`
	VelInterpCubic bool      `fst:"VelInterpCubic" opt:"False" desc:"Use cubic interpolation for velocity in time (false=linear, true=cubic) [Used with WindType=2,3,4,5,7]"`
	NWindVel       int       `fst:"NWindVel" desc:"Number of points to output the wind velocity (0 to 9)"`
	WindVxiList    []float64 `fst:"WindVxiList" opt:"" desc:"List of coordinates in the inertial X direction (m)"`
	WindVyiList    []float64 `fst:"WindVyiList" opt:"" desc:"List of coordinates in the inertial Y direction (m)"`
	WindVziList    []float64 `fst:"WindVziList" opt:"" desc:"List of coordinates in the inertial Z direction (m)"`

	HWindSpeed float64 `fst:"HWindSpeed" sec:"Parameters for Steady Wind Conditions [used only for WindType = 1]" desc:"Horizontal wind speed (m/s)"`
	RefHt      float64 `fst:"RefHt" alt:"RefHtT1" desc:"Reference height for horizontal wind speed (m)"`
	PLExp      float64 `fst:"PLExp" desc:"Power law exponent (-)"`

	FileName_Uni string  `fst:"FileName_Uni" alt:"FilenameT2|Filename" sec:"Parameters for Uniform wind file [used only for WindType = 2]" desc:"Filename of time series data for uniform wind field (-)"`
	RefHt_Uni    float64 `fst:"RefHt_Uni" alt:"RefHtT2" desc:"Reference height for horizontal wind speed (m)"`
	RefLength    float64 `fst:"RefLength" desc:"Reference length for linear horizontal and vertical sheer (-)"`

	FileName_BTS string `fst:"FileName_BTS" alt:"FilenameT3|Filename" sec:"Parameters for Binary TurbSim Full-Field files [used only for WindType = 3]" desc:"Name of the Full field wind file to use (.bts)"`

	FileNameRoot string `fst:"FileNameRoot" alt:"FilenameRoot" sec:"Parameters for Binary Bladed-style Full-Field files [used only for WindType = 4 or WindType = 7]" desc:"WindType=4: Rootname of the full-field wind file to use (.wnd, .sum); WindType=7: name of the intermediate file with wind scaling values"`
	TowerFile    bool   `fst:"TowerFile" opt:"False" desc:"Have tower file (.twr) (flag) ignored when WindType = 7"`

	FileName_u string  `fst:"FileName_u" opt:"unused" sec:"Parameters for HAWC-format binary files [Only used with WindType = 5]" desc:"name of the file containing the u-component fluctuating wind (.bin)"`
	FileName_v string  `fst:"FileName_v" opt:"unused" desc:"name of the file containing the v-component fluctuating wind (.bin)"`
	FileName_w string  `fst:"FileName_w" opt:"unused" desc:"name of the file containing the w-component fluctuating wind (.bin)"`
	Nx         int     `fst:"nx" opt:"64" desc:"number of grids in the x direction (in the 3 files above) (-)"`
	Ny         int     `fst:"ny" opt:"32" desc:"number of grids in the y direction (in the 3 files above) (-)"`
	Nz         int     `fst:"nz" opt:"32" desc:"number of grids in the z direction (in the 3 files above) (-)"`
	Dx         float64 `fst:"dx" opt:"16" desc:"distance (in meters) between points in the x direction (m)"`
	Dy         float64 `fst:"dy" opt:"3" desc:"distance (in meters) between points in the y direction (m)"`
	Dz         float64 `fst:"dz" opt:"3" desc:"distance (in meters) between points in the z direction (m)"`
	RefHt_Hawc float64 `fst:"RefHt_Hawc" opt:"90" desc:"reference height; the height (in meters) of the vertical center of the grid (m)"`

	ScaleMethod int     `fst:"ScaleMethod" opt:"0" sec:"Scaling parameters for turbulence" desc:"Turbulence scaling method [0 = none, 1 = direct scaling, 2 = calculate scaling factor based on a desired standard deviation]"`
	SFx         float64 `fst:"SFx" opt:"1" desc:"Turbulence scaling factor for the x direction (-) [ScaleMethod=1]"`
	SFy         float64 `fst:"SFy" opt:"1" desc:"Turbulence scaling factor for the y direction (-) [ScaleMethod=1]"`
	SFz         float64 `fst:"SFz" opt:"1" desc:"Turbulence scaling factor for the z direction (-) [ScaleMethod=1]"`
	SigmaFx     float64 `fst:"SigmaFx" opt:"0" desc:"Turbulence standard deviation to calculate scaling from in x direction (m/s) [ScaleMethod=2]"`
	SigmaFy     float64 `fst:"SigmaFy" opt:"0" desc:"Turbulence standard deviation to calculate scaling from in y direction (m/s) [ScaleMethod=2]"`
	SigmaFz     float64 `fst:"SigmaFz" opt:"0" desc:"Turbulence standard deviation to calculate scaling from in z direction (m/s) [ScaleMethod=2]"`

	URef        float64 `fst:"URef" opt:"0" sec:"Mean wind profile parameters (added to HAWC-format files)" desc:"Mean u-component wind speed at the reference height (m/s)"`
	WindProfile int     `fst:"WindProfile" opt:"0" desc:"Wind profile type (0=constant;1=logarithmic,2=power law)"`
	PLExp_Hawc  float64 `fst:"PLExp_Hawc" opt:"0" desc:"Power law exponent (-) (used for PL wind profile type only)"`
	Z0          float64 `fst:"Z0" opt:"0.03" desc:"Surface roughness length (m) (used for LG wind profile type only)"`
	XOffset     float64 `fst:"XOffset" opt:"0" desc:"Initial offset in +x direction (shift of wind box)"`

	SensorType          int       `fst:"SensorType" opt:"0" sec:"LIDAR Parameters" desc:"Switch for lidar configuration (0 = None, 1 = Single Point Beam(s), 2 = Continuous, 3 = Pulsed)"`
	NumPulseGate        int       `fst:"NumPulseGate" opt:"0" desc:"Number of lidar measurement gates (used when SensorType = 3)"`
	PulseSpacing        float64   `fst:"PulseSpacing" opt:"30" desc:"Distance between range gates (m) (used when SensorType = 3)"`
	NumBeam             int       `fst:"NumBeam" opt:"0" desc:"Number of lidar measurement beams (0-5)(used when SensorType = 1)"`
	FocalDistanceX      []float64 `fst:"FocalDistanceX" opt:"-200" desc:"Focal distance co-ordinates of the lidar beam in the x direction (relative to hub height) (only first coordinate used for SensorType 2 and 3) (m)"`
	FocalDistanceY      []float64 `fst:"FocalDistanceY" opt:"0" desc:"Focal distance co-ordinates of the lidar beam in the y direction (relative to hub height) (only first coordinate used for SensorType 2 and 3) (m)"`
	FocalDistanceZ      []float64 `fst:"FocalDistanceZ" opt:"0" desc:"Focal distance co-ordinates of the lidar beam in the z direction (relative to hub height) (only first coordinate used for SensorType 2 and 3) (m)"`
	RotorApexOffsetPos  []float64 `fst:"RotorApexOffsetPos" opt:"" desc:"Offset of the lidar from hub height (m)"`
	URefLid             float64   `fst:"URefLid" opt:"17" desc:"Reference average wind speed for the lidar [m/s]"`
	MeasurementInterval float64   `fst:"MeasurementInterval" opt:"0.25" desc:"Time between each measurement [s]"`
	LidRadialVel        bool      `fst:"LidRadialVel" opt:"False" desc:"TRUE => return radial component, FALSE => return 'x' direction estimate"`
	ConsiderHubMotion   int       `fst:"ConsiderHubMotion" opt:"1" desc:"Flag whether to consider the hub motion's impact on Lidar measurements"`

	SumPrint bool    `fst:"SumPrint" sec:"OUTPUT" desc:"Print summary data to <RootName>.IfW.sum (flag)"`
	OutList  OutList `fst:"OutList" opt:"" desc:"The next line(s) contains a list of output parameters. See OutListParameters.xlsx for a listing of available output channels, (-)"`
}

// ReadInflowWind reads an InflowWind input file.
func ReadInflowWind(path string) (*InflowWind, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseInflowWind(src)
}

func parseInflowWind(src *Source) (*InflowWind, error) {
	w := &InflowWind{}
	r := newReader(src, &w.Meta).skipHeader()
	w.Title = titleOf(src)
	if err := decode(r, w); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *InflowWind) encode() (string, error) {
	wr := &writer{style: '='}
	wr.line("------- InflowWind INPUT FILE (written by turbinesim) ---------------------------------------------")
	wr.line(oneLine(w.Title))
	wr.line("---------------------------------------------------------------------------------------------------")
	if err := encode(wr, w); err != nil {
		return "", err
	}
	return wr.b.String(), nil
}
