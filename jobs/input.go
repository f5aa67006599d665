package jobs

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// jobZipLimits bound a job's input archive. They are
// larger than a turbine upload's (decks.DefaultZipLimits) because a
// job may carry its own turbulent wind box: a 600-s 31 × 31 TurbSim box is
// about 70 MB.
var jobZipLimits = decks.ZipLimits{MaxEntries: 2000, MaxTotalBytes: 512 << 20, MaxEntryBytes: 128 << 20, MaxRatio: 100}

// maxEntrypointBytes bounds the entrypoint form field.
const maxEntrypointBytes = 1024

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

// checkEntrypoint validates the entrypoint field: a relative, slash-separated
// path of a .fst file inside the input tree.
func checkEntrypoint(dir, entry string) error {
	if entry == "" {
		return invalid("entrypoint: required (the main .fst inside the ZIP)")
	}
	// The archive's names were checked on extraction; an entrypoint that is
	// local and names a regular file of the extracted tree is one of them.
	if len(entry) > maxEntrypointBytes || !filepath.IsLocal(entry) || strings.HasSuffix(entry, "/") {
		return invalid("entrypoint: %q is not a relative path inside the ZIP", clipText(entry, 100))
	}
	if !strings.EqualFold(path.Ext(entry), ".fst") {
		return invalid("entrypoint: %q is not a .fst file", entry)
	}
	st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(entry)))
	if err != nil || !st.Mode().IsRegular() {
		return invalid("entrypoint: %q is not in the ZIP", entry)
	}
	return nil
}

// RunSettings are the settings of a run built from a stored turbine.
type RunSettings struct {
	TMax float64 `json:"t_max"`
	// DT overrides the deck's time step when positive.
	DT   float64      `json:"dt,omitempty"`
	Wind WindSettings `json:"wind"`
}

// WindSettings choose the run's wind: steady wind (hub-height speed and an
// optional power-law shear exponent), or a wind file (file: one in the
// input tree of an earlier job of the organization; or, in a multipart
// request, the uploaded part wind_file).
type WindSettings struct {
	Speed float64      `json:"speed,omitempty"`
	Shear *float64     `json:"shear,omitempty"`
	File  *WindFileRef `json:"file,omitempty"`
}

// WindFileRef names a wind file in the input tree of an earlier job.
type WindFileRef struct {
	JobID string `json:"job_id"`
	Path  string `json:"path"`
}

// TurbineRunRequest is the JSON body of POST /jobs for a stored turbine.
// Name and Tags are optional: an empty name is derived from the run
// (turbinesim.JobName).
type TurbineRunRequest struct {
	TurbineID string      `json:"turbine_id"`
	Name      string      `json:"name,omitempty"`
	Tags      []string    `json:"tags,omitempty"`
	Settings  RunSettings `json:"settings"`
}

// Check validates the request's fields; uploaded says the request carries
// a wind_file part.
func (r *TurbineRunRequest) Check(uploaded bool) error {
	s := r.Settings
	w := s.Wind
	fromFile := w.File != nil || uploaded
	var err error
	if r.Name, err = turbinesim.CleanJobName("name", r.Name); err != nil {
		return err
	}
	if r.Tags, err = turbinesim.CleanJobTags("tags", r.Tags); err != nil {
		return err
	}
	switch {
	case r.TurbineID == "":
		return invalid("turbine_id: required")
	case !(s.TMax > 0 && s.TMax <= turbinesim.MaxRunTMax):
		return invalid("settings.t_max: %g is outside (0, %g] s", s.TMax, turbinesim.MaxRunTMax)
	case s.DT != 0 && !(s.DT >= turbinesim.MinRunDT && s.DT <= turbinesim.MaxRunDT):
		return invalid("settings.dt: %g s is outside [%g, %g] s (or 0: the deck's own DT)", s.DT, turbinesim.MinRunDT, turbinesim.MaxRunDT)
	case w.File != nil && uploaded:
		return invalid("settings.wind.file: not together with an uploaded wind_file")
	case fromFile && w.Speed != 0:
		return invalid("settings.wind.speed: not together with a wind file (the file sets the speed)")
	case fromFile && w.Shear != nil:
		return invalid("settings.wind.shear: applies to steady wind only (a wind file carries its own profile)")
	case !fromFile && !(w.Speed > 0 && w.Speed <= 80):
		return invalid("settings.wind.speed: %g is outside (0, 80] m/s (or give settings.wind.file)", w.Speed)
	case w.Shear != nil && (*w.Shear < -1 || *w.Shear > 1):
		return invalid("settings.wind.shear: %g is outside [-1, 1]", *w.Shear)
	case w.File != nil && w.File.JobID == "":
		return invalid("settings.wind.file.job_id: required (the job whose input files hold the wind file)")
	case w.File != nil && (w.File.Path == "" || len(w.File.Path) > maxEntrypointBytes ||
		!filepath.IsLocal(filepath.FromSlash(w.File.Path))):
		return invalid("settings.wind.file.path: %q is not a relative path inside that job's input files", clipText(w.File.Path, 100))
	}
	return nil
}

