package turbinesim

// DemoTurbine is one bundled reference turbine of GET /turbines/demos.
// Name, Description, Type and the headline specs come from the manifest
// that accompanies the bundled archives; an archive without a manifest
// entry has only ID and Label (derived from its file name).
type DemoTurbine struct {
	ID          string         `json:"id"`
	Label       string         `json:"label"`
	Name        string         `json:"name,omitempty"`
	Description string         `json:"description,omitempty"`
	Type        string         `json:"type,omitempty"` // "onshore", "offshore monopile", "offshore floating"
	Specs       *TurbineParams `json:"headline_specs,omitempty"`
}

// DemoCatalog lists the bundled reference turbines and writes one out as a
// complete input deck.
type DemoCatalog interface {
	Demos() []DemoTurbine
	// Build writes demo id's deck into dir (empty, existing) and returns
	// the row to store: name, description (without the demo prefix, which
	// the store adds), scalar parameters and MainFile relative to dir.
	Build(id, dir string) (*Turbine, error)
}
