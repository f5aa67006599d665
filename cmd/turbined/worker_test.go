package main

import (
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
