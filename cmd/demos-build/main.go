// Command demos-build regenerates the bundled reference turbines in
// assets/turbines from the published OpenFAST decks under
// ../shared/reference-decks: each deck is read with solver/deck and stored in
// the project's own turbine model (decks.DeckModel: typed values only,
// no text of the original files) as gzipped JSON, with a manifest.
//
//	go run ./cmd/demos-build [-shared ../shared] [-out assets/turbines]
package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// demoSource is one bundled turbine: where its deck is and the facts the
// deck does not state.
type demoSource struct {
	entry decks.DemoManifestEntry
	root  string // family folder under reference-decks
	main  string // .fst relative to root
	// onshore removes the substructure (SOURCES.md: the IEA 15 MW onshore
	// variant is the monopile turbine on rigid ground, without HydroDyn
	// and SubDyn).
	onshore bool
	// wind-speed band: NREL 5 MW from Jonkman et al. 2009 (NREL/TP-500-38060)
	// Table 1-1; IEA 15 MW from Gaertner et al. 2020 (NREL/TP-5000-75698)
	// Table 1-1 and the deck's ROSCO tuning file; IEA 22 MW from the
	// deck's ROSCO tuning file (v_min, v_rated, v_max).
	cutIn, rated, cutOut float64
	// ratedKW is used when the deck does not state the rated power (the
	// NREL 5 MW baseline controller has no parameter file): Jonkman et al.
	// 2009 Table 1-1.
	ratedKW float64
	// fix corrects a defect of the published deck, each one named in a
	// comment (the uploaded deck itself is refused with the defect named).
	fix func(d *deck.Deck)
	// afterV5 edits the deck once it is in the OpenFAST v5 layout.
	afterV5 func(d *deck.Deck) error
}

