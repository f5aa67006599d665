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
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/internal/fortran"
)

// BladedSummary holds what InflowWind reads from the TurbSim summary (.sum)
// that accompanies a Bladed-style .wnd file (Bladed_ReadTurbSimSummary in
// InflowWind_IO.f90).
type BladedSummary struct {
	// Clockwise: the rotor turns clockwise looking downwind; the .wnd then
	// stores its lateral columns from +y to -y.
	Clockwise bool
	// HubHeight is the reference height (m).
	HubHeight float64
	// UBar is the mean wind speed used to normalise u (m/s).
	UBar float64
	// TI holds the normalising turbulence intensities of u, v, w (percent).
	TI [3]float64
	// HeightOffset is how far the grid centre sits below the hub (m):
	// grid centre = HubHeight - HeightOffset.
	HeightOffset float64
	// Periodic marks a box that repeats in time.
	Periodic bool
	// LeftHandRule: positive v in the file points along -y (Bladed's
	// convention), so InflowWind flips its sign.
	LeftHandRule bool
}

// firstNumber reads the first blank- or comma-separated token of s as a
// number, as a Fortran list-directed READ of one real would. Errors do not
// quote the text: a message names the file and line, never its content.
func firstNumber(s string) (float64, error) {
	f := uniformFields(s)
	if len(f) == 0 {
		return 0, errors.New("no number where one is expected")
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, errors.New("the first field is not a number")
	}
	return v, nil
}

