package dlc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/turbinesim/turbinesim/solver/windgen"
)

// BoxCache keeps the turbulence boxes of a batch in one folder, one .bts per
// distinct TurbulenceSpec, so that the runs sharing a box — the yaw angles
// of a speed and seed, DLCs of the same turbulence model (Expand gives them
// the same seed) — pay for its synthesis once. A box is a pure function of
// its spec (the seed included), so a cached file is exactly the box the run
// would have generated.
//
// The folder may be shared by several processes: a box is written to a
// temporary file and renamed into place, so a reader never sees a partial
// box, and two processes that miss at once both generate the same bytes.
type BoxCache struct {
	Dir string

	generated, reused atomic.Int64
}

// Generated and Reused count this process's misses and hits.
func (c *BoxCache) Generated() int64 { return c.generated.Load() }

// Reused counts the boxes found in the folder.
func (c *BoxCache) Reused() int64 { return c.reused.Load() }

// BoxKey names the box of spec in a cache: a hash of every field of the
// spec (model, class, category, speed, seed, grid, time step, duration,
// periodicity, coherence settings).
func BoxKey(spec windgen.TurbulenceSpec) (string, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("dlc: box key: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16]) + ".bts", nil
}

// Box returns the path of spec's box in the cache, generating and storing
// it first when it is not there.
func (c *BoxCache) Box(ctx context.Context, spec windgen.TurbulenceSpec) (string, error) {
	key, err := BoxKey(spec)
	if err != nil {
		return "", err
	}
	path := filepath.Join(c.Dir, key)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		c.reused.Add(1)
		return path, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("dlc: box cache: %w", err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return "", fmt.Errorf("dlc: box cache: %w", err)
	}
	// Written to a temporary file beside path and renamed, so a run that
	// finds the box finds it whole.
	if err := windgen.GenerateTurbulenceFile(ctx, spec, path); err != nil {
		return "", err
	}
	c.generated.Add(1)
	return path, nil
}

// linkOrCopy puts src at dst: a hard link when the file system allows it
// (no bytes copied), a copy otherwise.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
