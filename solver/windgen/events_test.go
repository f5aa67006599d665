package windgen

import (
	"bytes"
	"math"
	"testing"

	"github.com/turbinesim/turbinesim/solver/windfile"
)

// eventSite: class I, category A, 90 m hub, 126 m rotor, 12 m/s.
// Hand values: σ1 = 0.16·(0.75·12 + 5.6) = 2.336 m/s, Λ1 = 42 m,
// D/Λ1 = 3, 1 + 0.1·D/Λ1 = 1.3.
func eventSite() EventSite {
	return EventSite{Class: ClassI, Category: CategoryA, HubHeight: 90, RotorDiameter: 126, VHub: 12}
}

// rowAt returns the row at time t (rows are generated on a grid that
// includes it).
func rowAt(t *testing.T, rows []UniformWindRow, time float64) UniformWindRow {
	t.Helper()
	for _, r := range rows {
		if math.Abs(r.Time-time) < 1e-9 {
			return r
		}
	}
	t.Fatalf("no row at t = %g", time)
	return UniformWindRow{}
}

func TestEOGPeakValuesAndTiming(t *testing.T) {
	tm := EventTiming{Start: 20, Length: 60, Dt: 0.005}
	rows, info, err := EOG(eventSite(), tm)
	if err != nil {
		t.Fatal(err)
	}
	// V_e1 = 0.8·1.4·50 = 56 m/s; V_gust = min(1.35·(56 − 12) = 59.4,
	// 3.3·2.336/1.3 = 5.929846) = 5.929846 m/s.
	near(t, "V_gust", info.Amplitude, 5.929846153846, 1e-9)
	near(t, "σ1", info.Sigma1, 2.336, 1e-12)
	// Peak at t = T/2 = 5.25 s into the gust: −0.37·V_gust·sin(1.5π)·2 =
	// +0.74·V_gust = 4.388086 m/s.
	peak := rowAt(t, rows, 25.25)
	near(t, "gust at T/2", peak.Gust, 4.388086153846, 1e-9)
	// Dips: max of sin(3πx)(1 − cos 2πx) on [0, 0.5] is 0.724486 at
	// x = 0.23406 (found by a fine search by hand), so the dip is
	// −0.37·0.724486·V_gust = −1.589554 m/s at 2.4576 s and, by symmetry,
	// at 10.5 − 2.4576 s.
	minG, maxG, tMin, tMax := math.Inf(1), math.Inf(-1), 0.0, 0.0
	for _, r := range rows {
		if r.Gust < minG {
			minG, tMin = r.Gust, r.Time
		}
		if r.Gust > maxG {
			maxG, tMax = r.Gust, r.Time
		}
		if r.Speed != 12 || r.PowerLaw != 0.2 || r.Direction != 0 {
			t.Fatalf("row %+v: speed, shear or direction changed", r)
		}
	}
	near(t, "max gust", maxG, 4.388086153846, 1e-9)
	near(t, "time of max", tMax, 25.25, 1e-9)
	near(t, "min gust", minG, -1.58955, 2e-5)
	if math.Abs(tMin-(20+0.23406*10.5)) > 0.006 && math.Abs(tMin-(30.5-0.23406*10.5)) > 0.006 {
		t.Errorf("time of min %g, want 22.4576 or 28.0424", tMin)
	}
	// Before and after the gust the wind is steady.
	near(t, "gust before", rowAt(t, rows, 19.9).Gust, 0, 1e-12)
	near(t, "gust at end", rowAt(t, rows, 30.5).Gust, 0, 1e-9)
	near(t, "gust after", rowAt(t, rows, 40).Gust, 0, 1e-12)
	// Speed at the blade tip height 153 m at the peak: 12·1.7^0.2 + 4.388.
	near(t, "tip speed at peak", peak.SpeedAt(0, 153, 90, 126), 12*math.Pow(1.7, 0.2)+4.388086153846, 1e-9)

	// Near V_e1 the 1.35·(V_e1 − V_hub) branch governs: at 54 m/s,
	// 1.35·2 = 2.7 < 3.3·σ1/1.3.
	site := eventSite()
	site.VHub = 54
	_, info, err = EOG(site, tm)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "V_gust at 54 m/s", info.Amplitude, 2.7, 1e-9)
}

func TestEDCAngles(t *testing.T) {
	rows, info, err := EDC(eventSite(), EventTiming{Start: 10, Length: 40, Dt: 0.1}, -1)
	if err != nil {
		t.Fatal(err)
	}
	// θ_e = 4·atan(2.336/(12·1.3)) = 34.065588°, negative sign requested.
	near(t, "θ_e", info.Amplitude, -34.065588492243, 1e-9)
	near(t, "θ before", rowAt(t, rows, 9.9).Direction, 0, 1e-12)
	near(t, "θ at T/2 = 3 s", rowAt(t, rows, 13).Direction, -17.032794246122, 1e-9)
	near(t, "θ at T = 6 s", rowAt(t, rows, 16).Direction, -34.065588492243, 1e-9)
	near(t, "θ held", rowAt(t, rows, 40).Direction, -34.065588492243, 1e-9)
	// θ at 1.5 s = T/4: 0.5·θ_e·(1 − cos(π/4)) = 0.146447·θ_e.
	near(t, "θ at T/4", rowAt(t, rows, 11.5).Direction, -34.065588492243*0.5*(1-math.Sqrt2/2), 1e-9)
}

