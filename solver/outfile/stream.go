package outfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// Format selects the kind of output file a StreamWriter produces.
type Format int

const (
	// FormatOutb is the binary .outb format (FileID from StreamOptions).
	FormatOutb Format = iota
	// FormatText is the tab-delimited text .out format.
	FormatText
)

// StreamOptions describe an output file written row by row.
type StreamOptions struct {
	Format      Format
	Description string
	// TimeChannel defaults to {"Time", "s"}.
	TimeChannel Channel
	Channels    []Channel
	// Outb selects the .outb FileID (4 by default) and the time step stored
	// for FileID 2-4 (OpenFAST's DT_Out; zero takes the difference of the
	// first two rows).
	Outb OutbOptions
	// Text sets the value format and time-column width of text files.
	Text TextOptions
}

// StreamWriter appends rows to an output file during a simulation and
// finalises it at Close. Nothing appears at the destination path until
// Close succeeds: rows go to hidden temporary files beside it, and the
// finished file is renamed into place in one step. Close or Abort must be
// called; after a failed Close or an Abort nothing is left behind (an older
// file at the destination stays as it was).
//
// How each format streams:
//   - text: rows are formatted as they arrive into the temporary file; the
//     header does not depend on the data. Give Text.TMax for a time column
//     wider than 10 characters (runs of 10 000 s and more).
//   - .outb FileID 3 (float64): header written first with a zero row count,
//     rows appended as they arrive, the row count and time step patched at
//     Close.
//   - .outb FileID 1, 2, 4 (int16): the packing slope and offset of each
//     channel depend on its minimum and maximum over the whole run, unknown
//     until the end. Rows are therefore spilled as float64 to a temporary
//     file (8 bytes per value) while the ranges are tracked; Close writes the
//     header with the final scaling and packs the spilled rows in one
//     sequential pass. The result is identical, bit for bit, to WriteOutb of
//     the same data. Disk use during the run is 4× the final file size.
//     NaN or ±Inf cannot be packed: Append rejects such a row with an error
//     wrapping ErrNonFinite (the row is not stored).
type StreamWriter struct {
	path   string
	opt    StreamOptions
	timeCh Channel
	id     FileID

	out     *os.File // temporary destination
	outBuf  *bufio.Writer
	spill   *os.File // FileID 1, 2, 4: float64 rows
	spillW  *bufio.Writer
	enc     *textEncoder
	layout  *outbLayout
	rowBuf  []byte
	lo, hi  []float64
	times   []float64 // FileID 1 keeps every time; others only the first two
	nRows   int
	t0, t1  float64
	closed  bool
	failErr error
}

// Create starts a streaming output file at path.
func Create(path string, opt StreamOptions) (_ *StreamWriter, err error) {
	w := &StreamWriter{path: path, opt: opt, id: opt.Outb.fileID()}
	w.timeCh = (&File{TimeChannel: opt.TimeChannel}).timeChannel()
	defer func() {
		if err != nil {
			w.removeTemps()
		}
	}()
	dir, base := filepath.Dir(path), filepath.Base(path)
	if w.out, err = os.CreateTemp(dir, "."+base+".tmp-*"); err != nil {
		return nil, fmt.Errorf("outfile: creating %s: %w", path, err)
	}
	w.outBuf = bufio.NewWriterSize(w.out, 256<<10)
	switch opt.Format {
	case FormatText:
		if err = checkChannels(w.timeCh, opt.Channels); err != nil {
			return nil, err
		}
		if w.enc, err = newTextEncoder(opt.Text, opt.Text.TMax, w.timeCh, opt.Channels); err != nil {
			return nil, err
		}
		if err = w.enc.writeHeader(w.outBuf, opt.Description, w.timeCh, opt.Channels); err != nil {
			return nil, fmt.Errorf("outfile: %s: %w", path, err)
		}
	case FormatOutb:
		if w.layout, err = newOutbLayout(w.id, opt.Description, w.timeCh, opt.Channels); err != nil {
			return nil, err
		}
		if w.id.packed() {
			if w.spill, err = os.CreateTemp(dir, "."+base+".rows-*"); err != nil {
				return nil, fmt.Errorf("outfile: creating spill file for %s: %w", path, err)
			}
			w.spillW = bufio.NewWriterSize(w.spill, 256<<10)
			w.lo = make([]float64, len(opt.Channels))
			w.hi = make([]float64, len(opt.Channels))
			for c := range w.lo {
				w.lo[c], w.hi[c] = math.Inf(1), math.Inf(-1)
			}
			w.rowBuf = make([]byte, 8*len(opt.Channels))
		} else {
			// FileID 3: provisional header; NT and TimeIncr patched at Close.
			if err = w.layout.writeHeader(w.outBuf, &outbScaling{}, nil); err != nil {
				return nil, fmt.Errorf("outfile: %s: %w", path, err)
			}
			w.rowBuf = make([]byte, 8*len(opt.Channels))
		}
	default:
		return nil, fmt.Errorf("outfile: unknown format %d", opt.Format)
	}
	return w, nil
}

