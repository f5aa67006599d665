package windfile

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// UniformRow is one line of an InflowWind uniform wind file (WindType 2),
// columns as InflowWind_IO.f90 UniformWind_ReadFile reads them.
type UniformRow struct {
	Time float64 // s
	// HorSpeed is the horizontal wind speed at the reference height (m/s).
	HorSpeed float64
	// Direction is the wind direction (deg, meteorological: positive
	// rotates the wind towards -Y, as InflowWind's PropagationDir).
	Direction float64
	// VertSpeed is the vertical wind speed (m/s).
	VertSpeed float64
	// HorShear is the horizontal linear shear (-), scaled by RefLength.
	HorShear float64
	// PowerLawExp is the vertical power-law shear exponent (-).
	PowerLawExp float64
	// LinVertShear is the vertical linear shear (-), scaled by RefLength.
	LinVertShear float64
	// GustSpeed is added to the horizontal speed (m/s).
	GustSpeed float64
	// Upflow is the upflow angle (deg); the 9th column, 0 when absent.
	Upflow float64
}

// Uniform is a uniform wind time series. InflowWind interpolates it
// linearly in time and holds the first and last rows outside its span.
type Uniform struct {
	// Comments are the comment lines of the file (leading '!', '#' or '%').
	Comments []string
	Rows     []UniformRow
	// HasUpflow is true when the file has the 9th (upflow) column.
	HasUpflow bool
}

// isCommentLine reports lines InflowWind's ProcessComFile drops: blank lines
// and those starting with one of the NWTC comment characters "!#%".
func isCommentLine(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.ContainsRune("!#%", rune(t[0]))
}

// uniformFields splits a data line as Fortran list-directed input would:
// at blanks, TABs and commas.
func uniformFields(l string) []string {
	return strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
}

// leadingNumbers parses up to n leading numeric fields; it stops at the
// first field that is not a number (Fortran reads the first n values and
// ignores what follows, so a trailing comment is harmless).
func leadingNumbers(fields []string, n int) []float64 {
	out := make([]float64, 0, n)
	for _, f := range fields {
		if len(out) == n {
			break
		}
		v, err := strconv.ParseFloat(strings.Replace(strings.Replace(f, "d", "e", 1), "D", "E", 1), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			break
		}
		out = append(out, v)
	}
	return out
}

// ReadUniform reads a uniform wind file. As InflowWind does, the first data
// line decides whether the 9th (upflow) column is present; every line must
// then have at least that many numbers, and later columns are ignored.
// Times must not decrease (repeated times make steps).
func ReadUniform(r io.Reader) (*Uniform, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	u := &Uniform{}
	nCols := 0
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if isCommentLine(l) {
			if t := strings.TrimSpace(l); t != "" {
				u.Comments = append(u.Comments, t)
			}
			continue
		}
		fields := uniformFields(l)
		if nCols == 0 {
			nCols = 9
			if len(leadingNumbers(fields, 9)) < 9 {
				nCols = 8
			}
		}
		v := leadingNumbers(fields, nCols)
		if len(v) < nCols {
			return nil, fmt.Errorf("uniform wind: line %d has %d numbers, expected %d", line, len(v), nCols)
		}
		row := UniformRow{Time: v[0], HorSpeed: v[1], Direction: v[2], VertSpeed: v[3], HorShear: v[4], PowerLawExp: v[5], LinVertShear: v[6], GustSpeed: v[7]}
		if nCols == 9 {
			row.Upflow = v[8]
		}
		if n := len(u.Rows); n > 0 && row.Time < u.Rows[n-1].Time {
			return nil, fmt.Errorf("uniform wind: line %d: time %g before the previous row's %g", line, row.Time, u.Rows[n-1].Time)
		}
		u.Rows = append(u.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("uniform wind: line %d: %w", line+1, err)
	}
	if len(u.Rows) == 0 {
		return nil, fmt.Errorf("uniform wind: no data lines")
	}
	u.HasUpflow = nCols == 9
	return u, nil
}

// ReadUniformFile reads a uniform wind file from disk.
func ReadUniformFile(path string) (*Uniform, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("uniform wind: %w", err)
	}
	defer f.Close()
	u, err := ReadUniform(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return u, nil
}

// UnwrappedDirections returns the directions (deg) with multiples of 360°
// removed so that consecutive rows differ by less than 180°, as InflowWind
// does before interpolating (so 350° → 10° turns through north).
func (u *Uniform) UnwrappedDirections() []float64 {
	d := make([]float64, len(u.Rows))
	for i, r := range u.Rows {
		d[i] = r.Direction
		if i == 0 {
			continue
		}
		diff := d[i] - d[i-1]
		if math.Abs(diff) >= 180 {
			d[i] -= 360 * math.Round(diff/360)
			if d[i]-d[i-1] >= 180 {
				d[i] -= 360
			} else if d[i]-d[i-1] <= -180 {
				d[i] += 360
			}
		}
	}
	return d
}

