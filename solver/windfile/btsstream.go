package windfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// A TurbSim box of a 600-s run (25 × 25 points at 0.05 s) holds 24 million
// velocity values, about 90 MB as float32; a simulation only needs the few
// seconds of it that are passing the rotor. BTSStream reads a .bts file
// from disk as the simulation advances, through the block buffers of
// stepBlocks (stream.go), so the memory held is bounded by the block size
// whatever the length of the box.

// BTSStream gives the velocities of a .bts file one time step at a time,
// decoded exactly as ParseBTS decodes them. It is not safe for concurrent
// use, and the slices Step returns stay valid only until a later Step call
// loads a block into their buffer (at least until the next call: a block
// just used is the last to be replaced).
type BTSStream struct {
	// Box is the box's geometry and header (Grid and Tower are nil).
	Box *FullField
	stepBlocks

	r         io.ReaderAt
	closer    io.Closer
	name      string // how errors name the file ("bts" when unnamed)
	hdr       *btsHeader
	raw       []byte
	bytesRead int64
}

// OpenBTSStream opens the .bts file at path for streaming; the header and
// the file's size are checked as ParseBTS checks them, and no velocity is
// read until Step asks for it. Errors name the file as name (the file as
// the user wrote it), never path, so no server path reaches a message.
// Close releases the file.
func OpenBTSStream(path, name string, opt StreamOptions) (*BTSStream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, withoutPath(err))
	}
	h, err := readBTSHeader(f)
	if err == nil {
		var s *BTSStream
		if s, err = newBTSStream(f, h, opt); err == nil {
			s.closer, s.name = f, name
			return s, nil
		}
	}
	f.Close()
	return nil, fmt.Errorf("%s: %w", name, withoutPath(err))
}

// NewBTSStream streams the .bts file of size bytes read through r.
func NewBTSStream(r io.ReaderAt, size int64, opt StreamOptions) (*BTSStream, error) {
	h, err := readBTSHeaderAt(r, size)
	if err != nil {
		return nil, err
	}
	return newBTSStream(r, h, opt)
}

// maxDescriptionBytes bounds the header description a stream keeps (it is
// informational; TurbSim writes about a hundred characters).
const maxDescriptionBytes = 4096

func newBTSStream(r io.ReaderAt, h *btsHeader, opt StreamOptions) (*BTSStream, error) {
	box := h.box
	if n := min(h.dataOffset-btsHeaderBytes, maxDescriptionBytes); n > 0 {
		d := make([]byte, n)
		if _, err := r.ReadAt(d, btsHeaderBytes); err != nil {
			return nil, fmt.Errorf("bts: description: %w", err)
		}
		box.Description = string(bytes.TrimRight(d, " \x00"))
	}
	s := &BTSStream{Box: box, r: r, hdr: h, name: "bts"}
	s.stepBlocks = newStepBlocks(box.NT, box.NY*box.NZ, box.NTower, opt, s.fill)
	s.raw = make([]byte, 2*s.perStep*s.blockSteps)
	return s, nil
}

// fill reads and decodes steps first to first+n-1 into dst.
func (s *BTSStream) fill(dst []float32, first, n int) error {
	raw := s.raw[:2*n*s.perStep]
	if _, err := s.r.ReadAt(raw, s.hdr.dataOffset+2*int64(first)*int64(s.perStep)); err != nil {
		return fmt.Errorf("%s: reading time steps %d-%d: %w", s.name, first, first+n-1, withoutPath(err))
	}
	s.bytesRead += int64(len(raw))
	s.hdr.decode(dst, raw)
	return nil
}

// Geometry is the box's header (Box).
func (s *BTSStream) Geometry() *FullField { return s.Box }

// BufferBytes is the most memory the stream's buffers take: the raw bytes
// of one block and the decoded blocks.
func (s *BTSStream) BufferBytes() int {
	return len(s.raw) + s.decodedBytes()
}

// BytesRead counts the velocity bytes read from the file so far.
func (s *BTSStream) BytesRead() int64 { return s.bytesRead }

// Close releases the file OpenBTSStream opened.
func (s *BTSStream) Close() error {
	if s.closer == nil {
		return nil
	}
	err := s.closer.Close()
	s.closer = nil
	return err
}

// Step returns the velocities of time step it of an in-memory box, in the
// layout BTSStream.Step gives.
func (ff *FullField) Step(it int) (grid, tower []float32, err error) {
	if it < 0 || it >= ff.NT {
		return nil, nil, fmt.Errorf("wind box: time step %d outside the box's %d", it, ff.NT)
	}
	g, t := 3*ff.NY*ff.NZ, 3*ff.NTower
	return ff.Grid[it*g : (it+1)*g : (it+1)*g], ff.Tower[it*t : (it+1)*t : (it+1)*t], nil
}

// BTSComponentWriter writes a .bts file one velocity component at a time,
// so a generator can hand over u, then v, then w, and hold one
// component's series instead of the whole box. Each component is packed
// with the slope and offset of its own range over grid and tower, as
// WriteBTS packs it, so the file is byte for byte the one WriteBTS writes
// of the same values. The velocities go to a temporary file beside path,
// a block of time steps at a time (read back, the component's values set,
// written again); Close writes the header and renames the file to path.
type BTSComponentWriter struct {
	path          string
	f             *os.File
	box           FullField
	written       [3]bool
	slope, offset [3]float32
	dataOffset    int64
	perStep       int // values per time step
	blockSteps    int
}

