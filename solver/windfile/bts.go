// Package windfile reads and writes the wind input files of InflowWind:
// TurbSim full-field binary boxes (.bts, WindType 3), Bladed-style
// full-field files (.wnd with TurbSim's .sum, WindType 4) and uniform
// ("hub-height") wind text files (WindType 2).
//
// Conventions follow InflowWind v5.0.0 (InflowWind_IO.f90, IfW_FlowField.f90).
// The package only holds the data and the geometry of the grid;
// interpolation in space and time
// (Taylor's frozen turbulence) belongs to solver/inflow.
package windfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// TurbSim .bts format identifiers (first int16 of the file).
const (
	BTSFileIDNonPeriodic int16 = 7
	BTSFileIDPeriodic    int16 = 8
)

// btsHeaderBytes is the fixed part of the header: int16 ID, 4 int32 counts,
// 6 float32 geometry values, 6 float32 scaling values, int32 description
// length (TurbSim User's Guide, Appendix; InflowWind TurbSimHeaderType).
const btsHeaderBytes = 2 + 4*4 + 6*4 + 6*4 + 4

// FullField is a turbulence box on a regular y-z grid marching in time, plus
// optional tower points below it.
//
// Geometry (InflowWind IfW_TurbSim_Init): lateral positions
// y_iy = -HalfWidth + iy*DY with HalfWidth = (NY-1)*DY/2, centred on the hub;
// heights z_iz = GridBottom + iz*DZ; time t_it = it*DT. Tower point i lies
// on the tower axis (y = 0) at z = GridBottom - i*DZ (the first one at the
// grid's bottom row, the rest below it down towards the ground).
//
// Velocities are stored as float32, as InflowWind stores them, in the file's
// order: Grid[((it*NZ+iz)*NY+iy)*3+c] for component c (0 = u along the mean
// wind, 1 = v lateral, 2 = w vertical); Tower[(it*NTower+i)*3+c].
type FullField struct {
	NY, NZ, NT, NTower int
	DY, DZ, DT         float64 // grid spacings (m, m, s)
	// URef is the mean wind speed at hub height stored by TurbSim (header
	// "UHub"); InflowWind propagates the box at this speed.
	URef float64
	// ZHub is the hub (reference) height of the box (m).
	ZHub float64
	// GridBottom is the height of the lowest grid row (m).
	GridBottom float64
	// Periodic marks a box TurbSim generated to repeat in time (FileID 8):
	// InflowWind then starts the box at the rotor (InitXPosition 0) and wraps
	// time modulo NT*DT; otherwise the box starts HalfWidth upstream and
	// spans (NT-1)*DT.
	Periodic    bool
	Description string
	Grid        []float32
	Tower       []float32
}

// GridIndex returns the index of component c at (it, iz, iy) in Grid.
func (ff *FullField) GridIndex(it, iz, iy, c int) int {
	return ((it*ff.NZ+iz)*ff.NY+iy)*3 + c
}

// TowerIndex returns the index of component c of tower point i at it in Tower.
func (ff *FullField) TowerIndex(it, i, c int) int {
	return (it*ff.NTower+i)*3 + c
}

// Vel returns the three velocity components at grid node (it, iz, iy).
func (ff *FullField) Vel(it, iz, iy int) [3]float32 {
	k := ff.GridIndex(it, iz, iy, 0)
	return [3]float32{ff.Grid[k], ff.Grid[k+1], ff.Grid[k+2]}
}

// TowerVel returns the three velocity components at tower point i.
func (ff *FullField) TowerVel(it, i int) [3]float32 {
	k := ff.TowerIndex(it, i, 0)
	return [3]float32{ff.Tower[k], ff.Tower[k+1], ff.Tower[k+2]}
}

// HalfWidth is half the lateral extent of the grid, (NY-1)*DY/2 (YHWid).
func (ff *FullField) HalfWidth() float64 { return 0.5 * float64(ff.NY-1) * ff.DY }

// HalfHeight is half the vertical extent of the grid, (NZ-1)*DZ/2 (ZHWid).
func (ff *FullField) HalfHeight() float64 { return 0.5 * float64(ff.NZ-1) * ff.DZ }

// Y returns the lateral coordinate of grid column iy.
func (ff *FullField) Y(iy int) float64 { return -ff.HalfWidth() + float64(iy)*ff.DY }

// Z returns the height of grid row iz.
func (ff *FullField) Z(iz int) float64 { return ff.GridBottom + float64(iz)*ff.DZ }

// TowerZ returns the height of tower point i.
func (ff *FullField) TowerZ(i int) float64 { return ff.GridBottom - float64(i)*ff.DZ }

// Time returns the time of step it.
func (ff *FullField) Time(it int) float64 { return float64(it) * ff.DT }

