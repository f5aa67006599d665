package moorings

import (
	"fmt"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// Check reports the first mooring input of a loaded deck this package
// cannot run, without simulating: a *deck.Error naming the file, line and
// option (wrapping deck.ErrNotRun for what OpenFAST runs but this solver
// does not), or nil. CompMooring 1 (MAP++) and 3 (MoorDyn) are run;
// FEAMooring and OrcaFlex are refused at the primary file's switch.
func Check(d *deck.Deck) error {
	m := d.Main
	switch m.CompMooring {
	case 0:
		return nil
	case 1, 3:
	default:
		return &deck.Error{File: d.Path, Line: m.Meta.LineOf("CompMooring"), Variable: "CompMooring",
			Msg: fmt.Sprintf("%d (this solver runs 1 = MAP++ and 3 = MoorDyn)", m.CompMooring), Err: deck.ErrNotRun}
	}
	g := d.Offshore.Mooring
	if g == nil {
		return &deck.Error{File: d.Path, Line: m.Meta.LineOf("MooringFile"), Variable: "MooringFile", Msg: "mooring file not loaded"}
	}
	ref := [3]float64{}
	if ed := d.ElastoDyn; ed != nil {
		ref = [3]float64{ed.PtfmRefxt, ed.PtfmRefyt, ed.PtfmRefzt}
	}
	if m.CompMooring == 1 {
		mp, err := g.MAP()
		if err != nil {
			return err
		}
		qs, err := QuasiStaticFromMAP(mp, EnvFromDeck(d), ref)
		if err != nil {
			return err
		}
		// A geometry the catenary solve cannot take (a fairlead straight
		// above its anchor, a line Newton cannot converge on) fails here,
		// before a run is accepted.
		_, _, err = qs.Loads(Motion{})
		return err
	}
	md, err := g.MoorDyn()
	if err != nil {
		return err
	}
	_, err = New(md, EnvFromDeck(d), ref)
	return err
}
