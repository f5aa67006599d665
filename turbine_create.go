package turbinesim

// TurbineCreate is the build-from-scratch payload of POST /turbines:
// name, description, the scalar parameters and the four configuration
// blobs.
type TurbineCreate struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	TurbineParams
	BladeConfig      ConfigBlob `json:"blade_config,omitempty"`
	TowerConfig      ConfigBlob `json:"tower_config,omitempty"`
	NacelleConfig    ConfigBlob `json:"nacelle_config,omitempty"`
	ControllerConfig ConfigBlob `json:"controller_config,omitempty"`
}

// Build validates the payload and returns the row to store. dir is the
// directory of generated deck files ("" when none are generated) and
// cleanup removes it.
func (r *TurbineCreate) Build() (t *Turbine, dir string, cleanup func(), err error) {
	if IsDemoDescription(r.Description) {
		return nil, "", nil, Errorf(EINVALID, "description: the prefix %q is reserved for bundled demo turbines", DemoPrefix)
	}
	t = &Turbine{Name: r.Name, Description: r.Description, TurbineParams: r.TurbineParams,
		BladeConfig: r.BladeConfig, TowerConfig: r.TowerConfig, NacelleConfig: r.NacelleConfig, ControllerConfig: r.ControllerConfig}
	if err := t.Validate(); err != nil {
		return nil, "", nil, err
	}
	return t, "", func() {}, nil
}
