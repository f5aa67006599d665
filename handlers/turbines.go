package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/solver/deck"
)

// Turbine inventory endpoints. JSON shapes are the root-package
// types; the OpenAPI entries are in turbines_openapi.go.

// TurbinePage is the paginated response of GET /turbines.
type TurbinePage = Page[*turbinesim.Turbine]

// DemoLoadResult is the response of POST /turbines/demos/{demo_id}/load:
// the turbine plus whether it already existed.
type DemoLoadResult struct {
	*turbinesim.Turbine
	Reused bool `json:"reused"`
}

// DemoList is the response of GET /turbines/demos, paginated like every
// list.
type DemoList = Page[turbinesim.DemoTurbine]

// turbineService returns the configured service or a 501.
func (s *Server) turbineService() (turbinesim.TurbineService, error) {
	if s.svc.Turbines == nil {
		return nil, notImplemented
	}
	return s.svc.Turbines, nil
}

// verifiedOnly refuses unverified (demo) accounts with 403: creating,
// uploading and cloning a custom turbine are for verified accounts.
func verifiedOnly(a *turbinesim.Auth) error {
	if a == nil || a.User == nil || !a.User.Verified {
		return turbinesim.Errorf(turbinesim.EFORBIDDEN, "this operation needs a verified account")
	}
	return nil
}

// listTurbines: GET /turbines. Browsers get the inventory page.
func (s *Server) listTurbines(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		if !wantsJSON(c) {
			return s.coming("Turbines", "turbines")(c)
		}
		return err
	}
	page, size, err := pageParams(c, turbinesim.MaxTurbinePageSize)
	if err != nil {
		return err
	}
	search := c.QueryParam("q")
	if len(search) > 200 || strings.ContainsRune(search, 0) {
		return turbinesim.Errorf(turbinesim.EINVALID, "q: at most 200 characters, no NUL")
	}
	a := authFrom(c)
	items, total, err := svc.ListTurbines(c.Request().Context(), a.Organization.ID,
		turbinesim.TurbineFilter{Search: search, Page: page, PageSize: size})
	if err != nil {
		return err
	}
	res := newPage(items, total, page, size)
	if !wantsJSON(c) {
		return s.turbineListPage(c, res, search)
	}
	return c.JSON(http.StatusOK, res)
}

// getTurbine: GET /turbines/{id}.
func (s *Server) getTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	t, err := svc.FindTurbine(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return s.turbineDetailPage(c, t)
	}
	if t.Warnings, err = s.storedDeckWarnings(c, t); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t)
}

// updateTurbine: PUT /turbines/{id}.
func (s *Server) updateTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	var u turbinesim.TurbineUpdate
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		// The page's editor (htmx sends the form fields).
		if u, err = updateFromForm(c); err != nil {
			return err
		}
	} else if err := decodeJSONStrict(c, &u); err != nil {
		return err
	}
	t, err := svc.UpdateTurbine(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), &u)
	if err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/turbines/"+t.ID)
	}
	return c.JSON(http.StatusOK, t)
}

// deleteTurbine: DELETE /turbines/{id}.
func (s *Server) deleteTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	if err := svc.DeleteTurbine(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id")); err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/turbines")
	}
	return c.NoContent(http.StatusNoContent)
}

// cloneTurbine: POST /turbines/{id}/clone (verified only).
func (s *Server) cloneTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	if err := verifiedOnly(a); err != nil {
		return err
	}
	t, err := svc.CloneTurbine(c.Request().Context(), a.Organization.ID, c.Param("id"), a.User.ID)
	if err != nil {
		return err
	}
	// The copy's own files, as its page and jobs will read them. The
	// clone is committed: failing to read them back must not turn its 201
	// into an error (the copy's page shows them again).
	if t.Warnings, err = s.storedDeckWarnings(c, t); err != nil {
		s.log.Warn("reading a cloned turbine's deck warnings", "turbine", t.ID, "err", err, "request_id", requestID(c))
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/turbines/"+t.ID)
	}
	return c.JSON(http.StatusCreated, t)
}

// loadDeck loads the stored deck of the turbine the request names with
// solver/deck and calls use with it while the stored files are open: use
// may read files the deck names (DetailedPropertiesOf reads the baseline
// controller's parameter file), which are gone after release with an S3
// store and no longer guarded against an edit removing them with the
// local one. dir is the root folder of the stored files (decks.Warnings
// names files relative to it).
func (s *Server) loadDeck(c echo.Context, use func(dir string, d *deck.Deck) error) error {
	return s.loadDeckOf(c, c.Param("id"), use)
}

