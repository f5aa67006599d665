package deck

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Airfoil is an AirfoilInfo input file (AeroDyn v15+): one or more polar
// tables with optional unsteady-aerodynamics constants, and optional
// coordinates (inline or through an "@file" include).
type Airfoil struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"` // free-text comment lines are not kept; Title is the first one

	InterpOrd    DefInt  `fst:"InterpOrd" desc:"Interpolation order to use for quasi-steady table lookup {1=linear; 3=cubic spline; \"default\"} [default=1]"`
	RelThickness DefReal `fst:"RelThickness" opt:"default" desc:"The non-dimensional thickness of the airfoil (thickness/chord) [only used if UA_Mod=7] [default=0.2]"`
	NonDimArea   float64 `fst:"NonDimArea" opt:"1" desc:"The non-dimensional area of the airfoil (area/chord^2) (set to 1.0 if unsure or unneeded)"`
	NumCoords    int     `fst:"NumCoords" opt:"0" desc:"The number of coordinates in the airfoil shape file. Set to zero if coordinates not included."`
	// CoordsFile is the "@" include that held NumCoords and the coordinates
	// (as written, relative to the airfoil file); empty when inline.
	CoordsFile string `fst:"-"`
	// Coords are the NumCoords (x/c, y/c) pairs; the first is the airfoil
	// reference point.
	Coords  [][2]float64 `fst:"-"`
	_       struct{}     `block:"coords"`
	BL_file string       `fst:"BL_file" opt:"unused" desc:"The file name including the boundary layer characteristics of the profile. Ignored if the aeroacoustic module is not called."`
	NumTabs int          `fst:"NumTabs" desc:"Number of airfoil tables in this file."`
	Tables  []AirfoilTable
	_       struct{} `block:"tables"`
}

// AirfoilTable is one polar of an airfoil file. Alpha is in degrees. Data
// holds every column of each row as written; Alpha, Cl, Cd, Cm and Cpmin are
// picked from it by the AeroDyn InCol_* settings (Cm/Cpmin nil when the
// column is 0).
type AirfoilTable struct {
	Re         float64 // Reynolds number in millions
	UserProp   float64 // user property (control) setting; "Ctrl" in older files
	InclUAdata bool
	UA         UAConstants // meaningful only when InclUAdata
	NumAlf     int
	Data       [][]float64

	Alpha, Cl, Cd, Cm, Cpmin []float64
}

