package decks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// Warnings returns what the engineer should know about a loaded deck
// whose files are under dir, although it runs: the warnings of the
// turbine builder (the WARNING lines of a baseline parameter file it wrote
// or retuned, for now pitch gains that are the scaled 5 MW values, not
// this rotor's), then the deck validator's warnings (deck.Validate,
// Problem.Warning: suspicious but OpenFAST would run) as
// "file:line: variable: message" with the file relative to dir. Every
// place a deck enters or is used (job and batch submissions, uploads,
// clones, the turbine page) reports these. The files are read from disk,
// so they must still be in place.
func Warnings(dir string, d *deck.Deck) []string {
	return deckWarnings(dir, d, deck.Validate(d))
}

// deckWarnings is Warnings with the validator's findings already at
// hand.
func deckWarnings(dir string, d *deck.Deck, problems []deck.Problem) []string {
	warnings := builderWarnings(d)
	// The validator warns of every Bladed-DLL deck without a ROSCO
	// DISCON.IN that the built-in baseline controller runs instead. A
	// deck whose baseline parameter file the builder wrote was made that
	// way, with constants tuned to its rotor: the warning would only
	// repeat the design (the builder's own warnings say when the tuning
	// fell short).
	builtBaseline := builtBaselinePath(d) != ""
	for _, p := range problems {
		if !p.Warning || builtBaseline && p.Variable == "DLL_InFile" && p.File == d.ServoDyn.Meta.Path {
			continue
		}
		warnings = append(warnings, deckProblemText(dir, p))
	}
	// A periodic wind box shorter than the deck's TMax repeats itself
	// (a non-periodic one is refused by coupling.Check).
	if w, err := coupling.CheckWindDuration(d, 0); err == nil && w != "" {
		warnings = append(warnings, w)
	}
	return warnings
}

// builderWarnings returns the WARNING lines of the baseline parameter
// file the turbine builder wrote or retuned (none for other decks).
func builderWarnings(d *deck.Deck) []string {
	path := builtBaselinePath(d)
	if path == "" {
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var warnings []string
	for _, line := range strings.Split(string(src), "\n") {
		if w, ok := strings.CutPrefix(line, "# "+builtWarningPrefix); ok {
			warnings = append(warnings, strings.TrimSuffix(strings.TrimSpace(w), "."))
		}
	}
	return warnings
}

// deckRelPath is the slash-separated path of file p relative to the deck
// folder dir; a file outside it is named by its base name only (a message
// must not reveal the server's directory layout).
func deckRelPath(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return filepath.Base(p)
}

// deckProblemText is a validator finding as the engineer reads it:
// "file:line: variable: message", the file relative to the deck folder
// dir; the line is left out when the finding has none (a variable the file
// does not hold, whose default was taken), and so is an empty variable.
func deckProblemText(dir string, p deck.Problem) string {
	s := deckRelPath(dir, p.File)
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
	}
	if p.Variable != "" {
		s += ": " + p.Variable
	}
	return s + ": " + p.Message
}
