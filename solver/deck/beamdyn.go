package deck

import (
	"fmt"
	"strings"
)

// BeamDyn is a BeamDyn primary input file (used when the .fst says
// CompElast = 2, one per blade through BDBldFile(i)). The blade reference
// line is given by key points (kp_xr, kp_yr, kp_zr in m, initial_twist in
// deg) grouped into members; the sectional properties are in the blade file
// (BldFile), loaded into Blade by Load.
//
// Layout: the BeamDyn primary file of OpenFAST v3.x to v5.x (unchanged
// between them): SIMULATION CONTROL, GEOMETRY PARAMETER, MESH PARAMETER,
// MATERIAL PARAMETER, PITCH ACTUATOR PARAMETERS, OUTPUTS and the optional
// all-nodes output section.
type BeamDyn struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	Echo             bool    `fst:"Echo" sec:"SIMULATION CONTROL" desc:"Echo input data to \"<RootName>.ech\" (flag)"`
	QuasiStaticInit  bool    `fst:"QuasiStaticInit" opt:"False" desc:"Use quasi-static pre-conditioning with centripetal accelerations in initialization (flag) [dynamic solve only]"`
	Rhoinf           float64 `fst:"rhoinf" desc:"Numerical damping parameter for generalized-alpha integrator"`
	Quadrature       int     `fst:"quadrature" desc:"Quadrature method: 1=Gaussian; 2=Trapezoidal (switch)"`
	Refine           DefInt  `fst:"refine" desc:"Refinement factor for trapezoidal quadrature (-) [DEFAULT = 1; used only when quadrature=2]"`
	NFact            DefInt  `fst:"n_fact" desc:"Factorization frequency for the Jacobian in N-R iteration (-) [DEFAULT = 5]"`
	DTBeam           DefReal `fst:"DTBeam" desc:"Time step size (s)"`
	LoadRetries      DefInt  `fst:"load_retries" opt:"default" desc:"Number of factored load retries before quitting the simulation [DEFAULT = 20]"`
	NRMax            DefInt  `fst:"NRMax" desc:"Max number of iterations in Newton-Raphson algorithm (-) [DEFAULT = 10]"`
	StopTol          DefReal `fst:"stop_tol" desc:"Tolerance for stopping criterion (-) [DEFAULT = 1E-5]"`
	TngtStfFD        DefBool `fst:"tngt_stf_fd" opt:"default" desc:"Use finite differenced tangent stiffness matrix? (flag)"`
	TngtStfComp      DefBool `fst:"tngt_stf_comp" opt:"default" desc:"Compare analytical finite differenced tangent stiffness matrix? (flag)"`
	TngtStfPert      DefReal `fst:"tngt_stf_pert" opt:"default" desc:"Perturbation size for finite differencing (-) [DEFAULT = 1E-6]"`
	TngtStfDifftol   DefReal `fst:"tngt_stf_difftol" opt:"default" desc:"Maximum allowable relative difference between analytical and fd tangent stiffness (-); [DEFAULT = 0.1]"`
	RotStates        bool    `fst:"RotStates" opt:"True" desc:"Orient states in the rotating frame during linearization? (flag) [used only when linearizing]"`
	MemberTotal      int     `fst:"member_total" sec:"GEOMETRY PARAMETER" desc:"Total number of members (-)"`
	KpTotal          int     `fst:"kp_total" desc:"Total number of key points (-) [must be at least 3]"`
	MemberKeyPoints  []int   `fst:"-"` // key points of each member (member i has MemberKeyPoints[i])
	KpXr, KpYr, KpZr []float64
	InitialTwist     []float64
	_                struct{} `block:"geometry"`

	OrderElem int    `fst:"order_elem" sec:"MESH PARAMETER" desc:"Order of interpolation (basis) function (-)"`
	BldFile   string `fst:"BldFile" sec:"MATERIAL PARAMETER" desc:"Name of file containing properties for blade (quoted string)"`

	UsePitchAct bool    `fst:"UsePitchAct" sec:"PITCH ACTUATOR PARAMETERS" desc:"Whether a pitch actuator should be used (flag)"`
	PitchJ      float64 `fst:"PitchJ" desc:"Pitch actuator inertia (kg-m^2) [used only when UsePitchAct is true]"`
	PitchK      float64 `fst:"PitchK" desc:"Pitch actuator stiffness (kg-m^2/s^2) [used only when UsePitchAct is true]"`
	PitchC      float64 `fst:"PitchC" desc:"Pitch actuator damping (kg-m^2/s) [used only when UsePitchAct is true]"`

	SumPrint  bool    `fst:"SumPrint" sec:"OUTPUTS" desc:"Print summary data to \"<RootName>.sum\" (flag)"`
	OutFmt    string  `fst:"OutFmt" desc:"Format used for text tabular output, excluding the time channel."`
	NNodeOuts int     `fst:"NNodeOuts" desc:"Number of nodes to output to file [0 - 9] (-)"`
	OutNd     []int   `fst:"OutNd" opt:"" desc:"Nodes whose values will be output (-)"`
	OutList   OutList `fst:"OutList" desc:"The next line(s) contains a list of output parameters. See OutListParameters.xlsx for a listing of available output channels, (-)"`

	// Nodal is the optional "outputs for all blade stations" section:
	// BldNd_BlOutNd and its channel list (BeamDyn has no BldNd_BladesOut).
	Nodal BDNodalOutputs `fst:"-"`
	_     struct{}       `block:"nodal"`

	// Blade is the blade file named by BldFile (loaded by Load; nil after
	// ReadBeamDyn).
	Blade *BDBlade `fst:"-"`
}