// Duration is the time span InflowWind can use: NT*DT for a periodic box,
// (NT-1)*DT otherwise (TotalTime in IfW_TurbSim_Init).
func (ff *FullField) Duration() float64 {
	if ff.Periodic {
		return float64(ff.NT) * ff.DT
	}
	return float64(ff.NT-1) * ff.DT
}

// InitXPosition is how far upstream of the rotor the box starts: HalfWidth
// for non-periodic boxes (so the whole grid has passed the rotor plane
// before its data are needed), 0 for periodic ones.
func (ff *FullField) InitXPosition() float64 {
	if ff.Periodic {
		return 0
	}
	return ff.HalfWidth()
}

// Validate checks the dimensions and the sizes of the velocity slices.
func (ff *FullField) Validate() error {
	if ff.NY < 1 || ff.NZ < 1 || ff.NT < 1 || ff.NTower < 0 {
		return fmt.Errorf("windfile: grid %d×%d×%d with %d tower points: every dimension must be at least 1", ff.NY, ff.NZ, ff.NT, ff.NTower)
	}
	if !(ff.DT > 0) || !(ff.DY > 0 || ff.NY == 1) || !(ff.DZ > 0 || ff.NZ == 1) {
		return fmt.Errorf("windfile: spacings dy=%g dz=%g dt=%g must be positive", ff.DY, ff.DZ, ff.DT)
	}
	if want := 3 * ff.NY * ff.NZ * ff.NT; len(ff.Grid) != want {
		return fmt.Errorf("windfile: grid holds %d values, %d×%d×%d×3 = %d expected", len(ff.Grid), ff.NT, ff.NZ, ff.NY, want)
	}
	if want := 3 * ff.NTower * ff.NT; len(ff.Tower) != want {
		return fmt.Errorf("windfile: tower holds %d values, %d expected", len(ff.Tower), want)
	}
	return nil
}

// NewFullField allocates a zero box with the given dimensions.
func NewFullField(ny, nz, nt, nTower int) *FullField {
	return &FullField{
		NY: ny, NZ: nz, NT: nt, NTower: nTower,
		Grid:  make([]float32, 3*ny*nz*nt),
		Tower: make([]float32, 3*nTower*nt),
	}
}

// ReadBTS reads a TurbSim .bts file.
func ReadBTS(r io.Reader) (*FullField, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	return ParseBTS(b)
}

