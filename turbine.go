package turbinesim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// DemoPrefix starts the description of every demo-derived turbine row; such
// rows refuse update and delete (clone one to edit it).
const DemoPrefix = "Pre-built demo:"

// IsDemoDescription reports whether a description marks a demo-derived row.
func IsDemoDescription(d string) bool { return strings.HasPrefix(d, DemoPrefix) }

// TurbineParams are the scalar parameters of a turbine configuration, with
// their units in the JSON names. nil means "not stated" (an uploaded deck
// does not always give every one).
type TurbineParams struct {
	RatedPowerKW       *float64 `json:"rated_power_kw" db:"rated_power_kw"`
	RotorDiameterM     *float64 `json:"rotor_diameter_m" db:"rotor_diameter_m"`
	HubHeightM         *float64 `json:"hub_height_m" db:"hub_height_m"`
	CutInWindSpeedMS   *float64 `json:"cut_in_wind_speed_ms" db:"cut_in_wind_speed_ms"`
	RatedWindSpeedMS   *float64 `json:"rated_wind_speed_ms" db:"rated_wind_speed_ms"`
	CutOutWindSpeedMS  *float64 `json:"cut_out_wind_speed_ms" db:"cut_out_wind_speed_ms"`
	ShaftTiltDeg       *float64 `json:"shaft_tilt_deg" db:"shaft_tilt_deg"`
	PreconeDeg         *float64 `json:"precone_deg" db:"precone_deg"`
	RatedRotorSpeedRPM *float64 `json:"rated_rotor_speed_rpm" db:"rated_rotor_speed_rpm"`
}

// paramRange is the accepted interval of one scalar parameter; the bounds
// are physical plausibility limits (no wind turbine outside them), not
// design limits.
type paramRange struct {
	name     string
	value    *float64
	min, max float64
}

func (p *TurbineParams) ranges() []paramRange {
	return []paramRange{
		{"rated_power_kw", p.RatedPowerKW, 0, 1e6},
		{"rotor_diameter_m", p.RotorDiameterM, 0, 1000},
		{"hub_height_m", p.HubHeightM, 0, 1000},
		{"cut_in_wind_speed_ms", p.CutInWindSpeedMS, 0, 100},
		{"rated_wind_speed_ms", p.RatedWindSpeedMS, 0, 100},
		{"cut_out_wind_speed_ms", p.CutOutWindSpeedMS, 0, 100},
		{"shaft_tilt_deg", p.ShaftTiltDeg, -30, 30},
		{"precone_deg", p.PreconeDeg, -30, 30},
		{"rated_rotor_speed_rpm", p.RatedRotorSpeedRPM, 0, 1000},
	}
}

// Validate checks each stated parameter against its range and the order of
// the wind-speed band (cut-in < rated < cut-out). The message names the
// field.
func (p *TurbineParams) Validate() error {
	for _, r := range p.ranges() {
		if r.value == nil {
			continue
		}
		v := *r.value
		if math.IsNaN(v) || math.IsInf(v, 0) || v < r.min || v > r.max {
			return Errorf(EINVALID, "%s: %g is outside [%g, %g]", r.name, v, r.min, r.max)
		}
		if r.min == 0 && v == 0 && r.name != "cut_in_wind_speed_ms" {
			return Errorf(EINVALID, "%s: must be positive", r.name)
		}
	}
	in, rated, out := p.CutInWindSpeedMS, p.RatedWindSpeedMS, p.CutOutWindSpeedMS
	if in != nil && rated != nil && *in >= *rated {
		return Errorf(EINVALID, "cut_in_wind_speed_ms: %g must be below rated_wind_speed_ms %g", *in, *rated)
	}
	if rated != nil && out != nil && *rated >= *out {
		return Errorf(EINVALID, "rated_wind_speed_ms: %g must be below cut_out_wind_speed_ms %g", *rated, *out)
	}
	if in != nil && out != nil && *in >= *out {
		return Errorf(EINVALID, "cut_in_wind_speed_ms: %g must be below cut_out_wind_speed_ms %g", *in, *out)
	}
	return nil
}

