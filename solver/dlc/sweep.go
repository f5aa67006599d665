package dlc

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim/solver/deck"
)

// MaxSweepPoints caps a parametric sweep: ExpandSweep returns an error for
// a full factorial with more points.
const MaxSweepPoints = 1000

// maxValuesPerParam bounds one parameter's range before the product is
// formed (a tiny step would otherwise allocate without limit).
const maxValuesPerParam = MaxSweepPoints

// SweepParam is one swept parameter: an explicit list of Values, or the
// range Start, Start+Step, … up to Stop (inclusive within 1e-9·|Step|)
// when Values is empty.
type SweepParam struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values,omitempty"`
	Start  float64   `json:"start,omitempty"`
	Stop   float64   `json:"stop,omitempty"`
	Step   float64   `json:"step,omitempty"`
}

// SweepPoint is one point of a sweep: the base values with the swept ones
// set.
type SweepPoint struct {
	Index int    `json:"index"`
	ID    string `json:"id"` // e.g. "P003_wind_speed=8_blade_pitch=2.5"
	// Values holds every parameter of the point, base and swept.
	Values map[string]float64 `json:"values"`
	// Swept lists the swept parameter names in request order.
	Swept []string `json:"swept"`
}

// sweepSetter applies one parameter to a deck.
type sweepSetter struct {
	doc   string
	apply func(d *deck.Deck, v float64) error
}

// sweepSetters maps the parameter names ApplySweepPoint knows to deck
// variables (a function, so the package holds no mutable state).
func sweepSetters() map[string]sweepSetter {
	return map[string]sweepSetter{
		"wind_speed": {"steady hub-height wind speed: InflowWind WindType = 1, HWindSpeed [m/s]", func(d *deck.Deck, v float64) error {
			if !(v >= 0) || v > 100 {
				return fmt.Errorf("must be in [0, 100] m/s")
			}
			iw, err := inflowCopy(d)
			if err != nil {
				return err
			}
			iw.WindType, iw.HWindSpeed = 1, v
			return nil
		}},
		"shear_exponent": {"power-law shear exponent of the steady wind: InflowWind PLExp [-]", func(d *deck.Deck, v float64) error {
			if v < -1 || v > 1 {
				return fmt.Errorf("must be in [−1, 1]")
			}
			iw, err := inflowCopy(d)
			if err != nil {
				return err
			}
			iw.PLExp = v
			return nil
		}},
		"yaw_misalignment": {"wind direction relative to the rotor: InflowWind PropagationDir [deg] (as PrepareRun)", func(d *deck.Deck, v float64) error {
			if math.Abs(v) > 180 {
				return fmt.Errorf("must be in [−180, 180]°")
			}
			iw, err := inflowCopy(d)
			if err != nil {
				return err
			}
			iw.PropagationDir = v
			return nil
		}},
		"t_max": {"simulation length: .fst TMax [s]", func(d *deck.Deck, v float64) error {
			if !(v > 0) || v > 36000 {
				return fmt.Errorf("must be in (0, 36000] s")
			}
			m := *d.Main
			m.TMax = v
			d.Main = &m
			return nil
		}},
		"air_density": {"air density: .fst AirDens and AeroDyn AirDens [kg/m³]", func(d *deck.Deck, v float64) error {
			if !(v > 0) || v > 2 {
				return fmt.Errorf("must be in (0, 2] kg/m³")
			}
			m := *d.Main
			m.AirDens = v
			d.Main = &m
			if d.AeroDyn != nil {
				ad := *d.AeroDyn
				ad.AirDens = deck.DefReal{Value: v}
				d.AeroDyn = &ad
			}
			return nil
		}},
		"rotor_speed": {"initial rotor speed: ElastoDyn RotSpeed [rpm]", func(d *deck.Deck, v float64) error {
			if v < 0 || v > 1000 {
				return fmt.Errorf("must be in [0, 1000] rpm")
			}
			ed, err := edCopy(d)
			if err != nil {
				return err
			}
			ed.RotSpeed = v
			return nil
		}},
		"blade_pitch": {"initial pitch of every blade: ElastoDyn BlPitch(1..3) [deg]", func(d *deck.Deck, v float64) error {
			if math.Abs(v) > 180 {
				return fmt.Errorf("must be in [−180, 180]°")
			}
			ed, err := edCopy(d)
			if err != nil {
				return err
			}
			for i := range ed.BlPitch {
				ed.BlPitch[i] = v
			}
			return nil
		}},
		"nacelle_yaw": {"initial nacelle yaw: ElastoDyn NacYaw [deg]", func(d *deck.Deck, v float64) error {
			if math.Abs(v) > 180 {
				return fmt.Errorf("must be in [−180, 180]°")
			}
			ed, err := edCopy(d)
			if err != nil {
				return err
			}
			ed.NacYaw = v
			return nil
		}},
		"hub_height": {"hub height [m]: ElastoDyn TowerHt = H − Twr2Shft − OverHang·sin(ShftTilt); AeroDyn tower elevations stretched between the tower base and top; InflowWind RefHt, RefHt_Uni and the wind-probe heights at the old hub height moved", setHubHeight},
	}
}

