package perf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/aero"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// FromDeck loads the OpenFAST deck at fstPath and computes its performance
// surface: the AeroDyn rotor (airfoils, blades, BEMT switches, air density)
// on the ElastoDyn geometry (hub height, overhang, tilt, precone), rigid,
// quasi-steady BEMT, without tower influence or skewed-wake redistribution
// (as ROSCO's CCBlade tables).
//
// When opts.WindSpeed is 0 and the deck's controller input (DISCON.IN) names
// a performance table (PerfFileName) that can be read, its wind speed is used,
// and its TSR and pitch grid too where opts leaves them nil; otherwise a
// missing wind speed is an error.
func FromDeck(ctx context.Context, fstPath string, opts Options) (*Surface, error) {
	d, err := deck.Load(fstPath)
	if err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	if !(opts.WindSpeed > 0) {
		tab, err := controllerTable(d)
		if err != nil {
			return nil, fmt.Errorf("perf: no wind speed given and %w", err)
		}
		opts.WindSpeed = tab.WindSpeed
		if opts.TSR == nil {
			opts.TSR = tab.TSR
		}
		if opts.Pitch == nil {
			opts.Pitch = tab.Pitch
		}
	}
	rot, g, err := RotorFromDeck(d)
	if err != nil {
		return nil, err
	}
	s, err := Compute(ctx, rot, g, opts)
	if err != nil {
		return nil, err
	}
	s.Name = strings.TrimSuffix(filepath.Base(fstPath), filepath.Ext(fstPath))
	return s, nil
}

// RotorFromDeck builds the steady-performance rotor and its geometry from a
// loaded deck.
func RotorFromDeck(d *deck.Deck) (*aero.Rotor, Geometry, error) {
	p, _, err := aero.ParamsFromDeck(d)
	if err != nil {
		return nil, Geometry{}, fmt.Errorf("perf: %w", err)
	}
	p.WakeMod = aero.WakeBEMT
	p.TwrPotent, p.TwrShadow, p.TwrAero = aero.TwrPotentNone, aero.TwrShadowNone, false
	p.SkewMod = 0
	// Steady performance: quasi-steady induction and the static polars
	// (unsteady airfoil states would carry one operating point's history
	// into the next point of the surface).
	p.DBEMTMod = aero.DBEMTNone
	p.UAMod = aero.UANone
	rot, err := aero.New(p)
	if err != nil {
		return nil, Geometry{}, fmt.Errorf("perf: %w", err)
	}
	st, err := aero.RigidStateFromDeck(d, 0, 0, 0)
	if err != nil {
		return nil, Geometry{}, fmt.Errorf("perf: %w", err)
	}
	ed := d.ElastoDyn
	// Performance tables are for the rotor aligned with the wind: no yaw.
	st.Yaw = 0
	st.HubPosition[0] = ed.OverHang * math.Cos(st.Tilt)
	st.HubPosition[1] = 0
	g := Geometry{
		State:      st,
		TipRadius:  ed.TipRad,
		DiskRadius: ed.TipRad * math.Cos(ed.PreCone[0]*math.Pi/180),
		AirDens:    p.AirDens,
	}
	return rot, g, nil
}

// controllerTable reads the performance table named by the deck's DISCON.IN.
func controllerTable(d *deck.Deck) (*Surface, error) {
	if d.Controller == nil {
		return nil, errors.New("the deck has no controller input naming a performance table")
	}
	name, ok := d.Controller.String("PerfFileName")
	if !ok || name == "" {
		return nil, errors.New("the controller input has no PerfFileName")
	}
	name = strings.Trim(name, `"'`)
	if !filepath.IsAbs(name) {
		name = filepath.Join(filepath.Dir(d.Controller.Meta.Path), name)
	}
	tab, err := ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("the controller's performance table: %w", err)
	}
	return tab, nil
}
