package handlers_test

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/batches"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/handlers"
	"github.com/turbinesim/turbinesim/results"
)

// responseTypes maps every schema a success response names to the Go value
// the handler encodes (c.JSON) for it. Index and Status are written as
// map literals in handlers/pages.go; their keys are listed as maps here.
var responseTypes = map[string]any{
	"Index":                 map[string]string{"service": "", "openapi": ""},
	"Status":                map[string]string{"status": ""},
	"Account":               handlers.AccountResponse{},
	"Dashboard":             turbinesim.Dashboard{},
	"TokenPair":             handlers.TokenPair{},
	"SignUpAccepted":        handlers.SignUpAccepted{},
	"User":                  turbinesim.User{},
	"UserPage":              handlers.Page[*turbinesim.User]{},
	"EmailPage":             handlers.Page[*turbinesim.Email]{},
	"APIKey":                turbinesim.APIKey{},
	"NewAPIKey":             turbinesim.NewAPIKey{},
	"APIKeyPage":            handlers.Page[*turbinesim.OrgAPIKey]{},
	"AuditPage":             handlers.Page[*turbinesim.AuditEntry]{},
	"OrgSettings":           handlers.OrgSettings{},
	"Usage":                 handlers.UsageResponse{},
	"MFAEnrolment":          handlers.MFAEnrolmentResponse{},
	"RecoveryCodes":         handlers.RecoveryCodesResponse{},
	"MFAConfirmed":          handlers.MFAConfirmResponse{},
	"PasswordResetAccepted": handlers.PasswordResetAccepted{},
	"SessionList":           handlers.SessionList{},
	"Turbine":               turbinesim.Turbine{},
	"TurbinePage":           handlers.TurbinePage{},
	"DemoList":              handlers.DemoList{},
	"DemoLoadResult":        handlers.DemoLoadResult{},
	"DetailedProperties":    decks.DetailedProperties{},
	"AirfoilPolar":          decks.AirfoilPolar{},
	"FSTDefaults":           handlers.FSTDefaults{},
	"DeckFiles":             handlers.DeckFilesResponse{},
	"DeckFileText":          turbinesim.DeckFileText{},
	"DeckDiff":              handlers.DeckDiffResponse{},
	"Job":                   turbinesim.Job{},
	"JobPage":               handlers.Page[*turbinesim.Job]{},
	"JobProgress":           handlers.JobProgress{},
	"Study":                 turbinesim.Study{},
	"StudyPage":             handlers.StudyPage{},
	"Artifact":              turbinesim.Artifact{},
	"ArtifactList":          handlers.ArtifactList{},
	"ShareStatus":           turbinesim.ShareStatus{},
	"ShareLink":             handlers.ShareLink{},
	"PublicStudy":           turbinesim.PublicStudy{},
	"PublicArtifactList":    handlers.PublicArtifactList{},
	"Note":                  turbinesim.Note{},
	"NotePage":              handlers.NotePage{},
	"ChannelList":           []results.ChannelInfo{},
	"TimeSeries":            results.TimeSeries{},
	"StatisticsResponse":    results.StatisticsResponse{},
	"SpectrumResponse":      results.SpectrumResponse{},
	"MarkovResponse":        results.MarkovResponse{},
	"FatigueResponse":       results.FatigueResponse{},
	"LoadDurationResponse":  results.LoadDurationResponse{},
	"BatchCurves":           results.BatchCurves{},
	"BatchAEP":              results.BatchAEP{},
	"BatchDELs":             results.BatchDELs{},
	"BatchExtremes":         results.BatchExtremes{},
	"BatchMarkov":           results.BatchMarkov{},
	"BatchLoadDuration":     results.BatchLoadDuration{},
	"Batch":                 turbinesim.Batch{},
	"BatchPage":             handlers.Page[*turbinesim.Batch]{},
	"BatchDetail":           handlers.BatchDetail{},
	"BatchProgressMessage":  handlers.BatchProgressMessage{},
	"DLCPreview":            batches.DLCPreview{},
}

// TestOpenAPIResponseSchemasMatchGoTypes: the properties of every schema a
// success response documents are exactly the JSON fields of the Go type the
// handler returns, so the hand-written document cannot drift from the
// responses. A new response schema must be added to responseTypes.
func TestOpenAPIResponseSchemasMatchGoTypes(t *testing.T) {
	schemas := handlers.APISchemas()
	for name, op := range handlers.APIResponseSchemas() {
		v, ok := responseTypes[name]
		if !ok {
			t.Errorf("schema %s (%s) has no Go type in responseTypes", name, op)
			continue
		}
		documented, err := schemaProperties(schemas, schemas[name])
		if err != "" {
			t.Errorf("schema %s: %s", name, err)
			continue
		}
		fields := jsonFields(reflect.TypeOf(v), reflect.ValueOf(v))
		if missing, extra := setDiff(fields, documented), setDiff(documented, fields); len(missing) > 0 || len(extra) > 0 {
			t.Errorf("schema %s (%s) vs %T: fields the schema lacks %v; properties the type lacks %v", name, op, v, missing, extra)
		}
	}
	for name := range responseTypes {
		if _, ok := handlers.APIResponseSchemas()[name]; !ok {
			t.Errorf("responseTypes lists %s, which no success response names", name)
		}
	}
}

// schemaProperties resolves $ref, allOf and arrays (to their items) and
// returns the object's property names.
func schemaProperties(schemas map[string]any, s any) ([]string, string) {
	m, ok := s.(map[string]any)
	if !ok {
		return nil, "not an object schema"
	}
	if ref, ok := m["$ref"].(string); ok {
		return schemaProperties(schemas, schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
	}
	if all, ok := m["allOf"].([]any); ok {
		var out []string
		for _, part := range all {
			p, err := schemaProperties(schemas, part)
			if err != "" {
				return nil, err
			}
			out = append(out, p...)
		}
		sort.Strings(out)
		return slices.Compact(out), ""
	}
	if m["type"] == "array" {
		return schemaProperties(schemas, m["items"])
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		return nil, "no properties"
	}
	var out []string
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, ""
}

// jsonFields are the top-level keys encoding/json writes for a value of
// type t: exported fields by their json names, embedded structs flattened,
// "-" left out; slices and arrays give their elements' keys; maps (v
// holds one) their keys.
func jsonFields(t reflect.Type, v reflect.Value) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		var out []string
		for _, k := range v.MapKeys() {
			out = append(out, k.String())
		}
		sort.Strings(out)
		return out
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			out = append(out, jsonFields(ft, reflect.Value{})...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// setDiff is a minus b.
func setDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
