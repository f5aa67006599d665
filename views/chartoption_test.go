package views

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The option carries what ECharts needs to draw value-axis lines: the axis
// names, one series per line with [x, y] pairs, no animation, and nothing
// that would load code (the go-echarts renderer's asset host) or run it.
func TestLineChartOption(t *testing.T) {
	opt := LineChartOption("Power", "Wind speed (m/s)", "kW",
		XYSeries{Name: "mean", Points: XYPoints([]float64{4, 8, math.NaN()}, []float64{200, 2000, 3000})},
		XYSeries{Name: "max", Points: [][2]float64{{4, 300}}})
	raw, err := json.Marshal(opt)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Animation *bool `json:"animation"`
		Title     struct {
			Text string `json:"text"`
		} `json:"title"`
		XAxis []struct {
			Type, Name string
		} `json:"xAxis"`
		YAxis []struct {
			Type, Name string
		} `json:"yAxis"`
		Series []struct {
			Name string                      `json:"name"`
			Type string                      `json:"type"`
			Data []struct{ Value []float64 } `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
	if got.Animation == nil || *got.Animation {
		t.Errorf("animation not switched off: %s", raw)
	}
	if got.Title.Text != "Power" {
		t.Errorf("title: %s", raw)
	}
	if len(got.XAxis) != 1 || got.XAxis[0].Type != "value" || got.XAxis[0].Name != "Wind speed (m/s)" ||
		len(got.YAxis) != 1 || got.YAxis[0].Type != "value" || got.YAxis[0].Name != "kW" {
		t.Errorf("axes: %s", raw)
	}
	if len(got.Series) != 2 || got.Series[0].Name != "mean" || got.Series[0].Type != "line" {
		t.Fatalf("series: %s", raw)
	}
	// The NaN point is left out; the others keep their order and values.
	if d := got.Series[0].Data; len(d) != 2 || d[0].Value[0] != 4 || d[0].Value[1] != 200 || d[1].Value[0] != 8 || d[1].Value[1] != 2000 {
		t.Errorf("first series data: %+v", d)
	}
	if s := string(raw); strings.Contains(s, "http") || strings.Contains(s, "<script") {
		t.Errorf("option refers to code: %s", s)
	}
}
