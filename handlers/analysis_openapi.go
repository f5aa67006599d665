package handlers

// analysisOperations documents the result endpoints (issue 9).
func analysisOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	jobErrs := []int{401, 404, 409, 429, 503}
	bodyErrs := append([]int{400, 413, 415, 422}, jobErrs...)
	const window = " t_start and t_end (s, optional) select the samples with t_start ≤ t ≤ t_end, e.g. t_start to skip the start-up transient."
	const batch = " A batch is the set of the caller's jobs with this batch_id; only succeeded jobs with an output take part (the others are listed in skipped); 404 when the organization has no job in the batch, 409 when none has finished. Each run is reduced over the query window t_start/t_end (s); without t_start each run of a DLC batch starts after its DLC's start-up transient as stored with the batch (60 s for turbulent cases, 30 s for events), as in the certification report. dlc=1.2,1.3 keeps only the runs of those design load cases (read from the run names, e.g. DLC1.2_V12.0_S3_Y+0; 422 when none has finished). Without dlc, a batch whose runs belong to several DLCs takes its lifetime DELs from DLC 1.2 (422 asking for dlc when it has none) and its curves and AEP from normal power production, DLC 1.1 and 1.2 (every run when it has neither), and its extremes from every run; dlcs in the answer names the DLCs used."
	const curveQuery = " Query: binning = iec (0.5 m/s bins centred on multiples of bin_width, IEC 61400-12-1 method of bins; default) or grid (one bin per distinct run wind speed: the nominal speed of a DLC run's name, e.g. DLC1.2_V12.0_S3_Y+0 → 12 m/s, so all seeds and yaw cases of one speed share its bin, else the run's mean of wind_channel; a bin's wind_speed and power_kw are still the means of the measured run means); bin_width (m/s); rotor_radius (m, for Cp and Ct; default: the batch turbine's swept radius, rotor diameter / 2 × cos precone, as AeroDyn's RtArea; when neither is known Cp, Ct and the reported rotor_radius are 0); air_density (kg/m³, default 1.225); wind_channel (default Wind1VelX; RtVAvgxh for sheared inflow)."
	const dist = " Wind distribution: distribution=rayleigh&mean_speed=V, or distribution=weibull&k=K&a=A (m/s), or class=I|II|III (IEC Rayleigh, V_ave = 0.2·V_ref; the default is class I)."
	const csv = " CSV with Accept: text/csv or ?format=csv."
	return []apiOperation{
		{method: "GET", path: "/analysis/jobs/{id}/channels", tag: "analysis",
			summary:   "Names and units of a succeeded job's output channels (its first .outb, else .out). The file is parsed once and kept in a columnar cache. 409 while the job has no output.",
			responses: errs(map[int]string{200: "ChannelList"}, jobErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/time-series", tag: "analysis",
			summary: "Samples of some channels. method = decimate (default: every downsample_factor-th sample from the window's first; no low-pass filter) or envelope (the window is split into buckets of downsample_factor samples and each contributes its minimum and maximum in time order, so peaks survive; each series then has its own time). " +
				"channels × points must not exceed 400 000 (422 names the smallest sufficient downsample_factor). Unknown channels are 422 listing them." + window + csv + " Decimated CSV is wide (Time (s), then \"name (unit)\" per channel); envelope CSV is long (channel, unit, time, value).",
			request: "TimeSeriesRequest", responses: errs(map[int]string{200: "TimeSeries"}, bodyErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/statistics", tag: "analysis",
			summary: "Min, max, mean and population standard deviation per channel (all channels by default); optionally the times of the extremes (first occurrence), skewness and Pearson kurtosis, and short-term DELs for the given Wöhler exponents (rainflow per ASTM E1049, f_eq = 1 Hz: DEL = (Σ nᵢ Sᵢᵐ / T)^(1/m))." + window + csv,
			request: "StatisticsRequest", responses: errs(map[int]string{200: "StatisticsResponse"}, bodyErrs...)},
		{method: "GET", path: "/analysis/jobs/{id}/output/download", tag: "analysis",
			summary:   "The job's original output file (.outb or .out) as an application/octet-stream attachment.",
			responses: errs(map[int]string{200: ""}, jobErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/spectrum", tag: "analysis",
			summary: "Spectra of 1 to 10 channels. method = welch (default): one-sided power spectral density (unit²/Hz) by Welch's method; window hann (default), hamming, blackman or rectangular; segment_length in samples (0: the largest power of two ≤ N/4, or N below 256 samples); overlap fraction in [0, 0.95] (default 0.5); detrend none, mean (default) or linear per segment. " +
				"method = fft: single-sided amplitude spectrum of the whole window (channel units; a cosine of amplitude A shows A). Harmonics 1P, 3P, 6P from the mean RotSpeed (rpm) over the window, when the output has RotSpeed." + window + csv + " CSV: Frequency (Hz), then one column per channel (PSD or amplitude with its unit); the harmonics are JSON only.",
			request: "SpectrumRequest", responses: errs(map[int]string{200: "SpectrumResponse"}, bodyErrs...)},
		{method: "GET", path: "/analysis/batches/{id}/power-curve", tag: "analysis",
			summary:   "Power curve of a batch: each run's means (power GenPwr, thrust RotThrust, pitch BldPitch1, rotor speed RotSpeed) binned by wind speed, with Cp and Ct (rotor_radius below). A bin's high edge is null when unbounded (grid binning of a single wind speed)." + batch + curveQuery + csv,
			responses: errs(map[int]string{200: "BatchCurves"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/curves", tag: "analysis",
			summary:   "The power, thrust, Cp, Ct, pitch and rotor-speed curves of a batch: the power-curve answer plus series, one array per quantity over the bins." + batch + curveQuery + csv,
			responses: errs(map[int]string{200: "BatchCurves"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/aep", tag: "analysis",
			summary:   "Annual energy production from the batch's power curve: AEP = 8760 h · Σ [F(V̄ᵢ) − F(V̄ᵢ₋₁)]·(P̄ᵢ₋₁ + P̄ᵢ)/2 up to the last bin (IEC 61400-12-1 measured AEP, availability 100 %)." + dist + batch + curveQuery,
			responses: errs(map[int]string{200: "BatchAEP"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/del", tag: "analysis",
			summary:   "Damage-equivalent loads: per channel (channels=a,b; default all) and Wöhler exponent (exponents=3,4,10, required) each run's short-term DEL at f_eq = 1 Hz and the lifetime DEL (Σⱼ pⱼ·DELⱼᵐ)^(1/m), pⱼ the probability of the run's wind-speed bin split equally across the runs in the bin (seeds, yaw cases), normalised over the batch; a run's bin speed (runs[].wind_speed) is the nominal speed of its DLC run name (DLC1.2_V12.0_S3_Y+0: 12 m/s), so every seed of one speed shares its bin, else the run's mean of wind_channel (default Wind1VelX); bin edges are the mid-points between neighbouring speeds, the outer ones half a spacing out; arithmetic_mean Σⱼ pⱼ·DELⱼ is shown for comparison only." + dist + batch + csv,
			responses: errs(map[int]string{200: "BatchDELs"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/extremes", tag: "analysis",
			summary:   "Extreme-load table: the maximum and minimum of each channel (channels=a,b; default all) over the batch, the run and time where it occurs, and the concurrent values of the concurrent=... channels (default: the same channels) at that instant. Characteristic loads by default; gamma_f=dlc gives design loads with each run's DLC factor from the IEC 61400-1 table (422 when a run is not named after a known DLC; DLC 1.1 takes the normal factor 1.35, since its table factor 1.25 is for loads extrapolated to a 50-year recurrence and these extremes are the simulated maxima), gamma_f=<number in [1, 3]> applies one factor to every run (safety_factor and design = γ_f·characteristic in each row; the governing run is the one with the largest design value). dlc is read from the run name (e.g. DLC1.2_V12.0_S3_Y+0) when the batch service named the run." + batch + csv,
			responses: errs(map[int]string{200: "BatchExtremes"}, 401, 404, 409, 422, 429, 503)},
	}
}

func analysisSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	num := map[string]any{"type": "number"}
	nnum := map[string]any{"type": []string{"number", "null"}}
	integer := map[string]any{"type": "integer"}
	nums := map[string]any{"type": "array", "items": num}
	strs := map[string]any{"type": "array", "items": str}
	obj := objectSchema
	arr := func(items any) map[string]any { return map[string]any{"type": "array", "items": items} }
	del := obj([]string{"exponent", "value", "equivalent_cycles", "damage_sum"}, map[string]any{
		"exponent": num, "value": map[string]any{"type": "number", "description": "channel units"},
		"equivalent_cycles": num, "damage_sum": map[string]any{"type": "number", "description": "Σ nᵢ Sᵢᵐ"}})
	harmonic := obj([]string{"label", "order", "frequency"}, map[string]any{"label": str, "order": integer, "frequency": map[string]any{"type": "number", "description": "Hz"}})
	bin := obj([]string{"center", "n", "wind_speed", "power_kw"}, map[string]any{
		"center": num, "low": num, "high": num, "n": integer, "wind_speed": num, "power_kw": num, "thrust_kn": num,
		"pitch_deg": num, "rotor_speed_rpm": num, "cp": num, "ct": num})
	curve := obj([]string{"bins"}, map[string]any{"bins": arr(bin), "air_density": num, "rotor_area": num,
		"has_thrust": map[string]any{"type": "boolean"}, "has_pitch": map[string]any{"type": "boolean"}, "has_rotor_speed": map[string]any{"type": "boolean"}})
	return map[string]any{
		"ChannelList": arr(obj([]string{"name", "unit"}, map[string]any{"name": str, "unit": str})),
		"TimeSeriesRequest": obj([]string{"channels"}, map[string]any{
			"channels":          strs,
			"downsample_factor": map[string]any{"type": "integer", "minimum": 1, "default": 1},
			"method":            map[string]any{"type": "string", "enum": []string{"decimate", "envelope"}, "default": "decimate"},
			"t_start":           nnum, "t_end": nnum}),
		"TimeSeries": obj([]string{"method", "downsample_factor", "rows", "series"}, map[string]any{
			"method": str, "downsample_factor": integer,
			"rows": map[string]any{"type": "integer", "description": "samples in the window before downsampling"},
			"time": map[string]any{"type": "array", "items": num, "description": "s; shared by every series (decimate only)"},
			"series": arr(obj([]string{"name", "unit", "values"}, map[string]any{"name": str, "unit": str, "values": nums,
				"time": map[string]any{"type": "array", "items": num, "description": "s; this series' own instants (envelope only)"}}))}),
		"StatisticsRequest": obj([]string{}, map[string]any{
			"channels": map[string]any{"type": "array", "items": str, "description": "default: every channel"},
			"t_start":  nnum, "t_end": nnum,
			"wohler_exponents":       map[string]any{"type": "array", "items": num, "description": "gives short-term DELs, e.g. [3, 4, 10]"},
			"include_extreme_times":  map[string]any{"type": "boolean"},
			"include_higher_moments": map[string]any{"type": "boolean"}}),
		"StatisticsResponse": obj([]string{"t_start", "t_end", "channels"}, map[string]any{
			"t_start": num, "t_end": num,
			"channels": arr(obj([]string{"name", "unit", "n", "min", "max", "mean", "std"}, map[string]any{
				"name": str, "unit": str, "n": integer, "min": num, "max": num, "mean": num,
				"std":         map[string]any{"type": "number", "description": "population standard deviation (divide by N)"},
				"time_of_min": num, "time_of_max": num, "skewness": num,
				"kurtosis": map[string]any{"type": "number", "description": "Pearson kurtosis (3 for a Gaussian)"},
				"dels":     arr(del)}))}),
		"SpectrumRequest": obj([]string{}, map[string]any{
			"channel": str, "channels": strs,
			"method":         map[string]any{"type": "string", "enum": []string{"welch", "fft"}, "default": "welch"},
			"window":         map[string]any{"type": "string", "enum": []string{"hann", "hamming", "blackman", "rectangular"}, "default": "hann"},
			"segment_length": map[string]any{"type": "integer", "minimum": 0},
			"overlap":        map[string]any{"type": "number", "minimum": 0, "maximum": 0.95, "default": 0.5},
			"detrend":        map[string]any{"type": "string", "enum": []string{"none", "mean", "linear"}, "default": "mean"},
			"t_start":        nnum, "t_end": nnum}),
		"SpectrumResponse": obj([]string{"method", "detrend", "spectra", "harmonics"}, map[string]any{
			"method": str, "window": str, "detrend": str,
			"spectra": arr(obj([]string{"name", "unit", "frequency", "values", "resolution"}, map[string]any{
				"name": str, "unit": str, "frequency": map[string]any{"type": "array", "items": num, "description": "Hz"},
				"values":     map[string]any{"type": "array", "items": num, "description": "amplitude (fft, channel units) or PSD (welch, unit²/Hz)"},
				"resolution": num, "segment_length": integer, "segments": integer})),
			"mean_rotor_speed_rpm": num,
			"harmonics":            arr(harmonic)}),
		"BatchCurves": obj([]string{"batch_id", "runs", "skipped", "curve"}, map[string]any{
			"batch_id": str, "runs": integer, "skipped": strs, "curve": curve,
			"dlcs": map[string]any{"type": "array", "items": str, "description": "design load cases of the runs binned"},
			"series": map[string]any{"type": "object", "additionalProperties": nums,
				"description": "curves only: wind_speed, power_kw, thrust_kn, cp, ct, pitch_deg, rotor_speed_rpm, n"}}),
		"BatchAEP": obj([]string{"batch_id", "aep", "curve"}, map[string]any{
			"batch_id": str, "distribution": obj([]string{"kind"}, map[string]any{"kind": map[string]any{"type": "string", "enum": []string{"rayleigh", "weibull"}},
				"mean_speed": num, "k": num, "a": num}),
			"aep": obj([]string{"mwh_per_year"}, map[string]any{"mwh_per_year": num, "hours": num, "up_to_speed": num}), "curve": curve}),
		"BatchDELs": obj([]string{"batch_id", "skipped", "channels"}, map[string]any{
			"batch_id": str, "skipped": strs,
			"dlcs": map[string]any{"type": "array", "items": str, "description": "design load cases of the runs used"},
			"channels": arr(obj([]string{"channel", "runs", "lifetime"}, map[string]any{
				"channel": str, "unit": str,
				"runs": arr(obj([]string{"id", "wind_speed", "duration", "dels"}, map[string]any{"id": str, "wind_speed": num, "duration": num, "dels": arr(del)})),
				"lifetime": arr(obj([]string{"exponent", "del"}, map[string]any{"exponent": num, "del": num, "arithmetic_mean": num,
					"weights": map[string]any{"type": "object"}}))}))}),
		"BatchExtremes": obj([]string{"batch_id", "skipped", "extremes"}, map[string]any{
			"batch_id": str, "skipped": strs,
			"extremes": arr(obj([]string{"channel", "kind", "characteristic", "run_id", "time"}, map[string]any{
				"channel": str, "unit": str, "kind": map[string]any{"type": "string", "enum": []string{"max", "min"}},
				"characteristic": num, "safety_factor": num, "design": num,
				"run_id": map[string]any{"type": "string", "description": "job id"}, "dlc": str, "time": num,
				"concurrent": arr(obj([]string{"channel", "value"}, map[string]any{"channel": str, "unit": str, "value": num}))}))}),
	}
}