// ReadBTSFile reads a TurbSim .bts file from disk.
func ReadBTSFile(path string) (*FullField, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	ff, err := ParseBTS(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ff, nil
}

// ParseBTS decodes a .bts file held in memory. Velocities are decoded in
// single precision, (raw - offset)/slope, exactly as InflowWind does, so
// values match OpenFAST's to the bit.
func ParseBTS(b []byte) (*FullField, error) {
	h, err := parseBTSHeader(b, int64(len(b)))
	if err != nil {
		return nil, err
	}
	ff := h.box
	nChar := h.dataOffset - btsHeaderBytes
	ff.Description = string(bytes.TrimRight(b[btsHeaderBytes:btsHeaderBytes+nChar], " \x00"))
	data := b[h.dataOffset:]
	ff.Grid = make([]float32, 3*ff.NY*ff.NZ*ff.NT)
	ff.Tower = make([]float32, 3*ff.NTower*ff.NT)
	gridPerStep := 3 * ff.NY * ff.NZ
	towerPerStep := 3 * ff.NTower
	pos := 0
	for it := 0; it < ff.NT; it++ {
		h.decode(ff.Grid[it*gridPerStep:(it+1)*gridPerStep], data[pos:])
		pos += 2 * gridPerStep
		h.decode(ff.Tower[it*towerPerStep:(it+1)*towerPerStep], data[pos:])
		pos += 2 * towerPerStep
	}
	return ff, nil
}

// btsHeader is a parsed .bts header: the box's geometry (Grid and Tower
// nil, no description), the int16 scaling of each component and where the
// velocities start.
type btsHeader struct {
	box           *FullField
	slope, offset [3]float32
	dataOffset    int64
}

// parseBTSHeader decodes the fixed header at the start of b (at least
// btsHeaderBytes long) of a file of size bytes, and checks that the file
// holds exactly the velocities the header announces. Sizes are checked in
// int64 against the bytes present before any allocation, so a corrupt
// header cannot request a huge box.
func parseBTSHeader(b []byte, size int64) (*btsHeader, error) {
	if len(b) < btsHeaderBytes || size < btsHeaderBytes {
		return nil, fmt.Errorf("bts: %d bytes, shorter than the %d-byte header", size, btsHeaderBytes)
	}
	le := binary.LittleEndian
	id := int16(le.Uint16(b[0:]))
	if id != BTSFileIDNonPeriodic && id != BTSFileIDPeriodic {
		return nil, fmt.Errorf("bts: FileID %d, expected 7 (non-periodic) or 8 (periodic)", id)
	}
	i32 := func(off int) int { return int(int32(le.Uint32(b[off:]))) }
	f32 := func(off int) float32 { return math.Float32frombits(le.Uint32(b[off:])) }
	nz, ny, nTwr, nt := i32(2), i32(6), i32(10), i32(14)
	if nz < 1 || ny < 1 || nTwr < 0 || nt < 1 {
		return nil, fmt.Errorf("bts: invalid dimensions NZ=%d NY=%d NTwr=%d NT=%d", nz, ny, nTwr, nt)
	}
	h := &btsHeader{box: &FullField{
		NY: ny, NZ: nz, NT: nt, NTower: nTwr,
		DZ: float64(f32(18)), DY: float64(f32(22)), DT: float64(f32(26)),
		URef: float64(f32(30)), ZHub: float64(f32(34)), GridBottom: float64(f32(38)),
		Periodic: id == BTSFileIDPeriodic,
	}}
	for c := 0; c < 3; c++ {
		h.slope[c] = f32(42 + 8*c)
		h.offset[c] = f32(46 + 8*c)
		if h.slope[c] == 0 || !isFinite32(h.slope[c]) || !isFinite32(h.offset[c]) {
			return nil, fmt.Errorf("bts: component %d has invalid scaling (slope %g, offset %g)", c, h.slope[c], h.offset[c])
		}
	}
	nChar := int64(i32(66))
	if nChar < 0 || nChar > size-btsHeaderBytes {
		return nil, fmt.Errorf("bts: description length %d does not fit the %d-byte file", nChar, size)
	}
	h.dataOffset = btsHeaderBytes + nChar
	data := size - h.dataOffset
	perStep := 3 * (int64(ny)*int64(nz) + int64(nTwr))
	if perStep > data || int64(nt) > data/(2*perStep) {
		return nil, fmt.Errorf("bts: %d steps of %d values need %d bytes, file has %d after the header", nt, perStep, 2*perStep*int64(nt), data)
	}
	if extra := data - 2*perStep*int64(nt); extra != 0 {
		return nil, fmt.Errorf("bts: %d bytes after the last time step", extra)
	}
	if err := h.box.checkGeometry(); err != nil {
		return nil, err
	}
	return h, nil
}

// decode fills dst (u, v, w triplets) from the int16 values at the start
// of src: (raw - offset)/slope in single precision, as InflowWind decodes.
func (h *btsHeader) decode(dst []float32, src []byte) {
	le := binary.LittleEndian
	src = src[:2*len(dst)]
	for i := 0; i+2 < len(dst); i += 3 {
		dst[i] = (float32(int16(le.Uint16(src[2*i:]))) - h.offset[0]) / h.slope[0]
		dst[i+1] = (float32(int16(le.Uint16(src[2*i+2:]))) - h.offset[1]) / h.slope[1]
		dst[i+2] = (float32(int16(le.Uint16(src[2*i+4:]))) - h.offset[2]) / h.slope[2]
	}
}

// checkGeometry rejects spacings and heights InflowWind could not use.
func (ff *FullField) checkGeometry() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"dz", ff.DZ}, {"dy", ff.DY}, {"dt", ff.DT}, {"URef", ff.URef}, {"zHub", ff.ZHub}, {"zBottom", ff.GridBottom}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Errorf("bts: %s is %g", v.name, v.x)
		}
	}
	if !(ff.DT > 0) {
		return fmt.Errorf("bts: time step %g must be positive", ff.DT)
	}
	if (ff.NY > 1 && !(ff.DY > 0)) || (ff.NZ > 1 && !(ff.DZ > 0)) {
		return fmt.Errorf("bts: grid spacings dy=%g dz=%g must be positive", ff.DY, ff.DZ)
	}
	return nil
}

func isFinite32(x float32) bool {
	return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
}

// Scaling constants of TurbSim's binary writer (single precision).
const (
	btsIntMin = float32(-32768)
	btsIntMax = float32(32767)
	btsIntRng = float32(65535)
)

// BTSScale returns TurbSim's per-component slope and offset for values in
// [lo, hi]: the range maps onto the full int16 span; a constant component
// gets slope 1 (TurbSim's WrBinTURBSIM convention).
func BTSScale(lo, hi float32) (slope, offset float32) {
	if hi > lo {
		slope = btsIntRng / (hi - lo)
	} else {
		slope = 1
	}
	return slope, btsIntMin - slope*lo
}

func btsPack(v, slope, offset float32) int16 {
	x := float32(v*slope) + offset // conversion prevents a fused multiply-add
	x = min(max(x, btsIntMin), btsIntMax)
	return int16(math.Round(float64(x)))
}

