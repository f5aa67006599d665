package aero

import (
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/aero/unsteady"
	"github.com/turbinesim/turbinesim/solver/deck"
)

const deg2rad = math.Pi / 180

// AirfoilFromDeck converts a parsed AirfoilInfo file (alpha in degrees, Re in
// millions) with AeroDyn's AFTabMod.
func AirfoilFromDeck(a *deck.Airfoil, name string, tabMod int) (*Airfoil, error) {
	if a == nil {
		return nil, fmt.Errorf("aero: airfoil %s not loaded", name)
	}
	af := &Airfoil{Name: name, InterpOrd: a.InterpOrd.Or(InterpLinear), TabMod: tabMod}
	for i, t := range a.Tables {
		if t.Alpha == nil || t.Cl == nil || t.Cd == nil {
			return nil, fmt.Errorf("aero: airfoil %s table %d: alpha/Cl/Cd columns missing", name, i+1)
		}
		p := Polar{Re: t.Re * 1e6, UserProp: t.UserProp, Cl: t.Cl, Cd: t.Cd, Cm: t.Cm}
		p.Alpha = make([]float64, len(t.Alpha))
		for k, v := range t.Alpha {
			p.Alpha[k] = v * deg2rad
		}
		af.Tables = append(af.Tables, p)
	}
	if err := af.Prepare(); err != nil {
		return nil, err
	}
	return af, nil
}

// ParamsFromDeck builds rotor parameters from a loaded deck: AeroDyn options,
// blade files and airfoils, and ElastoDyn's NumBl and HubRad. Options this
// package does not model yet (unsteady aerodynamics, OLAF, BEM_Mod=2,
// sector averaging) are reported in notes and replaced by their quasi-steady
// counterparts (plain BEMT, steady polars).
func ParamsFromDeck(d *deck.Deck) (p Params, notes []string, err error) {
	if d == nil || d.AeroDyn == nil {
		return p, nil, errors.New("aero: deck has no AeroDyn input (CompAero must be 2)")
	}
	if d.ElastoDyn == nil {
		return p, nil, errors.New("aero: deck has no ElastoDyn input")
	}
	ad, ed := d.AeroDyn, d.ElastoDyn
	p.NumBlades = ed.NumBl
	p.HubRadius = ed.HubRad
	p.AirDens = ad.AirDens.Or(d.Main.AirDens)
	p.KinVisc = ad.KinVisc.Or(d.Main.KinVisc)
	// "default" takes the glue code's value, like AirDens and KinVisc.
	p.SpeedOfSound = ad.SpdSound.Or(d.Main.SpdSound)
	switch ad.Wake_Mod {
	case 0:
		p.WakeMod = WakeNone
	case 1:
		p.WakeMod = WakeBEMT
	default:
		notes = append(notes, fmt.Sprintf("Wake_Mod=%d (OLAF) not modelled: using quasi-steady BEMT", ad.Wake_Mod))
		p.WakeMod = WakeBEMT
	}
	switch ad.DBEMT_Mod {
	case 0, -1:
	case 1, 2:
		p.DBEMTMod = ad.DBEMT_Mod
		p.Tau1Const = ad.Tau1_const
	default:
		notes = append(notes, fmt.Sprintf("DBEMT_Mod=%d (continuous formulation) modelled with the discrete constant-tau1 filter", ad.DBEMT_Mod))
		p.DBEMTMod = DBEMTTauConst
		p.Tau1Const = ad.Tau1_const
	}
	switch ad.UA_Mod {
	case 0:
	case UAMinnemaPierce:
		p.UAMod = UAMinnemaPierce
		p.UA = UAOptions{
			DT: ad.DTAero.Or(d.Main.DT), SpeedOfSound: p.SpeedOfSound,
			FLookup: ad.FLookup, StartRad: ad.UAStartRad, EndRad: ad.UAEndRad,
		}
		for i, a := range ad.Airfoils {
			if a == nil || len(a.Tables) == 0 {
				return p, notes, fmt.Errorf("aero: AFNames(%d): no airfoil table for unsteady aerodynamics", i+1)
			}
			c, err := unsteady.ConstantsFromTable(&a.Tables[0])
			if err != nil {
				return p, notes, fmt.Errorf("aero: AFNames(%d) %s: unsteady-aerodynamics constants: %w", i+1, ad.AFNames[i], err)
			}
			p.UA.Constants = append(p.UA.Constants, c)
			p.UA.HasCm = append(p.UA.HasCm, a.Tables[0].Cm != nil)
		}
	default:
		notes = append(notes, fmt.Sprintf("UA_Mod=%d not modelled: steady airfoil polars", ad.UA_Mod))
	}
	if ad.BEM_Mod == 2 {
		notes = append(notes, "BEM_Mod=2 (polar) not modelled: using the legacy BEM_Mod=1 frames")
	}
	if ad.SectAvg {
		notes = append(notes, "SectAvg not modelled")
	}
	p.BEMT = BEMTOptions{
		TipLoss: ad.TipLoss, HubLoss: ad.HubLoss, TanInd: ad.TanInd, AIDrag: ad.AIDrag, TIDrag: ad.TIDrag && ad.TanInd,
		IndToler: ad.IndToler.Or(5e-10), MaxIter: ad.MaxIter,
	}
	if ad.Skew_Mod == 1 && ad.SkewRedistr_Mod.Or(1) == 1 {
		p.SkewMod = 1
		p.SkewRedistrFactor = ad.SkewRedistrFactor.Or(15 * math.Pi / 32)
	}
	if ad.SkewMomCorr {
		notes = append(notes, "SkewMomCorr not modelled")
	}
	p.UseBlCm = ad.UseBlCm
	p.TwrPotent, p.TwrShadow, p.TwrAero = ad.TwrPotent, ad.TwrShadow, ad.TwrAero
	if ad.NumTwrNds > 0 {
		p.Tower = &TowerGeometry{Elev: ad.TwrElev, Diam: ad.TwrDiam, Cd: ad.TwrCd, TI: ad.TwrTI}
	}
	if len(ad.Airfoils) != len(ad.AFNames) {
		return p, notes, fmt.Errorf("aero: %d airfoils loaded for %d AFNames", len(ad.Airfoils), len(ad.AFNames))
	}
	tabMod := ad.AFTabMod
	if tabMod == 0 {
		tabMod = AFTabFirst
	}
	for i, a := range ad.Airfoils {
		af, err := AirfoilFromDeck(a, ad.AFNames[i], tabMod)
		if err != nil {
			return p, notes, fmt.Errorf("aero: AFNames(%d): %w", i+1, err)
		}
		p.Airfoils = append(p.Airfoils, af)
	}
	if len(ad.Blades) < p.NumBlades {
		return p, notes, fmt.Errorf("aero: %d AeroDyn blade files for %d blades", len(ad.Blades), p.NumBlades)
	}
	for k := 0; k < p.NumBlades; k++ {
		b := ad.Blades[k]
		if b == nil {
			return p, notes, fmt.Errorf("aero: ADBlFile(%d) not loaded", k+1)
		}
		g := BladeGeometry{Span: b.BlSpn, CrvAC: b.BlCrvAC, SwpAC: b.BlSwpAC, Chord: b.BlChord}
		n := len(b.BlSpn)
		g.CrvAng = make([]float64, n)
		g.Twist = make([]float64, n)
		g.AirfoilID = make([]int, n)
		for j := 0; j < n; j++ {
			if j < len(b.BlCrvAng) {
				g.CrvAng[j] = b.BlCrvAng[j] * deg2rad
			}
			if j < len(b.BlTwist) {
				g.Twist[j] = b.BlTwist[j] * deg2rad
			}
			if j < len(b.BlAFID) {
				g.AirfoilID[j] = b.BlAFID[j] - 1
			}
		}
		p.Blades = append(p.Blades, g)
	}
	return p, notes, nil
}

