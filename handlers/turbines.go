package handlers

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/views"
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
	if c.QueryParam("dry_run") == "true" {
		return s.previewTurbineEdit(c, &u)
	}
	t, err := svc.UpdateTurbine(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), &u)
	if err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		// The page reloads; it shows what the edit rewrote once.
		if t.DeckChanges != nil && authFrom(c).Method == turbinesim.AuthSession {
			if b, err := json.Marshal(t.DeckChanges); err == nil {
				s.sessions.Put(c.Request().Context(), lastDeckEditKey(t.ID), b)
			}
		}
		c.Response().Header().Set("HX-Redirect", "/turbines/"+t.ID)
	}
	return c.JSON(http.StatusOK, t)
}

// lastDeckEditKey is the session key of the report of the browser's last
// deck edit of turbine id, shown once by the turbine page.
func lastDeckEditKey(id string) string { return "deck-edit:" + id }

// previewTurbineEdit: PUT /turbines/{id}?dry_run=true, what the edit would
// rewrite in the stored deck, saving nothing. htmx gets the report as a
// fragment.
func (s *Server) previewTurbineEdit(c echo.Context, u *turbinesim.TurbineUpdate) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	scratch, err := s.scratchFolder("deck-preview-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	next, err := sd.PreviewEdit(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), u, scratch)
	if err != nil {
		return err
	}
	if negotiate(c.Request()) == formatFragment {
		return render(c, http.StatusOK, views.DeckEditReportPanel(next.DeckChanges, false))
	}
	return c.JSON(http.StatusOK, next)
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

// detailedProperties: GET /turbines/{id}/detailed-properties.
func (s *Server) detailedProperties(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	p, err := sd.Properties(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
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
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	af, err := sd.AirfoilPolar(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), idx)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, af)
}

// storedDecks reads stored decks (decks.StoredDecks, over Turbines).
func (s *Server) storedDecks() (*decks.StoredDecks, error) {
	if s.svc.StoredDecks == nil {
		return nil, notImplemented
	}
	return s.svc.StoredDecks, nil
}

// storedDeckWarnings is decks.StoredDecks.Warnings of turbine t.
func (s *Server) storedDeckWarnings(c echo.Context, t *turbinesim.Turbine) ([]string, error) {
	sd, err := s.storedDecks()
	if err != nil {
		return nil, err
	}
	return sd.Warnings(c.Request().Context(), authFrom(c).Organization.ID, t)
}

// FSTDefaults is the response of GET /turbines/{id}/fst-defaults.
type FSTDefaults struct {
	Parameters []decks.FSTParameter `json:"parameters"`
}

// fstDefaults: GET /turbines/{id}/fst-defaults: the values the main input
// file gets for every Advanced Settings parameter (the turbine's own file
// when it has one).
func (s *Server) fstDefaults(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	params, err := sd.FSTDefaults(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, FSTDefaults{Parameters: params})
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
