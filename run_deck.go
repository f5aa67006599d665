package turbinesim

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// LoadRunnableDeck loads the deck at entry inside dir and runs the deck
// validator; any error is EINVALID naming the file (relative to dir) and
// the line. Every referenced file must lie inside dir (an input deck
// cannot read /etc/passwd or another job's files, security brief I10).
// Job submission and DLC batches check decks with it.
func LoadRunnableDeck(dir, entry string) (*deck.Deck, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(r) {
			return filepath.ToSlash(r)
		}
		return filepath.Base(p)
	}
	d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(entry)))
	if err != nil {
		var de *deck.Error
		if errors.As(err, &de) {
			return nil, invalidf("%s:%d: %s: %s", rel(de.File), de.Line, de.Variable, de.Msg)
		}
		return nil, invalidf("deck: %s", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	for _, f := range d.Files {
		if !f.Used {
			continue
		}
		r, err := filepath.Rel(dir, f.Path)
		if err != nil || !filepath.IsLocal(r) {
			return nil, invalidf("%s:%d: %s: %q points outside the uploaded files", rel(f.From), f.Line, f.Var, f.Named)
		}
	}
	var msgs []string
	for _, p := range deck.Validate(d) {
		if p.Warning {
			continue
		}
		msgs = append(msgs, fmt.Sprintf("%s:%d: %s: %s", rel(p.File), p.Line, p.Variable, p.Message))
	}
	if len(msgs) > 0 {
		return nil, invalidf("%s", strings.Join(msgs, "; "))
	}
	return d, nil
}
