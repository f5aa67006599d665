package handlers

// OpenAPI entries of the turbine inventory (handlers/turbines.go).

const turbinePagingNote = "Query parameters: page (default 1), page_size (default 20, maximum 100; a larger value, a non-positive or repeated one is 422), q (optional case-insensitive search in name and description)."

func turbineOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	return []apiOperation{
		{method: "GET", path: "/turbines", summary: "The organization's turbine configurations, newest first. " + turbinePagingNote, tag: "turbines",
			responses: errs(map[int]string{200: "TurbinePage"}, 401, 422, 429, 503)},
		{method: "POST", path: "/turbines", summary: "Build a turbine configuration from scratch (verified accounts only; 403 otherwise): a complete deck is generated from the bundled NREL 5 MW land-based template through the deck writer. Required: name, rotor_diameter_m, hub_height_m, rated_power_kw, rated_rotor_speed_rpm. Keys of the blobs that shape the deck: blade_config.stations {span_m (0 to rotor radius minus hub radius 1.5 m), chord_m, twist_deg}; tower_config.stations {ht_fract (0 to 1), mass_density_kg_m, fa_stiffness_nm2, ss_stiffness_nm2}; nacelle_config {gearbox_ratio, overhang_m, twr2shft_m}; controller_config {generator_efficiency_pct}; other keys are stored as given. The deck runs the built-in NREL 5 MW baseline controller (Jonkman et al. 2009 §7) with constants tuned to the request, written to a baseline parameter file (Baseline_Controller.in beside the ServoDyn file, named by DLL_InFile): generator speeds follow rated_rotor_speed_rpm times the gearbox ratio (pitch set-point = rated, 5 MW ratios for the torque-law corners), rated mechanical power = rated_power_kw / generator efficiency, maximum torque 1.1 x rated, region-2 gain scaled with R^5/G^3, pitch PI gains and PC_KK from §7.2 (zeta 0.7, omega_n 0.6 rad/s, drive-train inertia from the deck) with the built rotor's own dP/dtheta (frozen-wake steady BEMT at rated rotor speed and power, rated wind to 25 m/s, fitted linearly in pitch). Where that fit does not fall with pitch (a blade gaining power when pitched from zero at rated) or rated power is not reached at zero pitch below 25 m/s, the gains fall back to the 5 MW -25.52 MW/rad scaled with rated power and the 5 MW PC_KK: the file's header says so and the 201 response carries it in warnings (\"controller: ...\"), as the turbine's page does. A rated point the rotor's optimal-mode torque reaches below rated speed is 422 naming rated_power_kw. Validation errors are 422 naming the field; a name already used in the organization is 409.", tag: "turbines",
			request: "TurbineCreate", requestExample: turbineCreateExample(),
			responses: errs(map[int]string{201: "Turbine"}, 400, 401, 403, 409, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/turbines/demos", summary: "The bundled reference turbines: every bundled archive, with name, description, type and headline specs from the manifest (label from the file name otherwise); query page, page_size (default 20, max 100; larger is 422)", tag: "turbines",
			responses: errs(map[int]string{200: "DemoList"}, 401, 422, 429, 503)},
		{method: "POST", path: "/turbines/demos/{demo_id}/load", summary: "Load a bundled reference turbine into the organization: 201 with reused=false on the first call, 200 with the same row and reused=true afterwards. The row's description starts with \"Pre-built demo:\" and it refuses PUT and DELETE (403); clone it to edit.", tag: "turbines",
			responses: errs(map[int]string{200: "DemoLoadResult", 201: "DemoLoadResult"}, 401, 404, 409, 429, 503)},
		{method: "POST", path: "/turbines/from-upload", summary: "Create a turbine configuration from a ZIP of an OpenFAST deck (verified accounts only). multipart/form-data: file (the ZIP, required), entrypoint (the main .fst when the archive holds several; without it such an upload is 422 listing the candidates), name (default: the .fst's base name), description. The archive is refused (422) for entry names with .., absolute paths, backslashes, colons, drive letters or NUL; symbolic links; more than 2000 entries; more than 256 MiB uncompressed or 64 MiB per file; a compression ratio above 100:1; executable content (ELF, PE, Mach-O); references outside the archive. The deck is loaded and validated (422 naming every defect by file and line), DLL_FileName is set to the built-in controller (for the NREL 5 MW baseline DISCON an existing DLL_InFile is read as a baseline parameter file, NAME value lines; its errors are 422 naming file and line), and the scalar parameters are read from the deck. A refused upload leaves nothing stored. The 201 response carries the deck's warnings (what OpenFAST would run with but deserves a look, \"file:line: variable: message\").", tag: "turbines",
			request: "TurbineUpload", requestType: "multipart/form-data",
			responses: errs(map[int]string{201: "Turbine"}, 401, 403, 409, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}", summary: "One turbine configuration: scalar parameters plus the four configuration objects when populated, and the stored deck's warnings. Another organization's turbine is 404.", tag: "turbines",
			responses: errs(map[int]string{200: "Turbine"}, 401, 404, 429, 503)},
		{method: "PUT", path: "/turbines/{id}", summary: "Update name, description, scalar parameters or configuration objects (absent fields keep their value; unknown fields are 422). Always sets is_validated=false. 403 for a demo-derived row, 409 for a name already used. The configuration objects are checked as POST /turbines checks them (422 naming the field). An edit that changes a value the turbine's input deck holds (rotor_diameter_m, hub_height_m, shaft_tilt_deg, precone_deg, rated_rotor_speed_rpm, rated_power_kw, blade_config.stations, tower_config.stations, nacelle_config gearbox_ratio/overhang_m/twr2shft_m, controller_config.generator_efficiency_pct) rewrites the deck as a build from scratch would, starting from the turbine's own deck, so later jobs and GET /turbines/{id}/detailed-properties use it: on land a new tilt, overhang or shaft height resizes the tower so that the hub stays at hub_height_m; a new diameter scales the blade stations; ServoDyn's simple torque law and the baseline parameter file a build wrote are retuned (rated power, rotor speed, diameter, gearbox ratio or generator efficiency). The 200 response of an edit that rewrote the deck carries the rewritten deck's warnings, as POST /turbines does (e.g. pitch gains that fell back to the scaled 5 MW values, from this retuning or kept in the file from the build). The new files replace the old ones only when the whole update succeeds. Name, description, the wind-speed band and other object keys leave the files untouched. An edit the deck cannot carry is 422 naming the field and the reason: rated power or rotor speed of a deck whose controller (DLL or ROSCO without a builder-written baseline parameter file) sets them, hub height or tower stations of an offshore deck, a new diameter of BeamDyn blades, stored files that cannot be read. The answer of an edit that rewrote the deck has deck_changes: the rewritten files, every changed parameter with its value before (a) and after (b), and notes (how a hub-height edit stretched the tower; the first tower fore-aft frequency from the structural model before → after). With the query dry_run=true nothing is saved: the answer is the row as the edit would leave it, with deck_changes of what saving would rewrite (empty lists when the edit touches nothing in the deck); the turbine page's \"Preview changes to the deck\" shows it, and after a save the page lists what was rewritten. The page's editors send the same fields form-encoded (application/x-www-form-urlencoded): each configuration object as JSON text in a field of its name (blade_config, tower_config, nacelle_config, controller_config; empty keeps the value), and text that is not a JSON object is 422 naming the field with the line and column of the JSON error.", tag: "turbines",
			request: "TurbineUpdate", responses: errs(map[int]string{200: "Turbine"}, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503),
			query: []queryParam{{name: "dry_run", description: "true: save nothing; answer what the edit would rewrite in the deck (deck_changes)", enum: []string{"true"}}}},
		{method: "DELETE", path: "/turbines/{id}", summary: "Delete a turbine and its stored input files. 403 for a demo-derived row; 409 while an active job references it (enforced by the database).", tag: "turbines",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 409, 429, 503)},
		{method: "POST", path: "/turbines/{id}/clone", summary: "Editable copy (verified accounts only): demo prefix dropped from the description, name \"<name> (copy)\", then \"(copy 2)\", ...; input files copied to a fresh storage location. The 201 response carries the copy's deck warnings, as GET /turbines/{id} does.", tag: "turbines",
			responses: errs(map[int]string{201: "Turbine"}, 401, 403, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}/detailed-properties", summary: "Blade stations (BlSpn, BlChord, BlTwist), tower stations (HtFract, TMassDen, stiffness), one polar per airfoil and the controller parameters, parsed from the stored input files. 404 when the turbine has no input files; 422 when they cannot be read (detail names file and line).", tag: "turbines",
			responses: errs(map[int]string{200: "DetailedProperties"}, 401, 404, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}/airfoil-polar/{airfoil_index}", summary: "Cl, Cd and Cm against alpha (degrees) of one airfoil; airfoil_index is 0-based in the turbine's airfoil set (AeroDyn AFNames order).", tag: "turbines",
			responses: errs(map[int]string{200: "AirfoilPolar"}, 401, 404, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}/fst-defaults", summary: "The value the main input file gets for every parameter of the Advanced Settings panel (the turbine's own main file when it has one, OpenFAST's defaults otherwise), with OpenFAST's default and description.", tag: "turbines",
			responses: errs(map[int]string{200: "FSTDefaults"}, 401, 404, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}/files", summary: "The stored deck's files (path relative to the deck's root, size), sorted by path, with the main file; 404 for a turbine without stored files. Browsers go to the file tree on the turbine page.", tag: "turbines",
			responses: errs(map[int]string{200: "DeckFiles"}, 401, 404, 429, 503)},
		{method: "GET", path: "/turbines/{id}/files/{path}", summary: "One file of the stored deck for reading: its text, at most 256 KiB (truncated: true when cut), or binary: true and no text for a file that is not UTF-8 text. The path is resolved inside the deck's own tree; any other path is 404. Browsers get the file's page.", tag: "turbines",
			responses: errs(map[int]string{200: "DeckFileText"}, 401, 404, 422, 429, 503)},
		{method: "GET", path: "/turbines/{id}/deck.zip", summary: "The whole stored deck as a ZIP archive (application/zip) with the deck's own relative paths; POST /turbines/from-upload takes it back unchanged (GET /turbines/{id}/diff then finds no difference).", tag: "turbines",
			responses: errs(map[int]string{200: ""}, 401, 404, 429, 503)},
		{method: "GET", path: "/turbines/{id}/diff", summary: "The stored decks of this turbine (a) and the turbine named by the query parameter with (b), compared file by file (by relative path) and parameter by parameter: a line 'value Name - description' is the parameter Name (Name#2 for its second occurrence in a file); other differing lines are 'line N'; a file only one deck has is parameter '(file)', binary or very large files '(contents)' with size and digest. Values equal as numbers (90 and 90.0) are equal. equal is true when nothing differs. Without with, browsers get the page that picks b by name; scripts get 422.", tag: "turbines",
			responses: errs(map[int]string{200: "DeckDiff"}, 401, 404, 422, 429, 503),
			query:     []queryParam{{name: "with", description: "id of the turbine to compare with"}}},
	}
}

