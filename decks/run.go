package decks

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// invalidf is an EINVALID error with a formatted detail.
func invalidf(format string, args ...any) error {
	return turbinesim.Errorf(turbinesim.EINVALID, format, args...)
}

// LoadRunnableDeck loads the deck at entry inside dir and runs the deck
// validator; any error is EINVALID naming the file (relative to dir) and
// the line. Every referenced file must lie inside dir (an input deck
// cannot read /etc/passwd or another job's files).
// A runnable deck comes with its warnings (Warnings): what the
// engineer should know although the deck runs. Job submission and batches
// check decks with it.
func LoadRunnableDeck(dir, entry string) (*deck.Deck, []string, error) {
	d, err := deck.LoadIn(dir, entry)
	if err != nil {
		var de *deck.Error
		if errors.As(err, &de) {
			return nil, nil, invalidf("%s", deckProblemText(dir, deck.Problem{File: de.File, Line: de.Line, Variable: de.Variable, Message: de.Msg}))
		}
		return nil, nil, invalidf("deck: %s", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	for _, f := range d.Files {
		if !f.Used {
			continue
		}
		r, err := filepath.Rel(dir, f.Path)
		if err != nil || !filepath.IsLocal(r) {
			return nil, nil, invalidf("%s:%d: %s: %q points outside the uploaded files", deckRelPath(dir, f.From), f.Line, f.Var, f.Named)
		}
	}
	problems := deck.Validate(d)
	var msgs []string
	for _, p := range problems {
		if !p.Warning {
			msgs = append(msgs, deckProblemText(dir, p))
		}
	}
	if len(msgs) > 0 {
		return nil, nil, invalidf("%s", strings.Join(msgs, "; "))
	}
	return d, deckWarnings(dir, d, problems), nil
}
