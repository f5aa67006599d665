package deck

import (
	"fmt"
	"strconv"
)

// AeroDyn is the AeroDyn (v15 / v4+ / v5) primary input file in the v5
// layout. Files in the v3.x dialect load too: the legacy switches WakeMod,
// AFAeroMod, FrozenWake, SkewMod, UAMod and SkewModFactor are converted to
// Wake_Mod, DBEMT_Mod, Skew_Mod, UA_Mod and SkewRedistrFactor the way
// OpenFAST v4+ converts them; the original values are kept in
// Meta.Legacy. Angles (SectAvgPsiBwd/Fwd) in degrees.
type AeroDyn struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	Echo         bool    `fst:"Echo" sec:"General Options" desc:"Echo the input to \"<rootname>.AD.ech\"? (flag)"`
	DTAero       DefReal `fst:"DTAero" desc:"Time interval for aerodynamic calculations {or \"default\"} (s)"`
	Wake_Mod     int     `fst:"Wake_Mod" opt:"1" desc:"Wake/induction model (switch) {0=none, 1=BEMT, 3=OLAF}"`
	TwrPotent    int     `fst:"TwrPotent" desc:"Type tower influence on wind based on potential flow around the tower (switch) {0=none, 1=baseline potential flow, 2=potential flow with Bak correction}"`
	TwrShadow    int     `fst:"TwrShadow" flagok:"1" desc:"Calculate tower influence on wind based on downstream tower shadow (switch) {0=none, 1=Powles model, 2=Eames model}"`
	TwrAero      bool    `fst:"TwrAero" desc:"Calculate tower aerodynamic loads? (flag)"`
	CavitCheck   bool    `fst:"CavitCheck" opt:"False" desc:"Perform cavitation check? (flag) [UA_Mod must be 0 when CavitCheck=true]"`
	NacelleDrag  bool    `fst:"NacelleDrag" opt:"False" desc:"Include Nacelle Drag effects? (flag)"`
	CompAA       bool    `fst:"CompAA" opt:"False" desc:"Flag to compute AeroAcoustics calculation [used only when Wake_Mod = 1 or 2]"`
	AA_InputFile string  `fst:"AA_InputFile" opt:"unused" desc:"AeroAcoustics input file [used only when CompAA=true]"`

	AirDens  DefReal `fst:"AirDens" sec:"Environmental Conditions" desc:"Air density (kg/m^3)"`
	KinVisc  DefReal `fst:"KinVisc" desc:"Kinematic viscosity of working fluid (m^2/s)"`
	SpdSound DefReal `fst:"SpdSound" desc:"Speed of sound in working fluid (m/s)"`
	Patm     DefReal `fst:"Patm" opt:"default" desc:"Atmospheric pressure (Pa) [used only when CavitCheck=True]"`
	Pvap     DefReal `fst:"Pvap" opt:"default" desc:"Vapour pressure of working fluid (Pa) [used only when CavitCheck=True]"`

	BEM_Mod           int     `fst:"BEM_Mod" opt:"1" sec:"Blade-Element/Momentum Theory Options" desc:"BEM model {1=legacy NoSweepPitchTwist, 2=polar} (switch)"`
	Skew_Mod          int     `pre:"--- Skew correction" fst:"Skew_Mod" opt:"1" desc:"Skew model {0=No skew model, -1=Remove non-normal component for linearization, 1=skew model active}"`
	SkewMomCorr       bool    `fst:"SkewMomCorr" opt:"False" desc:"Turn the skew momentum correction on or off [used only when Skew_Mod=1]"`
	SkewRedistr_Mod   DefInt  `fst:"SkewRedistr_Mod" opt:"1" desc:"Type of skewed-wake correction model (switch) {0=no redistribution, 1=Glauert/Pitt/Peters, default=1} [used only when Skew_Mod=1]"`
	SkewRedistrFactor DefReal `fst:"SkewRedistrFactor" alt:"SkewModFactor" opt:"default" desc:"Constant used in Pitt/Peters skewed wake model {or \"default\" is 15/32*pi} (-) [used only when Skew_Mod=1 and SkewRedistr_Mod=1]"`
	TipLoss           bool    `pre:"--- BEM algorithm" fst:"TipLoss" desc:"Use the Prandtl tip-loss model? (flag) [unused when Wake_Mod=0 or 3]"`
	HubLoss           bool    `fst:"HubLoss" desc:"Use the Prandtl hub-loss model? (flag) [unused when Wake_Mod=0 or 3]"`
	TanInd            bool    `fst:"TanInd" desc:"Include tangential induction in BEMT calculations? (flag) [unused when Wake_Mod=0 or 3]"`
	AIDrag            bool    `fst:"AIDrag" desc:"Include the drag term in the axial-induction calculation? (flag) [unused when Wake_Mod=0 or 3]"`
	TIDrag            bool    `fst:"TIDrag" desc:"Include the drag term in the tangential-induction calculation? (flag) [unused when Wake_Mod=0,3 or TanInd=FALSE]"`
	IndToler          DefReal `fst:"IndToler" desc:"Convergence tolerance for BEMT nonlinear solve residual equation {or \"default\"} (-) [unused when Wake_Mod=0 or 3]"`
	MaxIter           int     `fst:"MaxIter" desc:"Maximum number of iteration steps (-) [unused when Wake_Mod=0]"`
	SectAvg           bool    `pre:"--- Shear correction" fst:"SectAvg" opt:"False" desc:"Use sector averaging (flag)"`
	SectAvgWeighting  DefInt  `fst:"SectAvgWeighting" opt:"1" desc:"Weighting function for sector average {1=Uniform, default=1} (switch) [used only when SectAvg=True]"`
	SectAvgNPoints    DefInt  `fst:"SectAvgNPoints" opt:"5" desc:"Number of points per sectors (-) {default=5} [used only when SectAvg=True]"`
	SectAvgPsiBwd     DefReal `fst:"SectAvgPsiBwd" opt:"-60" desc:"Backward azimuth relative to blade where the sector starts (<=0) {default=-60} (deg) [used only when SectAvg=True]"`
	SectAvgPsiFwd     DefReal `fst:"SectAvgPsiFwd" opt:"60" desc:"Forward azimuth relative to blade where the sector ends (>=0) {default=60} (deg) [used only when SectAvg=True]"`
	DBEMT_Mod         int     `pre:"--- Dynamic wake/inflow" fst:"DBEMT_Mod" opt:"0" desc:"Type of dynamic BEMT (DBEMT) model {0=No Dynamic Wake, -1=Frozen Wake for linearization, 1:constant tau1, 2=time-dependent tau1, 3=constant tau1 with continuous formulation} (-)"`
	Tau1_const        float64 `fst:"tau1_const" opt:"0" desc:"Time constant for DBEMT (s) [used only when DBEMT_Mod=1 or 3]"`

	OLAFInputFileName string `fst:"OLAFInputFileName" opt:"unused" sec:"OLAF -- cOnvecting LAgrangian Filaments (Free Vortex Wake) Theory Options" desc:"Input file for OLAF [used only when Wake_Mod=3]"`

	AoA34             bool    `fst:"AoA34" opt:"True" sec:"Unsteady Airfoil Aerodynamics Options" desc:"Sample the angle of attack (AoA) at the 3/4 chord or the AC point {default=True} [always used]"`
	UA_Mod            int     `fst:"UA_Mod" opt:"0" desc:"Unsteady Aero Model Switch (switch) {0=Quasi-steady (no UA), 2=B-L Gonzalez, 3=B-L Minnema/Pierce, 4=B-L HGM 4-states, 5=B-L HGM+vortex 5 states, 6=Oye, 7=Boeing-Vertol}"`
	FLookup           bool    `fst:"FLookup" opt:"True" desc:"Flag to indicate whether a lookup for f' will be calculated (TRUE) or whether best-fit exponential equations will be used (FALSE); if FALSE S1-S4 must be provided in airfoil input files (flag) [used only when UA_Mod=2 or UA_Mod=3]"`
	IntegrationMethod int     `fst:"IntegrationMethod" opt:"3" desc:"Switch to indicate which integration method UA uses (1=RK4, 2=AB4, 3=ABM4, 4=BDF2)"`
	UAStartRad        float64 `fst:"UAStartRad" opt:"0" desc:"Starting radius for dynamic stall (fraction of rotor radius [0.0,1.0]) [used only when UA_Mod>0]"`
	UAEndRad          float64 `fst:"UAEndRad" opt:"1" desc:"Ending radius for dynamic stall (fraction of rotor radius [0.0,1.0]) [used only when UA_Mod>0]"`

	AFTabMod    int      `fst:"AFTabMod" opt:"1" sec:"Airfoil Information" desc:"Interpolation method for multiple airfoil tables {1=1D interpolation on AoA (first table only); 2=2D interpolation on AoA and Re; 3=2D interpolation on AoA and UserProp} (-)"`
	InCol_Alfa  int      `fst:"InCol_Alfa" desc:"The column in the airfoil tables that contains the angle of attack (-)"`
	InCol_Cl    int      `fst:"InCol_Cl" desc:"The column in the airfoil tables that contains the lift coefficient (-)"`
	InCol_Cd    int      `fst:"InCol_Cd" desc:"The column in the airfoil tables that contains the drag coefficient (-)"`
	InCol_Cm    int      `fst:"InCol_Cm" desc:"The column in the airfoil tables that contains the pitching-moment coefficient; use zero if there is no Cm column (-)"`
	InCol_Cpmin int      `fst:"InCol_Cpmin" desc:"The column in the airfoil tables that contains the Cpmin coefficient; use zero if there is no Cpmin column (-)"`
	NumAFfiles  int      `fst:"NumAFfiles" desc:"Number of airfoil files used (-)"`
	AFNames     []string `fst:"-"`
	_           struct{} `block:"afnames"`

	UseBlCm  bool      `fst:"UseBlCm" sec:"Rotor/Blade Properties" desc:"Include aerodynamic pitching moment in calculations? (flag)"`
	ADBlFile [3]string `fst:"ADBlFile" desc:"Name of file containing distributed aerodynamic properties for Blade #i (-)"`

	VolHub    float64   `fst:"VolHub" opt:"0" sec:"Hub Properties" desc:"Hub volume (m^3)"`
	HubCenBx  float64   `fst:"HubCenBx" opt:"0" desc:"Hub center of buoyancy x direction offset (m)"`
	VolNac    float64   `fst:"VolNac" opt:"0" sec:"Nacelle Properties" desc:"Nacelle volume (m^3)"`
	NacCenB   []float64 `fst:"NacCenB" opt:"0 0 0" desc:"Position of nacelle center of buoyancy from yaw bearing in nacelle coordinates (m)"`
	NacArea   []float64 `fst:"NacArea" opt:"0 0 0" desc:"Projected area of the nacelle in X, Y, Z in the nacelle coordinate system (m^2)"`
	NacCd     []float64 `fst:"NacCd" opt:"0 0 0" desc:"Drag coefficient for the nacelle areas defined above (-)"`
	NacDragAC []float64 `fst:"NacDragAC" opt:"0 0 0" desc:"Position of aerodynamic center of nacelle drag in nacelle coordinates (m)"`
	TFinAero  bool      `fst:"TFinAero" opt:"False" sec:"Tail Fin Aerodynamics" desc:"Calculate tail fin aerodynamics model (flag)"`
	TFinFile  string    `fst:"TFinFile" opt:"unused" desc:"Input file for tail fin aerodynamics [used only when TFinAero=True]"`

	NumTwrNds int       `fst:"NumTwrNds" sec:"Tower Influence and Aerodynamics" desc:"Number of tower nodes used in the analysis (-)"`
	TwrElev   []float64 `fst:"-"` // m
	TwrDiam   []float64 `fst:"-"` // m
	TwrCd     []float64 `fst:"-"` // -
	// TwrTI (turbulence intensity, used by TwrShadow=2), TwrCb, TwrCp and
	// TwrCa (buoyancy, pressure and added-mass coefficients, MHK only) are
	// zero where older files lack the column.
	TwrTI []float64 `fst:"-"`
	TwrCb []float64 `fst:"-"`
	TwrCp []float64 `fst:"-"`
	TwrCa []float64 `fst:"-"`
	_     struct{}  `block:"tower"`

	SumPrint bool    `fst:"SumPrint" sec:"Outputs" desc:"Generate a summary file listing input options and interpolated properties to \"<rootname>.AD.sum\"? (flag)"`
	NBlOuts  int     `fst:"NBlOuts" desc:"Number of blade node outputs [0 - 9] (-)"`
	BlOutNd  []int   `fst:"BlOutNd" opt:"" desc:"Blade nodes whose values will be output (-)"`
	NTwOuts  int     `fst:"NTwOuts" desc:"Number of tower node outputs [0 - 9] (-)"`
	TwOutNd  []int   `fst:"TwOutNd" opt:"" desc:"Tower nodes whose values will be output (-)"`
	OutList  OutList `fst:"OutList" desc:"The next line(s) contains a list of output parameters. See OutListParameters.xlsx for a listing of available output channels, (-)"`

	Nodal NodalOutputs `fst:"-"`
	_     struct{}     `block:"nodal"`

	// Blades (NumBl entries; same file → same pointer) and Airfoils
	// (NumAFfiles entries, in AFNames order) are filled by Load.
	Blades   []*ADBlade `fst:"-"`
	Airfoils []*Airfoil `fst:"-"`
}

