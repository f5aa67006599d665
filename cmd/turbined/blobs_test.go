package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/turbinesim/turbinesim/infra/blobstore"
)

func TestLoadS3Config(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	if c, err := loadS3Config(env(), "/w"); c != nil || err != nil {
		t.Errorf("no variables: %+v, %v; want local (nil, nil)", c, err)
	}
	c, err := loadS3Config(env("BLOB_S3_ENDPOINT", "minio:9000", "BLOB_S3_BUCKET", "sim",
		"BLOB_S3_ACCESS_KEY", "ak", "BLOB_S3_SECRET_KEY", "sk", "BLOB_S3_REGION", "eu-west-1",
		"BLOB_S3_INSECURE", "true", "BLOB_S3_PREFIX", "prod"), "/w")
	if err != nil {
		t.Fatal(err)
	}
	want := blobstore.S3Config{Endpoint: "minio:9000", Bucket: "sim", AccessKey: "ak", SecretKey: "sk",
		Region: "eu-west-1", Insecure: true, Prefix: "prod", ScratchDir: filepath.Join("/w", "trees")}
	if *c != want {
		t.Errorf("config %+v, want %+v", *c, want)
	}
	for _, bad := range []struct {
		env  func(string) string
		want string
	}{
		{env("BLOB_S3_BUCKET", "sim"), "BLOB_S3_ENDPOINT is not"},
		{env("BLOB_S3_ENDPOINT", "minio:9000"), "BLOB_S3_BUCKET"},
		{env("BLOB_S3_ENDPOINT", "minio:9000", "BLOB_S3_BUCKET", "b", "BLOB_S3_ACCESS_KEY", "ak"), "go together"},
		{env("BLOB_S3_ENDPOINT", "minio:9000", "BLOB_S3_BUCKET", "b", "BLOB_S3_INSECURE", "perhaps"), "BLOB_S3_INSECURE"},
	} {
		if _, err := loadS3Config(bad.env, "/w"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("got %v, want an error naming %s", err, bad.want)
		}
	}
}

// The serve and worker processes find each store under its own prefix of
// the one bucket; without S3 each store is its local directory.
func TestOpenTreeStore(t *testing.T) {
	be := s3mem.New()
	if err := be.CreateBucket("sim"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(be).Server())
	defer srv.Close()
	cfg := &blobstore.S3Config{Endpoint: srv.URL, Bucket: "sim", AccessKey: "a", SecretKey: "b",
		Region: "us-east-1", Prefix: "prod", ScratchDir: t.TempDir()}
	s, err := openTreeStore(t.Context(), cfg, "jobs", "/unused")
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "main.fst"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := s.Put(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := be.HeadObject("sim", "prod/jobs/"+key+".tree")
	if err != nil || obj == nil {
		t.Errorf("manifest not at prod/jobs/%s.tree: %v", key, err)
	}
	if cfg.Prefix != "prod" {
		t.Errorf("openTreeStore changed the shared configuration's prefix to %q", cfg.Prefix)
	}
	local := filepath.Join(t.TempDir(), "turbines")
	if _, err := openTreeStore(t.Context(), nil, "turbines", local); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(local); err != nil || !fi.IsDir() {
		t.Errorf("without S3 the local directory %s was not created: %v", local, err)
	}
}
