package outfile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Packing constants of WrBinFAST (NWTC_IO.f90), all single precision.
const (
	intMax = float32(32767)
	intMin = float32(-32768)
	intRng = float32(65535) // intMax - intMin
	// timeIntMax/Min bound FileID 1's packed time (±65536 in an int32 field).
	timeIntMax = 65535.0
	timeIntMin = -65536.0
	timeIntRng = 131071.0
)

// sqrtEpsFloat32 is SQRT(EPSILON(1.0_SiKi)): the range below which a channel
// is treated as constant.
var sqrtEpsFloat32 = float32(math.Sqrt(float64(math.Nextafter32(1, 2) - 1)))

// PackScale returns the float32 slope and offset OpenFAST uses to pack a
// channel whose values span [lo, hi] into int16 (WrBinFAST): the
// minimum maps to -32768 and the maximum to 32767; a channel narrower than
// sqrt(eps_float32) gets slope 65535/sqrt(eps) (0x4D35043E).
func PackScale(lo, hi float64) (scale, offset float32) {
	rng := float32(hi - lo)
	if float32(math.Abs(float64(rng))) < sqrtEpsFloat32 {
		scale = intRng / sqrtEpsFloat32
	} else {
		scale = intRng / rng
	}
	offset = intMin - scale*float32(lo)
	return scale, offset
}

// PackValue packs x with a channel's slope and offset: the product is formed
// in double precision (x is double in OpenFAST's double build), rounded to
// single, clamped to the int16 range and rounded half away from zero (NINT).
func PackValue(x float64, scale, offset float32) int16 {
	// The explicit conversion of the product forbids fusing it with the
	// addition (Go spec, floating-point operators), keeping two roundings.
	v := float32(float64(float64(scale)*x) + float64(offset))
	v = min(max(v, intMin), intMax)
	return int16(math.Round(float64(v)))
}

// packTimeScale returns FileID 1's float64 time slope and offset.
func packTimeScale(tmin, tmax float64) (scale, offset float64) {
	if tmax == tmin {
		scale = 1
	} else {
		scale = timeIntRng / (tmax - tmin)
	}
	return scale, timeIntMin - scale*tmin
}

func packTime(t, scale, offset float64) int32 {
	v := min(max(scale*t+offset, timeIntMin), timeIntMax)
	return int32(math.Round(v))
}

// OutbOptions chooses how a .outb file is written.
type OutbOptions struct {
	// FileID selects the format; zero means FileIDChanLenIn (4), the format
	// OpenFAST v5 writes and openfast_toolbox reads by default.
	FileID FileID
	// TimeStep is the stored increment for FileID 2-4. Zero derives it from
	// the first two time values (0 for a single row).
	TimeStep float64
}

func (o OutbOptions) fileID() FileID {
	if o.FileID == 0 {
		return FileIDChanLenIn
	}
	return o.FileID
}

// outbLayout is everything of a .outb header except the data-dependent
// scaling: names, widths and the time description.
type outbLayout struct {
	id          FileID
	nameLen     int
	description string
	names       []string // Time first
	units       []string // with parentheses, Time first
}

func newOutbLayout(id FileID, desc string, timeCh Channel, chans []Channel) (*outbLayout, error) {
	if !id.Valid() {
		return nil, fmt.Errorf("outb: cannot write unknown FileID %d", int16(id))
	}
	l := &outbLayout{id: id, description: desc, nameLen: fixedNameLen}
	all := append([]Channel{timeCh}, chans...)
	for _, ch := range all {
		l.names = append(l.names, strings.TrimSpace(ch.Name))
		l.units = append(l.units, unitField(ch.Unit))
	}
	if id == FileIDChanLenIn {
		// LenName = longest trimmed name or parenthesised unit, Time included.
		n := 1
		for i := range l.names {
			n = max(n, len(l.names[i]), len(l.units[i]))
		}
		if n > math.MaxInt16 {
			return nil, fmt.Errorf("outb: channel name or unit of %d bytes exceeds the int16 width field", n)
		}
		l.nameLen = n
	}
	if int64(len(desc)) > math.MaxInt32 || int64(len(chans)) > math.MaxInt32 {
		return nil, fmt.Errorf("outb: description or channel count too large")
	}
	return l, nil
}

// InvalidUnit is the unit OpenFAST gives OutList entries it does not
// recognise; it writes it without parentheses.
const InvalidUnit = "INVALID"

// unitField wraps a unit in parentheses as OpenFAST's unit strings are
// stored, except OpenFAST's bare "INVALID" marker.
func unitField(u string) string {
	u = strings.TrimSpace(u)
	if u == InvalidUnit {
		return u
	}
	return "(" + u + ")"
}

// fixedField pads (or, for the 10-character FileIDs 1-3, truncates, as a
// Fortran CHARACTER(10) assignment does) s to width bytes with blanks.
func fixedField(s string, width int) []byte {
	b := make([]byte, width)
	for i := range b {
		b[i] = ' '
	}
	copy(b, s)
	return b
}

// outbScaling is the data-dependent part of the header.
type outbScaling struct {
	nRows              int
	timeStart, timeInc float64 // FileID 2-4
	timeScl, timeOff   float64 // FileID 1
	scale, offset      []float32
}