// deckFromTurbine writes the turbine's stored deck, open in src
// (TurbineService.OpenTurbineDeck; "" when the row has none), with the run
// settings applied, into dir and returns the entrypoint and the stored
// deck's warnings (they name the turbine's own files and lines, which the
// engineer edits, not those of the rewritten run deck). wind, when not
// nil, replaces steady wind; the written deck is validated again.
func deckFromTurbine(src string, t *turbinesim.Turbine, req *TurbineRunRequest, wind *decks.RunWindFile, dir string) (entry string, warnings []string, work turbinesim.RunWork, setup *turbinesim.RunSetup, err error) {
	if src == "" || !t.HasDeck() {
		return "", nil, work, nil, invalid("turbine_id: this turbine has no input deck to run")
	}
	d, warnings, err := decks.LoadRunnableDeck(src, *t.MainFile)
	if err != nil {
		return "", nil, work, nil, err
	}
	s := req.Settings
	d.Main.TMax = s.TMax
	if s.DT > 0 {
		d.Main.DT = s.DT
	}
	// The bounds of every run, named by the request's fields (the deck's
	// own DT when settings.dt is not given).
	steps, option, problem := turbinesim.RunSteps(d.Main.TMax, d.Main.DT)
	switch {
	case option == "TMax":
		return "", nil, work, nil, invalid("settings.t_max: %s", problem)
	case option == "DT" && s.DT > 0:
		return "", nil, work, nil, invalid("settings.dt: %s", problem)
	case option == "DT":
		return "", nil, work, nil, invalid("settings.dt: the turbine deck's DT %s; give settings.dt", problem)
	}
	if err := decks.SolverCanRun(src, d); err != nil {
		return "", nil, work, nil, err
	}
	work = turbinesim.RunWork{Steps: steps, ModelSize: decks.ModelSize(d)}
	if d.InflowWind == nil {
		return "", nil, work, nil, invalid("turbine_id: the turbine's deck has no InflowWind module to set the wind in")
	}
	var fst string
	if wind != nil {
		fst, err = decks.WriteRunDeckWithWind(dir, d, wind)
	} else {
		d.InflowWind.WindType = 1
		d.InflowWind.HWindSpeed = s.Wind.Speed
		if s.Wind.Shear != nil {
			d.InflowWind.PLExp = *s.Wind.Shear
		}
		fst, err = deck.Write(dir, d)
	}
	if err != nil {
		return "", nil, work, nil, fmt.Errorf("writing run deck: %w", err)
	}
	if entry, err = filepath.Rel(dir, fst); err != nil {
		return "", nil, work, nil, err
	}
	entry = filepath.ToSlash(entry)
	setup = decks.RunSetupOf(d)
	if wind != nil {
		// The run deck as the solver will read it, wind file included.
		if _, _, err := decks.LoadRunnableDeck(dir, entry); err != nil {
			return "", nil, work, nil, err
		}
		setup.Wind = turbinesim.RunWind{Kind: "file", File: wind.Name}
	}
	return entry, warnings, work, setup, nil
}
