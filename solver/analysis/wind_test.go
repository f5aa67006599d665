package analysis

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestUnboundedBinEdgeIsJSONNull: the single bin of a one-speed batch
// reaches to +Inf, which encoding/json refuses; it is written as null.
func TestUnboundedBinEdgeIsJSONNull(t *testing.T) {
	w, err := WindSpeedWeights([]float64{12, 12}, Rayleigh{MeanSpeed: 10})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatalf("weights of a one-speed batch do not encode: %v", err)
	}
	if !strings.Contains(string(b), `"high":null`) || !strings.Contains(string(b), `"low":0`) {
		t.Errorf("weights JSON %s", b)
	}
	cv, err := PowerCurve([]CurvePoint{{WindSpeed: 12, PowerKW: 5000, ThrustKN: math.NaN(), PitchDeg: math.NaN(), RotorSpeedRPM: math.NaN()}}, CurveOptions{Binning: BinGrid})
	if err != nil {
		t.Fatal(err)
	}
	if b, err = json.Marshal(cv); err != nil || !strings.Contains(string(b), `"high":null`) {
		t.Errorf("curve JSON %s, %v", b, err)
	}
	finite, _ := json.Marshal(CurveBin{Low: 1, High: 2})
	if !strings.Contains(string(finite), `"high":2`) {
		t.Errorf("finite edge JSON %s", finite)
	}
}
