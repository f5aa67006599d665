package deck

import (
	"fmt"
	"strings"
)

// Kind is the type of an OpenFAST input file.
type Kind string

const (
	KindFST          Kind = "OpenFAST primary (.fst)"
	KindElastoDyn    Kind = "ElastoDyn"
	KindEDBlade      Kind = "ElastoDyn blade"
	KindEDTower      Kind = "ElastoDyn tower"
	KindAeroDyn      Kind = "AeroDyn"
	KindADBlade      Kind = "AeroDyn blade"
	KindAirfoil      Kind = "AirfoilInfo airfoil"
	KindInflowWind   Kind = "InflowWind"
	KindServoDyn     Kind = "ServoDyn"
	KindDiscon       Kind = "ROSCO DISCON.IN"
	KindHydroDyn     Kind = "HydroDyn"
	KindSeaState     Kind = "SeaState"
	KindSubDyn       Kind = "SubDyn"
	KindMoorDyn      Kind = "MoorDyn"
	KindMAP          Kind = "MAP++"
	KindBeamDyn      Kind = "BeamDyn"
	KindTurbSim      Kind = "TurbSim input"
	KindAeroDyn14    Kind = "AeroDyn v14"
	KindAD14Airfoil  Kind = "AeroDyn v14 airfoil"
	KindAD14Tower    Kind = "AeroDyn v13/v14 tower"
	KindExtPtfmFlex  Kind = "ExtPtfm (Flex5 superelement)"
	KindUnrecognised Kind = "unrecognised"
)

// Supported reports whether ReadAny returns a structure for the kind
// (typed or generic) rather than an ErrUnsupported error.
func (k Kind) Supported() bool {
	switch k {
	case KindAeroDyn14, KindAD14Airfoil, KindAD14Tower, KindExtPtfmFlex, KindUnrecognised:
		return false
	}
	return true
}

// SniffKind guesses the kind of an input file from the variable names on
// its lines (and its header for the legacy formats).
func SniffKind(src *Source) Kind {
	labels := map[string]bool{}
	raw := strings.Builder{}
	for i := range src.Lines {
		l := &src.Lines[i]
		if i < 3 {
			raw.WriteString(strings.ToLower(l.Raw))
			raw.WriteByte('\n')
		}
		for _, k := range l.keys {
			if k.pos >= 0 {
				labels[k.name] = true
			}
		}
	}
	head := raw.String()
	has := func(names ...string) bool {
		for _, n := range names {
			if !labels[normName(n)] {
				return false
			}
		}
		return true
	}
	switch {
	case strings.Contains(head, "aerodyn v14") || has("StallMod") || has("InfModel"):
		return KindAeroDyn14
	case has("NTwrHt") || has("NTwrRe"):
		return KindAD14Tower
	case strings.Contains(head, "flex 5 format") || strings.Contains(head, "flex5"):
		return KindExtPtfmFlex
	case has("EDFile") || has("CompElast"):
		return KindFST
	case has("NumBl", "TipRad"):
		return KindElastoDyn
	case has("NBlInpSt"):
		return KindEDBlade
	case has("NTwInpSt"):
		return KindEDTower
	case has("NumBlNds"):
		return KindADBlade
	case has("NumAFfiles") || has("InCol_Alfa"):
		return KindAeroDyn
	case has("NumTabs") || has("NumAlf"):
		return KindAirfoil
	case strings.Contains(head, "number of airfoil tables"):
		return KindAD14Airfoil
	case has("WindType"):
		return KindInflowWind
	case has("PCMode", "VSContrl"):
		return KindServoDyn
	case has("PotMod"):
		return KindHydroDyn
	case has("WaveMod") || has("X_HalfWidth"):
		return KindSeaState
	case has("IntMethod") && (has("NJoints") || has("CBMod") || has("Nmodes")):
		return KindSubDyn
	case has("dtM") || strings.Contains(head, "moordyn"):
		return KindMoorDyn
	case strings.Contains(head, "map++") || has("LineType") && !has("NTypes") && !has("dtM"):
		return KindMAP
	case has("analysis_type") || has("station_total") || strings.Contains(head, "beamdyn"):
		return KindBeamDyn
	case has("NumGrid_Z") || has("TurbModel"):
		return KindTurbSim
	}
	n := 0
	for i := range src.Lines {
		if c := commentIndex(src.Lines[i].Raw); c > 0 && len(tokenize(src.Lines[i].Raw[:c])) > 0 {
			n++
		}
	}
	if n >= 5 && has("PerfFileName") {
		return KindDiscon
	}
	if n >= 5 && (labels["vs_controlmode"] || labels["pc_controlmode"] || strings.Contains(head, "controller parameter")) {
		return KindDiscon
	}
	return KindUnrecognised
}

// ReadAny reads a single input file of any supported kind (without the
// files it references) and returns its kind and structure: *Main,
// *ElastoDyn, *EDBlade, *EDTower, *AeroDyn, *ADBlade, *Airfoil,
// *InflowWind, *ServoDyn, *Discon, *BeamDyn, *BDBlade or *Generic. Legacy formats yield an error
// wrapping ErrUnsupported.
func ReadAny(path string) (Kind, any, error) {
	src, err := readSource(path, false)
	if err != nil {
		return KindUnrecognised, nil, err
	}
	k := SniffKind(src)
	var v any
	switch k {
	case KindFST:
		v, err = parseMain(src)
	case KindElastoDyn:
		v, err = parseElastoDyn(src)
	case KindEDBlade:
		v, err = parseEDBlade(src)
	case KindEDTower:
		v, err = parseEDTower(src)
	case KindAeroDyn:
		v, err = parseAeroDyn(src)
	case KindADBlade:
		v, err = parseADBlade(src)
	case KindAirfoil:
		src, err = readSource(path, true) // with @includes
		if err == nil {
			v, err = parseAirfoil(src)
		}
	case KindInflowWind:
		v, err = parseInflowWind(src)
	case KindServoDyn:
		v, err = parseServoDyn(src)
	case KindDiscon:
		v, err = parseDiscon(src)
	case KindBeamDyn:
		// primary (key points) or blade (stations) file; a BeamDyn driver
		// file is kept generic
		switch {
		case hasLabel(src, "kp_total"):
			v, err = parseBeamDyn(src)
		case hasLabel(src, "station_total"):
			v, err = parseBDBlade(src)
		default:
			v = parseGeneric(src, string(k))
		}
	case KindHydroDyn, KindSeaState, KindSubDyn, KindMoorDyn, KindMAP, KindTurbSim:
		v = parseGeneric(src, string(k))
	default:
		what := string(k)
		if k == KindUnrecognised {
			what = "file of unrecognised kind"
		}
		return k, nil, &Error{File: src.Path, Line: 1, Msg: fmt.Sprintf("%s: not read by this package", what), Err: ErrUnsupported}
	}
	if err != nil {
		return k, nil, err
	}
	return k, v, nil
}

// hasLabel reports whether some line of src carries the variable name.
func hasLabel(src *Source, name string) bool {
	n := normName(name)
	for i := range src.Lines {
		for _, k := range src.Lines[i].keys {
			if k.pos >= 0 && k.name == n {
				return true
			}
		}
	}
	return false
}
