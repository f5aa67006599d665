package deck

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteV5 writes the SubDyn file in the OpenFAST v5 layout (the order
// OpenFAST v5.0.0's SubDyn reads: simulation control without
// GuyanLoadCorrection, FEA parameters without CBMod, the initial
// rigid-body position, interface joints with TPID, members with MType
// 1c/1r/2/3/4/5 and MSpin, circular and rectangular property tables,
// spring properties). A file read in the v1.01 layout is thereby converted;
// its Warnings say what changed meaning. Numbers are written with full
// precision ('g', shortest round-trip).
func (sd *SubDyn) WriteV5(w io.Writer) error {
	if sd.Nmodes < 0 {
		return errors.New("SubDyn: Nmodes stands for every internal mode (v1.01 CBMod=False); OpenFAST v5 needs their number: set Nmodes")
	}
	b := bufio.NewWriter(w)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	flag := func(v bool) string {
		if v {
			return "True"
		}
		return "False"
	}
	bit := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	line := func(value, name, what string) { fmt.Fprintf(b, "%-22s %-14s - %s\n", value, name, what) }
	section := func(title string) { fmt.Fprintf(b, "---------------------- %s ----------------------\n", title) }
	row := func(words ...string) { fmt.Fprintln(b, "  "+strings.Join(words, "  ")) }

	fmt.Fprintln(b, "----------- SubDyn Input File (OpenFAST v5 layout) ------------")
	title := sd.Title
	if title == "" {
		title = "Substructure"
	}
	fmt.Fprintln(b, title)
	section("SIMULATION CONTROL")
	line(flag(sd.Echo), "Echo", "echo the input to <root>.SD.ech (flag)")
	dt := `"DEFAULT"`
	if sd.SDdeltaT > 0 {
		dt = g(sd.SDdeltaT)
	}
	line(dt, "SDdeltaT", "time step (s), or DEFAULT for the glue code's")
	line(strconv.Itoa(sd.IntMethod), "IntMethod", "integration method {1 RK4, 2 AB4, 3 ABM4, 4 AM2}")
	line(flag(sd.SttcSolve), "SttcSolve", "static improvement of the outputs (flag)")
	section("FEA and CRAIG-BAMPTON PARAMETERS")
	line(strconv.Itoa(sd.FEMMod), "FEMMod", "element model {1 Euler-Bernoulli, 3 Timoshenko}")
	line(strconv.Itoa(sd.NDiv), "NDiv", "elements per member")
	line(strconv.Itoa(sd.Nmodes), "Nmodes", "fixed-interface modes kept (0: Guyan reduction)")
	var damp []string
	for _, x := range sd.JDampings {
		damp = append(damp, g(x))
	}
	line(strings.Join(damp, ", "), "JDampings", "modal damping ratios (% of critical), the last repeated")
	line(strconv.Itoa(sd.GuyanDampMod), "GuyanDampMod", "Guyan damping {0 none, 1 Rayleigh, 2 6x6 matrix}")
	line(g(sd.RayleighDamp[0])+", "+g(sd.RayleighDamp[1]), "RayleighDamp", "mass- and stiffness-proportional coefficients (GuyanDampMod 1)")
	line("6", "GuyanDampSize", "size of the Guyan damping matrix (GuyanDampMod 2)")
	for _, r := range sd.GuyanDamp {
		w := make([]string, 6)
		for j, x := range r {
			w[j] = g(x)
		}
		row(w...)
	}
	section("INITIAL RIGID-BODY POSITION (floating structures)")
	row("RBSurge", "RBSway", "RBHeave", "RBRoll", "RBPitch", "RBYaw")
	row("(m)", "(m)", "(m)", "(deg)", "(deg)", "(deg)")
	rb := make([]string, 6)
	for i, x := range sd.RigidBody {
		rb[i] = g(x)
	}
	row(rb...)

	section("STRUCTURE JOINTS")
	line(strconv.Itoa(len(sd.Joints)), "NJoints", "number of joints")
	row("JointID", "JointXss", "JointYss", "JointZss", "JointType", "JointDirX", "JointDirY", "JointDirZ", "JointStiff")
	row("(-)", "(m)", "(m)", "(m)", "(-)", "(-)", "(-)", "(-)", "(Nm/rad)")
	for _, j := range sd.Joints {
		row(strconv.Itoa(j.ID), g(j.X), g(j.Y), g(j.Z), strconv.Itoa(j.Type), g(j.Dir[0]), g(j.Dir[1]), g(j.Dir[2]), g(j.Stiff))
	}
	section("BASE REACTION JOINTS (1 fixed, 0 free)")
	line(strconv.Itoa(len(sd.Reactions)), "NReact", "number of reaction joints")
	row("RJointID", "RctTDXss", "RctTDYss", "RctTDZss", "RctRDXss", "RctRDYss", "RctRDZss", "SSIfile")
	row("(-)", "(flag)", "(flag)", "(flag)", "(flag)", "(flag)", "(flag)", "(string)")
	for _, r := range sd.Reactions {
		w := []string{strconv.Itoa(r.JointID)}
		for _, f := range r.Fixed {
			w = append(w, bit(f))
		}
		if r.SSIFile != "" {
			w = append(w, strconv.Quote(r.SSIFile))
		}
		row(w...)
	}
	section("INTERFACE JOINTS (1 locked to the transition piece)")
	line(strconv.Itoa(len(sd.Interfaces)), "NInterf", "number of interface joints")
	row("IJointID", "TPID", "ItfTDXss", "ItfTDYss", "ItfTDZss", "ItfRDXss", "ItfRDYss", "ItfRDZss")
	row("(-)", "(-)", "(flag)", "(flag)", "(flag)", "(flag)", "(flag)", "(flag)")
	for _, f := range sd.Interfaces {
		w := []string{strconv.Itoa(f.JointID), strconv.Itoa(f.TPID)}
		for _, l := range f.Locked {
			w = append(w, bit(l))
		}
		row(w...)
	}
	section("MEMBERS")
	line(strconv.Itoa(len(sd.Members)), "NMembers", "number of members")
	row("MemberID", "MJointID1", "MJointID2", "MPropSetID1", "MPropSetID2", "MType", "MSpin/COSMID")
	row("(-)", "(-)", "(-)", "(-)", "(-)", "(-)", "(deg/-)")
	for _, m := range sd.Members {
		// v5 has MSpin in this column; a v1.01 COSMID has no v5 meaning
		row(strconv.Itoa(m.ID), strconv.Itoa(m.J1), strconv.Itoa(m.J2), strconv.Itoa(m.P1), strconv.Itoa(m.P2), m.Type, g(m.Spin))
	}
	section("CIRCULAR BEAM CROSS-SECTION PROPERTIES")
	line(strconv.Itoa(len(sd.PropsCyl)), "NPropSetsCyl", "number of circular sections")
	row("PropSetID", "YoungE", "ShearG", "MatDens", "XsecD", "XsecT")
	row("(-)", "(N/m2)", "(N/m2)", "(kg/m3)", "(m)", "(m)")
	for _, p := range sd.PropsCyl {
		row(strconv.Itoa(p.ID), g(p.E), g(p.G), g(p.Rho), g(p.D), g(p.T))
	}
	section("RECTANGULAR BEAM CROSS-SECTION PROPERTIES")
	line(strconv.Itoa(len(sd.PropsRec)), "NPropSetsRec", "number of rectangular sections")
	row("PropSetID", "YoungE", "ShearG", "MatDens", "XsecSa", "XsecSb", "XsecT")
	row("(-)", "(N/m2)", "(N/m2)", "(kg/m3)", "(m)", "(m)", "(m)")
	for _, p := range sd.PropsRec {
		row(strconv.Itoa(p.ID), g(p.E), g(p.G), g(p.Rho), g(p.Sa), g(p.Sb), g(p.T))
	}
	section("ARBITRARY BEAM CROSS-SECTION PROPERTIES")
	line(strconv.Itoa(len(sd.PropsArb)), "NXPropSets", "number of arbitrary sections")
	row("PropSetID", "YoungE", "ShearG", "MatDens", "XsecA", "XsecAsx", "XsecAsy", "XsecJxx", "XsecJyy", "XsecJ0", "XsecJt")
	row("(-)", "(N/m2)", "(N/m2)", "(kg/m3)", "(m2)", "(m2)", "(m2)", "(m4)", "(m4)", "(m4)", "(m4)")
	for _, p := range sd.PropsArb {
		row(strconv.Itoa(p.ID), g(p.E), g(p.G), g(p.Rho), g(p.A), g(p.Asx), g(p.Asy), g(p.Jxx), g(p.Jyy), g(p.J0), g(p.Jt))
	}
	section("CABLE PROPERTIES")
	line(strconv.Itoa(len(sd.Cables)), "NCablePropSets", "number of cable properties")
	row("PropSetID", "EA", "MatDens", "T0")
	row("(-)", "(N)", "(kg/m)", "(N)")
	for _, p := range sd.Cables {
		row(strconv.Itoa(p.ID), g(p.EA), g(p.Rho), g(p.T0))
	}
	section("RIGID LINK PROPERTIES")
	line(strconv.Itoa(len(sd.Rigids)), "NRigidPropSets", "number of rigid-link properties")
	row("PropSetID", "MatDens")
	row("(-)", "(kg/m)")
	for _, p := range sd.Rigids {
		row(strconv.Itoa(p.ID), g(p.Rho))
	}
	section("SPRING ELEMENT PROPERTIES")
	line(strconv.Itoa(len(sd.Springs)), "NSpringPropSets", "number of spring properties")
	hdr := []string{"PropSetID"}
	units := []string{"(-)"}
	for a := 0; a < 6; a++ {
		for c := a; c < 6; c++ {
			hdr = append(hdr, fmt.Sprintf("k%d%d", a+1, c+1))
			switch {
			case a < 3 && c < 3:
				units = append(units, "(N/m)")
			case a < 3:
				units = append(units, "(N/rad)")
			default:
				units = append(units, "(Nm/rad)")
			}
		}
	}
	row(hdr...)
	row(units...)
	for _, p := range sd.Springs {
		w := []string{strconv.Itoa(p.ID)}
		for a := 0; a < 6; a++ {
			for c := a; c < 6; c++ {
				w = append(w, g(p.K[a][c]))
			}
		}
		row(w...)
	}
	section("MEMBER COSINE MATRICES COSM(i,j)")
	line(strconv.Itoa(len(sd.COSMs)), "NCOSMs", "number of direction-cosine matrices")
	row("COSMID", "COSM11", "COSM12", "COSM13", "COSM21", "COSM22", "COSM23", "COSM31", "COSM32", "COSM33")
	row("(-)", "(-)", "(-)", "(-)", "(-)", "(-)", "(-)", "(-)", "(-)", "(-)")
	for _, c := range sd.COSMs {
		w := []string{strconv.Itoa(int(c[0]))}
		for _, x := range c[1:] {
			w = append(w, g(x))
		}
		row(w...)
	}
	section("JOINT ADDITIONAL CONCENTRATED MASSES")
	line(strconv.Itoa(len(sd.CMasses)), "NCmass", "number of concentrated masses")
	row("CMJointID", "JMass", "JMXX", "JMYY", "JMZZ", "JMXY", "JMXZ", "JMYZ", "MCGX", "MCGY", "MCGZ")
	row("(-)", "(kg)", "(kg*m^2)", "(kg*m^2)", "(kg*m^2)", "(kg*m^2)", "(kg*m^2)", "(kg*m^2)", "(m)", "(m)", "(m)")
	for _, c := range sd.CMasses {
		row(strconv.Itoa(c.JointID), g(c.M), g(c.Jxx), g(c.Jyy), g(c.Jzz), g(c.Jxy), g(c.Jxz), g(c.Jyz), g(c.CG[0]), g(c.CG[1]), g(c.CG[2]))
	}
	section("OUTPUT: SUMMARY & OUTFILE")
	line(flag(sd.SumPrint), "SumPrint", "summary file (flag)")
	line(strconv.Itoa(sd.OutCBModes), "OutCBModes", "Guyan and Craig-Bampton modes {0 none, 1 JSON}")
	line(strconv.Itoa(sd.OutFEMModes), "OutFEMModes", "FEM modes {0 none, 1 JSON}")
	line(flag(sd.OutCOSM), "OutCOSM", "direction cosines in the summary (flag)")
	line(flag(sd.OutAll), "OutAll", "all members' end loads (flag)")
	line(strconv.Itoa(sd.OutSwtch), "OutSwtch", "outputs to {1 <root>.SD.out, 2 the main output, 3 both}")
	line(flag(sd.TabDelim), "TabDelim", "tab-delimited <root>.SD.out (flag)")
	line(strconv.Itoa(max(sd.OutDec, 1)), "OutDec", "decimation of <root>.SD.out")
	line(strconv.Quote(orDefault(sd.OutFmt, "ES11.4e2")), "OutFmt", "number format of <root>.SD.out")
	line(strconv.Quote(orDefault(sd.OutSFmt, "A11")), "OutSFmt", "header format of <root>.SD.out")
	section("MEMBER OUTPUT LIST")
	line(strconv.Itoa(len(sd.MemberOutputs)), "NMOutputs", "members with node outputs (at most 9)")
	row("MemberID", "NOutCnt", "NodeCnt")
	row("(-)", "(-)", "(-)")
	for _, o := range sd.MemberOutputs {
		w := []string{strconv.Itoa(o.MemberID), strconv.Itoa(len(o.Nodes))}
		for _, n := range o.Nodes {
			w = append(w, strconv.Itoa(n))
		}
		row(w...)
	}
	section("SSOutList: output channels, one or more per line, up to END")
	for i := 0; i < len(sd.OutList); i += 6 {
		fmt.Fprintln(b, strconv.Quote(strings.Join(sd.OutList[i:min(i+6, len(sd.OutList))], ", ")))
	}
	fmt.Fprintln(b, "END of output channels and end of file")
	return b.Flush()
}

// ConvertSubDynToV5 replaces a loaded deck's SubDyn file by its text in the
// OpenFAST v5 layout (WriteV5) when it is in the v1.01 layout, and returns
// the conversion's warnings (what the old inputs mean in v5); nothing when
// the deck has no SubDyn file or it is already in the v5 layout. Writing
// the deck then writes the v5 file.
func (d *Deck) ConvertSubDynToV5() ([]Problem, error) {
	sd, err := d.SubDyn()
	if err != nil || sd == nil || sd.Layout == "v5" {
		return nil, err
	}
	if err := d.ReplaceSubDyn(sd); err != nil {
		return nil, err
	}
	return sd.Warnings, nil
}

// ReplaceSubDyn replaces the deck's SubDyn file (which must exist) by sd
// written in the OpenFAST v5 layout (WriteV5), at the same path.
func (d *Deck) ReplaceSubDyn(sd *SubDyn) error {
	g := d.Offshore.SubDyn
	if g == nil {
		return errors.New("deck: the deck has no SubDyn file")
	}
	var b strings.Builder
	if err := sd.WriteV5(&b); err != nil {
		return err
	}
	src, err := sourceFromBytes(g.Meta.Path, []byte(b.String()), false)
	if err != nil {
		return err
	}
	d.Offshore.SubDyn = parseGeneric(src, g.Kind)
	return nil
}
