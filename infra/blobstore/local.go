// Package blobstore keeps directory trees (turbine decks, job inputs and
// outputs, artifacts) as a turbinesim.TreeStore: Local on a local directory
// (the default), S3 in an S3-compatible bucket (s3.go). In the local store
// each tree lives in its own directory named by a random key; trees are
// written to a staging name first and renamed into place, so a reader never
// sees half a tree.
package blobstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/turbinesim/turbinesim"
)

// Local is a TreeStore in a directory of the local file system.
type Local struct {
	root string
}

var _ turbinesim.TreeStore = (*Local)(nil)

// NewLocal returns a store rooted at dir, creating it (mode 0700) if needed.
func NewLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("blobstore: creating %s: %w", abs, err)
	}
	return &Local{root: abs}, nil
}

// Root is the directory holding the trees.
func (l *Local) Root() string { return l.root }

// newKey is 128 random bits in hex: unguessable and safe as a file name.
func newKey() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("blobstore: random key: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// checkKey accepts only keys this store made, so a key can never name a
// path outside the root.
func checkKey(key string) error {
	if len(key) != 32 {
		return fmt.Errorf("blobstore: malformed key %q", key)
	}
	if _, err := hex.DecodeString(key); err != nil {
		return fmt.Errorf("blobstore: malformed key %q", key)
	}
	return nil
}

// Put implements turbinesim.TreeStore. Only regular files and directories
// are copied; any other entry (symlink, device, socket) fails the Put.
func (l *Local) Put(ctx context.Context, dir string) (string, error) {
	key, err := newKey()
	if err != nil {
		return "", err
	}
	staging := filepath.Join(l.root, ".staging-"+key)
	if err := copyTree(ctx, dir, staging); err != nil {
		os.RemoveAll(staging)
		return "", err
	}
	if err := os.Rename(staging, filepath.Join(l.root, key)); err != nil {
		os.RemoveAll(staging)
		return "", fmt.Errorf("blobstore: publishing tree: %w", err)
	}
	return key, nil
}

// Open implements turbinesim.TreeStore; the tree is read in place.
func (l *Local) Open(ctx context.Context, key string) (string, func(), error) {
	if err := checkKey(key); err != nil {
		return "", nil, err
	}
	dir := filepath.Join(l.root, key)
	if _, err := os.Stat(dir); err != nil {
		return "", nil, fmt.Errorf("blobstore: opening tree: %w", err)
	}
	return dir, func() {}, nil
}

// Copy implements turbinesim.TreeStore.
func (l *Local) Copy(ctx context.Context, key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return l.Put(ctx, filepath.Join(l.root, key))
}

// Delete implements turbinesim.TreeStore.
func (l *Local) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(l.root, key)); err != nil {
		return fmt.Errorf("blobstore: deleting tree: %w", err)
	}
	return nil
}

// copyTree copies src into dst (created), refusing anything that is not a
// regular file or a directory.
func copyTree(ctx context.Context, src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("blobstore: reading %s: %w", path, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return fmt.Errorf("blobstore: %w", err)
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(path, target)
		default:
			return fmt.Errorf("blobstore: %s is neither a regular file nor a directory", rel)
		}
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("blobstore: copying %s: %w", filepath.Base(src), err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	return nil
}
