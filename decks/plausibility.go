package decks

import (
	"fmt"
	"math"

	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/control"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// OverspeedFactor is the largest rotor speed a run may reach, as a
// multiple of the rated rotor speed, when the controller states no
// overspeed limit of its own: IEC 61400-1 leaves n_max to the design; 1.3
// × rated is the usual upper end of the over-speed a safety system allows
// before it trips (activation speed n_A ≈ 1.1-1.2 × rated), and the value
// docs/events.md bounds the event batches with.
const OverspeedFactor = 1.3

// PlausibilityLimits are the physical bounds a run of d is checked
// against (analysis.Plausibility), and a sentence per bound saying where
// it came from (for the job page and docs/events.md):
//
//   - rotor speed: OverspeedFactor × the rated rotor speed of the deck's
//     controller (ParamsFromDeck: ROSCO PC_RefSpd, the baseline's
//     set-point, ServoDyn's VS_RtGnSp), or ROSCO's own overspeed shut-down
//     speed SD_MaxGenSpd (generator, rad/s, with SD_Mode > 0 and
//     SD_EnableGenSpeed = 1) over the gearbox ratio when that is higher
//     (the controller is allowed to reach its own trip speed);
//   - pitch rate: the controller's actuator limit (control.DeckActuatorLimits:
//     ROSCO/baseline PC_MaxRat, else ServoDyn PtchRate_Max);
//   - yaw rate: ServoDyn's YawManRat, only when ElastoDyn's yaw DOF is
//     off (then the nacelle follows the yaw command, moved at that rate;
//     with the DOF on, the yaw spring and damper move it as they may);
//   - tip deflection: the blade length (TipRad − HubRad); tower-top
//     deflection: the tower's height above its base (TowerHt − TowerBsHt).
//
// A bound the deck does not give is zero (that check is left out).
func PlausibilityLimits(d *deck.Deck) (analysis.PlausibilityLimits, []string, error) {
	var lim analysis.PlausibilityLimits
	var basis []string
	if d == nil || d.ElastoDyn == nil {
		return lim, nil, fmt.Errorf("plausibility limits: the deck has no ElastoDyn input")
	}
	ed := d.ElastoDyn
	p, err := ParamsFromDeck(d)
	if err != nil {
		return lim, nil, fmt.Errorf("plausibility limits: %w", err)
	}
	if p.RatedRotorSpeedRPM != nil {
		lim.MaxRotorSpeedRPM = OverspeedFactor * *p.RatedRotorSpeedRPM
		basis = append(basis, fmt.Sprintf("rotor speed ≤ %.4g rpm (%.1f × the controller's rated %.4g rpm)",
			lim.MaxRotorSpeedRPM, OverspeedFactor, *p.RatedRotorSpeedRPM))
	}
	if trip := roscoTripRotorRPM(d); trip > lim.MaxRotorSpeedRPM {
		lim.MaxRotorSpeedRPM = trip
		basis = append(basis, fmt.Sprintf("rotor speed ≤ %.4g rpm (the controller's overspeed shut-down speed SD_MaxGenSpd)", trip))
	}
	act, ok, err := control.DeckActuatorLimits(d)
	if err != nil {
		return lim, nil, fmt.Errorf("plausibility limits: %w", err)
	}
	if ok && act.PitchRate > 0 {
		lim.MaxPitchRateDegS = act.PitchRate * 180 / math.Pi
		basis = append(basis, fmt.Sprintf("pitch rate ≤ %.3g deg/s (the controller's actuator limit)", lim.MaxPitchRateDegS))
	}
	if sd := d.ServoDyn; sd != nil && !ed.YawDOF && sd.YawManRat > 0 {
		lim.MaxYawRateDegS = sd.YawManRat
		basis = append(basis, fmt.Sprintf("yaw rate ≤ %.3g deg/s (ServoDyn YawManRat)", lim.MaxYawRateDegS))
	}
	if l := ed.TipRad - ed.HubRad; l > 0 {
		lim.MaxBladeDeflectionM = l
		basis = append(basis, fmt.Sprintf("blade-tip deflection ≤ %.4g m (the blade length)", l))
	}
	if h := ed.TowerHt - ed.TowerBsHt; h > 0 {
		lim.MaxTowerDeflectionM = h
		basis = append(basis, fmt.Sprintf("tower-top deflection ≤ %.4g m (the tower height)", h))
	}
	return lim, basis, nil
}

// roscoTripRotorRPM is ROSCO's generator overspeed shut-down speed
// (SD_MaxGenSpd, rad/s at the generator, active with SD_Mode > 0 and
// SD_EnableGenSpeed = 1; ROSCO's DISCON.IN documentation) as a rotor
// speed in rpm, or 0 when the deck's controller has none.
func roscoTripRotorRPM(d *deck.Deck) float64 {
	c := d.Controller
	if c == nil || d.ElastoDyn.GBRatio <= 0 {
		return 0
	}
	mode, ok, err := c.Int("SD_Mode")
	if err != nil || !ok || mode <= 0 {
		return 0
	}
	on, ok, err := c.Int("SD_EnableGenSpeed")
	if err != nil || !ok || on != 1 {
		return 0
	}
	v, ok, err := c.Float("SD_MaxGenSpd")
	if err != nil || !ok || !(v > 0) {
		return 0
	}
	return v / d.ElastoDyn.GBRatio * 30 / math.Pi
}
