package deck

import (
	"errors"
	"fmt"
	"path/filepath"
)

// MaxDataFileSize bounds a data file named by a module input (WAMIT
// coefficient files, wave-elevation series): the published WAMIT .3 files
// are a few MB.
const MaxDataFileSize = 64 << 20

// ErrOutsideRoot is returned for a data file that resolves outside the
// deck's root directory (the same refusal as ErrOutsideDeck).
var ErrOutsideRoot = ErrOutsideDeck

// ReadDataFile reads a data file named in input file from (named as
// written, relative to from's directory as OpenFAST resolves it) that must
// lie inside the deck's root directory root and be a regular file of at
// most maxBytes (MaxDataFileSize when maxBytes ≤ 0), read through the same
// confinement as LoadIn (Tree). Errors name the file relative to root (or
// as written when it lies outside), never the server path.
func ReadDataFile(root, from, named string, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = MaxDataFileSize
	}
	if root == "" {
		return nil, fmt.Errorf("deck: data file %q: no deck root given", named)
	}
	t, err := OpenTree(root)
	if err != nil {
		return nil, fmt.Errorf("deck: data file %q: the deck root cannot be opened", named)
	}
	defer t.Close()
	p := resolvePath(from, named)
	show := named
	if rel, ok := t.Rel(p); ok {
		show = filepath.ToSlash(rel)
	}
	b, err := t.readBounded(p, maxBytes)
	if err != nil {
		var de *Error
		if errors.As(err, &de) {
			de.File = show
		}
		return nil, err
	}
	return b, nil
}
