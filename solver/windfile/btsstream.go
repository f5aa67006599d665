package windfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// A TurbSim box of a 600-s run (25 × 25 points at 0.05 s) holds 24 million
// velocity values, about 90 MB as float32; a simulation only needs the few
// seconds of it that are passing the rotor. BTSStream reads a .bts file
// from disk as the simulation advances: time steps are decoded a block at
// a time, into a fixed number of block buffers reused least recently used
// first, so the memory held is bounded by the block size whatever the
// length of the box.

// StreamOptions sizes the buffers of a BTSStream; zero values take the
// defaults.
type StreamOptions struct {
	// BlockBytes is the decoded size of one block of time steps (float32
	// values); a block holds at least one step. Default 512 KiB.
	BlockBytes int
	// Blocks is how many decoded blocks are kept; at least 2, so the two
	// steps a time interpolation needs are held together. Default 4.
	Blocks int
}

// Stream buffer defaults: 4 blocks of 512 KiB hold about 270 steps of a
// 25 × 25 box (13 s at 0.05 s), several times the spread of box times the
// rotor, tower and a floating platform's excursions ask for at one instant.
const (
	DefaultStreamBlockBytes = 512 << 10
	DefaultStreamBlocks     = 4
)

// BTSStream gives the velocities of a .bts file one time step at a time,
// decoded exactly as ParseBTS decodes them. It is not safe for concurrent
// use, and the slices Step returns stay valid only until a later Step call
// loads a block into their buffer (at least until the next call: a block
// just used is the last to be replaced).
type BTSStream struct {
	// Box is the box's geometry and header (Grid and Tower are nil).
	Box *FullField

	r          io.ReaderAt
	closer     io.Closer
	hdr        *btsHeader
	perStep    int // values per time step, grid then tower
	blockSteps int
	raw        []byte
	blocks     []streamBlock
	clock      uint64
	last       *streamBlock // the block of the previous Step
	bytesRead  int64
}

// streamBlock is one decoded block of time steps.
type streamBlock struct {
	first int // first step held, -1 when empty
	n     int // steps held
	used  uint64
	vals  []float32
}

// OpenBTSStream opens a .bts file for streaming; the header and the
// file's size are checked as ParseBTS checks them, and no velocity is read
// until Step asks for it. Close releases the file.
func OpenBTSStream(path string, opt StreamOptions) (*BTSStream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	h, err := readBTSHeader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s, err := newBTSStream(f, h, opt)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.closer = f
	return s, nil
}

// NewBTSStream streams the .bts file of size bytes read through r.
func NewBTSStream(r io.ReaderAt, size int64, opt StreamOptions) (*BTSStream, error) {
	var b [btsHeaderBytes]byte
	if size >= btsHeaderBytes {
		if _, err := r.ReadAt(b[:], 0); err != nil {
			return nil, fmt.Errorf("bts: header: %w", err)
		}
	}
	h, err := parseBTSHeader(b[:], size)
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
	if opt.BlockBytes <= 0 {
		opt.BlockBytes = DefaultStreamBlockBytes
	}
	if opt.Blocks <= 0 {
		opt.Blocks = DefaultStreamBlocks
	}
	opt.Blocks = max(opt.Blocks, 2)
	perStep := 3 * (box.NY*box.NZ + box.NTower)
	blockSteps := min(max(opt.BlockBytes/(4*perStep), 1), box.NT)
	s := &BTSStream{Box: box, r: r, hdr: h, perStep: perStep, blockSteps: blockSteps,
		raw: make([]byte, 2*perStep*blockSteps), blocks: make([]streamBlock, opt.Blocks)}
	for i := range s.blocks {
		s.blocks[i].first = -1
	}
	return s, nil
}

// Step returns the velocities of time step it: grid holds the NY×NZ
// points' (u, v, w) in the file's order, ((iz*NY + iy)*3 + c), tower the
// tower points' ((i*3) + c).
func (s *BTSStream) Step(it int) (grid, tower []float32, err error) {
	if it < 0 || it >= s.Box.NT {
		return nil, nil, fmt.Errorf("bts: time step %d outside the box's %d", it, s.Box.NT)
	}
	s.clock++
	b := s.block(it)
	if b == nil {
		if b, err = s.load(it); err != nil {
			return nil, nil, err
		}
	}
	b.used = s.clock
	s.last = b
	k := (it - b.first) * s.perStep
	nGrid := 3 * s.Box.NY * s.Box.NZ
	return b.vals[k : k+nGrid : k+nGrid], b.vals[k+nGrid : k+s.perStep : k+s.perStep], nil
}

// block returns the buffer holding step it, nil if none does.
func (s *BTSStream) block(it int) *streamBlock {
	if b := s.last; b != nil && it >= b.first && it < b.first+b.n {
		return b
	}
	for i := range s.blocks {
		b := &s.blocks[i]
		if b.first >= 0 && it >= b.first && it < b.first+b.n {
			return b
		}
	}
	return nil
}

// load reads the block of it into the least recently used buffer.
func (s *BTSStream) load(it int) (*streamBlock, error) {
	victim := &s.blocks[0]
	for i := range s.blocks {
		if b := &s.blocks[i]; b.used < victim.used {
			victim = b
		}
	}
	first := it / s.blockSteps * s.blockSteps
	n := min(s.blockSteps, s.Box.NT-first)
	raw := s.raw[:2*n*s.perStep]
	victim.first = -1 // empty until the read succeeds
	s.last = nil
	if _, err := s.r.ReadAt(raw, s.hdr.dataOffset+2*int64(first)*int64(s.perStep)); err != nil {
		return nil, fmt.Errorf("bts: reading time steps %d-%d: %w", first, first+n-1, err)
	}
	s.bytesRead += int64(len(raw))
	if cap(victim.vals) < n*s.perStep {
		victim.vals = make([]float32, s.blockSteps*s.perStep)
	}
	victim.vals = victim.vals[:n*s.perStep]
	s.hdr.decode(victim.vals, raw)
	victim.first, victim.n = first, n
	return victim, nil
}

// BufferBytes is the most memory the stream's buffers take: the raw bytes
// of one block and the decoded blocks.
func (s *BTSStream) BufferBytes() int {
	return len(s.raw) + 4*len(s.blocks)*s.blockSteps*s.perStep
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
		return nil, nil, fmt.Errorf("bts: time step %d outside the box's %d", it, ff.NT)
	}
	g, t := 3*ff.NY*ff.NZ, 3*ff.NTower
	return ff.Grid[it*g : (it+1)*g : (it+1)*g], ff.Tower[it*t : (it+1)*t : (it+1)*t], nil
}
