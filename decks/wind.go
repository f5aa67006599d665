package decks

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

// RunWindFile is a wind file that drives a run of a stored turbine instead
// of steady wind: a TurbSim full-field box (.bts, InflowWind WindType 3) or
// an InflowWind uniform wind time series (.wnd, .hh, .dat or .txt text,
// WindType 2), checked by CheckRunWindFile.
type RunWindFile struct {
	Path     string // where the file is now
	Name     string // its file name in the run (Wind/<Name>)
	WindType int    // 3 (.bts) or 2 (uniform)
	Summary  string // what it is, for the job's log and errors
}

// uniformWindExts are the extensions of uniform wind files: OpenFAST's
// examples use .wnd and .hh, IEC event files from solver/windgen .hh.
var uniformWindExts = map[string]bool{".wnd": true, ".hh": true, ".dat": true, ".txt": true}

// CheckRunWindFile reads the wind file at path, whose name (its extension
// says the format) is name, and checks that it can drive a run of tMax
// seconds. Errors are EINVALID and begin with field, the request field
// that supplied the file.
func CheckRunWindFile(field, path, name string, tMax float64) (*RunWindFile, error) {
	base := filepath.Base(filepath.FromSlash(strings.ReplaceAll(name, `\`, "/")))
	ext := strings.ToLower(filepath.Ext(base))
	if base == "." || base == string(filepath.Separator) || !filepath.IsLocal(base) || strings.HasPrefix(base, ".") {
		return nil, invalidf("%s: %q is not a usable file name", field, name)
	}
	switch {
	case ext == ".bts":
		// Only the header is read: the file's size is checked against it
		// (as a run's reader checks it), and a 600-s box is ~45 MB.
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading wind file: %w", err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, fmt.Errorf("reading wind file: %w", err)
		}
		ff, err := windfile.ReadBTSHeader(f, fi.Size())
		if err != nil {
			return nil, invalidf("%s: %s is not a TurbSim .bts box: %v", field, base, err)
		}
		// A box that does not repeat spans (NT-1)·DT; InflowWind cannot
		// look past its end (a periodic box wraps in time).
		span := float64(ff.NT-1) * ff.DT
		if !ff.Periodic && span < tMax {
			return nil, invalidf("%s: the box %s spans %g s, less than settings.t_max %g s", field, base, span, tMax)
		}
		return &RunWindFile{Path: path, Name: base, WindType: 3, Summary: fmt.Sprintf(
			"TurbSim box %s: %d × %d grid, %g s, hub %g m at %g m/s", base, ff.NY, ff.NZ, span, ff.ZHub, ff.URef)}, nil
	case uniformWindExts[ext]:
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading wind file: %w", err)
		}
		u, err := windfile.ReadUniform(f)
		f.Close()
		if err != nil {
			return nil, invalidf("%s: %s is not a uniform wind file (time, speed, direction, shears, gust columns): %v", field, base, err)
		}
		if len(u.Rows) == 0 {
			return nil, invalidf("%s: %s has no data rows", field, base)
		}
		// InflowWind holds the last row after the file's end, so a short
		// file is valid; it simply goes steady.
		return &RunWindFile{Path: path, Name: base, WindType: 2, Summary: fmt.Sprintf(
			"uniform wind %s: %d rows from %g s to %g s", base, len(u.Rows), u.Rows[0].Time, u.Rows[len(u.Rows)-1].Time)}, nil
	}
	return nil, invalidf("%s: %s: want a TurbSim box (.bts) or a uniform wind file (.wnd, .hh, .dat, .txt); "+
		"Bladed full-field wind needs its .sum and goes in a ZIP submission", field, base)
}

// WriteRunDeckWithWind writes d into dir (deck.Write) with InflowWind
// reading w, copied to Wind/<name> next to the main file, and returns the
// main file's path. The deck's previous wind file is not copied. For a
// uniform file the reference height is the deck's (RefHt, the hub height
// of its steady wind) and the reference length for the linear shears the
// deck's RefLength, else the rotor diameter (2·TipRad).
func WriteRunDeckWithWind(dir string, d *deck.Deck, w *RunWindFile) (string, error) {
	if d.InflowWind == nil {
		return "", invalidf("turbine_id: the turbine's deck has no InflowWind module to set the wind in")
	}
	nd := *d
	m := *d.Main
	nd.Main = &m
	iw := *d.InflowWind
	nd.InflowWind = &iw
	nd.Files = nil
	for _, f := range d.Files {
		switch f.Var {
		case "FileName_Uni", "FileName_BTS", "FileNameRoot", "FileName_u", "FileName_v", "FileName_w":
			continue // the old wind
		}
		nd.Files = append(nd.Files, f)
	}
	// InflowWind names the file relative to its own folder; deck.Write
	// keeps the deck's relative layout.
	mainV := d.Path
	if mainV == "" {
		mainV = filepath.FromSlash("/deck/deck.fst")
	}
	inflowV := filepath.FromSlash(strings.ReplaceAll(m.InflowFile, `\`, "/"))
	if !filepath.IsAbs(inflowV) {
		inflowV = filepath.Join(filepath.Dir(mainV), inflowV)
	}
	windV := filepath.Join(filepath.Dir(mainV), "Wind", w.Name)
	rel, err := filepath.Rel(filepath.Dir(inflowV), windV)
	if err != nil {
		return "", fmt.Errorf("wind file path: %w", err)
	}
	rel = filepath.ToSlash(rel)
	switch w.WindType {
	case 3:
		iw.WindType, iw.FileName_BTS = 3, rel
	case 2:
		iw.WindType, iw.FileName_Uni = 2, rel
		iw.RefHt_Uni = iw.RefHt
		if iw.RefLength <= 0 && d.ElastoDyn != nil {
			iw.RefLength = 2 * d.ElastoDyn.TipRad
		}
		if iw.RefLength <= 0 {
			iw.RefLength = 1
		}
	default:
		return "", fmt.Errorf("wind file %s: unknown wind type %d", w.Name, w.WindType)
	}
	fst, err := deck.Write(dir, &nd)
	if err != nil {
		return "", fmt.Errorf("writing run deck: %w", err)
	}
	target := filepath.Join(filepath.Dir(fst), "Wind", w.Name)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", fmt.Errorf("wind file: %w", err)
	}
	if err := copyRegularFile(w.Path, target); err != nil {
		return "", fmt.Errorf("wind file: %w", err)
	}
	return fst, nil
}

func copyRegularFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
