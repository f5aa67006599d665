package decks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// StoredDecks reads the stored decks of an organization's turbines for the
// turbine endpoints and pages: warnings, detailed properties, .fst
// defaults.
type StoredDecks struct {
	Turbines turbinesim.TurbineService
}

// Use loads the stored deck of the organization's turbine id and calls use
// with it while the stored files are open: use may read files the deck
// names (DetailedPropertiesOf reads the baseline controller's parameter
// file), which are gone after release with an S3 store and no longer
// guarded against an edit removing them with the local one. dir is the
// root folder of the stored files (Warnings names files relative to it).
// A turbine without stored files is ENOTFOUND; files that no longer load
// are EINVALID naming file and line.
func (s *StoredDecks) Use(ctx context.Context, orgID, id string, use func(dir string, d *deck.Deck) error) error {
	t, dir, release, err := s.Turbines.OpenTurbineDeck(ctx, orgID, id)
	if err != nil {
		return err
	}
	defer release()
	if dir == "" {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "turbine %q has no stored input files", t.Name)
	}
	mainPath := filepath.Join(dir, filepath.FromSlash(*t.MainFile))
	if rel, err := filepath.Rel(dir, mainPath); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("turbine %s: main file %q escapes its stored files", t.ID, *t.MainFile)
	}
	d, err := deck.LoadIn(dir, *t.MainFile)
	if err != nil {
		return turbinesim.WrapError(turbinesim.EINVALID, "the stored input files cannot be read: "+deckErrorDetail(err, mainPath), err)
	}
	return use(dir, d)
}

// Warnings are the Warnings of turbine t's stored deck: none for a row
// without one, nor when the stored files no longer load (the detailed
// properties say why).
func (s *StoredDecks) Warnings(ctx context.Context, orgID string, t *turbinesim.Turbine) ([]string, error) {
	if !t.HasDeck() {
		return nil, nil
	}
	var warnings []string
	err := s.Use(ctx, orgID, t.ID, func(dir string, d *deck.Deck) error {
		warnings = Warnings(dir, d)
		return nil
	})
	if turbinesim.ErrorCode(err) == turbinesim.EINVALID {
		return nil, nil
	}
	return warnings, err
}

// Properties are DetailedPropertiesOf turbine id's stored deck.
func (s *StoredDecks) Properties(ctx context.Context, orgID, id string) (*DetailedProperties, error) {
	var p *DetailedProperties
	err := s.Use(ctx, orgID, id, func(_ string, d *deck.Deck) (err error) {
		p, err = DetailedPropertiesOf(d)
		return err
	})
	return p, err
}

