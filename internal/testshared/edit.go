package testshared

import (
	"regexp"
)

// SetValue replaces the value of an OpenFAST "value  Variable  - comment"
// line: the first word of the first line whose label is variable. It
// reports whether such a line was found. Tests use it to make variants of
// the shared decks without copying them into the repository.
func SetValue(file []byte, variable, value string) ([]byte, bool) {
	re := regexp.MustCompile(`(?m)^(\s*)("[^"\n]*"|\S+)(\s+` + regexp.QuoteMeta(variable) + `(\s|$))`)
	loc := re.FindSubmatchIndex(file)
	if loc == nil {
		return file, false
	}
	out := append([]byte{}, file[:loc[4]]...)
	out = append(out, value...)
	return append(out, file[loc[5]:]...), true
}