// adLegacy holds the pre-v4 AeroDyn switches.
type adLegacy struct {
	WakeMod    int  `fst:"WakeMod" opt:"-99"`
	AFAeroMod  int  `fst:"AFAeroMod" opt:"-99"`
	FrozenWake bool `fst:"FrozenWake" opt:"False"`
	SkewMod    int  `fst:"SkewMod" opt:"-99"`
	UAMod      int  `fst:"UAMod" opt:"-99"`
	Buoyancy   bool `fst:"Buoyancy" opt:"False"`
}

func (a *AeroDyn) decodeBlock(name string, r *reader) error {
	switch name {
	case "afnames":
		// AFNames: first line labelled, then one quoted name per line.
		i, v, _, ok := r.find(normName("AFNames"))
		if !ok {
			return r.errLine(r.cur, "AFNames", "line not found (expected %d airfoil file names)", a.NumAFfiles)
		}
		if a.NumAFfiles < 0 {
			return r.errLine(i, "NumAFfiles", "must be >= 0, got %d", a.NumAFfiles)
		}
		if a.NumAFfiles == 0 {
			return nil
		}
		if len(v) == 0 {
			return r.errLine(i, "AFNames", "expected a file name, got nothing")
		}
		a.AFNames = []string{v[0].Text}
		idx, err := r.dataLines(i, a.NumAFfiles-1, "AFNames")
		if err != nil {
			return err
		}
		for _, j := range idx {
			a.AFNames = append(a.AFNames, r.src.Lines[j].toks[0].Text)
		}
		if len(idx) > 0 {
			r.cur = idx[len(idx)-1] + 1
		}
	case "tower":
		if a.NumTwrNds <= 0 {
			return nil
		}
		cols, rows, err := r.headerTable("TwrElev", a.NumTwrNds, "TwrElev")
		if err != nil {
			return err
		}
		for _, c := range []struct {
			name string
			dst  *[]float64
			req  bool
		}{{"TwrElev", &a.TwrElev, true}, {"TwrDiam", &a.TwrDiam, true}, {"TwrCd", &a.TwrCd, true},
			{"TwrTI", &a.TwrTI, false}, {"TwrCb", &a.TwrCb, false}, {"TwrCp", &a.TwrCp, false}, {"TwrCa", &a.TwrCa, false}} {
			if !c.req && colIndex(cols, c.name) < 0 {
				*c.dst = make([]float64, len(rows))
				continue
			}
			if err := takeColumn(r, cols, rows, c.name, c.dst); err != nil {
				return err
			}
		}
	case "nodal":
		return decodeNodal(r, &a.Nodal)
	}
	return nil
}

