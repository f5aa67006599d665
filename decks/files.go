package decks

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/turbinesim/turbinesim"
)

// A stored deck seen as files: the listing of its tree, one file's text
// (bounded), the whole tree as a ZIP that uploads again unchanged, and the
// parameter-by-parameter difference of two decks. Every path a caller
// names is resolved inside the deck's root through os.Root, so a name with
// ".." or a symbolic link cannot reach outside it, and no error carries a
// server path.

// MaxViewBytes bounds the text of one file shown to a user; the rest is
// cut (Truncated).
const MaxViewBytes = 256 << 10

// maxDiffBytes bounds a file compared parameter by parameter; larger files
// (WAMIT tables, turbulence boxes) are compared by size and digest.
const maxDiffBytes = 8 << 20

// ListFiles lists the regular files under dir, sorted by path, at most
// DefaultZipLimits.MaxEntries of them (what an upload may hold).
// Symbolic links are left out: a stored deck has none.
func ListFiles(dir string) ([]turbinesim.DeckFile, error) {
	var files []turbinesim.DeckFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if len(files) == DefaultZipLimits.MaxEntries {
			return fmt.Errorf("more than %d files", DefaultZipLimits.MaxEntries)
		}
		files = append(files, turbinesim.DeckFile{Path: filepath.ToSlash(rel), Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the deck's files: %w", err)
	}
	slices.SortFunc(files, func(a, b turbinesim.DeckFile) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// errNoFile is the 404 of a path that names no file of the deck.
func errNoFile(rel string) error {
	return turbinesim.Errorf(turbinesim.ENOTFOUND, "the deck has no file %q", rel)
}

// openInDeck opens the regular file rel (slash-separated) inside dir.
func openInDeck(dir, rel string) (*os.File, os.FileInfo, error) {
	if rel == "" || strings.Contains(rel, "\\") || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, nil, errNoFile(rel)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the deck's root: %w", err)
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, nil, errNoFile(rel)
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNoFile(rel)
	}
	return f, info, nil
}

// ReadFile reads the file rel of the deck at dir for viewing: at most
// MaxViewBytes of it, cut at a character boundary, and whether it is text
// at all (a NUL byte or invalid UTF-8 makes it binary; its text is then
// left out).
func ReadFile(dir, rel string) (*turbinesim.DeckFileText, error) {
	f, info, err := openInDeck(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxViewBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	out := &turbinesim.DeckFileText{Path: rel, Size: info.Size()}
	if len(b) > MaxViewBytes {
		b, out.Truncated = b[:MaxViewBytes], true
		for len(b) > 0 && !utf8.Valid(b) && len(b) > MaxViewBytes-utf8.UTFMax {
			b = b[:len(b)-1] // a character cut by the bound
		}
	}
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		out.Binary = true
		return out, nil
	}
	out.Text = string(b)
	return out, nil
}

// WriteZip writes every file of the deck at dir into a ZIP archive on w,
// with the deck's own relative paths, so that uploading it gives the same
// deck.
func WriteZip(w io.Writer, dir string) error {
	files, err := ListFiles(dir)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	for _, df := range files {
		f, info, err := openInDeck(dir, df.Path)
		if err != nil {
			return err
		}
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			f.Close()
			return fmt.Errorf("zip header of %s: %w", df.Path, err)
		}
		h.Name, h.Method = df.Path, zip.Deflate
		zf, err := zw.CreateHeader(h)
		if err == nil {
			_, err = io.Copy(zf, f)
		}
		f.Close()
		if err != nil {
			return fmt.Errorf("zipping %s: %w", df.Path, err)
		}
	}
	return zw.Close()
}

// DiffDecks compares the decks at dirA and dirB file by file (by relative
// path) and, within text files, parameter by parameter: a line
// "value Name [- description]" of an OpenFAST input file is the parameter
// Name (Name#2 for its second occurrence in the file); any other line that
// differs (a table row, an output channel) is named by its line number.
// Values equal as numbers (90 and 90.0) or equal up to spacing are equal.
// A file only one deck has is one row with the other side absent; binary
// or very large files differ by digest. Identical decks give no rows.
func DiffDecks(dirA, dirB string) ([]turbinesim.DeckParamDiff, error) {
	filesA, err := ListFiles(dirA)
	if err != nil {
		return nil, err
	}
	filesB, err := ListFiles(dirB)
	if err != nil {
		return nil, err
	}
	sizes := map[string][2]int64{}
	var paths []string
	for i, list := range [][]turbinesim.DeckFile{filesA, filesB} {
		for _, f := range list {
			s, seen := sizes[f.Path]
			if !seen {
				s = [2]int64{-1, -1}
				paths = append(paths, f.Path)
			}
			s[i] = f.Size
			sizes[f.Path] = s
		}
	}
	slices.Sort(paths)
	var rows []turbinesim.DeckParamDiff
	for _, p := range paths {
		s := sizes[p]
		if s[0] < 0 || s[1] < 0 {
			row := turbinesim.DeckParamDiff{File: p, Parameter: "(file)"}
			if s[0] >= 0 {
				row.A = ptr(sizeText(s[0]))
			} else {
				row.B = ptr(sizeText(s[1]))
			}
			rows = append(rows, row)
			continue
		}
		a, err := readForDiff(dirA, p, s[0])
		if err != nil {
			return nil, err
		}
		b, err := readForDiff(dirB, p, s[1])
		if err != nil {
			return nil, err
		}
		if bytes.Equal(a, b) && s[0] == s[1] {
			continue
		}
		if a == nil || b == nil || !isText(a) || !isText(b) {
			da, err := digest(dirA, p)
			if err != nil {
				return nil, err
			}
			db, err := digest(dirB, p)
			if err != nil {
				return nil, err
			}
			if da != db {
				rows = append(rows, turbinesim.DeckParamDiff{File: p, Parameter: "(contents)",
					A: ptr(sizeText(s[0]) + ", SHA-256 " + da[:12]), B: ptr(sizeText(s[1]) + ", SHA-256 " + db[:12])})
			}
			continue
		}
		rows = append(rows, diffParams(p, string(a), string(b))...)
	}
	return rows, nil
}

func ptr(s string) *string { return &s }

func sizeText(n int64) string {
	if n < 10<<10 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/1024)
}

