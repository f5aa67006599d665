package outfile

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func streamFile(t *testing.T, path string, f *File, opt StreamOptions) {
	t.Helper()
	opt.Description, opt.TimeChannel, opt.Channels = f.Description, f.TimeChannel, f.Channels
	w, err := Create(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("destination exists before Close")
	}
	row := make([]float64, len(f.Channels))
	for k, tk := range f.Time {
		for c := range row {
			row[c] = f.Data[c][k]
		}
		if err := w.Append(tk, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func onlyFile(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		names := []string{}
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want exactly the output", names)
	}
}

// TestStreamMatchesWholeFileWriters: a streamed file must be byte-identical
// to the one the whole-file writer produces from the same rows.
func TestStreamMatchesWholeFileWriters(t *testing.T) {
	f := synthetic(6, 257, 0.025)
	for _, id := range []FileID{FileIDWithTime, FileIDWithoutTime, FileIDNoCompressWithoutTime, FileIDChanLenIn} {
		t.Run(id.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "run.outb")
			streamFile(t, path, f, StreamOptions{Format: FormatOutb, Outb: OutbOptions{FileID: id}})
			got, _ := os.ReadFile(path)
			var want bytes.Buffer
			if err := WriteOutb(&want, f, OutbOptions{FileID: id}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("streamed file (%d bytes) differs from WriteOutb (%d bytes)", len(got), want.Len())
			}
			onlyFile(t, dir)
		})
	}
	t.Run("text", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "run.out")
		tmax := f.Time[len(f.Time)-1]
		streamFile(t, path, f, StreamOptions{Format: FormatText, Text: TextOptions{TMax: tmax}})
		got, _ := os.ReadFile(path)
		var want bytes.Buffer
		if err := WriteText(&want, f, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("streamed text differs from WriteText")
		}
		onlyFile(t, dir)
	})
}

func TestStreamAbortAndFailureLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.outb")
	if err := os.WriteFile(path, []byte("previous run"), 0o644); err != nil {
		t.Fatal(err)
	}
	chans := []Channel{{"A", "m"}, {"B", "s"}}
	for _, id := range []FileID{FileIDChanLenIn, FileIDNoCompressWithoutTime} {
		w, err := Create(path, StreamOptions{Channels: chans, Outb: OutbOptions{FileID: id}})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 10; k++ {
			if err := w.Append(float64(k)*0.1, []float64{1, float64(k)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != "previous run" {
			t.Fatalf("Abort touched the destination")
		}
		onlyFile(t, dir)
	}

	// A destination that cannot be replaced (a non-empty directory) makes
	// Close fail; the temporaries must be gone afterwards.
	blocked := filepath.Join(dir, "blocked.outb")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := Create(blocked, StreamOptions{Channels: chans})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(0, []float64{1, 2})
	w.Append(0.1, []float64{1, 3})
	if err := w.Close(); err == nil {
		t.Fatal("Close over a directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 { // run.outb and blocked.outb/
		t.Fatalf("temporaries left: %d entries", len(ents))
	}
}

func TestStreamRejectsBadRows(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(filepath.Join(dir, "a.outb"), StreamOptions{Channels: []Channel{{"A", "m"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Append(0, []float64{1, 2}); err == nil {
		t.Error("row of wrong length accepted")
	}
	if err := w.Append(0, []float64{math.NaN()}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	w.Append(0, []float64{1})
	w.Append(0.1, []float64{1})
	if err := w.Append(0.25, []float64{1}); err == nil {
		t.Error("uneven time step accepted for FileID 4")
	}
	if w.NumRows() != 2 {
		t.Errorf("%d rows stored, want 2", w.NumRows())
	}
}

func TestOutbReaderRandomAccess(t *testing.T) {
	f := synthetic(4, 1000, 0.01)
	for _, id := range []FileID{FileIDWithTime, FileIDNoCompressWithoutTime, FileIDChanLenIn} {
		var buf bytes.Buffer
		if err := WriteOutb(&buf, f, OutbOptions{FileID: id}); err != nil {
			t.Fatal(err)
		}
		rd, err := NewOutbReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		all, err := rd.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		row := make([]float64, 4)
		for _, k := range []int{999, 0, 500, 1, 998} {
			tk, err := rd.Row(k, row)
			if err != nil {
				t.Fatal(err)
			}
			if tk != all.Time[k] {
				t.Fatalf("row %d time %g vs %g", k, tk, all.Time[k])
			}
			for c := range row {
				if row[c] != all.Data[c][k] {
					t.Fatalf("row %d channel %d: %g vs %g", k, c, row[c], all.Data[c][k])
				}
			}
		}
		if _, err := rd.Row(1000, row); err == nil {
			t.Error("row past the end accepted")
		}
		if err := rd.Seek(998); err != nil {
			t.Fatal(err)
		}
		k, _, _ := rd.Next(row)
		k2, _, _ := rd.Next(row)
		if _, _, err := rd.Next(row); k != 998 || k2 != 999 || !errors.Is(err, io.EOF) {
			t.Errorf("Next after Seek: %d %d %v", k, k2, err)
		}
		tcol, cols, err := rd.ReadChannels([]int{2, 0})
		if err != nil {
			t.Fatal(err)
		}
		for k := range tcol {
			if cols[0][k] != all.Data[2][k] || cols[1][k] != all.Data[0][k] || tcol[k] != all.Time[k] {
				t.Fatalf("ReadChannels row %d differs", k)
			}
		}
	}
}

func TestNewFileAppendRow(t *testing.T) {
	f := NewFile("d", []Channel{{"A", "m"}, {"B", "-"}}, 4)
	for k := 0; k < 3; k++ {
		if err := f.AppendRow(float64(k), []float64{float64(k), -float64(k)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.AppendRow(3, []float64{1}); err == nil {
		t.Error("short row accepted")
	}
	if err := f.Validate(); err != nil || f.NumRows() != 3 || f.Data[1][2] != -2 {
		t.Errorf("file %+v, %v", f, err)
	}
	if col, ok := f.Column("time"); !ok || col[2] != 2 {
		t.Errorf("time column %v", col)
	}
}
