package turbinesim

import (
	"encoding/json"
	"math"
)

// TurbineCreate is the build-from-scratch payload of POST /turbines:
// name, description, the scalar parameters and the four configuration
// blobs. The blobs are stored as given; the keys listed in BladeSpec,
// TowerSpec, NacelleSpec and ControllerSpec also shape the generated deck.
type TurbineCreate struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	TurbineParams
	BladeConfig      ConfigBlob `json:"blade_config,omitempty"`
	TowerConfig      ConfigBlob `json:"tower_config,omitempty"`
	NacelleConfig    ConfigBlob `json:"nacelle_config,omitempty"`
	ControllerConfig ConfigBlob `json:"controller_config,omitempty"`
}

// BladeSpec are the keys of blade_config used for the deck: AeroDyn blade
// stations (span from the root along the pitch axis in m, chord in m,
// aerodynamic twist in degrees), all the same length, span increasing.
type BladeSpec struct {
	Stations *struct {
		SpanM    []float64 `json:"span_m"`
		ChordM   []float64 `json:"chord_m"`
		TwistDeg []float64 `json:"twist_deg"`
	} `json:"stations"`
}

// TowerSpec are the keys of tower_config used for the deck: ElastoDyn tower
// stations (fraction of the height from 0 to 1, mass density kg/m, fore-aft
// and side-to-side stiffness N m^2).
type TowerSpec struct {
	Stations *struct {
		HtFract    []float64 `json:"ht_fract"`
		MassDenKgM []float64 `json:"mass_density_kg_m"`
		FAStiffNm2 []float64 `json:"fa_stiffness_nm2"`
		SSStiffNm2 []float64 `json:"ss_stiffness_nm2"`
	} `json:"stations"`
}

// NacelleSpec are the keys of nacelle_config used for the deck.
type NacelleSpec struct {
	GearboxRatio *float64 `json:"gearbox_ratio"`
	OverhangM    *float64 `json:"overhang_m"`
	Twr2ShftM    *float64 `json:"twr2shft_m"`
}

// ControllerSpec are the keys of controller_config used for the deck.
type ControllerSpec struct {
	GeneratorEfficiencyPct *float64 `json:"generator_efficiency_pct"`
}

// DecodeConfigBlob decodes the configuration blob raw of the named field
// into dst; a JSON type mismatch is EINVALID naming the field. An empty
// blob leaves dst as it is.
func DecodeConfigBlob(field string, raw ConfigBlob, dst any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		if problem, ok := JSONTypeProblem(err); ok {
			return Errorf(EINVALID, "%s: %s", field, problem)
		}
		return Errorf(EINVALID, "%s: %v", field, err)
	}
	return nil
}

func positive(field string, v *float64) error {
	if v != nil && !(*v > 0) {
		return Errorf(EINVALID, "%s: must be positive", field)
	}
	return nil
}

// DeckSpecs are the deck-shaping keys of the four configuration blobs.
type DeckSpecs struct {
	Blade      BladeSpec
	Tower      TowerSpec
	Nacelle    NacelleSpec
	Controller ControllerSpec
}

// DecodeDeckSpecs decodes the deck-shaping keys of the blobs and checks
// everything about them that does not depend on a deck (POST /turbines and
// PUT /turbines/{id} give the same 422 details). A blade's span must also
// end at the blade length, which only a deck knows (setBladeStations).
func DecodeDeckSpecs(blade, tower, nacelle, ctrl ConfigBlob) (DeckSpecs, error) {
	var s DeckSpecs
	for _, b := range []struct {
		field string
		raw   ConfigBlob
		dst   any
	}{{"blade_config", blade, &s.Blade}, {"tower_config", tower, &s.Tower}, {"nacelle_config", nacelle, &s.Nacelle}, {"controller_config", ctrl, &s.Controller}} {
		if err := DecodeConfigBlob(b.field, b.raw, b.dst); err != nil {
			return s, err
		}
	}
	if err := positive("nacelle_config.gearbox_ratio", s.Nacelle.GearboxRatio); err != nil {
		return s, err
	}
	if err := positive("nacelle_config.twr2shft_m", s.Nacelle.Twr2ShftM); err != nil {
		return s, err
	}
	if e := s.Controller.GeneratorEfficiencyPct; e != nil && !(*e > 0 && *e <= 100) {
		return s, Errorf(EINVALID, "controller_config.generator_efficiency_pct: must be in (0, 100]")
	}
	if st := s.Blade.Stations; st != nil {
		n := len(st.SpanM)
		if n < 2 {
			return s, Errorf(EINVALID, "blade_config.stations.span_m: at least 2 stations")
		}
		if len(st.ChordM) != n || len(st.TwistDeg) != n {
			return s, Errorf(EINVALID, "blade_config.stations: span_m, chord_m and twist_deg must have the same length (%d, %d, %d)", n, len(st.ChordM), len(st.TwistDeg))
		}
		for i := range st.SpanM {
			if i > 0 && !(st.SpanM[i] > st.SpanM[i-1]) {
				return s, Errorf(EINVALID, "blade_config.stations.span_m[%d]: must increase", i)
			}
			if !(st.ChordM[i] > 0) {
				return s, Errorf(EINVALID, "blade_config.stations.chord_m[%d]: must be positive", i)
			}
			if math.Abs(st.TwistDeg[i]) > 90 {
				return s, Errorf(EINVALID, "blade_config.stations.twist_deg[%d]: within ±90 degrees", i)
			}
		}
	}
	if st := s.Tower.Stations; st != nil {
		n := len(st.HtFract)
		if n < 2 || len(st.MassDenKgM) != n || len(st.FAStiffNm2) != n || len(st.SSStiffNm2) != n {
			return s, Errorf(EINVALID, "tower_config.stations: ht_fract, mass_density_kg_m, fa_stiffness_nm2 and ss_stiffness_nm2 need the same length of at least 2")
		}
		if st.HtFract[0] != 0 || st.HtFract[n-1] != 1 {
			return s, Errorf(EINVALID, "tower_config.stations.ht_fract: must run from 0 to 1")
		}
		for i := 0; i < n; i++ {
			if i > 0 && !(st.HtFract[i] > st.HtFract[i-1]) {
				return s, Errorf(EINVALID, "tower_config.stations.ht_fract[%d]: must increase", i)
			}
			if !(st.MassDenKgM[i] > 0) || !(st.FAStiffNm2[i] > 0) || !(st.SSStiffNm2[i] > 0) {
				return s, Errorf(EINVALID, "tower_config.stations[%d]: mass density and stiffnesses must be positive", i)
			}
		}
	}
	return s, nil
}