// AirfoilPolar is airfoil idx (0-based, AeroDyn AFNames order) of turbine
// id's stored deck; ENOTFOUND past the last.
func (s *StoredDecks) AirfoilPolar(ctx context.Context, orgID, id string, idx int) (*AirfoilPolar, error) {
	p, err := s.Properties(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	for i := range p.Airfoils {
		if p.Airfoils[i].Index == idx {
			return &p.Airfoils[i], nil
		}
	}
	return nil, turbinesim.Errorf(turbinesim.ENOTFOUND, "airfoil %d not found; the turbine has %d airfoils", idx, len(p.Airfoils))
}

// FSTDefaults are the FSTDefaults of turbine id's main input file, or of an
// empty one when the turbine has no stored deck.
func (s *StoredDecks) FSTDefaults(ctx context.Context, orgID, id string) ([]FSTParameter, error) {
	t, err := s.Turbines.FindTurbine(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	main := &deck.Main{}
	if t.HasDeck() {
		if err := s.Use(ctx, orgID, id, func(_ string, d *deck.Deck) error { main = d.Main; return nil }); err != nil {
			return nil, err
		}
	}
	return FSTDefaults(main), nil
}

// PageData is what the turbine page shows of a stored deck: the main
// file's parameters, the warnings and the detailed properties (or, in
// PropsError, why the files no longer load).
type PageData struct {
	Main       *deck.Main
	Warnings   []string
	Props      *DetailedProperties
	PropsError string
}

// Page reads what the turbine page shows of turbine t's stored deck.
func (s *StoredDecks) Page(ctx context.Context, orgID string, t *turbinesim.Turbine) (*PageData, error) {
	v := &PageData{Main: &deck.Main{}}
	if !t.HasDeck() {
		v.PropsError = "This turbine has no stored input files."
		return v, nil
	}
	var propsErr error
	err := s.Use(ctx, orgID, t.ID, func(dir string, d *deck.Deck) error {
		v.Main = d.Main
		v.Warnings = Warnings(dir, d)
		v.Props, propsErr = DetailedPropertiesOf(d)
		return nil
	})
	switch {
	case err != nil && turbinesim.ErrorCode(err) == turbinesim.EINVALID:
		v.PropsError = turbinesim.ErrorMessage(err)
	case err != nil:
		return nil, err
	case propsErr != nil:
		return nil, propsErr
	}
	return v, nil
}

// deckErrorDetail names file (relative to the deck) and line of a deck
// error without revealing the server's directory layout.
func deckErrorDetail(err error, mainPath string) string {
	var de *deck.Error
	if errors.As(err, &de) {
		return deckLocation(de.File, mainPath, de.Line) + ": " + joinNonEmpty(de.Variable, de.Msg)
	}
	return "unreadable input file"
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}

// deckLocation is "file:line" with file relative to the main file's
// directory (never the server's absolute path).
func deckLocation(file, mainPath string, line int) string {
	name := filepath.Base(file)
	if rel, err := filepath.Rel(filepath.Dir(mainPath), file); err == nil {
		name = filepath.ToSlash(rel)
	}
	if line > 0 {
		return name + ":" + strconv.Itoa(line)
	}
	return name
}

// openFiles opens turbine id's stored files for use; a turbine without
// stored files is ENOTFOUND.
func (s *StoredDecks) openFiles(ctx context.Context, orgID, id string, use func(t *turbinesim.Turbine, dir string) error) error {
	t, dir, release, err := s.Turbines.OpenTurbineDeck(ctx, orgID, id)
	if err != nil {
		return err
	}
	defer release()
	if dir == "" {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "turbine %q has no stored input files", t.Name)
	}
	return use(t, dir)
}

// Files lists turbine id's stored files.
func (s *StoredDecks) Files(ctx context.Context, orgID, id string) ([]turbinesim.DeckFile, error) {
	var files []turbinesim.DeckFile
	err := s.openFiles(ctx, orgID, id, func(_ *turbinesim.Turbine, dir string) (err error) {
		files, err = ListFiles(dir)
		return err
	})
	return files, err
}

// File reads one stored file of turbine id for viewing (ReadFile).
func (s *StoredDecks) File(ctx context.Context, orgID, id, rel string) (*turbinesim.DeckFileText, error) {
	var f *turbinesim.DeckFileText
	err := s.openFiles(ctx, orgID, id, func(_ *turbinesim.Turbine, dir string) (err error) {
		f, err = ReadFile(dir, rel)
		return err
	})
	return f, err
}

// Zip writes turbine id's stored files as a ZIP archive to the writer
// begin returns once the turbine is found (so that a missing turbine is
// still a clean 404 before anything is sent).
func (s *StoredDecks) Zip(ctx context.Context, orgID, id string, begin func(t *turbinesim.Turbine) io.Writer) error {
	return s.openFiles(ctx, orgID, id, func(t *turbinesim.Turbine, dir string) error {
		return WriteZip(begin(t), dir)
	})
}

// Diff compares the stored decks of turbines idA and idB (DiffDecks). The
// first deck is copied to scratch so that only one turbine's files are
// held open at a time.
func (s *StoredDecks) Diff(ctx context.Context, orgID, idA, idB, scratch string) (a, b *turbinesim.Turbine, rows []turbinesim.DeckParamDiff, err error) {
	copyA := filepath.Join(scratch, "a")
	err = s.openFiles(ctx, orgID, idA, func(t *turbinesim.Turbine, dir string) error {
		a = t
		return os.CopyFS(copyA, os.DirFS(dir))
	})
	if err != nil {
		return nil, nil, nil, err
	}
	err = s.openFiles(ctx, orgID, idB, func(t *turbinesim.Turbine, dir string) (err error) {
		b = t
		rows, err = DiffDecks(copyA, dir)
		return err
	})
	return a, b, rows, err
}

// PreviewEdit is what saving u on turbine id would do to its stored deck,
// without storing anything: the row as the edit would leave it, with
// DeckChanges saying which files and values would be rewritten (none when
// u changes nothing the deck holds). The rebuilt deck is written under
// scratch and left for the caller to remove.
func (s *StoredDecks) PreviewEdit(ctx context.Context, orgID, id string, u *turbinesim.TurbineUpdate, scratch string) (*turbinesim.Turbine, error) {
	var next *turbinesim.Turbine
	err := s.openFiles(ctx, orgID, id, func(cur *turbinesim.Turbine, dir string) error {
		n, err := u.Apply(cur)
		if err != nil {
			return err
		}
		next = n
		changes, err := ChangesDeck(u, cur)
		if err != nil {
			return err
		}
		if !changes {
			next.DeckChanges = &turbinesim.DeckEditReport{Files: []string{}, Changes: []turbinesim.DeckParamDiff{}, Notes: []string{}}
			return nil
		}
		return RebuildDeck(ctx, u, cur, next, dir, filepath.Join(scratch, "deck"))
	})
	return next, err
}