// loadDeckOf is loadDeck for the organization's turbine id.
func (s *Server) loadDeckOf(c echo.Context, id string, use func(dir string, d *deck.Deck) error) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	t, dir, release, err := svc.OpenTurbineDeck(c.Request().Context(), authFrom(c).Organization.ID, id)
	if err != nil {
		return err
	}
	defer release()
	if dir == "" {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "turbine %q has no stored input files", t.Name)
	}
	mainPath := filepath.Join(dir, filepath.FromSlash(*t.MainFile))
	if rel, err := filepath.Rel(dir, mainPath); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("turbine %s: main file %q escapes its stored files", t.ID, *t.MainFile)
	}
	d, err := deck.LoadIn(dir, *t.MainFile)
	if err != nil {
		return turbinesim.WrapError(turbinesim.EINVALID, "the stored input files cannot be read: "+deckErrorDetail(err, mainPath), err)
	}
	return use(dir, d)
}

// storedDeckWarnings is decks.Warnings of turbine t's stored deck:
// none for a row without one, nor when the stored files no longer load
// (GET /turbines/{id}/detailed-properties says why).
func (s *Server) storedDeckWarnings(c echo.Context, t *turbinesim.Turbine) ([]string, error) {
	if !t.HasDeck() {
		return nil, nil
	}
	var warnings []string
	err := s.loadDeckOf(c, t.ID, func(dir string, d *deck.Deck) error {
		warnings = decks.Warnings(dir, d)
		return nil
	})
	if turbinesim.ErrorCode(err) == turbinesim.EINVALID {
		return nil, nil
	}
	return warnings, err
}

// deckProperties is DetailedPropertiesOf the turbine's stored deck.
func (s *Server) deckProperties(c echo.Context) (*decks.DetailedProperties, error) {
	var p *decks.DetailedProperties
	err := s.loadDeck(c, func(_ string, d *deck.Deck) (err error) {
		p, err = decks.DetailedPropertiesOf(d)
		return err
	})
	return p, err
}

// deckErrorDetail names file (relative to the deck) and line of a deck
// error without revealing the server's directory layout.
func deckErrorDetail(err error, mainPath string) string {
	var de *deck.Error
	if errors.As(err, &de) {
		return deckLocation(de.File, mainPath, de.Line) + ": " + joinNonEmpty(de.Variable, de.Msg)
	}
	return "unreadable input file"
}

