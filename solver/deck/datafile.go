package deck

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxDataFileSize bounds a data file named by a module input (WAMIT
// coefficient files, wave-elevation series): the published WAMIT .3 files
// are a few MB.
const MaxDataFileSize = 64 << 20

// ErrOutsideRoot is returned for a data file that resolves outside the
// deck's root directory.
var ErrOutsideRoot = errors.New("file is outside the deck")

// ReadDataFile reads a data file named in input file from (named as
// written, relative to from's directory as OpenFAST resolves it) that must
// lie inside the deck's root directory root, symbolic links resolved, and
// be at most maxBytes long (MaxDataFileSize when maxBytes ≤ 0). Errors name
// the file relative to root, never the server path.
func ReadDataFile(root, from, named string, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = MaxDataFileSize
	}
	if root == "" {
		return nil, fmt.Errorf("deck: data file %q: no deck root given", named)
	}
	p := resolvePath(from, named)
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("deck: data file %q: bad deck root", named)
	}
	if r, err := filepath.EvalSymlinks(rootAbs); err == nil {
		rootAbs = r
	}
	show := named
	inside := func(q string) (string, bool) {
		rel, err := filepath.Rel(rootAbs, q)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if rel, ok := inside(filepath.Clean(p)); ok {
			show = rel
		}
		if os.IsNotExist(err) {
			return nil, &Error{File: show, Msg: "file not found", Err: ErrMissingFile}
		}
		return nil, &Error{File: show, Msg: "cannot open"}
	}
	rel, ok := inside(real)
	if !ok {
		return nil, &Error{File: named, Msg: "resolves outside the deck's directory", Err: ErrOutsideRoot}
	}
	show = rel
	f, err := os.Open(real)
	if err != nil {
		return nil, &Error{File: show, Msg: "cannot open"}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return nil, &Error{File: show, Msg: "is not a regular file"}
	}
	if fi.Size() > maxBytes {
		return nil, &Error{File: show, Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", fi.Size(), maxBytes)}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, &Error{File: show, Msg: "cannot read"}
	}
	if int64(len(b)) > maxBytes {
		return nil, &Error{File: show, Msg: fmt.Sprintf("file is larger than the %d-byte limit", maxBytes)}
	}
	return b, nil
}
