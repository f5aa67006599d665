package deck

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

func TestReadSubDynV5Monopile(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat")
	sd, err := ReadSubDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	if sd.Layout != "v5" || len(sd.Warnings) != 0 {
		t.Errorf("layout %s, warnings %v; want v5 and none", sd.Layout, sd.Warnings)
	}
	if sd.FEMMod != 3 || sd.NDiv != 1 || sd.Nmodes != 0 || !sd.SttcSolve || sd.IntMethod != 3 || sd.GuyanDampMod != 0 {
		t.Errorf("scalars: %+v", sd)
	}
	if len(sd.JDampings) != 1 || sd.JDampings[0] != 1 {
		t.Errorf("JDampings %v", sd.JDampings)
	}
	if len(sd.Joints) != 19 || sd.Joints[18].Z != 15 || sd.Joints[0].Z != -30 {
		t.Errorf("joints %d: first %+v last %+v", len(sd.Joints), sd.Joints[0], sd.Joints[len(sd.Joints)-1])
	}
	if len(sd.Reactions) != 1 || sd.Reactions[0].JointID != 1 || sd.Reactions[0].Fixed != [6]bool{true, true, true, true, true, true} {
		t.Errorf("reactions %+v", sd.Reactions)
	}
	if len(sd.Interfaces) != 1 || sd.Interfaces[0].JointID != 19 || sd.Interfaces[0].TPID != 1 {
		t.Errorf("interfaces %+v", sd.Interfaces)
	}
	if len(sd.Members) != 18 || sd.Members[2].P1 != 1 || sd.Members[2].P2 != 2 || sd.Members[2].Type != SDBeamCircular {
		t.Errorf("members %d: %+v", len(sd.Members), sd.Members[2])
	}
	if len(sd.PropsCyl) != 9 || sd.PropsCyl[0].T != 0.055341 || sd.PropsCyl[8].G != 79.3e9 {
		t.Errorf("props %+v", sd.PropsCyl)
	}
	if len(sd.CMasses) != 1 || sd.CMasses[0].M != 1e5 || sd.CMasses[0].Jzz != 2.5e6 {
		t.Errorf("cmass %+v", sd.CMasses)
	}
	if len(sd.MemberOutputs) != 2 || sd.MemberOutputs[1].MemberID != 3 || sd.MemberOutputs[1].Nodes[0] != 1 {
		t.Errorf("member outputs %+v", sd.MemberOutputs)
	}
	want := "M2N1MKxe M2N1MKye M1N1MKxe M1N1MKye -ReactFXss -ReactFYss -ReactFZss -ReactMXss -ReactMYss -ReactMZss ReactFXss ReactFYss ReactFZss ReactMXss ReactMYss ReactMZss IntfFXss IntfFYss IntfFZss IntfMXss IntfMYss IntfMZss"
	if got := strings.Join(sd.OutList, " "); got != want {
		t.Errorf("OutList\n got %s\nwant %s", got, want)
	}
}

func TestReadSubDynV3Converts(t *testing.T) {
	for _, p := range []string{
		testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat"),
		testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT_SubDyn.dat"),
	} {
		sd, err := ReadSubDyn(p)
		if err != nil {
			t.Fatal(err)
		}
		if sd.Layout != "v1.01" {
			t.Errorf("%s: layout %s", p, sd.Layout)
		}
		var msgs []string
		for _, w := range sd.Warnings {
			msgs = append(msgs, w.Variable)
		}
		joined := strings.Join(msgs, ",")
		for _, v := range []string{"GuyanLoadCorrection", "NInterf", "MType"} {
			if !strings.Contains(joined, v) {
				t.Errorf("%s: no conversion warning for %s (got %s)", p, v, joined)
			}
		}
		for _, m := range sd.Members {
			if m.Type != SDBeamCircular {
				t.Errorf("member %d type %q", m.ID, m.Type)
			}
		}
		if len(sd.Interfaces) != 1 || sd.Interfaces[0].TPID != 1 || len(sd.PropsCyl) != 9 || len(sd.CMasses) != 1 {
			t.Errorf("%s: interfaces %+v, %d props, %d cmass", p, sd.Interfaces, len(sd.PropsCyl), len(sd.CMasses))
		}
	}
	p := testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT_SubDyn.dat")
	sd, err := ReadSubDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	if sd.GuyanDampMod != 1 || sd.RayleighDamp[1] != 0.00183 || len(sd.Joints) != 10 || sd.Joints[9].Z != 15 || len(sd.MemberOutputs) != 8 || sd.MemberOutputs[7].Nodes[0] != 2 || len(sd.OutList) != 0 {
		t.Errorf("IEA 22: %+v", sd)
	}
}

