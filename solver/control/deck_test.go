package control

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// The adapter must produce the hand-converted parameters of
// ServoDyn_Simple.dat (see nrel5MWSimpleVS).
func TestFromDeckNREL5MWSimple(t *testing.T) {
	path := testshared.Path(t, "reference-outputs", "nrel5mw_steady8_rigid_bem", "onshore", "ServoDyn_Simple.dat")
	sd, err := deck.ReadServoDyn(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromDeck(sd, DeckOptions{GlueDT: 0.01, NumBl: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := nrel5MWSimpleVS()
	checks := []struct {
		name      string
		got, want float64
	}{
		{"VS_RtGnSp", p.VSRtGnSp, want.VSRtGnSp}, {"VS_RtTq", p.VSRtTq, want.VSRtTq},
		{"VS_Rgn2K", p.VSRgn2K, want.VSRgn2K}, {"VS_SlPc", p.VSSlPc, want.VSSlPc},
		{"GenEff", p.GenEff, want.GenEff}, {"TimGenOn", p.TimGenOn, want.TimGenOn},
		{"DLL_DT", p.DLLDT, 0.01},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if p.VSContrl != 1 || p.PCMode != 0 || !p.GenTiStr {
		t.Errorf("modes: VSContrl %d PCMode %d GenTiStr %v", p.VSContrl, p.PCMode, p.GenTiStr)
	}
	s, err := NewFromDeck(sd, DeckOptions{GlueDT: 0.01, NumBl: 3})
	if err != nil || s.ControllerName() != "" {
		t.Fatalf("simple deck: %v, controller %q", err, s.ControllerName())
	}
}

// The IEA-15 ServoDyn (VSContrl 5, PCMode 5, libdiscon.so + DISCON.IN)
// resolves to the built-in ROSCO and produces rated torque on the first call
// at the deck's initial 7.55 rpm (> 0.98·PC_RefSpd).
func TestNewFromDeckIEA15(t *testing.T) {
	path := testshared.Path(t, "reference-outputs", "iea15_onshore_steady10_rosco", "IEA-15-240-RWT-Onshore", "IEA-15-240-RWT-Onshore_ServoDyn.dat")
	sd, err := deck.ReadServoDyn(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewFromDeck(sd, DeckOptions{GlueDT: 0.005, NumBl: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.ControllerName(), "ROSCO") {
		t.Fatalf("controller %q, want ROSCO", s.ControllerName())
	}
	w := 7.55 * math.Pi / 30
	y, err := s.Init(0, Inputs{HSSSpd: w, LSSSpd: w, HorWindV: 10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(y.GenTrq-19786767.46773) > 5 { // float32 record
		t.Errorf("first-call torque %g, want VS_RtTq 19786767", y.GenTrq)
	}
	if got := y.ElecPwr; math.Abs(got-y.GenTrq*w*0.95756) > 1e-6*got {
		t.Errorf("power %g", got)
	}
}

// Every ServoDyn file of the reference decks builds a module; those naming a
// controller library get the built-in ROSCO (the IEA decks' libdiscon.so
// comes with a ROSCO DISCON.IN).
func TestReferenceDeckServoDynFilesBuild(t *testing.T) {
	root := testshared.Path(t, "reference-decks")
	var files []string
	for _, pat := range []string{"*/*/*ServoDyn*.dat", "*/*ServoDyn*.dat"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		if strings.Contains(filepath.Base(f), "StC") { // structural-control input, not a ServoDyn file
			continue
		}
		sd, err := deck.ReadServoDyn(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		s, err := NewFromDeck(sd, DeckOptions{GlueDT: 0.01, NumBl: 3})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if sd.VSContrl == ModeDLL && !strings.Contains(s.ControllerName(), "ROSCO") {
			t.Errorf("%s: controller %q, want ROSCO", f, s.ControllerName())
		}
		n++
	}
	if n < 5 {
		t.Errorf("only %d ServoDyn files checked", n)
	}
}
