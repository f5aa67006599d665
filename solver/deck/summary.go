package deck

import (
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// Summary holds the headline parameters of a turbine deck, derived from
// ElastoDyn (and the controller when known). Angles in degrees, lengths in
// m, speeds in rpm, power in W.
type Summary struct {
	NumBl         int
	RotorDiameter float64 // 2 TipRad (along the blade, not projected)
	HubHeight     float64 // TowerHt + Twr2Shft + OverHang sin(ShftTilt): ElastoDyn geometry
	ShaftTilt     float64 // degrees
	PreCone       float64 // blade 1, degrees
	RotorSpeed    float64 // initial rotor speed, rpm
	GearboxRatio  float64
	// RatedPower is ROSCO's VS_RtPwr when a DISCON.IN is loaded, else 0
	// (the simple ServoDyn controller does not state a rated power).
	RatedPower float64
	// Offshore is true when HydroDyn, SubDyn or mooring is switched on.
	Offshore bool
}

// Summarize returns the headline parameters of a loaded deck.
func Summarize(d *Deck) (Summary, error) {
	var s Summary
	if d == nil || d.ElastoDyn == nil {
		return s, fmt.Errorf("deck: Summarize: no ElastoDyn data")
	}
	ed := d.ElastoDyn
	s.NumBl = ed.NumBl
	s.RotorDiameter = 2 * ed.TipRad
	tilt := ed.ShftTilt * math.Pi / 180
	s.HubHeight = ed.TowerHt + ed.Twr2Shft + ed.OverHang*math.Sin(tilt)
	s.ShaftTilt = ed.ShftTilt
	s.PreCone = ed.PreCone[0]
	s.RotorSpeed = ed.RotSpeed
	s.GearboxRatio = ed.GBRatio
	if c := d.Controller; c != nil {
		if p, ok, err := c.Float("VS_RtPwr"); ok && err == nil {
			s.RatedPower = p
		}
	}
	if m := d.Main; m != nil {
		s.Offshore = m.CompHydro > 0 || m.CompSub > 0 || m.CompMooring > 0
	}
	return s, nil
}

// FindMainFST looks for the primary input file in a directory tree (e.g.
// an extracted upload). Candidates are *.fst files (any case) that read as
// primary files; the one whose referenced files all exist wins, then the
// shallowest, then the first by name. It fails when there is none, or when
// several equally good candidates remain.
func FindMainFST(root string) (string, error) {
	type cand struct {
		path    string
		depth   int
		missing int
	}
	var cands []cand
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || !strings.EqualFold(filepath.Ext(p), ".fst") {
			return nil
		}
		src, err := readSource(p, false)
		if err != nil || SniffKind(src) != KindFST {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		c := cand{path: p, depth: strings.Count(filepath.ToSlash(rel), "/")}
		if det, err := Detect(p); err == nil {
			c.missing = len(det.Missing)
		} else {
			c.missing = 1 << 20
		}
		cands = append(cands, c)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("deck: FindMainFST: %w", err)
	}
	if len(cands) == 0 {
		return "", &Error{File: root, Msg: "no OpenFAST primary (.fst) file found", Err: ErrMissingFile}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.missing != b.missing {
			return a.missing < b.missing
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.path < b.path
	})
	if len(cands) > 1 && cands[0].missing == cands[1].missing && cands[0].depth == cands[1].depth {
		names := []string{}
		for _, c := range cands {
			if c.missing == cands[0].missing && c.depth == cands[0].depth {
				rel, _ := filepath.Rel(root, c.path)
				names = append(names, rel)
			}
		}
		return "", &Error{File: root, Msg: fmt.Sprintf("several primary .fst files are equally complete: %s", strings.Join(names, ", "))}
	}
	return cands[0].path, nil
}
