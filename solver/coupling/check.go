package coupling

import "github.com/turbinesim/turbinesim/solver/deck"

// Check reports whether Run can simulate d: the modules it switches on
// are ones this solver has, and every module initialises from the deck.
// It builds the modules as Run does (no file is written and no step is
// taken), so a service can refuse a run before charging for it instead
// of discovering at the first step that the deck was never runnable.
func Check(d *deck.Deck) error {
	s, _, _, _, err := build(d, Options{SkipUnsupported: true})
	if s != nil {
		s.closeWind()
	}
	return err
}
