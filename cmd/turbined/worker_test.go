package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobMemoryLimitBelowTwoGiBIsRefused: an address-space limit under
// which the solver starts only some of the time is a configuration error,
// not a source of random job failures; 2 GiB and the default are accepted.
func TestJobMemoryLimitBelowTwoGiBIsRefused(t *testing.T) {
	env := func(mem string) func(string) string {
		return func(k string) string {
			if k == "JOB_MEMORY_BYTES" {
				return mem
			}
			return ""
		}
	}
	for _, mem := range []string{"1073741824", "1610612736", "abc"} {
		if _, err := loadJobConfig(env(mem), t.TempDir()); err == nil || !strings.Contains(err.Error(), "JOB_MEMORY_BYTES") {
			t.Errorf("JOB_MEMORY_BYTES=%s: %v, want an error naming the variable", mem, err)
		}
	}
	for mem, want := range map[string]uint64{"2147483648": 2 << 30, "": 0} {
		c, err := loadJobConfig(env(mem), t.TempDir())
		if err != nil || c.Memory != want {
			t.Errorf("JOB_MEMORY_BYTES=%q: memory %d, %v; want %d", mem, c.Memory, err, want)
		}
	}
}

// TestDirectoriesAreAbsoluteFromStartUp: the README's default DATA_DIR is
// ./data; every directory setting (DATA_DIR, BLOB_DIR, WORK_DIR,
// RESULT_CACHE_DIR) is resolved against the working directory once at
// start-up, so the sandbox never receives a relative bind path.
func TestDirectoriesAreAbsoluteFromStartUp(t *testing.T) {
	t.Chdir(t.TempDir())
	vars := map[string]string{"BLOB_DIR": "b", "WORK_DIR": "./w", "RESULT_CACHE_DIR": "r"}
	getenv := func(k string) string { return vars[k] }
	cfg, err := loadConfig(getenv)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if cfg.DataDir != filepath.Join(wd, "data") {
		t.Errorf("DATA_DIR default resolved to %q, want %q", cfg.DataDir, filepath.Join(wd, "data"))
	}
	jc, err := loadJobConfig(getenv, cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	if jc.BlobDir != filepath.Join(wd, "b") || jc.WorkDir != filepath.Join(wd, "w") {
		t.Errorf("BLOB_DIR %q, WORK_DIR %q: want absolute paths under %s", jc.BlobDir, jc.WorkDir, wd)
	}
	if d, err := resultCacheDir(getenv, cfg.DataDir); err != nil || d != filepath.Join(wd, "r") {
		t.Errorf("RESULT_CACHE_DIR resolved to %q, want an absolute path", d)
	}
}