// UAConstants are the unsteady-aerodynamics constants of a table. Angles
// alpha0, alpha1, alpha2, UACutout are in degrees; C_nalpha in 1/rad. Values
// may be "default" (OpenFAST computes them from the polar).
type UAConstants struct {
	Alpha0     DefReal `fst:"alpha0" opt:"default" desc:"0-lift angle of attack, depends on airfoil. (deg)"`
	Alpha1     DefReal `fst:"alpha1" opt:"default" desc:"Angle of attack at f=0.7 for AOA>alpha0 (deg)"`
	Alpha2     DefReal `fst:"alpha2" opt:"default" desc:"Angle of attack at f=0.7 for AOA<alpha0 (deg)"`
	AlphaUpper DefReal `fst:"alphaUpper" opt:"default" wopt:"nondefault" desc:"Angle of attack at upper boundary of fully-attached region (deg)"`
	AlphaLower DefReal `fst:"alphaLower" opt:"default" wopt:"nondefault" desc:"Angle of attack at lower boundary of fully-attached region (deg)"`
	Eta_e      DefReal `fst:"eta_e" opt:"default" desc:"Recovery factor in the range [0.85 - 0.95] (-)"`
	C_nalpha   DefReal `fst:"C_nalpha" opt:"default" desc:"Slope of the 2D normal force coefficient curve (1/rad)"`
	T_f0       DefReal `fst:"T_f0" opt:"default" desc:"Initial value of the time constant associated with Df [default = 3]"`
	T_V0       DefReal `fst:"T_V0" opt:"default" desc:"Initial value of the time constant associated with the vortex lift decay process [default = 6]"`
	T_p        DefReal `fst:"T_p" opt:"default" desc:"Boundary-layer, leading edge pressure gradient time constant [default = 1.7]"`
	T_VL       DefReal `fst:"T_VL" opt:"default" desc:"Initial value of the time constant associated with the vortex advection process [default = 11]"`
	B1         DefReal `fst:"b1" opt:"default" desc:"Constant in the expression of phi_alpha^c and phi_q^c [default = 0.14]"`
	B2         DefReal `fst:"b2" opt:"default" desc:"Constant in the expression of phi_alpha^c and phi_q^c [default = 0.53]"`
	B5         DefReal `fst:"b5" opt:"default" desc:"Constant in the expression of K'''_q, Cm_q^nc, and k_m,q [default = 5]"`
	A1         DefReal `fst:"A1" opt:"default" desc:"Constant in the expression of phi_alpha^c and phi_q^c [default = 0.3]"`
	A2         DefReal `fst:"A2" opt:"default" desc:"Constant in the expression of phi_alpha^c and phi_q^c [default = 0.7]"`
	A5         DefReal `fst:"A5" opt:"default" desc:"Constant in the expression of K'''_q, Cm_q^nc, and k_m,q [default = 1]"`
	S1         DefReal `fst:"S1" opt:"default" desc:"Constant in the f curve best-fit for alpha0<=AOA<=alpha1"`
	S2         DefReal `fst:"S2" opt:"default" desc:"Constant in the f curve best-fit for AOA>alpha1"`
	S3         DefReal `fst:"S3" opt:"default" desc:"Constant in the f curve best-fit for alpha2<=AOA<alpha0"`
	S4         DefReal `fst:"S4" opt:"default" desc:"Constant in the f curve best-fit for AOA<alpha2"`
	Cn1        DefReal `fst:"Cn1" opt:"default" desc:"Critical value of C0n at leading edge separation"`
	Cn2        DefReal `fst:"Cn2" opt:"default" desc:"As Cn1 for negative AOAs"`
	St_sh      DefReal `fst:"St_sh" opt:"default" desc:"Strouhal's shedding frequency constant [default = 0.19]"`
	Cd0        DefReal `fst:"Cd0" opt:"default" desc:"2D drag coefficient value at 0-lift"`
	Cm0        DefReal `fst:"Cm0" opt:"default" desc:"2D pitching moment coefficient about 1/4-chord location, at 0-lift, positive if nose up"`
	K0         DefReal `fst:"k0" opt:"default" desc:"Constant in the \\hat(x)_cp curve best-fit; = (\\hat(x)_AC-0.25)"`
	K1         DefReal `fst:"k1" opt:"default" desc:"Constant in the \\hat(x)_cp curve best-fit"`
	K2         DefReal `fst:"k2" opt:"default" desc:"Constant in the \\hat(x)_cp curve best-fit"`
	K3         DefReal `fst:"k3" opt:"default" desc:"Constant in the \\hat(x)_cp curve best-fit"`
	K1_hat     DefReal `fst:"k1_hat" opt:"default" desc:"Constant in the expression of Cc due to leading edge vortex effects"`
	X_cp_bar   DefReal `fst:"x_cp_bar" opt:"default" desc:"Constant in the expression of \\hat(x)_cp^v [default = 0.2]"`
	UACutout   DefReal `fst:"UACutout" opt:"default" desc:"Angle of attack above which unsteady aerodynamics are disabled (deg) [default = 45]"`
	UACutout_d DefReal `fst:"UACutout_delta" opt:"default" wopt:"nondefault" desc:"Delta angle of attack below UACutout where unsteady aerodynamics begin to turn off (deg) [default = 5]"`
	FiltCutOff DefReal `fst:"filtCutOff" opt:"default" desc:"Reduced frequency cut-off for low-pass filtering the AoA input to UA (-) [default = 0.5]"`
}

type tableHead struct {
	Re         float64 `fst:"Re"`
	UserProp   float64 `fst:"UserProp" alt:"Ctrl" opt:"0"`
	InclUAdata bool    `fst:"InclUAdata" opt:"False"`
}

