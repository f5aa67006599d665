package outfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// fixedNameLen is the name/unit width of FileID 1, 2 and 3 (ChanLen = 10 in
// the NWTC library before FileFmtID_ChanLen_In existed).
const fixedNameLen = 10

// maxRowsWithoutData bounds the row count of a file whose rows occupy no
// bytes (FileID 2-4 with zero channels): nothing in the file limits it then,
// and a corrupt header must not make us allocate gigabytes of time stamps.
const maxRowsWithoutData = 1 << 24

// OutbHeader is the decoded header of a .outb file.
type OutbHeader struct {
	FileID FileID
	// NameLen is the fixed width of each name and unit field in bytes.
	NameLen int
	// NumRows is the number of time rows (NT).
	NumRows int
	// TimeScale and TimeOffset decode the packed int32 time of FileID 1:
	// t = (packed - TimeOffset) / TimeScale.
	TimeScale, TimeOffset float64
	// TimeStart and TimeStep give t_k = TimeStart + k*TimeStep (FileID 2-4).
	TimeStart, TimeStep float64
	// Scale and Offset are the per-channel float32 packing coefficients
	// (FileID 1, 2, 4): x = (packed - Offset)/Scale.
	Scale, Offset []float32
	Description   string
	TimeChannel   Channel
	Channels      []Channel
	// TrailingBytes counts bytes after the last data row (normally 0).
	TrailingBytes int64

	// packedTime holds FileID 1's int32 time column.
	packedTime []int32
	// dataOffset is the byte offset of the first data row.
	dataOffset int64
	// rowBytes is the size of one data row.
	rowBytes int64
}

// TimeAt returns the time of row k as the file encodes it, rounded to the
// nanosecond: the decoding arithmetic (TimeOut1 + k·TimeIncr, or the packed
// time unscaled) leaves binary residue such as 3·0.1 = 0.30000000000000004,
// which users would otherwise see in every exported or plotted time. One
// nanosecond is far below any output step a deck can ask for, and a 2-hour
// run still has 10 significant digits to spare in a float64.
func (h *OutbHeader) TimeAt(k int) float64 {
	var t float64
	if h.FileID == FileIDWithTime {
		t = (float64(h.packedTime[k]) - h.TimeOffset) / h.TimeScale
	} else {
		t = h.TimeStart + h.TimeStep*float64(k)
	}
	return math.Round(t*1e9) / 1e9
}

// byteCursor reads little-endian fields from a reader, keeping count of the
// bytes consumed and refusing to read past a known total size.
type byteCursor struct {
	r    io.Reader
	pos  int64
	size int64
	buf  [8]byte
	err  error
}

func (c *byteCursor) need(n int64, what string) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || c.size-c.pos < n {
		c.err = fmt.Errorf("outb: truncated at byte %d reading %s (needs %d bytes, file has %d)", c.pos, what, n, c.size)
		return false
	}
	return true
}

func (c *byteCursor) read(p []byte, what string) {
	if !c.need(int64(len(p)), what) {
		return
	}
	if _, err := io.ReadFull(c.r, p); err != nil {
		c.err = fmt.Errorf("outb: reading %s at byte %d: %w", what, c.pos, err)
		return
	}
	c.pos += int64(len(p))
}

func (c *byteCursor) i16(what string) int16 {
	c.read(c.buf[:2], what)
	if c.err != nil {
		return 0
	}
	return int16(binary.LittleEndian.Uint16(c.buf[:2]))
}

func (c *byteCursor) i32(what string) int32 {
	c.read(c.buf[:4], what)
	if c.err != nil {
		return 0
	}
	return int32(binary.LittleEndian.Uint32(c.buf[:4]))
}

func (c *byteCursor) f64(what string) float64 {
	c.read(c.buf[:8], what)
	if c.err != nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(c.buf[:8]))
}

