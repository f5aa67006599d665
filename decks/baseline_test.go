package decks_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/coupling"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// build6MW builds the from-scratch 6 MW, 11 rpm, 140 m turbine (blades and
// tower scaled from the NREL 5 MW template) and loads its deck.
func build6MW(t *testing.T) (*turbinesim.Turbine, string, *deck.Deck) {
	t.Helper()
	req := turbinesim.TurbineCreate{Name: "Scratch 6 MW", TurbineParams: turbinesim.TurbineParams{
		RatedPowerKW: f64(6000), RotorDiameterM: f64(140), HubHeightM: f64(100), RatedRotorSpeedRPM: f64(11)}}
	tb, dir, cleanup, err := decks.BuildTurbine(context.Background(), &req, buildTemplate(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	d, err := deck.Load(filepath.Join(dir, filepath.FromSlash(*tb.MainFile)))
	if err != nil {
		t.Fatal(err)
	}
	return tb, dir, d
}

// TestTurbineCreateBaselineControllerFile: the built deck runs the
// built-in baseline controller from the parameter file the build wrote,
// and ParamsFromDeck reads the requested rated point back from it.
func TestTurbineCreateBaselineControllerFile(t *testing.T) {
	_, dir, d := build6MW(t)
	sd := d.ServoDyn
	if sd.PCMode != 5 || sd.VSContrl != 5 || sd.DLL_InFile != "Baseline_Controller.in" {
		t.Fatalf("ServoDyn PCMode %d VSContrl %d DLL_InFile %q", sd.PCMode, sd.VSContrl, sd.DLL_InFile)
	}
	if d.Controller != nil {
		t.Fatalf("the baseline parameter file was read as a ROSCO DISCON.IN")
	}
	src, err := os.ReadFile(filepath.Join(filepath.Dir(sd.Meta.Path), sd.DLL_InFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "PC_RefSpd") || !strings.Contains(string(src), "VS_RtPwr") {
		t.Fatalf("parameter file lacks PC_RefSpd/VS_RtPwr:\n%s", src)
	}
	// The pitch gains come from the built rotor's own sensitivity.
	if !strings.Contains(string(src), "PC_KK from this rotor's frozen-wake dP/dtheta") {
		t.Fatalf("parameter file does not state the rotor's own pitch sensitivity:\n%s", src)
	}
	if w := decks.Warnings(dir, d); w != nil {
		t.Fatalf("warnings %q for gains tuned to the rotor", w)
	}
	p, err := decks.ParamsFromDeck(d)
	if err != nil {
		t.Fatal(err)
	}
	if p.RatedPowerKW == nil || *p.RatedPowerKW != 6000 || p.RatedRotorSpeedRPM == nil || *p.RatedRotorSpeedRPM != 11 {
		t.Fatalf("ParamsFromDeck rated power %v kW, speed %v rpm; want 6000 kW, 11 rpm", deref(p.RatedPowerKW), deref(p.RatedRotorSpeedRPM))
	}
}

// TestTurbineCreateRunsAtRequestedRating simulates the from-scratch 6 MW,
// 11 rpm turbine in steady 16 m/s wind (region 3) with the deck's time step
// and checks that the controller holds what was asked: mean electrical
// power over the last 10 s of 70 s within 2 % of 6 MW and mean rotor speed
// within 2 % of 11 rpm. With the untuned 5 MW constants (DLL_InFile
// "unused", the behaviour before the builder wrote a parameter file) the
// same run holds 12.1 rpm and 5 MW, outside both bands. The run starts at
// 11 rpm and 10° pitch (near the 16 m/s operating point) to settle within
// the test's time.
func TestTurbineCreateRunsAtRequestedRating(t *testing.T) {
	if testing.Short() {
		t.Skip("70 s aeroelastic run")
	}
	_, _, d := build6MW(t)
	d.InflowWind.WindType, d.InflowWind.HWindSpeed = 1, 16
	d.ElastoDyn.BlPitch = [3]float64{10, 10, 10}
	const tMax = 70
	res, err := coupling.Run(context.Background(), d,
		coupling.Options{OutPath: "-", TMax: tMax, KeepData: true, Channels: []string{"RotSpeed", "GenPwr", "BldPitch1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(name string) float64 {
		for i, ch := range res.Channels {
			if ch.Name != name {
				continue
			}
			sum, n := 0.0, 0
			for k, tk := range res.Time {
				if tk >= tMax-10 {
					sum += res.Data[i][k]
					n++
				}
			}
			return sum / float64(n)
		}
		t.Fatalf("no %s among %v", name, res.Channels)
		return 0
	}
	rpm, kw, pitch := mean("RotSpeed"), mean("GenPwr"), mean("BldPitch1")
	t.Logf("16 m/s, last 10 s of %d s: %.3f rpm, %.1f kW, pitch %.2f°", tMax, rpm, kw, pitch)
	if math.Abs(rpm/11-1) > 0.02 {
		t.Errorf("rotor speed %.3f rpm, want 11 ± 2 %%", rpm)
	}
	if math.Abs(kw/6000-1) > 0.02 {
		t.Errorf("electrical power %.1f kW, want 6000 ± 2 %%", kw)
	}
}

// TestTurbineCreateRegion2TracksOptimalTSR simulates the from-scratch
// 6 MW, 11 rpm, 140 m turbine in steady 7 m/s wind in region 2 (the
// expected 7.2 rpm lies between the scaled cut-in, 6.28 rpm, and the end of
// region 2, 8.16 rpm; at 8 m/s λ* V/R = 8.24 rpm would be in region 2½),
// and the NREL 5 MW template with its own constants in the same wind. The
// scaled torque law (VS_Rgn2K ~ R^5/G^3, same blade aerodynamics) must
// hold the build at the template's tip-speed ratio within 1 % with the
// pitch at zero (mean below 0.1°), and both near the report's λ* = 7.55
// (Jonkman et al. 2009 §7.1) within 6 %. Measured: build 7.569 rpm, TSR
// 7.926; template 8.377 rpm, TSR 7.895 (+0.4 %); both about 5 % above 7.55,
// the report's K Ω² being designed on its steady aerodynamics while this
// runs the flexible rotor with AeroDyn's BEMT. 60 s each from λ* V/R,
// means over the last 10 s (settled: a 200 s run of the build gives
// 7.568 rpm from 30 s on).
func TestTurbineCreateRegion2TracksOptimalTSR(t *testing.T) {
	if testing.Short() {
		t.Skip("two 60 s aeroelastic runs")
	}
	const wind, lambdaStar, tMax = 7.0, 7.55, 60
	run := func(d *deck.Deck) (tsr, pitch, kw float64) {
		t.Helper()
		radius := d.ElastoDyn.TipRad
		d.InflowWind.WindType, d.InflowWind.HWindSpeed = 1, wind
		d.ElastoDyn.BlPitch = [3]float64{0, 0, 0}
		d.ElastoDyn.RotSpeed = lambdaStar * wind / radius * 30 / math.Pi
		res, err := coupling.Run(context.Background(), d,
			coupling.Options{OutPath: "-", TMax: tMax, KeepData: true, Channels: []string{"RotSpeed", "GenPwr", "BldPitch1"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rpm := lastMean(t, res, "RotSpeed", tMax-10)
		tsr = rpm * math.Pi / 30 * radius / wind
		pitch, kw = lastMean(t, res, "BldPitch1", tMax-10), lastMean(t, res, "GenPwr", tMax-10)
		t.Logf("R %.1f m, %g m/s, last 10 s of %d s: %.3f rpm, TSR %.3f (%+.2f %% from λ* %.2f), %.1f kW, pitch %.3f°",
			radius, wind, tMax, rpm, tsr, 100*(tsr/lambdaStar-1), lambdaStar, kw, pitch)
		return tsr, pitch, kw
	}
	_, _, built := build6MW(t)
	tsr, pitch, _ := run(built)

	dir := t.TempDir()
	rel, err := buildTemplate(t).WriteDeck(dir)
	if err != nil {
		t.Fatal(err)
	}
	template, err := deck.Load(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	tsr5, _, _ := run(template)

	if math.Abs(tsr/tsr5-1) > 0.01 {
		t.Errorf("built rotor's tip-speed ratio %.3f, template's %.3f: want within 1 %%", tsr, tsr5)
	}
	for _, v := range []float64{tsr, tsr5} {
		if math.Abs(v/lambdaStar-1) > 0.06 {
			t.Errorf("tip-speed ratio %.3f, want λ* = %.2f within 6 %%", v, lambdaStar)
		}
	}
	if math.Abs(pitch) > 0.1 {
		t.Errorf("built rotor's mean pitch %.3f°, want 0 (region 2)", pitch)
	}
}

// lastMean is the mean of channel name from time from on.
func lastMean(t *testing.T, res *coupling.Result, name string, from float64) float64 {
	t.Helper()
	for i, ch := range res.Channels {
		if ch.Name != name {
			continue
		}
		sum, n := 0.0, 0
		for k, tk := range res.Time {
			if tk >= from {
				sum += res.Data[i][k]
				n++
			}
		}
		return sum / float64(n)
	}
	t.Fatalf("no %s among %v", name, res.Channels)
	return 0
}