// ErrNonFiniteWind reports NaN or Inf in a box being written.
var ErrNonFiniteWind = errors.New("non-finite wind velocity")

// WriteBTS writes ff as a TurbSim .bts file (FileID 8 if ff.Periodic, else
// 7). Each component is packed to int16 with a slope and offset spanning its
// range over grid and tower together, so the round trip error is at most
// half a step, (max-min)/65535/2, plus float32 rounding.
func WriteBTS(w io.Writer, ff *FullField) error {
	if err := ff.Validate(); err != nil {
		return err
	}
	if err := ff.checkGeometry(); err != nil {
		return err
	}
	if int64(len(ff.Description)) > math.MaxInt32 {
		return fmt.Errorf("bts: description too long")
	}
	var lo, hi [3]float32
	for c := range lo {
		lo[c], hi[c] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	for _, vals := range [][]float32{ff.Grid, ff.Tower} {
		for i, v := range vals {
			if !isFinite32(v) {
				return fmt.Errorf("bts: value %d is %g: %w", i, v, ErrNonFiniteWind)
			}
			c := i % 3
			lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
		}
	}
	var slope, offset [3]float32
	for c := range slope {
		slope[c], offset[c] = BTSScale(lo[c], hi[c])
	}
	id := BTSFileIDNonPeriodic
	if ff.Periodic {
		id = BTSFileIDPeriodic
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	hdr := []any{
		id, int32(ff.NZ), int32(ff.NY), int32(ff.NTower), int32(ff.NT),
		float32(ff.DZ), float32(ff.DY), float32(ff.DT), float32(ff.URef), float32(ff.ZHub), float32(ff.GridBottom),
		slope[0], offset[0], slope[1], offset[1], slope[2], offset[2],
		int32(len(ff.Description)),
	}
	for _, v := range hdr {
		if err := binary.Write(bw, binary.LittleEndian, v); err != nil {
			return fmt.Errorf("bts: writing header: %w", err)
		}
	}
	if _, err := bw.WriteString(ff.Description); err != nil {
		return fmt.Errorf("bts: %w", err)
	}
	gridPerStep := 3 * ff.NY * ff.NZ
	buf := make([]byte, 2*(gridPerStep+3*ff.NTower))
	for it := 0; it < ff.NT; it++ {
		pos := 0
		for i, v := range ff.Grid[it*gridPerStep : (it+1)*gridPerStep] {
			binary.LittleEndian.PutUint16(buf[pos:], uint16(btsPack(v, slope[i%3], offset[i%3])))
			pos += 2
		}
		for i, v := range ff.Tower[it*3*ff.NTower : (it+1)*3*ff.NTower] {
			binary.LittleEndian.PutUint16(buf[pos:], uint16(btsPack(v, slope[i%3], offset[i%3])))
			pos += 2
		}
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("bts: writing step %d: %w", it, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bts: %w", err)
	}
	return nil
}

// WriteBTSFile writes ff to path atomically (temporary file, then rename).
func WriteBTSFile(path string, ff *FullField) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("bts: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = WriteBTS(tmp, ff); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("bts: %w", err)
	}
	return nil
}

// ReadBTSHeaderFile reads only the fixed header of a TurbSim .bts file: the
// dimensions, spacings, reference speed and heights and whether the box is
// periodic, without the velocities (FullField.Grid and Tower stay nil). The
// file's size must match the header's dimensions, as ParseBTS requires, so
// the duration it reports is the one a run would get.
func ReadBTSHeaderFile(path string) (*FullField, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	defer f.Close()
	h, err := readBTSHeader(f)
	if err != nil {
		return nil, err
	}
	return h.box, nil
}

// readBTSHeader reads and checks the fixed header of an open .bts file.
func readBTSHeader(f *os.File) (*btsHeader, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("bts: %w", err)
	}
	return readBTSHeaderAt(f, fi.Size())
}

// ReadBTSHeader is ReadBTSHeaderFile for a .bts of size bytes read
// through r; its errors carry no file name.
func ReadBTSHeader(r io.ReaderAt, size int64) (*FullField, error) {
	h, err := readBTSHeaderAt(r, size)
	if err != nil {
		return nil, err
	}
	return h.box, nil
}

func readBTSHeaderAt(r io.ReaderAt, size int64) (*btsHeader, error) {
	var b [btsHeaderBytes]byte
	if size < btsHeaderBytes {
		return nil, fmt.Errorf("bts: %d bytes, shorter than the %d-byte header", size, btsHeaderBytes)
	}
	if _, err := r.ReadAt(b[:], 0); err != nil {
		return nil, fmt.Errorf("bts: header: %w", err)
	}
	return parseBTSHeader(b[:], size)
}
