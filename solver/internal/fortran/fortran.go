// Package fortran reads the value forms of Fortran list-directed input that
// OpenFAST's input files (and the wind files its modules read) inherit.
package fortran

import "strings"

// Logical parses a Fortran logical value as list-directed READ accepts it:
// optional blanks and an optional leading '.', then T or F decides,
// whatever follows (T, true, .TRUE., False, .f.). The second result is false
// when the word is not a logical.
func Logical(s string) (value, ok bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), ".")
	if s == "" {
		return false, false
	}
	switch s[0] {
	case 'T', 't':
		return true, true
	case 'F', 'f':
		return false, true
	}
	return false, false
}
