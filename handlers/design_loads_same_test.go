package handlers_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/solver/dlc"
)

func parseNumber(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return v
}

// sameShown says whether shown, a number as the report prints it, is
// exact rounded to its printed digits (the report's fnum: 3 significant
// digits below 100, one decimal up to 1e5, 4 significant digits beyond;
// the results page prints 6 significant digits).
func sameShown(exact, shown float64) bool {
	a := math.Abs(exact)
	var half float64
	switch {
	case a >= 1e5:
		half = 0.5 * math.Pow(10, math.Floor(math.Log10(a))-3)
	case a >= 100:
		half = 0.05
	case a > 0:
		half = 0.5 * math.Pow(10, math.Floor(math.Log10(a))-2)
	}
	return math.Abs(exact-shown) <= half*(1+1e-9)+1e-6*a
}

// The must-show of the load campaign: a batch of DLC 1.2 + 1.4 gives the
// same ultimate-load table on the results page, in the certification
// report and from the API (GET …/extremes, with dlc=1.4&gamma_f=dlc and
// with no dlc= at all; runs=all searches every run): for every sensor
// both pages show, the same extreme (channel and kind), DLC, run,
// γf, characteristic and design value and time, number by number. The
// 1.2 runs hold the largest RootMxc1 of the batch but are fatigue runs
// (IEC 61400-1 Table 2, type F): neither page may take them, and every
// design value is 1.35 × its characteristic value. Before, the results
// page took its extremes from every run with no γf (RootMxc1 from a 1.2
// run) while the report took DLC 1.4 with γf 1.35; and the API without dlc=
// searched every run with no γf (RootMxc1 from a 1.2 run).
func TestDLC12And14ExtremesSameOnPageReportAndAPI(t *testing.T) {
	re := newResultEnv(t)
	one := 1
	req := dlc.Request{Turbine: dlc.Turbine{Name: "T", HubHeight: 90, RotorDiameter: 126, VIn: 4, VRated: 11.4, VOut: 24, RatedRotorSpeed: 12.1},
		DLCs: []string{"1.2", "1.4"}, Class: "I", Category: "B", SeedsPerBin: 1,
		Overrides: map[string]dlc.Override{"1.2": {Speeds: []float64{8, 12}, Seeds: &one, Yaw: []float64{0}}}}
	batch, names := designLoadBatch(t, re, req)

	resp, page := re.call(re.token, "GET", "/analysis/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("results page: %d %.300s", resp.StatusCode, page)
	}
	pageRows := map[string]extremeRow{}
	for _, c := range tableRows(t, page, `id="extremes-table"`) {
		// channel, unit, kind, DLC, γf, characteristic, design, job, time
		if len(c) != 9 {
			t.Fatalf("results page row %v", c)
		}
		r := extremeRow{channel: c[0], kind: c[2], dlc: c[3], gamma: parseNumber(t, c[4]), characteristic: parseNumber(t, c[5]),
			design: parseNumber(t, c[6]), run: c[7], time: parseNumber(t, c[8])}
		pageRows[r.key()] = r
	}
	resp, report := re.call(re.token, "GET", "/reports/batches/"+batch, "", "Accept", "text/html")
	if resp.StatusCode != 200 {
		t.Fatalf("report: %d %.300s", resp.StatusCode, report)
	}
	// The report states the window of its loads: each run after its DLC's
	// start-up transient.
	if !strings.Contains(report, `id="analysis-window"`) || !strings.Contains(report, "start-up transient removed") {
		t.Errorf("the report does not state its analysis window")
	}
	reportRows := map[string]extremeRow{}
	for _, c := range tableRows(t, report, `<section id="extremes">`) {
		// sensor, unit, kind, characteristic, γf, design, DLC, run, t, concurrent
		if len(c) != 10 {
			t.Fatalf("report row %v", c)
		}
		r := extremeRow{channel: c[0], kind: c[2], characteristic: parseNumber(t, c[3]), gamma: parseNumber(t, c[4]),
			design: parseNumber(t, c[5]), dlc: c[6], run: c[7], time: parseNumber(t, c[8])}
		reportRows[r.key()] = r
	}
	// The API agrees with dlc=1.4&gamma_f=dlc and with no dlc= at all: its
	// default is the pages' (type-U DLCs, each with its γf).
	for _, query := range []string{"dlc=1.4&gamma_f=dlc&", ""} {
		apiRows, api := extremesFromAPI(t, re, batch, query, names)
		if query == "" && (api.Runs != "ultimate" || api.SafetyFactors != "dlc" || strings.Join(api.DLCs, ",") != "1.4") {
			t.Errorf("no dlc=: runs %q, dlcs %v, safety_factors %q; want ultimate, 1.4, dlc", api.Runs, api.DLCs, api.SafetyFactors)
		}
		compared := 0
		for _, ch := range []string{"RootMxc1", "RootMyc1", "TwrBsMyt"} {
			for _, kind := range []string{"max", "min"} {
				key := ch + " " + kind
				p, inPage := pageRows[key]
				r, inReport := reportRows[key]
				a, inAPI := apiRows[key]
				if !inPage || !inReport || !inAPI {
					t.Errorf("%s: on the page %v, in the report %v, from the API (%s) %v", key, inPage, inReport, query, inAPI)
					continue
				}
				compared++
				t.Logf("%s: page %+v | report %+v | API (%s) %+v", key, p, r, query, a)
				for _, o := range []struct {
					what string
					row  extremeRow
				}{{"report", r}, {"API (" + query + ")", a}} {
					if o.row.dlc != p.dlc || o.row.run != p.run || o.row.gamma != p.gamma || !sameShown(p.characteristic, o.row.characteristic) ||
						!sameShown(p.design, o.row.design) || !sameShown(p.time, o.row.time) {
						t.Errorf("%s: the %s shows %+v, the results page %+v", key, o.what, o.row, p)
					}
				}
				if p.dlc != "1.4" || p.gamma != 1.35 || !sameShown(p.design, 1.35*p.characteristic) {
					t.Errorf("%s: DLC %s γf %g (design %g for %g); want DLC 1.4 at γf 1.35", key, p.dlc, p.gamma, p.design, p.characteristic)
				}
			}
		}
		if compared != 6 {
			t.Fatalf("API %q: compared %d extremes, want 6", query, compared)
		}
	}
	// runs=all still searches every run, DLC 1.2's too, for characteristic
	// loads.
	all, api := extremesFromAPI(t, re, batch, "runs=all&", names)
	if m := all["RootMxc1 max"]; api.Runs != "all" || api.SafetyFactors != "1" || strings.Join(api.DLCs, ",") != "1.2,1.4" || m.gamma != 1 || m.design != m.characteristic {
		t.Errorf("runs=all: %q over DLC %v, γf %q, RootMxc1 max %+v; want every run, characteristic", api.Runs, api.DLCs, api.SafetyFactors, m)
	}
	resp, body := re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?runs=some", "")
	if detail := assertDetail(t, resp, body, 422); !strings.Contains(detail, "runs") {
		t.Errorf("runs=some: %q", detail)
	}
}

