package deck

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/internal/fortran"
)

// DefReal is a real input that may be given as "default" (OpenFAST's
// ReadVarWDefault/ParseVarWDefault). When Default is true, Value is
// meaningless and the module's documented default applies.
type DefReal struct {
	Value   float64
	Default bool
}

// DefInt is an integer input that may be given as "default".
type DefInt struct {
	Value   int
	Default bool
}

// DefBool is a flag that may be given as "default" (BeamDyn's
// tngt_stf_fd and tngt_stf_comp).
type DefBool struct {
	Value   bool
	Default bool
}

// Or returns the value, or def when the input said "default".
func (d DefBool) Or(def bool) bool {
	if d.Default {
		return def
	}
	return d.Value
}

// Or returns the value, or def when the input said "default".
func (d DefReal) Or(def float64) float64 {
	if d.Default {
		return def
	}
	return d.Value
}

// Or returns the value, or def when the input said "default".
func (d DefInt) Or(def int) int {
	if d.Default {
		return def
	}
	return d.Value
}

// OutList is a list of output channel names (the block ending with END).
type OutList []string

// blockCodec is implemented by structures with fields that need custom
// reading and writing (tables, file lists); fields tagged block:"name".
type blockCodec interface {
	decodeBlock(name string, r *reader) error
	encodeBlock(name string, w *writer) error
}

// Struct tags understood by decode/encode:
//
//	fst:"Name"      variable name (label) in the file
//	alt:"A|B"       other accepted names (older dialects)
//	opt:"value"     the line may be absent; value (may be empty) is the default
//	from:"2"        first index of a per-line array [N]T (Name(2)..Name(N+1))
//	sec:"TITLE"     writer: section line before this field
//	desc:"..."      writer: description after the label
//	block:"name"    custom block handled by the parent's blockCodec
//	w:"-"           read, but never written (legacy)
//	pre:"text"      writer: a literal line before this field (sub-section)
var (
	typDefReal = reflect.TypeOf(DefReal{})
	typDefInt  = reflect.TypeOf(DefInt{})
	typDefBool = reflect.TypeOf(DefBool{})
	typOutList = reflect.TypeOf(OutList{})
)

// decode fills the tagged fields of *v from r, in struct order.
func decode(r *reader, v any) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	bc, _ := v.(blockCodec)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if b, ok := f.Tag.Lookup("block"); ok {
			if bc == nil {
				return fmt.Errorf("deck: %s has block field without codec", rt.Name())
			}
			if err := bc.decodeBlock(b, r); err != nil {
				return err
			}
			continue
		}
		name := f.Tag.Get("fst")
		if name == "" || name == "-" {
			continue
		}
		if err := decodeField(r, f, rv.Field(i), name); err != nil {
			return err
		}
	}
	return nil
}

func names(f reflect.StructField, name string, suffix string) []string {
	out := []string{normName(name + suffix)}
	if alt := f.Tag.Get("alt"); alt != "" {
		for _, a := range strings.Split(alt, "|") {
			out = append(out, normName(a+suffix))
		}
	}
	return out
}

func decodeField(r *reader, f reflect.StructField, fv reflect.Value, name string) error {
	def, optional := f.Tag.Lookup("opt")
	if fv.Type() == typOutList {
		list, found, err := r.outList(name)
		if err != nil {
			return err
		}
		if !found {
			if !optional {
				return r.errLine(r.cur, name, "OutList header line not found")
			}
			r.absent(name)
		}
		fv.Set(reflect.ValueOf(OutList(list)))
		return nil
	}
	if fv.Kind() == reflect.Array {
		from := 1
		if s := f.Tag.Get("from"); s != "" {
			from, _ = strconv.Atoi(s)
		}
		for k := 0; k < fv.Len(); k++ {
			idx := strconv.Itoa(from + k)
			if err := decodeOne(r, f, fv.Index(k), name+"("+idx+")", names(f, name, idx), def, optional); err != nil {
				return err
			}
		}
		return nil
	}
	return decodeOne(r, f, fv, name, names(f, name, ""), def, optional)
}

