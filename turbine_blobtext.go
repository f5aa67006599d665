package turbinesim

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// ParseConfigBlobText reads the text of one configuration blob as a person
// typed it (the page's editor). Blank text is nil: the blob keeps its
// value. Text that is not JSON is EINVALID naming the blob and the line
// and column of the first error, so the person can find it in the text
// area; JSON that is not an object is refused as the API refuses it.
func ParseConfigBlobText(name, text string) (ConfigBlob, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if len(text) > maxConfigBlobBytes {
		return nil, Errorf(EINVALID, "%s: larger than %d bytes", name, maxConfigBlobBytes)
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := lineColumn(text, syn.Offset)
			return nil, Errorf(EINVALID, "%s: invalid JSON at line %d, column %d: %s", name, line, col, syn.Error())
		}
		return nil, Errorf(EINVALID, "%s: invalid JSON: %v", name, err)
	}
	raw := ConfigBlob(bytes.TrimSpace([]byte(text)))
	if err := validateBlob(name, raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// lineColumn turns encoding/json's byte offset (the number of bytes read
// when the error was found, so the offending byte is the one before it)
// into a 1-based line and column counted in characters.
func lineColumn(text string, offset int64) (line, col int) {
	if offset > int64(len(text)) {
		offset = int64(len(text))
	}
	at := max(int(offset)-1, 0)
	before := text[:at]
	line = strings.Count(before, "\n") + 1
	col = len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
	return line, col
}
