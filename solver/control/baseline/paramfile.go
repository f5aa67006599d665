package baseline

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Parameter file of the built-in baseline controller.
//
// The NREL 5 MW DISCON ignores its input file and compiles its constants
// in; the built-in equivalent can instead read them from the file ServoDyn's
// DLL_InFile names, so that a turbine other than the 5 MW one runs a
// baseline controller tuned to it. The format is ours and deliberately
// small: one "NAME value" pair per line, names as in the DISCON source
// listed in Jonkman et al. 2009 §7 (case-insensitive), values in the
// source's SI units (rad, rad/s, N·m, N·m/s, W, s, % for VS_SlPc). Text
// after '#' is a comment; blank lines are ignored. A key that is missing
// keeps its NREL 5 MW value (DefaultParams); an unknown or repeated key, a
// value that is not one finite number, or extra words are errors naming
// the file and line.

// paramField binds a file key to a Params field.
type paramField struct {
	name string
	unit string
	ptr  func(p *Params) *float64
}

// paramFields lists the keys in the order WriteParamFile writes them.
var paramFields = []paramField{
	{"CornerFreq", "rad/s, corner frequency of the generator-speed low-pass filter", func(p *Params) *float64 { return &p.CornerFreq }},
	{"PC_DT", "s, pitch controller sample interval", func(p *Params) *float64 { return &p.PitchCtrlInterval }},
	{"PC_KI", "s, integral gain at zero pitch", func(p *Params) *float64 { return &p.PitchKI }},
	{"PC_KK", "rad, pitch angle where the pitch sensitivity has doubled", func(p *Params) *float64 { return &p.PitchKK }},
	{"PC_KP", "s, proportional gain at zero pitch", func(p *Params) *float64 { return &p.PitchKP }},
	{"PC_MaxPit", "rad, maximum pitch", func(p *Params) *float64 { return &p.PitchMax }},
	{"PC_MaxRat", "rad/s, maximum pitch rate", func(p *Params) *float64 { return &p.PitchMaxRate }},
	{"PC_MinPit", "rad, minimum pitch", func(p *Params) *float64 { return &p.PitchMin }},
	{"PC_RefSpd", "rad/s, generator speed set-point of the pitch controller", func(p *Params) *float64 { return &p.PitchRefSpeed }},
	{"VS_CtInSp", "rad/s, generator speed between regions 1 and 1 1/2", func(p *Params) *float64 { return &p.CutInSpeed }},
	{"VS_DT", "s, torque controller sample interval", func(p *Params) *float64 { return &p.TorqueCtrlInterval }},
	{"VS_MaxRat", "N·m/s, maximum generator torque rate", func(p *Params) *float64 { return &p.MaxTorqueRate }},
	{"VS_MaxTq", "N·m, maximum generator torque", func(p *Params) *float64 { return &p.MaxTorque }},
	{"VS_Rgn2K", "N·m/(rad/s)^2, region 2 optimal-mode gain", func(p *Params) *float64 { return &p.Rgn2K }},
	{"VS_Rgn2Sp", "rad/s, generator speed between regions 1 1/2 and 2", func(p *Params) *float64 { return &p.Rgn2Speed }},
	{"VS_Rgn3MP", "rad, pitch above which region 3 torque is forced", func(p *Params) *float64 { return &p.Rgn3MinPitch }},
	{"VS_RtGnSp", "rad/s, rated generator speed (end of region 2 1/2)", func(p *Params) *float64 { return &p.RatedGenSpeed }},
	{"VS_RtPwr", "W, rated mechanical generator power (electrical / generator efficiency)", func(p *Params) *float64 { return &p.RatedPower }},
	{"VS_SlPc", "%, slip of the region 2 1/2 induction-machine line", func(p *Params) *float64 { return &p.SlipPercent }},
}

// ParseParams reads a baseline parameter file (format above) from src;
// name is the file's name for messages. The result is checked as New
// checks it.
func ParseParams(name string, src []byte) (Params, error) {
	p := DefaultParams()
	byKey := make(map[string]paramField, len(paramFields))
	for _, f := range paramFields {
		byKey[strings.ToLower(f.name)] = f
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		words := strings.Fields(text)
		if len(words) == 0 {
			continue
		}
		f, ok := byKey[strings.ToLower(words[0])]
		if !ok {
			return Params{}, fmt.Errorf("%s:%d: unknown baseline controller parameter %q (known: %s)", name, line, words[0], knownKeys())
		}
		if prev, dup := seen[f.name]; dup {
			return Params{}, fmt.Errorf("%s:%d: %s already given on line %d", name, line, f.name, prev)
		}
		seen[f.name] = line
		if len(words) != 2 {
			return Params{}, fmt.Errorf("%s:%d: %s needs exactly one value, got %d words", name, line, f.name, len(words)-1)
		}
		v, err := strconv.ParseFloat(words[1], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Params{}, fmt.Errorf("%s:%d: %s: %q is not a finite number", name, line, f.name, words[1])
		}
		*f.ptr(&p) = v
	}
	if err := sc.Err(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// LoadParams reads a baseline parameter file.
func LoadParams(path string) (Params, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Params{}, fmt.Errorf("baseline parameter file: %w", err)
	}
	return ParseParams(path, src)
}

// Validate checks p as the controller and its parameter file need it.
func (p Params) Validate() error {
	for _, f := range paramFields {
		v := *f.ptr(&p)
		switch f.name {
		case "PC_MinPit":
			continue
		case "VS_CtInSp", "VS_Rgn2K":
			if v < 0 {
				return fmt.Errorf("%s must be >= 0, got %g", f.name, v)
			}
		default:
			if !(v > 0) {
				return fmt.Errorf("%s must be > 0, got %g", f.name, v)
			}
		}
	}
	if p.PitchMin >= p.PitchMax {
		return fmt.Errorf("PC_MinPit %g must be below PC_MaxPit %g", p.PitchMin, p.PitchMax)
	}
	_, err := p.derive()
	return err
}

// EncodeParams writes p in the parameter-file format, every key stated,
// with heading lines (each prefixed by "# ") and a unit comment per key.
// Values are written with full float64 precision so that reading them
// back gives p exactly.
func EncodeParams(p Params, heading ...string) []byte {
	var b bytes.Buffer
	for _, h := range heading {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for _, f := range paramFields {
		fmt.Fprintf(&b, "%-11s %-24s # %s\n", f.name, strconv.FormatFloat(*f.ptr(&p), 'g', -1, 64), f.unit)
	}
	return b.Bytes()
}

func knownKeys() string {
	names := make([]string, len(paramFields))
	for i, f := range paramFields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// Entry is one named constant of Params as the parameter file states it.
type Entry struct {
	Name  string  // DISCON name, e.g. "PC_RefSpd"
	Value float64 // SI value
	Unit  string  // unit and meaning
}

// Entries lists p's constants in parameter-file order.
func (p Params) Entries() []Entry {
	out := make([]Entry, len(paramFields))
	for i, f := range paramFields {
		out[i] = Entry{Name: f.name, Value: *f.ptr(&p), Unit: f.unit}
	}
	return out
}
