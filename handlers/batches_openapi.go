package handlers

import "github.com/turbinesim/turbinesim/solver/dlc"

// batchOperations documents the batch endpoints.
func batchOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	return []apiOperation{
		{method: "POST", path: "/dlcs/batch-submit", tag: "batches",
			summary: "Submit a design load basis for a stored turbine: the IEC 61400-1 DLCs are expanded into runs (solver/dlc) and every run is checked " +
				"(wind model and grid, yaw, timing, the deck's hub height; 422 naming the run otherwise), then the batch with all its jobs is " +
				"created in one transaction with ONE charge for the whole batch: 402 when the batch would pass the spend or token cap, and then nothing is created. " +
				"At most 500 runs per batch (422 beyond). No wind is generated in the request: each job stores its run's recipe and shares one copy of the turbine's deck, " +
				"and each attempt's solver process generates the run's wind file (TurbSim box or uniform-wind event file, deterministic from the run's seed, so a retried attempt makes the same file) " +
				"and deck before it simulates, within the run's limits (wall time, CPU time, memory; a run whose wind cannot be made fails with a detail saying so and is refunded); meanwhile the job is running at 0 %, and its log starts with a line naming the generated wind (model, V_hub, seed, grid). " +
				"Answers 201 with the batch (run_count, price, progress, and once the turbine deck's warnings) and Location /batches/{id}.",
			request: "DLCBatchRequest", responses: errs(map[int]string{201: "Batch"}, 401, 402, 403, 404, 413, 415, 422, 429, 503)},
		{method: "POST", path: "/dlcs/preview", tag: "batches",
			summary: "The load-basis table, run count and price of a DLC batch request, without submitting (the wizard's live preview), and the turbine deck's warnings (warnings: findings OpenFAST would run with but an engineer should check, file:line: variable: message; the same the submission returns; [] for a clean deck)",
			request: "DLCBatchRequest", responses: errs(map[int]string{200: "DLCPreview"}, 401, 404, 413, 415, 422, 429, 503)},
		{method: "POST", path: "/parametric/batch-submit", tag: "batches",
			summary: "Verified accounts only (403 otherwise): sweep scalar parameters of a stored turbine's deck or of the run (names of solver/dlc.SweepParamNames: " +
				"air_density, blade_pitch, nacelle_yaw, rotor_speed, shear_exponent, t_max, wind_speed, yaw_misalignment, …) over lists or ranges, full factorial " +
				"(the last parameter varies fastest; at most 500 points), as one batch with one charge (402 all or nothing); the 201 response carries the turbine deck's warnings once",
			request: "ParametricBatchRequest", responses: errs(map[int]string{201: "Batch"}, 401, 402, 403, 404, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/batches", tag: "batches", summary: "The organization's batches, newest first, with progress; query page, page_size (default 20, max 100; larger is 422)",
			responses: errs(map[int]string{200: "BatchPage"}, 401, 422, 429, 503)},
		{method: "GET", path: "/batches/{id}", tag: "batches",
			summary:   "One batch with its progress (runs done / total, failed, percent of simulated time, ETA) and its runs (name, job id, status); another organization's batch is 404. The HTML page (Accept: text/html) of a DLC batch takes events_per_year=3.1:N,4.1:N from its form field and carries it to its report, results and spectra links; a malformed count or a DLC the batch lacks is shown next to the field and left out (the JSON answer ignores it)",
			responses: errs(map[int]string{200: "BatchDetail"}, 401, 404, 429, 503)},
		{method: "GET", path: "/ws/batches/{id}", tag: "batches",
			summary: "WebSocket handshake of the batch's live progress (credentials as /ws/jobs/{id}). Messages are BatchProgressMessage JSON, sent on every change; " +
				"the last one has final = true (every run finished) and the server closes with 1000",
			responses: errs(map[int]string{101: "BatchProgressMessage"}, 401, 403, 404, 426, 429, 503)},
		{method: "GET", path: "/reports/batches/{id}", tag: "batches",
			summary: "Verified accounts only (403 otherwise): the certification report of a finished DLC batch as a self-contained HTML page (text/html), " +
				"or as PDF (application/pdf, printed by headless Chromium) with ?format=pdf or Accept: application/pdf. Contents: design basis (class, category, V_ref, I_ref), " +
				"model summary, DLC table with run counts, extreme loads per sensor (characteristic, γ_f, design, governing run and time, concurrent values), " +
				"lifetime DELs per sensor for m = 3, 4, 5, 10 per fatigue DLC, power curve and AEP (class Rayleigh), failed runs. " +
				"Runs that failed a plausibility check of severity error (GET /jobs/{id} checks: overspeed, actuator rates, deflections, non-finite outputs, divergence) are left out of every load, curve and energy figure and listed in § 7 with the reasons; include_flagged=true uses them anyway and lists them as included (true or false; 422 otherwise). " +
				"events_per_year=3.1:1000,4.1:1000 (dlc:count per year, DLC 3.1 start-up and 4.1 shut-down only, counts finite ≥ 0; 422 otherwise) adds those DLCs' damage per event (the mean over each DLC's wind speeds of the mean over its seeds, times the events per year) to the lifetime DELs of the main fatigue DLC (1.2 when present), as /analysis/batches/{id}/del does; without it they are left out and the report says so. 409 while runs are unfinished, 422 for a parametric batch.",
			responses: errs(map[int]string{200: ""}, 401, 403, 404, 409, 422, 429, 503)},
	}
}

func batchSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	nstr := map[string]any{"type": []string{"string", "null"}}
	num := map[string]any{"type": "number"}
	integer := map[string]any{"type": "integer"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	numArr := map[string]any{"type": "array", "items": num}
	obj := objectSchema
	desc := func(s map[string]any, d string) map[string]any {
		c := map[string]any{}
		for k, v := range s {
			c[k] = v
		}
		c["description"] = d
		return c
	}
	progress := obj([]string{"status", "total", "done", "failed", "percent"}, map[string]any{
		"status": desc(str, "derived from the jobs: queued, running, succeeded, failed (finished with a failed run), cancelled"),
		"total":  integer, "queued": integer, "running": integer, "succeeded": integer, "failed": integer, "cancelled": integer,
		"done":     desc(integer, "runs finished in any way"),
		"percent":  desc(num, "simulated seconds reached over requested, finished runs in full"),
		"sim_time": num, "t_max": num,
		"eta_seconds": map[string]any{"type": []string{"number", "null"},
			"description": "wall seconds to the end at the pace the batch has shown since its first run started"},
	})
	batch := obj([]string{"id", "kind", "name", "run_count", "price_cents", "tokens", "progress", "created_at"}, map[string]any{
		"id": str, "org_id": str, "kind": map[string]any{"type": "string", "enum": []string{"dlc", "parametric"}},
		"turbine_id": nstr, "name": str,
		"request":     map[string]any{"type": "object", "description": "the expanded request as stored (DLC: request and runs; parametric: request and points)"},
		"run_count":   integer,
		"price_cents": desc(integer, "the one charge of the batch: the sum of its runs' prices"),
		"tokens":      integer, "submitted_by": nstr, "created_at": dt, "updated_at": dt,
		"progress": progress,
		"warnings": desc(map[string]any{"type": "array", "items": str},
			"in the 201 response of a submission only (absent when there is none): the warnings of the turbine's deck every run starts from, as GET /turbines/{id} reports them, said once for the batch"),
	})
	override := obj(nil, map[string]any{
		"speeds": numArr, "seeds": integer, "yaw": numArr,
		"duration":  desc(num, "analysis window, s"),
		"transient": desc(num, "seconds discarded at the start; without it the DLC table's (60 s for turbulent cases, 30 s for events), raised on a floating platform to at least 100 s for cases that start operating (each run starts with the platform at its static equilibrium under the run's mean rotor load from the deck's ROSCO performance table, and the controller's start-up still sets it moving) and 200 s for cases that start parked or idling (whose equilibrium leaves out the wind's drag) and for every case of a deck without that table, since the platform's slow motions outlast the rotor's start-up"),
	})
	detail := obj([]string{"id", "progress", "runs"}, map[string]any{})
	for k, v := range batch["properties"].(map[string]any) {
		detail["properties"].(map[string]any)[k] = v
	}
	detail["properties"].(map[string]any)["runs"] = map[string]any{"type": "array", "items": obj([]string{"run", "job_id", "status"}, map[string]any{
		"run": desc(str, "run name, e.g. DLC1.2_V12.0_S3_Y+0 or a sweep point id"), "job_id": str, "status": str, "percent": num, "detail": nstr,
		"checks": runChecksSchema(),
	})}
	msg := obj([]string{"status", "total", "done", "final"}, map[string]any{})
	for k, v := range progress["properties"].(map[string]any) {
		msg["properties"].(map[string]any)[k] = v
	}
	msg["properties"].(map[string]any)["final"] = map[string]any{"type": "boolean"}
	seaState := obj([]string{"wind_speed", "hs", "tp"}, map[string]any{
		"wind_speed": desc(num, "hub-height mean wind speed, m/s"),
		"hs":         desc(num, "significant wave height, m (0 to 30)"),
		"tp":         desc(num, "peak spectral period, s (0 to 50)"),
		"wave_dir":   desc(num, "wave propagation heading, deg (−180 to 180; default 0)"),
	})
	return map[string]any{
		"BatchProgressMessage": msg,
		"Batch":                batch,
		"BatchDetail":          detail,
		"BatchPage": obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Batch"}},
			"total": integer, "page": integer, "page_size": integer, "total_pages": integer,
		}),
		"DLCBatchRequest": obj([]string{"turbine_id", "dlcs", "class", "category"}, map[string]any{
			"turbine_id":    str,
			"name":          str,
			"dlcs":          map[string]any{"type": "array", "items": str, "description": "DLC ids of the table: 1.1, 1.2, 1.3, 1.4, 1.5, 2.1 (grid loss), 2.2b (shut-down with a stuck blade), 2.3, 2.4 (±20° yaw error, fatigue), 3.1, …, 6.1, 6.2, 6.3, 6.4, 7.1, 8.1 (2.2p pitch runaway is not offered: the solver has no overspeed detection to end it)"},
			"class":         map[string]any{"type": "string", "enum": []string{"I", "II", "III"}},
			"category":      map[string]any{"type": "string", "enum": []string{"A+", "A", "B", "C"}},
			"seeds_per_bin": desc(integer, "replaces the table's seeds of every turbulent DLC"),
			"speed_step":    desc(num, "wind-speed step of stepped ranges, m/s (default 2)"),
			"batch_seed":    desc(integer, "makes the turbulence seeds; the same request and batch seed give the same winds"),
			"overrides":     map[string]any{"type": "object", "additionalProperties": override, "description": "by DLC id"},
			"grid": obj(nil, map[string]any{
				"points": desc(integer, "n × n turbulence grid (default 25)"), "margin": num, "dt": desc(num, "time step of the wind files, s (default 0.05)"),
			}),
			"turbine": obj(nil, map[string]any{
				"hub_height": num, "rotor_diameter": num, "v_in": num, "v_rated": num, "v_out": num, "rated_rotor_speed": num, "v_maint": num,
			}),
			"sea_states": map[string]any{"type": "array", "items": seaState, "maxItems": 100,
				"description": "offshore turbines (a deck with a SeaState file): the site's normal sea state (IEC 61400-3-1 NSS) per hub-height wind speed, wind speeds increasing. Every run gets irregular JONSWAP waves (SeaState WaveMod 2) with the Hs, Tp and heading of its wind speed (linear between rows, the nearest row outside the table) and its own wave seed (WaveSeed(1); the yaw cases of one wind seed share it), written into its SeaState file with WaveTMax at least the run's length. Required for a turbine with a SeaState file unless every DLC asked is an extreme-wind one served by extreme_sea_state: IEC 61400-3-1 takes the normal sea state from the site's long-term wind and wave data and gives no formula for Hs or Tp at a wind speed, so none is assumed (omitted: 422 saying so). Runs in the extreme wind model (DLC 6.1, 6.2, 6.3, 7.1) take extreme_sea_state instead. Given for a turbine without a SeaState file: 422"},
			"extreme_sea_state": obj([]string{"hs50", "tp50"}, map[string]any{
				"hs50":     desc(num, "the site's 50-year significant wave height, m (0 to 30]: the sea of the runs in the 50-year extreme wind (EWM50: DLC 6.1, 6.2)"),
				"tp50":     desc(num, "peak spectral period with hs50, s (0 to 50]"),
				"hs1":      desc(num, "the site's 1-year significant wave height, m, at most hs50: the sea of the runs in the 1-year extreme wind (EWM1: DLC 6.3, 7.1); required when those DLCs are asked"),
				"tp1":      desc(num, "peak spectral period with hs1, s; given with hs1"),
				"wave_dir": desc(num, "wave propagation heading of the extreme sea states, deg (−180 to 180; default 0)"),
			}),
		}),
		"DLCPreview": obj([]string{"runs", "basis", "quote", "warnings"}, map[string]any{
			"runs": integer,
			"sea_states": map[string]any{"type": "array", "description": "the sea states the runs get, one per kind and wind speed, with the DLCs that get each (absent without sea_states or extreme_sea_state in the request)",
				"items": obj([]string{"kind", "dlcs", "wind_speed", "hs", "tp"}, map[string]any{
					"kind":       map[string]any{"type": "string", "enum": []string{string(dlc.NormalSea), string(dlc.ExtremeSea50), string(dlc.ExtremeSea1)}, "description": "IEC 61400-3-1 normal sea state of the wind speed, or the 50-year or 1-year extreme sea state"},
					"dlcs":       map[string]any{"type": "array", "items": str},
					"wind_speed": desc(num, "hub-height mean wind speed of the runs, m/s"),
					"hs":         desc(num, "significant wave height, m"),
					"tp":         desc(num, "peak spectral period, s"),
					"wave_dir":   desc(num, "wave propagation heading, deg"),
				})},
			"warnings": map[string]any{"type": "array", "items": str, "description": "the turbine deck's warnings, as the submission's"},
			"basis": map[string]any{"type": "array", "items": obj([]string{"dlc", "runs"}, map[string]any{
				"dlc": str, "state": str, "wind": str, "runs": integer, "wind_speeds": numArr, "seeds": integer, "yaw": numArr,
				"analysis": str, "psf": str, "gamma_f": num, "simulated_time": num, "analysed_time": num,
			})},
			"quote": obj([]string{"runs", "tokens", "price_cents", "fits"}, map[string]any{
				"runs": integer, "tokens": integer, "price_cents": integer, "remaining_cents": integer, "remaining_tokens": integer,
				"fits": map[string]any{"type": "boolean", "description": "whether the batch fits the caps now"},
			}),
		}),
		"ParametricBatchRequest": obj([]string{"turbine_id", "parameters"}, map[string]any{
			"turbine_id": str, "name": str,
			"t_max": desc(num, "simulated seconds of every run unless t_max is swept (default: the deck's)"),
			"base":  map[string]any{"type": "object", "additionalProperties": num, "description": "parameters set in every run"},
			"parameters": map[string]any{"type": "array", "items": obj([]string{"name"}, map[string]any{
				"name": str, "values": numArr, "start": num, "stop": num, "step": num,
			}), "description": "each a list of values, or start/stop/step (inclusive)"},
		}),
	}
}
