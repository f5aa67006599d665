package outfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

// addSharedSeeds adds small shared fixture files as seeds when the shared
// folder is present (it is optional for fuzzing: synthetic seeds always run).
func addSharedSeeds(f *testing.F, pattern string, maxBytes int64) {
	dir, ok := testshared.Locate()
	if !ok {
		return
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "fixtures", "openfast-io", pattern))
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.Size() > maxBytes {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzParseOutb checks that no input makes the .outb reader panic or
// allocate without bound, and that what it accepts is self-consistent and
// survives a lossless rewrite.
func FuzzParseOutb(f *testing.F) {
	for _, id := range []FileID{FileIDWithTime, FileIDWithoutTime, FileIDNoCompressWithoutTime, FileIDChanLenIn} {
		var buf bytes.Buffer
		if err := WriteOutb(&buf, synthetic(3, 5, 0.5), OutbOptions{FileID: id}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	addSharedSeeds(f, "*.outb", 64<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := ParseOutb(b)
		if err != nil {
			return
		}
		if err := file.Validate(); err != nil {
			t.Fatalf("accepted file is inconsistent: %v", err)
		}
		var out bytes.Buffer
		if err := WriteOutb(&out, file, OutbOptions{FileID: FileIDNoCompressWithoutTime}); err != nil {
			return // e.g. a FileID 1 time column that is not uniform
		}
		if _, err := ParseOutb(out.Bytes()); err != nil {
			t.Fatalf("rewrite of an accepted file does not read back: %v", err)
		}
	})
}