func sources() []demoSource {
	return []demoSource{
		{entry: decks.DemoManifestEntry{ID: "nrel-5mw-land", Name: "NREL 5 MW (land-based)", Type: "onshore",
			Description: "NREL offshore 5 MW baseline turbine on a land-based tower: 3 blades, 126 m rotor, 90 m hub, variable-speed variable-pitch with the NREL baseline controller"},
			root: "NREL-5MW-Land", main: "Main_Onshore.fst", cutIn: 3, rated: 11.4, cutOut: 25, ratedKW: 5000,
			// The shared deck runs ServoDyn's simple variable-speed law
			// with no pitch control (PCMode 0), so above rated the rotor
			// overspeeds. The reference turbine is defined with the NREL
			// baseline controller (Jonkman et al. 2009 §7): variable-speed
			// torque and gain-scheduled collective pitch, through the
			// Bladed interface. DISCON ignores its input file, so
			// DLL_InFile is "unused"; solver/control maps DISCON.dll with
			// no ROSCO input to its built-in baseline controller.
			fix: func(d *deck.Deck) {
				if sd := d.ServoDyn; sd != nil {
					sd.PCMode, sd.VSContrl = 5, 5
					sd.DLL_FileName, sd.DLL_InFile, sd.DLL_ProcName = "DISCON.dll", "unused", "DISCON"
				}
			}},
		{entry: decks.DemoManifestEntry{ID: "iea-15mw-onshore", Name: "IEA 15 MW (onshore)", Type: "onshore",
			Description: "IEA Wind 15 MW reference turbine, onshore variant: the monopile model with the substructure removed (tower base on rigid ground, no HydroDyn or SubDyn), ROSCO controller"},
			root: "IEA-15-240-RWT", main: "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst", onshore: true, cutIn: 3, rated: 10.59, cutOut: 25},
		{entry: decks.DemoManifestEntry{ID: "iea-15mw-monopile", Name: "IEA 15 MW (monopile)", Type: "offshore monopile",
			Description: "IEA Wind 15 MW reference turbine on its monopile in 30 m of water (SeaState, HydroDyn, SubDyn), ROSCO controller; stored in the OpenFAST v5 layout"},
			root: "IEA-15-240-RWT", main: "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst", cutIn: 3, rated: 10.59, cutOut: 25},
		{entry: decks.DemoManifestEntry{ID: "iea-15mw-volturnus", Name: "IEA 15 MW (floating, VolturnUS-S)", Type: "offshore floating",
			Description: "IEA Wind 15 MW reference turbine on the UMaine VolturnUS-S semisubmersible (SeaState, HydroDyn with WAMIT potential flow, MoorDyn moorings), ROSCO controller; stored in the OpenFAST v5 layout"},
			root: "IEA-15-240-RWT", main: "IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst", cutIn: 3, rated: 10.59, cutOut: 25},
		{entry: decks.DemoManifestEntry{ID: "iea-22mw-monopile", Name: "IEA 22 MW (monopile)", Type: "offshore monopile",
			Description: "IEA Wind 22 MW reference turbine on its monopile in 34 m of water (SeaState, HydroDyn, SubDyn), ROSCO controller; stored in the OpenFAST v5 layout. " +
				"Blades run as ElastoDyn blades from the published IEA-22-280-RWT_ElastoDyn_blade.dat (CompElast 1; the published deck's BeamDyn blades are not modelled by this solver). " +
				"Two defects of the published deck are corrected here: AeroDyn's WakeMod 11 (not an OpenFAST value) runs as BEMT (1), and the primary file's water depth of 300 m is set to the 34 m that its HydroDyn file and the SubDyn mudline joint state. The time step is 5 ms (the published 0.2 ms is BeamDyn's); SubDyn records the mudline base reactions ReactFXss to ReactMZss (the published file lists no SubDyn output)."},
			root: "IEA-22-280-RWT", main: "IEA-22-280-RWT-Monopile/IEA-22-280-RWT-Monopile.fst", cutIn: 3, rated: 11.51, cutOut: 25,
			fix: func(d *deck.Deck) {
				// The published AeroDyn file states WakeMod = 11, which no
				// OpenFAST version accepts ({0, 1, 2, 3}); the file's BEMT
				// options are filled in, so the bundled model uses BEMT (1).
				if d.AeroDyn != nil && d.AeroDyn.Wake_Mod == 11 {
					d.AeroDyn.Wake_Mod = 1
				}
				// The primary file states WtrDpth = 300 m, the HydroDyn file
				// 34 m and SubDyn's base (reaction) joint stands at
				// z = −34 m: the monopile is in 34 m of water. Uploaded,
				// the published deck keeps 300 m and is warned about
				// (deck.Validate's water-depth check).
				if d.Main.WtrDpth == 300 {
					d.Main.WtrDpth = 34
				}
				// This solver models blades with ElastoDyn only; the deck's
				// ElastoDyn file names the published ElastoDyn blade file.
				d.Main.CompElast = 1
				d.Main.BDBldFile = [3]string{"unused", "unused", "unused"}
				d.BeamDyn = nil
				// The published 0.2 ms step is BeamDyn's; with ElastoDyn
				// blades the 5 ms step of the IEA 15 MW monopile deck
				// (same ElastoDyn, SubDyn and HydroDyn models) applies.
				if d.Main.DT < 0.005 {
					d.Main.DT = 0.005
				}
			},
			// The published SubDyn file lists no output channel; the
			// bundled turbine records the base reactions at the mudline
			// (ReactFXss … ReactMZss), which the results pages and the
			// certification report show.
			afterV5: func(d *deck.Deck) error {
				sd, err := d.SubDyn()
				if err != nil || sd == nil {
					return fmt.Errorf("SubDyn: %v", err)
				}
				if len(sd.OutList) == 0 {
					sd.OutList = []string{"ReactFXss", "ReactFYss", "ReactFZss", "ReactMXss", "ReactMYss", "ReactMZss"}
				}
				return d.ReplaceSubDyn(sd)
			}},
	}
}

