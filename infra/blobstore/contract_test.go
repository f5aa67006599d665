package blobstore

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
)

// storeUnderTest is one TreeStore implementation for the contract tests,
// with a view of everything it keeps (directory entries or object names),
// so the tests can check that failed and deleted trees leave nothing.
type storeUnderTest struct {
	store turbinesim.TreeStore
	kept  func(t *testing.T) []string
}

// runContract runs the behaviour every TreeStore must have. Both the local
// and the S3 store pass it (TestLocalContract, TestS3Contract).
func runContract(t *testing.T, open func(t *testing.T) storeUnderTest) {
	t.Run("PutOpenRoundTrip", func(t *testing.T) {
		s := open(t)
		src := writeSampleTree(t)
		want := snapshot(t, src)
		key, err := s.store.Put(t.Context(), src)
		if err != nil {
			t.Fatal(err)
		}
		// The store holds a copy: changing the source afterwards changes
		// nothing in it.
		if err := os.WriteFile(filepath.Join(src, "main.fst"), []byte("changed"), 0o600); err != nil {
			t.Fatal(err)
		}
		dir, release, err := s.store.Open(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		assertTree(t, dir, want)
	})

	t.Run("TwoTreesAreIndependent", func(t *testing.T) {
		s := open(t)
		a, b := t.TempDir(), t.TempDir()
		writeFile(t, filepath.Join(a, "x.dat"), []byte("tree a"))
		writeFile(t, filepath.Join(b, "x.dat"), []byte("tree b"))
		ka, err := s.store.Put(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		kb, err := s.store.Put(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		if ka == kb {
			t.Fatalf("two Puts returned the same key %q", ka)
		}
		if err := checkKey(ka); err != nil {
			t.Errorf("Put returned a key Open would refuse: %v", err)
		}
		for key, want := range map[string]string{ka: "tree a", kb: "tree b"} {
			dir, release, err := s.store.Open(t.Context(), key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "x.dat"))
			release()
			if err != nil || string(got) != want {
				t.Errorf("tree %s: x.dat = %q, %v; want %q", key, got, err, want)
			}
		}
	})

	t.Run("CopySurvivesDeleteOfOriginal", func(t *testing.T) {
		s := open(t)
		src := writeSampleTree(t)
		want := snapshot(t, src)
		key, err := s.store.Put(t.Context(), src)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := s.store.Copy(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		if cp == key {
			t.Fatalf("Copy returned the source key %q", cp)
		}
		if err := s.store.Delete(t.Context(), key); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.store.Open(t.Context(), key); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open of the deleted original: %v, want fs.ErrNotExist", err)
		}
		dir, release, err := s.store.Open(t.Context(), cp)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		assertTree(t, dir, want)
	})

	t.Run("MissingAndMalformedKeys", func(t *testing.T) {
		s := open(t)
		missing, err := newKey()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.store.Open(t.Context(), missing); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
		}
		if _, err := s.store.Copy(t.Context(), missing); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Copy(missing) = %v, want fs.ErrNotExist", err)
		}
		if err := s.store.Delete(t.Context(), missing); err != nil {
			t.Errorf("Delete(missing) = %v, want nil (deleting an absent key is not an error)", err)
		}
		for _, bad := range []string{"", "../../etc", strings.Repeat("g", 32), missing + "/x"} {
			if _, _, err := s.store.Open(t.Context(), bad); err == nil {
				t.Errorf("Open(%q) succeeded", bad)
			}
			if _, err := s.store.Copy(t.Context(), bad); err == nil {
				t.Errorf("Copy(%q) succeeded", bad)
			}
			if err := s.store.Delete(t.Context(), bad); err == nil {
				t.Errorf("Delete(%q) succeeded", bad)
			}
		}
		if k := s.kept(t); len(k) != 0 {
			t.Errorf("the store holds %v after operations on missing keys", k)
		}
	})

	t.Run("DeleteLeavesNothing", func(t *testing.T) {
		s := open(t)
		key, err := s.store.Put(t.Context(), writeSampleTree(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.kept(t)) == 0 {
			t.Fatal("the store shows nothing after a Put; the leftover checks below would prove nothing")
		}
		if err := s.store.Delete(t.Context(), key); err != nil {
			t.Fatal(err)
		}
		if k := s.kept(t); len(k) != 0 {
			t.Errorf("after Delete the store still holds %v", k)
		}
		if err := s.store.Delete(t.Context(), key); err != nil {
			t.Errorf("second Delete: %v", err)
		}
	})

	// Atomic publish: a Put either publishes the whole tree under a key it
	// returns, or fails and leaves nothing behind (the local store's
	// staging directory, the S3 store's uploaded objects).
	t.Run("FailedPutLeavesNothing", func(t *testing.T) {
		s := open(t)
		src := t.TempDir()
		// "a.dat" sorts before the link, so it is copied or uploaded
		// before the Put meets the link and fails.
		writeFile(t, filepath.Join(src, "a.dat"), []byte("copied first"))
		if err := os.Symlink("/etc/passwd", filepath.Join(src, "z-link")); err != nil {
			t.Fatal(err)
		}
		if key, err := s.store.Put(t.Context(), src); err == nil {
			t.Fatalf("Put of a tree with a symlink succeeded (key %s)", key)
		}
		if k := s.kept(t); len(k) != 0 {
			t.Errorf("a failed Put left %v", k)
		}
	})

	t.Run("CancelledPutLeavesNothing", func(t *testing.T) {
		s := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if key, err := s.store.Put(ctx, writeSampleTree(t)); err == nil {
			t.Fatalf("Put with a cancelled context succeeded (key %s)", key)
		}
		if k := s.kept(t); len(k) != 0 {
			t.Errorf("a cancelled Put left %v", k)
		}
	})

	t.Run("PutOfMissingDirectory", func(t *testing.T) {
		s := open(t)
		if _, err := s.store.Put(t.Context(), filepath.Join(t.TempDir(), "absent")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Put(absent dir) = %v, want fs.ErrNotExist", err)
		}
		if k := s.kept(t); len(k) != 0 {
			t.Errorf("a failed Put left %v", k)
		}
	})
}

func TestLocalContract(t *testing.T) {
	runContract(t, func(t *testing.T) storeUnderTest {
		l, err := NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return storeUnderTest{store: l, kept: func(t *testing.T) []string {
			ents, err := os.ReadDir(l.Root())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			return names
		}}
	})
}

// writeSampleTree writes a deck-like tree: nested folders, a name with a
// space, an empty folder, an empty file and a binary file.
func writeSampleTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, 300<<10)
	for i := range bin {
		bin[i] = byte(rng.Uint32())
	}
	writeFile(t, filepath.Join(dir, "main.fst"), []byte("------- OpenFAST INPUT FILE -------\n"))
	writeFile(t, filepath.Join(dir, "Airfoils", "NACA 64_A17.dat"), []byte("polar\n"))
	writeFile(t, filepath.Join(dir, "Airfoils", "deep", "Cylinder1.dat"), []byte("cyl\n"))
	writeFile(t, filepath.Join(dir, "out", "run.outb"), bin)
	writeFile(t, filepath.Join(dir, "empty.txt"), nil)
	if err := os.MkdirAll(filepath.Join(dir, "Wind", "unused"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists a tree: "d path" for directories, "f path" plus contents
// for files.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			m["d "+rel] = nil
			return nil
		}
		if !d.Type().IsRegular() {
			t.Errorf("%s is not a regular file (%v)", rel, d.Type())
			return nil
		}
		b, err := os.ReadFile(p)
		m["f "+rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func assertTree(t *testing.T, dir string, want map[string][]byte) {
	t.Helper()
	got := snapshot(t, dir)
	var names []string
	for k := range want {
		names = append(names, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("%s is missing from the opened tree", k)
		case !wok:
			t.Errorf("%s is in the opened tree but was never put", k)
		case !bytes.Equal(g, w):
			t.Errorf("%s: %d bytes differ from the %d put", k, len(g), len(w))
		}
	}
}
