package deck

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Error is the single error type of the package. It names the file, the
// 1-based line number (0 when the problem is not tied to one line), the
// variable concerned (may be empty) and what was wrong, e.g.
//
//	ElastoDyn.dat:42: TipRad: expected a real number, got "abc"
type Error struct {
	File     string // path of the file as opened
	Line     int    // 1-based line number, 0 if unknown
	Variable string // OpenFAST variable name, table or block
	Msg      string // what was expected / found
	Err      error  // underlying cause (I/O errors), may be nil
}

func (e *Error) Error() string {
	s := filepath.Base(e.File)
	if e.File == "" {
		s = "<input>"
	}
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	s += ": "
	if e.Variable != "" {
		s += e.Variable + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// ErrUnsupported is wrapped by errors about file formats this package
// recognises but does not read (e.g. AeroDyn v14). Test with errors.Is.
var ErrUnsupported = errors.New("unsupported input-file format")

// ErrMissingFile is wrapped by errors about referenced files that do not exist.
var ErrMissingFile = errors.New("referenced file not found")

func errAt(file string, line int, variable, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Variable: variable, Msg: fmt.Sprintf(format, args...)}
}
