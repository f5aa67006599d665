package blobstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"golang.org/x/sync/errgroup"

	"github.com/turbinesim/turbinesim"
)

// S3Config says where an S3-compatible store keeps its trees.
type S3Config struct {
	Endpoint  string // host[:port], or a URL with an http or https scheme
	Bucket    string // must exist
	AccessKey string
	SecretKey string
	Region    string // empty: asked from the server
	// Insecure talks plain HTTP to an endpoint given without a scheme
	// (a development server); the default is HTTPS.
	Insecure bool
	// Prefix is put in front of every object name ("turbines/"); several
	// stores share a bucket under different prefixes.
	Prefix string
	// ScratchDir receives the local copies Open makes; default os.TempDir().
	ScratchDir string
	// Transport replaces the default HTTP transport (tests, custom CAs).
	Transport http.RoundTripper
}

// S3 is a TreeStore in an S3-compatible object store. A tree is one object
// per file under "<prefix><key>/", plus a manifest "<prefix><key>.tree"
// listing its files and directories. The manifest is written last and
// deleted first: it plays the part of the local store's rename, so a tree
// exists for readers exactly when its manifest does, never half-written.
// Open copies the tree into a scratch directory, so every caller that needs
// local files (deck parsing, the worker's staging) works unchanged on a
// machine that shares nothing with the others but the database and S3.
type S3 struct {
	client  *minio.Client
	bucket  string
	prefix  string
	scratch string
}

var _ turbinesim.TreeStore = (*S3)(nil)

// transfers bounds the objects moved at once by one Put, Open or Copy:
// enough to hide per-request latency, few enough not to flood the server.
const transfers = 8