// SweepParamNames lists the parameter names ApplySweepPoint accepts,
// sorted.
func SweepParamNames() []string {
	setters := sweepSetters()
	names := make([]string, 0, len(setters))
	for k := range setters {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// SweepParamDoc describes the deck variables behind a parameter name.
func SweepParamDoc(name string) (string, bool) {
	s, ok := sweepSetters()[name]
	return s.doc, ok
}

// ExpandSweep forms the full factorial of the parameters over the base
// values: the last parameter varies fastest. Base entries not swept are
// copied into every point. More than MaxSweepPoints points, an unknown or
// repeated name, an empty or non-finite range are errors.
func ExpandSweep(base map[string]float64, params []SweepParam) ([]SweepPoint, error) {
	if len(params) == 0 {
		return nil, fmt.Errorf("dlc: sweep: no parameter to sweep")
	}
	sweepParams := sweepSetters()
	for k, v := range base {
		if _, ok := sweepParams[k]; !ok {
			return nil, fmt.Errorf("dlc: sweep: unknown base parameter %q (valid: %s)", k, strings.Join(SweepParamNames(), ", "))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("dlc: sweep: base %s = %g is not finite", k, v)
		}
	}
	lists := make([][]float64, len(params))
	names := make([]string, len(params))
	seen := map[string]bool{}
	total := 1
	for i, p := range params {
		if _, ok := sweepParams[p.Name]; !ok {
			return nil, fmt.Errorf("dlc: sweep: unknown parameter %q (valid: %s)", p.Name, strings.Join(SweepParamNames(), ", "))
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("dlc: sweep: parameter %s given twice", p.Name)
		}
		seen[p.Name] = true
		vals, err := p.values()
		if err != nil {
			return nil, fmt.Errorf("dlc: sweep: %s: %w", p.Name, err)
		}
		lists[i], names[i] = vals, p.Name
		total *= len(vals)
		if total > MaxSweepPoints {
			return nil, fmt.Errorf("dlc: sweep: more than %d points (full factorial); reduce the values", MaxSweepPoints)
		}
	}
	points := make([]SweepPoint, total)
	idx := make([]int, len(params))
	for n := 0; n < total; n++ {
		vals := make(map[string]float64, len(base)+len(params))
		for k, v := range base {
			vals[k] = v
		}
		var id strings.Builder
		fmt.Fprintf(&id, "P%03d", n+1)
		for i, name := range names {
			v := lists[i][idx[i]]
			vals[name] = v
			fmt.Fprintf(&id, "_%s=%s", name, strconv.FormatFloat(v, 'g', 6, 64))
		}
		points[n] = SweepPoint{Index: n, ID: id.String(), Values: vals, Swept: append([]string(nil), names...)}
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(lists[i]) {
				break
			}
			idx[i] = 0
		}
	}
	return points, nil
}

func (p SweepParam) values() ([]float64, error) {
	if len(p.Values) > 0 {
		if len(p.Values) > maxValuesPerParam {
			return nil, fmt.Errorf("%d values, more than %d", len(p.Values), maxValuesPerParam)
		}
		for _, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("value %g is not finite", v)
			}
		}
		return append([]float64(nil), p.Values...), nil
	}
	for _, v := range []float64{p.Start, p.Stop, p.Step} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("range %g..%g step %g is not finite", p.Start, p.Stop, p.Step)
		}
	}
	if p.Step == 0 {
		if p.Start == p.Stop {
			return []float64{p.Start}, nil
		}
		return nil, fmt.Errorf("no values and a zero step (range %g..%g)", p.Start, p.Stop)
	}
	if (p.Stop-p.Start)/p.Step < 0 {
		return nil, fmt.Errorf("step %g does not lead from %g to %g", p.Step, p.Start, p.Stop)
	}
	count := math.Floor((p.Stop-p.Start)/p.Step+1e-9) + 1
	if count > maxValuesPerParam {
		return nil, fmt.Errorf("range %g..%g step %g has %g values, more than %d", p.Start, p.Stop, p.Step, count, maxValuesPerParam)
	}
	n := int(count)
	out := make([]float64, n)
	for k := range out {
		// start + k·step, rounded to 12 significant digits so 0.1 steps
		// print as 0.3, not 0.30000000000000004
		v := p.Start + float64(k)*p.Step
		out[k], _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	}
	return out, nil
}