func isText(b []byte) bool { return bytes.IndexByte(b, 0) < 0 && utf8.Valid(b) }

// readForDiff reads a file up to maxDiffBytes; nil when it is larger.
func readForDiff(dir, rel string, size int64) ([]byte, error) {
	if size > maxDiffBytes {
		return nil, nil
	}
	f, _, err := openInDeck(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDiffBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if len(b) > maxDiffBytes {
		return nil, nil
	}
	return b, nil
}

func digest(dir, rel string) (string, error) {
	f, _, err := openInDeck(dir, rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", rel, err)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// paramName is the name field of an OpenFAST input line: an identifier,
// optionally indexed (BlPitch(1)).
var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\([0-9]+\))?$`)

type paramLine struct{ key, value string }

// parseParams splits an input file into named parameters and numbered
// other lines (blank lines left out).
func parseParams(text string) []paramLine {
	var out []paramLine
	seen := map[string]int{}
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if value, name, ok := valueAndName(trimmed); ok {
			seen[name]++
			key := name
			if n := seen[name]; n > 1 {
				key = name + "#" + strconv.Itoa(n)
			}
			out = append(out, paramLine{key, value})
			continue
		}
		out = append(out, paramLine{"line " + strconv.Itoa(i+1), strings.Join(strings.Fields(trimmed), " ")})
	}
	return out
}

// valueAndName reads "value Name ..." (value possibly quoted); section
// rules ("----- ...") are not parameters.
func valueAndName(line string) (value, name string, ok bool) {
	if strings.HasPrefix(line, "--") || strings.HasPrefix(line, "==") {
		return "", "", false
	}
	var rest string
	if line[0] == '"' {
		end := strings.IndexByte(line[1:], '"')
		if end < 0 {
			return "", "", false
		}
		value, rest = line[:end+2], line[end+2:]
	} else {
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return "", "", false
		}
		value, rest = line[:i], line[i:]
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !paramName.MatchString(fields[0]) {
		return "", "", false
	}
	return value, fields[0], true
}

// sameValue compares two values as numbers when both are, else up to
// spacing.
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := strconv.ParseFloat(strings.TrimSpace(a), 64)
	fb, errB := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if errA == nil && errB == nil {
		return fa == fb
	}
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

func diffParams(file, a, b string) []turbinesim.DeckParamDiff {
	pa, pb := parseParams(a), parseParams(b)
	inB := map[string]string{}
	for _, p := range pb {
		inB[p.key] = p.value
	}
	inA := map[string]bool{}
	var rows []turbinesim.DeckParamDiff
	for _, p := range pa {
		inA[p.key] = true
		vb, ok := inB[p.key]
		switch {
		case !ok:
			rows = append(rows, turbinesim.DeckParamDiff{File: file, Parameter: p.key, A: ptr(p.value)})
		case !sameValue(p.value, vb):
			rows = append(rows, turbinesim.DeckParamDiff{File: file, Parameter: p.key, A: ptr(p.value), B: ptr(vb)})
		}
	}
	for _, p := range pb {
		if !inA[p.key] {
			rows = append(rows, turbinesim.DeckParamDiff{File: file, Parameter: p.key, B: ptr(p.value)})
		}
	}
	return rows
}
