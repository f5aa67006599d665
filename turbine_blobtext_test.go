package turbinesim

import (
	"strings"
	"testing"
)

func TestParseConfigBlobText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // substring of the error; "" for success
	}{
		{"", ""},
		{"  \n ", ""},
		{`{"kp": 0.01}`, ""},
		{"{\n  \"kp\": 0.01,\n  \"ki\": \n}", "controller_config: invalid JSON at line 4, column 1: invalid character '}'"},
		{"{\n  \"kp\": 0.01,\n  \"ki\" 0.2\n}", "line 3, column 8: invalid character '0' after object key"},
		{`{"name": "é", "x": tru}`, "line 1, column 23: invalid character '}'"},
		{"{\n  \"kp\": 1", "line 2, column 9: unexpected end of JSON input"},
		{`[1, 2]`, "controller_config: must be a JSON object"},
		{`"text"`, "must be a JSON object"},
	} {
		got, err := ParseConfigBlobText("controller_config", tc.text)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.text, err)
		case tc.want == "" && strings.TrimSpace(tc.text) == "" && got != nil:
			t.Errorf("%q: blank text gave %q, want nil (keep the value)", tc.text, got)
		case tc.want == "" && strings.TrimSpace(tc.text) != "" && string(got) != strings.TrimSpace(tc.text):
			t.Errorf("%q: got %q", tc.text, got)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.want)
		case tc.want != "" && ErrorCode(err) != EINVALID:
			t.Errorf("%q: code %s, want EINVALID", tc.text, ErrorCode(err))
		}
	}
}