// apiExtremes is the part of the extremes answer the equality test reads.
type apiExtremes struct {
	Runs          string   `json:"runs"`
	DLCs          []string `json:"dlcs"`
	SafetyFactors string   `json:"safety_factors"`
	Extremes      []struct {
		Channel, Kind, DLC string
		RunID              string `json:"run_id"`
		Characteristic     float64
		SafetyFactor       float64 `json:"safety_factor"`
		Design, Time       float64
	} `json:"extremes"`
}

// extremesFromAPI asks GET /analysis/batches/{id}/extremes?<query>channels=
// RootMxc1,RootMyc1,TwrBsMyt and returns its rows by channel and kind.
func extremesFromAPI(t *testing.T, re *resultEnv, batch, query string, names map[string]string) (map[string]extremeRow, apiExtremes) {
	t.Helper()
	resp, body := re.call(re.token, "GET", "/analysis/batches/"+batch+"/extremes?"+query+"channels=RootMxc1,RootMyc1,TwrBsMyt", "")
	var api apiExtremes
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &api) != nil {
		t.Fatalf("extremes API (%s): %d %.300s", query, resp.StatusCode, body)
	}
	rows := map[string]extremeRow{}
	for _, e := range api.Extremes {
		r := extremeRow{channel: e.Channel, kind: e.Kind, dlc: e.DLC, run: names[e.RunID], characteristic: e.Characteristic,
			gamma: e.SafetyFactor, design: e.Design, time: e.Time}
		rows[r.key()] = r
	}
	return rows, api
}
