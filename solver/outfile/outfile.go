// Package outfile reads and writes OpenFAST time-series output files: the
// binary .outb format (FileFmtID 1, 2, 3 and 4, as written by WrBinFAST in
// the NWTC Subroutine Library) and the tab-delimited text .out format.
//
// Layouts follow OpenFAST v5.0.0 (NWTC_IO.f90 and FAST_Subs.f90, and the
// openfast_toolbox reader fast_output_file.py, whose conventions our writers
// honour: names blank-padded, units wrapped in parentheses, little-endian
// stream layout without Fortran record markers).
//
// Data are held column by column (File.Data[c][k] is channel c at row k)
// because analysis code reads whole channels. Large files can be read row by
// row without loading them whole (OutbReader, TextReader) and written row by
// row during a simulation (StreamWriter).
package outfile

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// FileID is the format identifier stored in the first two bytes of a .outb
// file (NWTC_IO.f90 FileFmtID_*).
type FileID int16

// The four .outb format identifiers of the NWTC Subroutine Library.
const (
	// FileIDWithTime stores time as a packed int32 column scaled by a float64
	// slope/offset; channels are int16 with float32 slope/offset.
	FileIDWithTime FileID = 1
	// FileIDWithoutTime stores first time and increment; channels int16,
	// names and units fixed at 10 characters.
	FileIDWithoutTime FileID = 2
	// FileIDNoCompressWithoutTime stores channels as float64 (lossless);
	// no slope/offset arrays.
	FileIDNoCompressWithoutTime FileID = 3
	// FileIDChanLenIn is FileIDWithoutTime plus an explicit name/unit width;
	// OpenFAST v5 writes it for OutFileFmt bit 2.
	FileIDChanLenIn FileID = 4
)

// String names the format as OpenFAST's constant does.
func (id FileID) String() string {
	switch id {
	case FileIDWithTime:
		return "FileFmtID_WithTime(1)"
	case FileIDWithoutTime:
		return "FileFmtID_WithoutTime(2)"
	case FileIDNoCompressWithoutTime:
		return "FileFmtID_NoCompressWithoutTime(3)"
	case FileIDChanLenIn:
		return "FileFmtID_ChanLen_In(4)"
	}
	return fmt.Sprintf("FileID(%d)", int16(id))
}

// Valid reports whether id is one of the four known identifiers.
func (id FileID) Valid() bool { return id >= FileIDWithTime && id <= FileIDChanLenIn }

// packed reports whether channels are stored as scaled int16.
func (id FileID) packed() bool { return id != FileIDNoCompressWithoutTime }

// elemBytes is the size of one stored channel value.
func (id FileID) elemBytes() int {
	if id.packed() {
		return 2
	}
	return 8
}

// Channel is one output column: its name (e.g. "GenPwr") and unit without
// the parentheses the files wrap it in (e.g. "kW").
type Channel struct {
	Name string
	Unit string
}

// File is a whole output file held in memory, column by column.
type File struct {
	// Description is the free-text description: the .outb DescStr, or for a
	// text file its header lines joined the way OpenFAST builds DescStr
	// (see splitDescription).
	Description string
	// TimeChannel names the first column, normally {"Time", "s"}.
	TimeChannel Channel
	// Time holds the first column, one value per row.
	Time []float64
	// Channels lists the columns after time, in file order.
	Channels []Channel
	// Data[c][k] is channel c (index into Channels) at row k.
	Data [][]float64
	// FileID is the .outb format the file was read from (0 for text files).
	FileID FileID
}

// NumRows returns the number of time rows.
func (f *File) NumRows() int { return len(f.Time) }

// Index returns the index in Channels of the channel with the given name
// (case-insensitive, as OpenFAST treats OutList names), or -1.
func (f *File) Index(name string) int {
	for i, ch := range f.Channels {
		if strings.EqualFold(ch.Name, name) {
			return i
		}
	}
	return -1
}

// Column returns the data of the named channel. The name "Time" (or the
// file's time-channel name) returns the time column.
func (f *File) Column(name string) ([]float64, bool) {
	if i := f.Index(name); i >= 0 {
		return f.Data[i], true
	}
	if strings.EqualFold(name, f.timeName()) {
		return f.Time, true
	}
	return nil, false
}

// MeanFrom returns the mean of the named channel over the rows with
// t ≥ from: the settled-window average used to compare operating points
// after the start-up transient.
func (f *File) MeanFrom(name string, from float64) (float64, error) {
	col, ok := f.Column(name)
	if !ok {
		return 0, fmt.Errorf("channel %s is not in the file", name)
	}
	sum, n := 0.0, 0
	for i, x := range col {
		if f.Time[i] >= from {
			sum += x
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("channel %s: no rows at t ≥ %g s", name, from)
	}
	return sum / float64(n), nil
}

// MeansFrom is MeanFrom for several channels at once.
func (f *File) MeansFrom(from float64, names ...string) ([]float64, error) {
	out := make([]float64, len(names))
	for i, name := range names {
		m, err := f.MeanFrom(name, from)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

func (f *File) timeName() string {
	if f.TimeChannel.Name == "" {
		return "Time"
	}
	return f.TimeChannel.Name
}

func (f *File) timeChannel() Channel {
	tc := f.TimeChannel
	if tc.Name == "" {
		tc.Name = "Time"
	}
	if tc.Unit == "" {
		tc.Unit = "s"
	}
	return tc
}

// Validate checks that the shape of f is consistent: one data column per
// channel, every column as long as Time.
func (f *File) Validate() error {
	if len(f.Data) != len(f.Channels) {
		return fmt.Errorf("outfile: %d channels but %d data columns", len(f.Channels), len(f.Data))
	}
	for c, col := range f.Data {
		if len(col) != len(f.Time) {
			return fmt.Errorf("outfile: channel %d (%s) has %d rows, time has %d", c, f.Channels[c].Name, len(col), len(f.Time))
		}
	}
	return nil
}

// NewFile returns an empty file with the given channels (after time),
// ready for AppendRow; capacity preallocates that many rows.
func NewFile(description string, channels []Channel, capacity int) *File {
	f := &File{
		Description: description,
		TimeChannel: Channel{Name: "Time", Unit: "s"},
		Channels:    append([]Channel(nil), channels...),
		Time:        make([]float64, 0, capacity),
		Data:        make([][]float64, len(channels)),
	}
	for c := range f.Data {
		f.Data[c] = make([]float64, 0, capacity)
	}
	return f
}

// AppendRow adds one row: a time and one value per channel.
func (f *File) AppendRow(t float64, row []float64) error {
	if len(row) != len(f.Channels) || len(f.Data) != len(f.Channels) {
		return fmt.Errorf("outfile: row of %d values for %d channels", len(row), len(f.Channels))
	}
	f.Time = append(f.Time, t)
	for c, v := range row {
		f.Data[c] = append(f.Data[c], v)
	}
	return nil
}

// ErrNonFinite is returned when a packed (int16) format is asked to store NaN
// or ±Inf: the per-channel scaling cannot represent them (OpenFAST itself
// produces a corrupt channel then, NWTC_IO.f90 comment before the min/max
// loop). FileIDNoCompressWithoutTime and text files store them fine.
var ErrNonFinite = errors.New("non-finite value cannot be packed to int16")

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
