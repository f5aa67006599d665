package decks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/deck"
)

type UploadedDeck struct {
	MainFile string // slash path of the primary .fst inside the tree
	Params   turbinesim.TurbineParams
	Deck     *deck.Deck
	// ControllerRewritten records DLL_FileName before and after.
	ControllerFrom, ControllerTo string
	// Warnings are the deck's (Warnings), files relative to the
	// upload's root.
	Warnings []string
}

// BuiltinControllerFile is the DLL_FileName an upload's Bladed-interface
// controller is rewritten to: the built-in controller solver/control
// classifies it as (a library is never loaded).
func BuiltinControllerFile(kind control.ControllerKind) string {
	if kind == control.KindROSCO {
		return "librosco.so"
	}
	return "libdiscon.so"
}

// FSTCandidates lists the .fst files of a tree (slash paths, sorted).
func FSTCandidates(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".fst") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// PrepareUploadedDeck finds the primary .fst of an extracted upload (the
// entrypoint when given), loads and validates the deck with solver/deck,
// refuses references that leave the upload, rewrites DLL_FileName to the
// built-in controller, converts a deck in the OpenFAST v3 layout to v5 in
// place (convertToV5InTree) and derives the scalar parameters. A defective deck
// is EINVALID with a message naming every defect by file and line.
func PrepareUploadedDeck(dir, entrypoint string) (*UploadedDeck, error) {
	cands, err := FSTCandidates(dir)
	if err != nil {
		return nil, fmt.Errorf("upload: listing .fst files: %w", err)
	}
	var mainRel string
	switch {
	case len(cands) == 0:
		return nil, invalidUpload("the archive holds no .fst file")
	case entrypoint != "":
		for _, c := range cands {
			if c == strings.TrimPrefix(entrypoint, "./") {
				mainRel = c
			}
		}
		if mainRel == "" {
			return nil, invalidUpload("entrypoint %q is not a .fst file of the archive; candidates: %s", safeName(entrypoint), strings.Join(cands, ", "))
		}
	case len(cands) == 1:
		mainRel = cands[0]
	default:
		p, err := deck.FindMainFST(dir)
		if err != nil {
			return nil, invalidUpload("the archive holds several .fst files; send the form field entrypoint naming one of: %s", strings.Join(cands, ", "))
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return nil, fmt.Errorf("upload: %w", err)
		}
		mainRel = filepath.ToSlash(rel)
	}
	loc := func(file string, line int) string {
		rel, err := filepath.Rel(dir, file)
		if err != nil {
			rel = filepath.Base(file)
		}
		if line > 0 {
			return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), line)
		}
		return filepath.ToSlash(rel)
	}

	// Every defect, by file and line: references leaving the upload,
	// missing files, then the loader's and the validator's findings.
	var defects []string
	det, derr := deck.DetectIn(dir, mainRel)
	if det != nil {
		for _, r := range det.Refs {
			if !r.Used {
				continue
			}
			// Named by role, not by the path as written: an absolute
			// path would show the server's layout back to the user.
			if r.Outside {
				defects = append(defects, fmt.Sprintf("%s: %s: the %s file named here lies outside the uploaded files (absolute paths and '..' escapes are refused)", loc(r.From, r.Line), r.Var, r.Role))
			}
		}
		for _, m := range det.Missing {
			if rel, err := filepath.Rel(dir, m.Path); err == nil && filepath.IsLocal(rel) {
				defects = append(defects, fmt.Sprintf("%s: %s: file %q not found in the archive", loc(m.From, m.Line), m.Var, m.Named))
			}
		}
	}
	d, err := deck.LoadIn(dir, mainRel)
	if err != nil {
		var de *deck.Error
		if errors.Is(err, deck.ErrOutsideDeck) && len(defects) > 0 {
			// already listed from the detection, reference by reference
		} else if errors.As(err, &de) && !errors.Is(err, deck.ErrMissingFile) {
			defects = append(defects, fmt.Sprintf("%s: %s", loc(de.File, de.Line), joinWords(de.Variable, de.Msg)))
		} else if !errors.As(err, &de) && derr == nil && len(defects) == 0 {
			defects = append(defects, fmt.Sprintf("%s: cannot be read as an OpenFAST primary file", mainRel))
		}
		if len(defects) == 0 {
			defects = append(defects, fmt.Sprintf("%s: the deck cannot be loaded", mainRel))
		}
		return nil, invalidUpload("the deck has %d defect(s): %s", len(defects), strings.Join(dedupe(defects), "; "))
	}
	problems := deck.Validate(d)
	for _, p := range problems {
		if !p.Warning {
			defects = append(defects, fmt.Sprintf("%s: %s", loc(p.File, p.Line), joinWords(p.Variable, p.Message)))
		}
	}
	up := &UploadedDeck{MainFile: mainRel, Deck: d}
	if sd := d.ServoDyn; sd != nil && sd.UsesDLL() {
		servoPath := sd.Meta.Path
		line := sd.Meta.LineOf("DLL_FileName")
		inFile := ""
		if sd.DLL_InFile != "" {
			inFile = filepath.Join(filepath.Dir(servoPath), filepath.FromSlash(strings.ReplaceAll(sd.DLL_InFile, `\`, "/")))
		}
		kind, err := control.ClassifyController(sd.DLL_FileName, inFile)
		if err != nil {
			defects = append(defects, fmt.Sprintf("%s: DLL_FileName: %q has no built-in equivalent (built in: the NREL 5 MW baseline DISCON and ROSCO)", loc(servoPath, line), sd.DLL_FileName))
		} else if kind == control.KindBaseline {
			// An existing DLL_InFile configures the baseline controller
			// (a baseline parameter file); its errors name its line.
			if _, _, err := control.BaselineParamsFrom(inFile); err != nil {
				msg := strings.ReplaceAll(err.Error(), inFile, loc(inFile, 0))
				defects = append(defects, fmt.Sprintf("%s: DLL_InFile: %s", loc(servoPath, sd.Meta.LineOf("DLL_InFile")), msg))
			}
		}
		if err == nil && len(defects) == 0 {
			up.ControllerFrom, up.ControllerTo = sd.DLL_FileName, BuiltinControllerFile(kind)
			if err := rewriteValue(servoPath, line, "DLL_FileName", `"`+up.ControllerTo+`"`); err != nil {
				return nil, err
			}
			sd.DLL_FileName = up.ControllerTo
		}
	}
	if len(defects) > 0 {
		return nil, invalidUpload("the deck has %d defect(s): %s", len(defects), strings.Join(dedupe(defects), "; "))
	}
	// A deck in the OpenFAST v3 layout (waves inside HydroDyn, SubDyn
	// v1.01) is stored converted to v5, so that it runs here and on
	// OpenFAST v5 alike; every input the conversion added or moved is a
	// warning naming the file and line.
	notes, err := convertToV5InTree(dir, d)
	if err != nil {
		var de *deck.Error
		if errors.As(err, &de) {
			return nil, invalidUpload("the deck is in the OpenFAST v3 layout and cannot be converted to v5: %s: %s", loc(de.File, de.Line), joinWords(de.Variable, de.Msg))
		}
		return nil, fmt.Errorf("upload: %w", err)
	}
	if notes != nil {
		if d, err = deck.LoadIn(dir, mainRel); err != nil {
			return nil, fmt.Errorf("upload: the deck converted to v5 does not load: %w", err)
		}
		up.Deck, problems = d, deck.Validate(d)
		for _, p := range problems {
			if !p.Warning {
				return nil, invalidUpload("the deck converted to the OpenFAST v5 layout has a defect: %s: %s", loc(p.File, p.Line), joinWords(p.Variable, p.Message))
			}
		}
	}
	if up.Params, err = ParamsFromDeck(d); err != nil {
		return nil, invalidUpload("%s: %v", mainRel, err)
	}
	for _, n := range notes {
		up.Warnings = append(up.Warnings, deckProblemText(dir, n))
	}
	up.Warnings = append(up.Warnings, deckWarnings(dir, d, problems)...)
	return up, nil
}

func joinWords(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// rewriteValue replaces the value of variable name on line (1-based) of
// file, keeping every other line as the user wrote it.
func rewriteValue(file string, line int, name, value string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if line < 1 || line > len(lines) || !strings.Contains(lines[line-1], name) {
		return fmt.Errorf("upload: %s not found on line %d of %s", name, line, filepath.Base(file))
	}
	eol := ""
	if strings.HasSuffix(lines[line-1], "\r\n") {
		eol = "\r\n"
	} else if strings.HasSuffix(lines[line-1], "\n") {
		eol = "\n"
	}
	lines[line-1] = fmt.Sprintf("%-30s %s - built-in controller (set by turbinesim; libraries are never loaded)%s", value, name, eol)
	return os.WriteFile(file, []byte(strings.Join(lines, "")), 0o600)
}
