package inflow

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/windfile"
)

const deg2rad = math.Pi / 180

// FromUniformFile converts a parsed uniform wind file (angles in degrees)
// into a Uniform field; wind directions are unwrapped first so that the
// interpolation between rows takes the short way round, as InflowWind does.
func FromUniformFile(u *windfile.Uniform, refLength float64, o Orientation) (*Uniform, error) {
	if u == nil {
		return nil, errors.New("inflow: nil uniform wind file")
	}
	dirs := u.UnwrappedDirections()
	recs := make([]UniformRecord, len(u.Rows))
	for i, r := range u.Rows {
		d := r.Direction
		if i < len(dirs) {
			d = dirs[i]
		}
		recs[i] = UniformRecord{Time: r.Time, HorSpd: r.HorSpeed, WindDir: d * deg2rad, VerSpd: r.VertSpeed,
			HorShr: r.HorShear, VerShr: r.PowerLawExp, LinVShr: r.LinVertShear, GstSpd: r.GustSpeed, Upflow: r.Upflow * deg2rad}
	}
	return NewUniform(recs, refLength, o)
}

// WindFilePath resolves a file name of the deck's InflowWind input
// (FileName_Uni, FileName_BTS, FilenameRoot) against the InflowWind
// file's folder, as InflowWind does.
func WindFilePath(d *deck.Deck, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	dir := filepath.Dir(d.Path)
	if d.Main != nil && d.Main.InflowFile != "" {
		p := d.Main.InflowFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		dir = filepath.Dir(p)
	}
	return filepath.Join(dir, name)
}

// FromDeck builds the wind field of a loaded deck's InflowWind input:
// WindType 1 (steady), 2 (uniform file), 3 (TurbSim .bts, streamed from
// its file) and 4 (Bladed-style .wnd + .sum, optional .twr, streamed too). File names are
// relative to the InflowWind file's folder. A field that holds a file open
// is an io.Closer; the caller closes it when the run ends.
func FromDeck(d *deck.Deck) (Field, error) {
	if d == nil || d.InflowWind == nil {
		return nil, errors.New("inflow: deck has no InflowWind input (CompInflow must be 1)")
	}
	iw := d.InflowWind
	rel := func(p string) string { return WindFilePath(d, p) }
	o := Orientation{PropagationDir: iw.PropagationDir * deg2rad, VFlowAng: iw.VFlowAng * deg2rad}
	switch iw.WindType {
	case 1:
		f, err := NewSteady(iw.HWindSpeed, iw.RefHt, iw.PLExp, o)
		if err != nil {
			return nil, fmt.Errorf("inflow: steady wind: %w", err)
		}
		return f, nil
	case 2:
		u, err := windfile.ReadUniformFile(rel(iw.FileName_Uni))
		if err != nil {
			return nil, fmt.Errorf("inflow: uniform wind file: %w", err)
		}
		o.RefHt = iw.RefHt_Uni
		f, err := FromUniformFile(u, iw.RefLength, o)
		if err != nil {
			return nil, fmt.Errorf("inflow: uniform wind %s: %w", iw.FileName_Uni, err)
		}
		return f, nil
	case 3:
		// The box is read from disk as the run advances, a few blocks of
		// time steps at a time: a 600-s box is ~90 MB in memory.
		s, err := windfile.OpenBTSStream(rel(iw.FileName_BTS), iw.FileName_BTS, windfile.StreamOptions{})
		if err != nil {
			return nil, fmt.Errorf("inflow: TurbSim file: %w", err)
		}
		g, err := NewStreamedGrid(s, o)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("inflow: TurbSim field %s: %w", iw.FileName_BTS, err)
		}
		return g, nil
	case 4:
		// Streamed as the TurbSim box is; errors name the files as the
		// deck writes them (FileNameRoot), never the resolved path.
		s, err := windfile.OpenBladedStream(rel(iw.FileNameRoot), iw.FileNameRoot, iw.TowerFile, windfile.StreamOptions{})
		if err != nil {
			return nil, fmt.Errorf("inflow: Bladed wind files: %w", err)
		}
		g, err := NewStreamedGrid(s, o)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("inflow: Bladed field %s: %w", iw.FileNameRoot, err)
		}
		return g, nil
	}
	return nil, fmt.Errorf("inflow: WindType=%d not supported (1 steady, 2 uniform, 3 TurbSim, 4 Bladed)", iw.WindType)
}
