package windfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// BladedStream gives the velocities of a Bladed-style box (.wnd with its
// TurbSim summary .sum and optional tower file .twr, InflowWind WindType 4)
// one time step at a time, decoded exactly as ParseBladed and
// ParseBladedTower decode them, reading the files as the simulation
// advances through the block buffers of stepBlocks. Like BTSStream it is
// not safe for concurrent use, and the slices Step returns stay valid at
// least until the next Step call.
type BladedStream struct {
	// Box is the box's geometry (Grid and Tower are nil).
	Box *FullField
	// Summary and Header are what the .sum and the .wnd header say.
	Summary *BladedSummary
	Header  *BladedHeader
	stepBlocks

	name      string // the root as errors name it
	wnd, twr  io.ReaderAt
	closers   []io.Closer
	grid      *bladedGrid
	tower     *bladedTower
	raw, rawT []byte
	bytesRead int64
}

// Reads of a Bladed box are bounded: the summary is scanned over at most
// its first MiB (TurbSim writes a few tens of kB; the scaling block comes
// after the statistics tables), and the .wnd header is read from its first
// bytes (the longest header, TurbSim's Mann-model one, is 156 bytes).
const (
	maxBladedSummaryBytes = 1 << 20
	bladedHeaderReadBytes = 512
)

// OpenBladedStream opens root.wnd and root.sum (and root.twr when
// withTower is set, InflowWind's TowerFile) for streaming; root may carry
// the .wnd extension, as InflowWind's FilenameRoot may. The summary, the
// headers and the files' sizes are checked as ReadBladedFiles checks them,
// and no velocity is read until Step asks for it. Errors name the files as
// name (the root as the user wrote it) plus their extension and never
// quote a file's content, so no server path or data reaches a message.
// Close releases the files.
func OpenBladedStream(root, name string, withTower bool, opt StreamOptions) (*BladedStream, error) {
	root = strings.TrimSuffix(root, ".wnd")
	name = strings.TrimSuffix(name, ".wnd")
	s := &BladedStream{name: name}
	if err := s.open(root, withTower, opt); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *BladedStream) open(root string, withTower bool, opt StreamOptions) error {
	sf, err := os.Open(root + ".sum")
	if err != nil {
		return fmt.Errorf("%s.sum: %w", s.name, withoutPath(err))
	}
	sum, err := ReadBladedSummary(io.LimitReader(sf, maxBladedSummaryBytes))
	sf.Close()
	if err != nil {
		return fmt.Errorf("%s.sum: %w", s.name, withoutPath(err))
	}
	s.Summary = sum
	wnd, size, hdr, err := s.openFile(root, ".wnd", bladedHeaderReadBytes)
	if err != nil {
		return err
	}
	s.wnd = wnd
	if s.Header, err = parseBladedHeader(hdr); err != nil {
		return fmt.Errorf("%s.wnd: %w", s.name, err)
	}
	if s.Box, s.grid, err = bladedBox(s.Header, sum, size); err != nil {
		return fmt.Errorf("%s.wnd: %w", s.name, err)
	}
	if withTower {
		twr, size, hdr, err := s.openFile(root, ".twr", bladedTowerHeaderBytes)
		if err != nil {
			return err
		}
		s.twr = twr
		if s.tower, err = bladedTowerHeader(hdr, s.Box, size); err != nil {
			return fmt.Errorf("%s.twr: %w", s.name, err)
		}
		s.Box.NTower = s.tower.nz
	}
	s.stepBlocks = newStepBlocks(s.Box.NT, s.Box.NY*s.Box.NZ, s.Box.NTower, opt, s.fill)
	s.raw = make([]byte, s.grid.stepBytes()*s.blockSteps)
	if s.tower != nil {
		s.rawT = make([]byte, 6*s.tower.nz*s.blockSteps)
	}
	return nil
}

// openFile opens root+ext, keeping it to close, and returns its size and
// its first headBytes bytes (fewer if the file is shorter).
func (s *BladedStream) openFile(root, ext string, headBytes int64) (*os.File, int64, []byte, error) {
	f, err := os.Open(root + ext)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s%s: %w", s.name, ext, withoutPath(err))
	}
	s.closers = append(s.closers, f)
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s%s: %w", s.name, ext, withoutPath(err))
	}
	head := make([]byte, min(fi.Size(), headBytes))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, 0, nil, fmt.Errorf("%s%s: header: %w", s.name, ext, withoutPath(err))
	}
	return f, fi.Size(), head, nil
}

// withoutPath drops the file path an os error carries (the caller names
// the file as the user wrote it).
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// fill reads and decodes steps first to first+n-1 into dst.
func (s *BladedStream) fill(dst []float32, first, n int) error {
	per := s.grid.stepBytes()
	raw := s.raw[:n*per]
	off := int64(s.Header.dataOffset) + int64(first)*int64(per)
	if _, err := s.wnd.ReadAt(raw, off); err != nil {
		return fmt.Errorf("%s.wnd: reading time steps %d-%d: %w", s.name, first, first+n-1, withoutPath(err))
	}
	s.bytesRead += int64(len(raw))
	s.grid.decode(dst, s.perStep, raw, n)
	if s.tower == nil {
		return nil
	}
	per = 6 * s.tower.nz
	raw = s.rawT[:n*per]
	off = bladedTowerHeaderBytes + int64(first)*int64(per)
	if _, err := s.twr.ReadAt(raw, off); err != nil {
		return fmt.Errorf("%s.twr: reading time steps %d-%d: %w", s.name, first, first+n-1, withoutPath(err))
	}
	s.bytesRead += int64(len(raw))
	s.tower.decode(dst, s.perStep, s.nGrid, raw, n)
	return nil
}

// Geometry is the box's header (Box).
func (s *BladedStream) Geometry() *FullField { return s.Box }

// BufferBytes is the most memory the stream's buffers take: the raw bytes
// of one block and the decoded blocks.
func (s *BladedStream) BufferBytes() int {
	return len(s.raw) + len(s.rawT) + s.decodedBytes()
}

// BytesRead counts the velocity bytes read from the files so far.
func (s *BladedStream) BytesRead() int64 { return s.bytesRead }

// Close releases the files OpenBladedStream opened.
func (s *BladedStream) Close() error {
	var first error
	for _, c := range s.closers {
		if err := c.Close(); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", s.name, withoutPath(err))
		}
	}
	s.closers = nil
	return first
}
