package handlers

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// Job input policy (security brief §2.I, ASVS 5.0 5.1.1/5.2.x): the ZIP's
// members are checked against these budgets from the central directory
// before anything is decompressed, and again while copying (a member may
// lie about its size).
const (
	maxZipEntries      = 2000
	maxZipTotalBytes   = 512 << 20
	maxZipMemberBytes  = 128 << 20
	maxEntrypointBytes = 1024
)

// zipNameOK allows portable relative names only: letters, digits and
// ._-+() and spaces, separated by '/'.
var zipNameOK = regexp.MustCompile(`^[A-Za-z0-9._\-+() ]+(/[A-Za-z0-9._\-+() ]+)*/?$`)

// executableMagic are the first bytes of ELF, PE and Mach-O files: an
// upload carrying a shared library (a Bladed-style controller) would be
// code execution, so none is accepted under any name (brief finding 5).
var executableMagic = [][]byte{
	{0x7f, 'E', 'L', 'F'}, {'M', 'Z'},
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
}

func invalid(format string, args ...any) error {
	return turbinesim.Errorf(turbinesim.EINVALID, format, args...)
}

// extractJobZip writes the members of the ZIP r into dir (which must
// exist), refusing path traversal, links, executables and archives over
// the budgets. Writes go through os.Root, so nothing can land outside dir.
func extractJobZip(r io.ReaderAt, size int64, dir string) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return invalid("file: not a readable ZIP archive")
	}
	if len(zr.File) > maxZipEntries {
		return invalid("file: %d entries, at most %d", len(zr.File), maxZipEntries)
	}
	var total uint64
	for _, f := range zr.File {
		name := f.Name
		if !zipNameOK.MatchString(name) || !filepath.IsLocal(name) || strings.Contains(name, "..") {
			return invalid("file: member %q: name not allowed (relative names of letters, digits and ._-+() only)", clipText(name, 100))
		}
		mode := f.Mode()
		if !mode.IsRegular() && !mode.IsDir() {
			return invalid("file: member %q: only regular files and directories are accepted", name)
		}
		if f.UncompressedSize64 > maxZipMemberBytes {
			return invalid("file: member %q: %d bytes, at most %d", name, f.UncompressedSize64, maxZipMemberBytes)
		}
		total += f.UncompressedSize64
	}
	if total > maxZipTotalBytes {
		return invalid("file: %d bytes uncompressed, at most %d", total, maxZipTotalBytes)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("opening extraction directory: %w", err)
	}
	defer root.Close()
	var written int64
	for _, f := range zr.File {
		name := strings.TrimSuffix(f.Name, "/")
		if f.Mode().IsDir() {
			if err := root.MkdirAll(name, 0o700); err != nil {
				return invalid("file: member %q: %v", name, errors.Unwrap(err))
			}
			continue
		}
		if d := path.Dir(name); d != "." {
			if err := root.MkdirAll(d, 0o700); err != nil {
				return invalid("file: member %q: cannot create its directory", name)
			}
		}
		if err := copyZipMember(root, f, name, &written); err != nil {
			return err
		}
	}
	return nil
}

func copyZipMember(root *os.Root, f *zip.File, name string, written *int64) error {
	rc, err := f.Open()
	if err != nil {
		return invalid("file: member %q: %v", name, err)
	}
	defer rc.Close()
	out, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return invalid("file: member %q: duplicate or not writable", name)
	}
	defer out.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(rc, head)
	head = head[:n]
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) {
			return invalid("file: member %q: executables and shared libraries (controllers) are not accepted", name)
		}
	}
	budget := int64(maxZipTotalBytes) - *written
	if _, err := out.Write(head); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	m, err := io.Copy(out, io.LimitReader(rc, min(budget, maxZipMemberBytes)+1-int64(n)))
	if err != nil {
		return invalid("file: member %q: %v", name, err)
	}
	*written += m + int64(n)
	if m+int64(n) > maxZipMemberBytes || *written > maxZipTotalBytes {
		return invalid("file: member %q: larger than its declared size or the budget", name)
	}
	return nil
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// checkEntrypoint validates the entrypoint field: a relative, slash-separated
// path of a .fst file inside the input tree.
func checkEntrypoint(dir, entry string) error {
	if entry == "" {
		return invalid("entrypoint: required (the main .fst inside the ZIP)")
	}
	if len(entry) > maxEntrypointBytes || !zipNameOK.MatchString(entry) || !filepath.IsLocal(entry) || strings.HasSuffix(entry, "/") {
		return invalid("entrypoint: %q is not a relative path inside the ZIP", clipText(entry, 100))
	}
	if !strings.EqualFold(path.Ext(entry), ".fst") {
		return invalid("entrypoint: %q is not a .fst file", entry)
	}
	st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(entry)))
	if err != nil || !st.Mode().IsRegular() {
		return invalid("entrypoint: %q is not in the ZIP", entry)
	}
	return nil
}