// Append adds one row: its time and one value per channel.
func (w *StreamWriter) Append(t float64, row []float64) error {
	if w.closed {
		return errors.New("outfile: append after close")
	}
	if w.failErr != nil {
		return w.failErr
	}
	if len(row) != len(w.opt.Channels) {
		return fmt.Errorf("outfile: row has %d values, file has %d channels", len(row), len(w.opt.Channels))
	}
	if w.layout != nil && w.id.packed() {
		for c, x := range row {
			if !isFinite(x) {
				return fmt.Errorf("outfile: row %d channel %q is %g: %w", w.nRows, w.opt.Channels[c].Name, x, ErrNonFinite)
			}
		}
	}
	if w.layout != nil && w.id != FileIDWithTime {
		if err := w.checkUniform(t); err != nil {
			return err
		}
	}
	if w.layout != nil && w.id == FileIDWithTime && !isFinite(t) {
		return fmt.Errorf("outfile: row %d time is %g: %w", w.nRows, t, ErrNonFinite)
	}
	if err := w.appendRow(t, row); err != nil {
		w.failErr = fmt.Errorf("outfile: %s: row %d: %w", w.path, w.nRows, err)
		return w.failErr
	}
	switch w.nRows {
	case 0:
		w.t0 = t
	case 1:
		w.t1 = t
	}
	if w.id == FileIDWithTime && w.layout != nil {
		w.times = append(w.times, t)
	}
	w.nRows++
	return nil
}

// checkUniform enforces the constant step FileID 2-4 can store.
func (w *StreamWriter) checkUniform(t float64) error {
	if w.nRows < 1 {
		return nil
	}
	dt := w.opt.Outb.TimeStep
	if dt == 0 {
		if w.nRows == 1 {
			return nil
		}
		dt = w.t1 - w.t0
	}
	want := w.t0 + dt*float64(w.nRows)
	if math.Abs(t-want) > 1e-6*math.Max(math.Abs(dt), 1e-12)+1e-9*math.Abs(want) {
		return fmt.Errorf("outfile: row %d at t=%g, expected %g (step %g): FileID %d needs a constant step", w.nRows, t, want, dt, w.id)
	}
	return nil
}

func (w *StreamWriter) appendRow(t float64, row []float64) error {
	switch {
	case w.enc != nil:
		return w.enc.writeRow(w.outBuf, t, func(c int) float64 { return row[c] }, len(row))
	case w.id.packed():
		for c, x := range row {
			w.lo[c], w.hi[c] = min(w.lo[c], x), max(w.hi[c], x)
			binary.LittleEndian.PutUint64(w.rowBuf[8*c:], math.Float64bits(x))
		}
		_, err := w.spillW.Write(w.rowBuf)
		return err
	default:
		for c, x := range row {
			binary.LittleEndian.PutUint64(w.rowBuf[8*c:], math.Float64bits(x))
		}
		_, err := w.outBuf.Write(w.rowBuf)
		return err
	}
}

// NumRows returns the number of rows appended so far.
func (w *StreamWriter) NumRows() int { return w.nRows }

