package deck

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Values below are read by eye from the NREL 5 MW files (shared deck).
// NumBlNds is 19 while 20 rows follow (a comment and a 61.5 m row after
// row 19): OpenFAST reads 19 rows, so the tip is at 61.4999 m.
func TestNREL5MWValues(t *testing.T) {
	d := loadShared(t, sharedDecks[0])
	m := d.Main
	if m.TMax != 10 || m.DT != 0.01 || m.CompAero != 2 || m.CompServo != 1 || !near(m.KinVisc, 1.464e-05) || m.DT_Out.Default || m.DT_Out.Value != 0.1 {
		t.Errorf("main: TMax=%g DT=%g CompAero=%d KinVisc=%g DT_Out=%+v", m.TMax, m.DT, m.CompAero, m.KinVisc, m.DT_Out)
	}
	if len(m.LinTimes) != 2 || m.LinTimes[0] != 30 || m.LinTimes[1] != 60 {
		t.Errorf("LinTimes=%v", m.LinTimes)
	}
	ed := d.ElastoDyn
	if ed.Method != 3 || !ed.DT.Default || ed.RotSpeed != 10 || ed.PreCone != [3]float64{-2.5, -2.5, -2.5} || ed.TipRad != 63 || ed.OverHang != -5.0191 || ed.GBRatio != 97 || ed.HubIner != 115926 {
		t.Errorf("ED: Method=%d DT=%+v RotSpeed=%g PreCone=%v TipRad=%g OverHang=%g GBRatio=%g HubIner=%g", ed.Method, ed.DT, ed.RotSpeed, ed.PreCone, ed.TipRad, ed.OverHang, ed.GBRatio, ed.HubIner)
	}
	if ed.PitchDOF || ed.Meta.Has("PitchDOF") {
		t.Errorf("PitchDOF should be absent (v3 dialect) and default False")
	}
	if len(ed.OutList) == 0 || ed.OutList[0] != "BldPitch1" {
		t.Errorf("ED OutList starts %v", ed.OutList[:min(3, len(ed.OutList))])
	}
	b := ed.Blades[0]
	if b != ed.Blades[2] {
		t.Errorf("blades naming the same file should share one structure")
	}
	if b.NBlInpSt != 49 || len(b.BMassDen) != 49 || b.BMassDen[2] != 773.363 || b.PitchAxis[2] != 0.25049 || b.EdgStff[48] != 5.01e6 || b.BldFl1Sh != [5]float64{0.0622, 1.7254, -3.2452, 4.7131, -2.2555} || b.AdjBlMs != 1.04536 {
		t.Errorf("ED blade: n=%d BMassDen[2]=%g PitchAxis[2]=%g EdgStff[48]=%g Fl1=%v", b.NBlInpSt, b.BMassDen[2], b.PitchAxis[2], b.EdgStff[48], b.BldFl1Sh)
	}
	tw := ed.Tower
	if tw.NTwInpSt != 11 || tw.TMassDen[0] != 5590.87 || tw.TwFAStif[10] != 1.1582e11 || tw.TwSSM2Sh[4] != -135.838 {
		t.Errorf("tower: %d %g %g %v", tw.NTwInpSt, tw.TMassDen[0], tw.TwFAStif[10], tw.TwSSM2Sh)
	}
	ad := d.AeroDyn
	if ad.NumAFfiles != 8 || ad.AFNames[6] != "../5MW_Baseline/Airfoils/DU21_A17.dat" || !ad.DTAero.Default || ad.MaxIter != 100 || ad.Tau1_const != 4 || ad.NumTwrNds != 12 || ad.TwrDiam[1] != 5.787 || ad.TwrCb == nil || len(ad.TwrCp) != 12 || ad.TwrCp[3] != 0 {
		t.Errorf("AD: %d %q DTAero=%+v MaxIter=%d tau1=%g twr=%d %v", ad.NumAFfiles, ad.AFNames[6], ad.DTAero, ad.MaxIter, ad.Tau1_const, ad.NumTwrNds, ad.TwrDiam)
	}
	// the unquoted "B1N3Clrnc, B2N3Clrnc, B3N3Clrnc" line yields one channel,
	// as OpenFAST reads it
	last := ad.OutList[len(ad.OutList)-1]
	if last != "B1N3Clrnc" {
		t.Errorf("AD OutList last = %q", last)
	}
	ab := ad.Blades[0]
	if ab.NumBlNds != 19 || ab.BlSpn[18] != 61.4999 || ab.BlChord[0] != 3.542 || ab.BlAFID[3] != 2 || ab.BlSwpAC[2] != -1.0501421e-01 || ab.BlTwist[5] != 11.48 {
		t.Errorf("AD blade: %d %g %g %v", ab.NumBlNds, ab.BlSpn[18], ab.BlChord[0], ab.BlAFID)
	}
	du21 := ad.Airfoils[6]
	if du21.NumTabs != 1 || len(du21.Tables) != 1 || !du21.InterpOrd.Default || du21.CoordsFile != "DU21_A17_coords.txt" || du21.NumCoords != 400 || du21.Coords[0] != [2]float64{0.25, 0} || du21.Coords[1] != [2]float64{1, 0.00194} {
		t.Fatalf("DU21: tabs=%d coords=%q n=%d first=%v", du21.NumTabs, du21.CoordsFile, du21.NumCoords, du21.Coords[:2])
	}
	tab := du21.Tables[0]
	if tab.Re != 0.75 || tab.NumAlf != 142 || tab.Alpha[0] != -180 || tab.Cd[0] != 0.0185 || tab.Cl[1] != 0.394 || tab.Cm[2] != 0.3963 || tab.Cpmin != nil {
		t.Errorf("DU21 table: Re=%g n=%d row0=%v %v %v", tab.Re, tab.NumAlf, tab.Alpha[0], tab.Cl[1], tab.Cm[2])
	}
	ua := tab.UA
	if !tab.InclUAdata || ua.Alpha0.Value != -4.2 || ua.C_nalpha.Value != 6.2047 || ua.Cn1.Value != 1.4144 || ua.Cm0.Value != -0.121 || !ua.UACutout.Default || !ua.FiltCutOff.Default {
		t.Errorf("DU21 UA: %+v", ua)
	}
	cyl := ad.Airfoils[0]
	if cyl.Tables[0].NumAlf != 3 || cyl.Tables[0].Cd[1] != 0.5 {
		t.Errorf("Cylinder1: %+v", cyl.Tables[0])
	}
}

