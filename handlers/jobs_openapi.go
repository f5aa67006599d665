package handlers

import "github.com/turbinesim/turbinesim"

// jobOperations documents the job endpoints. The job states are
// in the Job schema's description; the WebSocket is documented as the GET
// of its handshake.
func jobOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	return []apiOperation{
		{method: "POST", path: "/jobs", tag: "jobs",
			summary: "Submit a run: multipart (file = ZIP of the input files, entrypoint = the main .fst inside it) or JSON {turbine_id, settings} " +
				"(a stored turbine's deck with the run settings: steady wind with an optional power-law shear, or settings.wind.file, a wind file in an earlier job's inputs), " +
				"or multipart turbine_id, settings (the same JSON object as text) and wind_file (an uploaded TurbSim .bts box or uniform wind file, e.g. from turbined wind). " +
				"A wind file is read at submission: a bad one is 422 naming the field; a .bts must span settings.t_max. " +
				"The deck is validated first (422 naming file and line, nothing charged); what OpenFAST would run with but deserves a look comes back in the job's warnings (stored with it, so GET /jobs/{id} and an idempotent replay repeat them); then the run bounds (DT 0.0001-1 s, TMax up to 7200 s, at most 10,000,000 steps; 422 naming settings.dt / settings.t_max, or a ZIP deck's file, line and option) and whether the solver can run the deck at all (422, nothing charged), " +
				"then the charge (priced by the run's work, steps × model size: see the Job schema), " +
				"the job and its queue entry commit together (402 over the spend or token cap). Optional Idempotency-Key header: the same key and body return the " +
				"first job (200, Idempotent-Replayed: true), another body 422, a submission still in progress 409.",
			request: "TurbineRunRequest", requestType: "application/json", moreRequests: map[string]string{"multipart/form-data": "JobUpload"},
			responses: errs(map[int]string{201: "Job", 200: "Job"}, 401, 402, 403, 404, 409, 413, 422, 429, 503)},
		{method: "GET", path: "/jobs", tag: "jobs",
			summary: "The organization's jobs, filtered and sorted: name (substring, case-insensitive), tag, turbine_id, batch_id, status, from and to (submission date), sort; page, page_size (default 20, max 100). " +
				"Every parameter is optional and may be given once; a bad value (an unknown status or sort, an id that is not an id, a date that is neither YYYY-MM-DD nor RFC 3339, to not after from) is 422 naming the parameter",
			query: []queryParam{
				{name: "name", description: "keeps jobs whose name contains this text, case-insensitively (at most 200 bytes)"},
				{name: "tag", description: "keeps jobs carrying this tag (exact match)"},
				{name: "turbine_id", description: "keeps runs of this stored turbine (a UUID)"},
				{name: "batch_id", description: "keeps the runs of this batch (a UUID)"},
				{name: "status", description: "keeps jobs in this state", enum: statusNames()},
				{name: "from", description: "submitted at or after: a date YYYY-MM-DD (midnight UTC) or an RFC 3339 time"},
				{name: "to", description: "submitted before: an RFC 3339 time, or a date YYYY-MM-DD, which includes that whole day (UTC)"},
				{name: "sort", description: "order: a field, descending with a leading '-'; default -created (newest first); ties newest first", enum: turbinesim.JobSorts},
			},
			responses: errs(map[int]string{200: "JobPage"}, 401, 422, 429, 503)},
		{method: "GET", path: "/jobs/{id}", tag: "jobs", summary: "One job: name, tags, what it runs (setup), status, progress, attempt, price, tokens, output files, the submitted deck's warnings",
			responses: errs(map[int]string{200: "Job"}, 401, 404, 429, 503)},
		{method: "PATCH", path: "/jobs/{id}", tag: "jobs",
			summary: "Rename a job or change its tags: name (not empty, at most 200 bytes, one line), tags (replaces the list), then add_tags added and remove_tags removed, in one statement. " +
				"A tag is 1-40 characters without commas or line breaks; a job has at most 20; duplicates are dropped. A bad field is 422 naming it. " +
				"Browsers may send the same fields form-encoded (several add_tags / remove_tags values, or one with commas)",
			request: "JobUpdate", responses: errs(map[int]string{200: "Job"}, 401, 403, 404, 415, 422, 429, 503)},
		{method: "POST", path: "/jobs/{id}/cancel", tag: "jobs",
			summary:   "Cancel: a queued job becomes cancelled at once (refunded); a running one becomes cancelling and stops within seconds (cancelled, charged pro rata of the simulated time it reached: cancelled at 10 % of t_max, it keeps 10 % of its price and tokens, rounded up; the detail states the share); a finished one is 409",
			responses: errs(map[int]string{202: "Job"}, 401, 403, 404, 409, 429, 503)},
		{method: "GET", path: "/jobs/{id}/outputs/{name}", tag: "jobs", summary: "Download one output file of a succeeded job (application/octet-stream attachment)",
			responses: errs(map[int]string{200: ""}, 401, 404, 429, 503)},
		{method: "GET", path: "/ws/jobs/{id}", tag: "jobs",
			summary: "WebSocket handshake of the live progress channel. Credentials: the session cookie (browsers; Origin must be this host), or the Authorization: Bearer or X-API-Key header (scripts); tokens in the URL are not accepted. " +
				"Messages are JobProgress JSON, sent on every change; the last one has final = true and the server closes with 1000. A revoked credential closes the stream with 1008 within 2 s.",
			responses: errs(map[int]string{101: "JobProgress"}, 401, 403, 404, 426, 429, 503)},
	}
}

func jobSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	nstr := map[string]any{"type": []string{"string", "null"}}
	num := map[string]any{"type": "number"}
	nnum := map[string]any{"type": []string{"number", "null"}}
	integer := map[string]any{"type": "integer"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	ndt := map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
	status := map[string]any{"type": "string", "enum": []string{"queued", "running", "cancelling", "succeeded", "failed", "cancelled"}}
	obj := objectSchema
	fnum := func(d string) map[string]any { return map[string]any{"type": "number", "description": d} }
	setup := obj([]string{"wind"}, map[string]any{
		"dt": fnum("time step, s (absent: not recorded)"),
		"wind": obj([]string{"kind"}, map[string]any{
			"kind":       map[string]any{"type": "string", "enum": []string{"steady", "file", "turbulent", "event"}},
			"speed":      fnum("hub-height mean wind speed, m/s (absent when a wind file sets it)"),
			"shear":      fnum("power-law shear exponent (steady wind, or a generated turbulent box)"),
			"file":       map[string]any{"type": "string", "description": "the wind file's name"},
			"turbulence": map[string]any{"type": "string", "description": "the generated turbulent field, e.g. \"NTM, class 1B (IEC Kaimal)\""},
			"event":      map[string]any{"type": "string", "description": "the IEC deterministic event, e.g. \"EOG\""},
		}),
		"waves": obj([]string{"model"}, map[string]any{
			"model": str, "hs": fnum("significant wave height, m"), "tp": fnum("peak period, s"), "direction": fnum("wave direction, deg"),
		}),
		"dlc":       map[string]any{"type": "string", "description": "design load case of a DLC batch run, e.g. 1.2"},
		"seed":      map[string]any{"type": "integer", "description": "seed number (from 1) of a turbulent DLC run"},
		"yaw":       fnum("yaw misalignment of a DLC run, deg"),
		"sweep":     map[string]any{"type": "object", "additionalProperties": num, "description": "the swept parameter values of a parametric batch run"},
		"floating":  map[string]any{"type": "boolean", "description": "true when the turbine stands on a floating platform (hydrodynamics on, no fixed substructure, a platform degree of freedom free); absent otherwise. Such a run starts with the platform at rest, so its plausibility checks and every analysis without t_start leave out a longer start-up transient (the first " + floatingTransient + " s)"},
		"transient": fnum("start-up transient of a DLC run, s: its DLC's as the batch stored it, which its analyses leave out"),
	})
	setup["description"] = "what the run simulates, read from its deck at submission; values the deck does not set are absent"
	job := obj([]string{"id", "name", "tags", "status", "entrypoint", "t_max", "sim_time", "percent", "attempt", "price_cents", "tokens", "output_files", "warnings", "checks", "created_at"},
		map[string]any{
			"name":               map[string]any{"type": "string", "description": "the run's name: given at submission, else derived (turbine or main file, DLC, wind, seed, e.g. \"NREL 5MW · DLC 1.2 · 12 m/s · seed 3\")"},
			"tags":               map[string]any{"type": "array", "items": str, "description": "free labels (PATCH /jobs/{id}; GET /jobs?tag=)"},
			"setup":              map[string]any{"oneOf": []any{setup, map[string]any{"type": "null"}}, "description": "null for jobs from before it was recorded"},
			"turbine_name":       map[string]any{"type": "string", "description": "the stored turbine's name (absent when none)"},
			"batch_name":         map[string]any{"type": "string", "description": "the batch's name (absent when none)"},
			"submitted_by_email": map[string]any{"type": "string", "description": "who ran it (absent when the account is gone)"},
			"id":                 str, "org_id": str, "status": status, "turbine_id": nstr, "batch_id": nstr, "entrypoint": str,
			"submitted_by": nstr, "client_id": map[string]any{"type": []string{"string", "null"}, "description": "API key Client ID when submitted with a key"},
			"created_at": dt, "started_at": ndt, "finished_at": ndt, "updated_at": dt,
			"sim_time": num, "t_max": num, "percent": num,
			"eta_seconds": map[string]any{"type": []string{"number", "null"}, "description": "wall seconds to the end, extrapolated from the run so far"},
			"attempt":     integer, "max_attempts": integer,
			"detail":       map[string]any{"type": []string{"string", "null"}, "description": "why the job failed or was cancelled; a deck error names file and line"},
			"price_cents":  integer,
			"tokens":       map[string]any{"type": "integer", "description": "ceil(steps × model size / 20,000), at least 1 (see the Job schema's description)"},
			"refunded_at":  ndt,
			"output_files": map[string]any{"type": "array", "items": str},
			"warnings": map[string]any{"type": "array", "items": str,
				"description": "the submitted deck's warnings, recorded with the job (empty when there were none, and for jobs submitted before warnings were recorded): the deck validator's findings that OpenFAST would run with but the engineer should check (e.g. mode-shape coefficients not adding up to 1, an AeroDyn tower taller than ElastoDyn's, airfoil tables not covering -180..180 deg, no unsteady-aero data with UA_Mod > 0, a Bladed-DLL controller without a ROSCO DISCON.IN that the built-in NREL 5 MW baseline replaces, ROSCO lines ignored), each \"file:line: variable: message\" with file relative to the deck's root folder (the ZIP's, or the turbine's stored files'), the line left out when the variable is not in the file (its default was taken); " +
					"for a run of a stored turbine they name the turbine's own files (as GET /turbines/{id} reports them), with the turbine builder's warnings first"},
			"checks": runChecksSchema(),
		})
	job["description"] = "States: queued → running → succeeded | failed; queued → cancelled (cancel before start, refunded); running → cancelling → cancelled. " +
		"A run whose worker dies is re-run on another worker as attempt+1 (charged once); after max_attempts it fails and is refunded. " +
		"A run the service stops on purpose (a shutdown, after JOB_SHUTDOWN_GRACE) goes back to queued with that attempt uncounted. " +
		"An organization runs at most its plan's number of jobs at once (Beta 2, Pro and Academic 8, Enterprise 32); more stay queued, and a free worker " +
		"goes first to the organization with the fewest runs going. " +
		"Billing: " + turbinesim.PricingRule
	runName := map[string]any{"type": "string", "description": "the run's name, at most 200 bytes; empty or absent: derived from the turbine (or main file) and the wind"}
	runTags := map[string]any{"type": "string", "description": "the run's tags, comma-separated"}
	return map[string]any{
		"Job": job,
		"JobPage": obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Job"}},
			"total": integer, "page": integer, "page_size": integer, "total_pages": integer,
		}),
		// The multipart forms of POST /jobs: a ZIP and its entrypoint, or a
		// stored turbine's run with an uploaded wind file.
		"JobUpload": map[string]any{"oneOf": []any{
			obj([]string{"file", "entrypoint"}, map[string]any{
				"file":       map[string]any{"type": "string", "format": "binary", "description": "ZIP of the simulation input files"},
				"entrypoint": map[string]any{"type": "string", "description": "path of the main .fst inside the ZIP"},
				"name":       runName,
				"tags":       runTags,
			}),
			obj([]string{"turbine_id", "settings", "wind_file"}, map[string]any{
				"turbine_id": str, "name": runName, "tags": runTags,
				"settings":  map[string]any{"type": "string", "description": "the JSON settings object of TurbineRunRequest, as text"},
				"wind_file": map[string]any{"type": "string", "format": "binary", "description": "TurbSim .bts box or uniform wind file"},
			}),
		}},
		"JobUpdate": obj([]string{}, map[string]any{
			"name":        map[string]any{"type": "string", "description": "new name, not empty"},
			"tags":        map[string]any{"type": "array", "items": str, "description": "replaces the tags"},
			"add_tags":    map[string]any{"type": "array", "items": str},
			"remove_tags": map[string]any{"type": "array", "items": str},
		}),
		"TurbineRunRequest": obj([]string{"turbine_id", "settings"}, map[string]any{
			"turbine_id": str,
			"name":       runName,
			"tags":       map[string]any{"type": "array", "items": str, "description": "labels of the run, 1-40 characters each without commas, at most 20"},
			"settings": obj([]string{"t_max", "wind"}, map[string]any{
				"t_max": map[string]any{"type": "number", "description": "simulated end time, s (0, 7200]; with dt at most 10,000,000 steps"},
				"dt":    map[string]any{"type": "number", "description": "time step, s, [0.0001, 1]; 0 or absent keeps the deck's (which must be within the same bounds)"},
				"wind": obj([]string{}, map[string]any{
					"speed": map[string]any{"type": "number", "description": "steady hub-height wind speed, m/s (0, 80]; required unless the wind comes from a file"},
					"shear": map[string]any{"type": "number", "description": "power-law shear exponent of steady wind [-1, 1]; absent keeps the deck's"},
					"file": obj([]string{"job_id", "path"}, map[string]any{
						"job_id": map[string]any{"type": "string", "description": "an earlier job of the organization"},
						"path": map[string]any{"type": "string", "description": "slash-separated path in that job's input files of a TurbSim .bts box " +
							"(InflowWind WindType 3) or a uniform wind file .wnd/.hh/.dat/.txt (WindType 2); not with speed or shear"},
					}),
				}),
			}),
		}),
		"JobProgress": obj([]string{"status", "sim_time", "t_max", "percent", "eta_seconds", "attempt", "final"}, map[string]any{
			"status": status, "sim_time": num, "t_max": num, "percent": num, "eta_seconds": nnum, "attempt": integer,
			"detail": str, "final": map[string]any{"type": "boolean"},
		}),
	}
}
