package handlers

import "github.com/turbinesim/turbinesim/results"

// analysisOperations documents the result endpoints.
func analysisOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	jobErrs := []int{401, 404, 409, 429, 503}
	bodyErrs := append([]int{400, 413, 415, 422}, jobErrs...)
	const window = " t_start and t_end (s, optional) select the samples with t_start ≤ t ≤ t_end."
	// analysed: the default window of the answers that reduce a run.
	analysed := window + " Without t_start the start-up transient is left out: a run starts from the deck's initial conditions, not from the operating state, so the answer starts at the first sample 30 s after the run's first, or " + floatingTransient + " s after it when the run's turbine stands on a floating platform (setup.floating of GET /jobs/{id}: the platform, released at rest at its undisplaced position, drifts and swings at its surge and pitch periods for minutes), the first half of a run shorter than twice that; a run of a DLC batch starts after its DLC's transient (setup.transient), as its batch's answers. t_start=0 keeps the whole run. analysis_window in the answer states the window used (t_start, t_end, reason, detail)."
	batch := " A batch is the set of the caller's jobs with this batch_id; only succeeded jobs with an output take part (the others are listed in skipped); 404 when the organization has no job in the batch, 409 when none has finished. Each run is reduced over the query window t_start/t_end (s); without t_start the start-up transient of every run is left out: each run of a DLC batch starts after its DLC's start-up transient as stored with the batch (60 s for turbulent cases, 30 s for events; on a floating platform at least 100 s for cases that start operating at the platform's loaded equilibrium and 200 s for the others), as in the certification report, and every other run (parametric sweeps, jobs sharing a batch_id) after its own start-up transient as a single job's: 30 s after its start, " + floatingTransient + " s on a floating platform (the first half of a run shorter than twice that; analysis_window.detail names each when the runs differ); t_start=0 keeps the whole runs. analysis_window in the answer states the window (t_start or t_start_by_dlc, t_end, reason, detail). dlc=1.2,1.3 keeps only the runs of those design load cases (read from the run names, e.g. DLC1.2_V12.0_S3_Y+0; 422 when none has finished). Without dlc, a batch whose runs belong to several DLCs takes its lifetime DELs from DLC 1.2 (422 asking for dlc when it has none) and its curves and AEP from normal power production, DLC 1.1 and 1.2, else 1.3, never from events (gusts, shears, faults, start-ups, stops, parked; 422 'no power curve' for a batch of events only; a sweep or a batch without DLC run names bins every run), and its extremes (/extremes) from the ultimate-load DLCs, as the next entry says; dlcs in the answer names the DLCs used. A finished run that failed a plausibility check of severity error (GET /jobs/{id} checks: overspeed, actuator rates, deflections, non-finite outputs, divergence) is left out and listed in excluded with the reasons; include_flagged=true keeps it (true or false; 422 otherwise); 409 when every finished run is flagged."
	const curveQuery = " Query: binning = iec (0.5 m/s bins centred on multiples of bin_width, IEC 61400-12-1 method of bins; default) or grid (one bin per distinct run wind speed: the nominal speed of a DLC run's name, e.g. DLC1.2_V12.0_S3_Y+0 → 12 m/s, so all seeds and yaw cases of one speed share its bin, else the run's mean of wind_channel; a bin's wind_speed and power_kw are still the means of the measured run means); bin_width (m/s); rotor_radius (m, for Cp and Ct; default: the batch turbine's swept radius, rotor diameter / 2 × cos precone, as AeroDyn's RtArea; when neither is known Cp, Ct and the reported rotor_radius are 0); air_density (kg/m³, default 1.225); wind_channel (default Wind1VelX; RtVAvgxh for sheared inflow)."
	const dist = " Wind distribution: distribution=rayleigh&mean_speed=V, or distribution=weibull&k=K&a=A (m/s), or class=I|II|III (IEC Rayleigh, V_ave = 0.2·V_ref). Without any of them, the IEC Rayleigh distribution of the batch's own turbine class (DLC batches), else of class I; every batch analysis (AEP, DELs, Markov, load-duration, extrapolated extremes, the certification report) defaults the same way, and distribution in the answer states the one used (class, and source: query, batch_class or default_class)."
	const csv = " CSV with Accept: text/csv or ?format=csv."
	return []apiOperation{
		{method: "GET", path: "/analysis/jobs/{id}/channels", tag: "analysis",
			summary:   "Names and units of a succeeded job's output channels (its first .outb, else .out). The file is parsed once and kept in a columnar cache. 409 while the job has no output.",
			responses: errs(map[int]string{200: "ChannelList"}, jobErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/time-series", tag: "analysis",
			summary: "Samples of some channels. method = decimate (default: every downsample_factor-th sample from the window's first; no low-pass filter) or envelope (the window is split into buckets of downsample_factor samples and each contributes its minimum and maximum in time order, so peaks survive; each series then has its own time). " +
				"channels × points must not exceed 400 000 (422 names the smallest sufficient downsample_factor). Unknown channels are 422 listing them." + window + " Time series and exports keep the whole run by default (no start-up transient removed)." + csv + " Decimated CSV is wide (Time (s), then \"name (unit)\" per channel); envelope CSV is long (channel, unit, time, value).",
			request: "TimeSeriesRequest", responses: errs(map[int]string{200: "TimeSeries"}, bodyErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/statistics", tag: "analysis",
			summary: "Min, max, mean and population standard deviation per channel (all channels by default); optionally the times of the extremes (first occurrence), skewness and Pearson kurtosis, and short-term DELs for the given Wöhler exponents (rainflow per ASTM E1049, f_eq = 1 Hz: DEL = (Σ nᵢ Sᵢᵐ / T)^(1/m)). " +
				"ultimate_loads {\"channel\": S_u, ...} (channel units, > 0; needs wohler_exponents) applies the Goodman mean-load correction to those channels' cycles, S_eq = S/(1 − S_m/S_u); each row with DELs states goodman true/false and its ultimate_load; 422 naming the channel when a cycle's mean S_m ≥ S_u or the channel is not analysed." + analysed + csv + " The CSV gains an ultimate_load column when ultimate_loads are given.",
			request: "StatisticsRequest", responses: errs(map[int]string{200: "StatisticsResponse"}, bodyErrs...)},
		{method: "GET", path: "/analysis/jobs/{id}/output/download", tag: "analysis",
			summary:   "The job's original output file (.outb or .out) as an application/octet-stream attachment.",
			responses: errs(map[int]string{200: ""}, jobErrs...)},
		{method: "GET", path: "/analysis/jobs/{id}/export", tag: "analysis",
			summary: "Selected channels of the job's output over a window as a file, an attachment named after the output, job and window: format=out (OpenFAST's tab-separated text output, values ES15.6E3), csv (\"Time (s)\", then \"name (unit)\" per channel) or mat (MATLAB Level 5 MAT-file, little-endian: Channels, an N×(1+n) double matrix with time in its first column, and ChanName and ChanUnit, character matrices naming each column and its unit). " +
				"channels=a,b (default: every channel not INVALID; INVALID ones are exported only when named), t_start and t_end (s), downsample_factor (every k-th sample, default 1). At most 20 000 000 values (rows × channels); over it the 422 names the downsample_factor that fits. 422 for another format, an unknown channel or a malformed number.",
			responses: errs(map[int]string{200: ""}, 401, 404, 409, 422, 429, 503)},
		{method: "POST", path: "/analysis/jobs/{id}/spectrum", tag: "analysis",
			summary: "Spectra of 1 to 10 channels. method = welch (default): one-sided power spectral density (unit²/Hz) by Welch's method; window hann (default), hamming, blackman or rectangular; segment_length in samples (0: the largest power of two ≤ N/4, or N below 256 samples); overlap fraction in [0, 0.95] (default 0.5); detrend none, mean (default) or linear per segment. " +
				"method = fft: single-sided amplitude spectrum of the whole window (channel units; a cosine of amplitude A shows A). Harmonics 1P, 3P, 6P from the mean RotSpeed (rpm) over the window, when the output has RotSpeed." + analysed + csv + " CSV: Frequency (Hz), then one column per channel (PSD or amplitude with its unit); the harmonics are JSON only.",
			request: "SpectrumRequest", responses: errs(map[int]string{200: "SpectrumResponse"}, bodyErrs...)},
		{method: "GET", path: "/analysis/batches/{id}/power-curve", tag: "analysis",
			summary:   "Power curve of a batch: each run's means (power GenPwr, thrust RotThrust, pitch BldPitch1, rotor speed RotSpeed) binned by wind speed, with Cp and Ct (rotor_radius below). A bin's high edge is null when unbounded (grid binning of a single wind speed)." + batch + curveQuery + csv,
			responses: errs(map[int]string{200: "BatchCurves"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/curves", tag: "analysis",
			summary:   "The power, thrust, Cp, Ct, pitch and rotor-speed curves of a batch: the power-curve answer plus series, one array per quantity over the bins." + batch + curveQuery + csv,
			responses: errs(map[int]string{200: "BatchCurves"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/aep", tag: "analysis",
			summary:   "Annual energy production from the batch's power curve: gross AEP = 8760 h · Σ [F(V̄ᵢ) − F(V̄ᵢ₋₁)]·(P̄ᵢ₋₁ + P̄ᵢ)/2 up to the last bin (IEC 61400-12-1 measured AEP), net AEP (mwh_per_year) = availability × gross; availability in (0, 1], default 1 (422 otherwise), stated in the answer." + dist + batch + curveQuery,
			responses: errs(map[int]string{200: "BatchAEP"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/del", tag: "analysis",
			summary: "Damage-equivalent loads: per channel (channels=a,b; default all) and Wöhler exponent (exponents=3,4,10, required) each run's short-term DEL at f_eq = 1 Hz and the lifetime DEL (Σⱼ pⱼ·DELⱼᵐ)^(1/m), pⱼ the probability of the run's wind-speed bin split equally across the runs in the bin (seeds, yaw cases), normalised over the batch; a run's bin speed (runs[].wind_speed) is the nominal speed of its DLC run name (DLC1.2_V12.0_S3_Y+0: 12 m/s), so every seed of one speed shares its bin, else the run's mean of wind_channel (default Wind1VelX); bin edges are the mid-points between neighbouring speeds, the outer ones half a spacing out; arithmetic_mean Σⱼ pⱼ·DELⱼ is shown for comparison only. ultimate_loads=RootMyb1:25000,TwrBsMyt:200000 (channel:S_u, channel units, S_u > 0) applies the Goodman mean-load correction S_eq = S/(1 − S_m/S_u) to those channels' cycles (default: none); each channel states goodman true/false and its ultimate_load; 422 naming the channel (and job) when a cycle's mean S_m ≥ S_u, or when a named channel is not among those analysed. " +
				"Start-up and shut-down fatigue (DLC 3.1, 4.1) adds per event, not by time: events_per_year=3.1:1000,4.1:1000 (dlc:count, count a finite number ≥ 0 per year; only DLC 3.1 and 4.1; 422 otherwise, or when the batch has no finished run of a DLC named) adds to each lifetime DELᵐ the term n·D̄/(f_eq·8760 h), n the events per year and D̄ the mean Σ nᵢSᵢᵐ of one event run (the mean over the DLC's wind speeds of the mean over each speed's seeds: the count is spread evenly over the speeds simulated, not weighted by the wind distribution); lifetime[].del is then the combined DEL, time_weighted_del the time-weighted runs' part and events[] each DLC's term, and event_runs lists the event runs' DELs with their damage sums. " +
				"Without events_per_year, DLC 3.1/4.1 runs are left out and notes says so; a selection of only such runs (a batch of DLC 3.1/4.1 alone, or dlc=3.1 without a count) is 422 asking for events_per_year." + dist + batch + csv + " CSV columns: channel, unit, exponent, lifetime_del, arithmetic_mean, goodman, ultimate_load; with events_per_year also time_weighted_del (the time-weighted runs' part, 0 without any) and events (dlc:count;...).",
			responses: errs(map[int]string{200: "BatchDELs"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/extremes", tag: "analysis",
			summary: "Extreme-load table, by default the ultimate loads as the batch results page and the certification report give them: without dlc= the runs of the batch's DLCs whose analysis type is U (IEC 61400-1 Table 2: 1.1, 1.3, 1.4, 1.5, 2.x, 3.2, 3.3, 4.2, 5.1, 6.x, 7.1, 8.x; not the fatigue runs of 1.2, 2.4, 3.1, 4.1, 6.4), each with its DLC's partial safety factor γ_f (gamma_f=dlc; DLC 1.1's simulated maxima at 1.35), runs that failed a plausibility check left out unless include_flagged=true; a batch with no type-U run (a parametric sweep, jobs sharing a batch_id, fatigue DLCs only) searches every run, with its DLC's factor (at least 1) where its name carries a known DLC, else characteristic loads. runs=all searches every run of the batch instead (characteristic loads unless gamma_f is given); runs=ultimate is the default (422 for another value); dlc=… searches the runs of the DLCs named (characteristic unless gamma_f). The answer says which: runs (ultimate, all or dlc), dlcs and safety_factors (dlc, 1 or the factor given). Extreme-load table: the maximum and minimum of each channel (channels=a,b; default all) over the batch, the run and time where it occurs, and the concurrent values of the concurrent=... channels (default: the same channels) at that instant. gamma_f=1 gives characteristic loads; gamma_f=dlc gives design loads with each run's DLC factor from the IEC 61400-1 table (422 when a run is not named after a known DLC; DLC 1.1 takes the normal factor 1.35, since its table factor 1.25 is for loads extrapolated to a 50-year recurrence and these extremes are the simulated maxima), gamma_f=<number in [1, 3]> applies one factor to every run (safety_factor and design = γ_f·characteristic in each row; the governing run is the one with the largest design value). dlc is read from the run name (e.g. DLC1.2_V12.0_S3_Y+0) when the batch service named the run. " +
				"extrapolate=50y (or <N>y, N in [1, 1000]; 422 otherwise) adds extrapolation: DLC 1.1's loads of the same channels extrapolated statistically to an N-year recurrence (IEC 61400-1 ed.3 Annex F): per wind-speed bin (the nominal speed of the run names; at least 2 runs of one duration, else 422) a Gumbel distribution of the 10-min maximum fitted by the method of moments to each run's maximum over its window (bins[].fit, location and scale; for kind min the fit of −min), runs of T ≠ 600 s converted by F_600 = F_T^(600/T); " +
				"the long-term exceedance Σ P(F > f | V_i)·P(V_i) over the bins, P(V_i) the bin's probability under the wind distribution (not normalised over the bins), solved for 1/(N·52596), i.e. 3.80·10⁻⁷ per 10 min for 50 years (exceedance_probability, ten_minute_periods). " +
				"Each load row has characteristic (the extrapolated load), simulated (the most extreme simulated value), safety_factor 1.25 (DLC 1.1's factor for extrapolated loads, whatever gamma_f says) and design = 1.25 × characteristic; the simulated rows in extremes keep their factors (DLC 1.1's 1.35). " +
				"bins[] give each bin's runs and min_runs, the number IEC 61400-1 ed.3 asks for (15 runs of 10 min from V_r − 2 m/s to V_out, 6 below; every run of a bin, seed or yaw case, counts; 15 everywhere when the batch has no stored rated speed); warnings name each bin with fewer and sufficient is false. " +
				"Wind distribution for the extrapolation (extrapolation.distribution states it):" + dist + " 422 when the batch has no finished DLC 1.1 run. CSV adds one row per extrapolated load with job_id extrapolated-<N>y." + batch + csv,
			responses: errs(map[int]string{200: "BatchExtremes"}, 401, 404, 409, 422, 429, 503)},
		{method: "POST", path: "/analysis/jobs/{id}/markov", tag: "analysis",
			summary: "Rainflow Markov matrices (range × mean) of channels (channels; default: the main load channels the output records, RootMxc1, RootMyc1, RootMyb1, LSShftMxa, YawBrMyp, TwrBsMxt, TwrBsMyt; at most 20): the cycles of ASTM E1049 §5.4.4 rainflow counting, as the DELs, with half cycles counted 0.5; counts[i][j] cycles with range in [range_edges[i], range_edges[i+1]) and mean in [mean_edges[j], mean_edges[j+1]) (last bins closed), edges in the channel's unit. " +
				"range_bins (default 100, the usual range histogram) equal bins from 0 to the largest range; mean_bins (default 20) equal bins from the smallest to the largest cycle mean; each in [1, 1000], channels × cells ≤ 1 000 000. 422 for a constant channel (no cycles)." + analysed + csv + " CSV is long, one row per non-empty cell: channel, unit, range_low, range_high, mean_low, mean_high, count, count_unit.",
			request: "MarkovRequest", responses: errs(map[int]string{200: "MarkovResponse"}, bodyErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/load-duration", tag: "analysis",
			summary: "Load-duration distribution (LDD: seconds at each load level) and load-revolution distribution (LRD: shaft revolutions at each level) of channels (channels; default: the drivetrain torque channels the output records, RotTorq, LSShftTq, LSShftMxa, GenTq; any channel may be named, at most 20). bins (default 100, in [1, 1000]) equal level bins from the channel's minimum to its maximum over the window. " +
				"The record is read as piecewise linear between samples, so an interval crossing several levels shares its time over them. Revolutions are ∫|Ω|dt/60 of speed_channel (rpm; default RotSpeed when recorded, the low-speed shaft; GenSpeed for the generator side; \"\" for none), shared over the levels as the time is; without a speed channel the answer has no revolutions." + analysed + csv + " CSV: channel, unit, level_low, level_high, duration, duration_unit, revolutions.",
			request: "LoadDurationRequest", responses: errs(map[int]string{200: "LoadDurationResponse"}, bodyErrs...)},
		{method: "POST", path: "/analysis/jobs/{id}/fatigue", tag: "analysis",
			summary: "Fatigue of one run: per channel (channels; default the main load channels recorded, as /markov; at most 20) the ASTM E1049 §5.4.4 rainflow count (half cycles of the residue as 0.5), its range histogram (range_bins, default 100, equal bins from 0 to the largest range) and the short-term damage-equivalent loads DEL = (Σ nᵢSᵢᵐ / N_eq)^(1/m) for wohler_exponents (default 3, 4, 5, 10; each in (0, 30]) at N_eq = equivalent_cycles, or = equivalent_frequency·T (Hz; default 1 Hz, T = t_end − t_start of the window). " +
				"ultimate_loads (channel → S_u) applies the Goodman correction S/(1 − S_m/S_u) to that channel's cycles (422 when a cycle's mean reaches S_u). An INVALID channel is answered marked (invalid), without counts; a constant channel has no cycles and DELs of 0." + analysed + csv + " CSV: one row per channel and exponent: channel, unit, m, del, equivalent_cycles, cycles, half_cycles, max_range, goodman.",
			request: "FatigueRequest", responses: errs(map[int]string{200: "FatigueResponse"}, bodyErrs...)},
		{method: "GET", path: "/analysis/jobs/{id}/markov", tag: "analysis",
			summary:   "The POST /analysis/jobs/{id}/markov answer with its fields as query parameters, for links: channels=a,b, range_bins, mean_bins, t_start, t_end (s); same defaults, limits and errors (422 for a malformed number)." + csv,
			responses: errs(map[int]string{200: "MarkovResponse"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/jobs/{id}/load-duration", tag: "analysis",
			summary:   "The POST /analysis/jobs/{id}/load-duration answer with its fields as query parameters, for links: channels=a,b, bins, speed_channel (present but empty: no revolutions), t_start, t_end (s); same defaults, limits and errors (422 for a malformed number)." + csv,
			responses: errs(map[int]string{200: "LoadDurationResponse"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/markov", tag: "analysis",
			summary: "Lifetime rainflow Markov matrices of a batch: per channel (channels=a,b; default the main load channels recorded, as the job endpoint) each fatigue run's cycles (ASTM E1049, half cycles 0.5) counted wⱼ·L/Tⱼ times on range and mean edges common to all runs: wⱼ the run's weight as in the lifetime DEL (its wind-speed bin's probability split equally over the bin's runs, normalised over the batch; runs[].weight), Tⱼ its analysed duration, L = lifetime_years (default 20, in (0, 100]) × 8760 h. " +
				"So Σ count·rangeᵐ over the matrix equals L·DEL_lifeᵐ of /del at f_eq = 1 Hz (up to binning), and counts are cycles per lifetime (count_unit). The lifetime is spread over the batch's wind-speed range; coverage is the share of the distribution that range holds. With events, Σ count·rangeᵐ equals L·DEL_lifeᵐ of /del with the same events_per_year. range_bins (default 100), mean_bins (default 20), each in [1, 1000]." +
				"Start-up and shut-down fatigue (DLC 3.1, 4.1) is selected as /del selects it (same dlc= rules and defaults): events_per_year=3.1:1000,4.1:1000 (as /del; 422 for another DLC or a bad count) adds each counted DLC's runs, one run's share of an event being 1/(speeds × seeds at its speed) as /del's damage per event (events[].runs[].weight), counted events_per_year × lifetime_years times (events[].events_per_lifetime); without it those runs are left out and notes says so, and a batch of only DLC 3.1/4.1 runs is 422 asking for events_per_year." + dist + batch + csv + " CSV as the job endpoint.",
			responses: errs(map[int]string{200: "BatchMarkov"}, 401, 404, 409, 422, 429, 503)},
		{method: "GET", path: "/analysis/batches/{id}/load-duration", tag: "analysis",
			summary: "Lifetime load-duration (hours) and load-revolution (revolutions) distributions of a batch: per channel (channels=a,b; default the drivetrain torque channels recorded, as the job endpoint) each fatigue run's time and revolutions at each level scaled by wⱼ·L/Tⱼ as /markov (lifetime_years default 20), on bins (default 100) equal levels from the smallest to the largest value of any run; the hours add up to the lifetime. " +
				"speed_channel (rpm, default RotSpeed when every run records it; \"\" for none) gives the revolutions. Counted events add their own time and revolutions on top of the lifetime (they are not taken from the operating hours, as their damage adds to /del's)." +
				"Start-up and shut-down fatigue (DLC 3.1, 4.1) is selected as /del selects it (same dlc= rules and defaults): events_per_year=3.1:1000,4.1:1000 (as /del; 422 for another DLC or a bad count) adds each counted DLC's runs, one run's share of an event being 1/(speeds × seeds at its speed) as /del's damage per event (events[].runs[].weight), counted events_per_year × lifetime_years times (events[].events_per_lifetime); without it those runs are left out and notes says so, and a batch of only DLC 3.1/4.1 runs is 422 asking for events_per_year." + dist + batch + csv + " CSV as the job endpoint, duration in h.",
			responses: errs(map[int]string{200: "BatchLoadDuration"}, 401, 404, 409, 422, 429, 503)},
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
		"center": num, "low": num, "high": num, "n": map[string]any{"type": "integer", "description": "runs (or samples) in the bin"},
		"wind_speed": map[string]any{"type": "number", "description": "bin mean of the binned wind speed, m/s"}, "power_kw": num,
		"thrust_kn":     map[string]any{"type": "number", "description": "bin mean of the aerodynamic rotor thrust (thrust_channel), kN"},
		"power_std_kw":  map[string]any{"type": "number", "description": "sample standard deviation of the bin's power (IEC 61400-12-1 spread); 0 for one point"},
		"thrust_std_kn": map[string]any{"type": "number", "description": "sample standard deviation of the bin's thrust"},
		"pitch_deg":     num, "rotor_speed_rpm": num, "cp": num, "ct": num,
		"coefficient_wind_speed": map[string]any{"type": "number", "description": "the wind speed cp and ct divide by (see coefficient_wind), m/s"}})
	curve := obj([]string{"bins"}, map[string]any{"bins": arr(bin), "air_density": num, "rotor_area": num,
		"has_thrust": map[string]any{"type": "boolean"}, "has_pitch": map[string]any{"type": "boolean"}, "has_rotor_speed": map[string]any{"type": "boolean"},
		"thrust_channel":   map[string]any{"type": "string", "description": "the channel thrust and Ct come from: AeroDyn's aerodynamic rotor thrust RtFldFxh (or RtAeroFxh before OpenFAST v4); never RotThrust, which adds the rotor weight along the tilted shaft. Empty: the runs record neither, so no thrust or Ct"},
		"coefficient_wind": map[string]any{"type": "string", "enum": []string{"rotor_average", "binned"}, "description": "rotor_average: Cp and Ct over the rotor-average wind RtVAvgxh, as AeroDyn's RtFldCp/RtFldCt; binned: over the binned wind speed (a run without RtVAvgxh)"}})
	markov := obj([]string{"channel", "unit", "range_edges", "mean_edges", "counts", "count_unit", "total_cycles"}, map[string]any{
		"channel": str, "unit": map[string]any{"type": "string", "description": "of the range and mean edges"},
		"range_edges":  map[string]any{"type": "array", "items": num, "description": "range_bins + 1 edges from 0"},
		"mean_edges":   map[string]any{"type": "array", "items": num, "description": "mean_bins + 1 edges"},
		"counts":       map[string]any{"type": "array", "items": nums, "description": "[range bin][mean bin] cycles, half cycles 0.5"},
		"count_unit":   map[string]any{"type": "string", "enum": []string{"cycles", "cycles per lifetime"}},
		"total_cycles": num})
	levels := obj([]string{"channel", "unit", "edges", "duration", "duration_unit", "total_duration"}, map[string]any{
		"channel": str, "unit": map[string]any{"type": "string", "description": "of the level edges"},
		"edges":          map[string]any{"type": "array", "items": num, "description": "bins + 1 level edges"},
		"duration":       map[string]any{"type": "array", "items": num, "description": "time at each level, in duration_unit"},
		"duration_unit":  map[string]any{"type": "string", "enum": []string{"s", "h"}},
		"revolutions":    map[string]any{"type": "array", "items": num, "description": "shaft revolutions at each level (with a speed channel)"},
		"total_duration": num, "total_revolutions": num})
	distribution := obj([]string{"kind"}, map[string]any{"kind": map[string]any{"type": "string", "enum": []string{"rayleigh", "weibull"}},
		"mean_speed": num, "k": num, "a": num,
		"class": map[string]any{"type": "string", "description": "IEC class of a class distribution"},
		"source": map[string]any{"type": "string", "enum": []string{"query", "batch_class", "default_class"},
			"description": "query: given by distribution= or class=; batch_class: the DLC batch's turbine class; default_class: class I (a batch without a class)"}})
	analysisWindow := obj([]string{"t_start", "t_end", "reason", "detail"}, map[string]any{
		"t_start": map[string]any{"type": []string{"number", "null"}, "description": "s: the first sample used (one run), or the start every run of a batch shares; null when a batch's runs start at different times (t_start_by_dlc, or t_start_min/t_start_max)"},
		"t_end":   map[string]any{"type": []string{"number", "null"}, "description": "s: the last sample used (one run), or the t_end given to a batch; null: each run of a batch to its end"},
		"t_start_by_dlc": map[string]any{"type": "object", "additionalProperties": num,
			"description": "DLC → s, when the runs of each DLC share a start (each after its DLC's transient)"},
		"t_start_min": num, "t_start_max": num,
		"reason": map[string]any{"type": "string", "enum": []string{results.WindowStartupRemoved, results.WindowGiven},
			"description": "start-up transient removed: no t_start was given and the run's start-up transient was left out; window given: t_start (and t_end) chose it"},
		"detail": map[string]any{"type": "string", "description": "how the start was chosen, in words, e.g. \"the first 30 s; t_start=0 keeps the whole run\" or \"the first " + floatingTransient + " s: the start-up transient of a floating platform; t_start=0 keeps the whole run\""}})
	spectraBasis := map[string]any{
		"batch_id": str, "skipped": strs, "dlcs": strs, "analysis_window": analysisWindow,
		"distribution":   distribution,
		"lifetime_years": num,
		"coverage":       map[string]any{"type": "number", "description": "share of the wind distribution the batch's speeds span"},
		"runs": arr(obj([]string{"id", "wind_speed", "weight", "duration"}, map[string]any{"id": str, "wind_speed": num,
			"weight": map[string]any{"type": "number", "description": "wⱼ, Σ = 1"}, "duration": map[string]any{"type": "number", "description": "s"}})),
		"events": arr(obj([]string{"dlc", "events_per_year", "events_per_lifetime", "runs"}, map[string]any{"dlc": str, "events_per_year": num,
			"events_per_lifetime": num,
			"runs": arr(obj([]string{"id", "wind_speed", "weight", "duration"}, map[string]any{"id": str, "wind_speed": num,
				"weight": map[string]any{"type": "number", "description": "the run's share of one event, Σ = 1 over the DLC's runs"}, "duration": map[string]any{"type": "number", "description": "s"}}))})),
		"notes": map[string]any{"type": "array", "items": str, "description": "runs left out and why"}}
	withBasis := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range spectraBasis {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	return map[string]any{
		"MarkovRequest": obj([]string{}, map[string]any{
			"channels":   map[string]any{"type": "array", "items": str, "description": "default: the main load channels recorded; at most 20"},
			"range_bins": map[string]any{"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
			"mean_bins":  map[string]any{"type": "integer", "minimum": 1, "maximum": 1000, "default": 20},
			"t_start":    nnum, "t_end": nnum}),
		"MarkovResponse": obj([]string{"t_start", "t_end", "duration", "range_bins", "mean_bins", "channels", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"t_start":         num, "t_end": num, "duration": map[string]any{"type": "number", "description": "s"},
			"range_bins": integer, "mean_bins": integer, "channels": arr(markov)}),
		"LoadDurationRequest": obj([]string{}, map[string]any{
			"channels":      map[string]any{"type": "array", "items": str, "description": "default: the drivetrain torque channels recorded; at most 20"},
			"bins":          map[string]any{"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
			"speed_channel": map[string]any{"type": []string{"string", "null"}, "description": "rpm; null/absent: RotSpeed when recorded; \"\": no revolutions"},
			"t_start":       nnum, "t_end": nnum}),
		"LoadDurationResponse": obj([]string{"t_start", "t_end", "bins", "channels", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"t_start":         num, "t_end": num, "bins": integer, "speed_channel": str, "speed_unit": str, "channels": arr(levels)}),
		"FatigueRequest": obj([]string{}, map[string]any{
			"channels":             map[string]any{"type": "array", "items": str, "description": "default: the main load channels recorded; at most 20"},
			"wohler_exponents":     map[string]any{"type": "array", "items": num, "description": "default [3, 4, 5, 10]"},
			"equivalent_cycles":    map[string]any{"type": []string{"number", "null"}, "description": "N_eq; not with equivalent_frequency"},
			"equivalent_frequency": map[string]any{"type": []string{"number", "null"}, "description": "f_eq in Hz, N_eq = f_eq·T; default 1 Hz"},
			"range_bins":           map[string]any{"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
			"ultimate_loads":       map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "number", "exclusiveMinimum": 0}},
			"t_start":              nnum, "t_end": nnum}),
		"FatigueResponse": obj([]string{"t_start", "t_end", "duration", "equivalent_cycles", "range_bins", "channels", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"t_start":         num, "t_end": num, "duration": map[string]any{"type": "number", "description": "T, s"},
			"equivalent_cycles": map[string]any{"type": "number", "description": "N_eq used"}, "range_bins": integer,
			"channels": arr(obj([]string{"channel", "unit", "cycles", "half_cycles", "max_range", "dels", "goodman", "rainflow"}, map[string]any{
				"channel": str, "unit": str,
				"cycles":      map[string]any{"type": "number", "description": "rainflow count, half cycles as 0.5"},
				"half_cycles": integer, "max_range": num, "dels": arr(del),
				"goodman": map[string]any{"type": "boolean"}, "ultimate_load": num,
				"rainflow": obj([]string{"range_edges", "counts"}, map[string]any{"range_edges": nums, "counts": nums}),
				"invalid":  map[string]any{"type": "boolean", "description": "an INVALID channel: no counts"}}))}),
		"BatchMarkov": obj([]string{"batch_id", "lifetime_years", "runs", "range_bins", "mean_bins", "channels"}, withBasis(map[string]any{
			"range_bins": integer, "mean_bins": integer, "channels": arr(markov)})),
		"BatchLoadDuration": obj([]string{"batch_id", "lifetime_years", "runs", "bins", "channels"}, withBasis(map[string]any{
			"bins": integer, "speed_channel": str, "channels": arr(levels)})),
		"ChannelList": arr(obj([]string{"name", "unit", "group"}, map[string]any{"name": str, "unit": str,
			"group": map[string]any{"type": "string", "enum": results.ChannelGroups(),
				"description": "module the channel belongs to, read from its OpenFAST name (the results page filters by it)"},
			"invalid": map[string]any{"type": "boolean", "description": "OpenFAST wrote the channel as INVALID (zeros in place of a channel the model does not have); the results page does not plot it"}})),
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
			"include_higher_moments": map[string]any{"type": "boolean"},
			"ultimate_loads": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "number", "exclusiveMinimum": 0},
				"description": "channel → ultimate load S_u (channel units) for the Goodman correction of its DELs"}}),
		"StatisticsResponse": obj([]string{"t_start", "t_end", "channels", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"t_start":         num, "t_end": num,
			"channels": arr(obj([]string{"name", "unit", "n", "min", "max", "mean", "std"}, map[string]any{
				"name": str, "unit": str, "n": integer, "min": num, "max": num, "mean": num,
				"std":         map[string]any{"type": "number", "description": "population standard deviation (divide by N)"},
				"time_of_min": num, "time_of_max": num, "skewness": num,
				"kurtosis":      map[string]any{"type": "number", "description": "Pearson kurtosis (3 for a Gaussian)"},
				"dels":          arr(del),
				"goodman":       map[string]any{"type": "boolean", "description": "with dels: whether they are Goodman-corrected"},
				"ultimate_load": map[string]any{"type": "number", "description": "S_u applied, when goodman"},
				"invalid":       map[string]any{"type": "boolean", "description": "an INVALID channel: its row carries zeros, not statistics, and no DELs"}}))}),
		"SpectrumRequest": obj([]string{}, map[string]any{
			"channel": str, "channels": strs,
			"method":         map[string]any{"type": "string", "enum": []string{"welch", "fft"}, "default": "welch"},
			"window":         map[string]any{"type": "string", "enum": []string{"hann", "hamming", "blackman", "rectangular"}, "default": "hann"},
			"segment_length": map[string]any{"type": "integer", "minimum": 0},
			"overlap":        map[string]any{"type": "number", "minimum": 0, "maximum": 0.95, "default": 0.5},
			"detrend":        map[string]any{"type": "string", "enum": []string{"none", "mean", "linear"}, "default": "mean"},
			"resolution": map[string]any{"type": "number", "exclusiveMinimum": 0,
				"description": "welch: frequency resolution in Hz, instead of segment_length (segments of 1/resolution s; 422 when the window is shorter)"},
			"f_min": map[string]any{"type": "number", "minimum": 0, "description": "Hz; the answer keeps f ≥ f_min (default 0)"},
			"f_max": map[string]any{"type": "number", "minimum": 0, "description": "Hz; the answer keeps f ≤ f_max (default: the Nyquist frequency)"},
			"natural_frequencies": map[string]any{"type": "boolean",
				"description": "also answer the run's first tower fore-aft/side-side and blade flap/edge natural frequencies, estimated from its deck's structural model"},
			"t_start": nnum, "t_end": nnum}),
		"SpectrumResponse": obj([]string{"method", "detrend", "spectra", "harmonics", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"method":          str, "window": str, "detrend": str,
			"spectra": arr(obj([]string{"name", "unit", "frequency", "values", "resolution"}, map[string]any{
				"name": str, "unit": str, "frequency": map[string]any{"type": "array", "items": num, "description": "Hz"},
				"values":     map[string]any{"type": "array", "items": num, "description": "amplitude (fft, channel units) or PSD (welch, unit²/Hz)"},
				"resolution": num, "segment_length": integer, "segments": integer})),
			"mean_rotor_speed_rpm": num,
			"harmonics":            arr(harmonic),
			"nyquist":              map[string]any{"type": "number", "description": "Hz, half the output's sampling rate"},
			"natural_frequencies": obj([]string{"tower_fore_aft", "tower_side_side", "blade_flap", "blade_edge"}, map[string]any{
				"tower_fore_aft": num, "tower_side_side": num, "blade_flap": num, "blade_edge": num}),
			"natural_frequencies_note": map[string]any{"type": "string", "description": "why natural_frequencies is missing when asked for"}}),
		"BatchCurves": obj([]string{"batch_id", "runs", "skipped", "excluded", "partial", "runs_finished", "runs_total", "runs_failed", "curve", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"batch_id":        str, "runs": integer, "skipped": strs, "excluded": excludedRunsSchema(), "partial": map[string]any{"type": "boolean", "description": "true while some runs of the batch are still queued or running: the answer is from runs_finished of runs_total runs and will change"}, "runs_finished": integer, "runs_total": integer, "runs_failed": map[string]any{"type": "integer", "description": "finished without an output (failed or cancelled; in skipped)"}, "curve": curve,
			"dlcs": map[string]any{"type": "array", "items": str, "description": "design load cases of the runs binned"},
			"series": map[string]any{"type": "object", "additionalProperties": nums,
				"description": "curves only: wind_speed, power_kw, thrust_kn, cp, ct, pitch_deg, rotor_speed_rpm, n"}}),
		"BatchAEP": obj([]string{"batch_id", "aep", "curve", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"batch_id":        str, "distribution": distribution,
			"aep": obj([]string{"mwh_per_year", "gross_mwh_per_year", "availability"}, map[string]any{
				"mwh_per_year":       map[string]any{"type": "number", "description": "net: availability × gross"},
				"gross_mwh_per_year": map[string]any{"type": "number", "description": "at 100 % availability"},
				"availability":       num, "hours": num, "up_to_speed": num}), "curve": curve}),
		"BatchDELs": obj([]string{"batch_id", "skipped", "excluded", "partial", "runs_finished", "runs_total", "runs_failed", "distribution", "channels", "equivalent_frequency_hz", "equivalent_cycles_per_year", "analysis_window"}, map[string]any{
			"analysis_window":            analysisWindow,
			"equivalent_frequency_hz":    map[string]any{"type": "number", "description": "f_eq of every DEL of the answer (1 Hz): a run's DEL counts N_eq = f_eq × its duration cycles"},
			"equivalent_cycles_per_year": map[string]any{"type": "number", "description": "N_eq of the lifetime DEL per year of operation, f_eq × 8760 h"},
			"batch_id":                   str, "skipped": strs, "excluded": excludedRunsSchema(), "partial": map[string]any{"type": "boolean", "description": "true while some runs of the batch are still queued or running: the answer is from runs_finished of runs_total runs and will change"}, "runs_finished": integer, "runs_total": integer, "runs_failed": map[string]any{"type": "integer", "description": "finished without an output (failed or cancelled; in skipped)"}, "distribution": distribution,
			"dlcs": map[string]any{"type": "array", "items": str, "description": "design load cases of the runs used"},
			"channels": arr(obj([]string{"channel", "goodman", "runs", "lifetime"}, map[string]any{
				"channel": str, "unit": str,
				"goodman":       map[string]any{"type": "boolean", "description": "whether the Goodman mean-load correction was applied"},
				"ultimate_load": map[string]any{"type": "number", "description": "S_u applied, when goodman"},
				"runs":          arr(obj([]string{"id", "wind_speed", "duration", "dels"}, map[string]any{"id": str, "wind_speed": num, "duration": num, "dels": arr(del)})),
				"lifetime": arr(obj([]string{"exponent", "del"}, map[string]any{"exponent": num, "del": num, "arithmetic_mean": num,
					"weights":           map[string]any{"type": "object"},
					"time_weighted_del": map[string]any{"type": "number", "description": "with events_per_year: the DEL of the time-weighted runs alone"},
					"events": arr(obj([]string{"dlc", "events_per_year", "runs", "damage_per_event", "del_m_term"}, map[string]any{
						"dlc": str, "events_per_year": num, "runs": integer,
						"damage_per_event": map[string]any{"type": "number", "description": "mean Σ nᵢSᵢᵐ of one event run"},
						"del_m_term":       map[string]any{"type": "number", "description": "events_per_year·damage_per_event/(f_eq·31 536 000 s), added to DELᵐ"}}))})),
				"event_runs": arr(obj([]string{"id", "wind_speed", "duration", "dels"}, map[string]any{"id": str, "wind_speed": num, "duration": num, "dels": arr(del)}))})),
			"notes": map[string]any{"type": "array", "items": str, "description": "runs left out and why"}}),
		"BatchExtremes": obj([]string{"batch_id", "skipped", "excluded", "partial", "runs_finished", "runs_total", "runs_failed", "runs", "safety_factors", "extremes", "analysis_window"}, map[string]any{
			"analysis_window": analysisWindow,
			"runs": map[string]any{"type": "string", "enum": []string{results.ExtremeRunsUltimate, results.ExtremeRunsAll, results.ExtremeRunsDLC},
				"description": "the runs searched: ultimate (the type-U DLCs' runs, the default), all (runs=all, or a batch without a type-U run) or dlc (dlc= given)"},
			"dlcs":           strs,
			"safety_factors": map[string]any{"type": "string", "description": "how γ_f was chosen: dlc (each DLC's factor), 1 (characteristic loads) or the factor given"},
			"batch_id":       str, "skipped": strs, "excluded": excludedRunsSchema(), "partial": map[string]any{"type": "boolean", "description": "true while some runs of the batch are still queued or running: the answer is from runs_finished of runs_total runs and will change"}, "runs_finished": integer, "runs_total": integer, "runs_failed": map[string]any{"type": "integer", "description": "finished without an output (failed or cancelled; in skipped)"},
			"extremes": arr(obj([]string{"channel", "kind", "characteristic", "run_id", "time"}, map[string]any{
				"channel": str, "unit": str, "kind": map[string]any{"type": "string", "enum": []string{"max", "min"}},
				"characteristic": num, "safety_factor": num, "design": num,
				"run_id": map[string]any{"type": "string", "description": "job id"}, "dlc": str, "time": num,
				"concurrent": arr(obj([]string{"channel", "value"}, map[string]any{"channel": str, "unit": str, "value": num}))})),
			"extrapolation": obj([]string{"dlc", "return_period_years", "exceedance_probability", "bins", "loads", "sufficient", "warnings"}, map[string]any{
				"dlc": str, "method": str, "min_runs_rule": str,
				"distribution":           distribution,
				"return_period_years":    num,
				"exceedance_probability": map[string]any{"type": "number", "description": "target per 10 min: 1/ten_minute_periods"},
				"ten_minute_periods":     map[string]any{"type": "number", "description": "return period × 365.25 × 144"},
				"bins": arr(obj([]string{"speed", "probability", "runs", "sufficient"}, map[string]any{
					"speed": num, "low": num, "high": map[string]any{"type": []string{"number", "null"}},
					"probability": num, "runs": integer,
					"duration":   map[string]any{"type": "number", "description": "analysed duration of the bin's runs, s"},
					"min_runs":   integer,
					"sufficient": map[string]any{"type": "boolean", "description": "runs ≥ min_runs"}})),
				"loads": arr(obj([]string{"channel", "kind", "characteristic", "simulated", "safety_factor", "design", "bins"}, map[string]any{
					"channel": str, "unit": str, "kind": map[string]any{"type": "string", "enum": []string{"max", "min"}},
					"characteristic": map[string]any{"type": "number", "description": "extrapolated load"},
					"simulated":      map[string]any{"type": "number", "description": "most extreme simulated value"},
					"safety_factor":  num, "design": num,
					"bins": arr(obj([]string{"speed", "fit"}, map[string]any{"speed": num,
						"fit":               obj([]string{"location", "scale"}, map[string]any{"location": num, "scale": num}),
						"largest_simulated": num}))})),
				"sufficient": map[string]any{"type": "boolean", "description": "every bin has min_runs"},
				"warnings":   strs})}),
	}
}
