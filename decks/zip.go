package decks

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// ZipLimits bound what an uploaded archive may expand to (a ZIP bomb or a
// million-entry archive is refused). Every check runs on the central
// directory before anything is written. Turbine uploads and job
// submissions (package jobs) both extract with ExtractZip.
type ZipLimits struct {
	MaxEntries    int   // files and directories
	MaxTotalBytes int64 // sum of the declared uncompressed sizes
	MaxEntryBytes int64 // one file
	// MaxRatio is the largest uncompressed/compressed ratio of an entry
	// larger than ratioFloor; text decks compress about 3-10:1, a zip bomb
	// 1000:1.
	MaxRatio int64
}

// DefaultZipLimits are the limits of POST /turbines/from-upload. The
// largest reference deck (IEA 15 MW floating with WAMIT data) has about
// 100 files and 9 MB.
var DefaultZipLimits = ZipLimits{MaxEntries: 2000, MaxTotalBytes: 256 << 20, MaxEntryBytes: 64 << 20, MaxRatio: 100}

// ratioFloor: entries up to this size are not ratio-checked (a small file
// of repeated characters is harmless however well it compresses).
const ratioFloor = 1 << 20

// entrySegment is the allowlist of one path segment of an entry name.
var entrySegment = regexp.MustCompile(`^[A-Za-z0-9._+() -]{1,255}$`)

// invalidUpload is the 422 of a refused upload.
func invalidUpload(format string, args ...any) error {
	return turbinesim.Errorf(turbinesim.EINVALID, format, args...)
}

// checkEntryName validates one archive entry name: relative, forward
// slashes only, no "." or ".." segments, no drive letters, NULs, control
// characters or colons, each segment from the allowlist.
func checkEntryName(name string) error {
	clean := strings.TrimSuffix(name, "/")
	switch {
	case clean == "":
		return invalidUpload("archive entry with an empty name")
	case len(name) > 1024:
		return invalidUpload("archive entry name longer than 1024 bytes")
	case strings.ContainsAny(name, "\\:\x00"):
		return invalidUpload("archive entry %q: backslashes, colons and NUL are not allowed in names", safeName(name))
	case strings.HasPrefix(name, "/"):
		return invalidUpload("archive entry %q: absolute paths are not allowed", safeName(name))
	}
	segs := strings.Split(clean, "/")
	if len(segs) > 16 {
		return invalidUpload("archive entry %q: more than 16 folder levels", safeName(name))
	}
	for _, s := range segs {
		if s == "." || s == ".." {
			return invalidUpload("archive entry %q: \".\" and \"..\" are not allowed in paths", safeName(name))
		}
		if !entrySegment.MatchString(s) || strings.TrimSpace(s) != s {
			return invalidUpload("archive entry %q: names may use letters, digits, space and . _ + ( ) - only", safeName(name))
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(clean)) {
		return invalidUpload("archive entry %q is not a local path", safeName(name))
	}
	return nil
}

// safeName quotes an entry name for a message without control characters.
func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, name)
	if len(name) > 120 {
		name = name[:120] + "..."
	}
	return name
}

// executableKind names the executable format of a file's first bytes, or
// "" (ELF, PE/DOS "MZ", Mach-O thin and fat).
func executableKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF shared library or program"
	case bytes.HasPrefix(head, []byte("MZ")):
		return "Windows DLL or program"
	case bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "Mach-O library or program"
	}
	return ""
}