// NewS3 connects to the store and checks that the bucket exists, so a
// misconfiguration fails at start-up rather than on the first upload.
func NewS3(ctx context.Context, c S3Config) (*S3, error) {
	if c.Endpoint == "" || c.Bucket == "" {
		return nil, errors.New("blobstore: S3 needs an endpoint and a bucket")
	}
	host, secure := c.Endpoint, !c.Insecure
	switch {
	case strings.HasPrefix(host, "https://"):
		if c.Insecure {
			return nil, fmt.Errorf("blobstore: endpoint %q is https but plain HTTP was asked for", c.Endpoint)
		}
		host = strings.TrimPrefix(host, "https://")
	case strings.HasPrefix(host, "http://"):
		host, secure = strings.TrimPrefix(host, "http://"), false
	}
	host = strings.TrimSuffix(host, "/")
	if host == "" || strings.Contains(host, "/") {
		return nil, fmt.Errorf("blobstore: endpoint %q: want host[:port] or a URL without a path", c.Endpoint)
	}
	if c.Prefix != "" && !strings.HasSuffix(c.Prefix, "/") {
		c.Prefix += "/"
	}
	if c.ScratchDir == "" {
		c.ScratchDir = os.TempDir()
	}
	if err := os.MkdirAll(c.ScratchDir, 0o700); err != nil {
		return nil, fmt.Errorf("blobstore: creating %s: %w", c.ScratchDir, err)
	}
	client, err := minio.New(host, &minio.Options{
		Creds:     credentials.NewStaticV4(c.AccessKey, c.SecretKey, ""),
		Secure:    secure,
		Region:    c.Region,
		Transport: c.Transport,
	})
	if err != nil {
		return nil, fmt.Errorf("blobstore: S3 client for %s: %w", c.Endpoint, err)
	}
	ok, err := client.BucketExists(ctx, c.Bucket)
	if err != nil {
		return nil, fmt.Errorf("blobstore: reaching bucket %q at %s: %w", c.Bucket, c.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("blobstore: bucket %q does not exist at %s", c.Bucket, c.Endpoint)
	}
	return &S3{client: client, bucket: c.Bucket, prefix: c.Prefix, scratch: c.ScratchDir}, nil
}

// manifest is the commit record of one tree. Paths are slash-separated and
// relative to the tree; Dirs keeps empty directories, which S3 cannot hold.
type manifest struct {
	Files []manifestFile `json:"files"`
	Dirs  []string       `json:"dirs,omitempty"`
}

type manifestFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

func (s *S3) manifestName(key string) string    { return s.prefix + key + ".tree" }
func (s *S3) fileName(key, rel string) string   { return s.prefix + key + "/" + rel }
func (s *S3) filesPrefix(key string) string     { return s.prefix + key + "/" }
func isNoSuchKey(err error) bool                { return minio.ToErrorResponse(err).Code == minio.NoSuchKey }
func (s *S3) wrap(what string, err error) error { return fmt.Errorf("blobstore: %s: %w", what, err) }

// Put implements turbinesim.TreeStore. Like the local store it copies only
// regular files and directories; anything else fails the Put, and a failed
// Put removes what it had uploaded.
func (s *S3) Put(ctx context.Context, dir string) (string, error) {
	key, err := newKey()
	if err != nil {
		return "", err
	}
	var m manifest
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("blobstore: reading %s: %w", p, err)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return fmt.Errorf("blobstore: %w", err)
		}
		switch {
		case rel == ".":
		case d.IsDir():
			m.Dirs = append(m.Dirs, filepath.ToSlash(rel))
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return fmt.Errorf("blobstore: %w", err)
			}
			m.Files = append(m.Files, manifestFile{Path: filepath.ToSlash(rel), Size: info.Size()})
		default:
			return fmt.Errorf("blobstore: %s is neither a regular file nor a directory", rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(transfers)
	for _, f := range m.Files {
		g.Go(func() error { return s.upload(gctx, key, dir, f) })
	}
	if err := g.Wait(); err != nil {
		s.removeFiles(context.WithoutCancel(ctx), key)
		return "", err
	}
	if err := s.putManifest(ctx, key, &m); err != nil {
		s.removeFiles(context.WithoutCancel(ctx), key)
		return "", err
	}
	return key, nil
}

func (s *S3) upload(ctx context.Context, key, dir string, f manifestFile) error {
	in, err := os.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	defer in.Close()
	// The size read during the walk is what the manifest promises; a file
	// that changed meanwhile fails the upload rather than publishing a
	// tree that disagrees with its manifest.
	_, err = s.client.PutObject(ctx, s.bucket, s.fileName(key, f.Path), in, f.Size,
		putOptions("application/octet-stream"))
	if err != nil {
		return s.wrap("uploading "+f.Path, err)
	}
	return nil
}

// putOptions are the options of every upload. Over plain HTTP minio-go
// signs the body in aws-chunked framing (streaming SigV4), which not every
// S3-compatible server decodes everywhere: gofakes3 keeps the framing of
// multipart parts in the object and loses the length of empty bodies.
// Content-MD5 instead keeps the server checking every byte it receives
// (per part for multipart uploads), on any server; over HTTPS, TLS also
// protects the body in transit.
func putOptions(contentType string) minio.PutObjectOptions {
	return minio.PutObjectOptions{ContentType: contentType, DisableContentSha256: true, SendContentMd5: true}
}

func (s *S3) putManifest(ctx context.Context, key string, m *manifest) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	_, err = s.client.PutObject(ctx, s.bucket, s.manifestName(key), bytes.NewReader(b), int64(len(b)),
		putOptions("application/json"))
	if err != nil {
		return s.wrap("publishing tree", err)
	}
	return nil
}

// readManifest returns the tree's manifest; a missing one is fs.ErrNotExist,
// as a missing directory is for the local store.
func (s *S3) readManifest(ctx context.Context, key string) (*manifest, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.manifestName(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, s.wrap("opening tree", err)
	}
	defer obj.Close()
	b, err := io.ReadAll(io.LimitReader(obj, 64<<20))
	if err != nil {
		if isNoSuchKey(err) {
			return nil, fmt.Errorf("blobstore: opening tree %s: %w", key, fs.ErrNotExist)
		}
		return nil, s.wrap("opening tree", err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("blobstore: tree %s has a corrupt manifest: %w", key, err)
	}
	for _, f := range m.Files {
		if !safeRel(f.Path) {
			return nil, fmt.Errorf("blobstore: tree %s names an unsafe path %q", key, f.Path)
		}
	}
	for _, d := range m.Dirs {
		if !safeRel(d) {
			return nil, fmt.Errorf("blobstore: tree %s names an unsafe path %q", key, d)
		}
	}
	return &m, nil
}

// safeRel accepts only clean relative slash paths, so a tampered manifest
// cannot make Open write outside its scratch directory.
func safeRel(p string) bool {
	return p != "" && fs.ValidPath(p) && !strings.Contains(p, `\`)
}

// Open implements turbinesim.TreeStore: the tree is downloaded into a fresh
// scratch directory that release removes.
func (s *S3) Open(ctx context.Context, key string) (string, func(), error) {
	m, err := s.readManifest(ctx, key)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp(s.scratch, "tree-")
	if err != nil {
		return "", nil, fmt.Errorf("blobstore: %w", err)
	}
	release := func() { os.RemoveAll(dir) }
	for _, d := range m.Dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o700); err != nil {
			release()
			return "", nil, fmt.Errorf("blobstore: %w", err)
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(transfers)
	for _, f := range m.Files {
		g.Go(func() error { return s.download(gctx, key, f, dir) })
	}
	if err := g.Wait(); err != nil {
		release()
		return "", nil, err
	}
	return dir, release, nil
}

func (s *S3) download(ctx context.Context, key string, f manifestFile, dir string) error {
	target := filepath.Join(dir, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.fileName(key, f.Path), minio.GetObjectOptions{})
	if err != nil {
		return s.wrap("reading "+f.Path, err)
	}
	defer obj.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("blobstore: %w", err)
	}
	n, err := io.Copy(out, obj)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return s.wrap("reading "+f.Path, err)
	}
	if n != f.Size {
		return fmt.Errorf("blobstore: %s of tree %s has %d bytes, its manifest says %d", f.Path, key, n, f.Size)
	}
	return nil
}

// Copy implements turbinesim.TreeStore with server-side copies: the bytes
// never leave the object store.
func (s *S3) Copy(ctx context.Context, key string) (string, error) {
	m, err := s.readManifest(ctx, key)
	if err != nil {
		return "", err
	}
	dst, err := newKey()
	if err != nil {
		return "", err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(transfers)
	for _, f := range m.Files {
		g.Go(func() error {
			_, err := s.client.CopyObject(gctx,
				minio.CopyDestOptions{Bucket: s.bucket, Object: s.fileName(dst, f.Path)},
				minio.CopySrcOptions{Bucket: s.bucket, Object: s.fileName(key, f.Path)})
			if err != nil {
				return s.wrap("copying "+f.Path, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		s.removeFiles(context.WithoutCancel(ctx), dst)
		return "", err
	}
	if err := s.putManifest(ctx, dst, m); err != nil {
		s.removeFiles(context.WithoutCancel(ctx), dst)
		return "", err
	}
	return dst, nil
}

// Delete implements turbinesim.TreeStore. The manifest goes first, so the
// tree disappears for readers at once; the files follow.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, s.manifestName(key), minio.RemoveObjectOptions{}); err != nil && !isNoSuchKey(err) {
		return s.wrap("deleting tree", err)
	}
	return s.removeFiles(ctx, key)
}

// removeFiles deletes every object under the tree's file prefix, listed
// rather than taken from the manifest so that the leftovers of a failed Put
// go too.
func (s *S3) removeFiles(ctx context.Context, key string) error {
	var names []minio.ObjectInfo
	for o := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.filesPrefix(key), Recursive: true}) {
		if o.Err != nil {
			return s.wrap("listing tree "+key, o.Err)
		}
		names = append(names, o)
	}
	if len(names) == 0 {
		return nil
	}
	objs := make(chan minio.ObjectInfo, len(names))
	for _, o := range names {
		objs <- o
	}
	close(objs)
	var firstErr error
	for e := range s.client.RemoveObjects(ctx, s.bucket, objs, minio.RemoveObjectsOptions{}) {
		if firstErr == nil && e.Err != nil && !isNoSuchKey(e.Err) {
			firstErr = s.wrap("deleting "+path.Base(e.ObjectName), e.Err)
		}
	}
	return firstErr
}
