package blobstore

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
)

// fakeS3 is an S3 protocol server in the test process (gofakes3 over
// httptest): the store under test talks real S3 HTTP, signatures included.
type fakeS3 struct {
	srv     *httptest.Server
	backend *s3mem.Backend
}

func newFakeS3(t *testing.T, buckets ...string) *fakeS3 {
	t.Helper()
	be := s3mem.New()
	for _, b := range buckets {
		if err := be.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(gofakes3.New(be).Server())
	t.Cleanup(srv.Close)
	return &fakeS3{srv: srv, backend: be}
}

func (f *fakeS3) config(t *testing.T, bucket, prefix string) S3Config {
	return S3Config{
		Endpoint: f.srv.URL, Bucket: bucket, AccessKey: "test-access", SecretKey: "test-secret",
		Region: "us-east-1", Prefix: prefix, ScratchDir: t.TempDir(),
	}
}

// objects lists every object name in the bucket (all prefixes).
func (s *S3) objects(t *testing.T) []string {
	t.Helper()
	var names []string
	for o := range s.client.ListObjects(t.Context(), s.bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		names = append(names, o.Key)
	}
	return names
}

func TestS3Contract(t *testing.T) {
	runContract(t, func(t *testing.T) storeUnderTest {
		f := newFakeS3(t, "trees")
		s, err := NewS3(t.Context(), f.config(t, "trees", "turbines"))
		if err != nil {
			t.Fatal(err)
		}
		return storeUnderTest{store: s, kept: s.objects}
	})
}

// The layout under a prefix: one object per file plus the manifest, and
// nothing outside the prefix, so several stores can share a bucket.
func TestS3LayoutAndSharedBucket(t *testing.T) {
	f := newFakeS3(t, "shared")
	jobs, err := NewS3(t.Context(), f.config(t, "shared", "env/jobs/"))
	if err != nil {
		t.Fatal(err)
	}
	turbines, err := NewS3(t.Context(), f.config(t, "shared", "env/turbines"))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "Airfoils", "a.dat"), []byte("polar"))
	writeFile(t, filepath.Join(src, "main.fst"), []byte("deck"))
	key, err := jobs.Put(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(jobs.objects(t), " ")
	want := "env/jobs/" + key + ".tree env/jobs/" + key + "/Airfoils/a.dat env/jobs/" + key + "/main.fst"
	if got != want {
		t.Errorf("objects = %q, want %q", got, want)
	}
	// The other store shares the bucket but not the prefix: it cannot see
	// the tree, and deleting the key through it removes nothing.
	if _, _, err := turbines.Open(t.Context(), key); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open through another prefix: %v, want fs.ErrNotExist", err)
	}
	if err := turbines.Delete(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	if n := len(jobs.objects(t)); n != 3 {
		t.Errorf("a Delete through another prefix removed objects: %d left, want 3", n)
	}
}

// Files uploaded without their manifest (a Put that crashed before its
// last step) are not a tree: Open says not found, as the local store does
// for a staging directory, and Delete clears them.
func TestS3TreeWithoutManifestIsNotPublished(t *testing.T) {
	f := newFakeS3(t, "trees")
	s, err := NewS3(t.Context(), f.config(t, "trees", ""))
	if err != nil {
		t.Fatal(err)
	}
	key, err := newKey()
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("half a tree")
	if _, err := s.client.PutObject(t.Context(), "trees", key+"/main.fst", bytes.NewReader(body), int64(len(body)), minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Open(t.Context(), key); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of an unpublished tree: %v, want fs.ErrNotExist", err)
	}
	if _, err := s.Copy(t.Context(), key); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Copy of an unpublished tree: %v, want fs.ErrNotExist", err)
	}
	if err := s.Delete(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	if k := s.objects(t); len(k) != 0 {
		t.Errorf("Delete left %v", k)
	}
}

// Open's copy lives in the scratch directory and release removes it: a
// worker on another machine stages from it and keeps nothing.
func TestS3OpenUsesScratchAndReleaseRemovesIt(t *testing.T) {
	f := newFakeS3(t, "trees")
	cfg := f.config(t, "trees", "")
	s, err := NewS3(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	key, err := s.Put(t.Context(), writeSampleTree(t))
	if err != nil {
		t.Fatal(err)
	}
	dir, release, err := s.Open(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != cfg.ScratchDir {
		t.Errorf("Open gave %s, want a folder in the scratch directory %s", dir, cfg.ScratchDir)
	}
	release()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after release the copy is still there: %v", err)
	}
}

// A file above minio-go's 16 MiB part size goes up as a multipart upload;
// it must come back byte for byte, and server-side Copy must handle it.
func TestS3LargeFileMultipart(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 17 MiB")
	}
	f := newFakeS3(t, "trees")
	s, err := NewS3(t.Context(), f.config(t, "trees", "p"))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), (17<<20)/16+3)
	writeFile(t, filepath.Join(src, "big.outb"), big)
	key, err := s.Put(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.Copy(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{key, cp} {
		dir, release, err := s.Open(t.Context(), k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "big.outb"))
		release()
		if err != nil || !bytes.Equal(got, big) {
			t.Errorf("tree %s: big.outb came back as %d bytes (%v), want %d identical", k, len(got), err, len(big))
		}
	}
}

func TestNewS3Configuration(t *testing.T) {
	f := newFakeS3(t, "trees")
	cfg := f.config(t, "absent", "")
	if _, err := NewS3(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), `"absent" does not exist`) {
		t.Errorf("missing bucket: %v", err)
	}
	cfg = f.config(t, "trees", "")
	cfg.Endpoint = strings.TrimPrefix(cfg.Endpoint, "http://")
	cfg.Insecure = true // plain HTTP to a bare host:port
	if _, err := NewS3(t.Context(), cfg); err != nil {
		t.Errorf("bare host with Insecure: %v", err)
	}
	cfg.Endpoint = "https://" + cfg.Endpoint
	if _, err := NewS3(t.Context(), cfg); err == nil {
		t.Error("an https endpoint with Insecure was accepted")
	}
	cfg.Insecure, cfg.Endpoint = false, f.srv.URL+"/some/path"
	if _, err := NewS3(t.Context(), cfg); err == nil {
		t.Error("an endpoint with a path was accepted")
	}
	if _, err := NewS3(t.Context(), S3Config{Bucket: "trees"}); err == nil {
		t.Error("a configuration without endpoint was accepted")
	}
}
