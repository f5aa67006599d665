package deck

import (
	"fmt"
	"strings"
)

func (l *loader) loadInflow() error {
	m := l.d.Main
	used := m.CompInflow == 1
	fr := l.ref("InflowWind", l.d.Path, "InflowFile", m.Meta.LineOf("InflowFile"), m.InflowFile, used)
	if !used {
		return nil
	}
	if fr == nil || !fr.Exists {
		return l.missing(fr, "InflowWind", "InflowFile", m.InflowFile, l.d.Path, m.Meta.LineOf("InflowFile"))
	}
	w, err := readTyped(l, fr.Path, false, parseInflowWind)
	if err != nil {
		return err
	}
	fr.Loaded = true
	l.d.InflowWind = w
	p := w.Meta.Path
	var firstErr error
	need := func(role, v, name string, used bool) {
		r := l.ref(role, p, v, w.Meta.LineOf(v), name, used)
		if used && (r == nil || !r.Exists) && firstErr == nil {
			firstErr = l.missing(r, role, v, name, p, w.Meta.LineOf(v))
		}
	}
	need("uniform wind", "FileName_Uni", w.FileName_Uni, w.WindType == 2)
	need("TurbSim full-field wind", "FileName_BTS", w.FileName_BTS, w.WindType == 3)
	if w.WindType == 4 {
		need("Bladed wind (.wnd)", "FileNameRoot", w.FileNameRoot+".wnd", true)
		need("Bladed wind summary (.sum)", "FileNameRoot", w.FileNameRoot+".sum", true)
	} else if w.WindType == 7 {
		need("native Bladed wind", "FileNameRoot", w.FileNameRoot, true)
	}
	need("HAWC u wind", "FileName_u", w.FileName_u, w.WindType == 5)
	need("HAWC v wind", "FileName_v", w.FileName_v, w.WindType == 5)
	need("HAWC w wind", "FileName_w", w.FileName_w, w.WindType == 5)
	return firstErr
}

func (l *loader) loadServo() error {
	m := l.d.Main
	used := m.CompServo == 1
	fr := l.ref("ServoDyn", l.d.Path, "ServoFile", m.Meta.LineOf("ServoFile"), m.ServoFile, used)
	if !used {
		return nil
	}
	if fr == nil || !fr.Exists {
		return l.missing(fr, "ServoDyn", "ServoFile", m.ServoFile, l.d.Path, m.Meta.LineOf("ServoFile"))
	}
	s, err := readTyped(l, fr.Path, false, parseServoDyn)
	if err != nil {
		return err
	}
	fr.Loaded = true
	l.d.ServoDyn = s
	p := s.Meta.Path
	for _, group := range []struct {
		kind  string
		files []string
	}{{"blade", s.BStCfiles}, {"nacelle", s.NStCfiles}, {"tower", s.TStCfiles}, {"substructure", s.SStCfiles}} {
		for i, f := range group.files {
			l.ref(fmt.Sprintf("ServoDyn %s StC %d", group.kind, i+1), p, "StCfiles", 0, f, true)
		}
	}
	dll := s.UsesDLL()
	// The controller library itself is replaced by the built-in Go
	// controller: it is recorded but never needed.
	l.ref("controller library", p, "DLL_FileName", s.Meta.LineOf("DLL_FileName"), s.DLL_FileName, false)
	in := l.ref("controller input (DLL_InFile)", p, "DLL_InFile", s.Meta.LineOf("DLL_InFile"), s.DLL_InFile, dll)
	if !dll || in == nil || !in.Exists {
		return nil
	}
	if !looksLikeDiscon(l.tree, in.Path) {
		return nil // e.g. the 5 MW baseline DISCON ignores its input file
	}
	dc, err := readTyped(l, in.Path, false, parseDiscon)
	if err != nil {
		return err
	}
	in.Loaded = true
	l.d.Controller = dc
	if pf, ok := dc.String("PerfFileName"); ok {
		r := l.ref("ROSCO performance table (PerfFileName)", dc.Meta.Path, "PerfFileName", dc.Meta.LineOf("PerfFileName"), pf, true)
		if r != nil && !r.Exists {
			return l.missing(r, "ROSCO performance table", "PerfFileName", pf, dc.Meta.Path, dc.Meta.LineOf("PerfFileName"))
		}
	}
	return nil
}

// looksLikeDiscon reports whether a file is in ROSCO's "value ! Name" layout.
func looksLikeDiscon(t *Tree, p string) bool {
	src, err := readSourceIn(t, p, false)
	if err != nil {
		return false
	}
	n := 0
	for i := range src.Lines {
		l := &src.Lines[i]
		if c := commentIndex(l.Raw); c > 0 && len(tokenize(l.Raw[:c])) > 0 {
			n++
		}
	}
	return n >= 5
}