// BDNodalOutputs is BeamDyn's optional all-nodes output section.
type BDNodalOutputs struct {
	Present bool
	BlOutNd string // as written ("All", ...)
	OutList OutList
}

func (b *BeamDyn) decodeBlock(name string, r *reader) error {
	switch name {
	case "geometry":
		return b.decodeGeometry(r)
	case "nodal":
		return b.decodeNodal(r)
	}
	return nil
}

// decodeGeometry reads the member_total lines "member  key points" that
// follow kp_total, then the key-point table (header, units, kp_total rows).
func (b *BeamDyn) decodeGeometry(r *reader) error {
	if b.MemberTotal < 1 {
		return r.errLine(r.cur-1, "member_total", "must be >= 1, got %d", b.MemberTotal)
	}
	if b.KpTotal < 3 {
		return r.errLine(r.cur-1, "kp_total", "must be >= 3, got %d", b.KpTotal)
	}
	idx, err := r.dataLines(r.cur-1, b.MemberTotal, "member_total")
	if err != nil {
		return err
	}
	b.MemberKeyPoints = make([]int, b.MemberTotal)
	sum := 0
	for i, j := range idx {
		t := r.src.Lines[j].toks
		if len(t) < 2 {
			return r.errLine(j, "member_total", "member line %d needs the member number and its number of key points, got %q", i+1, strings.TrimSpace(r.src.Lines[j].Raw))
		}
		m, ok1 := parseInt(t[0].Text)
		n, ok2 := parseInt(t[1].Text)
		if !ok1 || !ok2 {
			return r.errLine(j, "member_total", "member line %d: expected two integers (member number, key points), got %q %q", i+1, t[0].Text, t[1].Text)
		}
		if m != i+1 {
			return r.errLine(j, "member_total", "member line %d is numbered %d", i+1, m)
		}
		if n < 3 {
			return r.errLine(j, "member_total", "member %d has %d key points, at least 3 are needed", m, n)
		}
		b.MemberKeyPoints[i] = n
		sum += n
	}
	// consecutive members share their end key point (BeamDyn manual §6.2.4)
	if want := sum - (b.MemberTotal - 1); want != b.KpTotal {
		return r.errLine(idx[len(idx)-1], "kp_total", "members have %d key points in all (shared ends counted once), kp_total says %d", want, b.KpTotal)
	}
	r.cur = idx[len(idx)-1] + 1
	cols, rows, err := r.headerTable("kp_xr", b.KpTotal, "kp_xr")
	if err != nil {
		return err
	}
	return r.positionalColumns("kp_xr", "key points: kp_xr kp_yr kp_zr initial_twist", rows, len(cols),
		&b.KpXr, &b.KpYr, &b.KpZr, &b.InitialTwist)
}

func (b *BeamDyn) decodeNodal(r *reader) error {
	i, v, _, ok := r.find(normName("BldNd_BlOutNd"))
	if !ok {
		return nil
	}
	b.Nodal.Present = true
	if len(v) > 0 {
		b.Nodal.BlOutNd = v[0].Text
	}
	for k := i + 1; k < r.hi; k++ {
		l := &r.src.Lines[k]
		if len(l.toks) == 0 {
			continue
		}
		if strings.HasPrefix(strings.ToLower(l.toks[0].Text), "outlist") {
			r.cur = k
			list, _, err := r.outList(l.toks[0].Text)
			if err != nil {
				return err
			}
			b.Nodal.OutList = list
			return nil
		}
		return r.errLine(k, "BldNd_BlOutNd", "expected the OutList line of the all-nodes output section, got %q", strings.TrimSpace(l.Raw))
	}
	return r.errLine(i, "BldNd_BlOutNd", "all-nodes output section without an OutList")
}