func TestECDGustAndDirection(t *testing.T) {
	rows, info, err := ECD(eventSite(), EventTiming{Start: 5, Length: 30, Dt: 0.25}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// θ_cg = 720/12 = 60°; V_cg = 15 m/s; T = 10 s.
	near(t, "θ_cg", info.Amplitude, 60, 1e-12)
	mid := rowAt(t, rows, 10)
	near(t, "gust at T/2", mid.Gust, 7.5, 1e-9)
	near(t, "θ at T/2", mid.Direction, 30, 1e-9)
	end := rowAt(t, rows, 15)
	near(t, "gust at T", end.Gust, 15, 1e-9)
	near(t, "θ at T", end.Direction, 60, 1e-9)
	near(t, "hub speed after", rowAt(t, rows, 30).SpeedAt(0, 90, 90, 126), 27, 1e-9)
	// Below 4 m/s θ_cg = 180°.
	site := eventSite()
	site.VHub = 3
	_, info, err = ECD(site, EventTiming{Start: 5, Length: 30, Dt: 0.25}, -1)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "θ_cg at 3 m/s", info.Amplitude, -180, 1e-12)
}

func TestEWSVerticalAndHorizontal(t *testing.T) {
	tm := EventTiming{Start: 30, Length: 60, Dt: 0.05}
	rows, info, err := EWS(eventSite(), tm, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Amplitude 2.5 + 0.2·6.4·2.336·3^0.25 = 6.435167 m/s; at T/2 = 6 s
	// the shear term is 2·amplitude·(z − z_hub)/D, so the speed difference
	// between top tip (153 m) and hub, beyond the power law, is 6.435167.
	near(t, "EWS amplitude", info.Amplitude, 6.435166584649, 1e-9)
	peak := rowAt(t, rows, 36)
	near(t, "LinVShear at T/2", peak.LinVShear, 2*6.435166584649/12, 1e-9)
	extra := peak.SpeedAt(0, 153, 90, 126) - PowerLaw(12, 90, 153, 0.2)
	near(t, "top-tip shear increment at T/2", extra, 6.435166584649, 1e-9)
	extra = peak.SpeedAt(0, 27, 90, 126) - PowerLaw(12, 90, 27, 0.2)
	near(t, "bottom-tip shear increment at T/2", extra, -6.435166584649, 1e-9)
	near(t, "shear at T/4", rowAt(t, rows, 33).LinVShear, 6.435166584649/12, 1e-9)
	near(t, "shear at T", rowAt(t, rows, 42).LinVShear, 0, 1e-9)
	near(t, "shear after", rowAt(t, rows, 50).LinVShear, 0, 1e-12)

	rows, _, err = EWS(eventSite(), tm, false, -1)
	if err != nil {
		t.Fatal(err)
	}
	peak = rowAt(t, rows, 36)
	near(t, "HorizShear at T/2", peak.HorizShear, -2*6.435166584649/12, 1e-9)
	near(t, "left-tip increment", peak.SpeedAt(63, 90, 90, 126)-12, -6.435166584649, 1e-9)
	if peak.LinVShear != 0 {
		t.Errorf("horizontal EWS has vertical shear %g", peak.LinVShear)
	}
}

func TestEventsRejectBadInput(t *testing.T) {
	tm := EventTiming{Start: 5, Length: 30, Dt: 0.1}
	bad := eventSite()
	bad.RotorDiameter = 0
	if _, _, err := EOG(bad, tm); err == nil {
		t.Error("EOG with zero diameter accepted")
	}
	if _, _, err := EDC(eventSite(), tm, 2); err == nil {
		t.Error("EDC with sign 2 accepted")
	}
	if _, _, err := ECD(eventSite(), EventTiming{Start: 5, Length: 30}, 1); err == nil {
		t.Error("ECD with zero row spacing accepted")
	}
	if _, _, err := EWS(eventSite(), EventTiming{Start: -1, Length: 30, Dt: 0.1}, true, 1); err == nil {
		t.Error("EWS with negative start accepted")
	}
}

func TestEventUniformFileRoundTrip(t *testing.T) {
	site := eventSite()
	rows, info, err := ECD(site, EventTiming{Start: 5, Length: 30, Dt: 0.5}, -1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteUniform(&buf, rows, info, site); err != nil {
		t.Fatal(err)
	}
	u, err := windfile.ReadUniform(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Rows) != len(rows) {
		t.Fatalf("%d rows read back, %d written", len(u.Rows), len(rows))
	}
	// Halfway through the gust (t = 10 s): 7.5 m/s gust, −30°.
	mid := u.At(10)
	near(t, "gust read back", mid.GustSpeed, 7.5, 1e-12)
	near(t, "direction read back", mid.Direction, -30, 1e-12)
	near(t, "speed read back", mid.HorSpeed, 12, 0)
	near(t, "shear exponent read back", mid.PowerLawExp, 0.2, 0)
}

func TestGenerateEventDispatch(t *testing.T) {
	tm := EventTiming{Start: 5, Length: 30, Dt: 0.5}
	for kind, want := range map[EventKind]float64{
		EventEOG: 5.929846153846, EventEDC: -34.065588492243, EventECD: -60,
		EventEWSV: -6.435166584649, EventEWSH: -6.435166584649,
	} {
		_, info, err := GenerateEvent(kind, eventSite(), tm, -1)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if info.Name != string(kind) {
			t.Errorf("%s: info name %q", kind, info.Name)
		}
		near(t, string(kind)+" amplitude", info.Amplitude, want, 1e-9)
	}
	if _, _, err := GenerateEvent("EWM", eventSite(), tm, 1); err == nil {
		t.Error("unknown event accepted")
	}
}
