package views

// ResultsChannel is one channel offered by the results page's picker.
type ResultsChannel struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
}

// JobResults is what the results page of a job shows; it is also handed
// to assets/js/analysis.js as a JSON block.
type JobResults struct {
	JobID    string           `json:"job_id"`
	File     string           `json:"file"`
	Channels []ResultsChannel `json:"channels"`
	// Selected are plotted on load (RotSpeed and GenPwr when present).
	Selected []string `json:"selected"`
	Rows     int      `json:"rows"`
	TStart   float64  `json:"t_start"`
	TEnd     float64  `json:"t_end"`
	// Dt is the output time step, s; the zoom handler uses it to ask for
	// about 2000 points per channel in the visible window.
	Dt float64 `json:"dt"`
}

func channelLabel(c ResultsChannel) string {
	if c.Unit == "" {
		return c.Name
	}
	return c.Name + " (" + c.Unit + ")"
}

func isSelected(sel []string, name string) bool {
	for _, s := range sel {
		if s == name {
			return true
		}
	}
	return false
}