func (b *BeamDyn) encodeBlock(name string, w *writer) error {
	switch name {
	case "geometry":
		if len(b.MemberKeyPoints) != b.MemberTotal {
			return fmt.Errorf("deck: BeamDyn: %d member lines for member_total=%d", len(b.MemberKeyPoints), b.MemberTotal)
		}
		for i, n := range b.MemberKeyPoints {
			w.line(fmt.Sprintf("%-10d %-11d - Member number; Number of key points in this member", i+1, n))
		}
		return writeTable(w, []string{"kp_xr", "kp_yr", "kp_zr", "initial_twist"}, []string{"(m)", "(m)", "(m)", "(deg)"},
			[][]float64{b.KpXr, b.KpYr, b.KpZr, b.InitialTwist}, b.KpTotal)
	case "nodal":
		if !b.Nodal.Present {
			return nil
		}
		w.line("====== Outputs for all blade stations (same ending as above for B1N1.... =========================== (optional section)")
		sel := b.Nodal.BlOutNd
		if sel == "" {
			sel = "All"
		}
		if _, ok := parseInt(sel); ok {
			w.kv(sel, "BldNd_BlOutNd", "Future feature will allow selecting a portion of the nodes to output. Not implemented yet. (-)")
		} else {
			w.kv(quote(sel), "BldNd_BlOutNd", "Future feature will allow selecting a portion of the nodes to output. Not implemented yet. (-)")
		}
		writeOutList(w, "OutList", "", b.Nodal.OutList)
	}
	return nil
}

// ReadBeamDyn reads a BeamDyn primary file (without its blade file).
func ReadBeamDyn(path string) (*BeamDyn, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseBeamDyn(src)
}

func parseBeamDyn(src *Source) (*BeamDyn, error) {
	b := &BeamDyn{}
	r := newReader(src, &b.Meta).skipHeader()
	b.Title = titleOf(src)
	if err := decode(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *BeamDyn) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("--------- BEAMDYN with OpenFAST INPUT FILE (written by turbinesim) ------------")
	w.line(oneLine(b.Title))
	if err := encode(w, b); err != nil {
		return "", err
	}
	if !b.Nodal.Present {
		w.line("---------------------------------------------------------------------------------------")
	}
	return w.b.String(), nil
}

// BDBlade is a BeamDyn blade file: per station the non-dimensional
// position Eta along the reference line (0 root, 1 tip), the 6x6
// sectional stiffness matrix K and mass matrix M (BeamDyn manual §6.2.5;
// units N, N m, N m^2 and kg/m, kg m, kg m^2/m), and six stiffness-
// proportional damping coefficients Mu (used when DampType = 1).
type BDBlade struct {
	Meta  Meta   `fst:"-"`
	Title string `fst:"-"`

	StationTotal int        `fst:"station_total" sec:"BLADE PARAMETERS" desc:"Number of blade input stations (-)"`
	DampType     int        `fst:"damp_type" desc:"Damping type: 0: no damping; 1: damped"`
	Mu           [6]float64 `fst:"-"`
	_            struct{}   `block:"damping" sec:"DAMPING COEFFICIENT"`
	Stations     []BDStation
	_            struct{} `block:"stations" sec:"DISTRIBUTED PROPERTIES"`
}

// BDStation is one cross-section of a BeamDyn blade.
type BDStation struct {
	Eta float64
	K   [6][6]float64
	M   [6][6]float64
}

var bdMuCols = []string{"mu1", "mu2", "mu3", "mu4", "mu5", "mu6"}

func (b *BDBlade) decodeBlock(name string, r *reader) error {
	switch name {
	case "damping":
		if b.DampType != 0 && b.DampType != 1 {
			return r.errLine(r.cur-1, "damp_type", "expected 0 (no damping) or 1 (damped), got %d", b.DampType)
		}
		cols, rows, err := r.headerTable("mu1", 1, "mu1")
		if err != nil {
			return err
		}
		if len(cols) < 6 || len(rows[0]) < 6 {
			return r.errLine(r.cur-1, "mu1", "damping coefficients need 6 values (mu1..mu6), got %d", min(len(cols), len(rows[0])))
		}
		copy(b.Mu[:], rows[0][:6])
		return nil
	case "stations":
		return b.decodeStations(r)
	}
	return nil
}

