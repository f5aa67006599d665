package structure

import (
	"errors"
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/deck"
)

const deg = math.Pi / 180

// ParamsFromDeck converts a loaded deck's ElastoDyn input (with its blade and
// tower files) and the .fst environment into Params: degrees to radians,
// rpm to rad/s, GBoxEff percent to a fraction, ElastoDyn DT "default" to the
// .fst DT. Furling must be false.
func ParamsFromDeck(d *deck.Deck) (Params, error) {
	if d == nil || d.Main == nil || d.ElastoDyn == nil {
		return Params{}, errors.New("structure: deck has no ElastoDyn input")
	}
	ed := d.ElastoDyn
	if ed.Furling {
		return Params{}, errors.New("structure: ElastoDyn Furling=True is not supported")
	}
	if ed.PitchDOF {
		return Params{}, errors.New("structure: ElastoDyn PitchDOF=True is not supported")
	}
	if ed.NumBl < 1 || ed.NumBl > 3 {
		return Params{}, fmt.Errorf("structure: ElastoDyn NumBl=%d", ed.NumBl)
	}
	if len(ed.Blades) < ed.NumBl || ed.Tower == nil {
		return Params{}, errors.New("structure: ElastoDyn blade or tower file not loaded")
	}
	nb := ed.NumBl
	p := Params{
		Gravity: d.Main.Gravity,
		Method:  ed.Method,
		DT:      ed.DT.Or(d.Main.DT),
		DOF: DOFFlags{
			FlapDOF1: ed.FlapDOF1, FlapDOF2: ed.FlapDOF2, EdgeDOF: ed.EdgeDOF,
			DrTrDOF: ed.DrTrDOF, GenDOF: ed.GenDOF, YawDOF: ed.YawDOF,
			TwFADOF1: ed.TwFADOF1, TwFADOF2: ed.TwFADOF2, TwSSDOF1: ed.TwSSDOF1, TwSSDOF2: ed.TwSSDOF2,
			PtfmSgDOF: ed.PtfmSgDOF, PtfmSwDOF: ed.PtfmSwDOF, PtfmHvDOF: ed.PtfmHvDOF,
			PtfmRDOF: ed.PtfmRDOF, PtfmPDOF: ed.PtfmPDOF, PtfmYDOF: ed.PtfmYDOF,
		},
		Init: InitialConditions{
			OoPDefl: ed.OoPDefl, IPDefl: ed.IPDefl,
			Azimuth: ed.Azimuth * deg, RotSpeed: ed.RotSpeed * math.Pi / 30,
			NacYaw: ed.NacYaw * deg, TTDspFA: ed.TTDspFA, TTDspSS: ed.TTDspSS,
			PtfmSurge: ed.PtfmSurge, PtfmSway: ed.PtfmSway, PtfmHeave: ed.PtfmHeave,
			PtfmRoll: ed.PtfmRoll * deg, PtfmPitch: ed.PtfmPitch * deg, PtfmYaw: ed.PtfmYaw * deg,
		},
		NumBl: nb, TipRad: ed.TipRad, HubRad: ed.HubRad, HubCM: ed.HubCM,
		AzimB1Up: ed.AzimB1Up * deg, OverHang: ed.OverHang, ShftGagL: ed.ShftGagL, ShftTilt: ed.ShftTilt * deg,
		NacCMxn: ed.NacCMxn, NacCMyn: ed.NacCMyn, NacCMzn: ed.NacCMzn,
		NcIMUxn: ed.NcIMUxn, NcIMUyn: ed.NcIMUyn, NcIMUzn: ed.NcIMUzn,
		Twr2Shft: ed.Twr2Shft, TowerHt: ed.TowerHt, TowerBsHt: ed.TowerBsHt,
		PtfmCMxt: ed.PtfmCMxt, PtfmCMyt: ed.PtfmCMyt, PtfmCMzt: ed.PtfmCMzt,
		PtfmRefxt: ed.PtfmRefxt, PtfmRefyt: ed.PtfmRefyt, PtfmRefzt: ed.PtfmRefzt,
		PtfmMass: ed.PtfmMass, PtfmRIner: ed.PtfmRIner, PtfmPIner: ed.PtfmPIner, PtfmYIner: ed.PtfmYIner,
		PtfmXYIner: ed.PtfmXYIner, PtfmYZIner: ed.PtfmYZIner, PtfmXZIner: ed.PtfmXZIner,
		HubMass: ed.HubMass, HubIner: ed.HubIner, GenIner: ed.GenIner,
		NacMass: ed.NacMass, NacYIner: ed.NacYIner, YawBrMass: ed.YawBrMass,
		GBoxEff: ed.GBoxEff / 100, GBRatio: ed.GBRatio, DTTorSpr: ed.DTTorSpr, DTTorDmp: ed.DTTorDmp,
		BldNodes: ed.BldNodes, TwrNodes: ed.TwrNodes,
	}
	for k := 0; k < nb; k++ {
		p.PreCone = append(p.PreCone, ed.PreCone[k]*deg)
		p.TipMass = append(p.TipMass, ed.TipMass[k])
		p.Init.BlPitch = append(p.Init.BlPitch, ed.BlPitch[k]*deg)
		b := ed.Blades[k]
		if b == nil {
			return Params{}, fmt.Errorf("structure: blade file %d not loaded", k+1)
		}
		twist := make([]float64, len(b.StrcTwst))
		for i, v := range b.StrcTwst {
			twist[i] = v * deg
		}
		p.Blades = append(p.Blades, BladeProps{
			BlFract: b.BlFract, StrcTwst: twist, BMassDen: b.BMassDen, FlpStff: b.FlpStff, EdgStff: b.EdgStff,
			BldFlDmp: b.BldFlDmp, BldEdDmp: b.BldEdDmp[0], FlStTunr: b.FlStTunr,
			AdjBlMs: b.AdjBlMs, AdjFlSt: b.AdjFlSt, AdjEdSt: b.AdjEdSt,
			BldFl1Sh: b.BldFl1Sh, BldFl2Sh: b.BldFl2Sh, BldEdgSh: b.BldEdgSh,
		})
	}
	t := ed.Tower
	p.Tower = TowerProps{
		HtFract: t.HtFract, TMassDen: t.TMassDen, TwFAStif: t.TwFAStif, TwSSStif: t.TwSSStif,
		TwrFADmp: t.TwrFADmp, TwrSSDmp: t.TwrSSDmp, FAStTunr: t.FAStTunr, SSStTunr: t.SSStTunr,
		AdjTwMa: t.AdjTwMa, AdjFASt: t.AdjFASt, AdjSSSt: t.AdjSSSt,
		TwFAM1Sh: t.TwFAM1Sh, TwFAM2Sh: t.TwFAM2Sh, TwSSM1Sh: t.TwSSM1Sh, TwSSM2Sh: t.TwSSM2Sh,
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("structure: ElastoDyn input %s: %w", d.Main.EDFile, err)
	}
	return p, nil
}