// ExtractZip extracts the archive into dst (an existing, empty directory)
// after checking every entry against lim. Nothing is written unless the
// whole central directory passes; writes go through an os.Root on dst, so
// no entry can land outside it. On error the caller removes dst.
func ExtractZip(r io.ReaderAt, size int64, dst string, lim ZipLimits) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return invalidUpload("the upload is not a readable ZIP archive")
	}
	if len(zr.File) > lim.MaxEntries {
		return invalidUpload("the archive has %d entries; at most %d are accepted", len(zr.File), lim.MaxEntries)
	}
	if len(zr.File) == 0 {
		return invalidUpload("the archive is empty")
	}
	var total uint64
	seen := map[string]bool{}  // lower-case names: A.dat and a.dat collide on some systems
	isDir := map[string]bool{} // lower-case folder names
	for _, f := range zr.File {
		if err := checkEntryName(f.Name); err != nil {
			return err
		}
		mode := f.Mode()
		if !mode.IsRegular() && !mode.IsDir() {
			return invalidUpload("archive entry %q is a symbolic link or special file; only files and folders are accepted", safeName(f.Name))
		}
		if f.Flags&0x1 != 0 {
			return invalidUpload("archive entry %q is encrypted", safeName(f.Name))
		}
		if f.Method != zip.Store && f.Method != zip.Deflate {
			return invalidUpload("archive entry %q uses compression method %d; only stored and deflated entries are accepted", safeName(f.Name), f.Method)
		}
		key := strings.ToLower(strings.TrimSuffix(f.Name, "/"))
		if seen[key] {
			return invalidUpload("archive entry %q appears twice (names are compared ignoring case)", safeName(f.Name))
		}
		seen[key] = true
		if mode.IsDir() {
			isDir[key] = true
			continue
		}
		if f.UncompressedSize64 > uint64(lim.MaxEntryBytes) {
			return invalidUpload("archive entry %q expands to %d bytes; at most %d per file", safeName(f.Name), f.UncompressedSize64, lim.MaxEntryBytes)
		}
		total += f.UncompressedSize64
		if total > uint64(lim.MaxTotalBytes) {
			return invalidUpload("the archive expands to more than %d bytes", lim.MaxTotalBytes)
		}
		if f.UncompressedSize64 > ratioFloor && (f.CompressedSize64 == 0 || f.UncompressedSize64/f.CompressedSize64 > uint64(lim.MaxRatio)) {
			return invalidUpload("archive entry %q has a compression ratio above %d:1 (a ZIP bomb?)", safeName(f.Name), lim.MaxRatio)
		}
	}
	// A file may not also be used as a folder (a and a/b).
	for name := range seen {
		for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
			if seen[dir] && !isDir[dir] {
				return invalidUpload("archive entry %q is both a file and a folder", safeName(dir))
			}
		}
	}

	root, err := os.OpenRoot(dst)
	if err != nil {
		return fmt.Errorf("upload: opening extraction root: %w", err)
	}
	defer root.Close()
	for _, f := range zr.File {
		name := strings.TrimSuffix(f.Name, "/")
		if err := mkdirAllIn(root, path.Dir(name)); err != nil {
			return err
		}
		if f.Mode().IsDir() {
			if err := mkdirAllIn(root, name); err != nil {
				return err
			}
			continue
		}
		if err := extractFile(root, f, name); err != nil {
			return err
		}
	}
	return nil
}

func mkdirAllIn(root *os.Root, dir string) error {
	if dir == "." || dir == "" {
		return nil
	}
	cur := ""
	for _, seg := range strings.Split(dir, "/") {
		cur = path.Join(cur, seg)
		if err := root.Mkdir(cur, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("upload: creating folder: %w", err)
		}
	}
	return nil
}

// extractFile copies one entry, refusing executable content and entries
// whose data exceed their declared size.
func extractFile(root *os.Root, f *zip.File, name string) error {
	rc, err := f.Open()
	if err != nil {
		return invalidUpload("archive entry %q cannot be read", safeName(f.Name))
	}
	defer rc.Close()
	limited := io.LimitReader(rc, int64(f.UncompressedSize64)+1)
	head := make([]byte, 4)
	n, err := io.ReadFull(limited, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return invalidUpload("archive entry %q is corrupt", safeName(f.Name))
	}
	head = head[:n]
	if kind := executableKind(head); kind != "" {
		return invalidUpload("archive entry %q is executable content (%s); shared libraries and programs are not accepted, the controllers are built in", safeName(f.Name), kind)
	}
	out, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("upload: creating %s: %w", name, err)
	}
	written, err := io.Copy(out, io.MultiReader(bytes.NewReader(head), limited))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return invalidUpload("archive entry %q is corrupt", safeName(f.Name))
	}
	if uint64(written) > f.UncompressedSize64 {
		return invalidUpload("archive entry %q holds more data than its header declares", safeName(f.Name))
	}
	return nil
}

// UploadedDeck is an extracted upload that passed every check.
