package deck

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ConvertToV5 converts a deck loaded in the OpenFAST v3 layout to the
// OpenFAST v5 layout in place, so that writing it gives a deck OpenFAST v5
// runs unchanged:
//
//   - HydroDyn: the environment, waves, second-order waves and current move
//     into a new SeaState file (CompSeaSt = 1, SeaStFile named after the
//     .fst), as OpenFAST v4 did when it split SeaState out of HydroDyn; the
//     HydroDyn file is rewritten in the v5 layout (HydroDynV5Text);
//   - SubDyn: the v1.01 file is rewritten in the v5 layout (ConvertSubDynToV5).
//
// Every value the old files state is kept (also the defects Validate
// reports, such as a water depth that disagrees with the primary file's);
// every input OpenFAST v5 adds gets v5's documented default or the neutral
// value that reproduces the v3 behaviour, and is returned as a warning
// naming the file and line of the written file where it now stands. A deck
// already in the v5 layout is left alone (no warnings).
func (d *Deck) ConvertToV5() ([]Problem, error) {
	if d == nil || d.Main == nil {
		return nil, errors.New("deck: ConvertToV5: no primary file")
	}
	var warns []Problem
	if w, err := d.convertHydroDynToV5(); err != nil {
		return nil, err
	} else {
		warns = append(warns, w...)
	}
	w, err := d.ConvertSubDynToV5()
	if err != nil {
		return nil, err
	}
	warns = append(warns, w...)
	w, err = d.convertMoorDynOutputs()
	if err != nil {
		return nil, err
	}
	return append(warns, w...), nil
}

// convertMoorDynOutputs removes the output names without an object number
// ("FX", "fy": the older MoorDyn's total fairlead loads) from a MoorDyn
// file's OUTPUTS section: MoorDyn v2, which OpenFAST v5 runs, stops at an
// output specifier without an object ID (MoorDyn v2 documentation, output
// channels: a channel names a line, point, rod or body and its number).
// Each removal is a warning with the line it stood on.
func (d *Deck) convertMoorDynOutputs() ([]Problem, error) {
	g := d.Offshore.Mooring
	if g == nil || d.Offshore.MooringKind != "MoorDyn" {
		return nil, nil
	}
	var warns []Problem
	var b strings.Builder
	section := ""
	for _, l := range g.Meta.Src.Lines {
		if sec, ok := mdSection(l.Raw); ok {
			section = sec
		}
		if section == "outputs" && len(l.toks) == 1 && !isEnd(l.Raw) && !strings.ContainsAny(l.toks[0].Text, "0123456789") {
			warns = append(warns, Problem{File: g.Meta.Path, Line: l.Num, Variable: l.toks[0].Text, Warning: true,
				Message: "output channel without an object number removed by the conversion to the OpenFAST v5 layout (MoorDyn v2 rejects it)"})
			continue
		}
		b.WriteString(l.Raw)
		b.WriteByte('\n')
	}
	if len(warns) == 0 {
		return nil, nil
	}
	src, err := sourceFromBytes(g.Meta.Path, []byte(b.String()), false)
	if err != nil {
		return nil, err
	}
	d.Offshore.Mooring = parseGeneric(src, g.Kind)
	return warns, nil
}

// HydroDynIsV3 reports whether a HydroDyn file is in the pre-v4 layout:
// it defines the waves itself (a WaveMod line).
func HydroDynIsV3(g *Generic) bool {
	if g == nil {
		return false
	}
	_, _, ok := g.Lookup("WaveMod")
	return ok
}

