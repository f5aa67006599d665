package deck

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrOutsideDeck is wrapped by errors about a file reference that leaves the
// deck's own tree (an absolute path, a ".." escape, a symbolic link) or
// names something that is not a regular file (a device, a FIFO, a
// directory). Such a file is refused before it is opened.
var ErrOutsideDeck = errors.New("file reference outside the deck")

// Tree confines reads to one directory tree: the folder a user uploaded or
// a stored turbine's folder. Every path is first checked lexically (it must
// lie below the tree's directory once cleaned), then opened through an
// os.Root, which refuses ".." and symbolic links that leave the tree even
// when they sit in intermediate directories. Only regular files are read,
// and at most MaxFileSize bytes of each.
//
// A nil *Tree reads anywhere (operator-trusted decks: tests, benchmarks,
// command-line tools) with the same regular-file and size checks.
type Tree struct {
	dir  string
	root *os.Root
}

// OpenTree opens dir as a confining tree. Close it when done.
func OpenTree(dir string) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("deck: tree: %w", err)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("deck: tree: %w", err)
	}
	return &Tree{dir: abs, root: r}, nil
}

// Close releases the tree's directory handle.
func (t *Tree) Close() error {
	if t == nil {
		return nil
	}
	return t.root.Close()
}

// Dir is the tree's directory (absolute).
func (t *Tree) Dir() string { return t.dir }

// Rel returns path relative to the tree and whether path lies inside it.
// The check is lexical: nothing is opened.
func (t *Tree) Rel(path string) (string, bool) {
	r, err := filepath.Rel(t.dir, filepath.Clean(path))
	if err != nil || !filepath.IsLocal(r) {
		return "", false
	}
	return r, true
}

// Contains reports whether path lies inside the tree (lexically); a nil
// Tree contains every path.
func (t *Tree) Contains(path string) bool {
	if t == nil {
		return true
	}
	_, ok := t.Rel(path)
	return ok
}

// isRegular reports whether path names a regular file. Inside a tree the
// final component is not followed (a symbolic link is not a regular file);
// a path outside the tree is never looked at.
func (t *Tree) isRegular(path string) bool {
	if t == nil {
		fi, err := os.Stat(path)
		return err == nil && fi.Mode().IsRegular()
	}
	rel, ok := t.Rel(path)
	if !ok {
		return false
	}
	fi, err := t.root.Lstat(rel)
	return err == nil && fi.Mode().IsRegular()
}

// exists reports whether anything (of any type) is at path inside the tree,
// without following a final symbolic link.
func (t *Tree) exists(path string) bool {
	rel, ok := t.Rel(path)
	if !ok {
		return false
	}
	_, err := t.root.Lstat(rel)
	return err == nil
}

// ReadFile reads a regular file of the tree, bounded by MaxFileSize. Errors
// are *Error naming path (callers turn it into a deck-relative name); their
// messages never carry a path.
func (t *Tree) ReadFile(path string) ([]byte, error) {
	return t.readBounded(path, MaxFileSize)
}

// readBounded is ReadFile with another size bound (data files such as
// WAMIT coefficient tables are larger than input files).
func (t *Tree) readBounded(path string, maxBytes int64) ([]byte, error) {
	var f *os.File
	// O_NONBLOCK: opening a FIFO for reading must not wait for a writer;
	// the descriptor is then refused below as not a regular file.
	const flags = os.O_RDONLY | syscall.O_NONBLOCK
	if t == nil {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, openError(path, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, notRegular(path, fi)
		}
		if f, err = os.OpenFile(path, flags, 0); err != nil {
			return nil, openError(path, err)
		}
	} else {
		rel, ok := t.Rel(path)
		if !ok {
			return nil, &Error{File: path, Msg: "the file lies outside the deck's folder", Err: ErrOutsideDeck}
		}
		fi, err := t.root.Lstat(rel)
		if err != nil {
			return nil, openError(path, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, notRegular(path, fi)
		}
		if f, err = t.root.OpenFile(rel, flags, 0); err != nil {
			return nil, openError(path, err)
		}
	}
	defer f.Close()
	// The descriptor, not the name, decides: the file may have been
	// swapped between the look-up and the open.
	fi, err := f.Stat()
	if err != nil {
		return nil, openError(path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi)
	}
	// Stat's size is not trusted (files of /proc report 0): the read
	// itself is bounded.
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read the file"}
	}
	if int64(len(b)) > maxBytes {
		return nil, &Error{File: path, Msg: fmt.Sprintf("file is larger than the %d-byte limit", maxBytes)}
	}
	return b, nil
}

func openError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{File: path, Msg: "file not found", Err: ErrMissingFile}
	}
	if errors.Is(err, fs.ErrPermission) {
		return &Error{File: path, Msg: "cannot open (permission denied)"}
	}
	// os.Root's refusal of an escaping path, and other open failures: the
	// underlying error carries the server's path, so it is not wrapped.
	return &Error{File: path, Msg: "cannot open: the path leaves the deck's folder or is not a readable file", Err: ErrOutsideDeck}
}

func notRegular(path string, fi fs.FileInfo) error {
	what := "not a regular file"
	switch m := fi.Mode(); {
	case m.IsDir():
		return &Error{File: path, Msg: "is a directory, expected an input file"}
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return &Error{File: path, Msg: "is " + what + ", expected a regular input file", Err: ErrOutsideDeck}
}
