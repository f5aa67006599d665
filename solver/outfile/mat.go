package outfile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"time"
)

// MATLAB Level 5 MAT-file writer (The MathWorks, "MAT-File Format",
// chapter 1, "Level 5 MAT-File Format"): a 128-byte header, then one
// miMATRIX data element per variable, each made of the array-flags,
// dimensions, array-name and real-part subelements, every element padded
// to a multiple of 8 bytes. Written little-endian (endian indicator "IM").
//
// The file holds what OpenFAST's MATLAB readers return for an output file:
// Channels, an N×(1+n) double matrix with time in its first column, and
// ChanName and ChanUnit, (1+n)-row character matrices (blank-padded) naming
// each column and its unit.

// MAT data types and array classes used here (MAT-File Format, tables
// 1-1 and 1-3).
const (
	miINT8    = 1
	miUINT16  = 4
	miINT32   = 5
	miUINT32  = 6
	miDOUBLE  = 9
	miMATRIX  = 14
	mxCHAR    = 4
	mxDOUBLE  = 6
	matHeader = 128
)

// MaxMATBytes is the largest MAT element this writer produces: a Level 5
// element's size is a 32-bit count.
const MaxMATBytes = math.MaxUint32 - 1024

// WriteMAT writes f as a Level 5 MAT-file with the variables Channels,
// ChanName and ChanUnit.
func WriteMAT(w io.Writer, f *File, now time.Time) error {
	rows, cols := len(f.Time), 1+len(f.Channels)
	if int64(rows)*int64(cols)*8 > MaxMATBytes {
		return fmt.Errorf("mat: %d × %d values exceed a MAT element's 4 GiB", rows, cols)
	}
	for c, col := range f.Data {
		if len(col) != rows {
			return fmt.Errorf("mat: channel %q has %d values for %d times", f.Channels[c].Name, len(col), rows)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	head := fmt.Sprintf("MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: %s by turbinesim", now.UTC().Format("Mon Jan 2 15:04:05 2006"))
	hdr := make([]byte, matHeader)
	copy(hdr, head)
	for i := len(head); i < 116; i++ {
		hdr[i] = ' '
	}
	// Bytes 116-123: subsystem data offset, none (zeros). Version 0x0100,
	// then 'M','I' as one little-endian 16-bit value: the bytes "IM".
	binary.LittleEndian.PutUint16(hdr[124:], 0x0100)
	binary.LittleEndian.PutUint16(hdr[126:], uint16('M')<<8|uint16('I'))
	if _, err := bw.Write(hdr); err != nil {
		return err
	}
	names := append([]string{f.TimeChannel.Name}, make([]string, len(f.Channels))...)
	units := append([]string{f.TimeChannel.Unit}, make([]string, len(f.Channels))...)
	for i, ch := range f.Channels {
		names[i+1], units[i+1] = ch.Name, ch.Unit
	}
	if err := writeDoubleMatrix(bw, "Channels", rows, cols, func(c int) []float64 {
		if c == 0 {
			return f.Time
		}
		return f.Data[c-1]
	}); err != nil {
		return err
	}
	if err := writeCharMatrix(bw, "ChanName", names); err != nil {
		return err
	}
	if err := writeCharMatrix(bw, "ChanUnit", units); err != nil {
		return err
	}
	return bw.Flush()
}

func pad8(n int) int { return (n + 7) &^ 7 }

// matrixHeader writes the miMATRIX tag and the array-flags, dimensions and
// name subelements; dataBytes is the size of the real-part subelement
// with its tag and padding.
func matrixHeader(w *bufio.Writer, class uint32, name string, rows, cols, dataBytes int) error {
	nameBytes := pad8(len(name))
	total := (8 + 8) + (8 + 8) + (8 + nameBytes) + dataBytes
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(b, miMATRIX)
	b = le.AppendUint32(b, uint32(total))
	b = le.AppendUint32(b, miUINT32)
	b = le.AppendUint32(b, 8)
	b = le.AppendUint32(b, class) // flags byte 0: real, not global, not logical
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, miINT32)
	b = le.AppendUint32(b, 8)
	b = le.AppendUint32(b, uint32(rows))
	b = le.AppendUint32(b, uint32(cols))
	b = le.AppendUint32(b, miINT8)
	b = le.AppendUint32(b, uint32(len(name)))
	b = append(b, name...)
	b = append(b, make([]byte, nameBytes-len(name))...)
	_, err := w.Write(b)
	return err
}

// writeDoubleMatrix writes a rows×cols double matrix, column by column
// (MATLAB's column-major order).
func writeDoubleMatrix(w *bufio.Writer, name string, rows, cols int, column func(c int) []float64) error {
	n := rows * cols * 8
	if err := matrixHeader(w, mxDOUBLE, name, rows, cols, 8+pad8(n)); err != nil {
		return err
	}
	var tag [8]byte
	binary.LittleEndian.PutUint32(tag[0:], miDOUBLE)
	binary.LittleEndian.PutUint32(tag[4:], uint32(n))
	if _, err := w.Write(tag[:]); err != nil {
		return err
	}
	var v [8]byte
	for c := 0; c < cols; c++ {
		for _, x := range column(c) {
			binary.LittleEndian.PutUint64(v[:], math.Float64bits(x))
			if _, err := w.Write(v[:]); err != nil {
				return err
			}
		}
	}
	// n is a multiple of 8: no padding.
	return nil
}

// writeCharMatrix writes the strings as the rows of a character matrix,
// blank-padded to the longest (UTF-16 code units, column-major).
func writeCharMatrix(w *bufio.Writer, name string, lines []string) error {
	width := 0
	units := make([][]uint16, len(lines))
	for i, s := range lines {
		for _, r := range s {
			if r > 0xFFFF {
				r = '?'
			}
			units[i] = append(units[i], uint16(r))
		}
		width = max(width, len(units[i]))
	}
	n := len(lines) * width * 2
	if err := matrixHeader(w, mxCHAR, name, len(lines), width, 8+pad8(n)); err != nil {
		return err
	}
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(b, miUINT16)
	b = le.AppendUint32(b, uint32(n))
	for c := 0; c < width; c++ {
		for _, u := range units {
			ch := uint16(' ')
			if c < len(u) {
				ch = u[c]
			}
			b = le.AppendUint16(b, ch)
		}
	}
	b = append(b, make([]byte, pad8(n)-n)...)
	_, err := w.Write(b)
	return err
}
