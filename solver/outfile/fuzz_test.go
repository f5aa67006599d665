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

// FuzzReadText checks that the text reader never panics and that what it
// accepts is consistent and survives a rewrite.
func FuzzReadText(f *testing.F) {
	f.Add([]byte("\nPredictions were generated on x\n linked with y\n\nDescription from the FAST input file: z\n\nTime\tA\tB\n(s)\t(m)\t(kN)\n0.0\t1.0E+00\t-2.5E-01\n0.1\t NaN\t*****\n"))
	f.Add([]byte("Time A\n(sec) (m)\n0.0 0.0e+01\n1.0 1.0-100\nThis output file was closed\n"))
	var buf bytes.Buffer
	if err := WriteText(&buf, synthetic(3, 4, 0.5), TextOptions{SpaceDelimited: true}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	addSharedSeeds(f, "*.out", 64<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := ReadText(bytes.NewReader(b))
		if err != nil {
			return
		}
		if err := file.Validate(); err != nil {
			t.Fatalf("accepted file is inconsistent: %v", err)
		}
		var out bytes.Buffer
		if err := WriteText(&out, file, TextOptions{ValueFormat: "ES15.6E3"}); err != nil {
			t.Fatalf("cannot rewrite an accepted file: %v", err)
		}
		back, err := ReadText(&out)
		if err != nil {
			t.Fatalf("rewrite does not read back: %v\n%s", err, out.String())
		}
		if back.NumRows() != file.NumRows() || len(back.Channels) != len(file.Channels) {
			t.Fatalf("rewrite has %d rows %d channels, original %d %d", back.NumRows(), len(back.Channels), file.NumRows(), len(file.Channels))
		}
	})
}
