package dlc

import "sort"

// BasisRow summarises the runs of one DLC for the wizard and the report's
// DLC table.
type BasisRow struct {
	DLC        string       `json:"dlc"`
	State      TurbineState `json:"state"`
	Wind       WindModel    `json:"wind"`
	Runs       int          `json:"runs"`
	WindSpeeds []float64    `json:"wind_speeds"` // distinct, ascending, m/s
	Seeds      int          `json:"seeds"`       // distinct seed indices per speed (0: deterministic)
	Yaw        []float64    `json:"yaw"`         // distinct, ascending, deg
	Variants   []string     `json:"variants,omitempty"`
	Analysis   Analysis     `json:"analysis"`
	PSF        PSFClass     `json:"psf"`
	Gamma      float64      `json:"gamma_f"`
	// SimulatedTime is Σ TMax over the runs [s]; AnalysedTime excludes the
	// transients.
	SimulatedTime float64 `json:"simulated_time"`
	AnalysedTime  float64 `json:"analysed_time"`
}

// LoadBasisTable summarises runs per DLC, in the order the DLCs first
// appear, with a final total row (DLC "total") when there is more than one
// DLC.
func LoadBasisTable(runs []Run) []BasisRow {
	var rows []BasisRow
	idx := map[string]int{}
	speeds := map[string]map[float64]bool{}
	yaws := map[string]map[float64]bool{}
	seeds := map[string]map[int]bool{}
	variants := map[string]map[string]bool{}
	for _, r := range runs {
		i, ok := idx[r.DLC]
		if !ok {
			i = len(rows)
			idx[r.DLC] = i
			rows = append(rows, BasisRow{DLC: r.DLC, State: r.State, Wind: r.Wind,
				Analysis: r.Analysis, PSF: r.PSF, Gamma: r.Gamma})
			speeds[r.DLC] = map[float64]bool{}
			yaws[r.DLC] = map[float64]bool{}
			seeds[r.DLC] = map[int]bool{}
			variants[r.DLC] = map[string]bool{}
		}
		row := &rows[i]
		row.Runs++
		row.SimulatedTime += r.TMax
		row.AnalysedTime += r.TMax - r.Transient
		speeds[r.DLC][r.WindSpeed] = true
		yaws[r.DLC][r.Yaw] = true
		if r.SeedIndex > 0 {
			seeds[r.DLC][r.SeedIndex] = true
		}
		if r.Variant != "" {
			variants[r.DLC][r.Variant] = true
		}
	}
	for i := range rows {
		id := rows[i].DLC
		rows[i].WindSpeeds = sortedKeys(speeds[id])
		rows[i].Yaw = sortedKeys(yaws[id])
		rows[i].Seeds = len(seeds[id])
		for v := range variants[id] {
			rows[i].Variants = append(rows[i].Variants, v)
		}
		sort.Strings(rows[i].Variants)
	}
	if len(rows) > 1 {
		total := BasisRow{DLC: "total"}
		for _, r := range rows {
			total.Runs += r.Runs
			total.SimulatedTime += r.SimulatedTime
			total.AnalysedTime += r.AnalysedTime
		}
		rows = append(rows, total)
	}
	return rows
}

func sortedKeys(m map[float64]bool) []float64 {
	out := make([]float64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Float64s(out)
	return out
}
