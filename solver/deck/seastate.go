package deck

import (
	"strings"
)

// SeaState is an OpenFAST v4/v5 SeaState input file, typed (the variables
// of the SeaState input-file documentation). The file itself stays in
// Offshore.SeaState (Generic) and is written back verbatim; this structure
// is what the solver reads from it (Generic.SeaState).
type SeaState struct {
	Meta Meta `fst:"-"`

	WtrDens DefReal `fst:"WtrDens" opt:"default"` // default: the primary file's
	WtrDpth DefReal `fst:"WtrDpth" opt:"default"`
	MSL2SWL DefReal `fst:"MSL2SWL" opt:"default"`

	XHalfWidth float64 `fst:"X_HalfWidth"`
	YHalfWidth float64 `fst:"Y_HalfWidth"`
	ZDepth     DefReal `fst:"Z_Depth" opt:"default"`
	NX         int     `fst:"NX"`
	NY         int     `fst:"NY"`
	NZ         int     `fst:"NZ"`

	// WaveMod is kept as written: "1P20" is a regular wave of phase 20°.
	WaveMod    string  `fst:"WaveMod"`
	WaveStMod  int     `fst:"WaveStMod"`
	WvCrntMod  int     `fst:"WvCrntMod" opt:"0"`
	WaveTMax   float64 `fst:"WaveTMax"`
	WaveDT     float64 `fst:"WaveDT"`
	WaveHs     float64 `fst:"WaveHs"`
	WaveTp     float64 `fst:"WaveTp"`
	WavePkShp  DefReal `fst:"WavePkShp"`
	WvLowCOff  float64 `fst:"WvLowCOff"`
	WvHiCOff   float64 `fst:"WvHiCOff"`
	WaveDir    float64 `fst:"WaveDir"`
	WaveDirMod int     `fst:"WaveDirMod" opt:"0"`
	WaveDirSpr float64 `fst:"WaveDirSpread" opt:"1"`
	WaveNDir   int     `fst:"WaveNDir" opt:"1"`
	WaveDirRng float64 `fst:"WaveDirRange" opt:"90"`
	WaveSeed1  string  `fst:"WaveSeed(1)" opt:"0"`
	WaveSeed2  string  `fst:"WaveSeed(2)" opt:"0"`
	WaveNDAmp  bool    `fst:"WaveNDAmp" opt:"false"`
	WvKinFile  string  `fst:"WvKinFile" opt:""`

	WvDiffQTF  bool    `fst:"WvDiffQTF" opt:"false"`
	WvSumQTF   bool    `fst:"WvSumQTF" opt:"false"`
	WvLowCOffD float64 `fst:"WvLowCOffD" opt:"0"`
	WvHiCOffD  float64 `fst:"WvHiCOffD" opt:"0"`
	WvLowCOffS float64 `fst:"WvLowCOffS" opt:"0"`
	WvHiCOffS  float64 `fst:"WvHiCOffS" opt:"0"`

	ConstWaveMod int `fst:"ConstWaveMod" opt:"0"`

	CurrMod   int     `fst:"CurrMod"`
	CurrSSV0  float64 `fst:"CurrSSV0" opt:"0"`
	CurrSSDir DefReal `fst:"CurrSSDir" opt:"default"` // default: WaveDir
	CurrNSRef float64 `fst:"CurrNSRef" opt:"20"`
	CurrNSV0  float64 `fst:"CurrNSV0" opt:"0"`
	CurrNSDir float64 `fst:"CurrNSDir" opt:"0"`
	CurrDIV   float64 `fst:"CurrDIV" opt:"0"`
	CurrDIDir float64 `fst:"CurrDIDir" opt:"0"`

	MCFD float64 `fst:"MCFD" opt:"0"`

	NWaveElev  int       `fst:"NWaveElev" opt:"0"`
	WaveElevxi []float64 `fst:"WaveElevxi" opt:""`
	WaveElevyi []float64 `fst:"WaveElevyi" opt:""`
	NWaveKin   int       `fst:"NWaveKin" opt:"0"`
	WaveKinxi  []float64 `fst:"WaveKinxi" opt:""`
	WaveKinyi  []float64 `fst:"WaveKinyi" opt:""`
	WaveKinzi  []float64 `fst:"WaveKinzi" opt:""`

	OutList OutList `fst:"OutList" opt:""`
}