func decodeOne(r *reader, f reflect.StructField, fv reflect.Value, label string, keys []string, def string, optional bool) error {
	i, vals, _, ok := r.find(keys...)
	if !ok {
		if j, word := r.runTogether(keys); j >= 0 {
			// OpenFAST reads the line by position and stops on it; taken
			// as absent here, an optional variable would silently get its
			// default.
			return r.errLine(j, label, "%q: the value and the name run together; put a space between them", word)
		}
		if !optional {
			return r.errLine(r.cur, label, "line not found (required; expected %s)", kindName(fv))
		}
		r.absent(label)
		if def == "" {
			return nil
		}
		return setValue(r, -1, label, fv, tokenize(def))
	}
	if f.Tag.Get("flagok") != "" && fv.Kind() == reflect.Int && len(vals) > 0 {
		// older dialects wrote this switch as a flag: False → 0, True → 1
		if _, isInt := parseInt(vals[0].Text); !isInt {
			if b, ok := fortran.Logical(vals[0].Text); ok {
				if b {
					fv.SetInt(1)
				} else {
					fv.SetInt(0)
				}
				return nil
			}
		}
	}
	return setValue(r, i, label, fv, vals)
}

func kindName(fv reflect.Value) string {
	switch fv.Type() {
	case typDefReal:
		return `a real number or "default"`
	case typDefInt:
		return `an integer or "default"`
	case typDefBool:
		return `a logical (True/False) or "default"`
	}
	switch fv.Kind() {
	case reflect.Float64:
		return "a real number"
	case reflect.Int:
		return "an integer"
	case reflect.Bool:
		return "a logical (True/False)"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of numbers"
	}
	return fv.Type().String()
}