// At interpolates the table linearly in time (UniformField_InterpLinear):
// before the first row and after the last the end rows hold; at a repeated
// time the later row applies. Direction interpolates on the unwrapped
// angles.
func (u *Uniform) At(t float64) UniformRow {
	rows := u.Rows
	n := len(rows)
	if n == 0 {
		return UniformRow{Time: t}
	}
	if t <= rows[0].Time {
		r := rows[0]
		r.Time = t
		return r
	}
	if t >= rows[n-1].Time {
		r := rows[n-1]
		r.Time = t
		return r
	}
	// First row strictly after t; its predecessor is at or before t.
	i := sort.Search(n, func(i int) bool { return rows[i].Time > t })
	a, b := rows[i-1], rows[i]
	f := (t - a.Time) / (b.Time - a.Time)
	dirs := u.UnwrappedDirections()
	lerp := func(x, y float64) float64 { return x + f*(y-x) }
	return UniformRow{
		Time:         t,
		HorSpeed:     lerp(a.HorSpeed, b.HorSpeed),
		Direction:    lerp(dirs[i-1], dirs[i]),
		VertSpeed:    lerp(a.VertSpeed, b.VertSpeed),
		HorShear:     lerp(a.HorShear, b.HorShear),
		PowerLawExp:  lerp(a.PowerLawExp, b.PowerLawExp),
		LinVertShear: lerp(a.LinVertShear, b.LinVertShear),
		GustSpeed:    lerp(a.GustSpeed, b.GustSpeed),
		Upflow:       lerp(a.Upflow, b.Upflow),
	}
}

// WriteUniform writes u in the layout InflowWind reads: '!' comment lines,
// a column legend, then one row per line. Numbers are written in Go's
// shortest exact form so the file reads back to the same float64 values;
// the upflow column is written when HasUpflow is set or any row uses it.
func WriteUniform(w io.Writer, u *Uniform) error {
	if len(u.Rows) == 0 {
		return fmt.Errorf("uniform wind: no rows to write")
	}
	upflow := u.HasUpflow
	for i, r := range u.Rows {
		vals := []float64{r.Time, r.HorSpeed, r.Direction, r.VertSpeed, r.HorShear, r.PowerLawExp, r.LinVertShear, r.GustSpeed, r.Upflow}
		for _, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("uniform wind: row %d holds %g", i, v)
			}
		}
		if i > 0 && r.Time < u.Rows[i-1].Time {
			return fmt.Errorf("uniform wind: row %d time %g before row %d's %g", i, r.Time, i-1, u.Rows[i-1].Time)
		}
		if r.Upflow != 0 {
			upflow = true
		}
	}
	bw := bufio.NewWriter(w)
	for _, c := range u.Comments {
		c = strings.ReplaceAll(strings.ReplaceAll(c, "\r", " "), "\n", " ")
		if !strings.HasPrefix(c, "!") && !strings.HasPrefix(c, "#") && !strings.HasPrefix(c, "%") {
			c = "! " + c
		}
		bw.WriteString(c + "\n")
	}
	legend := []string{"Time", "Wind", "Wind", "Vert.", "Horiz.", "Pwr.Law", "Lin.Vert.", "Gust", "Upflow"}
	legend2 := []string{"(s)", "Speed", "Dir(deg)", "Speed", "Shear", "Vert.Shr", "Shear", "Speed", "(deg)"}
	nCols := 8
	if upflow {
		nCols = 9
	}
	// The legend is written once: a comment block read from a file that
	// already has one (a line naming the Time column) is kept as it is.
	hasLegend := false
	for _, c := range u.Comments {
		if strings.Contains(strings.ToLower(c), "time") {
			hasLegend = true
		}
	}
	for _, lg := range [][]string{legend, legend2} {
		if hasLegend {
			break
		}
		bw.WriteString("!")
		for c := 0; c < nCols; c++ {
			fmt.Fprintf(bw, " %13s", lg[c])
		}
		bw.WriteString("\n")
	}
	for _, r := range u.Rows {
		vals := []float64{r.Time, r.HorSpeed, r.Direction, r.VertSpeed, r.HorShear, r.PowerLawExp, r.LinVertShear, r.GustSpeed, r.Upflow}
		bw.WriteString(" ")
		for c := 0; c < nCols; c++ {
			// Adding zero turns a negative zero (e.g. a gust of −A·sin(0)) into
			// a plain 0, so the file never shows "-0".
			fmt.Fprintf(bw, " %13s", strconv.FormatFloat(vals[c]+0, 'g', -1, 64))
		}
		bw.WriteString("\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("uniform wind: %w", err)
	}
	return nil
}
