package decks

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// deckEdit is what an update changes in a turbine's stored deck: each
// field is set only when the update states a value that differs from the
// row's (scalars) or from the stored blob's deck-shaping key (blobs).
type deckEdit struct {
	rotorDiameterM, hubHeightM, shaftTiltDeg, preconeDeg *float64
	ratedRotorSpeedRPM, ratedPowerKW                     *float64
	blade                                                turbinesim.BladeSpec
	tower                                                turbinesim.TowerSpec
	nacelle                                              turbinesim.NacelleSpec
	ctrl                                                 turbinesim.ControllerSpec
}

func (e *deckEdit) empty() bool {
	return reflect.ValueOf(*e).IsZero()
}

// deckEditOf compares u with the current row. The stored blobs of cur are
// decoded leniently: a blob stored before PUT checked blobs may not decode,
// and then counts as stating nothing.
func deckEditOf(u *turbinesim.TurbineUpdate, cur *turbinesim.Turbine) (deckEdit, error) {
	var e deckEdit
	changed := func(next, old *float64) *float64 {
		if next != nil && (old == nil || *old != *next) {
			return next
		}
		return nil
	}
	e.rotorDiameterM = changed(u.RotorDiameterM, cur.RotorDiameterM)
	e.hubHeightM = changed(u.HubHeightM, cur.HubHeightM)
	e.shaftTiltDeg = changed(u.ShaftTiltDeg, cur.ShaftTiltDeg)
	e.preconeDeg = changed(u.PreconeDeg, cur.PreconeDeg)
	e.ratedRotorSpeedRPM = changed(u.RatedRotorSpeedRPM, cur.RatedRotorSpeedRPM)
	e.ratedPowerKW = changed(u.RatedPowerKW, cur.RatedPowerKW)

	next, err := turbinesim.DecodeDeckSpecs(u.BladeConfig, u.TowerConfig, u.NacelleConfig, u.ControllerConfig)
	if err != nil {
		return e, err
	}
	var old turbinesim.DeckSpecs
	_ = turbinesim.DecodeConfigBlob("blade_config", cur.BladeConfig, &old.Blade)
	_ = turbinesim.DecodeConfigBlob("tower_config", cur.TowerConfig, &old.Tower)
	_ = turbinesim.DecodeConfigBlob("nacelle_config", cur.NacelleConfig, &old.Nacelle)
	_ = turbinesim.DecodeConfigBlob("controller_config", cur.ControllerConfig, &old.Controller)
	if next.Blade.Stations != nil && !reflect.DeepEqual(next.Blade.Stations, old.Blade.Stations) {
		e.blade.Stations = next.Blade.Stations
	}
	if next.Tower.Stations != nil && !reflect.DeepEqual(next.Tower.Stations, old.Tower.Stations) {
		e.tower.Stations = next.Tower.Stations
	}
	e.nacelle.GearboxRatio = changed(next.Nacelle.GearboxRatio, old.Nacelle.GearboxRatio)
	e.nacelle.OverhangM = changed(next.Nacelle.OverhangM, old.Nacelle.OverhangM)
	e.nacelle.Twr2ShftM = changed(next.Nacelle.Twr2ShftM, old.Nacelle.Twr2ShftM)
	e.ctrl.GeneratorEfficiencyPct = changed(next.Controller.GeneratorEfficiencyPct, old.Controller.GeneratorEfficiencyPct)
	return e, nil
}

// Editor is the turbinesim.DeckEditor of this package: ChangesDeck and
// RebuildDeck.
type Editor struct{}

var _ turbinesim.DeckEditor = Editor{}

// ChangesDeck implements turbinesim.DeckEditor.
func (Editor) ChangesDeck(u *turbinesim.TurbineUpdate, cur *turbinesim.Turbine) (bool, error) {
	return ChangesDeck(u, cur)
}