// The reference-outputs deck is the shared 5 MW deck converted to v5 syntax
// by hand (by the people who ran OpenFAST v5); the legacy conversion of the
// v3 AeroDyn file must give the same v5 switches.
func TestLegacyAeroDynMatchesV5Conversion(t *testing.T) {
	v3 := loadShared(t, sharedDecks[0]).AeroDyn
	v5 := loadShared(t, sharedDecks[5]).AeroDyn
	type sw struct{ Wake, DBEMT, UA, Skew, SkewRedistr, BEM int }
	get := func(a *AeroDyn) sw {
		return sw{a.Wake_Mod, a.DBEMT_Mod, a.UA_Mod, a.Skew_Mod, a.SkewRedistr_Mod.Value, a.BEM_Mod}
	}
	if get(v3) != get(v5) {
		t.Errorf("v3 converted %+v, v5 file %+v", get(v3), get(v5))
	}
	if len(v5.Meta.Legacy) != 0 {
		t.Errorf("v5 file reports legacy variables %v", v5.Meta.Legacy)
	}
}

func TestNREL5MWInflowServo(t *testing.T) {
	d := loadShared(t, sharedDecks[0])
	w := d.InflowWind
	if w.WindType != 1 || w.HWindSpeed != 8 || w.RefHt != 90 || w.PLExp != 0 || len(w.WindVziList) != 1 || w.WindVziList[0] != 90 || w.RefLength != 125.88 {
		t.Errorf("IfW: %+v", w)
	}
	if len(w.OutList) != 3 || w.OutList[2] != "Wind1VelZ" {
		t.Errorf("IfW OutList %v", w.OutList)
	}
	s := d.ServoDyn
	if s.PCMode != 0 || s.VSContrl != 1 || s.GenEff != 94.4 || s.TimGenOn != 5 || s.VS_RtGnSp != 1162 || s.VS_RtTq != 47403 || s.VS_Rgn2K != 0.025576 || s.VS_SlPc != 10 || s.TEC_NPol != 9998 || s.NumBStC != 0 || s.BStCfiles != nil {
		t.Errorf("SrvD: %+v", s)
	}
	if s.UsesDLL() || d.Controller != nil {
		t.Errorf("simple VS deck must not use the DLL")
	}
}