func turbineCreateExample() map[string]any {
	return map[string]any{
		"name": "Research rotor A", "description": "3-bladed upwind, land-based",
		"rated_power_kw": 5000, "rotor_diameter_m": 126, "hub_height_m": 90,
		"cut_in_wind_speed_ms": 3, "rated_wind_speed_ms": 11.4, "cut_out_wind_speed_ms": 25,
		"shaft_tilt_deg": 5, "precone_deg": -2.5, "rated_rotor_speed_rpm": 12.1,
		"blade_config": map[string]any{"stations": map[string]any{
			"span_m": []float64{0, 20, 40, 61.5}, "chord_m": []float64{3.5, 4.2, 3.0, 1.4}, "twist_deg": []float64{13.3, 9, 2.5, 0.1}}},
		"tower_config": map[string]any{"stations": map[string]any{
			"ht_fract": []float64{0, 0.5, 1}, "mass_density_kg_m": []float64{5590, 4300, 3240},
			"fa_stiffness_nm2": []float64{6.1e11, 3.4e11, 1.5e11}, "ss_stiffness_nm2": []float64{6.1e11, 3.4e11, 1.5e11}}},
		"nacelle_config":    map[string]any{"gearbox_ratio": 97, "overhang_m": -5.0191, "twr2shft_m": 1.96256},
		"controller_config": map[string]any{"generator_efficiency_pct": 94.4},
	}
}