// RebuildDeck implements turbinesim.DeckEditor.
func (Editor) RebuildDeck(ctx context.Context, u *turbinesim.TurbineUpdate, cur, next *turbinesim.Turbine, srcDir, dstDir string) error {
	return RebuildDeck(ctx, u, cur, next, srcDir, dstDir)
}

// ChangesDeck reports whether u changes a value the stored deck of cur
// holds: rotor diameter, hub height, shaft tilt, precone, rated rotor
// speed, rated power, or a deck-shaping key of a blob (BladeSpec,
// TowerSpec, NacelleSpec, ControllerSpec). Name, description, the
// wind-speed band and other blob keys are not in a deck. False when the
// row has no deck.
func ChangesDeck(u *turbinesim.TurbineUpdate, cur *turbinesim.Turbine) (bool, error) {
	e, err := deckEditOf(u, cur)
	if err != nil {
		return false, err
	}
	return cur.HasDeck() && !e.empty(), nil
}

// RebuildDeck writes into dstDir (empty) the stored deck of cur, read from
// srcDir, with the deck-shaping changes of u applied: the same steps as a
// build from scratch (deckModel), with the turbine's own
// deck as the template. Only the files of the changed modules are
// rewritten; every other file is copied as stored, so MainFile stays valid.
// next is the updated row (u.Apply); its hub_height_m follows the deck
// when an offshore tower cannot hold the hub at its height, and its
// Warnings are those of the rebuilt deck (Warnings). An edit the deck
// cannot carry is EINVALID naming the field and the reason; a done ctx
// stops a controller retuning's sensitivity sweep.
func RebuildDeck(ctx context.Context, u *turbinesim.TurbineUpdate, cur, next *turbinesim.Turbine, srcDir, dstDir string) error {
	if !cur.HasDeck() {
		return fmt.Errorf("rebuild deck: turbine %s has no stored deck", cur.ID)
	}
	e, err := deckEditOf(u, cur)
	if err != nil {
		return err
	}
	if err := os.CopyFS(dstDir, os.DirFS(srcDir)); err != nil {
		return fmt.Errorf("rebuild deck: copying the stored files: %w", err)
	}
	d, err := deck.LoadIn(dstDir, *cur.MainFile)
	if err != nil {
		detail := "unreadable input file"
		var de *deck.Error
		if errors.As(err, &de) {
			detail = fmt.Sprintf("%s: %s %s", filepath.Base(de.File), de.Variable, de.Msg)
		}
		return turbinesim.WrapError(turbinesim.EINVALID, e.firstField()+": the turbine's stored input files cannot be read ("+detail+"), so the edit cannot be applied to them; upload a corrected deck instead", err)
	}
	changedFiles, err := e.apply(ctx, d, next)
	if err != nil {
		return err
	}
	for _, f := range changedFiles {
		rel, err := filepath.Rel(dstDir, f.path)
		if err != nil || !filepath.IsLocal(rel) {
			return turbinesim.WrapError(turbinesim.EINVALID, fmt.Sprintf("%s: the deck's %s file lies outside the turbine's stored files, so the edit cannot be written", e.firstField(), f.what), err)
		}
		if f.raw != nil {
			if err := os.WriteFile(f.path, f.raw, 0o644); err != nil {
				return fmt.Errorf("rebuild deck: writing %s: %w", f.what, err)
			}
			continue
		}
		if err := deck.WriteFile(f.path, f.v); err != nil {
			return fmt.Errorf("rebuild deck: writing %s: %w", f.what, err)
		}
	}
	// The rewritten deck must read back, as a job submission will read it.
	rebuilt, err := deck.LoadIn(dstDir, *cur.MainFile)
	if err != nil {
		return fmt.Errorf("rebuild deck: the rewritten deck does not read back: %w", err)
	}
	// The warnings of the deck as it now stands: a retuned parameter
	// file's, or those of the file the edit kept.
	next.Warnings = Warnings(dstDir, rebuilt)
	report, err := editReport(srcDir, dstDir, *cur.MainFile, e)
	if err != nil {
		return err
	}
	next.DeckChanges = report
	return nil
}