// decodeStations reads station_total blocks of 13 data lines: eta, six
// stiffness rows, six mass rows (blank lines between blocks are allowed).
func (b *BDBlade) decodeStations(r *reader) error {
	if b.StationTotal < 2 {
		return r.errLine(r.cur-1, "station_total", "must be >= 2, got %d", b.StationTotal)
	}
	// the section line "---- DISTRIBUTED PROPERTIES ----" precedes the
	// data; a count from the file never sizes an allocation beyond the lines
	idx := make([]int, 0, min(13*b.StationTotal, max(r.hi-r.cur, 0)))
	for j := r.cur; j < r.hi && len(idx) < 13*b.StationTotal; j++ {
		if t := r.src.Lines[j].toks; len(t) > 0 && !isSeparator(t[0]) {
			idx = append(idx, j)
		}
	}
	if len(idx) < 13*b.StationTotal {
		return r.errLine(r.hi-1, "station_total", "distributed properties truncated: %d stations need %d data lines (eta, 6 stiffness rows, 6 mass rows each), found %d", b.StationTotal, 13*b.StationTotal, len(idx))
	}
	b.Stations = make([]BDStation, b.StationTotal)
	for s := range b.Stations {
		st := &b.Stations[s]
		base := 13 * s
		j := idx[base]
		t := r.src.Lines[j].toks
		if len(t) != 1 {
			return r.errLine(j, "station_total", "station %d: expected the station location eta alone on its line, got %d values", s+1, len(t))
		}
		eta, ok := parseReal(t[0].Text)
		if !ok {
			return r.errLine(j, "station_total", "station %d: eta: expected a real number, got %q", s+1, t[0].Text)
		}
		if eta < 0 || eta > 1 {
			return r.errLine(j, "station_total", "station %d: eta = %g outside [0, 1]", s+1, eta)
		}
		if s > 0 && eta <= b.Stations[s-1].Eta {
			return r.errLine(j, "station_total", "station %d: eta = %g does not increase (previous %g)", s+1, eta, b.Stations[s-1].Eta)
		}
		st.Eta = eta
		for k := 0; k < 12; k++ {
			j := idx[base+1+k]
			what := "stiffness"
			row := k
			if k >= 6 {
				what, row = "mass", k-6
			}
			if n := len(r.src.Lines[j].toks); n != 6 {
				return r.errLine(j, "station_total", "station %d: %s matrix row %d has %d values, expected 6", s+1, what, row+1, n)
			}
			vals, err := r.rowFloats(j, 6, "station_total", nil)
			if err != nil {
				return r.errLine(j, "station_total", "station %d: %s matrix row %d: %s", s+1, what, row+1, err.(*Error).Msg)
			}
			if k < 6 {
				copy(st.K[row][:], vals)
			} else {
				copy(st.M[row][:], vals)
			}
		}
	}
	if b.Stations[0].Eta != 0 || b.Stations[len(b.Stations)-1].Eta != 1 {
		return r.errLine(idx[0], "station_total", "stations must run from eta = 0 to eta = 1, got %g to %g", b.Stations[0].Eta, b.Stations[len(b.Stations)-1].Eta)
	}
	r.cur = idx[len(idx)-1] + 1
	return nil
}

func (b *BDBlade) encodeBlock(name string, w *writer) error {
	switch name {
	case "damping":
		var hdr, units, vals strings.Builder
		for k, c := range bdMuCols {
			fmt.Fprintf(&hdr, "%-24s ", c)
			fmt.Fprintf(&units, "%-24s ", "(-)")
			fmt.Fprintf(&vals, "%-24s ", fmtReal(b.Mu[k]))
		}
		w.line(strings.TrimRight(hdr.String(), " "))
		w.line(strings.TrimRight(units.String(), " "))
		w.line(strings.TrimRight(vals.String(), " "))
	case "stations":
		if len(b.Stations) != b.StationTotal {
			return fmt.Errorf("deck: BeamDyn blade: %d stations for station_total=%d", len(b.Stations), b.StationTotal)
		}
		for s, st := range b.Stations {
			if s > 0 {
				w.line("")
			}
			w.line(fmtReal(st.Eta))
			for _, m := range [][6][6]float64{st.K, st.M} {
				for _, row := range m {
					var sb strings.Builder
					for _, x := range row {
						fmt.Fprintf(&sb, "%-24s ", fmtReal(x))
					}
					w.line(strings.TrimRight(sb.String(), " "))
				}
			}
		}
	}
	return nil
}

// ReadBDBlade reads a BeamDyn blade file.
func ReadBDBlade(path string) (*BDBlade, error) {
	src, err := readSource(path, false)
	if err != nil {
		return nil, err
	}
	return parseBDBlade(src)
}

func parseBDBlade(src *Source) (*BDBlade, error) {
	b := &BDBlade{}
	r := newReader(src, &b.Meta).skipHeader()
	b.Title = titleOf(src)
	if err := decode(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *BDBlade) encode() (string, error) {
	w := &writer{style: '-'}
	w.line("------- BEAMDYN INDIVIDUAL BLADE INPUT FILE (written by turbinesim) -----------")
	w.line(oneLine(b.Title))
	if err := encode(w, b); err != nil {
		return "", err
	}
	return w.b.String(), nil
}