func (d *Deck) convertHydroDynToV5() ([]Problem, error) {
	m := d.Main
	g := d.Offshore.HydroDyn
	if m.CompHydro != 1 || g == nil || !HydroDynIsV3(g) || m.CompSeaSt == 1 {
		return nil, nil
	}
	h, err := g.HydroDyn()
	if err != nil {
		return nil, err
	}
	if h.NBody > 1 {
		_, line, _ := g.Lookup("NBody")
		return nil, errAt(g.Meta.Path, line, "NBody", "%d WAMIT bodies: only single-body HydroDyn files are converted to the OpenFAST v5 layout", h.NBody)
	}
	seaName := strings.TrimSuffix(filepath.Base(d.Path), filepath.Ext(d.Path)) + "_SeaState.dat"
	seaPath := filepath.Join(filepath.Dir(d.Path), seaName)
	if d.Path == "" {
		seaPath = seaName
	}
	sea := &v5Writer{path: seaPath, from: g}
	seaStateV5(sea, g, h)
	hd := &v5Writer{path: g.Meta.Path, from: g}
	hydroDynV5(hd, g, h)
	var warns []Problem
	for _, w := range []*v5Writer{sea, hd} {
		if w.err != nil {
			return nil, w.err
		}
		src, err := sourceFromBytes(w.path, []byte(w.b.String()), false)
		if err != nil {
			return nil, err
		}
		if w == sea {
			d.Offshore.SeaState = parseGeneric(src, "SeaState")
		} else {
			d.Offshore.HydroDyn = parseGeneric(src, g.Kind)
		}
		warns = append(warns, w.warns...)
	}
	if n := len(sea.movedFrom); n > 0 {
		warns = append(warns, Problem{File: g.Meta.Path, Line: sea.movedFrom[0], Variable: "WaveMod", Warning: true,
			Message: fmt.Sprintf("the environment, waves, second-order waves, current and wave-elevation inputs (%d lines, %d to %d) moved by the conversion to the OpenFAST v5 layout into the new SeaState file %s, values unchanged", n, slices.Min(sea.movedFrom), slices.Max(sea.movedFrom), seaName)})
	}
	fstLine := m.Meta.LineOf("CompSeaSt")
	if fstLine == 0 {
		fstLine = m.Meta.LineOf("CompHydro")
	}
	m.CompSeaSt, m.SeaStFile = 1, seaName
	warns = append(warns, Problem{File: m.Meta.Path, Line: fstLine, Variable: "CompSeaSt", Warning: true,
		Message: fmt.Sprintf("converted to the OpenFAST v5 layout: CompSeaSt = 1 with the new SeaState file %s (waves and current moved there from %s)", seaName, filepath.Base(g.Meta.Path))})
	return warns, nil
}

// v5Writer writes one converted input file line by line, recording which
// line every input landed on, so that the conversion's warnings name it.
type v5Writer struct {
	path  string
	from  *Generic // the v3 file the values come from
	b     strings.Builder
	line  int
	warns []Problem
	err   error
	// movedFrom are the lines of the v3 file whose inputs this file took
	movedFrom []int
}

func (w *v5Writer) raw(s string) {
	w.b.WriteString(s)
	w.b.WriteByte('\n')
	w.line++
}

func (w *v5Writer) section(title string) {
	w.raw("---------------------- " + title + " ----------------------")
}

func (w *v5Writer) value(val, name, what string) {
	w.raw(fmt.Sprintf("%-22s %-14s - %s", val, name, what))
}

// added writes an input the v3 file does not have, at value def, and warns.
func (w *v5Writer) added(def, name, what string) {
	w.value(def, name, what)
	w.warns = append(w.warns, Problem{File: w.path, Line: w.line, Variable: name, Warning: true,
		Message: fmt.Sprintf("added by the conversion to the OpenFAST v5 layout: %s (not in the v3 file)", def)})
}

// moved writes an input of the v3 file (under the name src there) as name,
// as written there; absent, it is added at def.
func (w *v5Writer) moved(src, name, def, what string) {
	toks, line, ok := w.from.Lookup(src)
	if !ok || len(toks) == 0 {
		w.added(def, name, what)
		return
	}
	w.value(tokenText(toks), name, what)
	if w.path != w.from.Meta.Path {
		w.movedFrom = append(w.movedFrom, line)
	}
}

// kept writes an input of the v3 file as written there (the same file).
func (w *v5Writer) kept(name, def, what string) { w.moved(name, name, def, what) }

func (w *v5Writer) row(words ...string) { w.raw("  " + strings.Join(words, "  ")) }

// tokenText writes value tokens back as the file had them.
func tokenText(toks []Token) string {
	words := make([]string, len(toks))
	for i, t := range toks {
		if t.Quoted {
			words[i] = strconv.Quote(t.Text)
		} else {
			words[i] = t.Text
		}
	}
	return strings.Join(words, " ")
}

