package views

import (
	"math"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// XYSeries is one named line of (x, y) points for LineChartOption.
type XYSeries struct {
	Name   string
	Points [][2]float64
	// Markers draws a symbol at every point (binned curves: each point
	// is a bin's mean). A point whose y is NaN breaks the line there (an
	// empty bin: ECharts draws no segment across a null value).
	Markers bool
}

// XYPoints pairs x and y sample by sample (up to the shorter of the two),
// leaving out non-finite points, which JSON cannot carry.
func XYPoints(x, y []float64) [][2]float64 {
	n := min(len(x), len(y))
	pts := make([][2]float64, 0, n)
	for i := 0; i < n; i++ {
		if finite(x[i]) && finite(y[i]) {
			pts = append(pts, [2]float64{x[i], y[i]})
		}
	}
	return pts
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// LineChartOption is the ECharts option of lines on two value axes (the
// shape of every engineering x–y plot here: chord along the span, a polar,
// a power curve, a time series). It is built with go-echarts' typed options
// and returned as a map for Chart, which emits it through templ.JSONScript;
// go-echarts' own HTML renderer is never used, because it writes options
// into an inline script unescaped and loads its JavaScript from the internet
// (../shared/design/go-stack.md §1.2). An empty title leaves the title out.
func LineChartOption(title, xName, yName string, series ...XYSeries) map[string]any {
	line := charts.NewLine()
	// The y-axis name sits above the plot area, so the grid leaves room for
	// it (at 10 px "Chord (m)" was cut off at the top), and for the title
	// when there is one. The legend goes to the right, clear of the y-axis
	// name at the left.
	top := "35"
	if title != "" {
		top = "55"
	}
	line.SetGlobalOptions(
		charts.WithAnimation(false), // printed reports capture the final frame
		charts.WithTitleOpts(opts.Title{Title: title, TitleStyle: &opts.TextStyle{FontSize: 14}}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(series) > 1), Top: "0", Right: "20"}),
		charts.WithGridOpts(opts.Grid{Left: "70", Right: "20", Top: top, Bottom: "45"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: xName, NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName, Scale: opts.Bool(true)}),
	)
	for _, s := range series {
		data := make([]opts.LineData, len(s.Points))
		for i, p := range s.Points {
			if math.IsNaN(p[1]) {
				data[i] = opts.LineData{Value: []any{p[0], nil}}
				continue
			}
			data[i] = opts.LineData{Value: []float64{p[0], p[1]}}
		}
		line.AddSeries(s.Name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(s.Markers), ConnectNulls: opts.Bool(false)}))
	}
	line.Validate()
	return line.JSON()
}