// deckFileSchemas are the schemas of the stored-deck file endpoints.
func deckFileSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	file := objectSchema([]string{"path", "size"}, map[string]any{"path": str, "size": map[string]any{"type": "integer"}})
	side := map[string]any{"type": []string{"string", "null"}, "description": "the value in this deck; null where absent"}
	return map[string]any{
		"DeckFile": file,
		"DeckFiles": objectSchema([]string{"turbine_id", "main_file", "files"}, map[string]any{
			"turbine_id": str, "main_file": str, "files": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/DeckFile"}}}),
		"DeckFileText": objectSchema([]string{"path", "size", "text", "truncated", "binary"}, map[string]any{
			"path": str, "size": map[string]any{"type": "integer"}, "text": str,
			"truncated": map[string]any{"type": "boolean"}, "binary": map[string]any{"type": "boolean"}}),
		"DeckParamDiff": objectSchema([]string{"file", "parameter", "a", "b"}, map[string]any{
			"file": str, "parameter": str, "a": side, "b": side}),
		"TurbineRef": objectSchema([]string{"id", "name"}, map[string]any{"id": str, "name": str}),
		"DeckDiff": objectSchema([]string{"a", "b", "equal", "differences"}, map[string]any{
			"a": map[string]any{"$ref": "#/components/schemas/TurbineRef"}, "b": map[string]any{"$ref": "#/components/schemas/TurbineRef"},
			"equal":       map[string]any{"type": "boolean"},
			"differences": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/DeckParamDiff"}}}),
	}
}

func turbineSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	integer := map[string]any{"type": "integer"}
	boolean := map[string]any{"type": "boolean"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	num := func(desc string) map[string]any {
		return map[string]any{"type": []string{"number", "null"}, "description": desc}
	}
	nums := map[string]any{"type": "array", "items": map[string]any{"type": "number"}}
	obj := objectSchema
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	blob := map[string]any{"type": []string{"object", "null"}, "description": "free-form JSON object (at most 1 MiB); absent or null when not populated"}
	params := func() map[string]any {
		return map[string]any{
			"rated_power_kw":        num("rated electrical power, kW (0, 1e6]"),
			"rotor_diameter_m":      num("rotor diameter, m (0, 1000]"),
			"hub_height_m":          num("hub height, m (0, 1000]"),
			"cut_in_wind_speed_ms":  num("cut-in wind speed, m/s [0, 100]; below rated"),
			"rated_wind_speed_ms":   num("rated wind speed, m/s (0, 100]; below cut-out"),
			"cut_out_wind_speed_ms": num("cut-out wind speed, m/s (0, 100]"),
			"shaft_tilt_deg":        num("shaft tilt, degrees [-30, 30]"),
			"precone_deg":           num("blade precone, degrees [-30, 30]"),
			"rated_rotor_speed_rpm": num("rated rotor speed, rpm (0, 1000]"),
		}
	}
	withBlobs := func(m map[string]any) map[string]any {
		for _, k := range []string{"blade_config", "tower_config", "nacelle_config", "controller_config"} {
			m[k] = blob
		}
		return m
	}
	turbine := withBlobs(params())
	for k, v := range map[string]any{
		"id": str, "org_id": str, "name": str,
		"description":  map[string]any{"type": "string", "description": "a value starting with \"Pre-built demo:\" marks a demo-derived row"},
		"is_validated": boolean, "demo_id": str,
		"main_file":  map[string]any{"type": "string", "description": "path of the main .fst inside the stored input files"},
		"created_by": str, "created_at": dt, "updated_at": dt,
		"deck_changes": obj([]string{"files", "changes", "notes"}, map[string]any{
			"files":   map[string]any{"type": "array", "items": str, "description": "the files the edit rewrote (relative to the deck's root)"},
			"changes": map[string]any{"type": "array", "items": ref("DeckParamDiff"), "description": "every changed parameter: a before, b after"},
			"notes":   map[string]any{"type": "array", "items": str, "description": "effects to check, e.g. \"first tower fore-aft frequency 0.346 → 0.218 Hz (structural model: ...)\""},
			"tower_fa_frequency_hz": map[string]any{"type": "array", "items": map[string]any{"type": "number"}, "minItems": 2, "maxItems": 2,
				"description": "first tower fore-aft frequency before and after (Hz: the tower with its top mass, without gravity), when the edit moved it"},
		}),
		"warnings": map[string]any{"type": "array", "items": str,
			"description": "what to know about the turbine's deck although it runs, with the turbine builder's first: a sentence starting with the part it concerns, e.g. \"controller: the pitch controller's gains (PC_KP, PC_KI, PC_KK in Baseline_Controller.in) are not tuned to this rotor: ...\" when the pitch-sensitivity fit fell back to the scaled 5 MW value; then the deck validator's findings that OpenFAST would run with but the engineer should check (e.g. mode-shape coefficients not adding up to 1, an AeroDyn tower taller than ElastoDyn's, airfoil tables not covering -180..180 deg, no unsteady-aero data with UA_Mod > 0, a Bladed-DLL controller without a ROSCO DISCON.IN that the built-in NREL 5 MW baseline replaces, ROSCO lines ignored), each \"file:line: variable: message\" with file relative to the root folder of the stored files, the line left out when the variable is not in the file (its default was taken) (not for a builder-written baseline parameter file, which is the build's design). In the responses of GET /turbines/{id}, POST /turbines, POST /turbines/from-upload, POST /turbines/{id}/clone, POST /turbines/demos/{demo_id}/load and of a PUT /turbines/{id} that rewrote the deck; absent when there is none, in lists, and when the stored files cannot be read (GET /turbines/{id}/detailed-properties says why). The turbine's page shows the same list, and jobs and batches of the turbine repeat them"},
	} {
		turbine[k] = v
	}
	create := withBlobs(params())
	create["name"] = map[string]any{"type": "string", "description": "1-200 characters, unique in the organization"}
	create["description"] = str
	update := withBlobs(params())
	update["name"] = str
	update["description"] = str
	loadResult := map[string]any{"allOf": []any{ref("Turbine"), obj([]string{"reused"}, map[string]any{"reused": boolean})}}
	return map[string]any{
		"TurbineUpload": obj([]string{"file"}, map[string]any{
			"file":        map[string]any{"type": "string", "format": "binary", "description": "ZIP archive of the deck"},
			"entrypoint":  map[string]any{"type": "string", "description": "path of the main .fst inside the archive"},
			"name":        str,
			"description": str,
		}),
		"Turbine":       obj([]string{"id", "org_id", "name", "description", "is_validated"}, turbine),
		"TurbineCreate": obj([]string{"name"}, create),
		"TurbineUpdate": obj(nil, update),
		"TurbinePage": obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": ref("Turbine")}, "total": integer, "page": integer,
			"page_size": integer, "total_pages": integer,
		}),
		"DemoTurbine": obj([]string{"id", "label"}, map[string]any{
			"id": str, "label": map[string]any{"type": "string", "description": "from the manifest, or derived from the archive's file name"},
			"name": str, "description": str,
			"type":           map[string]any{"type": "string", "enum": []string{"onshore", "offshore monopile", "offshore floating"}},
			"headline_specs": obj(nil, params()),
		}),
		"DemoList": obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": ref("DemoTurbine")},
			"total": integer, "page": integer, "page_size": integer, "total_pages": integer,
		}),
		"DemoLoadResult": loadResult,
		"AirfoilPolar": obj([]string{"index", "name", "alpha_deg", "cl", "cd", "cm"}, map[string]any{
			"index": integer, "name": str, "re_millions": map[string]any{"type": "number"},
			"alpha_deg": nums, "cl": nums, "cd": nums, "cm": nums,
		}),
		"DetailedProperties": obj([]string{"blade", "tower", "airfoils", "controller"}, map[string]any{
			"blade": obj(nil, map[string]any{"bl_spn_m": nums, "bl_chord_m": nums, "bl_twist_deg": nums,
				"airfoil_index": map[string]any{"type": "array", "items": integer}, "thickness_ratio": nums}),
			"tower": obj(nil, map[string]any{"ht_fract": nums, "height_m": nums, "t_mass_den_kg_m": nums,
				"tw_fa_stif_nm2": nums, "tw_ss_stif_nm2": nums}),
			"airfoils": map[string]any{"type": "array", "items": ref("AirfoilPolar")},
			"controller": obj([]string{"kind", "parameters"}, map[string]any{
				"kind": map[string]any{"type": "string", "enum": []string{"rosco", "baseline", "servodyn", "none"}},
				"parameters": map[string]any{"type": "array", "items": obj([]string{"name"}, map[string]any{
					"name": str, "values": nums, "text": str})},
			}),
		}),
		"FSTDefaults": obj([]string{"parameters"}, map[string]any{
			"parameters": map[string]any{"type": "array", "items": obj([]string{"name", "value"}, map[string]any{
				"name": str, "section": str, "value": map[string]any{"description": "number, boolean or string as in the main file"},
				"default": str, "description": str})},
		}),
	}
}