// seaStateV5 writes the SeaState file: the environment, waves, second-order
// waves, current and wave-elevation outputs of a v3 HydroDyn file (OpenFAST
// SeaState input-file documentation, v4.0 and later).
func seaStateV5(w *v5Writer, g *Generic, h *HydroDyn) {
	w.raw("------- SeaState Input File (OpenFAST v5 layout) --------------------------")
	w.raw("Sea state converted from a HydroDyn v2 file")
	w.value("False", "Echo", "echo the input to <root>.SeaSt.ech (flag)")
	w.section("ENVIRONMENTAL CONDITIONS")
	w.moved("WtrDens", "WtrDens", `"default"`, "water density (kg/m^3), or default: the primary file's")
	w.moved("WtrDpth", "WtrDpth", `"default"`, "water depth (m), or default: the primary file's")
	w.moved("MSL2SWL", "MSL2SWL", `"default"`, "still-water level above mean sea level (m), or default")
	// The wave-kinematics grid is new in v4 and has no default. Its extent
	// covers the strip-theory members (kinematics are interpolated inside
	// it); without members it serves the wave-elevation outputs only.
	half, nz := 10.0, 2
	for _, j := range h.Joints {
		half = math.Max(half, math.Ceil(math.Max(math.Abs(j.X), math.Abs(j.Y))+maxPropD(h)/2))
	}
	for _, mem := range h.Members {
		if !mem.PropPot {
			nz = 40 // cosine-spaced levels down to Z_Depth resolve the decay of the kinematics with depth
		}
	}
	w.section("SPATIAL DISCRETIZATION")
	w.added(fmtReal(half), "X_HalfWidth", "half-width of the wave-kinematics grid in x (m)")
	w.added(fmtReal(half), "Y_HalfWidth", "half-width of the wave-kinematics grid in y (m)")
	w.added(`"default"`, "Z_Depth", "depth of the grid below SWL (m), or default: the water depth")
	w.added("2", "NX", "grid nodes in half of the x range")
	w.added("2", "NY", "grid nodes in half of the y range")
	w.added(strconv.Itoa(nz), "NZ", "grid nodes in z (cosine spacing)")
	w.section("WAVES")
	w.moved("WaveMod", "WaveMod", "0", "incident waves {0 still water, 1 regular, 1P# regular with phase, 2 JONSWAP/PM, 3 white noise, 4 user spectrum, 5 elevation series, 6 kinematics series, 7 user components}")
	w.moved("WaveStMod", "WaveStMod", "0", "stretching {0 none, 1 vertical, 2 extrapolation, 3 Wheeler}")
	w.added("0", "WvCrntMod", "wave-current interaction {0 superposition, 1 Doppler, 2 Doppler and amplitude scaling}")
	w.moved("WaveTMax", "WaveTMax", "3630", "analysis time of the wave series (s)")
	w.moved("WaveDT", "WaveDT", "0.25", "time step of the wave series (s)")
	w.moved("WaveHs", "WaveHs", "0", "significant wave height (m)")
	w.moved("WaveTp", "WaveTp", "10", "peak period (s)")
	w.moved("WavePkShp", "WavePkShp", "DEFAULT", "JONSWAP peak-shape parameter, or DEFAULT")
	w.moved("WvLowCOff", "WvLowCOff", "0", "low cut-off frequency of the spectrum (rad/s)")
	w.moved("WvHiCOff", "WvHiCOff", "500", "high cut-off frequency of the spectrum (rad/s)")
	w.moved("WaveDir", "WaveDir", "0", "wave heading (deg)")
	w.moved("WaveDirMod", "WaveDirMod", "0", "directional spreading {0 none, 1 COS2S}")
	w.moved("WaveDirSpread", "WaveDirSpread", "1", "spreading coefficient")
	w.moved("WaveNDir", "WaveNDir", "1", "number of wave directions (odd)")
	w.moved("WaveDirRange", "WaveDirRange", "90", "range of wave directions (deg)")
	w.moved("WaveSeed(1)", "WaveSeed(1)", "0", "first random seed")
	w.moved("WaveSeed(2)", "WaveSeed(2)", "0", "second random seed, or RANLUX")
	w.moved("WaveNDAmp", "WaveNDAmp", "False", "normally distributed amplitudes (flag)")
	w.moved("WvKinFile", "WvKinFile", `""`, "root name of external wave data (WaveMod 5, 6, 7)")
	w.section("2ND-ORDER WAVES")
	w.moved("WvDiffQTF", "WvDiffQTF", "False", "difference-frequency second-order kinematics (flag)")
	w.moved("WvSumQTF", "WvSumQTF", "False", "sum-frequency second-order kinematics (flag)")
	w.moved("WvLowCOffD", "WvLowCOffD", "0", "low cut-off, difference frequencies (rad/s)")
	w.moved("WvHiCOffD", "WvHiCOffD", "0", "high cut-off, difference frequencies (rad/s)")
	w.moved("WvLowCOffS", "WvLowCOffS", "0", "low cut-off, sum frequencies (rad/s)")
	w.moved("WvHiCOffS", "WvHiCOffS", "0", "high cut-off, sum frequencies (rad/s)")
	w.section("CONSTRAINED WAVES")
	w.added("0", "ConstWaveMod", "constrained wave {0 none, 1 crest elevation, 2 crest height}")
	w.added("1", "CrestHmax", "crest height (m) (ConstWaveMod > 0)")
	w.added("60", "CrestTime", "time of the crest (s) (ConstWaveMod > 0)")
	w.added("0", "CrestXi", "x of the crest (m) (ConstWaveMod > 0)")
	w.added("0", "CrestYi", "y of the crest (m) (ConstWaveMod > 0)")
	w.section("CURRENT")
	w.moved("CurrMod", "CurrMod", "0", "current {0 none, 1 standard, 2 user}")
	w.moved("CurrSSV0", "CurrSSV0", "0", "sub-surface current at SWL (m/s)")
	w.moved("CurrSSDir", "CurrSSDir", `"DEFAULT"`, "sub-surface current heading (deg), or DEFAULT: WaveDir")
	w.moved("CurrNSRef", "CurrNSRef", "20", "near-surface current reference depth (m)")
	w.moved("CurrNSV0", "CurrNSV0", "0", "near-surface current at SWL (m/s)")
	w.moved("CurrNSDir", "CurrNSDir", "0", "near-surface current heading (deg)")
	w.moved("CurrDIV", "CurrDIV", "0", "depth-independent current (m/s)")
	w.moved("CurrDIDir", "CurrDIDir", "0", "depth-independent current heading (deg)")
	w.section("MacCamy-Fuchs DIFFRACTION")
	w.added("0", "MCFD", "MacCamy-Fuchs member diameter (m), 0: off")
	w.section("OUTPUT")
	w.added("False", "SeaStSum", "summary file (flag)")
	w.added("2", "OutSwtch", "outputs to {1 <root>.SeaSt.out, 2 the main output, 3 both}")
	w.added(`"ES11.4e2"`, "OutFmt", "number format")
	w.added(`"A11"`, "OutSFmt", "header format")
	w.moved("NWaveElev", "NWaveElev", "0", "points with wave-elevation outputs (at most 9)")
	w.moved("WaveElevxi", "WaveElevxi", "0", "their x (m)")
	w.moved("WaveElevyi", "WaveElevyi", "0", "their y (m)")
	w.added("0", "NWaveKin", "points with wave-kinematics outputs (at most 9)")
	w.added("0", "WaveKinxi", "their x (m)")
	w.added("0", "WaveKinyi", "their y (m)")
	w.added("0", "WaveKinzi", "their z (m)")
	w.section("OUTPUT CHANNELS")
	for _, c := range h.OutList {
		if isSeaStateChannel(c) {
			w.raw(strconv.Quote(c))
		}
	}
	w.raw("END of output channels")
}

