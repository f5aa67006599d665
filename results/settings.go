package results

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/deck"
	"github.com/turbinesim/turbinesim/solver/structure"
)

// Settings of runs: what each run was run with, read from the job (turbine,
// t_max, main input), its run recipe (a batch run's generated wind, seed,
// yaw, …) and the scalar parameters of its deck's main, InflowWind,
// ElastoDyn, ServoDyn and AeroDyn files; the comparison of runs shows the
// settings in which they differ, above the plots.

// MaxSettingsDifferences bounds the rows of one comparison.
const MaxSettingsDifferences = 60

// SettingsDifference is one setting in which the compared runs differ:
// its name and its value in each run ("" when a run lacks it).
type SettingsDifference struct {
	Setting string   `json:"setting"`
	Values  []string `json:"values"`
}

// RunInputs are the job operations the settings of a run are read with.
type RunInputs interface {
	FindJob(ctx context.Context, orgID, id string) (*turbinesim.Job, error)
	OpenInputs(ctx context.Context, orgID, id string) (dir string, release func(), err error)
}

// runRecipes is implemented by the job store that keeps batch runs'
// recipes (db.JobService).
type runRecipes interface {
	RunRecipe(ctx context.Context, jobID string) (json.RawMessage, error)
}

// SettingsDifferences reads the settings of each job and returns those in
// which they differ, job settings first, then the run recipe's, then the
// deck's by file; notes say what could not be read (a deck that does not
// load is a note, not an error: the comparison of outputs still stands).
func (a *ResultAnalysis) SettingsDifferences(ctx context.Context, orgID string, jobIDs []string) ([]SettingsDifference, []string, error) {
	if a.Jobs == nil || len(jobIDs) < 2 {
		return nil, nil, nil
	}
	var notes []string
	all := make([]map[string]string, len(jobIDs))
	for i, id := range jobIDs {
		vals, note, err := a.runSettings(ctx, orgID, id)
		if err != nil {
			return nil, nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		all[i] = vals
	}
	keys := map[string]bool{}
	for _, vals := range all {
		for k := range vals {
			keys[k] = true
		}
	}
	var diffs []SettingsDifference
	for k := range keys {
		row := SettingsDifference{Setting: k, Values: make([]string, len(all))}
		differ := false
		for i, vals := range all {
			row.Values[i] = vals[k]
			if row.Values[i] != row.Values[0] {
				differ = true
			}
		}
		if differ {
			diffs = append(diffs, row)
		}
	}
	sort.Slice(diffs, func(i, j int) bool {
		ri, rj := settingRank(diffs[i].Setting), settingRank(diffs[j].Setting)
		if ri != rj {
			return ri < rj
		}
		return diffs[i].Setting < diffs[j].Setting
	})
	if len(diffs) > MaxSettingsDifferences {
		notes = append(notes, fmt.Sprintf("%d more settings differ; the first %d are shown", len(diffs)-MaxSettingsDifferences, MaxSettingsDifferences))
		diffs = diffs[:MaxSettingsDifferences]
	}
	return diffs, notes, nil
}

// settingOrder ranks settings by where they come from: what an engineer
// changes between runs (turbine, wind, the batch run) before the deck's
// other files.
var settingOrder = []string{"turbine", "t_max", "main input", "run.", "InflowWind ", "Main ", "ElastoDyn ", "ServoDyn ", "AeroDyn "}

func settingRank(k string) int {
	for i, p := range settingOrder {
		if strings.HasPrefix(k, p) {
			return i
		}
	}
	return len(settingOrder)
}

// runSettings flattens one job's settings to name → value.
func (a *ResultAnalysis) runSettings(ctx context.Context, orgID, jobID string) (map[string]string, string, error) {
	j, err := a.Jobs.FindJob(ctx, orgID, jobID)
	if err != nil {
		return nil, "", err
	}
	vals := map[string]string{"t_max": strconv.FormatFloat(j.TMax, 'g', -1, 64) + " s", "main input": j.Entrypoint}
	if j.TurbineID != nil && a.Turbines != nil {
		if t, err := a.Turbines.FindTurbine(ctx, orgID, *j.TurbineID); err == nil {
			vals["turbine"] = t.Name
		}
	}
	if rr, ok := a.Jobs.(runRecipes); ok {
		raw, err := rr.RunRecipe(ctx, j.ID)
		if err != nil {
			return nil, "", fmt.Errorf("reading the run recipe of %s: %w", j.ID, err)
		}
		if raw != nil {
			var v any
			if json.Unmarshal(raw, &v) == nil {
				flattenJSON("run", v, vals)
			}
		}
	}
	dir, release, err := a.Jobs.OpenInputs(ctx, orgID, j.ID)
	if err != nil {
		if turbinesim.ErrorCode(err) == turbinesim.EUNAVAILABLE {
			return nil, "", err
		}
		return vals, fmt.Sprintf("job %s: its input files could not be opened", j.ID[:8]), nil
	}
	defer release()
	d, err := deck.LoadIn(dir, j.Entrypoint)
	if d == nil || d.Main == nil {
		return vals, fmt.Sprintf("job %s: its deck's settings could not be read (%s)", j.ID[:8], deckProblem(err)), nil
	}
	flattenModule("Main", d.Main, vals)
	if d.InflowWind != nil {
		flattenModule("InflowWind", d.InflowWind, vals)
	}
	if d.ElastoDyn != nil {
		flattenModule("ElastoDyn", d.ElastoDyn, vals)
	}
	if d.ServoDyn != nil {
		flattenModule("ServoDyn", d.ServoDyn, vals)
	}
	if d.AeroDyn != nil {
		flattenModule("AeroDyn", d.AeroDyn, vals)
	}
	return vals, "", nil
}

// deckProblem is the reason a deck did not load, without a server path:
// a deck error names its file relative to the deck (deck.Error's own
// message), anything else is only "not readable".
func deckProblem(err error) string {
	var de *deck.Error
	if errors.As(err, &de) {
		msg := filepath.Base(de.File)
		if de.Line > 0 {
			msg += ":" + strconv.Itoa(de.Line)
		}
		if de.Variable != "" {
			msg += ": " + de.Variable
		}
		return msg + ": " + de.Msg
	}
	return "the deck is not readable"
}

// flattenModule adds the scalar parameters of one input file (the struct
// fields its reader tags with their OpenFAST names) as "<module> <name>".
func flattenModule(module string, file any, vals map[string]string) {
	v := reflect.Indirect(reflect.ValueOf(file))
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("fst")
		if name == "" || name == "-" || !f.IsExported() || name == "Echo" {
			continue
		}
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Bool:
			vals[module+" "+name] = strconv.FormatBool(fv.Bool())
		case reflect.Int, reflect.Int64, reflect.Int32:
			vals[module+" "+name] = strconv.FormatInt(fv.Int(), 10)
		case reflect.Float64, reflect.Float32:
			vals[module+" "+name] = strconv.FormatFloat(fv.Float(), 'g', 6, 64)
		case reflect.String:
			vals[module+" "+name] = fv.String()
		case reflect.Slice:
			if fv.Len() > 0 && fv.Len() <= 6 && fv.Index(0).Kind() == reflect.Float64 {
				parts := make([]string, fv.Len())
				for k := range parts {
					parts[k] = strconv.FormatFloat(fv.Index(k).Float(), 'g', 6, 64)
				}
				vals[module+" "+name] = strings.Join(parts, ", ")
			}
		}
	}
}