func setValue(r *reader, i int, label string, fv reflect.Value, vals []Token) error {
	got := func() string {
		if len(vals) == 0 {
			return "nothing"
		}
		return strconv.Quote(vals[0].Text)
	}
	bad := func() error { return r.errLine(i, label, "expected %s, got %s", kindName(fv), got()) }
	switch fv.Type() {
	case typDefReal:
		if len(vals) == 0 {
			return bad()
		}
		if isDefault(vals[0].Text) {
			fv.Set(reflect.ValueOf(DefReal{Default: true}))
			return nil
		}
		x, ok := parseReal(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.Set(reflect.ValueOf(DefReal{Value: x}))
		return nil
	case typDefInt:
		if len(vals) == 0 {
			return bad()
		}
		if isDefault(vals[0].Text) {
			fv.Set(reflect.ValueOf(DefInt{Default: true}))
			return nil
		}
		n, ok := parseInt(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.Set(reflect.ValueOf(DefInt{Value: n}))
		return nil
	case typDefBool:
		if len(vals) == 0 {
			return bad()
		}
		if isDefault(vals[0].Text) {
			fv.Set(reflect.ValueOf(DefBool{Default: true}))
			return nil
		}
		b, ok := fortran.Logical(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.Set(reflect.ValueOf(DefBool{Value: b}))
		return nil
	}
	switch fv.Kind() {
	case reflect.Float64:
		if len(vals) == 0 {
			return bad()
		}
		x, ok := parseReal(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.SetFloat(x)
	case reflect.Int:
		if len(vals) == 0 {
			return bad()
		}
		n, ok := parseInt(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.SetInt(int64(n))
	case reflect.Bool:
		if len(vals) == 0 {
			return bad()
		}
		b, ok := fortran.Logical(vals[0].Text)
		if !ok {
			return bad()
		}
		fv.SetBool(b)
	case reflect.String:
		if len(vals) == 0 {
			fv.SetString("")
			return nil
		}
		fv.SetString(vals[0].Text)
	case reflect.Slice:
		n := 0
		for n < len(vals) && !vals[n].Quoted && isNumber(vals[n].Text) {
			n++
		}
		s := reflect.MakeSlice(fv.Type(), n, n)
		for k := 0; k < n; k++ {
			switch fv.Type().Elem().Kind() {
			case reflect.Float64:
				x, _ := parseReal(vals[k].Text)
				s.Index(k).SetFloat(x)
			case reflect.Int:
				m, ok := parseInt(vals[k].Text)
				if !ok {
					return r.errLine(i, label, "expected integers, got %q", vals[k].Text)
				}
				s.Index(k).SetInt(int64(m))
			default:
				return fmt.Errorf("deck: unsupported slice type %s", fv.Type())
			}
		}
		if n == 0 {
			s = reflect.Zero(fv.Type())
		}
		fv.Set(s)
	default:
		return fmt.Errorf("deck: unsupported field type %s for %s", fv.Type(), label)
	}
	return nil
}

// writer produces OpenFAST v5 syntax: value, label, " - " description.
type writer struct {
	b     strings.Builder
	style byte // '-' for "----- TITLE ----" sections, '=' for "====== Title ====="
}

func (w *writer) line(s string) {
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func (w *writer) section(title string) {
	if w.style == '=' {
		s := "======  " + title + "  "
		if len(s) < 100 {
			s += strings.Repeat("=", 100-len(s))
		}
		w.line(s)
		return
	}
	s := "---------------------- " + title + " "
	if len(s) < 80 {
		s += strings.Repeat("-", 80-len(s))
	}
	w.line(s)
}

func (w *writer) kv(val, name, desc string) {
	s := fmt.Sprintf("%-22s %-18s", val, name)
	if desc != "" {
		s += " - " + desc
	}
	w.line(strings.TrimRight(s, " "))
}

func fmtReal(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func fmtBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func quote(s string) string {
	if strings.ContainsRune(s, '"') {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}

func fmtValue(fv reflect.Value) string {
	switch fv.Type() {
	case typDefReal:
		d := fv.Interface().(DefReal)
		if d.Default {
			return `"default"`
		}
		return fmtReal(d.Value)
	case typDefInt:
		d := fv.Interface().(DefInt)
		if d.Default {
			return `"default"`
		}
		return strconv.Itoa(d.Value)
	case typDefBool:
		d := fv.Interface().(DefBool)
		if d.Default {
			return `"default"`
		}
		return fmtBool(d.Value)
	}
	switch fv.Kind() {
	case reflect.Float64:
		return fmtReal(fv.Float())
	case reflect.Int:
		return strconv.FormatInt(fv.Int(), 10)
	case reflect.Bool:
		return fmtBool(fv.Bool())
	case reflect.String:
		return quote(fv.String())
	case reflect.Slice:
		parts := make([]string, fv.Len())
		for k := range parts {
			parts[k] = fmtValue(fv.Index(k))
		}
		if len(parts) == 0 {
			return "" // an empty list: the line carries only its label
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(fv.Interface())
}

// encode writes the tagged fields of *v in struct order.
func encode(w *writer, v any) error {
	rv := reflect.ValueOf(v).Elem()
	rt := rv.Type()
	bc, _ := v.(blockCodec)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if s, ok := f.Tag.Lookup("sec"); ok && s != "" {
			w.section(s)
		}
		if s := f.Tag.Get("pre"); s != "" {
			w.line(s) // a comment line the positional reader expects here
		}
		if b, ok := f.Tag.Lookup("block"); ok {
			if err := bc.encodeBlock(b, w); err != nil {
				return err
			}
			continue
		}
		name := f.Tag.Get("fst")
		if name == "" || name == "-" || f.Tag.Get("w") == "-" {
			continue
		}
		fv := rv.Field(i)
		if f.Tag.Get("wopt") == "nondefault" && fv.Type() == typDefReal && fv.Interface().(DefReal).Default {
			continue
		}
		desc := f.Tag.Get("desc")
		switch {
		case fv.Type() == typOutList:
			writeOutList(w, name, desc, fv.Interface().(OutList))
		case fv.Kind() == reflect.Array:
			from := 1
			if s := f.Tag.Get("from"); s != "" {
				from, _ = strconv.Atoi(s)
			}
			for k := 0; k < fv.Len(); k++ {
				w.kv(fmtValue(fv.Index(k)), fmt.Sprintf("%s(%d)", name, from+k), desc)
			}
		default:
			w.kv(fmtValue(fv), name, desc)
		}
	}
	return nil
}

func writeOutList(w *writer, name, desc string, list OutList) {
	if desc == "" {
		desc = "The next line(s) contains a list of output parameters (-)"
	}
	w.line(fmt.Sprintf("%-22s %-18s - %s", "", name, desc))
	for _, c := range list {
		w.line(quote(c))
	}
	w.line(`END of input file (the word "END" must appear in the first 3 columns of this last OutList line)`)
}

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }
