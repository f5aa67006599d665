package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/infra/blobstore"
)

// loadS3Config reads the S3-compatible blob store settings (README.md has
// the table). It returns nil when BLOB_S3_ENDPOINT is unset: the stores stay
// local directories. workDir receives the local copies of opened trees.
func loadS3Config(getenv func(string) string, workDir string) (*blobstore.S3Config, error) {
	endpoint := getenv("BLOB_S3_ENDPOINT")
	if endpoint == "" {
		for _, v := range []string{"BLOB_S3_BUCKET", "BLOB_S3_ACCESS_KEY", "BLOB_S3_SECRET_KEY", "BLOB_S3_PREFIX"} {
			if getenv(v) != "" {
				return nil, fmt.Errorf("%s is set but BLOB_S3_ENDPOINT is not: set both to use S3, neither for local blobs", v)
			}
		}
		return nil, nil
	}
	c := &blobstore.S3Config{
		Endpoint:   endpoint,
		Bucket:     getenv("BLOB_S3_BUCKET"),
		AccessKey:  getenv("BLOB_S3_ACCESS_KEY"),
		SecretKey:  getenv("BLOB_S3_SECRET_KEY"),
		Region:     getenv("BLOB_S3_REGION"),
		Prefix:     getenv("BLOB_S3_PREFIX"),
		ScratchDir: filepath.Join(workDir, "trees"),
	}
	if c.Bucket == "" {
		return nil, errors.New("BLOB_S3_ENDPOINT is set but BLOB_S3_BUCKET is not")
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		return nil, errors.New("BLOB_S3_ACCESS_KEY and BLOB_S3_SECRET_KEY go together: set both, or neither for anonymous access")
	}
	if v := getenv("BLOB_S3_INSECURE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("BLOB_S3_INSECURE=%q: want true or false", v)
		}
		c.Insecure = b
	}
	return c, nil
}

// openTreeStore opens one blob store: the local directory localDir, or,
// with S3 configured, the objects under "<BLOB_S3_PREFIX><sub>/" in the
// bucket. Every process of an installation (serve, worker) must use the
// same sub for the same store.
func openTreeStore(ctx context.Context, s3 *blobstore.S3Config, sub, localDir string) (turbinesim.TreeStore, error) {
	if s3 == nil {
		return blobstore.NewLocal(localDir)
	}
	c := *s3
	if c.Prefix != "" && c.Prefix[len(c.Prefix)-1] != '/' {
		c.Prefix += "/"
	}
	c.Prefix += sub + "/"
	return blobstore.NewS3(ctx, c)
}