func (a *Airfoil) decodeBlock(name string, r *reader) error {
	switch name {
	case "coords":
		if a.NumCoords <= 0 {
			return nil
		}
		i := -1
		if ln := a.Meta.LineOf("NumCoords"); ln > 0 {
			i = r.cur - 1
		}
		if i >= 0 && r.src.Lines[i].File != r.src.Path {
			rel, err := filepath.Rel(filepath.Dir(r.src.Path), r.src.Lines[i].File)
			if err != nil {
				rel = r.src.Lines[i].File
			}
			a.CoordsFile = filepath.ToSlash(rel)
		}
		idx, err := r.dataLines(i, a.NumCoords, "NumCoords")
		if err != nil {
			return err
		}
		a.Coords = make([][2]float64, len(idx))
		for k, j := range idx {
			row, err := r.rowFloats(j, 2, "NumCoords", []string{"x/c", "y/c"})
			if err != nil {
				return err
			}
			a.Coords[k] = [2]float64{row[0], row[1]}
		}
		if len(idx) > 0 {
			r.cur = idx[len(idx)-1] + 1
		}
	case "tables":
		if a.NumTabs < 1 {
			return r.errLine(r.cur-1, "NumTabs", "must be >= 1, got %d", a.NumTabs)
		}
		for t := 0; t < a.NumTabs; t++ {
			label := fmt.Sprintf("NumAlf (table %d)", t+1)
			// the table's scope ends at its NumAlf line, so optional lines of
			// one table are never taken from the next
			end := -1
			for j := r.cur; j < r.hi; j++ {
				if _, ok := match(&r.src.Lines[j], "numalf"); ok {
					end = j
					break
				}
			}
			if end < 0 {
				return r.errLine(r.hi-1, label, "table %d of %d: NumAlf line not found", t+1, a.NumTabs)
			}
			sr := r.sub(r.cur, end+1)
			var h tableHead
			if err := decode(sr, &h); err != nil {
				return err
			}
			tab := AirfoilTable{Re: h.Re, UserProp: h.UserProp, InclUAdata: h.InclUAdata}
			if h.InclUAdata {
				if err := decode(sr, &tab.UA); err != nil {
					return err
				}
			}
			v, _ := match(&r.src.Lines[end], "numalf")
			if len(v) == 0 {
				return r.errLine(end, "NumAlf", "expected an integer, got nothing")
			}
			n, ok := parseInt(v[0].Text)
			if !ok {
				return r.errLine(end, "NumAlf", "expected an integer, got %q", v[0].Text)
			}
			if n < 1 {
				return r.errLine(end, "NumAlf", "must be >= 1, got %d", n)
			}
			tab.NumAlf = n
			idx, err := r.dataLines(end, n, "NumAlf")
			if err != nil {
				return err
			}
			ncol := len(r.src.Lines[idx[0]].toks)
			tab.Data = make([][]float64, n)
			for k, j := range idx {
				row, err := r.rowFloats(j, ncol, fmt.Sprintf("polar table %d", t+1), nil)
				if err != nil {
					return err
				}
				tab.Data[k] = row
			}
			r.cur = idx[len(idx)-1] + 1
			a.Tables = append(a.Tables, tab)
		}
		a.SetColumns(1, 2, 3, 4, 0)
	}
	return nil
}

// SetColumns picks Alpha, Cl, Cd, Cm and Cpmin out of each table's Data by
// 1-based column numbers (AeroDyn InCol_*; 0 = column absent). It returns
// an error naming the first table whose rows are too short.
func (a *Airfoil) SetColumns(alfa, cl, cd, cm, cpmin int) error {
	var firstErr error
	for t := range a.Tables {
		tab := &a.Tables[t]
		pick := func(c int) []float64 {
			if c <= 0 {
				return nil
			}
			out := make([]float64, len(tab.Data))
			for i, row := range tab.Data {
				if c > len(row) {
					if firstErr == nil {
						firstErr = &Error{File: a.Meta.Path, Variable: "InCol", Msg: fmt.Sprintf("table %d row %d has %d columns, column %d requested", t+1, i+1, len(row), c)}
					}
					return nil
				}
				out[i] = row[c-1]
			}
			return out
		}
		tab.Alpha, tab.Cl, tab.Cd, tab.Cm, tab.Cpmin = pick(alfa), pick(cl), pick(cd), pick(cm), pick(cpmin)
	}
	return firstErr
}

