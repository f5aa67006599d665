package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// The HTTP helpers every handler file shares: request parsing (media type,
// JSON bodies, query lists and numbers), the 422 and 501 errors, and the
// request's scratch folder.

// mediaType is the request's Content-Type without parameters.
func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil {
		return ""
	}
	return mt
}

// jsonBodyDecoder checks the media type (415) and reads the request body
// (413 past the body limit; a repeated key is 422, readJSONBody), and
// returns a decoder over it.
func jsonBodyDecoder(c echo.Context) (*json.Decoder, error) {
	if mediaType(c.Request()) != echo.MIMEApplicationJSON {
		return nil, echo.NewHTTPError(http.StatusUnsupportedMediaType, "send application/json")
	}
	body, err := readJSONBody(c.Request().Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		return nil, err
	}
	return json.NewDecoder(bytes.NewReader(body)), nil
}

// decodeJSON reads one JSON object into dst: 415 for another media type,
// 413 past the body limit, 400 for malformed JSON, 422 naming the field for
// well-formed JSON with a value of the wrong type.
func decodeJSON(c echo.Context, dst any) error {
	dec, err := jsonBodyDecoder(c)
	if err != nil {
		return err
	}
	if err := dec.Decode(dst); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		if problem, ok := turbinesim.JSONTypeProblem(err); ok {
			return turbinesim.Errorf(turbinesim.EINVALID, "%s", problem)
		}
		return echo.NewHTTPError(http.StatusBadRequest, "malformed JSON body")
	}
	if dec.More() {
		return echo.NewHTTPError(http.StatusBadRequest, "malformed JSON body: more than one value")
	}
	return nil
}

// decodeJSONStrict is decodeJSON that also refuses unknown fields and
// wrongly typed values with 422 naming the field, so that fields such as
// is_validated, organization or author ids cannot be mass-assigned.
func decodeJSONStrict(c echo.Context, dst any) error {
	dec, err := jsonBodyDecoder(c)
	if err != nil {
		return err
	}
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var tooLarge *http.MaxBytesError
		problem, typeMismatch := turbinesim.JSONTypeProblem(err)
		switch {
		case errors.As(err, &tooLarge):
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		case typeMismatch:
			return turbinesim.Errorf(turbinesim.EINVALID, "%s", problem)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return turbinesim.Errorf(turbinesim.EINVALID, "%s: not a settable field", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
		}
		return echo.NewHTTPError(http.StatusBadRequest, "malformed JSON body")
	}
	if _, err := dec.Token(); err != io.EOF {
		return echo.NewHTTPError(http.StatusBadRequest, "malformed JSON body: more than one value")
	}
	return nil
}

// jsonProblem is a caller-safe description of a JSON decoding error.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	problem, typeMismatch := turbinesim.JSONTypeProblem(err)
	switch {
	case errors.As(err, &se):
		return "malformed JSON"
	case typeMismatch:
		return problem
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "malformed JSON"
}

func queryList(c echo.Context, name string) []string {
	var out []string
	for _, v := range c.QueryParams()[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func queryFloat(c echo.Context, name string) (*float64, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "%s: %q is not a number", name, v)
	}
	return &f, nil
}

// queryFloats reads several optional numbers, stopping at the first
// malformed one.
func queryFloats(c echo.Context, dst map[string]**float64) error {
	for name, p := range dst {
		v, err := queryFloat(c, name)
		if err != nil {
			return err
		}
		*p = v
	}
	return nil
}

// queryInts reads the named positive-integer query parameters that are
// present into dst.
func queryInts(c echo.Context, dst map[string]*int) error {
	for name, p := range dst {
		v := c.QueryParam(name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return turbinesim.Errorf(turbinesim.EINVALID, "%s: %q is not a positive integer", name, v)
		}
		*p = n
	}
	return nil
}

// notImplemented is the JSON answer of an announced but unbuilt resource.
var notImplemented = turbinesim.Errorf(turbinesim.ENOTIMPLEMENTED, "not implemented yet")

// scratchFolder creates a new folder for one request's temporary files
// under Config.ScratchDir; the caller removes it.
func (s *Server) scratchFolder(pattern string) (string, error) {
	return os.MkdirTemp(s.cfg.ScratchDir, pattern)
}

// invalid is a 422 with a formatted detail.
func invalid(format string, args ...any) error {
	return turbinesim.Errorf(turbinesim.EINVALID, format, args...)
}

// clipText cuts s to n bytes for an error detail.
func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
