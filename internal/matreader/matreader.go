// Package matreader reads MATLAB Level 5 MAT-files for tests: an
// implementation independent of solver/outfile's writer, written from The
// MathWorks' "MAT-File Format" (Level 5): a 128-byte header (116 bytes of
// text, 8 of subsystem data offset, version 0x0100, the endian indicator
// "IM" or "MI"), then data elements, each a type/size tag (or the
// small-element form for at most 4 bytes of data) with its data padded to
// 8 bytes; a miMATRIX element holds array flags, dimensions, the array
// name and the real part. Numeric and character matrices of any storage
// type are read; complex, sparse, cell and structure arrays are refused.
package matreader

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Array classes (MAT-File Format, table 1-3).
const (
	ClassChar   = 4
	ClassDouble = 6
)

// Variable is one matrix of the file.
type Variable struct {
	Class      byte
	Rows, Cols int
	// Values are the elements in MATLAB's column-major order (character
	// codes for a character matrix).
	Values []float64
	// Strings are the rows of a character matrix, trailing blanks removed.
	Strings []string
}

// Read decodes every variable of the file.
func Read(b []byte) (map[string]Variable, error) {
	if len(b) < 128 || !strings.HasPrefix(string(b[:116]), "MATLAB 5.0 MAT-file") {
		return nil, errors.New("matreader: no Level 5 MAT-file header")
	}
	var bo binary.ByteOrder
	switch string(b[126:128]) {
	case "IM":
		bo = binary.LittleEndian
	case "MI":
		bo = binary.BigEndian
	default:
		return nil, fmt.Errorf("matreader: endian indicator %q", b[126:128])
	}
	if v := bo.Uint16(b[124:]); v != 0x0100 {
		return nil, fmt.Errorf("matreader: version %#x", v)
	}
	// tag reads the data element at p: its type, its data and the offset
	// of the next element.
	tag := func(p int) (uint32, []byte, int, error) {
		if p+8 > len(b) {
			return 0, nil, 0, fmt.Errorf("matreader: element at %d past the end", p)
		}
		typ := bo.Uint32(b[p:])
		if typ>>16 != 0 { // small data element: the size in the upper half
			n := int(typ >> 16)
			if n > 4 {
				return 0, nil, 0, fmt.Errorf("matreader: small element at %d of %d bytes", p, n)
			}
			return typ & 0xFFFF, b[p+4 : p+4+n], p + 8, nil
		}
		n := int(bo.Uint32(b[p+4:]))
		if n < 0 || p+8+n > len(b) {
			return 0, nil, 0, fmt.Errorf("matreader: element at %d: %d bytes past the end", p, n)
		}
		return typ, b[p+8 : p+8+n], p + 8 + (n+7)/8*8, nil
	}
	vars := map[string]Variable{}
	for p := 128; p < len(b); {
		typ, _, next, err := tag(p)
		if err != nil {
			return nil, err
		}
		if typ != 14 {
			return nil, fmt.Errorf("matreader: element at %d is type %d, not miMATRIX", p, typ)
		}
		// The subelements follow the miMATRIX tag.
		ft, flags, q, err := tag(p + 8)
		if err != nil || ft != 6 || len(flags) != 8 {
			return nil, fmt.Errorf("matreader: array flags at %d (type %d, %d bytes): %v", p+8, ft, len(flags), err)
		}
		p = next
		var v Variable
		v.Class = byte(bo.Uint32(flags) & 0xFF)
		if bo.Uint32(flags)&0x0800 != 0 {
			return nil, errors.New("matreader: complex arrays are not read")
		}
		dt, dims, q, err := tag(q)
		if err != nil || dt != 5 || len(dims) != 8 {
			return nil, fmt.Errorf("matreader: dimensions (type %d, %d bytes; only 2-D): %v", dt, len(dims), err)
		}
		v.Rows, v.Cols = int(int32(bo.Uint32(dims))), int(int32(bo.Uint32(dims[4:])))
		nt, name, q, err := tag(q)
		if err != nil || nt != 1 {
			return nil, fmt.Errorf("matreader: array name type %d: %v", nt, err)
		}
		rt, real, _, err := tag(q)
		if err != nil {
			return nil, err
		}
		if v.Values, err = numbers(bo, rt, real); err != nil {
			return nil, err
		}
		if len(v.Values) != v.Rows*v.Cols {
			return nil, fmt.Errorf("matreader: %s has %d values for %d × %d", name, len(v.Values), v.Rows, v.Cols)
		}
		switch v.Class {
		case ClassDouble:
		case ClassChar:
			for r := 0; r < v.Rows; r++ {
				var sb strings.Builder
				for c := 0; c < v.Cols; c++ {
					sb.WriteRune(rune(v.Values[c*v.Rows+r]))
				}
				v.Strings = append(v.Strings, strings.TrimRight(sb.String(), " "))
			}
		default:
			return nil, fmt.Errorf("matreader: %s is of class %d, not read", name, v.Class)
		}
		vars[string(name)] = v
	}
	return vars, nil
}

// numbers decodes the real part stored as type typ (MAT-File Format,
// table 1-1).
func numbers(bo binary.ByteOrder, typ uint32, d []byte) ([]float64, error) {
	var out []float64
	switch typ {
	case 9: // miDOUBLE
		for i := 0; i+8 <= len(d); i += 8 {
			out = append(out, math.Float64frombits(bo.Uint64(d[i:])))
		}
	case 7: // miSINGLE
		for i := 0; i+4 <= len(d); i += 4 {
			out = append(out, float64(math.Float32frombits(bo.Uint32(d[i:]))))
		}
	case 3: // miINT16
		for i := 0; i+2 <= len(d); i += 2 {
			out = append(out, float64(int16(bo.Uint16(d[i:]))))
		}
	case 4: // miUINT16
		for i := 0; i+2 <= len(d); i += 2 {
			out = append(out, float64(bo.Uint16(d[i:])))
		}
	case 5: // miINT32
		for i := 0; i+4 <= len(d); i += 4 {
			out = append(out, float64(int32(bo.Uint32(d[i:]))))
		}
	case 6: // miUINT32
		for i := 0; i+4 <= len(d); i += 4 {
			out = append(out, float64(bo.Uint32(d[i:])))
		}
	case 1: // miINT8
		for _, c := range d {
			out = append(out, float64(int8(c)))
		}
	case 2, 16: // miUINT8, miUTF8
		for _, c := range d {
			out = append(out, float64(c))
		}
	default:
		return nil, fmt.Errorf("matreader: storage type %d is not read", typ)
	}
	return out, nil
}