func (c *byteCursor) f32s(n int, what string) []float32 {
	if !c.need(int64(n)*4, what) {
		return nil
	}
	raw := make([]byte, 4*n)
	c.read(raw, what)
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// trimField removes the blank (and, defensively, NUL) padding of a Fortran
// fixed-length string.
func trimField(b []byte) string {
	return strings.TrimSpace(strings.TrimRight(string(b), "\x00"))
}

// stripParens removes the parentheses OpenFAST wraps units in: "(kN-m)" → "kN-m".
func stripParens(u string) string {
	if len(u) >= 2 && u[0] == '(' && u[len(u)-1] == ')' {
		return strings.TrimSpace(u[1 : len(u)-1])
	}
	return u
}

// readOutbHeader decodes the header from r, which must be positioned at the
// start of a file of the given total size. Counts are checked against the
// size before anything is allocated, so corrupt input cannot exhaust memory.
func readOutbHeader(r io.Reader, size int64) (*OutbHeader, error) {
	c := &byteCursor{r: r, size: size}
	h := &OutbHeader{}
	h.FileID = FileID(c.i16("FileID"))
	if c.err != nil {
		return nil, c.err
	}
	if !h.FileID.Valid() {
		return nil, fmt.Errorf("outb: unknown FileID %d (expected 1-4)", int16(h.FileID))
	}
	h.NameLen = fixedNameLen
	if h.FileID == FileIDChanLenIn {
		h.NameLen = int(c.i16("LenName"))
		if c.err == nil && h.NameLen <= 0 {
			return nil, fmt.Errorf("outb: name length %d must be positive", h.NameLen)
		}
	}
	nCh := c.i32("NumOutChans")
	nt := c.i32("NT")
	if c.err != nil {
		return nil, c.err
	}
	if nCh < 0 || nt < 0 {
		return nil, fmt.Errorf("outb: negative counts (channels %d, rows %d)", nCh, nt)
	}
	if int64(nCh) > size || int64(nt) > size {
		return nil, fmt.Errorf("outb: header claims %d channels and %d rows, impossible in a %d-byte file", nCh, nt, size)
	}
	h.NumRows = int(nt)
	if h.FileID == FileIDWithTime {
		h.TimeScale = c.f64("TimeScl")
		h.TimeOffset = c.f64("TimeOff")
		if c.err == nil && (h.TimeScale == 0 || !isFinite(h.TimeScale) || !isFinite(h.TimeOffset)) {
			return nil, fmt.Errorf("outb: invalid time scaling (scale %g, offset %g)", h.TimeScale, h.TimeOffset)
		}
	} else {
		h.TimeStart = c.f64("TimeOut1")
		h.TimeStep = c.f64("TimeIncr")
	}
	if h.FileID.packed() {
		h.Scale = c.f32s(int(nCh), "ColScl")
		h.Offset = c.f32s(int(nCh), "ColOff")
	}
	lenDesc := c.i32("LenDesc")
	if c.err != nil {
		return nil, c.err
	}
	if lenDesc < 0 {
		return nil, fmt.Errorf("outb: negative description length %d", lenDesc)
	}
	if !c.need(int64(lenDesc), "DescStr") {
		return nil, c.err
	}
	desc := make([]byte, lenDesc)
	c.read(desc, "DescStr")
	h.Description = strings.TrimSpace(string(desc))

	nCols := int64(nCh) + 1
	fieldBytes := nCols * int64(h.NameLen)
	if !c.need(2*fieldBytes, "channel names and units") {
		return nil, c.err
	}
	names := make([]byte, fieldBytes)
	c.read(names, "ChanName")
	units := make([]byte, fieldBytes)
	c.read(units, "ChanUnit")
	if c.err != nil {
		return nil, c.err
	}
	h.Channels = make([]Channel, nCh)
	for i := int64(0); i < nCols; i++ {
		ch := Channel{
			Name: trimField(names[i*int64(h.NameLen) : (i+1)*int64(h.NameLen)]),
			Unit: stripParens(trimField(units[i*int64(h.NameLen) : (i+1)*int64(h.NameLen)])),
		}
		if i == 0 {
			h.TimeChannel = ch
		} else {
			h.Channels[i-1] = ch
		}
	}
	if h.FileID == FileIDWithTime {
		if !c.need(4*int64(nt), "PackedTime") {
			return nil, c.err
		}
		raw := make([]byte, 4*int64(nt))
		c.read(raw, "PackedTime")
		if c.err != nil {
			return nil, c.err
		}
		h.packedTime = make([]int32, nt)
		for k := range h.packedTime {
			h.packedTime[k] = int32(binary.LittleEndian.Uint32(raw[4*k:]))
		}
	}
	h.dataOffset = c.pos
	h.rowBytes = int64(nCh) * int64(h.FileID.elemBytes())
	if h.rowBytes == 0 && h.FileID != FileIDWithTime && h.NumRows > maxRowsWithoutData {
		return nil, fmt.Errorf("outb: %d rows of zero channels is implausible", h.NumRows)
	}
	if h.rowBytes > 0 && int64(nt) > (size-h.dataOffset)/h.rowBytes {
		return nil, fmt.Errorf("outb: data truncated: %d rows × %d bytes from byte %d exceed the %d-byte file", nt, h.rowBytes, h.dataOffset, size)
	}
	// Bytes after the last row are tolerated, as openfast_toolbox tolerates
	// them (its fastout_allnodes.outb example carries 174 088 of them), but
	// counted so callers can flag the file.
	h.TrailingBytes = size - (h.dataOffset + int64(nt)*h.rowBytes)
	return h, nil
}

// OutbReader reads a .outb file row by row without loading it whole. Rows
// have a fixed size in every FileID, so Row gives random access by index.
type OutbReader struct {
	Header *OutbHeader

	r      io.ReaderAt
	closer io.Closer
	// next is the row index Next returns; block buffers whole rows for Next.
	next       int
	block      []byte
	blockFirst int
	blockRows  int
}

// NewOutbReader reads the header of a .outb file of the given size.
func NewOutbReader(r io.ReaderAt, size int64) (*OutbReader, error) {
	h, err := readOutbHeader(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 64<<10), size)
	if err != nil {
		return nil, err
	}
	return &OutbReader{Header: h, r: r}, nil
}