// flattenJSON adds a JSON value's leaves as dotted names; arrays longer
// than six items are summarised by their length.
func flattenJSON(prefix string, v any, vals map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			flattenJSON(prefix+"."+k, x[k], vals)
		}
	case []any:
		if len(x) > 6 {
			vals[prefix] = fmt.Sprintf("%d values", len(x))
			return
		}
		parts := make([]string, len(x))
		for i, e := range x {
			b, _ := json.Marshal(e)
			parts[i] = string(b)
		}
		vals[prefix] = strings.Join(parts, ", ")
	case nil:
		vals[prefix] = ""
	case string:
		vals[prefix] = x
	default:
		b, _ := json.Marshal(x)
		vals[prefix] = string(b)
	}
}

// naturalFrequencies reads the job's deck and estimates the first tower
// and blade natural frequencies of its structural model
// (structure.Model.NaturalFrequencies); without them, the note says why.
func (a *ResultAnalysis) naturalFrequencies(ctx context.Context, orgID, jobID string) (*structure.NaturalFrequencies, string) {
	if a.Jobs == nil {
		return nil, "the run's deck is not available to this service"
	}
	j, err := a.Jobs.FindJob(ctx, orgID, jobID)
	if err != nil {
		return nil, "the run's job cannot be read"
	}
	dir, release, err := a.Jobs.OpenInputs(ctx, orgID, j.ID)
	if err != nil {
		return nil, "the run's input files cannot be opened"
	}
	defer release()
	d, err := deck.LoadIn(dir, j.Entrypoint)
	if err != nil {
		return nil, "the run's deck cannot be read: " + deckProblem(err)
	}
	p, err := structure.ParamsFromDeck(d)
	if err != nil {
		return nil, "the deck's structural model cannot be built: " + err.Error()
	}
	m, err := structure.NewModel(p, nil)
	if err != nil {
		return nil, "the deck's structural model cannot be built: " + err.Error()
	}
	f := m.NaturalFrequencies()
	return &f, ""
}