func (a *AeroDyn) encodeBlock(name string, w *writer) error {
	switch name {
	case "afnames":
		for i, n := range a.AFNames {
			if i == 0 {
				w.kv(quote(n), "AFNames", "Airfoil file names (NumAFfiles lines) (quoted strings)")
			} else {
				w.line(quote(n))
			}
		}
	case "tower":
		cols := []string{"TwrElev", "TwrDiam", "TwrCd", "TwrTI", "TwrCb", "TwrCp", "TwrCa"}
		units := []string{"(m)", "(m)", "(-)", "(-)", "(-)", "(-)", "(-)"}
		data := [][]float64{a.TwrElev, a.TwrDiam, a.TwrCd, a.TwrTI, a.TwrCb, a.TwrCp, a.TwrCa}
		n := a.NumTwrNds
		if n < 0 {
			n = 0
		}
		if len(a.TwrElev) < n {
			return fmt.Errorf("deck: AeroDyn tower table has %d rows, NumTwrNds=%d", len(a.TwrElev), n)
		}
		// v5 reads all seven columns: absent ones are written as zeros
		for c := 3; c < len(data); c++ {
			if data[c] == nil {
				data[c] = make([]float64, n)
			}
		}
		return writeTable(w, cols, units, data, n)
	case "nodal":
		if a.Nodal.Present {
			w.section("Outputs for all blade stations (same ending as above for B1N1....)")
			n := a.Nodal
			n.Present = true
			encodeNodal(w, &n, false)
		}
	}
	return nil
}