func main() {
	shared := flag.String("shared", "../shared", "folder holding reference-decks/")
	out := flag.String("out", "assets/turbines", "output folder")
	flag.Parse()
	if err := run(*shared, *out); err != nil {
		fmt.Fprintln(os.Stderr, "demos-build:", err)
		os.Exit(1)
	}
}

func run(shared, out string) error {
	var manifest []decks.DemoManifestEntry
	for _, src := range sources() {
		root := filepath.Join(shared, "reference-decks", src.root)
		model, params, err := buildModel(root, src)
		if err != nil {
			return fmt.Errorf("%s: %w", src.entry.ID, err)
		}
		e := src.entry
		params.CutInWindSpeedMS, params.RatedWindSpeedMS, params.CutOutWindSpeedMS = &src.cutIn, &src.rated, &src.cutOut
		e.Specs = &params
		manifest = append(manifest, e)
		if err := writeGzipJSON(filepath.Join(out, e.ID+".json.gz"), model); err != nil {
			return err
		}
		fmt.Printf("%s: %s\n", e.ID, model.MainFile)
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(b, '\n'), 0o644)
}

// buildModel loads one deck and converts it.
func buildModel(root string, src demoSource) (*decks.DeckModel, turbinesim.TurbineParams, error) {
	d, err := deck.Load(filepath.Join(root, filepath.FromSlash(src.main)))
	if err != nil {
		return nil, turbinesim.TurbineParams{}, err
	}
	if src.onshore {
		removeSubstructure(d)
	}
	if src.fix != nil {
		src.fix(d)
	}
	// The bundled turbines are stored in the OpenFAST v5 layout: the
	// published decks are v3 (waves inside HydroDyn, SubDyn v1.01).
	warns, err := d.ConvertToV5()
	if err != nil {
		return nil, turbinesim.TurbineParams{}, err
	}
	if len(warns) > 0 {
		fmt.Printf("%s: converted to the OpenFAST v5 layout (%d conversion notes)\n", src.entry.ID, len(warns))
	}
	if src.afterV5 != nil {
		if err := src.afterV5(d); err != nil {
			return nil, turbinesim.TurbineParams{}, err
		}
	}
	params, err := decks.ParamsFromDeck(d)
	if err != nil {
		return nil, params, err
	}
	if params.RatedPowerKW == nil && src.ratedKW > 0 {
		params.RatedPowerKW = &src.ratedKW
	}
	m, err := decks.ModelFromDeck(d, src.main)
	if err != nil {
		return nil, params, err
	}
	if src.onshore {
		var keep []decks.ValueFile
		for _, f := range m.DataFiles {
			if !strings.Contains(f.Role, "Hydro") && !strings.Contains(f.Role, "SubDyn") && !strings.Contains(f.Role, "SeaSt") {
				keep = append(keep, f)
			}
		}
		m.DataFiles = keep
	}
	return m, params, nil
}

// removeSubstructure turns an offshore fixed-bottom deck into its onshore
// variant: no sea state, hydrodynamics, substructure or moorings, and no
// platform degrees of freedom (the tower base is clamped to rigid ground).
func removeSubstructure(d *deck.Deck) {
	m := d.Main
	m.CompSeaSt, m.CompHydro, m.CompSub, m.CompMooring = 0, 0, 0, 0
	m.SeaStFile, m.HydroFile, m.SubFile, m.MooringFile = "unused", "unused", "unused", "unused"
	d.Offshore = deck.Offshore{}
	if ed := d.ElastoDyn; ed != nil {
		ed.PtfmSgDOF, ed.PtfmSwDOF, ed.PtfmHvDOF, ed.PtfmRDOF, ed.PtfmPDOF, ed.PtfmYDOF = false, false, false, false, false, false
	}
	var files []deck.FileRef
	for _, f := range d.Files {
		if f.From != d.Path || (f.Var != "SeaStFile" && f.Var != "HydroFile" && f.Var != "SubFile" && f.Var != "MooringFile") {
			files = append(files, f)
		}
	}
	d.Files = files
}

func writeGzipJSON(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		f.Close()
		return err
	}
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
