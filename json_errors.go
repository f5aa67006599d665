package turbinesim

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// JSONTypeProblem describes a JSON value of the wrong type in the API's
// terms: the JSON path of the field (snake_case names, without the Go
// names of embedded structs) and the JSON type it should have, e.g.
// "rated_power_kw: expected a number" rather than Go's
// "TurbineParams.rated_power_kw: expected float64". ok is false when err is
// not a type mismatch.
func JSONTypeProblem(err error) (problem string, ok bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "", false
	}
	var path []string
	for _, seg := range strings.Split(te.Field, ".") {
		// The API's field names are snake_case; a segment starting with an
		// upper-case letter is the Go name of an embedded struct.
		if seg == "" || seg[0] >= 'A' && seg[0] <= 'Z' {
			continue
		}
		path = append(path, seg)
	}
	field := strings.Join(path, ".")
	if field == "" {
		field = "body"
	}
	return field + ": expected " + jsonTypeName(te.Type), true
}

// jsonTypeName names the JSON type that decodes into t.
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(json.RawMessage{}) || t == reflect.TypeOf(ConfigBlob{}) {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another type"
}
