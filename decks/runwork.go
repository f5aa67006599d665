package decks

import (
	"fmt"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// ModelSize is the size of a deck's model for pricing: the structural
// degrees of freedom ElastoDyn switches on (three blade modes per blade,
// drivetrain, generator, yaw, four tower modes, six platform motions),
// plus the aerodynamic blade nodes of AeroDyn (NumBlNds of every blade),
// plus the output channels requested (every OutList), each counted once
// per step.
func ModelSize(d *deck.Deck) int64 {
	var n int64
	if ed := d.ElastoDyn; ed != nil {
		blades := int64(max(ed.NumBl, 0))
		for _, on := range []bool{ed.FlapDOF1, ed.FlapDOF2, ed.EdgeDOF} {
			if on {
				n += blades
			}
		}
		for _, on := range []bool{ed.TeetDOF && ed.NumBl == 2, ed.DrTrDOF, ed.GenDOF, ed.YawDOF, ed.TwFADOF1, ed.TwFADOF2,
			ed.TwSSDOF1, ed.TwSSDOF2, ed.PtfmSgDOF, ed.PtfmSwDOF, ed.PtfmHvDOF, ed.PtfmRDOF, ed.PtfmPDOF, ed.PtfmYDOF} {
			if on {
				n++
			}
		}
		n += channelCount(ed.OutList)
	}
	if ad := d.AeroDyn; ad != nil {
		for _, b := range ad.Blades {
			if b != nil {
				n += int64(max(b.NumBlNds, 0))
			}
		}
		n += channelCount(ad.OutList)
	}
	if sd := d.ServoDyn; sd != nil {
		n += channelCount(sd.OutList)
	}
	if iw := d.InflowWind; iw != nil {
		n += channelCount(iw.OutList)
	}
	return max(n, 1)
}

// channelCount counts the channel names of an OutList (several may share
// a line, separated by commas or blanks).
func channelCount(l deck.OutList) int64 {
	var n int64
	for _, line := range l {
		n += int64(len(strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '"' })))
	}
	return n
}

// DeckRunWork checks a deck about to be submitted (loaded from dir) the
// way every submission path must: its TMax and DT within the run bounds
// (EINVALID naming file, line and option) and a model the solver can run
// (coupling.Check; EINVALID, so nothing is charged for a run that could
// never start), and returns the run's work.
func DeckRunWork(dir string, d *deck.Deck) (turbinesim.RunWork, error) {
	m := d.Main
	steps, option, problem := turbinesim.RunSteps(m.TMax, m.DT)
	if option != "" {
		at := deckRelPath(dir, d.Path)
		if line := m.Meta.LineOf(option); line > 0 {
			at += fmt.Sprintf(":%d", line)
		}
		return turbinesim.RunWork{}, invalidf("%s: %s: %s", at, option, problem)
	}
	if err := SolverCanRun(dir, d); err != nil {
		return turbinesim.RunWork{}, err
	}
	return turbinesim.RunWork{Steps: steps, ModelSize: ModelSize(d)}, nil
}

// SolverCanRun is coupling.Check as a submission's answer: EINVALID naming
// the deck's main file (relative to dir) and why the solver cannot run it.
func SolverCanRun(dir string, d *deck.Deck) error {
	if err := coupling.Check(d); err != nil {
		return invalidf("%s: the solver cannot run this deck: %s", deckRelPath(dir, d.Path),
			strings.ReplaceAll(err.Error(), dir+"/", ""))
	}
	return nil
}