// Close finalises the file and moves it to its path. On error nothing is
// left at the path (beyond what was there before) and no temporary remains.
func (w *StreamWriter) Close() (err error) {
	if w.closed {
		return errors.New("outfile: close called twice")
	}
	w.closed = true
	defer func() {
		if err != nil {
			w.removeTemps()
		}
	}()
	if w.failErr != nil {
		return w.failErr
	}
	if w.layout != nil {
		if w.id.packed() {
			err = w.packSpill()
		} else {
			err = w.patchFileID3()
		}
		if err != nil {
			return fmt.Errorf("outfile: %s: %w", w.path, err)
		}
	}
	if err = w.outBuf.Flush(); err != nil {
		return fmt.Errorf("outfile: %s: %w", w.path, err)
	}
	if err = w.out.Close(); err != nil {
		return fmt.Errorf("outfile: %s: %w", w.path, err)
	}
	if err = os.Rename(w.out.Name(), w.path); err != nil {
		return fmt.Errorf("outfile: %w", err)
	}
	w.out = nil
	w.removeTemps()
	return nil
}

// Abort discards everything written; the destination is left untouched.
func (w *StreamWriter) Abort() error {
	w.closed = true
	w.removeTemps()
	return nil
}

func (w *StreamWriter) removeTemps() {
	if w.out != nil {
		w.out.Close()
		os.Remove(w.out.Name())
		w.out = nil
	}
	if w.spill != nil {
		w.spill.Close()
		os.Remove(w.spill.Name())
		w.spill = nil
	}
}

func (w *StreamWriter) timeStep() float64 {
	if w.opt.Outb.TimeStep != 0 {
		return w.opt.Outb.TimeStep
	}
	if w.nRows > 1 {
		return w.t1 - w.t0
	}
	return 0
}

// patchFileID3 rewrites NT and TimeOut1/TimeIncr in the provisional header.
func (w *StreamWriter) patchFileID3() error {
	if err := w.outBuf.Flush(); err != nil {
		return err
	}
	var b [20]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(int32(w.nRows)))
	binary.LittleEndian.PutUint64(b[4:], math.Float64bits(w.t0))
	binary.LittleEndian.PutUint64(b[12:], math.Float64bits(w.timeStep()))
	// FileID 3 layout: int16 ID, int32 NumOutChans, then NT at byte 6.
	_, err := w.out.WriteAt(b[:], 6)
	return err
}

// packSpill writes the final header and packs the spilled float64 rows.
func (w *StreamWriter) packSpill() error {
	if err := w.spillW.Flush(); err != nil {
		return err
	}
	n := len(w.opt.Channels)
	s := &outbScaling{nRows: w.nRows, timeStart: w.t0, timeInc: w.timeStep()}
	s.scale = make([]float32, n)
	s.offset = make([]float32, n)
	for c := range s.scale {
		lo, hi := w.lo[c], w.hi[c]
		if w.nRows == 0 {
			lo, hi = 0, 0
		}
		s.scale[c], s.offset[c] = PackScale(lo, hi)
	}
	var packedTime []int32
	if w.id == FileIDWithTime {
		s.timeScl, s.timeOff, packedTime = packTimeColumn(w.times)
	}
	if err := w.layout.writeHeader(w.outBuf, s, packedTime); err != nil {
		return err
	}
	if _, err := w.spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	br := bufio.NewReaderSize(w.spill, 1<<20)
	in := make([]byte, 8*n)
	out := make([]byte, 2*n)
	for k := 0; k < w.nRows; k++ {
		if _, err := io.ReadFull(br, in); err != nil {
			return fmt.Errorf("reading spilled row %d: %w", k, err)
		}
		for c := 0; c < n; c++ {
			x := math.Float64frombits(binary.LittleEndian.Uint64(in[8*c:]))
			binary.LittleEndian.PutUint16(out[2*c:], uint16(PackValue(x, s.scale[c], s.offset[c])))
		}
		if _, err := w.outBuf.Write(out); err != nil {
			return err
		}
	}
	return nil
}