func maxPropD(h *HydroDyn) float64 {
	d := 0.0
	for _, p := range h.PropSets {
		d = math.Max(d, p.D)
	}
	return d
}

// isSeaStateChannel reports an output that OpenFAST v4 moved from HydroDyn
// to SeaState (wave elevations WaveNElev).
func isSeaStateChannel(c string) bool {
	u := strings.ToUpper(c)
	return strings.HasPrefix(u, "WAVE") && strings.HasSuffix(u, "ELEV")
}

// hydroDynV5Channel gives the OpenFAST v5 name of a v3 HydroDyn output
// (v4 put the WAMIT body number in front: WavesF1xi → B1WvsF1xi,
// HdrStcFxi → B1HdSFxi, RdtnFxi → B1RdtFxi); other names are unchanged.
func hydroDynV5Channel(c string) string {
	u := strings.ToUpper(c)
	for _, p := range []struct{ old, new string }{{"WAVES", "B1Wvs"}, {"HDRSTC", "B1HdS"}, {"RDTN", "B1Rdt"}} {
		if strings.HasPrefix(u, p.old) && len(c) > len(p.old) {
			return p.new + c[len(p.old):]
		}
	}
	return c
}

// hydroDynV5 writes the HydroDyn file in the OpenFAST v5 layout (the order
// OpenFAST v5.0.0's HydroDyn reads: floating platform with the excitation
// and yaw options, second-order forces, additional matrices, strip-theory
// options, then the member tables with separate cylindrical and rectangular
// sections).
func hydroDynV5(w *v5Writer, g *Generic, h *HydroDyn) {
	g6 := func(xs [6]float64) []string {
		s := make([]string, 6)
		for i, x := range xs {
			s[i] = fmtReal(x)
		}
		return s
	}
	b := func(v bool) string {
		if v {
			return "True"
		}
		return "False"
	}
	w.raw("------- HydroDyn Input File (OpenFAST v5 layout) --------------------------")
	w.raw("Hydrodynamics converted from a HydroDyn v2 file")
	w.kept("Echo", "False", "echo the input to <root>.HD.ech (flag)")
	w.section("FLOATING PLATFORM")
	w.kept("PotMod", "0", "potential flow {0 none, 1 WAMIT, 2 FIT}")
	w.kept("ExctnMod", "0", "wave excitation {0 none, 1 DFT, 2 state-space}")
	w.kept("ExctnDisp", "0", "excitation at {0 the undisplaced position, 1 the displaced position, 2 the filtered displaced position}")
	w.kept("ExctnCutOff", "10", "corner frequency of the position filter (Hz) (ExctnDisp 2)")
	w.kept("PtfmYMod", "0", "platform reference yaw {0 static PtfmRefY, 1 filtered yaw motion}")
	w.kept("PtfmRefY", "0", "reference yaw offset (deg)")
	w.kept("PtfmYCutOff", "0.01", "corner frequency of the yaw filter (Hz) (PtfmYMod 1)")
	w.kept("NExctnHdg", "36", "headings of the excitation table (PtfmYMod 1)")
	w.kept("RdtnMod", "0", "radiation memory {0 none, 1 convolution, 2 state-space}")
	w.kept("RdtnTMax", "60", "analysis time of the radiation kernel (s)")
	w.kept("RdtnDT", `"DEFAULT"`, "time step of the radiation kernel (s), or DEFAULT")
	w.kept("NBody", "1", "WAMIT bodies")
	w.kept("NBodyMod", "1", "body coupling {1 full, 2 none at the origin, 3 none with offsets}")
	w.kept("PotFile", `"unused"`, "root name of the WAMIT files (.1, .3, .hst)")
	w.kept("WAMITULEN", "1", "WAMIT length scale (m)")
	w.kept("PtfmRefxt", "0", "x of the body reference point (m)")
	w.kept("PtfmRefyt", "0", "y of the body reference point (m)")
	w.kept("PtfmRefzt", "0", "z of the body reference point (m)")
	w.kept("PtfmRefztRot", "0", "rotation of the body frame about z (deg)")
	w.kept("PtfmVol0", "0", "displaced volume at rest (m^3)")
	w.kept("PtfmCOBxt", "0", "x of the centre of buoyancy (m)")
	w.kept("PtfmCOByt", "0", "y of the centre of buoyancy (m)")
	w.kept("NAddDOF", "0", "additional generalised DOFs of the body")
	w.section("2ND-ORDER FLOATING PLATFORM FORCES")
	w.kept("MnDrift", "0", "mean drift {0 none, 7-12 WAMIT file}")
	w.kept("NewmanApp", "0", "Newman's approximation {0 none, 7-12 WAMIT file}")
	w.kept("DiffQTF", "0", "difference-frequency QTF {0 none, 10-12 WAMIT file}")
	w.kept("SumQTF", "0", "sum-frequency QTF {0 none, 10-12 WAMIT file}")
	w.section("PLATFORM ADDITIONAL STIFFNESS AND DAMPING")
	for i, x := range h.AddF0 {
		if i == 0 {
			w.value(fmtReal(x), "AddF0", "additional preload (N, N-m)")
		} else {
			w.raw(fmtReal(x))
		}
	}
	for _, mat := range []struct {
		name, what string
		m          [6][6]float64
	}{{"AddCLin", "additional linear stiffness", h.AddCLin}, {"AddBLin", "additional linear damping", h.AddBLin}, {"AddBQuad", "additional quadratic drag", h.AddBQuad}} {
		for i, r := range mat.m {
			if i == 0 {
				w.raw(strings.Join(g6(r), " ") + "   " + mat.name + " - " + mat.what)
			} else {
				w.raw(strings.Join(g6(r), " "))
			}
		}
	}
	w.section("STRIP THEORY OPTIONS")
	w.kept("WaveDisp", "0", "wave kinematics at {0 the undisplaced, 1 the displaced} position")
	w.kept("AMMod", "0", "distributed added mass {0 below SWL at rest, 1 up to the free surface}")
	w.kept("HstMod", "0", "hydrostatics {0 up to SWL, 1 up to the free surface}")

	w.section("AXIAL COEFFICIENTS")
	w.value(strconv.Itoa(len(h.AxCoefs)), "NAxCoef", "axial coefficient sets")
	w.row("AxCoefID", "AxCd", "AxCa", "AxCp", "AxFDMod", "AxVnCOff", "AxFDLoFSc")
	w.row("(-)", "(-)", "(-)", "(-)", "(switch)", "(Hz)", "(-)")
	if hdr, _, _ := g.Table("AxCoefID", 0); len(h.AxCoefs) > 0 && !containsFold(strings.Join(hdr, " "), "AxFDMod") {
		w.warns = append(w.warns, Problem{File: w.path, Line: w.line + 1, Variable: "AxFDMod", Warning: true,
			Message: "added by the conversion to the OpenFAST v5 layout: AxFDMod 0, AxVnCOff -1, AxFDLoFSc 1 in every axial-coefficient row (not in the v3 file)"})
	}
	for _, a := range h.AxCoefs {
		w.row(strconv.Itoa(a.ID), fmtReal(a.Cd), fmtReal(a.Ca), fmtReal(a.Cp), strconv.Itoa(a.FDMod), fmtReal(a.VnCOff), fmtReal(a.FDLoFS))
	}
	w.section("MEMBER JOINTS")
	w.value(strconv.Itoa(len(h.Joints)), "NJoints", "joints")
	w.row("JointID", "Jointxi", "Jointyi", "Jointzi", "JointAxID", "JointOvrlp")
	w.row("(-)", "(m)", "(m)", "(m)", "(-)", "(switch)")
	for _, j := range h.Joints {
		w.row(strconv.Itoa(j.ID), fmtReal(j.X), fmtReal(j.Y), fmtReal(j.Z), strconv.Itoa(j.AxID), strconv.Itoa(j.Ovrlp))
	}
	w.section("CYLINDRICAL MEMBER CROSS-SECTION PROPERTIES")
	w.value(strconv.Itoa(len(h.PropSets)), "NPropSetsCyl", "cylindrical property sets")
	w.row("PropSetID", "PropD", "PropThck")
	w.row("(-)", "(m)", "(m)")
	for _, p := range h.PropSets {
		w.row(strconv.Itoa(p.ID), fmtReal(p.D), fmtReal(p.Thck))
	}
	w.section("RECTANGULAR MEMBER CROSS-SECTION PROPERTIES")
	w.value("0", "NPropSetsRec", "rectangular property sets")
	w.row("PropSetID", "PropA", "PropB", "PropThck")
	w.row("(-)", "(m)", "(m)", "(m)")
	coefNames := []string{"Cd", "CdMG", "Ca", "CaMG", "Cp", "CpMG", "AxCd", "AxCdMG", "AxCa", "AxCaMG", "AxCp", "AxCpMG", "Cb", "CbMG"}
	coefVals := func(c HDCoefs) []string {
		v := []float64{c.Cd, c.CdMG, c.Ca, c.CaMG, c.Cp, c.CpMG, c.AxCd, c.AxCdMG, c.AxCa, c.AxCaMG, c.AxCp, c.AxCpMG, c.Cb, c.CbMG}
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmtReal(x)
		}
		return s
	}
	named := func(prefix string, names []string) []string {
		s := make([]string, len(names))
		for i, n := range names {
			s[i] = prefix + n
		}
		return s
	}
	units := func(first string, n int) []string {
		s := []string{first}
		for i := 0; i < n; i++ {
			s = append(s, "(-)")
		}
		return s
	}
	w.section("SIMPLE CYLINDRICAL-MEMBER HYDRODYNAMIC COEFFICIENTS (model 1)")
	w.row(named("Simpl", coefNames)...)
	w.row(units("(-)", len(coefNames)-1)...)
	w.row(coefVals(h.Simple)...)
	w.section("SIMPLE RECTANGULAR-MEMBER HYDRODYNAMIC COEFFICIENTS (model 1)")
	rectNames := []string{"CdA", "CdAMG", "CdB", "CdBMG", "CaA", "CaAMG", "CaB", "CaBMG", "Cp", "CpMG", "AxCd", "AxCdMG", "AxCa", "AxCaMG", "AxCp", "AxCpMG", "Cb", "CbMG"}
	w.row(named("Simpl", rectNames)...)
	w.row(units("(-)", len(rectNames)-1)...)
	// no rectangular members in a v3 file: neutral coefficients, unused
	w.row("1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "0", "0", "1", "1", "1", "1", "1", "1")
	w.section("DEPTH-BASED CYLINDRICAL-MEMBER HYDRODYNAMIC COEFFICIENTS (model 2)")
	w.value(strconv.Itoa(len(h.DepthCoefs)), "NCoefDpthCyl", "depths with cylindrical coefficients")
	w.row(append([]string{"Dpth"}, named("Dpth", coefNames)...)...)
	w.row(units("(m)", len(coefNames))...)
	for _, c := range h.DepthCoefs {
		w.row(append([]string{fmtReal(c.Dpth)}, coefVals(c.HDCoefs)...)...)
	}
	w.section("DEPTH-BASED RECTANGULAR-MEMBER HYDRODYNAMIC COEFFICIENTS (model 2)")
	w.value("0", "NCoefDpthRec", "depths with rectangular coefficients")
	w.row(append([]string{"Dpth"}, named("Dpth", rectNames)...)...)
	w.row(units("(m)", len(rectNames))...)
	w.section("MEMBER-BASED CYLINDRICAL-MEMBER HYDRODYNAMIC COEFFICIENTS (model 3)")
	w.value(strconv.Itoa(len(h.MemberCoefs)), "NCoefMembersCyl", "members with their own cylindrical coefficients")
	var memberCols []string
	for _, n := range coefNames {
		memberCols = append(memberCols, "Member"+n+"1", "Member"+n+"2")
	}
	w.row(append([]string{"MemberID"}, memberCols...)...)
	w.row(units("(-)", len(memberCols))...)
	for _, mc := range h.MemberCoefs {
		e1, e2 := coefVals(mc.End[0]), coefVals(mc.End[1])
		words := []string{strconv.Itoa(mc.MemberID)}
		for i := range coefNames {
			words = append(words, e1[i], e2[i])
		}
		w.row(words...)
	}
	w.section("MEMBER-BASED RECTANGULAR-MEMBER HYDRODYNAMIC COEFFICIENTS (model 3)")
	w.value("0", "NCoefMembersRec", "members with their own rectangular coefficients")
	var rectCols []string
	for _, n := range rectNames {
		rectCols = append(rectCols, "Member"+n+"1", "Member"+n+"2")
	}
	w.row(append([]string{"MemberID"}, rectCols...)...)
	w.row(units("(-)", len(rectCols))...)
	w.section("MEMBERS")
	w.value(strconv.Itoa(len(h.Members)), "NMembers", "members")
	w.row("MemberID", "MJointID1", "MJointID2", "MPropSetID1", "MPropSetID2", "MSecGeom", "MSpinOrient", "MDivSize", "MCoefMod", "MHstLMod", "PropPot")
	w.row("(-)", "(-)", "(-)", "(-)", "(-)", "(switch)", "(deg)", "(m)", "(switch)", "(switch)", "(flag)")
	if hdr, _, _ := g.Table("MemberID", 0); len(h.Members) > 0 && !containsFold(strings.Join(hdr, " "), "MSecGeom") {
		w.warns = append(w.warns, Problem{File: w.path, Line: w.line + 1, Variable: "MSecGeom", Warning: true,
			Message: "added by the conversion to the OpenFAST v5 layout: MSecGeom 1 (cylinder), MSpinOrient 0, MHstLMod 1 (analytical hydrostatics, as v3) in every member row (not in the v3 file)"})
	}
	for _, mem := range h.Members {
		w.row(strconv.Itoa(mem.ID), strconv.Itoa(mem.Joint1), strconv.Itoa(mem.Joint2), strconv.Itoa(mem.PropSet1), strconv.Itoa(mem.PropSet2),
			strconv.Itoa(max(mem.SecGeom, 1)), "0", fmtReal(mem.DivSize), strconv.Itoa(mem.CoefMod), strconv.Itoa(max(mem.HstLMod, 1)), b(mem.PropPot))
	}
	w.section("FILLED MEMBERS")
	w.value(strconv.Itoa(len(h.FillGroups)), "NFillGroups", "groups of flooded members")
	w.row("FillNumM", "FillMList", "FillFSLoc", "FillDens")
	w.row("(-)", "(-)", "(m)", "(kg/m^3)")
	for _, f := range h.FillGroups {
		words := []string{strconv.Itoa(len(f.Members))}
		for _, id := range f.Members {
			words = append(words, strconv.Itoa(id))
		}
		dens := fmtReal(f.Dens)
		if f.DensDflt {
			dens = "DEFAULT"
		}
		w.row(append(words, fmtReal(f.FSLoc), dens)...)
	}
	w.section("MARINE GROWTH")
	w.value(strconv.Itoa(len(h.MarineGrowth)), "NMGDepths", "marine-growth depths")
	w.row("MGDpth", "MGThck", "MGDens")
	w.row("(m)", "(m)", "(kg/m^3)")
	for _, mg := range h.MarineGrowth {
		w.row(fmtReal(mg.Dpth), fmtReal(mg.Thck), fmtReal(mg.Dens))
	}
	w.section("MEMBER OUTPUT LIST")
	w.value(strconv.Itoa(len(h.MOutputs)), "NMOutputs", "members with outputs (at most 9)")
	w.row("MemberID", "NOutLoc", "NodeLocs")
	w.row("(-)", "(-)", "(-)")
	for _, mo := range h.MOutputs {
		words := []string{strconv.Itoa(mo.MemberID), strconv.Itoa(len(mo.NodeLocs))}
		for _, x := range mo.NodeLocs {
			words = append(words, fmtReal(x))
		}
		w.row(words...)
	}
	w.section("JOINT OUTPUT LIST")
	w.value(strconv.Itoa(len(h.JOutLst)), "NJOutputs", "joints with outputs (at most 9)")
	ids := []string{"0"}
	if len(h.JOutLst) > 0 {
		ids = ids[:0]
		for _, id := range h.JOutLst {
			ids = append(ids, strconv.Itoa(id))
		}
	}
	w.value(strings.Join(ids, ","), "JOutLst", "their joint IDs")
	w.section("OUTPUT")
	w.value(b(h.HDSum), "HDSum", "summary file (flag)")
	w.value(b(h.OutAll), "OutAll", "all member and joint end loads (flag)")
	w.value(strconv.Itoa(h.OutSwtch), "OutSwtch", "outputs to {1 <root>.HD.out, 2 the main output, 3 both}")
	w.kept("OutFmt", `"ES11.4e2"`, "number format")
	w.kept("OutSFmt", `"A11"`, "header format")
	w.section("OUTPUT CHANNELS")
	seen := map[string]bool{}
	var renamed []string
	for _, c := range h.OutList {
		if isSeaStateChannel(c) {
			continue
		}
		n := hydroDynV5Channel(c)
		if seen[strings.ToUpper(n)] {
			continue
		}
		seen[strings.ToUpper(n)] = true
		if n != c {
			renamed = append(renamed, c+" → "+n)
		}
		w.raw(strconv.Quote(n))
	}
	if len(renamed) > 0 {
		w.warns = append(w.warns, Problem{File: w.path, Line: w.line, Variable: "OutList", Warning: true,
			Message: "output channels renamed to their OpenFAST v5 names: " + strings.Join(renamed, ", ")})
	}
	w.raw("END of output channels")
}
