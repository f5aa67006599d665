package main

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/turbinesim/turbinesim/infra/resultcache"
)

// newResultCache is the read-once columnar cache of job outputs:
// column files under RESULT_CACHE_DIR (default DATA_DIR/results; local to
// the machine, rebuilt from the outputs when lost) and an in-process LRU of
// RESULT_CACHE_BYTES (default 512 MiB).
func newResultCache(getenv func(string) string, dataDir string) (*resultcache.Cache, error) {
	dir, err := resultCacheDir(getenv, dataDir)
	if err != nil {
		return nil, err
	}
	var size int64
	if v := getenv("RESULT_CACHE_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1<<20 {
			return nil, fmt.Errorf("RESULT_CACHE_BYTES=%q: want a byte count of at least 1 MiB", v)
		}
		size = n
	}
	return resultcache.New(dir, size)
}

// resultCacheDir is RESULT_CACHE_DIR (default DATA_DIR/results) as an
// absolute path.
func resultCacheDir(getenv func(string) string, dataDir string) (string, error) {
	dir := getenv("RESULT_CACHE_DIR")
	if dir == "" {
		dir = filepath.Join(dataDir, "results")
	}
	return absDir("RESULT_CACHE_DIR", dir)
}