// ReadAeroDyn reads an AeroDyn primary file (without blade and airfoil files).
// AeroDyn v14 files are rejected with an error wrapping ErrUnsupported.
func ReadAeroDyn(path string) (*AeroDyn, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseAeroDyn(src)
}

func parseAeroDyn(src *Source) (*AeroDyn, error) {
	if isAeroDyn14(src) {
		return nil, &Error{File: src.Path, Line: 1, Msg: "AeroDyn v14 input file: only AeroDyn v15 and later are read", Err: ErrUnsupported}
	}
	a := &AeroDyn{}
	r := newReader(src, &a.Meta).skipHeader()
	a.Title = titleOf(src)
	if err := decode(r, a); err != nil {
		return nil, err
	}
	var leg adLegacy
	lm := Meta{}
	if err := decode(newReader(src, &lm).skipHeader(), &leg); err != nil {
		return nil, err
	}
	a.Meta.Legacy = map[string]string{}
	for _, n := range []string{"WakeMod", "AFAeroMod", "FrozenWake", "SkewMod", "UAMod", "Buoyancy", "SkewModFactor"} {
		if lm.Has(n) || (n == "SkewModFactor" && r.has(n)) {
			a.Meta.Legacy[n] = legacyValue(src, n)
		}
	}
	if err := a.convertLegacy(&leg, r); err != nil {
		return nil, err
	}
	return a, nil
}