// Turbine is a turbine configuration of an organization.
type Turbine struct {
	ID             string `json:"id" db:"id"`
	OrganizationID string `json:"org_id" db:"organization_id"`
	Name           string `json:"name" db:"name"`
	Description    string `json:"description" db:"description"`
	TurbineParams
	BladeConfig      ConfigBlob `json:"blade_config,omitempty" db:"blade_config"`
	TowerConfig      ConfigBlob `json:"tower_config,omitempty" db:"tower_config"`
	NacelleConfig    ConfigBlob `json:"nacelle_config,omitempty" db:"nacelle_config"`
	ControllerConfig ConfigBlob `json:"controller_config,omitempty" db:"controller_config"`
	IsValidated      bool       `json:"is_validated" db:"is_validated"`
	// DemoID names the bundled reference turbine of a demo-derived row.
	DemoID *string `json:"demo_id,omitempty" db:"demo_id"`
	// MainFile is the slash-separated path of the primary .fst inside the
	// stored source tree; empty when the row has no deck files.
	MainFile  *string   `json:"main_file,omitempty" db:"main_file"`
	SourceKey *string   `json:"-" db:"source_key"`
	CreatedBy *string   `json:"created_by,omitempty" db:"created_by"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
	// Warnings tell the user what to know about the turbine's deck
	// although it runs (decks.Warnings: the builder's, e.g. controller gains
	// not tuned to this rotor, then the deck validator's warnings). Set in
	// the responses that wrote or read the deck (POST /turbines, an upload,
	// a clone, a demo load, a PUT that rebuilt the deck, GET
	// /turbines/{id}). Not a column: they are computed from the stored
	// deck, as the turbine page does.
	Warnings []string `json:"warnings,omitempty" db:"-"`
	// DeckChanges is set in the answer of an edit that rewrote the stored
	// deck (and of its preview): which files and values changed.
	DeckChanges *DeckEditReport `json:"deck_changes,omitempty" db:"-"`
}

// IsDemo reports whether the row is demo-derived (read-only).
func (t *Turbine) IsDemo() bool { return IsDemoDescription(t.Description) }

// HasDeck reports whether the row has stored deck files.
func (t *Turbine) HasDeck() bool {
	return t.SourceKey != nil && *t.SourceKey != "" && t.MainFile != nil && *t.MainFile != ""
}

// MaxTurbineNameLength and MaxTurbineDescriptionLength bound the free-text
// fields (in runes).
const (
	MaxTurbineNameLength        = 200
	MaxTurbineDescriptionLength = 4000
	maxConfigBlobBytes          = 1 << 20
)

// ValidateTurbineName checks a name: non-empty after trimming, at most 200
// runes, valid UTF-8, no control or bidirectional-override characters
// (a NUL would reach PostgreSQL as an error).
func ValidateTurbineName(name string) error {
	if strings.TrimSpace(name) == "" {
		return Errorf(EINVALID, "name: required")
	}
	if err := checkText("name", name, MaxTurbineNameLength); err != nil {
		return err
	}
	return nil
}

func checkText(field, s string, maxRunes int) error {
	if !utf8.ValidString(s) {
		return Errorf(EINVALID, "%s: not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > maxRunes {
		return Errorf(EINVALID, "%s: %d characters, at most %d", field, n, maxRunes)
	}
	for _, r := range s {
		if (unicode.IsControl(r) && r != '\n' && r != '\t') || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return Errorf(EINVALID, "%s: control or bidirectional-override character U+%04X not allowed", field, r)
		}
	}
	return nil
}

// Validate checks the caller-settable fields.
func (t *Turbine) Validate() error {
	if err := ValidateTurbineName(t.Name); err != nil {
		return err
	}
	if err := checkText("description", t.Description, MaxTurbineDescriptionLength); err != nil {
		return err
	}
	if err := t.TurbineParams.Validate(); err != nil {
		return err
	}
	for _, b := range []struct {
		name string
		raw  ConfigBlob
	}{{"blade_config", t.BladeConfig}, {"tower_config", t.TowerConfig}, {"nacelle_config", t.NacelleConfig}, {"controller_config", t.ControllerConfig}} {
		if err := validateBlob(b.name, b.raw); err != nil {
			return err
		}
	}
	return nil
}

// validateBlob accepts an absent blob or a JSON object of at most 1 MiB.
func validateBlob(name string, raw ConfigBlob) error {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	if len(raw) > maxConfigBlobBytes {
		return Errorf(EINVALID, "%s: larger than %d bytes", name, maxConfigBlobBytes)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return Errorf(EINVALID, "%s: must be a JSON object", name)
	}
	if bytes.Contains(raw, []byte(`\u0000`)) {
		return Errorf(EINVALID, "%s: NUL characters not allowed", name)
	}
	return nil
}

// TurbineUpdate is the body of PUT /turbines/{id}: every field is optional;
// an absent field keeps its value. Params replaces the scalar parameters
// that are stated (non-nil).
type TurbineUpdate struct {
	Name        *string `json:"name,omitempty"`
	Description *string `json:"description,omitempty"`
	TurbineParams
	BladeConfig      ConfigBlob `json:"blade_config,omitempty"`
	TowerConfig      ConfigBlob `json:"tower_config,omitempty"`
	NacelleConfig    ConfigBlob `json:"nacelle_config,omitempty"`
	ControllerConfig ConfigBlob `json:"controller_config,omitempty"`
}

// Apply returns t with the update applied (t is not modified). A description
// that would turn the row into a demo-derived one is refused.
func (u *TurbineUpdate) Apply(t *Turbine) (*Turbine, error) {
	n := *t
	if u.Name != nil {
		n.Name = *u.Name
	}
	if u.Description != nil {
		if IsDemoDescription(*u.Description) {
			return nil, Errorf(EINVALID, "description: the prefix %q is reserved for bundled demo turbines", DemoPrefix)
		}
		n.Description = *u.Description
	}
	set := func(dst **float64, v *float64) {
		if v != nil {
			x := *v
			*dst = &x
		}
	}
	set(&n.RatedPowerKW, u.RatedPowerKW)
	set(&n.RotorDiameterM, u.RotorDiameterM)
	set(&n.HubHeightM, u.HubHeightM)
	set(&n.CutInWindSpeedMS, u.CutInWindSpeedMS)
	set(&n.RatedWindSpeedMS, u.RatedWindSpeedMS)
	set(&n.CutOutWindSpeedMS, u.CutOutWindSpeedMS)
	set(&n.ShaftTiltDeg, u.ShaftTiltDeg)
	set(&n.PreconeDeg, u.PreconeDeg)
	set(&n.RatedRotorSpeedRPM, u.RatedRotorSpeedRPM)
	if u.BladeConfig != nil {
		n.BladeConfig = u.BladeConfig
	}
	if u.TowerConfig != nil {
		n.TowerConfig = u.TowerConfig
	}
	if u.NacelleConfig != nil {
		n.NacelleConfig = u.NacelleConfig
	}
	if u.ControllerConfig != nil {
		n.ControllerConfig = u.ControllerConfig
	}
	n.IsValidated = false
	if err := n.Validate(); err != nil {
		return nil, err
	}
	// The deck-shaping keys of the stated blobs are checked as POST
	// /turbines checks them, whether or not the row has a deck.
	if _, err := DecodeDeckSpecs(u.BladeConfig, u.TowerConfig, u.NacelleConfig, u.ControllerConfig); err != nil {
		return nil, err
	}
	return &n, nil
}

// DeckEditor applies the deck-shaping changes of a turbine update to the
// turbine's stored deck (package decks implements it; the turbine store
// calls it inside its update).
type DeckEditor interface {
	// ChangesDeck reports whether u changes a value the stored deck of
	// cur holds; false when the row has no deck.
	ChangesDeck(u *TurbineUpdate, cur *Turbine) (bool, error)
	// RebuildDeck writes into dstDir (empty) the stored deck of cur, read
	// from srcDir, with the changes of u applied; next is the updated row.
	RebuildDeck(ctx context.Context, u *TurbineUpdate, cur, next *Turbine, srcDir, dstDir string) error
}

// TurbineFilter selects a page of an organization's turbines.
type TurbineFilter struct {
	Search   string // case-insensitive substring of the name or description
	Page     int    // 1-based
	PageSize int
}

// Page sizes of GET /turbines.
const (
	DefaultTurbinePageSize = 20
	MaxTurbinePageSize     = 100
)

// TurbineService stores turbine configurations and their deck files. Every
// method is scoped to an organization: another organization's turbine is
// ENOTFOUND, indistinguishable from an absent one.
type TurbineService interface {
	// CreateTurbine validates t (EINVALID) and stores it; when deckDir is
	// not empty the directory tree is copied into the blob store and
	// t.MainFile (relative to deckDir) recorded. A taken name is ECONFLICT;
	// on any failure nothing is left in the store or the database.
	CreateTurbine(ctx context.Context, t *Turbine, deckDir string) error

	// FindTurbine returns one turbine (ENOTFOUND).
	FindTurbine(ctx context.Context, orgID, id string) (*Turbine, error)

	// ListTurbines returns a page and the total count.
	ListTurbines(ctx context.Context, orgID string, f TurbineFilter) ([]*Turbine, int, error)

	// UpdateTurbine applies u and sets is_validated false. EFORBIDDEN for a
	// demo-derived row, ECONFLICT for a taken name, EINVALID for bad values.
	// When u changes a value the stored deck holds (u.ChangesDeck), the
	// deck is rebuilt with the change (u.RebuildDeck) into a fresh storage
	// location that the row switches to in the same transaction; the old
	// files are removed after the commit. An edit the deck cannot carry is
	// EINVALID naming the field; on any failure the row and the stored
	// files stay as they were.
	UpdateTurbine(ctx context.Context, orgID, id string, u *TurbineUpdate) (*Turbine, error)

	// DeleteTurbine deletes the row and its deck files. EFORBIDDEN for a
	// demo-derived row, ECONFLICT while an active job references it.
	DeleteTurbine(ctx context.Context, orgID, id string) error

	// CloneTurbine copies a turbine into an editable row: the demo prefix is
	// dropped from the description, the name is "<name> (copy)", then
	// "(copy 2)", ... and the deck files are copied to a fresh location.
	// The copy is of the files the row names at one instant: a concurrent
	// UpdateTurbine or DeleteTurbine of the source waits for the copy, or
	// the clone waits for them and copies what they committed.
	CloneTurbine(ctx context.Context, orgID, id, userID string) (*Turbine, error)

	// LoadDemo returns the organization's row for demo demoID, creating it
	// with create when there is none; reused reports whether it existed.
	// create receives a scratch directory and fills t and the directory
	// (the deck); its row is stored with CreateTurbine's rules.
	LoadDemo(ctx context.Context, orgID, userID, demoID string, create func(dir string) (*Turbine, error)) (t *Turbine, reused bool, err error)

	// OpenTurbineDeck makes the stored deck files of a turbine readable as
	// a local directory and returns the row as read and the root folder of
	// its stored files (MainFile is relative to it); release must be
	// called when done. Until then the files stay in place (an
	// UpdateTurbine or DeleteTurbine of the turbine waits for release), so
	// release promptly and do no other database work in between. A row
	// without deck files is no error: dir is "".
	OpenTurbineDeck(ctx context.Context, orgID, id string) (t *Turbine, dir string, release func(), err error)
}

// TreeStore keeps directory trees (the deck files of turbine
// configurations) under opaque keys. The local implementation keeps one
// directory per key; an S3-compatible one would keep one object per file.
type TreeStore interface {
	// Put copies the tree at dir into the store under a fresh key.
	Put(ctx context.Context, dir string) (key string, err error)
	// Open makes the tree readable as a local directory until release.
	Open(ctx context.Context, key string) (dir string, release func(), err error)
	// Copy duplicates a tree under a fresh key.
	Copy(ctx context.Context, key string) (newKey string, err error)
	// Delete removes a tree; deleting an absent key is not an error.
	Delete(ctx context.Context, key string) error
}

// CopyName returns the name of the n-th copy of name: "<name> (copy)" for
// n = 1, "<name> (copy n)" after that.
func CopyName(name string, n int) string {
	if n <= 1 {
		return name + " (copy)"
	}
	return fmt.Sprintf("%s (copy %d)", name, n)
}

// ConfigBlob is one of the four JSON configuration objects of a turbine
// (blade, tower, nacelle, controller): raw JSON, nil when absent. It scans
// from a nullable jsonb column.
type ConfigBlob []byte

// MarshalJSON implements json.Marshaler.
func (b ConfigBlob) MarshalJSON() ([]byte, error) {
	if len(b) == 0 {
		return []byte("null"), nil
	}
	return b, nil
}

// UnmarshalJSON implements json.Unmarshaler; null becomes nil.
func (b *ConfigBlob) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*b = nil
		return nil
	}
	*b = append((*b)[:0], data...)
	return nil
}

// Scan implements sql.Scanner.
func (b *ConfigBlob) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*b = nil
	case []byte:
		*b = append(ConfigBlob(nil), v...)
	case string:
		*b = ConfigBlob(v)
	default:
		return fmt.Errorf("config blob: cannot scan %T", src)
	}
	return nil
}

// DemoTurbine is one bundled reference turbine of GET /turbines/demos.
// Name, Description, Type and the headline specs come from the manifest
// that accompanies the bundled archives; an archive without a manifest
// entry has only ID and Label (derived from its file name).
type DemoTurbine struct {
	ID          string         `json:"id"`
	Label       string         `json:"label"`
	Name        string         `json:"name,omitempty"`
	Description string         `json:"description,omitempty"`
	Type        string         `json:"type,omitempty"` // "onshore", "offshore monopile", "offshore floating"
	Specs       *TurbineParams `json:"headline_specs,omitempty"`
}

// DemoCatalog lists the bundled reference turbines and writes one out as a
// complete input deck.
type DemoCatalog interface {
	Demos() []DemoTurbine
	// Build writes demo id's deck into dir (empty, existing) and returns
	// the row to store: name, description (without the demo prefix, which
	// the store adds), scalar parameters and MainFile relative to dir.
	Build(id, dir string) (*Turbine, error)
}

// DeckFile is one file of a turbine's stored deck.
type DeckFile struct {
	// Path is relative to the deck's root, slash-separated.
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// DeckFileText is one deck file for reading: its text up to a bound
// (Truncated when cut), none when the file is not text (Binary).
type DeckFileText struct {
	Path      string `json:"path"`
	Size      int64  `json:"size"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
	Binary    bool   `json:"binary"`
}

// DeckParamDiff is one parameter that differs between two decks (or
// between a deck before and after an edit): the file (relative path), the
// parameter's name in it ("(file)" for a file only one side has,
// "(contents)" for binary files, "line N" for a differing line that names
// no parameter) and its value on each side, nil where absent.
type DeckParamDiff struct {
	File      string  `json:"file"`
	Parameter string  `json:"parameter"`
	A         *string `json:"a"`
	B         *string `json:"b"`
}

// DeckEditReport says what an edit rewrote in a turbine's stored deck:
// Changes lists every parameter that changed (a: before, b: after), Files
// the files that hold them, Notes the effects to check (the first tower
// fore-aft frequency before → after, how the tower was stretched).
type DeckEditReport struct {
	Files   []string        `json:"files"`
	Changes []DeckParamDiff `json:"changes"`
	Notes   []string        `json:"notes"`
	// TowerFAFrequencyHz is the first tower fore-aft frequency before and
	// after, when the edit moved it.
	TowerFAFrequencyHz *[2]float64 `json:"tower_fa_frequency_hz,omitempty"`
}