// editReport states what an edit rewrote: every changed parameter with its
// old and new value (DiffDecks of the deck before and after), the files
// that hold them, and the effects an engineer checks: the first tower
// fore-aft frequency from the structural model before and after, and how
// a hub-height edit changed the tower.
func editReport(srcDir, dstDir, mainFile string, e deckEdit) (*turbinesim.DeckEditReport, error) {
	rows, err := DiffDecks(srcDir, dstDir)
	if err != nil {
		return nil, fmt.Errorf("rebuild deck: comparing the deck before and after: %w", err)
	}
	r := &turbinesim.DeckEditReport{Changes: rows, Files: []string{}, Notes: []string{}}
	if r.Changes == nil {
		r.Changes = []turbinesim.DeckParamDiff{}
	}
	for _, row := range rows {
		if len(r.Files) == 0 || r.Files[len(r.Files)-1] != row.File {
			r.Files = append(r.Files, row.File)
		}
		if row.Parameter == "TowerHt" && e.hubHeightM != nil && row.A != nil && row.B != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("tower height TowerHt %s → %s m: the tower is stretched (or shortened) keeping its distributed properties per height fraction (TMassDen, TwFAStif, TwSSStif of the stored tower file); its mass and stiffness per metre are those of the stored tower, not a redesign", shortNumber(*row.A), shortNumber(*row.B)))
		}
	}
	before, errA := firstTowerFAFrequency(srcDir, mainFile)
	after, errB := firstTowerFAFrequency(dstDir, mainFile)
	if errA == nil && errB == nil && math.Abs(before-after) >= 0.0005 {
		r.Notes = append(r.Notes, fmt.Sprintf("first tower fore-aft frequency %.3f → %.3f Hz (structural model: the tower with its top mass, without gravity)", before, after))
		r.TowerFAFrequencyHz = &[2]float64{before, after}
	}
	return r, nil
}

// shortNumber writes a number value with at most 6 significant digits
// (117.59999661157524 as 117.6); other values unchanged.
func shortNumber(v string) string {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}

// firstTowerFAFrequency is structure.Model.FirstTowerFAFrequency of the
// deck at dir with main file mainFile.
func firstTowerFAFrequency(dir, mainFile string) (float64, error) {
	d, err := deck.LoadIn(dir, mainFile)
	if err != nil {
		return 0, err
	}
	p, err := structure.ParamsFromDeck(d)
	if err != nil {
		return 0, err
	}
	m, err := structure.NewModel(p, nil)
	if err != nil {
		return 0, err
	}
	return m.FirstTowerFAFrequency(), nil
}

// changedFile is one module structure to write back to its own file, or
// (raw not nil) a file's new text.
type changedFile struct {
	what string
	path string
	v    any
	raw  []byte
}

// controllerKind names the controller that sets a deck's rated operation,
// or "" for ServoDyn's simple variable-speed law, which an edit retunes.
func controllerKind(d *deck.Deck) string {
	sd := d.ServoDyn
	switch {
	case sd == nil:
		return "no ServoDyn controller"
	case sd.VSContrl == 1 && sd.PCMode != 5:
		return ""
	case d.Controller != nil:
		return "ROSCO controller (DISCON.IN)"
	case sd.VSContrl == 5 || sd.PCMode == 5:
		return "Bladed-style DLL controller"
	default:
		return fmt.Sprintf("ServoDyn controller (VSContrl %d)", sd.VSContrl)
	}
}