// CreateBTSComponents starts the .bts file of a box with geom's header
// (dimensions, spacings, heights, periodicity, description; its Grid and
// Tower are not used).
func CreateBTSComponents(path string, geom *FullField) (*BTSComponentWriter, error) {
	box := *geom
	box.Grid, box.Tower = nil, nil
	if box.NY < 1 || box.NZ < 1 || box.NT < 1 || box.NTower < 0 {
		return nil, fmt.Errorf("bts: grid %d×%d×%d with %d tower points: every dimension must be at least 1", box.NY, box.NZ, box.NT, box.NTower)
	}
	if err := box.checkGeometry(); err != nil {
		return nil, err
	}
	if int64(len(box.Description)) > math.MaxInt32 {
		return nil, fmt.Errorf("bts: description too long")
	}
	w := &BTSComponentWriter{path: path, box: box, perStep: 3 * (box.NY*box.NZ + box.NTower),
		dataOffset: int64(btsHeaderBytes + len(box.Description))}
	w.blockSteps = min(max(DefaultStreamBlockBytes/(2*w.perStep), 1), box.NT)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	w.f = f
	if err := f.Truncate(w.dataOffset + 2*int64(w.perStep)*int64(box.NT)); err != nil {
		w.Abort()
		return nil, fmt.Errorf("bts: %w", err)
	}
	return w, nil
}

// WriteComponent writes component c (0 u, 1 v, 2 w): grid(iz, iy) returns
// the NT values of grid point (iy, iz), tower(i) those of tower point i.
func (w *BTSComponentWriter) WriteComponent(c int, grid func(iz, iy int) []float32, tower func(i int) []float32) error {
	if c < 0 || c > 2 || w.written[c] {
		return fmt.Errorf("bts: component %d written twice or unknown", c)
	}
	b := &w.box
	nGrid := b.NY * b.NZ
	series := func(p int) []float32 {
		if p < nGrid {
			return grid(p/b.NY, p%b.NY)
		}
		return tower(p - nGrid)
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for p := range nGrid + b.NTower {
		s := series(p)
		if len(s) != b.NT {
			return fmt.Errorf("bts: component %d, point %d: %d values for %d steps", c, p, len(s), b.NT)
		}
		for it, v := range s {
			if !isFinite32(v) {
				return fmt.Errorf("bts: component %d, point %d, step %d is %g: %w", c, p, it, v, ErrNonFiniteWind)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	slope, offset := BTSScale(lo, hi)
	others := w.written[0] || w.written[1] || w.written[2]
	raw := make([]byte, 2*w.perStep*w.blockSteps)
	le := binary.LittleEndian
	for first := 0; first < b.NT; first += w.blockSteps {
		n := min(w.blockSteps, b.NT-first)
		blk := raw[:2*w.perStep*n]
		off := w.dataOffset + 2*int64(w.perStep)*int64(first)
		if others {
			if _, err := w.f.ReadAt(blk, off); err != nil {
				return fmt.Errorf("bts: %w", err)
			}
		}
		for p := range nGrid + b.NTower {
			s := series(p)[first : first+n]
			k := 2 * (3*p + c)
			for _, v := range s {
				le.PutUint16(blk[k:], uint16(btsPack(v, slope, offset)))
				k += 2 * w.perStep
			}
		}
		if _, err := w.f.WriteAt(blk, off); err != nil {
			return fmt.Errorf("bts: writing component %d: %w", c, err)
		}
	}
	w.written[c] = true
	w.slope[c], w.offset[c] = slope, offset
	return nil
}

// Close writes the header and puts the file at its path; every component
// must have been written.
func (w *BTSComponentWriter) Close() error {
	if w.f == nil {
		return errors.New("bts: writer already closed")
	}
	if !(w.written[0] && w.written[1] && w.written[2]) {
		w.Abort()
		return fmt.Errorf("bts: %s: components written %v, all three needed", filepath.Base(w.path), w.written)
	}
	b := &w.box
	id := BTSFileIDNonPeriodic
	if b.Periodic {
		id = BTSFileIDPeriodic
	}
	var hdr bytes.Buffer
	for _, v := range []any{
		id, int32(b.NZ), int32(b.NY), int32(b.NTower), int32(b.NT),
		float32(b.DZ), float32(b.DY), float32(b.DT), float32(b.URef), float32(b.ZHub), float32(b.GridBottom),
		w.slope[0], w.offset[0], w.slope[1], w.offset[1], w.slope[2], w.offset[2],
		int32(len(b.Description)),
	} {
		binary.Write(&hdr, binary.LittleEndian, v) // a bytes.Buffer does not fail
	}
	hdr.WriteString(b.Description)
	if _, err := w.f.WriteAt(hdr.Bytes(), 0); err != nil {
		w.Abort()
		return fmt.Errorf("bts: header: %w", err)
	}
	tmp := w.f.Name()
	err := w.f.Close()
	w.f = nil
	if err == nil {
		err = os.Rename(tmp, w.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("bts: %w", err)
	}
	return nil
}

// Abort removes the unfinished file.
func (w *BTSComponentWriter) Abort() {
	if w.f == nil {
		return
	}
	w.f.Close()
	os.Remove(w.f.Name())
	w.f = nil
}
