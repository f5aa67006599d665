package analysis

import (
	"math"
	"testing"
)

// Bad or degenerate input returns errors (or empty results), never panics.
func TestBadInputNoPanic(t *testing.T) {
	var nilRec *Record
	empty := &Record{}
	one := &Record{Time: []float64{0}, Names: []string{"A"}, Channels: [][]float64{{1}}}
	nan := math.NaN()
	mustErr := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
		}
	}
	_, err := Statistics(nilRec, nil, WholeRecord())
	mustErr("statistics nil", err)
	_, err = Statistics(empty, nil, WholeRecord())
	mustErr("statistics empty", err)
	_, err = Statistics(one, nil, NewWindow(&nan, nil))
	mustErr("NaN window", err)
	_, err = Statistics(one, nil, Between(5, 1))
	mustErr("reversed window", err)
	if st, err := Statistics(one, nil, WholeRecord()); err != nil || st[0].Std != 0 || st[0].SampleStd != 0 {
		t.Errorf("single sample: %+v %v", st, err)
	}
	_, err = Decimate(nilRec, nil, WholeRecord(), 2)
	mustErr("decimate nil", err)
	_, err = Envelope(one, nil, WholeRecord(), 0)
	mustErr("envelope 0 buckets", err)
	_, err = Amplitude(nil, 0.1, DetrendMean)
	mustErr("amplitude empty", err)
	_, err = Welch([]float64{1}, 0.1, DefaultWelchOptions())
	mustErr("welch 1 sample", err)
	_, err = Welch([]float64{1, 2, 3}, 0.1, WelchOptions{SegmentLength: -4})
	mustErr("welch negative segment", err)
	_, err = Welch([]float64{1, 2, 3}, 0.1, WelchOptions{Window: SpectralWindow(9)})
	mustErr("welch unknown window", err)
	_, err = Welch([]float64{1, 2, 3}, 0.1, WelchOptions{Detrend: Detrend(9)})
	mustErr("welch unknown detrend", err)
	_, err = ChannelAmplitude(one, "A", WholeRecord(), DetrendNone)
	mustErr("spectrum of one sample", err)
	_, err = ChannelWelch(one, "B", WholeRecord(), DefaultWelchOptions())
	mustErr("welch missing channel", err)
	if cs, err := Rainflow(nil); err != nil || len(cs) != 0 {
		t.Errorf("rainflow empty: %v %v", cs, err)
	}
	_, err = MarkovMatrix(nil, 2, 2)
	mustErr("markov empty", err)
	_, err = PowerCurve(nil, CurveOptions{})
	mustErr("power curve empty", err)
	_, err = PowerCurve([]CurvePoint{{WindSpeed: -1, PowerKW: 1}}, CurveOptions{})
	mustErr("negative wind", err)
	_, err = PowerCurve([]CurvePoint{{WindSpeed: 5, PowerKW: 1}}, CurveOptions{Binning: Binning(7)})
	mustErr("unknown binning", err)
	_, err = AnnualEnergy(nil, Rayleigh{MeanSpeed: 8})
	mustErr("AEP empty", err)
	_, err = AnnualEnergy([]CurveBin{{WindSpeed: 5, PowerKW: 1}}, nil)
	mustErr("AEP nil distribution", err)
	_, err = AnnualEnergy([]CurveBin{{WindSpeed: 5, PowerKW: 1}, {WindSpeed: 4, PowerKW: 1}}, Rayleigh{MeanSpeed: 8})
	mustErr("AEP unsorted", err)
	_, err = Extremes(nil, ExtremeOptions{})
	mustErr("extremes empty", err)
	_, err = Extremes([]ExtremeRun{{ID: "x"}}, ExtremeOptions{})
	mustErr("extremes nil record", err)
	_, err = WithResultant(one, "R", "", "A")
	mustErr("resultant of one component", err)
	_, err = RotorHarmonics(math.Inf(1))
	mustErr("infinite rotor speed", err)
	_, err = WindSpeedWeights([]float64{5}, nil)
	mustErr("weights nil distribution", err)
	_, err = BatchDEL(nil, []string{"A"}, DELOptions{Exponents: []float64{3}}, Rayleigh{MeanSpeed: 8})
	mustErr("batch DEL no runs", err)
	_, err = ParseDetrend("quadratic")
	mustErr("parse detrend", err)
	_, err = ParseSpectralWindow("kaiser")
	mustErr("parse window", err)
}
