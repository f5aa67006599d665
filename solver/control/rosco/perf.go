package rosco

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// PerfTable is a rotor performance surface as written by the ROSCO toolbox
// (Cp_Ct_Cq.*.txt): power, thrust and torque coefficients on a grid of blade
// pitch (deg, matrix columns) and tip-speed ratio (matrix rows).
type PerfTable struct {
	PitchDeg  []float64   // blade pitch angles (deg), increasing
	TSR       []float64   // tip-speed ratios, increasing
	WindSpeed []float64   // wind speeds the table was computed at (m/s)
	Cp        [][]float64 // Cp[iTSR][iPitch]
	Ct        [][]float64
	Cq        [][]float64
}

// ReadPerfTableFile reads a Cp/Ct/Cq file; see ReadPerfTable.
func ReadPerfTableFile(path string) (*PerfTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rosco: performance table: %w", err)
	}
	defer f.Close()
	t, err := ReadPerfTable(f)
	if err != nil {
		return nil, fmt.Errorf("rosco: performance table %s: %w", path, err)
	}
	return t, nil
}

// ReadPerfTable parses the ROSCO toolbox text format: '#' comment lines,
// then the pitch vector, the TSR vector and the wind-speed vector, each on
// one line, then the Cp, Ct and Cq matrices (one TSR per row). Blank lines
// are ignored. The matrix sizes are taken from the vectors.
func ReadPerfTable(r io.Reader) (*PerfTable, error) {
	var rows [][]float64
	var lineNos []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		row := make([]float64, len(fields))
		for i, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: field %d %q is not a number", n, i+1, f)
			}
			row[i] = v
		}
		rows = append(rows, row)
		lineNos = append(lineNos, n)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) < 3 {
		return nil, fmt.Errorf("need pitch, TSR and wind-speed vectors, found %d numeric lines", len(rows))
	}
	t := &PerfTable{PitchDeg: rows[0], TSR: rows[1], WindSpeed: rows[2]}
	np, nt := len(t.PitchDeg), len(t.TSR)
	if np < 2 || nt < 2 {
		return nil, fmt.Errorf("need at least 2 pitch angles and 2 TSRs, got %d and %d", np, nt)
	}
	for _, v := range [][]float64{t.PitchDeg, t.TSR} {
		for i := 1; i < len(v); i++ {
			if v[i] <= v[i-1] {
				return nil, fmt.Errorf("line %d: vector not strictly increasing at entry %d", lineNos[0], i+1)
			}
		}
	}
	body := rows[3:]
	if len(body) != 3*nt {
		return nil, fmt.Errorf("expected 3 matrices of %d rows (%d lines), found %d lines", nt, 3*nt, len(body))
	}
	for i, row := range body {
		if len(row) != np {
			return nil, fmt.Errorf("line %d: %d values, expected %d (one per pitch angle)", lineNos[3+i], len(row), np)
		}
	}
	t.Cp, t.Ct, t.Cq = body[:nt], body[nt:2*nt], body[2*nt:]
	return t, nil
}

// CpAt returns Cp by bilinear interpolation at pitch (deg) and tip-speed
// ratio, clamped to the table edges (ROSCO interp2d).
func (t *PerfTable) CpAt(pitchDeg, tsr float64) float64 {
	return bilinear(t.PitchDeg, t.TSR, t.Cp, pitchDeg, tsr)
}

// CtAt returns Ct like CpAt.
func (t *PerfTable) CtAt(pitchDeg, tsr float64) float64 {
	return bilinear(t.PitchDeg, t.TSR, t.Ct, pitchDeg, tsr)
}

func bilinear(x, y []float64, z [][]float64, qx, qy float64) float64 {
	i, wx := bracket(x, qx)
	j, wy := bracket(y, qy)
	z00, z01 := z[j][i], z[j][i+1]
	z10, z11 := z[j+1][i], z[j+1][i+1]
	return (1-wy)*((1-wx)*z00+wx*z01) + wy*((1-wx)*z10+wx*z11)
}