// OpenOutb opens a .outb file for row-wise reading. Close it when done.
func OpenOutb(path string) (*OutbReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("outb: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("outb: %w", err)
	}
	rd, err := NewOutbReader(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rd.closer = f
	return rd, nil
}

// Close releases the file opened by OpenOutb.
func (rd *OutbReader) Close() error {
	if rd.closer == nil {
		return nil
	}
	err := rd.closer.Close()
	rd.closer = nil
	return err
}

// NumRows returns the number of rows.
func (rd *OutbReader) NumRows() int { return rd.Header.NumRows }

// NumChannels returns the number of channels after time.
func (rd *OutbReader) NumChannels() int { return len(rd.Header.Channels) }

// decodeRow converts one stored row into dst (len = number of channels).
func (rd *OutbReader) decodeRow(raw []byte, dst []float64) {
	h := rd.Header
	if h.FileID.packed() {
		for c := range dst {
			p := int16(binary.LittleEndian.Uint16(raw[2*c:]))
			dst[c] = (float64(p) - float64(h.Offset[c])) / float64(h.Scale[c])
		}
		return
	}
	for c := range dst {
		dst[c] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*c:]))
	}
}

func (rd *OutbReader) checkDst(dst []float64) error {
	if len(dst) != len(rd.Header.Channels) {
		return fmt.Errorf("outb: row buffer has %d elements, file has %d channels", len(dst), len(rd.Header.Channels))
	}
	return nil
}

// Row decodes row k into dst (one element per channel, time excluded) and
// returns the row's time.
func (rd *OutbReader) Row(k int, dst []float64) (float64, error) {
	if err := rd.checkDst(dst); err != nil {
		return 0, err
	}
	if k < 0 || k >= rd.Header.NumRows {
		return 0, fmt.Errorf("outb: row %d out of range [0, %d)", k, rd.Header.NumRows)
	}
	raw := make([]byte, rd.Header.rowBytes)
	if _, err := rd.r.ReadAt(raw, rd.Header.dataOffset+int64(k)*rd.Header.rowBytes); err != nil {
		return 0, fmt.Errorf("outb: reading row %d: %w", k, err)
	}
	rd.decodeRow(raw, dst)
	return rd.Header.TimeAt(k), nil
}

// Seek sets the row Next returns next.
func (rd *OutbReader) Seek(k int) error {
	if k < 0 || k > rd.Header.NumRows {
		return fmt.Errorf("outb: seek to row %d out of range [0, %d]", k, rd.Header.NumRows)
	}
	rd.next = k
	return nil
}

// blockBytes is the read size Next uses: large enough to amortise system
// calls, small enough to stream a 1 GB file in constant memory.
const blockBytes = 1 << 20

// Next decodes the next row into dst and returns its index and time; it
// returns io.EOF after the last row.
func (rd *OutbReader) Next(dst []float64) (int, float64, error) {
	if err := rd.checkDst(dst); err != nil {
		return 0, 0, err
	}
	h := rd.Header
	k := rd.next
	if k >= h.NumRows {
		return k, 0, io.EOF
	}
	if h.rowBytes > 0 && (k < rd.blockFirst || k >= rd.blockFirst+rd.blockRows) {
		rows := int(max(1, blockBytes/h.rowBytes))
		rows = min(rows, h.NumRows-k)
		need := int64(rows) * h.rowBytes
		if int64(cap(rd.block)) < need {
			rd.block = make([]byte, need)
		}
		rd.block = rd.block[:need]
		if _, err := rd.r.ReadAt(rd.block, h.dataOffset+int64(k)*h.rowBytes); err != nil {
			return k, 0, fmt.Errorf("outb: reading rows from %d: %w", k, err)
		}
		rd.blockFirst, rd.blockRows = k, rows
	}
	if h.rowBytes > 0 {
		off := int64(k-rd.blockFirst) * h.rowBytes
		rd.decodeRow(rd.block[off:off+h.rowBytes], dst)
	}
	rd.next++
	return k, h.TimeAt(k), nil
}