// SeaState reads the typed SeaState inputs from a SeaState file read as
// Generic; errors name the file and line.
func (g *Generic) SeaState() (*SeaState, error) {
	s := &SeaState{}
	r := newReader(g.Meta.Src, &s.Meta).skipHeader()
	if err := decode(r, s); err != nil {
		return nil, err
	}
	if s.NWaveElev < 0 || s.NWaveElev > 9 {
		return nil, r.errLine(r.src.indexOf(s.Meta.LineOf("NWaveElev")), "NWaveElev", "must be within 0..9, got %d", s.NWaveElev)
	}
	if len(s.WaveElevxi) < s.NWaveElev || len(s.WaveElevyi) < s.NWaveElev {
		return nil, r.errLine(r.src.indexOf(s.Meta.LineOf("WaveElevxi")), "WaveElevxi", "NWaveElev = %d needs as many WaveElevxi and WaveElevyi values, got %d and %d", s.NWaveElev, len(s.WaveElevxi), len(s.WaveElevyi))
	}
	s.WaveElevxi, s.WaveElevyi = s.WaveElevxi[:s.NWaveElev], s.WaveElevyi[:s.NWaveElev]
	if s.NWaveKin < 0 || s.NWaveKin > 9 {
		return nil, r.errLine(r.src.indexOf(s.Meta.LineOf("NWaveKin")), "NWaveKin", "must be within 0..9, got %d", s.NWaveKin)
	}
	if len(s.WaveKinxi) < s.NWaveKin || len(s.WaveKinyi) < s.NWaveKin || len(s.WaveKinzi) < s.NWaveKin {
		return nil, r.errLine(r.src.indexOf(s.Meta.LineOf("WaveKinxi")), "WaveKinxi", "NWaveKin = %d needs as many WaveKinxi, WaveKinyi and WaveKinzi values", s.NWaveKin)
	}
	s.WaveKinxi, s.WaveKinyi, s.WaveKinzi = s.WaveKinxi[:s.NWaveKin], s.WaveKinyi[:s.NWaveKin], s.WaveKinzi[:s.NWaveKin]
	if len(s.OutList) == 0 {
		list, err := sectionChannels(r, "OUTPUT CHANNELS")
		if err != nil {
			return nil, err
		}
		s.OutList = list
	}
	return s, nil
}

// WaveModel splits WaveMod into the model number and, for "1P#", the
// regular-wave phase in degrees (ok reports a phase was given).
func (s *SeaState) WaveModel() (mod int, phaseDeg float64, hasPhase bool, err error) {
	w := strings.TrimSpace(s.WaveMod)
	line := s.Meta.LineOf("WaveMod")
	if i := strings.IndexAny(w, "pP"); i > 0 {
		m, ok1 := parseInt(w[:i])
		ph, ok2 := parseReal(w[i+1:])
		if !ok1 || !ok2 || m != 1 {
			return 0, 0, false, errAt(s.Meta.Path, line, "WaveMod", "expected 1P<phase in degrees> (e.g. 1P20.0), got %q", w)
		}
		return 1, ph, true, nil
	}
	m, ok := parseInt(w)
	if !ok {
		return 0, 0, false, errAt(s.Meta.Path, line, "WaveMod", "expected an integer or 1P<phase>, got %q", w)
	}
	return m, 0, false, nil
}

// indexOf returns the index in Lines of the line numbered num of the file
// itself, or -1.
func (s *Source) indexOf(num int) int {
	for i := range s.Lines {
		if s.Lines[i].Num == num && s.Lines[i].File == s.Path {
			return i
		}
	}
	return -1
}

// sectionChannels reads the output channels listed after a section line
// containing title (SeaState and HydroDyn v4+ have no OutList label): one
// or more names per line, quoted or not, up to a line starting with END. A
// file whose section lines carry no titles (as the bundled turbines store
// them) lists its channels in the last section, the one ending with END.
func sectionChannels(r *reader, title string) (OutList, error) {
	start := -1
	for i := r.lo; i < r.hi; i++ {
		l := &r.src.Lines[i]
		if len(l.toks) > 0 && isSeparator(l.toks[0]) && strings.Contains(strings.ToUpper(l.Raw), title) {
			start = i
			break
		}
	}
	if start < 0 {
		for i := r.hi - 1; i >= r.lo && start < 0; i-- {
			if !isEnd(r.src.Lines[i].Raw) {
				continue
			}
			for j := i - 1; j >= r.lo; j-- {
				if l := &r.src.Lines[j]; len(l.toks) > 0 && isSeparator(l.toks[0]) {
					start = j
					break
				}
			}
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	var out OutList
	for j := start + 1; j < r.hi; j++ {
		l := &r.src.Lines[j]
		if isEnd(l.Raw) {
			return out, nil
		}
		if len(l.toks) == 0 {
			continue
		}
		if t := l.toks[0]; t.Quoted {
			for _, w := range tokenize(t.Text) {
				out = append(out, w.Text)
			}
		} else {
			out = append(out, t.Text)
		}
	}
	return nil, r.errLine(r.hi-1, "OutList", "output channel list not terminated by a line starting with END")
}