func legacyValue(src *Source, name string) string {
	n := normName(name)
	for i := range src.Lines {
		if v, ok := match(&src.Lines[i], n); ok && len(v) > 0 {
			return v[0].Text
		}
	}
	return ""
}

// convertLegacy maps the v3.x switches onto the v4+ ones (OpenFAST
// AeroDyn_IO legacy handling; docs/source/user/api_change.rst, v4.0).
func (a *AeroDyn) convertLegacy(l *adLegacy, r *reader) error {
	has := func(n string) bool { _, ok := a.Meta.Legacy[n]; return ok }
	if has("WakeMod") {
		if a.Meta.Has("Wake_Mod") {
			return r.errLine(-1, "Wake_Mod", "both WakeMod (legacy) and Wake_Mod present")
		}
		switch l.WakeMod {
		case 0:
			a.Wake_Mod, a.DBEMT_Mod = 0, 0
		case 1:
			a.Wake_Mod, a.DBEMT_Mod = 1, 0
		case 2:
			a.Wake_Mod = 1 // DBEMT_Mod as given in the file
		case 3:
			a.Wake_Mod, a.DBEMT_Mod = 3, 0
		default:
			// not a documented value: carried over unchanged so that
			// Validate reports it (never silently fixed)
			a.Wake_Mod = l.WakeMod
		}
		if has("FrozenWake") && l.FrozenWake && l.WakeMod == 1 {
			a.DBEMT_Mod = -1
		}
	}
	if has("SkewMod") && !a.Meta.Has("Skew_Mod") {
		switch l.SkewMod {
		case 0:
			a.Skew_Mod = -1
		case 1:
			a.Skew_Mod = 0
		case 2:
			a.Skew_Mod = 1
		default:
			// OpenFAST v4+ rejects other legacy values (3 = coupled):
			// carried over so that Validate reports it
			a.Skew_Mod = l.SkewMod
		}
	}
	if !a.Meta.Has("UA_Mod") {
		ua := 0
		if has("UAMod") {
			ua = l.UAMod
		}
		if has("AFAeroMod") {
			switch l.AFAeroMod {
			case 1:
				ua = 0
			}
		}
		a.UA_Mod = ua
	}
	// AoA34 missing: legacy behaviour follows AFAeroMod (UA off → False)
	if !a.Meta.Has("AoA34") && has("AFAeroMod") && l.AFAeroMod == 1 {
		a.AoA34 = false
	}
	return nil
}

// LegacyLine returns the line of a legacy (pre-v4) variable, or 0.
func (a *AeroDyn) LegacyLine(name string) int {
	n := normName(name)
	for i := range a.Meta.Src.Lines {
		if _, ok := match(&a.Meta.Src.Lines[i], n); ok {
			return a.Meta.Src.Lines[i].Num
		}
	}
	return 0
}

// isAeroDyn14 recognises AeroDyn v14 files (header or StallMod/InfModel lines).
func isAeroDyn14(src *Source) bool {
	for i := range src.Lines {
		l := &src.Lines[i]
		if l.Num == 1 && containsFold(l.Raw, "AeroDyn v14") {
			return true
		}
		if l.Num > 10 {
			break
		}
		for _, n := range []string{"stallmod", "infmodel", "indmodel"} {
			if _, ok := match(l, n); ok {
				return true
			}
		}
	}
	return false
}

func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if equalFoldASCII(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func (a *AeroDyn) encode() (string, error) {
	w := &writer{style: '='}
	w.line("------- AERODYN INPUT FILE (OpenFAST v5 syntax, written by turbinesim) --------------------------------")
	w.line(oneLine(a.Title))
	if err := encode(w, a); err != nil {
		return "", err
	}
	w.line("---------------------------------------------------------------------------------------")
	return w.b.String(), nil
}

// ADBlade is an AeroDyn blade definition file. Per node: BlSpn (m, along the
// pitch axis from the root), BlCrvAC and BlSwpAC (m, out-of-plane and
// in-plane offsets of the aerodynamic centre), BlCrvAng (degrees), BlTwist
// (degrees), BlChord (m), BlAFID (1-based index into AeroDyn AFNames).
// Optional columns (t_c, BlCb, BlCenBn, BlCenBt, BlCpn, BlCpt, BlCan, BlCat,
// BlCam) are kept in Extra by header name.
type ADBlade struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	NumBlNds int       `fst:"NumBlNds" sec:"Blade Properties" desc:"Number of blade nodes used in the analysis (-)"`
	BlSpn    []float64 `fst:"-"`
	BlCrvAC  []float64 `fst:"-"`
	BlSwpAC  []float64 `fst:"-"`
	BlCrvAng []float64 `fst:"-"` // zeros when the column is absent
	BlTwist  []float64 `fst:"-"`
	BlChord  []float64 `fst:"-"`
	BlAFID   []int     `fst:"-"`
	// Extra holds further columns by header name, in ExtraCols order.
	Extra     map[string][]float64 `fst:"-"`
	ExtraCols []string             `fst:"-"`
	_         struct{}             `block:"table"`
}

