package decks

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// convertToV5InTree converts a deck loaded from its own tree dir from the
// OpenFAST v3 layout to v5 (deck.ConvertToV5: waves and current into a new
// SeaState file, HydroDyn and SubDyn in the v5 layout) and writes the
// converted deck over its files in dir, every module in OpenFAST v5 syntax,
// so that the stored tree runs on OpenFAST v5 as it runs here. It returns
// the conversion's notes (nil when the deck was already in the v5 layout
// and nothing was written).
func convertToV5InTree(dir string, d *deck.Deck) ([]deck.Problem, error) {
	notes, err := d.ConvertToV5()
	if err != nil || len(notes) == 0 {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "turbinesim-v5-")
	if err != nil {
		return nil, fmt.Errorf("converting to v5: %w", err)
	}
	defer os.RemoveAll(tmp)
	mainOut, err := deck.Write(tmp, d)
	if err != nil {
		return nil, err
	}
	// deck.Write keeps the files' relative layout below the deepest folder
	// holding them all; that folder is where the .fst's path ends like the
	// written one.
	rel, err := filepath.Rel(tmp, mainOut)
	if err != nil || !strings.HasSuffix(d.Path, string(filepath.Separator)+rel) {
		return nil, fmt.Errorf("converting to v5: written primary file %s does not match %s", rel, filepath.Base(d.Path))
	}
	root := strings.TrimSuffix(d.Path, string(filepath.Separator)+rel)
	return notes, filepath.WalkDir(tmp, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		r, err := filepath.Rel(tmp, p)
		if err != nil {
			return err
		}
		target := filepath.Join(root, r)
		if inside, err := filepath.Rel(dir, target); err != nil || !filepath.IsLocal(inside) {
			return fmt.Errorf("converting to v5: %s falls outside the deck's files", r)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o600)
	})
}