func (l *loader) loadOffshore() error {
	m := l.d.Main
	o := &l.d.Offshore
	var firstErr error
	gen := func(role, v, name string, used bool, dst **Generic) {
		fr := l.ref(role, l.d.Path, v, m.Meta.LineOf(v), name, used)
		if !used {
			return
		}
		if fr == nil || !fr.Exists {
			if firstErr == nil {
				firstErr = l.missing(fr, role, v, name, l.d.Path, m.Meta.LineOf(v))
			}
			return
		}
		src, err := readSourceIn(l.tree, fr.Path, false)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		fr.Loaded = true
		*dst = parseGeneric(src, role)
	}
	gen("SeaState", "SeaStFile", m.SeaStFile, m.CompSeaSt == 1, &o.SeaState)
	gen("HydroDyn", "HydroFile", m.HydroFile, m.CompHydro == 1, &o.HydroDyn)
	gen("SubDyn", "SubFile", m.SubFile, m.CompSub == 1, &o.SubDyn)
	if s := o.SubDyn; s != nil {
		// The SSI files of the base reactions belong to the deck (table
		// errors are reported by Validate).
		if sd, err := parseSubDyn(s.Meta.Src); err == nil {
			for _, r := range sd.Reactions {
				if r.SSIFile == "" {
					continue
				}
				fr := l.ref("SubDyn SSI", s.Meta.Path, "SSIfile", r.Line, r.SSIFile, true)
				if fr == nil || !fr.Exists {
					if firstErr == nil {
						firstErr = l.missing(fr, "SubDyn SSI", "SSIfile", r.SSIFile, s.Meta.Path, r.Line)
					}
					continue
				}
				src, err := readSourceIn(l.tree, fr.Path, false)
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				fr.Loaded = true
				if o.SubDynSSI == nil {
					o.SubDynSSI = map[string]*Source{}
				}
				o.SubDynSSI[r.SSIFile] = src
			}
		}
	}
	switch m.CompMooring {
	case 1:
		o.MooringKind = "MAP++"
	case 2:
		o.MooringKind = "FEAMooring"
	case 3:
		o.MooringKind = "MoorDyn"
	case 4:
		o.MooringKind = "OrcaFlex"
	}
	gen(orDefault(o.MooringKind, "Mooring"), "MooringFile", m.MooringFile, m.CompMooring >= 1, &o.Mooring)
	l.ref("IceFloe/IceDyn", l.d.Path, "IceFile", m.Meta.LineOf("IceFile"), m.IceFile, m.CompIce >= 1)
	l.ref("SoilDyn", l.d.Path, "SoilFile", m.Meta.LineOf("SoilFile"), m.SoilFile, m.CompSoil >= 1)
	if h := o.HydroDyn; h != nil {
		// WAMIT data: PotFile is a root name; .1, .3 and .hst are read.
		if pm, ok, _ := h.Int("PotMod"); ok && pm == 1 {
			if pf, ok := h.String("PotFile"); ok && !isNoFile(pf) {
				_, line, _ := h.Lookup("PotFile")
				for _, ext := range []string{".1", ".3", ".hst"} {
					l.ref("WAMIT data "+ext, h.Meta.Path, "PotFile", line, pf+ext, true)
				}
				// the state-space fits of RdtnMod 2 and ExctnMod 2 (SS_Fitting's
				// .ss, SS_Excitation_Fitting's .ssexctn), same root name
				if n, ok, err := h.Int("RdtnMod"); ok && err == nil && n == 2 {
					l.ref("state-space radiation .ss", h.Meta.Path, "PotFile", line, pf+".ss", true)
				}
				if n, ok, err := h.Int("ExctnMod"); ok && err == nil && n == 2 {
					l.ref("state-space excitation .ssexctn", h.Meta.Path, "PotFile", line, pf+".ssexctn", true)
				}
				// second-order loads read the WAMIT file their switch
				// names: .7–.9 (mean drift), .10d–.12d (difference
				// frequencies), .10s–.12s (sum frequencies)
				for _, sw := range []struct{ name, suffix string }{{"MnDrift", "d"}, {"NewmanApp", "d"}, {"DiffQTF", "d"}, {"SumQTF", "s"}} {
					n, ok, err := h.Int(sw.name)
					if !ok || err != nil || n < 7 || n > 12 {
						continue
					}
					ext := fmt.Sprintf(".%d", n)
					if n >= 10 {
						ext += sw.suffix
					}
					l.ref("WAMIT data "+ext, h.Meta.Path, "PotFile", line, pf+ext, true)
				}
			}
		}
	}
	if s := o.SeaState; s != nil {
		// WaveMod 5: the elevation series is WvKinFile + ".Elev"
		if wm, ok := s.String("WaveMod"); ok && strings.TrimSpace(wm) == "5" {
			if wk, ok := s.String("WvKinFile"); ok && !isNoFile(wk) {
				_, line, _ := s.Lookup("WvKinFile")
				l.ref("wave elevation series", s.Meta.Path, "WvKinFile", line, wk+".Elev", true)
			}
		}
	}
	return firstErr
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