// ReadBladedSummary scans a TurbSim summary file for the Bladed scaling
// parameters, in InflowWind's order: an optional "CLOCKWISE" line before the
// hub height; "HUB HEIGHT" (or "ZHUB") with the height as first number;
// "UBAR" with the number after '=' and, on the next three lines, TI(u,v,w)
// between '=' and '%'; then optionally "HEIGHT OFFSET" (number after '='),
// and only after that "PERIODIC" and "BLADED LEFT-HAND RULE". Matching is
// case-insensitive. Hub height and UBar are required.
func ReadBladedSummary(r io.Reader) (*BladedSummary, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	s := &BladedSummary{}
	needClockwise, needHub, needUBar, needOffset, needPeriodic, needLHR := true, true, true, true, true, true
	line := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		line++
		return strings.ToUpper(sc.Text()), true
	}
	afterEquals := func(l string, upToPercent bool) (float64, error) {
		i := strings.Index(l, "=")
		rest := l[i+1:]
		if upToPercent {
			if j := strings.Index(rest, "%"); j > 0 {
				rest = rest[:j]
			}
		}
		return firstNumber(rest)
	}
	for needLHR {
		l, ok := next()
		if !ok {
			break
		}
		switch {
		case needHub:
			if needClockwise && strings.Contains(l, "CLOCKWISE") {
				if v, ok := fortran.Logical(l); ok {
					s.Clockwise = v
					needClockwise = false
				} else {
					switch strings.TrimSpace(l)[0] {
					case 'Y':
						s.Clockwise = true
					case 'N':
						s.Clockwise = false
					default:
						return nil, fmt.Errorf("bladed summary: line %d: cannot read the rotation direction (CLOCKWISE)", line)
					}
				}
			}
			if strings.Contains(l, "HUB HEIGHT") || strings.Contains(l, "ZHUB") {
				v, err := firstNumber(l)
				if err != nil {
					return nil, fmt.Errorf("bladed summary: line %d: hub height: %w", line, err)
				}
				s.HubHeight = v
				needHub = false
			}
		case needUBar:
			if !strings.Contains(l, "UBAR") {
				continue
			}
			v, err := afterEquals(l, false)
			if err != nil {
				return nil, fmt.Errorf("bladed summary: line %d: UBar: %w", line, err)
			}
			s.UBar = v
			for c := 0; c < 3; c++ {
				tl, ok := next()
				if !ok {
					return nil, fmt.Errorf("bladed summary: file ends before TI line %d", c+1)
				}
				if s.TI[c], err = afterEquals(tl, true); err != nil {
					return nil, fmt.Errorf("bladed summary: line %d: TI(%d): %w", line, c+1, err)
				}
			}
			needUBar = false
		case needOffset:
			if strings.Contains(l, "HEIGHT OFFSET") {
				v, err := afterEquals(l, false)
				if err != nil {
					return nil, fmt.Errorf("bladed summary: line %d: height offset: %w", line, err)
				}
				s.HeightOffset = v
				needOffset = false
			}
		default:
			if needPeriodic && strings.Contains(l, "PERIODIC") {
				s.Periodic = true
				needPeriodic = false
				continue
			}
			if strings.Contains(l, "BLADED LEFT-HAND RULE") {
				s.LeftHandRule = true
				needLHR = false
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bladed summary: line %d: %w", line+1, err)
	}
	if needHub || needUBar {
		return nil, fmt.Errorf("bladed summary: hub height and UBar with its three TI lines are required")
	}
	return s, nil
}

// BladedHeader is the decoded header of a Bladed-style .wnd file.
type BladedHeader struct {
	// FileID is the first int16: -1, -2 or -3 (old header, = -components) or
	// -99 (new header).
	FileID int16
	// TurbType is the turbulence model code of the new header (0 for old).
	TurbType int16
	NComp    int
	// DZ, DY, DX are the grid spacings (m); DX/MeanWS is the time step.
	DZ, DY, DX float64
	NStepsHalf int
	MeanWS     float64
	NZ, NY     int
	// TI holds intensities (percent) stored in the binary header (TurbType
	// 4 only); -1 where absent.
	TI [3]float64
	// dataOffset is where the velocity records start.
	dataOffset int
}

// parseBladedHeader decodes either header variant (Bladed_ReadHeader0/1).
func parseBladedHeader(b []byte) (*BladedHeader, error) {
	le := binary.LittleEndian
	pos := 0
	need := func(n int, what string) error {
		if len(b)-pos < n {
			return fmt.Errorf("wnd: truncated at byte %d reading %s", pos, what)
		}
		return nil
	}
	i16 := func() int16 { v := int16(le.Uint16(b[pos:])); pos += 2; return v }
	i32 := func() int32 { v := int32(le.Uint32(b[pos:])); pos += 4; return v }
	f32 := func() float64 { v := math.Float32frombits(le.Uint32(b[pos:])); pos += 4; return float64(v) }
	h := &BladedHeader{TI: [3]float64{-1, -1, -1}}
	if err := need(2, "file identifier"); err != nil {
		return nil, err
	}
	h.FileID = int16(le.Uint16(b))
	switch h.FileID {
	case -1, -2, -3:
		if err := need(26, "header"); err != nil {
			return nil, err
		}
		h.NComp = -int(i16())
		h.DZ = 0.001 * float64(i16())
		h.DY = 0.001 * float64(i16())
		h.DX = 0.001 * float64(i16())
		h.NStepsHalf = int(i16())
		h.MeanWS = 0.1 * float64(i16())
		pos += 5 * 2 // zLu, yLu, xLu, unused, seed
		h.NZ = int(i16()) / 1000
		h.NY = int(i16()) / 1000
		if h.NComp == 3 {
			if err := need(12, "length scales"); err != nil {
				return nil, err
			}
			pos += 12
		}
	case -99:
		if err := need(4, "turbulence type"); err != nil {
			return nil, err
		}
		pos = 2
		h.TurbType = i16()
		switch h.TurbType {
		case 1, 2:
			h.NComp = 1
		case 3, 5:
			h.NComp = 3
		case 4:
			if err := need(28, "improved von Karman header"); err != nil {
				return nil, err
			}
			h.NComp = int(i32())
			pos += 3 * 4 // latitude, roughness length, reference height
			for c := range h.TI {
				h.TI[c] = f32()
			}
		case 7, 8:
			if err := need(8, "header size and components"); err != nil {
				return nil, err
			}
			pos += 4
			h.NComp = int(i32())
		default:
			return nil, fmt.Errorf("wnd: unknown turbulence type %d", h.TurbType)
		}
		if err := need(48, "grid header"); err != nil {
			return nil, err
		}
		h.DZ, h.DY, h.DX = f32(), f32(), f32()
		h.NStepsHalf = int(i32())
		h.MeanWS = f32()
		pos += 3*4 + 2*4 // length scales of u, unused, seed
		h.NZ = int(i32())
		h.NY = int(i32())
		if h.NComp == 3 {
			if err := need(24, "v and w length scales"); err != nil {
				return nil, err
			}
			pos += 24
		}
		switch h.TurbType {
		case 7:
			if err := need(8, "coherence parameters"); err != nil {
				return nil, err
			}
			pos += 8
		case 8:
			if err := need(72, "Mann model parameters"); err != nil {
				return nil, err
			}
			pos += 72
		}
	default:
		return nil, fmt.Errorf("wnd: file identifier %d is not a Bladed-style file (-1, -2, -3 or -99)", h.FileID)
	}
	h.dataOffset = pos
	if h.NComp < 1 || h.NComp > 3 {
		return nil, fmt.Errorf("wnd: %d wind components (1 to 3 supported)", h.NComp)
	}
	if h.NY < 1 || h.NZ < 1 || h.NStepsHalf < 0 {
		return nil, fmt.Errorf("wnd: invalid grid %d×%d with %d half-steps", h.NY, h.NZ, h.NStepsHalf)
	}
	if !(h.MeanWS > 0) || !(h.DX > 0) || math.IsInf(h.MeanWS, 0) || math.IsInf(h.DX, 0) {
		return nil, fmt.Errorf("wnd: mean wind speed %g and dx %g must be positive", h.MeanWS, h.DX)
	}
	if (h.NY > 1 && !(h.DY > 0)) || (h.NZ > 1 && !(h.DZ > 0)) || math.IsInf(h.DY, 0) || math.IsInf(h.DZ, 0) {
		return nil, fmt.Errorf("wnd: grid spacings dy=%g dz=%g must be positive", h.DY, h.DZ)
	}
	return h, nil
}

// ParseBladed decodes a Bladed-style .wnd file with its summary, applying
// InflowWind's normalisation (Bladed_ReadGrids): each stored int16 n becomes
// V = offset + 0.001·MeanWS·TI/100·n with offset (MeanWS, 0, 0), the TI
// taken from the binary header when it has them (TurbType 4) and from the
// summary otherwise; v changes sign under the left-hand rule; columns are
// reversed for clockwise files so that iy = 0 is always y = -HalfWidth. The
// file holds 2·NStepsHalf steps, or one more. Components a file lacks are
// zero. The grid centre is at HubHeight - HeightOffset. The box has no tower
// points (InflowWind's separate .twr file is not read).
func ParseBladed(wnd []byte, sum *BladedSummary) (*FullField, *BladedHeader, error) {
	h, err := parseBladedHeader(wnd)
	if err != nil {
		return nil, nil, err
	}
	geom, grid, err := bladedBox(h, sum, int64(len(wnd)))
	if err != nil {
		return nil, nil, err
	}
	ff := geom
	ff.Grid, ff.Tower = make([]float32, 3*ff.NY*ff.NZ*ff.NT), []float32{}
	grid.decode(ff.Grid, 3*ff.NY*ff.NZ, wnd[h.dataOffset:], ff.NT)
	return ff, h, nil
}

// bladedGrid is how a .wnd file's int16 records become velocities
// (Bladed_ReadGrids): V = offset + scale·n per component, columns reversed
// for clockwise files.
type bladedGrid struct {
	ny, nz, nComp int
	clockwise     bool
	scale, offset [3]float64
}

// stepBytes is the size of one time step's records.
func (g *bladedGrid) stepBytes() int { return 2 * g.nComp * g.ny * g.nz }

// decode converts n steps of records in raw into dst, step s at
// dst[s·stride:], in the .bts layout; components the file lacks are zero.
func (g *bladedGrid) decode(dst []float32, stride int, raw []byte, n int) {
	le := binary.LittleEndian
	pos := 0
	for s := range n {
		out := dst[s*stride : s*stride+3*g.ny*g.nz]
		for iz := range g.nz {
			for col := range g.ny {
				iy := col
				if g.clockwise {
					iy = g.ny - 1 - col
				}
				k := 3 * (iz*g.ny + iy)
				for c := range 3 {
					if c >= g.nComp {
						out[k+c] = 0
						continue
					}
					v := float64(int16(le.Uint16(raw[pos:])))
					pos += 2
					out[k+c] = float32(g.offset[c] + g.scale[c]*v)
				}
			}
		}
	}
}

// bladedBox checks a .wnd header against its summary and the file's size
// and returns the box's geometry (no velocities) and how its records
// decode: the intensities come from the binary header when it has them
// (TurbSim type 4) and from the summary otherwise; the file holds
// 2·NStepsHalf steps, or one more.
func bladedBox(h *BladedHeader, sum *BladedSummary, fileBytes int64) (*FullField, *bladedGrid, error) {
	if math.Abs(sum.UBar-h.MeanWS) > 0.1 {
		return nil, nil, fmt.Errorf("wnd: mean wind speed %g in the .wnd and UBar %g in the summary differ by more than 0.1 m/s (files not generated together?)", h.MeanWS, sum.UBar)
	}
	ti := sum.TI
	for c := 0; c < 3; c++ {
		if h.TI[c] > 0 {
			ti[c] = h.TI[c]
		}
	}
	g := &bladedGrid{ny: h.NY, nz: h.NZ, nComp: h.NComp, clockwise: sum.Clockwise}
	for c := range g.scale {
		g.scale[c] = 0.001 * h.MeanWS * ti[c] / 100
	}
	g.offset[0] = h.MeanWS
	if sum.LeftHandRule {
		g.scale[1] = -g.scale[1]
	}
	data := fileBytes - int64(h.dataOffset)
	if int64(h.NY)*int64(h.NZ) > data {
		return nil, nil, fmt.Errorf("wnd: a %d×%d grid does not fit the %d data bytes", h.NY, h.NZ, data)
	}
	perStep := int64(h.NComp) * int64(h.NY) * int64(h.NZ) * 2
	steps := data / perStep
	want := 2 * int64(h.NStepsHalf)
	if steps != want && steps != want+1 || data != steps*perStep {
		return nil, nil, fmt.Errorf("wnd: %d bytes of data hold %.2f steps of %d bytes; header says %d (or %d)", data, float64(data)/float64(perStep), perStep, want, want+1)
	}
	if steps == 0 {
		return nil, nil, fmt.Errorf("wnd: no time steps")
	}
	ff := &FullField{NY: h.NY, NZ: h.NZ, NT: int(steps)}
	ff.DY, ff.DZ = h.DY, h.DZ
	ff.DT = h.DX / h.MeanWS
	ff.URef = h.MeanWS
	ff.ZHub = sum.HubHeight
	ff.GridBottom = sum.HubHeight - sum.HeightOffset - ff.HalfHeight()
	ff.Periodic = sum.Periodic
	return ff, g, nil
}

// ReadBladedFiles reads <root>.wnd and <root>.sum, and with withTower the
// tower file <root>.twr (InflowWind's TowerFile flag), whole into memory;
// path may name the .wnd or the root without extension, as InflowWind's
// FilenameRoot does. A run streams the box instead (OpenBladedStream).
func ReadBladedFiles(path string, withTower bool) (*FullField, *BladedSummary, error) {
	root := strings.TrimSuffix(path, ".wnd")
	sf, err := os.Open(root + ".sum")
	if err != nil {
		return nil, nil, fmt.Errorf("bladed: %w", err)
	}
	defer sf.Close()
	sum, err := ReadBladedSummary(io.LimitReader(sf, maxBladedSummaryBytes))
	if err != nil {
		return nil, nil, fmt.Errorf("%s.sum: %w", root, err)
	}
	wnd, err := os.ReadFile(root + ".wnd")
	if err != nil {
		return nil, nil, fmt.Errorf("bladed: %w", err)
	}
	ff, _, err := ParseBladed(wnd, sum)
	if err != nil {
		return nil, nil, fmt.Errorf("%s.wnd: %w", root, err)
	}
	if withTower {
		twr, err := os.ReadFile(root + ".twr")
		if err != nil {
			return nil, nil, fmt.Errorf("bladed tower: %w", err)
		}
		if err := ParseBladedTower(twr, ff); err != nil {
			return nil, nil, fmt.Errorf("%s.twr: %w", root, err)
		}
	}
	return ff, sum, nil
}

// bladedTowerHeaderBytes: float32 dz, dx, zmax; int32 steps, points;
// float32 UHub, TI(3).
const bladedTowerHeaderBytes = 36

// ParseBladedTower reads a TurbSim .twr tower file into ff, a box read from
// the matching .wnd (Bladed_ReadTower): the header must agree with the box
// to 1e-4 in dz, time step, top height (= grid bottom) and mean speed, and
// exactly in the number of steps. Each stored int16 n becomes
// V = UHub·(offset + 1e-5·TI·n) with offset (1, 0, 0) and the header's TI
// (percent); as in InflowWind, no left-hand-rule sign change is applied.
// Tower point i lies at GridBottom - i·DZ.
func ParseBladedTower(twr []byte, ff *FullField) error {
	tw, err := bladedTowerHeader(twr, ff, int64(len(twr)))
	if err != nil {
		return err
	}
	tower := make([]float32, 3*tw.nz*ff.NT)
	tw.decode(tower, 3*tw.nz, 0, twr[bladedTowerHeaderBytes:], ff.NT)
	ff.NTower, ff.Tower = tw.nz, tower
	return nil
}

// bladedTower is how a .twr file's int16 records become velocities.
type bladedTower struct {
	nz   int
	uHub float64
	ti   [3]float64
}

// bladedTowerHeader checks the header of a .twr file of fileBytes bytes
// (hdr holds at least its first bladedTowerHeaderBytes) against the box.
func bladedTowerHeader(hdr []byte, ff *FullField, fileBytes int64) (*bladedTower, error) {
	if len(hdr) < bladedTowerHeaderBytes || fileBytes < bladedTowerHeaderBytes {
		return nil, fmt.Errorf("twr: %d bytes, shorter than the %d-byte header", fileBytes, bladedTowerHeaderBytes)
	}
	le := binary.LittleEndian
	f32 := func(off int) float64 { return float64(math.Float32frombits(le.Uint32(hdr[off:]))) }
	dz, dx, zmax := f32(0), f32(4), f32(8)
	steps, nz := int(int32(le.Uint32(hdr[12:]))), int(int32(le.Uint32(hdr[16:])))
	tw := &bladedTower{nz: nz, uHub: f32(20), ti: [3]float64{f32(24), f32(28), f32(32)}}
	const tol = 1e-4
	switch {
	case math.Abs(dz/ff.DZ-1) > tol:
		return nil, fmt.Errorf("twr: dz %g does not match the box's %g", dz, ff.DZ)
	case math.Abs(dx/ff.URef/ff.DT-1) > tol:
		return nil, fmt.Errorf("twr: time step %g does not match the box's %g", dx/ff.URef, ff.DT)
	case math.Abs(zmax/ff.GridBottom-1) > tol:
		return nil, fmt.Errorf("twr: top point at %g m, grid bottom at %g m", zmax, ff.GridBottom)
	case steps != ff.NT:
		return nil, fmt.Errorf("twr: %d steps, box has %d", steps, ff.NT)
	case math.Abs(tw.uHub/ff.URef-1) > tol:
		return nil, fmt.Errorf("twr: mean speed %g does not match the box's %g", tw.uHub, ff.URef)
	case nz < 0:
		return nil, fmt.Errorf("twr: %d tower points", nz)
	}
	data := fileBytes - bladedTowerHeaderBytes
	if int64(nz)*3*2*int64(steps) != data {
		return nil, fmt.Errorf("twr: %d data bytes, %d steps of %d points need %d", data, steps, nz, int64(nz)*6*int64(steps))
	}
	return tw, nil
}

// decode converts n steps of records in raw into dst, step s at
// dst[s·stride+at:] (V = UHub·(offset + 1e-5·TI·n), offset (1, 0, 0)).
func (tw *bladedTower) decode(dst []float32, stride, at int, raw []byte, n int) {
	le := binary.LittleEndian
	offset := [3]float64{1, 0, 0}
	per := 3 * tw.nz
	for s := range n {
		out := dst[s*stride+at : s*stride+at+per]
		rec := raw[2*s*per:]
		for i := range out {
			c := i % 3
			v := float64(int16(le.Uint16(rec[2*i:])))
			out[i] = float32(tw.uHub * (offset[c] + 0.00001*tw.ti[c]*v))
		}
	}
}

// WriteBladed writes ff as a Bladed-style .wnd (new header -99, turbulence
// type 4, three components, intensities in the header) and its summary, in
// the conventions InflowWind's own Bladed writer uses: counter-clockwise
// column order, left-hand rule (v stored negated), u stored about URef. Each
// component's normalising sigma is the larger of its mean standard deviation
// over the grid and 5 % of its largest deviation from the offset, so every
// value fits the int16 range with steps of 0.001·sigma. The box's tower
// points are not written.
func WriteBladed(wnd, sum io.Writer, ff *FullField) error {
	if err := ff.Validate(); err != nil {
		return err
	}
	if !(ff.URef > 0) {
		return fmt.Errorf("wnd: URef %g must be positive (it sets the time step dx/URef)", ff.URef)
	}
	for i, v := range ff.Grid {
		if !isFinite32(v) {
			return fmt.Errorf("wnd: grid value %d is %g: %w", i, v, ErrNonFiniteWind)
		}
	}
	meanWS := float64(float32(ff.URef))
	offset := [3]float64{meanWS, 0, 0}
	nPts := ff.NY * ff.NZ
	var sigma [3]float64
	for c := 0; c < 3; c++ {
		// Mean over grid points of each point's standard deviation in time.
		var sdSum, maxDev float64
		for p := 0; p < nPts; p++ {
			var s, s2 float64
			for it := 0; it < ff.NT; it++ {
				v := float64(ff.Grid[(it*nPts+p)*3+c])
				s += v
				s2 += v * v
				maxDev = math.Max(maxDev, math.Abs(v-offset[c]))
			}
			m := s / float64(ff.NT)
			sdSum += math.Sqrt(math.Max(s2/float64(ff.NT)-m*m, 0))
		}
		sigma[c] = math.Max(math.Max(sdSum/float64(nPts), 0.05*maxDev), 1e-4)
	}
	// The reader rebuilds the step 0.001·MeanWS·TI/100 from float32 header
	// values, so the writer packs with exactly that step.
	var ti [3]float32
	var step [3]float64
	for c := range ti {
		ti[c] = float32(100 * sigma[c] / meanWS)
		step[c] = 0.001 * meanWS * float64(ti[c]) / 100
	}
	var hdr bytes.Buffer
	put := func(v any) { binary.Write(&hdr, binary.LittleEndian, v) }
	put(int16(-99))
	put(int16(4))
	put(int32(3))
	put([3]float32{0, 0.03, float32(ff.ZHub)}) // latitude, roughness length, reference height (informational)
	put(ti)
	put([3]float32{float32(ff.DZ), float32(ff.DY), float32(ff.DT * meanWS)})
	put(int32(ff.NT / 2))
	put(float32(meanWS))
	put([3]float32{}) // length scales of u
	put([2]int32{})   // unused, seed
	put([2]int32{int32(ff.NZ), int32(ff.NY)})
	put([6]float32{}) // length scales of v and w
	bw := bufio.NewWriterSize(wnd, 256<<10)
	bw.Write(hdr.Bytes())
	buf := make([]byte, 2*3*nPts)
	for it := 0; it < ff.NT; it++ {
		pos := 0
		for p := 0; p < nPts; p++ {
			for c := 0; c < 3; c++ {
				v := float64(ff.Grid[(it*nPts+p)*3+c])
				n := (v - offset[c]) / step[c]
				if c == 1 {
					n = -n // left-hand rule
				}
				n = math.Round(math.Min(math.Max(n, -32768), 32767))
				binary.LittleEndian.PutUint16(buf[pos:], uint16(int16(n)))
				pos += 2
			}
		}
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("wnd: writing step %d: %w", it, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("wnd: %w", err)
	}
	heightOffset := ff.ZHub - ff.HalfHeight() - ff.GridBottom
	var sb strings.Builder
	sb.WriteString("\nTurbSim-compatible summary written by turbinesim for a Bladed-style wind file.\n\n\n")
	fmt.Fprintf(&sb, "%10s  Clockwise rotation when looking downwind?\n", "F")
	fmt.Fprintf(&sb, "%10.3f  Hub height [m]\n", ff.ZHub)
	fmt.Fprintf(&sb, "%10.3f  Grid height [m]\n", 2*ff.HalfHeight())
	fmt.Fprintf(&sb, "%10.3f  Grid width [m]\n", 2*ff.HalfWidth())
	sb.WriteString("\nBLADED-style binary scaling parameters:\n\n")
	fmt.Fprintf(&sb, "  UBar  = %s m/s\n", strconv.FormatFloat(meanWS, 'g', -1, 64))
	for c, name := range []string{"u", "v", "w"} {
		fmt.Fprintf(&sb, "  TI(%s) = %s %%\n", name, strconv.FormatFloat(float64(ti[c]), 'g', -1, 32))
	}
	fmt.Fprintf(&sb, "\n  Height offset = %s m\n", strconv.FormatFloat(heightOffset, 'g', -1, 64))
	fmt.Fprintf(&sb, "  Grid Base     = %s m\n", strconv.FormatFloat(ff.GridBottom, 'g', -1, 64))
	if ff.Periodic {
		sb.WriteString("\nCreating a PERIODIC output file.\n")
	}
	sb.WriteString("Creating a BLADED LEFT-HAND RULE output file.\n")
	if _, err := io.WriteString(sum, sb.String()); err != nil {
		return fmt.Errorf("wnd summary: %w", err)
	}
	return nil
}