func TestIEA15Controller(t *testing.T) {
	d := loadShared(t, sharedDecks[1])
	s := d.ServoDyn
	if !s.UsesDLL() || s.PCMode != 5 || s.VSContrl != 5 {
		t.Fatalf("SrvD PCMode=%d VSContrl=%d", s.PCMode, s.VSContrl)
	}
	c := d.Controller
	if c == nil {
		t.Fatal("DISCON.IN not loaded")
	}
	if v, ok, err := c.Float("PC_RefSpd"); !ok || err != nil || v != 0.79168 {
		t.Errorf("PC_RefSpd = %v %v %v", v, ok, err)
	}
	if v, ok, err := c.Int("VS_ControlMode"); !ok || err != nil || v != 2 {
		t.Errorf("VS_ControlMode = %v %v %v", v, ok, err)
	}
	n, _, _ := c.Int("PS_BldPitchMin_N")
	ws, ok, err := c.Floats("PS_WindSpeeds")
	if !ok || err != nil || len(ws) != n || n != 60 || ws[0] != 3 || ws[1] != 3.262 {
		t.Errorf("PS_WindSpeeds n=%d len=%d %v", n, len(ws), err)
	}
	if pf, _ := c.String("PerfFileName"); pf != "../IEA-15-240-RWT/Cp_Ct_Cq.IEA15MW.txt" {
		t.Errorf("PerfFileName = %q", pf)
	}
	if e, _ := c.Entry("PC_RefSpd"); e.Line == 0 {
		t.Errorf("entry line not recorded")
	}
	hd := d.Offshore.HydroDyn
	if hd == nil || d.Offshore.SubDyn == nil {
		t.Fatal("HydroDyn/SubDyn not loaded")
	}
	if wd, ok, err := hd.Float("WaveHs"); !ok || err != nil || wd <= 0 {
		t.Errorf("HydroDyn WaveHs = %v %v %v", wd, ok, err)
	}
	if len(d.Missing()) != 0 {
		t.Errorf("missing files: %+v", d.Missing())
	}
}

func TestGenericOffshoreTables(t *testing.T) {
	d := loadShared(t, sharedDecks[1])
	sd := d.Offshore.SubDyn
	n, ok, err := sd.Int("NJoints")
	if !ok || err != nil || n != 19 {
		t.Fatalf("NJoints %d %v %v", n, ok, err)
	}
	hdr, rows, err := sd.Table("JointID", n)
	if err != nil || len(rows) != 19 || hdr[3] != "JointZss" || rows[0][3] != "-30.0000" {
		t.Errorf("joints: %v %d %v", hdr, len(rows), err)
	}
	d = loadShared(t, sharedDecks[2])
	md := d.Offshore.Mooring
	if d.Offshore.MooringKind != "MoorDyn" || md == nil {
		t.Fatalf("mooring %q", d.Offshore.MooringKind)
	}
	_, lines, err := md.Table("ID LineType", -1)
	if err != nil || len(lines) != 3 || lines[0][1] != "main" || lines[2][4] != "850.00" {
		t.Errorf("MoorDyn lines: %v %v", lines, err)
	}
	_, types, err := md.Table("Name", -1)
	if err != nil || len(types) != 1 || types[0][1] != "0.333" {
		t.Errorf("MoorDyn line types: %v %v", types, err)
	}
}
