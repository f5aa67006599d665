package control

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/control/baseline"
	"github.com/turbinesim/turbinesim/solver/control/bladed"
	"github.com/turbinesim/turbinesim/solver/control/rosco"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// ErrNoBuiltinController reports a DLL_FileName with no built-in equivalent.
// Foreign shared libraries are never loaded.
var ErrNoBuiltinController = errors.New("no built-in controller equivalent")

// ControllerKind names a built-in controller.
type ControllerKind string

const (
	KindBaseline ControllerKind = "nrel5mw-baseline"
	KindROSCO    ControllerKind = "rosco-2.9.4"
)

// ClassifyController maps a ServoDyn DLL_FileName (and its DLL_InFile) to a
// built-in controller. The rule, applied to the library's base name in lower
// case without folder, extension (.dll, .so, .dylib), a leading "lib" and a
// platform suffix (_win32, _win64, _x64, _gwin32, _gwin64, _glin32, _glin64):
//
//   - a name containing "rosco" → ROSCO-equivalent, configured from DLL_InFile;
//   - the name "discon" (DISCON.dll, libdiscon.so, DISCON_gwin64.dll, …):
//     ROSCO-equivalent when DLL_InFile is a ROSCO parameter file (it defines
//     F_LPFType, VS_ControlMode and PC_GS_angles; this is how the IEA-15/22
//     decks name their ROSCO build), otherwise the NREL 5 MW baseline
//     controller of Jonkman et al. 2009 (BaselineParamsFrom: NREL 5 MW
//     constants, or those of a baseline parameter file DLL_InFile names);
//   - anything else (e.g. DISCON_OC3Hywind, DISCON_ITIBarge, vendor DLLs) →
//     ErrNoBuiltinController.
//
// inFilePath is DLL_InFile resolved against the ServoDyn file's folder (it
// may be empty or missing).
func ClassifyController(dllFileName, inFilePath string) (ControllerKind, error) {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(dllFileName, `\`, "/")))
	for _, ext := range []string{".dll", ".so", ".dylib"} {
		base = strings.TrimSuffix(base, ext)
	}
	base = strings.TrimPrefix(base, "lib")
	for _, sfx := range []string{"_win32", "_win64", "_x64", "_gwin32", "_gwin64", "_glin32", "_glin64"} {
		base = strings.TrimSuffix(base, sfx)
	}
	switch {
	case strings.Contains(base, "rosco"):
		return KindROSCO, nil
	case base == "discon":
		if isROSCOParameterFile(inFilePath) {
			return KindROSCO, nil
		}
		return KindBaseline, nil
	}
	return "", fmt.Errorf("servodyn: DLL_FileName %q: %w (built-in: the NREL 5 MW baseline DISCON and ROSCO v2.9.4 configured from a DISCON.IN; a controller library is never loaded)",
		dllFileName, ErrNoBuiltinController)
}

func isROSCOParameterFile(path string) bool {
	if path == "" {
		return false
	}
	if _, err := os.Stat(path); err != nil {
		return false
	}
	d, err := deck.ReadDiscon(path)
	if err != nil {
		return false
	}
	return isROSCODiscon(d)
}

// ResolveController classifies DLL_FileName (see ClassifyController) and
// builds the built-in controller: the baseline with BaselineParamsFrom, or
// ROSCO from the DISCON.IN at inFilePath (and its Cp table).
func ResolveController(dllFileName, inFilePath string) (bladed.Controller, error) {
	kind, err := ClassifyController(dllFileName, inFilePath)
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindROSCO:
		p, err := rosco.LoadParams(inFilePath)
		if err != nil {
			return nil, fmt.Errorf("servodyn: DLL_InFile for %s: %w", dllFileName, err)
		}
		return rosco.New(p)
	default:
		p, _, err := BaselineParamsFrom(inFilePath)
		if err != nil {
			return nil, fmt.Errorf("servodyn: DLL_InFile for %s: %w", dllFileName, err)
		}
		return baseline.New(p)
	}
}

// BaselineParamsFrom returns the constants of the built-in baseline
// controller for a deck whose DLL_InFile resolves to inFilePath. NREL's
// 5 MW DISCON ignores its input file, so the decks that run it name
// "unused" or a file that does not exist: those get the NREL 5 MW
// constants (baseline.DefaultParams, fromFile false). When inFilePath is
// an existing regular file (ClassifyController has already sent ROSCO
// DISCON.IN files to ROSCO), it is a baseline parameter file
// (baseline.ParseParams: "NAME value" lines with the DISCON names, missing
// keys at their 5 MW values) and read as such; its errors name file and
// line.
func BaselineParamsFrom(inFilePath string) (p baseline.Params, fromFile bool, err error) {
	if inFilePath == "" || strings.EqualFold(filepath.Base(inFilePath), "unused") {
		return baseline.DefaultParams(), false, nil
	}
	fi, err := os.Stat(inFilePath)
	if err != nil || !fi.Mode().IsRegular() {
		return baseline.DefaultParams(), false, nil
	}
	p, err = baseline.LoadParams(inFilePath)
	if err != nil {
		return baseline.Params{}, false, err
	}
	return p, true, nil
}