// ReadAll decodes every row into a columnar File.
func (rd *OutbReader) ReadAll() (*File, error) {
	h := rd.Header
	f := &File{
		Description: h.Description,
		TimeChannel: h.TimeChannel,
		Channels:    append([]Channel(nil), h.Channels...),
		Time:        make([]float64, h.NumRows),
		Data:        make([][]float64, len(h.Channels)),
		FileID:      h.FileID,
	}
	for c := range f.Data {
		f.Data[c] = make([]float64, h.NumRows)
	}
	for k := range f.Time {
		f.Time[k] = h.TimeAt(k)
	}
	if err := rd.decodeColumns(f.Data); err != nil {
		return nil, err
	}
	return f, nil
}

// columnBlockBytes sizes the blocks ReadAll decodes at once: small enough to
// stay in cache while each channel's values are gathered from it.
const columnBlockBytes = 256 << 10

// decodeColumns fills cols (one slice of NumRows per channel, nil for
// channels not wanted) block by
// block, channel by channel within a block, so that writes to each column
// are sequential and reads stay in a cached block.
func (rd *OutbReader) decodeColumns(cols [][]float64) error {
	h := rd.Header
	if h.rowBytes == 0 || h.NumRows == 0 {
		return nil
	}
	rows := int(max(1, columnBlockBytes/h.rowBytes))
	block := make([]byte, int64(rows)*h.rowBytes)
	n := len(h.Channels)
	for first := 0; first < h.NumRows; first += rows {
		m := min(rows, h.NumRows-first)
		buf := block[:int64(m)*h.rowBytes]
		if _, err := rd.r.ReadAt(buf, h.dataOffset+int64(first)*h.rowBytes); err != nil {
			return fmt.Errorf("outb: reading rows from %d: %w", first, err)
		}
		if h.FileID.packed() {
			for c := 0; c < n; c++ {
				if cols[c] == nil {
					continue // channel not requested
				}
				off, scl := float64(h.Offset[c]), float64(h.Scale[c])
				dst := cols[c][first : first+m]
				for r := range dst {
					p := int16(binary.LittleEndian.Uint16(buf[2*(r*n+c):]))
					dst[r] = (float64(p) - off) / scl
				}
			}
		} else {
			for c := 0; c < n; c++ {
				if cols[c] == nil {
					continue
				}
				dst := cols[c][first : first+m]
				for r := range dst {
					dst[r] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*(r*n+c):]))
				}
			}
		}
	}
	return nil
}

// ReadChannels decodes only the channels with the given indices (into
// Header.Channels) in one pass over the file. It returns the time column
// and one column per requested index.
func (rd *OutbReader) ReadChannels(idx []int) ([]float64, [][]float64, error) {
	h := rd.Header
	for _, c := range idx {
		if c < 0 || c >= len(h.Channels) {
			return nil, nil, fmt.Errorf("outb: channel index %d out of range [0, %d)", c, len(h.Channels))
		}
	}
	t := make([]float64, h.NumRows)
	for k := range t {
		t[k] = h.TimeAt(k)
	}
	cols := make([][]float64, len(h.Channels))
	out := make([][]float64, len(idx))
	for i, c := range idx {
		if cols[c] == nil {
			cols[c] = make([]float64, h.NumRows)
		}
		out[i] = cols[c]
	}
	if err := rd.decodeColumns(cols); err != nil {
		return nil, nil, err
	}
	return t, out, nil
}

// Index returns the index in Header.Channels of the named channel
// (case-insensitive), or -1.
func (rd *OutbReader) Index(name string) int {
	for i, ch := range rd.Header.Channels {
		if strings.EqualFold(ch.Name, name) {
			return i
		}
	}
	return -1
}

// ReadOutb reads a whole .outb file from r.
func ReadOutb(r io.Reader) (*File, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("outb: %w", err)
	}
	return ParseOutb(b)
}

// ParseOutb decodes a whole .outb file held in memory.
func ParseOutb(b []byte) (*File, error) {
	rd, err := NewOutbReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	return rd.ReadAll()
}

// ReadOutbFile reads a whole .outb file from disk.
func ReadOutbFile(path string) (*File, error) {
	rd, err := OpenOutb(path)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	f, err := rd.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
