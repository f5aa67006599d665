package perf

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Write writes s in the layout of ROSCO's Cp_Ct_Cq.*.txt (as written by the
// ROSCO toolbox's write_rotor_performance): a two-line header, the pitch,
// TSR and wind-speed vectors, then the Cp, Ct and Cq matrices (rows = TSR,
// columns = pitch) with six decimals.
func Write(w io.Writer, s *Surface) error {
	if err := s.check(); err != nil {
		return err
	}
	date := s.Date
	if date == "" {
		date = time.Now().UTC().Format("Jan-02-06")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# ----- Rotor performance tables for the %s wind turbine ----- \n", s.Name)
	tool := s.Tool
	if tool == "" {
		tool = DefaultTool
	}
	fmt.Fprintf(&b, "# ------------ Written on %s using %s ------------ \n\n", date, tool)
	fmt.Fprintf(&b, "# Pitch angle vector, %d entries - x axis (matrix columns) (deg)\n", len(s.Pitch))
	for _, v := range s.Pitch {
		b.WriteString(pyShort(v) + "   ")
	}
	fmt.Fprintf(&b, "\n# TSR vector, %d entries - y axis (matrix rows) (-)\n", len(s.TSR))
	for _, v := range s.TSR {
		b.WriteString(pyShort(v) + "    ")
	}
	b.WriteString("\n# Wind speed vector - z axis (m/s)\n")
	b.WriteString(pyShort(s.WindSpeed) + "    \n")
	for k, sec := range []struct {
		title string
		m     [][]float64
	}{{"# Power coefficient", s.Cp}, {"#  Thrust coefficient", s.Ct}, {"# Torque coefficient", s.Cq}} {
		if k == 0 {
			b.WriteString("\n")
		} else {
			b.WriteString("\n\n")
		}
		b.WriteString(sec.title + "\n\n")
		for _, row := range sec.m {
			for _, v := range row {
				b.WriteString(strconv.FormatFloat(v, 'f', 6, 64) + "   ")
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteFile writes s to path.
func WriteFile(path string, s *Surface) error {
	var b bytes.Buffer
	if err := Write(&b, s); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("perf: %w", err)
	}
	return nil
}

// pyShort formats like Python's "{:0.4}": 4 significant digits, general
// notation, with ".0" added to integral fixed-point values.
func pyShort(v float64) string {
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

func (s *Surface) check() error {
	if s == nil {
		return errors.New("perf: nil surface")
	}
	for name, m := range map[string][][]float64{"Cp": s.Cp, "Ct": s.Ct, "Cq": s.Cq} {
		if len(m) != len(s.TSR) {
			return fmt.Errorf("perf: %s has %d rows for %d TSR values", name, len(m), len(s.TSR))
		}
		for i, r := range m {
			if len(r) != len(s.Pitch) {
				return fmt.Errorf("perf: %s row %d has %d values for %d pitch angles", name, i+1, len(r), len(s.Pitch))
			}
		}
	}
	return nil
}

// Read parses a Cp_Ct_Cq text file. It keys on the comment lines ("Pitch
// angle vector", "TSR vector", "Wind speed vector", "Power", "Thrust",
// "Torque coefficient"), so spacing variations are accepted.
func Read(r io.Reader) (*Surface, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	s := &Surface{}
	var section string
	line := 0
	var m *[][]float64
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") {
			low := strings.ToLower(t)
			switch {
			case strings.Contains(low, "rotor performance tables for the"):
				rest := t[strings.Index(low, "for the")+len("for the"):]
				if k := strings.Index(strings.ToLower(rest), " wind turbine"); k >= 0 {
					rest = rest[:k]
				}
				s.Name = strings.TrimSpace(rest)
			case strings.Contains(low, "written on"):
				rest := t[strings.Index(low, "written on")+len("written on"):]
				if f := strings.Fields(rest); len(f) > 0 {
					s.Date = f[0]
				}
				// Keep the name of the program that wrote the table, so a
				// table read and written back is unchanged.
				if _, after, ok := strings.Cut(rest, " using "); ok {
					s.Tool = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(after), "-"))
				}
			case strings.Contains(low, "pitch angle vector"):
				section = "pitch"
			case strings.Contains(low, "tsr vector"):
				section = "tsr"
			case strings.Contains(low, "wind speed vector"):
				section = "wind"
			case strings.Contains(low, "power coefficient"):
				section, m = "matrix", &s.Cp
			case strings.Contains(low, "thrust coefficient"):
				section, m = "matrix", &s.Ct
			case strings.Contains(low, "torque coefficient"):
				section, m = "matrix", &s.Cq
			}
			continue
		}
		vals, err := parseFloats(t)
		if err != nil {
			return nil, fmt.Errorf("perf: line %d: %w", line, err)
		}
		switch section {
		case "pitch":
			s.Pitch = append(s.Pitch, vals...)
		case "tsr":
			s.TSR = append(s.TSR, vals...)
		case "wind":
			if len(vals) > 0 {
				s.WindSpeed = vals[0]
			}
		case "matrix":
			*m = append(*m, vals)
		default:
			return nil, fmt.Errorf("perf: line %d: numbers outside a known section", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	if len(s.Pitch) == 0 || len(s.TSR) == 0 {
		return nil, errors.New("perf: pitch or TSR vector missing")
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadFile reads a Cp_Ct_Cq text file from disk.
func ReadFile(path string) (*Surface, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	defer f.Close()
	s, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func parseFloats(t string) ([]float64, error) {
	f := strings.Fields(t)
	out := make([]float64, 0, len(f))
	for _, w := range f {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return nil, fmt.Errorf("not a number: %q", w)
		}
		out = append(out, v)
	}
	return out, nil
}