// RigidStateFromDeck returns the rigid-rotor placement of the deck's
// ElastoDyn geometry (hub height TowerHt + Twr2Shft + OverHang·sin(tilt),
// hub OverHang·cos(tilt) downwind of the yaw axis, ShftTilt, PreCone, NacYaw)
// with the given azimuth, rotor speed (rad/s) and pitch (rad, all blades).
func RigidStateFromDeck(d *deck.Deck, azimuth, rotorSpeed, pitch float64) (RigidState, error) {
	if d == nil || d.ElastoDyn == nil {
		return RigidState{}, errors.New("aero: deck has no ElastoDyn input")
	}
	ed := d.ElastoDyn
	tilt := ed.ShftTilt * deg2rad
	yaw := ed.NacYaw * deg2rad
	st, ct := math.Sincos(tilt)
	sy, cy := math.Sincos(yaw)
	x := ed.OverHang * ct
	hub := Vec3{x * cy, x * sy, ed.TowerHt + ed.Twr2Shft + ed.OverHang*st}
	pc := make([]float64, ed.NumBl)
	for k := range pc {
		if k < len(ed.PreCone) {
			pc[k] = ed.PreCone[k] * deg2rad
		}
	}
	return RigidState{HubPosition: hub, Yaw: yaw, Tilt: tilt, Precone: pc, Azimuth: azimuth, RotorSpeed: rotorSpeed, Pitch: []float64{pitch}}, nil
}
