package decks_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// simpleLawTurbine writes the build template with ServoDyn's simple
// variable-speed torque law (VSContrl 1, no pitch DLL) and returns its row
// as a build would store it.
func simpleLawTurbine(t *testing.T) (*turbinesim.Turbine, string) {
	t.Helper()
	m := buildTemplate(t)
	m.ServoDyn.VSContrl, m.ServoDyn.PCMode = 1, 0
	dir := t.TempDir()
	mainRel, err := m.WriteDeck(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := "stored"
	return &turbinesim.Turbine{ID: "t1", Name: "Simple", MainFile: &mainRel, SourceKey: &key,
		TurbineParams: turbinesim.TurbineParams{RatedPowerKW: f64(5000), RotorDiameterM: f64(126), HubHeightM: f64(90), RatedRotorSpeedRPM: f64(12.1)}}, dir
}

func rebuild(t *testing.T, cur *turbinesim.Turbine, src string, u *turbinesim.TurbineUpdate) (*deck.Deck, error) {
	t.Helper()
	next, err := u.Apply(cur)
	if err != nil {
		return nil, err
	}
	if ok, err := decks.ChangesDeck(u, cur); err != nil || !ok {
		t.Fatalf("ChangesDeck = %v, %v; want true", ok, err)
	}
	dst := filepath.Join(t.TempDir(), "deck")
	if err := decks.RebuildDeck(context.Background(), u, cur, next, src, dst); err != nil {
		return nil, err
	}
	return deck.Load(filepath.Join(dst, filepath.FromSlash(*cur.MainFile)))
}

// TestTurbineUpdateRetunesSimpleTorqueLaw: with ServoDyn's own torque law
// a rated power or rotor speed edit retunes it as a build does
// (P = eta T omega at rated generator speed).
func TestTurbineUpdateRetunesSimpleTorqueLaw(t *testing.T) {
	cur, src := simpleLawTurbine(t)
	d, err := rebuild(t, cur, src, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedPowerKW: f64(5500), RatedRotorSpeedRPM: f64(11)}})
	if err != nil {
		t.Fatal(err)
	}
	sd, ed := d.ServoDyn, d.ElastoDyn
	omega := 11 * ed.GBRatio * 2 * math.Pi / 60
	if p := sd.GenEff / 100 * sd.VS_RtTq * omega; math.Abs(p-5.5e6) > 1 {
		t.Fatalf("rated power from the retuned torque %g W, want 5.5 MW", p)
	}
	if ed.RotSpeed != 11 || math.Abs(sd.VS_RtGnSp-0.99*11*ed.GBRatio) > 1e-9 {
		t.Fatalf("RotSpeed %g, VS_RtGnSp %g", ed.RotSpeed, sd.VS_RtGnSp)
	}

	// Without a rated power on the row the law cannot be retuned: 422.
	cur.RatedPowerKW = nil
	_, err = rebuild(t, cur, src, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedRotorSpeedRPM: f64(11)}})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.HasPrefix(turbinesim.ErrorMessage(err), "rated_power_kw: needed to retune") {
		t.Fatalf("retune without rated power: %v", err)
	}
}

// TestTurbineUpdateRetunesBuiltBaselineController: a from-scratch deck runs
// the built-in baseline controller from the parameter file the build
// wrote; a rated power/speed edit rewrites that file, and ParamsFromDeck
// reads the new rated point from it. A DLL deck without such a file (the
// bundled NREL 5 MW, DLL_InFile "unused") keeps its 422.
func TestTurbineUpdateRetunesBuiltBaselineController(t *testing.T) {
	tb, dir, _ := build6MW(t)
	tb.ID, tb.SourceKey = "t6", f64Key("stored")
	d, err := rebuild(t, tb, dir, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedPowerKW: f64(6500), RatedRotorSpeedRPM: f64(10.5)}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := decks.ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	if p.RatedPowerKW == nil || *p.RatedPowerKW != 6500 || p.RatedRotorSpeedRPM == nil || *p.RatedRotorSpeedRPM != 10.5 {
		t.Fatalf("after the edit ParamsFromDeck gives %v kW, %v rpm; want 6500 kW, 10.5 rpm", deref(p.RatedPowerKW), deref(p.RatedRotorSpeedRPM))
	}

	m := buildTemplate(t)
	src := t.TempDir()
	mainRel, err := m.WriteDeck(src)
	if err != nil {
		t.Fatal(err)
	}
	cur := &turbinesim.Turbine{ID: "t5", Name: "DLL", MainFile: &mainRel, SourceKey: f64Key("stored"),
		TurbineParams: turbinesim.TurbineParams{RatedPowerKW: f64(5000), RotorDiameterM: f64(126), HubHeightM: f64(90), RatedRotorSpeedRPM: f64(12.1)}}
	_, err = rebuild(t, cur, src, &turbinesim.TurbineUpdate{TurbineParams: turbinesim.TurbineParams{RatedPowerKW: f64(6000)}})
	if turbinesim.ErrorCode(err) != turbinesim.EINVALID || !strings.HasPrefix(turbinesim.ErrorMessage(err), "rated_power_kw: the turbine's deck runs a Bladed-style DLL controller") {
		t.Fatalf("rated power edit of a DLL deck without a builder's parameter file: %v", err)
	}
}

func f64Key(s string) *string { return &s }