func (a *Airfoil) encodeBlock(name string, w *writer) error {
	switch name {
	case "coords":
		if a.CoordsFile != "" || a.NumCoords <= 0 {
			return nil
		}
		for _, c := range a.Coords {
			w.line(fmt.Sprintf("%s %s", fmtReal(c[0]), fmtReal(c[1])))
		}
	case "tables":
		for t, tab := range a.Tables {
			w.line("! ------------------------------------------------------------------------------")
			w.line(fmt.Sprintf("! data for table %d", t+1))
			w.kv(fmtReal(tab.Re), "Re", "Reynolds number in millions")
			w.kv(fmtReal(tab.UserProp), "UserProp", "User property (control) setting")
			w.kv(fmtBool(tab.InclUAdata), "InclUAdata", "Is unsteady aerodynamics data included in this table? If TRUE, then include the UA coefficients below this line")
			if tab.InclUAdata {
				ua := tab.UA
				if err := encode(w, &ua); err != nil {
					return err
				}
			}
			w.kv(fmt.Sprint(tab.NumAlf), "NumAlf", "Number of data lines in the following table")
			w.line("! Alpha (deg)  Cl (-)  Cd (-)  Cm (-) ...")
			for _, row := range tab.Data {
				s := ""
				for c, x := range row {
					if c > 0 {
						s += "  "
					}
					s += fmtReal(x)
				}
				w.line(s)
			}
		}
	}
	return nil
}

// ReadAirfoil reads an airfoil file, expanding "@" includes. Columns are
// picked with the default layout Alpha, Cl, Cd, Cm (see SetColumns).
func ReadAirfoil(path string) (*Airfoil, error) {
	src, err := readSource(path, true)
	if err != nil {
		return nil, err
	}
	return parseAirfoil(src)
}

func parseAirfoil(src *Source) (*Airfoil, error) {
	a := &Airfoil{}
	r := newReader(src, &a.Meta)
	for _, l := range src.Lines {
		t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l.Raw), "!#%"))
		if l.File == src.Path && len(l.toks) == 0 && t != "" && !strings.Contains(t, "----") {
			a.Title = t
			break
		}
	}
	if err := decode(r, a); err != nil {
		return nil, err
	}
	return a, nil
}

// encode writes the airfoil file; when CoordsFile is set the coordinates go
// to a second text (returned as coords) to be written at CoordsFile.
func (a *Airfoil) encode() (text, coords string, err error) {
	w := &writer{style: '!'}
	w.line("! ------------ AirfoilInfo Input File (written by turbinesim) -------------------")
	w.line("! " + oneLine(a.Title))
	// InterpOrd .. NumCoords by hand to place the include correctly
	w.kv(fmtValue(reflectValue(&a.InterpOrd)), "InterpOrd", "Interpolation order to use for quasi-steady table lookup {1=linear; 3=cubic spline; \"default\"} [default=1]")
	if !a.RelThickness.Default { // optional line: written only when set
		w.kv(fmtValue(reflectValue(&a.RelThickness)), "RelThickness", "The non-dimensional thickness of the airfoil (thickness/chord) [only used if UA_Mod=7] [default=0.2]")
	}
	w.kv(fmtReal(a.NonDimArea), "NonDimArea", "The non-dimensional area of the airfoil (area/chord^2) (set to 1.0 if unsure or unneeded)")
	if a.CoordsFile != "" && a.NumCoords > 0 {
		w.line(fmt.Sprintf("@%s", quote(a.CoordsFile)))
		cw := &writer{}
		cw.kv(fmt.Sprint(a.NumCoords), "NumCoords", "The number of coordinates in the airfoil shape file (including an extra coordinate for airfoil reference). Set to zero if coordinates not included.")
		cw.line("! x/c  y/c (first row: airfoil reference point)")
		for _, c := range a.Coords {
			cw.line(fmt.Sprintf("%s %s", fmtReal(c[0]), fmtReal(c[1])))
		}
		coords = cw.b.String()
	} else {
		w.kv(fmt.Sprint(a.NumCoords), "NumCoords", "The number of coordinates in the airfoil shape file. Set to zero if coordinates not included.")
		if err := a.encodeBlock("coords", w); err != nil {
			return "", "", err
		}
	}
	w.kv(quote(a.BL_file), "BL_file", "The file name including the boundary layer characteristics of the profile. Ignored if the aeroacoustic module is not called.")
	w.kv(fmt.Sprint(a.NumTabs), "NumTabs", "Number of airfoil tables in this file.")
	if err := a.encodeBlock("tables", w); err != nil {
		return "", "", err
	}
	return w.b.String(), coords, nil
}
