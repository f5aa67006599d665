package windgen

import (
	"fmt"
	"io"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

// ToBTS converts the box to solver/windfile's full-field type (time-outer
// layout of the TurbSim .bts file). The hub point is not stored separately
// in a .bts: it is the grid point at the box centre when NY and NZ are odd.
func (f *FullField) ToBTS() (*windfile.FullField, error) {
	ntw := len(f.TowerZ)
	out := windfile.NewFullField(f.NY, f.NZ, f.NT, ntw)
	out.DY, out.DZ, out.DT = f.DY, f.DZ, f.Dt
	out.URef = f.URef
	out.ZHub = f.HubHeight
	out.GridBottom = f.ZBottom
	out.Periodic = f.Periodic
	out.Description = f.Description
	np := f.NY * f.NZ
	for c := range 3 {
		if len(f.Grid[c]) != np*f.NT || len(f.Tower[c]) != ntw*f.NT {
			return nil, fmt.Errorf("windgen: box component %d has %d grid and %d tower samples, want %d and %d",
				c, len(f.Grid[c]), len(f.Tower[c]), np*f.NT, ntw*f.NT)
		}
		for p := range np {
			iz, iy := p/f.NY, p%f.NY
			src := f.Grid[c][p*f.NT : (p+1)*f.NT]
			for it, v := range src {
				out.Grid[out.GridIndex(it, iz, iy, c)] = v
			}
		}
		for k := range ntw {
			src := f.Tower[c][k*f.NT : (k+1)*f.NT]
			for it, v := range src {
				out.Tower[out.TowerIndex(it, k, c)] = v
			}
		}
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("windgen: converted box: %w", err)
	}
	return out, nil
}

// WriteBTS writes the box as a TurbSim .bts file (FileID 8 if periodic).
func (f *FullField) WriteBTS(w io.Writer) error {
	b, err := f.ToBTS()
	if err != nil {
		return err
	}
	if err := windfile.WriteBTS(w, b); err != nil {
		return fmt.Errorf("windgen: write .bts: %w", err)
	}
	return nil
}

// WriteBTSFile writes the box to path as a TurbSim .bts file.
func (f *FullField) WriteBTSFile(path string) error {
	b, err := f.ToBTS()
	if err != nil {
		return err
	}
	if err := windfile.WriteBTSFile(path, b); err != nil {
		return fmt.Errorf("windgen: write %s: %w", path, err)
	}
	return nil
}