// apply changes the loaded deck and returns the structures to rewrite.
func (e *deckEdit) apply(ctx context.Context, d *deck.Deck, next *turbinesim.Turbine) ([]changedFile, error) {
	ed, ad, sd := d.ElastoDyn, d.AeroDyn, d.ServoDyn
	if ed == nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: the turbine's deck has no ElastoDyn structural model to apply it to", e.firstField())
	}
	offshore := d.Main.CompHydro != 0 || d.Main.CompSub != 0 || d.Main.CompMooring != 0
	kind := controllerKind(d)
	// A baseline parameter file the builder wrote is retuned like
	// ServoDyn's simple law (tuneBaselineController); other DLL and ROSCO
	// controllers set the rated operation themselves.
	builtBaseline := builtBaselinePath(d)
	if builtBaseline != "" {
		kind = ""
	}
	for _, c := range []struct {
		field string
		set   bool
	}{{"rated_power_kw", e.ratedPowerKW != nil}, {"rated_rotor_speed_rpm", e.ratedRotorSpeedRPM != nil}} {
		if c.set && kind != "" {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: the turbine's deck runs a %s, which sets the rated operation itself; an edit cannot retune it (upload a deck with a retuned controller)", c.field, kind)
		}
	}
	if e.ctrl.GeneratorEfficiencyPct != nil && sd == nil {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "controller_config.generator_efficiency_pct: the turbine's deck has no ServoDyn module to hold it")
	}
	if offshore {
		// The tower of an offshore deck stands on the substructure that
		// HydroDyn, SubDyn and the mooring model describe at fixed
		// elevations; a new tower length or tower properties would need
		// a re-designed support structure and new tower mode shapes.
		if e.hubHeightM != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "hub_height_m: the turbine is offshore; its tower stands on a substructure (HydroDyn/SubDyn/mooring) designed for the present height, so the hub height cannot be changed by an edit")
		}
		if e.tower.Stations != nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "tower_config.stations: the turbine is offshore; its tower properties are tuned with the substructure, so they cannot be changed by an edit")
		}
	}
	rotorEdit := e.rotorDiameterM != nil || e.blade.Stations != nil
	if rotorEdit && (ad == nil || len(ad.Blades) == 0 || ad.Blades[0] == nil) {
		field := "rotor_diameter_m"
		if e.rotorDiameterM == nil {
			field = "blade_config.stations"
		}
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: the turbine's deck has no AeroDyn blades to apply it to", field)
	}
	if e.rotorDiameterM != nil && d.Main.CompElast == 2 {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "rotor_diameter_m: the turbine's blades are modelled in BeamDyn, whose reference axis is given in metres; a new diameter cannot be applied by an edit (upload a deck with re-designed BeamDyn blades)")
	}

	var files []changedFile
	edChanged, towerChanged, sdChanged := false, false, false
	r0, g0 := ed.TipRad, ed.GBRatio
	hub0 := hubHeightOf(ed)
	if e.rotorDiameterM != nil {
		if err := setRotorDiameter(ed, *e.rotorDiameterM); err != nil {
			return nil, err
		}
		edChanged = true
	}
	if e.shaftTiltDeg != nil {
		ed.ShftTilt = *e.shaftTiltDeg
		edChanged = true
	}
	if e.preconeDeg != nil {
		for i := range ed.PreCone {
			ed.PreCone[i] = *e.preconeDeg
		}
		edChanged = true
	}
	if e.nacelle != (turbinesim.NacelleSpec{}) {
		applyNacelle(ed, e.nacelle)
		edChanged = true
	}
	if e.ratedRotorSpeedRPM != nil {
		ed.RotSpeed = *e.ratedRotorSpeedRPM
		edChanged = true
	}
	// The hub stays where it was unless the edit moves it: a new tilt,
	// overhang or shaft height resizes the tower (onshore). Offshore the
	// tower keeps its length and the row's hub height follows the deck.
	hub := hub0
	if e.hubHeightM != nil {
		hub = *e.hubHeightM
	}
	if !offshore && math.Abs(hubHeightOf(ed)-hub) > 1e-9*math.Max(1, hub) {
		if err := setHubHeight(ed, hub); err != nil {
			return nil, err
		}
		edChanged = true
	}
	if offshore && next.HubHeightM != nil && edChanged {
		h := roundSignificant(hubHeightOf(ed), 7)
		next.HubHeightM = &h
	}

	if rotorEdit {
		// Each distinct blade file once (blades naming the same file
		// share one structure).
		seen := map[*deck.ADBlade]bool{}
		for i, b := range ad.Blades {
			if b == nil || seen[b] {
				continue
			}
			seen[b] = true
			if st := e.blade.Stations; st != nil {
				if err := setBladeStations(b, st.SpanM, st.ChordM, st.TwistDeg, ed); err != nil {
					return nil, err
				}
			} else {
				scaleBladeSpan(b, ed.TipRad-ed.HubRad)
			}
			files = append(files, changedFile{what: fmt.Sprintf("AeroDyn blade %d", i+1), path: b.Meta.Path, v: b})
		}
	}
	if st := e.tower.Stations; st != nil {
		if ed.Tower == nil {
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "tower_config.stations: the turbine's deck has no ElastoDyn tower file to hold them")
		}
		setTowerStations(ed.Tower, st.HtFract, st.MassDenKgM, st.FAStiffNm2, st.SSStiffNm2)
		towerChanged = true
	}
	if g := e.ctrl.GeneratorEfficiencyPct; g != nil {
		sd.GenEff = *g
		sdChanged = true
	}
	// ServoDyn's simple torque law is tuned to the rotor, the drive train
	// and the rated point; retune it as a build does when any changed.
	retune := e.ratedPowerKW != nil || e.ratedRotorSpeedRPM != nil || e.rotorDiameterM != nil ||
		e.nacelle.GearboxRatio != nil || e.ctrl.GeneratorEfficiencyPct != nil
	if retune && kind == "" {
		if next.RatedPowerKW == nil || next.RatedRotorSpeedRPM == nil {
			field := "rated_power_kw"
			if next.RatedPowerKW != nil {
				field = "rated_rotor_speed_rpm"
			}
			return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: needed to retune the deck's simple variable-speed torque law for this edit; state it in the update", field)
		}
		if err := tuneSimpleTorqueControl(sd, ed, r0, g0, *next.RatedPowerKW, *next.RatedRotorSpeedRPM); err != nil {
			return nil, err
		}
		sdChanged = true
		if builtBaseline != "" {
			p, note, err := tuneBaselineController(ctx, d, sd.GenEff, *next.RatedPowerKW, *next.RatedRotorSpeedRPM)
			if err != nil {
				return nil, err
			}
			files = append(files, changedFile{what: "baseline controller parameters", path: builtBaseline,
				raw: baselineFileText(p, note, *next.RatedPowerKW, *next.RatedRotorSpeedRPM, sd.GenEff)})
		}
	}
	if edChanged {
		files = append(files, changedFile{what: "ElastoDyn", path: ed.Meta.Path, v: ed})
	}
	if towerChanged {
		files = append(files, changedFile{what: "ElastoDyn tower", path: ed.Tower.Meta.Path, v: ed.Tower})
	}
	if sdChanged {
		files = append(files, changedFile{what: "ServoDyn", path: sd.Meta.Path, v: sd})
	}
	return files, nil
}

// firstField names the first changed field, for messages about the deck
// as a whole.
func (e *deckEdit) firstField() string {
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"rotor_diameter_m", e.rotorDiameterM != nil}, {"hub_height_m", e.hubHeightM != nil},
		{"shaft_tilt_deg", e.shaftTiltDeg != nil}, {"precone_deg", e.preconeDeg != nil},
		{"rated_rotor_speed_rpm", e.ratedRotorSpeedRPM != nil}, {"rated_power_kw", e.ratedPowerKW != nil},
		{"blade_config.stations", e.blade.Stations != nil}, {"tower_config.stations", e.tower.Stations != nil},
		{"nacelle_config", e.nacelle != (turbinesim.NacelleSpec{})}, {"controller_config.generator_efficiency_pct", e.ctrl.GeneratorEfficiencyPct != nil},
	} {
		if f.set {
			return f.name
		}
	}
	return "update"
}