// writeHeader writes everything before the data rows (and FileID 1's packed
// time column, which needs the times: passed in packedTime).
func (l *outbLayout) writeHeader(w io.Writer, s *outbScaling, packedTime []int32) error {
	bw := &binWriter{w: w}
	nCh := len(l.names) - 1
	bw.put(int16(l.id))
	if l.id == FileIDChanLenIn {
		bw.put(int16(l.nameLen))
	}
	bw.put(int32(nCh))
	bw.put(int32(s.nRows))
	if l.id == FileIDWithTime {
		bw.put(s.timeScl)
		bw.put(s.timeOff)
	} else {
		bw.put(s.timeStart)
		bw.put(s.timeInc)
	}
	if l.id.packed() {
		bw.put(s.scale)
		bw.put(s.offset)
	}
	bw.put(int32(len(l.description)))
	bw.bytes([]byte(l.description))
	for _, n := range l.names {
		bw.bytes(fixedField(n, l.nameLen))
	}
	for _, u := range l.units {
		bw.bytes(fixedField(u, l.nameLen))
	}
	if l.id == FileIDWithTime {
		bw.put(packedTime)
	}
	return bw.err
}

type binWriter struct {
	w   io.Writer
	err error
}

func (b *binWriter) put(v any) {
	if b.err == nil {
		b.err = binary.Write(b.w, binary.LittleEndian, v)
	}
}

func (b *binWriter) bytes(p []byte) {
	if b.err == nil {
		_, b.err = b.w.Write(p)
	}
}

// timeIncrement returns the stored TimeIncr for FileID 2-4 and checks that
// the time column is uniform to within 1e-6 of the step, since those formats
// cannot represent anything else.
func timeIncrement(t []float64, given float64) (float64, error) {
	dt := given
	if dt == 0 && len(t) > 1 {
		dt = t[1] - t[0]
	}
	for k := 1; k < len(t); k++ {
		want := t[0] + dt*float64(k)
		if math.Abs(t[k]-want) > 1e-6*math.Max(math.Abs(dt), 1e-12)+1e-9*math.Abs(want) {
			return 0, fmt.Errorf("outb: time is not uniform (row %d: %g, expected %g with step %g); use FileID 1 for variable time steps", k, t[k], want, dt)
		}
	}
	return dt, nil
}

// channelScaling computes per-channel slope/offset from a columnar File.
func channelScaling(f *File) ([]float32, []float32, error) {
	scl := make([]float32, len(f.Channels))
	off := make([]float32, len(f.Channels))
	for c, col := range f.Data {
		lo, hi := math.Inf(1), math.Inf(-1)
		for k, x := range col {
			if !isFinite(x) {
				return nil, nil, fmt.Errorf("outb: channel %q row %d is %g: %w", f.Channels[c].Name, k, x, ErrNonFinite)
			}
			lo, hi = min(lo, x), max(hi, x)
		}
		if len(col) == 0 {
			lo, hi = 0, 0
		}
		scl[c], off[c] = PackScale(lo, hi)
	}
	return scl, off, nil
}

// WriteOutb writes f as a .outb file in the format opt selects (FileID 4 by
// default). Names of FileID 1-3 are cut to 10 characters as OpenFAST's fixed
// CHARACTER(10) fields would cut them.
func WriteOutb(w io.Writer, f *File, opt OutbOptions) error {
	if err := f.Validate(); err != nil {
		return err
	}
	id := opt.fileID()
	l, err := newOutbLayout(id, f.Description, f.timeChannel(), f.Channels)
	if err != nil {
		return err
	}
	s := &outbScaling{nRows: f.NumRows()}
	var packedTime []int32
	if id == FileIDWithTime {
		for k, t := range f.Time {
			if !isFinite(t) {
				return fmt.Errorf("outb: time row %d is %g: %w", k, t, ErrNonFinite)
			}
		}
		s.timeScl, s.timeOff, packedTime = packTimeColumn(f.Time)
	} else {
		if len(f.Time) > 0 {
			s.timeStart = f.Time[0]
		}
		if s.timeInc, err = timeIncrement(f.Time, opt.TimeStep); err != nil {
			return err
		}
	}
	if id.packed() {
		if s.scale, s.offset, err = channelScaling(f); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := l.writeHeader(bw, s, packedTime); err != nil {
		return fmt.Errorf("outb: writing header: %w", err)
	}
	row := make([]byte, len(f.Channels)*id.elemBytes())
	for k := 0; k < s.nRows; k++ {
		for c, col := range f.Data {
			if id.packed() {
				binary.LittleEndian.PutUint16(row[2*c:], uint16(PackValue(col[k], s.scale[c], s.offset[c])))
			} else {
				binary.LittleEndian.PutUint64(row[8*c:], math.Float64bits(col[k]))
			}
		}
		if _, err := bw.Write(row); err != nil {
			return fmt.Errorf("outb: writing row %d: %w", k, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("outb: %w", err)
	}
	return nil
}

// WriteOutbFile writes f to path atomically: the data go to a temporary file
// in the same folder which is renamed over path only when complete.
func WriteOutbFile(path string, f *File, opt OutbOptions) error {
	return writeAtomically(path, func(w io.Writer) error { return WriteOutb(w, f, opt) })
}

// writeAtomically runs write on a temporary file beside path and renames it
// to path on success; on failure the temporary file is removed and path is
// left untouched.
func writeAtomically(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating temporary file for %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// packTimeColumn packs a time column of FileID 1 (with time): one int32
// scale and offset spanning the column's range, then every time packed.
func packTimeColumn(times []float64) (scl, off float64, packed []int32) {
	tmin, tmax := 0.0, 0.0
	for k, t := range times {
		if k == 0 || t < tmin {
			tmin = t
		}
		if k == 0 || t > tmax {
			tmax = t
		}
	}
	scl, off = packTimeScale(tmin, tmax)
	packed = make([]int32, len(times))
	for k, t := range times {
		packed[k] = packTime(t, scl, off)
	}
	return scl, off, packed
}
