package handlers

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// Duplicate object keys: RFC 8259 §4 leaves their meaning to each parser
// (encoding/json keeps the last, others the first), so a body with
// {"role":"org_member","role":"org_admin"} could mean one thing to a proxy
// or audit tool and another here (ASVS 5.0 1.5.3, consistent parsing).
// Request bodies with a repeated key are refused, naming it.

// readJSONBody reads the whole (size-limited) body and refuses repeated
// keys with EINVALID naming the key by its path.
func readJSONBody(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if key, ok := firstDuplicateKey(b); ok {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: key given more than once", key)
	}
	return b, nil
}

// firstDuplicateKey walks the JSON tokens of b and returns the dotted path
// of the first key repeated within one object. Malformed JSON reports no
// duplicate: the decoder answers it.
func firstDuplicateKey(b []byte) (string, bool) {
	type frame struct {
		object    bool
		keys      map[string]bool
		expectKey bool
		key       string // the current member's key
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var stack []*frame
	path := func(last string) string { // the enclosing objects' keys, then last
		var parts []string
		for _, f := range stack[:len(stack)-1] {
			if f.object {
				parts = append(parts, f.key)
			}
		}
		return strings.Join(append(parts, last), ".")
	}
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expectKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil { // io.EOF, or malformed JSON the decoder reports
			return "", false
		}
		top := (*frame)(nil)
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, expectKey: true})
			case '[':
				stack = append(stack, &frame{})
			case '}', ']':
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if top != nil && top.object && top.expectKey {
				top.key = v
				if top.keys[v] {
					return path(v), true
				}
				top.keys[v] = true
				top.expectKey = false
				continue
			}
			valueDone()
		default:
			valueDone()
		}
	}
}
