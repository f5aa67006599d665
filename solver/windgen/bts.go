package windgen

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"

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

// GenerateTurbulenceFile synthesises the box of spec, as GenerateTurbulence
// does, straight into a TurbSim .bts file at path: each velocity component
// is written as soon as it is synthesised (windfile.BTSComponentWriter)
// and dropped, so the process holds one component's series at a time
// instead of the whole box several times over (series, box, .bts layout).
// The file is byte for byte the one FullField.WriteBTSFile writes of
// GenerateTurbulence's box. Nothing is left at path on an error.
func GenerateTurbulenceFile(ctx context.Context, spec TurbulenceSpec, path string) error {
	b, err := planBox(spec)
	if err != nil {
		return err
	}
	nt := b.syn.nt
	lay := b.lay
	var w *windfile.BTSComponentWriter
	for c := range 3 {
		series, k, err := b.component(ctx, c)
		if err != nil {
			if w != nil {
				w.Abort()
			}
			return err
		}
		// The file is made once the first component exists, so a box too
		// large for the process's memory fails there, before any file.
		if w == nil {
			if w, err = windfile.CreateBTSComponents(path, b.btsHeader()); err != nil {
				return fmt.Errorf("windgen: write %s: %w", filepath.Base(path), err)
			}
		}
		// Mean and scale applied in place, once per simulation point (a
		// tower point may be a grid point), exactly as GenerateTurbulence
		// computes each value.
		for p := range lay.points {
			mean := b.mean(c, lay.points[p].z)
			dst := series[p*nt : (p+1)*nt]
			for i, v := range dst {
				dst[i] = float32(mean + k[p]*float64(v))
			}
		}
		at := func(p int) []float32 { return series[p*nt : (p+1)*nt] }
		err = w.WriteComponent(c,
			func(iz, iy int) []float32 { return at(lay.grid[iz*b.spec.Grid.NY+iy]) },
			func(i int) []float32 { return at(lay.tower[i]) })
		if err != nil {
			w.Abort()
			return fmt.Errorf("windgen: write %s: %w", filepath.Base(path), err)
		}
		// The next component reuses the synthesis's series buffer and
		// Fourier coefficients (synthesis.component); what the writer
		// left is garbage now. Collected here, the next component does not
		// grow the heap past the last live size first (GOGC 100).
		series = nil
		runtime.GC()
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("windgen: write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// btsHeader is the .bts header of the box (FullField.ToBTS without data).
func (b *boxPlan) btsHeader() *windfile.FullField {
	h := b.header()
	return &windfile.FullField{NY: h.NY, NZ: h.NZ, NT: h.NT, NTower: len(h.TowerZ), DY: h.DY, DZ: h.DZ, DT: h.Dt,
		URef: h.URef, ZHub: h.HubHeight, GridBottom: h.ZBottom, Periodic: h.Periodic, Description: h.Description}
}