var adBladeOptional = []string{"t_c", "BlCb", "BlCenBn", "BlCenBt", "BlCpn", "BlCpt", "BlCan", "BlCat", "BlCam"}

func (b *ADBlade) decodeBlock(name string, r *reader) error {
	cols, rows, err := r.headerTable("BlSpn", b.NumBlNds, "BlSpn")
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		dst  *[]float64
	}{{"BlSpn", &b.BlSpn}, {"BlCrvAC", &b.BlCrvAC}, {"BlSwpAC", &b.BlSwpAC}, {"BlTwist", &b.BlTwist}, {"BlChord", &b.BlChord}} {
		if err := takeColumn(r, cols, rows, c.name, c.dst); err != nil {
			return err
		}
	}
	if colIndex(cols, "BlCrvAng") >= 0 {
		if err := takeColumn(r, cols, rows, "BlCrvAng", &b.BlCrvAng); err != nil {
			return err
		}
	} else {
		b.BlCrvAng = make([]float64, len(rows))
	}
	var ids []float64
	if err := takeColumn(r, cols, rows, "BlAFID", &ids); err != nil {
		return err
	}
	b.BlAFID = make([]int, len(ids))
	for i, x := range ids {
		if x != float64(int(x)) {
			return r.errLine(r.cur-1, "BlAFID", "row %d: expected an integer airfoil index, got %s", i+1, strconv.FormatFloat(x, 'g', -1, 64))
		}
		b.BlAFID[i] = int(x)
	}
	for _, c := range adBladeOptional {
		if colIndex(cols, c) < 0 {
			continue
		}
		var v []float64
		if err := takeColumn(r, cols, rows, c, &v); err != nil {
			return err
		}
		if b.Extra == nil {
			b.Extra = map[string][]float64{}
		}
		b.Extra[c] = v
		b.ExtraCols = append(b.ExtraCols, c)
	}
	return nil
}

func (b *ADBlade) encodeBlock(name string, w *writer) error {
	ids := make([]float64, len(b.BlAFID))
	for i, k := range b.BlAFID {
		ids[i] = float64(k)
	}
	cols := []string{"BlSpn", "BlCrvAC", "BlSwpAC", "BlCrvAng", "BlTwist", "BlChord", "BlAFID"}
	units := []string{"(m)", "(m)", "(m)", "(deg)", "(deg)", "(m)", "(-)"}
	data := [][]float64{b.BlSpn, b.BlCrvAC, b.BlSwpAC, b.BlCrvAng, b.BlTwist, b.BlChord, ids}
	for _, c := range b.ExtraCols {
		cols, units, data = append(cols, c), append(units, "(-)"), append(data, b.Extra[c])
	}
	return writeTable(w, cols, units, data, b.NumBlNds)
}

// ReadADBlade reads an AeroDyn blade file.
func ReadADBlade(path string) (*ADBlade, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseADBlade(src)
}

func parseADBlade(src *Source) (*ADBlade, error) {
	b := &ADBlade{}
	r := newReader(src, &b.Meta).skipHeader()
	b.Title = titleOf(src)
	if err := decode(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *ADBlade) encode() (string, error) {
	w := &writer{style: '='}
	w.line("------- AERODYN BLADE DEFINITION INPUT FILE (written by turbinesim) ----------------")
	w.line(oneLine(b.Title))
	if err := encode(w, b); err != nil {
		return "", err
	}
	return w.b.String(), nil
}