// validateDeck loads the deck at entry inside dir and runs the deck
// validator; any error becomes 422 naming the file (relative to the
// upload) and the line. Every referenced file must lie inside dir (an
// input deck cannot read /etc/passwd or another job's files, brief I10).
func validateDeck(dir, entry string) (*deck.Deck, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(r) {
			return filepath.ToSlash(r)
		}
		return filepath.Base(p)
	}
	d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(entry)))
	if err != nil {
		var de *deck.Error
		if errors.As(err, &de) {
			return nil, invalid("%s:%d: %s: %s", rel(de.File), de.Line, de.Variable, de.Msg)
		}
		return nil, invalid("deck: %s", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	for _, f := range d.Files {
		if !f.Used {
			continue
		}
		r, err := filepath.Rel(dir, f.Path)
		if err != nil || !filepath.IsLocal(r) {
			return nil, invalid("%s:%d: %s: %q points outside the uploaded files", rel(f.From), f.Line, f.Var, f.Named)
		}
	}
	var msgs []string
	for _, p := range deck.Validate(d) {
		if p.Warning {
			continue
		}
		msgs = append(msgs, fmt.Sprintf("%s:%d: %s: %s", rel(p.File), p.Line, p.Variable, p.Message))
	}
	if len(msgs) > 0 {
		return nil, invalid("%s", strings.Join(msgs, "; "))
	}
	return d, nil
}

// RunSettings are the settings of a run built from a stored turbine.
type RunSettings struct {
	TMax float64 `json:"t_max"`
	// DT overrides the deck's time step when positive.
	DT   float64      `json:"dt,omitempty"`
	Wind WindSettings `json:"wind"`
}

// WindSettings choose steady wind: hub-height speed and power-law shear.
type WindSettings struct {
	Speed float64  `json:"speed"`
	Shear *float64 `json:"shear,omitempty"`
}

// TurbineRunRequest is the JSON body of POST /jobs for a stored turbine.
type TurbineRunRequest struct {
	TurbineID string      `json:"turbine_id"`
	Settings  RunSettings `json:"settings"`
}

func (r *TurbineRunRequest) check() error {
	s := r.Settings
	switch {
	case r.TurbineID == "":
		return invalid("turbine_id: required")
	case !(s.TMax > 0 && s.TMax <= 7200):
		return invalid("settings.t_max: %g is outside (0, 7200] s", s.TMax)
	case s.DT < 0 || s.DT > 1:
		return invalid("settings.dt: %g is outside [0, 1] s", s.DT)
	case !(s.Wind.Speed > 0 && s.Wind.Speed <= 80):
		return invalid("settings.wind.speed: %g is outside (0, 80] m/s", s.Wind.Speed)
	case s.Wind.Shear != nil && (*s.Wind.Shear < -1 || *s.Wind.Shear > 1):
		return invalid("settings.wind.shear: %g is outside [-1, 1]", *s.Wind.Shear)
	}
	return nil
}

// deckFromTurbine writes the turbine's stored deck, with the run settings
// applied, into dir and returns the entrypoint.
func deckFromTurbine(ctx context.Context, trees turbinesim.TreeStore, t *turbinesim.Turbine, req *TurbineRunRequest, dir string) (string, error) {
	if !t.HasDeck() {
		return "", invalid("turbine_id: this turbine has no input deck to run")
	}
	src, release, err := trees.Open(ctx, *t.SourceKey)
	if err != nil {
		return "", fmt.Errorf("opening turbine deck: %w", err)
	}
	defer release()
	d, err := validateDeck(src, *t.MainFile)
	if err != nil {
		return "", err
	}
	s := req.Settings
	d.Main.TMax = s.TMax
	if s.DT > 0 {
		d.Main.DT = s.DT
	}
	if d.InflowWind == nil {
		return "", invalid("turbine_id: the turbine's deck has no InflowWind module to set the wind in")
	}
	d.InflowWind.WindType = 1
	d.InflowWind.HWindSpeed = s.Wind.Speed
	if s.Wind.Shear != nil {
		d.InflowWind.PLExp = *s.Wind.Shear
	}
	fst, err := deck.Write(dir, d)
	if err != nil {
		return "", fmt.Errorf("writing run deck: %w", err)
	}
	entry, err := filepath.Rel(dir, fst)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(entry), nil
}