func TestReadSubDynErrorsNameLine(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat")
	sd, err := ReadSubDyn(p)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range sd.Meta.Src.Lines {
		b.WriteString(l.Raw + "\n")
	}
	good := b.String()
	for _, c := range []struct{ from, to, want string }{
		{"    18          18          19          9           9           1c", "    18          18          19          9           9           7x", "MType"},
		{"   9        2.00000e+11       79.3e9          7800.0           10.0             0.041058", "   9        2.00000e+11       79.3e9          7800.0           10.0             abc", "XsecT"},
		{"             18   NMembers", "             30   NMembers", "NMembers"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("fixture line %q not found", c.from)
		}
		src, err := sourceFromBytes("SubDyn.dat", []byte(bad), false)
		if err != nil {
			t.Fatal(err)
		}
		_, err = parseSubDyn(src)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "SubDyn.dat:") {
			t.Errorf("%s: error %v, want one naming file:line and %s", c.want, err, c.want)
		}
	}
}

func TestReadSubDynSSIFile(t *testing.T) {
	p := testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	row := "     1           1           1           1           1           1           1\n"
	if !strings.Contains(string(b), row) {
		t.Fatal("reaction row not found")
	}
	dir := t.TempDir()
	withSSI := strings.Replace(string(b), row, "     1           0           0           1           0           0           1     \"soil/pile.ssi\"\n", 1)
	if err := os.WriteFile(filepath.Join(dir, "SubDyn.dat"), []byte(withSSI), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "soil"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "soil", "pile.ssi"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SSI file of a pile\n1.5e9   Kxx\n1.5e9 Kyy\n-2.0e10 Kxty ! coupling\n8e11 Ktyty\n8e11 Ktxtx\n2e4 Mxx\n")
	sd, err := ReadSubDyn(filepath.Join(dir, "SubDyn.dat"))
	if err != nil {
		t.Fatal(err)
	}
	r := sd.Reactions[0]
	if r.SSIFile != "soil/pile.ssi" || r.Soil == nil || r.Fixed != [6]bool{false, false, true, false, false, true} {
		t.Fatalf("reaction %+v", r)
	}
	s := r.Soil
	if s.K[0][0] != 1.5e9 || s.K[0][4] != -2e10 || s.K[4][0] != -2e10 || !s.KGiven[4][4] || s.KGiven[2][2] || s.M[0][0] != 2e4 || !s.MGiven[0][0] {
		t.Errorf("soil %+v", s)
	}
	write("1.5e9 Kxq\n")
	if _, err := ReadSubDyn(filepath.Join(dir, "SubDyn.dat")); err == nil || !strings.Contains(err.Error(), "pile.ssi:1: Kxq") {
		t.Errorf("bad label: %v, want an error naming pile.ssi:1 and Kxq", err)
	}
	if err := os.Remove(filepath.Join(dir, "soil", "pile.ssi")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSubDyn(filepath.Join(dir, "SubDyn.dat")); err == nil || !strings.Contains(err.Error(), "SSIfile") || strings.Contains(err.Error(), dir) {
		t.Errorf("missing SSI file: %v, want an error on the SSIfile line without the server path", err)
	}
}

// copyCase copies the reference case's input files (not its outputs) to a
// temporary deck tree.
func copyCase(t *testing.T, src string) string {
	t.Helper()
	return testshared.CopyDeck(t, src)
}

// A deck whose SubDyn reaction names an SSI file: LoadIn reads it inside
// the deck's tree and Deck.SubDyn hands it over; a name leaving the tree
// is refused without the path in the message.
func TestLoadInReadsSubDynSSIInsideTheTree(t *testing.T) {
	root := copyCase(t, testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still"))
	sdPath := filepath.Join(root, "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat")
	b, err := os.ReadFile(sdPath)
	if err != nil {
		t.Fatal(err)
	}
	row := "     1           1           1           1           1           1           1\n"
	set := func(name string) {
		out := strings.Replace(string(b), row, "     1           0           0           1           0           0           1     \""+name+"\"\n", 1)
		if out == string(b) {
			t.Fatal("reaction row not found")
		}
		if err := os.WriteFile(sdPath, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set("pile.ssi")
	if err := os.WriteFile(filepath.Join(root, "IEA-15-240-RWT-Monopile", "pile.ssi"), []byte("1e9 Kxx\n1e9 Kyy\n1e12 Ktxtx\n1e12 Ktyty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst"
	d, err := LoadIn(root, main)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := d.SubDyn()
	if err != nil {
		t.Fatal(err)
	}
	if s := sd.Reactions[0].Soil; s == nil || s.K[3][3] != 1e12 {
		t.Fatalf("soil not handed over: %+v", sd.Reactions[0])
	}
	found := false
	for _, f := range d.Files {
		found = found || (f.Role == "SubDyn SSI" && f.Loaded)
	}
	if !found {
		t.Error("the SSI file is not among the deck's files")
	}
	outside := filepath.Join(t.TempDir(), "secret.ssi")
	if err := os.WriteFile(outside, []byte("1e9 Kxx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(filepath.Join(root, "IEA-15-240-RWT-Monopile"), outside)
	set(rel)
	_, err = LoadIn(root, main)
	if err == nil || !strings.Contains(err.Error(), "SSIfile") || strings.Contains(err.Error(), "secret") {
		t.Errorf("SSI file outside the tree: %v, want a refusal naming SSIfile and not the path", err)
	}
}

// The published IEA 22 MW monopile deck states WtrDpth 300 m in the .fst
// and 34 m in HydroDyn, and stands SubDyn's base at −34 m: both are
// reported with file and line (warnings; nothing is corrected), and the
// consistent IEA 15 MW case has neither.
func TestWaterDepthDefectsReported(t *testing.T) {
	d, err := Load(testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range Validate(d) {
		if p.Variable == "WtrDpth" || p.Variable == "RJointID" {
			got = append(got, p.String())
			if !p.Warning {
				t.Errorf("%s: want a warning", p)
			}
		}
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"IEA-22-280-RWT_HydroDyn.dat:6: WtrDpth", "34 m here but 300 m in the primary file (IEA-22-280-RWT-Monopile.fst line 30)", "IEA-22-280-RWT_SubDyn.dat:", "reaction joint 1 is at z = -34 m"} {
		if !strings.Contains(joined, want) {
			t.Errorf("water-depth findings %q lack %q", joined, want)
		}
	}
	if d.Main.WtrDpth != 300 {
		t.Errorf("WtrDpth changed to %g", d.Main.WtrDpth)
	}
	ok, err := Load(testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Validate(ok) {
		if p.Variable == "WtrDpth" || p.Variable == "RJointID" {
			t.Errorf("consistent deck: %s", p)
		}
	}
}

// normalizedSubDyn drops what locates a SubDyn structure in its file
// (lines, meta, warnings, layout), so two files can be compared by value.
func normalizedSubDyn(sd *SubDyn) SubDyn {
	c := *sd
	c.Meta, c.Warnings, c.Layout = Meta{}, nil, ""
	c.Joints = append([]SDJoint(nil), sd.Joints...)
	for i := range c.Joints {
		c.Joints[i].Line = 0
	}
	c.Reactions = append([]SDReaction(nil), sd.Reactions...)
	for i := range c.Reactions {
		c.Reactions[i].Line = 0
	}
	c.Interfaces = append([]SDInterface(nil), sd.Interfaces...)
	for i := range c.Interfaces {
		c.Interfaces[i].Line = 0
	}
	c.Members = append([]SDMember(nil), sd.Members...)
	for i := range c.Members {
		c.Members[i].Line, c.Members[i].typeText = 0, ""
	}
	c.PropsCyl = append([]SDCylProp(nil), sd.PropsCyl...)
	for i := range c.PropsCyl {
		c.PropsCyl[i].Line = 0
	}
	c.CMasses = append([]SDCMass(nil), sd.CMasses...)
	for i := range c.CMasses {
		c.CMasses[i].Line = 0
	}
	c.PropsRec = append([]SDRecProp(nil), sd.PropsRec...)
	for i := range c.PropsRec {
		c.PropsRec[i].Line = 0
	}
	c.PropsArb = append([]SDArbProp(nil), sd.PropsArb...)
	for i := range c.PropsArb {
		c.PropsArb[i].Line = 0
	}
	c.Cables = append([]SDCableProp(nil), sd.Cables...)
	for i := range c.Cables {
		c.Cables[i].Line = 0
	}
	c.Rigids = append([]SDRigidProp(nil), sd.Rigids...)
	for i := range c.Rigids {
		c.Rigids[i].Line = 0
	}
	c.Springs = append([]SDSpringProp(nil), sd.Springs...)
	for i := range c.Springs {
		c.Springs[i].Line = 0
	}
	c.MemberOutputs = append([]SDMemberOutput(nil), sd.MemberOutputs...)
	for i := range c.MemberOutputs {
		c.MemberOutputs[i].Line = 0
	}
	return c
}

func writeParse(t *testing.T, sd *SubDyn) *SubDyn {
	t.Helper()
	var b strings.Builder
	if err := sd.WriteV5(&b); err != nil {
		t.Fatal(err)
	}
	src, err := sourceFromBytes("SubDyn.dat", []byte(b.String()), false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := parseSubDyn(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if out.Layout != "v5" || len(out.Warnings) != 0 {
		t.Errorf("written file: layout %s, warnings %v", out.Layout, out.Warnings)
	}
	return out
}

// The published v1.01 IEA 15 MW SubDyn file written in the v5 layout is
// the v5 file of the OpenFAST v5 reference case (same values; that case
// only adds output channels), and a v5 file survives a write unchanged.
func TestSubDynWriteV5ConvertsThePublishedFile(t *testing.T) {
	v3, err := ReadSubDyn(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat"))
	if err != nil {
		t.Fatal(err)
	}
	v5, err := ReadSubDyn(testshared.Path(t, "reference-outputs", "iea15_monopile_steady10_still", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile_SubDyn.dat"))
	if err != nil {
		t.Fatal(err)
	}
	conv := normalizedSubDyn(writeParse(t, v3))
	ref := normalizedSubDyn(v5)
	conv.OutList, ref.OutList = nil, nil
	if !reflect.DeepEqual(conv, ref) {
		t.Errorf("converted v1.01 file differs from the v5 reference case:\n got %+v\nwant %+v", conv, ref)
	}
	again := normalizedSubDyn(writeParse(t, v5))
	if want := normalizedSubDyn(v5); !reflect.DeepEqual(again, want) {
		t.Errorf("v5 file changed by a write:\n got %+v\nwant %+v", again, want)
	}
	v22, err := ReadSubDyn(testshared.Path(t, "reference-decks", "IEA-22-280-RWT", "IEA-22-280-RWT-Monopile", "IEA-22-280-RWT_SubDyn.dat"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizedSubDyn(writeParse(t, v22)), normalizedSubDyn(v22); !reflect.DeepEqual(got, want) {
		t.Errorf("IEA 22 MW file changed by the conversion:\n got %+v\nwant %+v", got, want)
	}
	v5.Nmodes = -1
	if err := v5.WriteV5(io.Discard); err == nil {
		t.Error("Nmodes standing for every mode written without an error")
	}
}

// A loaded v1.01 deck converted in place: its SubDyn file then reads in the
// v5 layout with the same model, and Validate no longer warns about it.
func TestConvertSubDynToV5InADeck(t *testing.T) {
	d, err := Load(testshared.Path(t, "reference-decks", "IEA-15-240-RWT", "IEA-15-240-RWT-Monopile", "IEA-15-240-RWT-Monopile.fst"))
	if err != nil {
		t.Fatal(err)
	}
	before, err := d.SubDyn()
	if err != nil {
		t.Fatal(err)
	}
	warns, err := d.ConvertSubDynToV5()
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) == 0 {
		t.Error("no conversion warnings returned")
	}
	after, err := d.SubDyn()
	if err != nil {
		t.Fatal(err)
	}
	if after.Layout != "v5" || !reflect.DeepEqual(normalizedSubDyn(after), normalizedSubDyn(before)) {
		t.Errorf("converted deck: layout %s, model changed", after.Layout)
	}
	for _, p := range Validate(d) {
		if strings.Contains(p.File, "SubDyn") && p.Variable != "RJointID" {
			t.Errorf("after conversion: %s", p)
		}
	}
	if w, err := d.ConvertSubDynToV5(); err != nil || w != nil {
		t.Errorf("second conversion: %v %v", w, err)
	}
}