// ApplySweepPoint sets every value of the point on the deck (the names of
// SweepParamNames; see SweepParamDoc for the deck variables). The
// structures it changes are replaced by modified copies, so sweeping a
// shallow copy of a loaded deck (nd := *d) leaves the original unchanged.
// Unknown names are an error listing the valid ones; values are applied in
// sorted name order.
func ApplySweepPoint(d *deck.Deck, point SweepPoint) error {
	if d == nil || d.Main == nil {
		return fmt.Errorf("dlc: apply sweep point %s: no deck", point.ID)
	}
	sweepParams := sweepSetters()
	names := make([]string, 0, len(point.Values))
	for k := range point.Values {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		s, ok := sweepParams[k]
		if !ok {
			return fmt.Errorf("dlc: apply sweep point %s: unknown parameter %q (valid: %s)", point.ID, k, strings.Join(SweepParamNames(), ", "))
		}
		v := point.Values[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("dlc: apply sweep point %s: %s = %g is not finite", point.ID, k, v)
		}
		if err := s.apply(d, v); err != nil {
			return fmt.Errorf("dlc: apply sweep point %s: %s = %g: %w", point.ID, k, v, err)
		}
	}
	return nil
}

func inflowCopy(d *deck.Deck) (*deck.InflowWind, error) {
	if d.InflowWind == nil {
		return nil, fmt.Errorf("the deck has no InflowWind file")
	}
	iw := *d.InflowWind
	d.InflowWind = &iw
	return &iw, nil
}

func edCopy(d *deck.Deck) (*deck.ElastoDyn, error) {
	if d.ElastoDyn == nil {
		return nil, fmt.Errorf("the deck has no ElastoDyn file")
	}
	ed := *d.ElastoDyn
	d.ElastoDyn = &ed
	return &ed, nil
}

// HubHeight returns the deck's hub height from ElastoDyn's geometry:
// TowerHt + Twr2Shft + OverHang·sin(ShftTilt) (ElastoDyn's rotor apex
// above the yaw bearing; with the upwind NREL 5 MW values 87.6 + 1.96256 +
// (−5.0191)·sin(−5°) = 90.0 m).
func HubHeight(ed *deck.ElastoDyn) float64 {
	return ed.TowerHt + ed.Twr2Shft + ed.OverHang*math.Sin(ed.ShftTilt*math.Pi/180)
}

func setHubHeight(d *deck.Deck, h float64) error {
	ed, err := edCopy(d)
	if err != nil {
		return err
	}
	old := HubHeight(ed)
	newTower := ed.TowerHt + (h - old)
	if !(newTower > ed.TowerBsHt) || h > 1000 {
		return fmt.Errorf("tower top %g m would not be above the tower base %g m (or hub above 1000 m)", newTower, ed.TowerBsHt)
	}
	if ed.TipRad > 0 && h <= ed.TipRad {
		return fmt.Errorf("rotor radius %g m reaches the ground", ed.TipRad)
	}
	oldTower := ed.TowerHt
	ed.TowerHt = newTower
	if ad := d.AeroDyn; ad != nil && len(ad.TwrElev) > 0 {
		// AeroDyn's tower nodes are absolute heights: stretch them with
		// the tower between its base and top.
		c := *ad
		base := ed.TowerBsHt
		scale := (newTower - base) / (oldTower - base)
		c.TwrElev = make([]float64, len(ad.TwrElev))
		for i, z := range ad.TwrElev {
			c.TwrElev[i] = base + (z-base)*scale
		}
		d.AeroDyn = &c
	}
	if d.InflowWind != nil {
		iw, _ := inflowCopy(d)
		if math.Abs(iw.RefHt-old) < 0.5 {
			iw.RefHt = h
		}
		if math.Abs(iw.RefHt_Uni-old) < 0.5 {
			iw.RefHt_Uni = h
		}
		if len(iw.WindVziList) > 0 {
			iw.WindVziList = append([]float64(nil), iw.WindVziList...)
			for i, z := range iw.WindVziList {
				if math.Abs(z-old) < 0.5 {
					iw.WindVziList[i] = h
				}
			}
		}
	}
	return nil
}
