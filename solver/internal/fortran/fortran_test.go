package fortran

import "testing"

func TestLogical(t *testing.T) {
	for _, c := range []struct {
		in        string
		value, ok bool
	}{
		{"T", true, true}, {"true", true, true}, {".TRUE.", true, true}, {"  .t.", true, true},
		{"F", false, true}, {"False", false, true}, {".false.", false, true},
		{"", false, false}, {".", false, false}, {"1", false, false}, {"yes", false, false},
	} {
		v, ok := Logical(c.in)
		if v != c.value || ok != c.ok {
			t.Errorf("Logical(%q) = %v, %v; want %v, %v", c.in, v, ok, c.value, c.ok)
		}
	}
}