// detailedProperties: GET /turbines/{id}/detailed-properties.
func (s *Server) detailedProperties(c echo.Context) error {
	p, err := s.deckProperties(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// airfoilPolar: GET /turbines/{id}/airfoil-polar/{airfoil_index}; the
// index is 0-based in the turbine's airfoil set (AeroDyn AFNames order).
func (s *Server) airfoilPolar(c echo.Context) error {
	idx, err := strconv.Atoi(c.Param("airfoil_index"))
	if err != nil || idx < 0 {
		return turbinesim.Errorf(turbinesim.EINVALID, "airfoil_index: must be a non-negative integer")
	}
	p, err := s.deckProperties(c)
	if err != nil {
		return err
	}
	for _, af := range p.Airfoils {
		if af.Index == idx {
			return c.JSON(http.StatusOK, af)
		}
	}
	return turbinesim.Errorf(turbinesim.ENOTFOUND, "airfoil %d not found; the turbine has %d airfoils", idx, len(p.Airfoils))
}

// FSTDefaults is the response of GET /turbines/{id}/fst-defaults.
type FSTDefaults struct {
	Parameters []decks.FSTParameter `json:"parameters"`
}

// fstDefaults: GET /turbines/{id}/fst-defaults: the values the main input
// file gets for every Advanced Settings parameter (the turbine's own file
// when it has one).
func (s *Server) fstDefaults(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	t, err := svc.FindTurbine(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	main := &deck.Main{}
	if t.HasDeck() {
		if err := s.loadDeck(c, func(_ string, d *deck.Deck) error { main = d.Main; return nil }); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, FSTDefaults{Parameters: decks.FSTDefaults(main)})
}

// createTurbine: POST /turbines (verified only), build from scratch.
func (s *Server) createTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	if err := verifiedOnly(a); err != nil {
		return err
	}
	var req turbinesim.TurbineCreate
	if err := decodeJSONStrict(c, &req); err != nil {
		return err
	}
	// With the bundled catalog a complete deck is generated from the
	// build template; a catalog without models (tests) stores the row only.
	var template *decks.DeckModel
	if tc, ok := s.svc.Demos.(interface {
		Model(string) (*decks.DeckModel, error)
	}); ok {
		if template, err = tc.Model(decks.BuildTemplateID); err != nil {
			return err
		}
	}
	t, dir, cleanup, err := decks.BuildTurbine(c.Request().Context(), &req, template)
	if err != nil {
		return err
	}
	defer cleanup()
	t.OrganizationID, t.CreatedBy = a.Organization.ID, &a.User.ID
	if err := svc.CreateTurbine(c.Request().Context(), t, dir); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, t)
}

// listDemos: GET /turbines/demos.
func (s *Server) listDemos(c echo.Context) error {
	if s.svc.Demos == nil {
		return notImplemented
	}
	demos := s.svc.Demos.Demos()
	if !wantsJSON(c) {
		return s.demoGalleryPage(c, demos)
	}
	page, err := pageOf(c, demos)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// loadDemo: POST /turbines/demos/{demo_id}/load; idempotent.
func (s *Server) loadDemo(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	if s.svc.Demos == nil {
		return notImplemented
	}
	id := c.Param("demo_id")
	known := false
	for _, d := range s.svc.Demos.Demos() {
		known = known || d.ID == id
	}
	if !known {
		return turbinesim.Errorf(turbinesim.ENOTFOUND, "no bundled demo turbine %q", id)
	}
	a := authFrom(c)
	t, reused, err := svc.LoadDemo(c.Request().Context(), a.Organization.ID, a.User.ID, id,
		func(dir string) (*turbinesim.Turbine, error) { return s.svc.Demos.Build(id, dir) })
	if err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/turbines/"+t.ID)
	}
	status := http.StatusCreated
	if reused {
		status = http.StatusOK
	}
	// The row is stored: failing to read its deck back must not turn the
	// answer into an error (its page shows the warnings again).
	if t.Warnings, err = s.storedDeckWarnings(c, t); err != nil {
		s.log.Warn("reading a demo turbine's deck warnings", "turbine", t.ID, "err", err, "request_id", requestID(c))
	}
	return c.JSON(status, DemoLoadResult{Turbine: t, Reused: reused})
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}

// deckLocation is "file:line" with file relative to the main file's
// directory (never the server's absolute path).
func deckLocation(file, mainPath string, line int) string {
	name := filepath.Base(file)
	if rel, err := filepath.Rel(filepath.Dir(mainPath), file); err == nil {
		name = filepath.ToSlash(rel)
	}
	if line > 0 {
		return name + ":" + strconv.Itoa(line)
	}
	return name
}

// updateFromForm reads the editor forms: name, description, the scalar
// parameters and the four JSON blobs; an empty field keeps its value. A
// blob that is not JSON is a 422 naming the blob, line and column.
func updateFromForm(c echo.Context) (turbinesim.TurbineUpdate, error) {
	var u turbinesim.TurbineUpdate
	form, err := c.FormParams()
	if err != nil {
		return u, turbinesim.Errorf(turbinesim.EINVALID, "malformed form")
	}
	if v := strings.TrimSpace(form.Get("name")); v != "" {
		u.Name = &v
	}
	if _, ok := form["description"]; ok {
		v := form.Get("description")
		u.Description = &v
	}
	for name, dst := range map[string]**float64{
		"rated_power_kw": &u.RatedPowerKW, "rotor_diameter_m": &u.RotorDiameterM, "hub_height_m": &u.HubHeightM,
		"cut_in_wind_speed_ms": &u.CutInWindSpeedMS, "rated_wind_speed_ms": &u.RatedWindSpeedMS,
		"cut_out_wind_speed_ms": &u.CutOutWindSpeedMS, "shaft_tilt_deg": &u.ShaftTiltDeg,
		"precone_deg": &u.PreconeDeg, "rated_rotor_speed_rpm": &u.RatedRotorSpeedRPM,
	} {
		v := strings.TrimSpace(form.Get(name))
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return u, turbinesim.Errorf(turbinesim.EINVALID, "%s: %q is not a number", name, v)
		}
		*dst = &f
	}
	// In page order, so that of several broken blobs the first is named.
	for _, b := range []struct {
		name string
		dst  *turbinesim.ConfigBlob
	}{{"blade_config", &u.BladeConfig}, {"tower_config", &u.TowerConfig},
		{"nacelle_config", &u.NacelleConfig}, {"controller_config", &u.ControllerConfig}} {
		if *b.dst, err = turbinesim.ParseConfigBlobText(b.name, form.Get(b.name)); err != nil {
			return u, err
		}
	}
	return u, nil
}
