package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/views"
)

// Browser pages of the turbine inventory (templ views in
// views/turbines.templ; charts drawn by assets/js/charts.js).

func (s *Server) turbineListPage(c echo.Context, res TurbinePage, search string) error {
	v := views.TurbineListView{Items: res.Items, Total: res.Total, Page: res.Page, TotalPages: res.TotalPages,
		PageSize: res.PageSize, Search: search}
	return render(c, http.StatusOK, views.TurbineListPage(s.page(c, "Turbines", "turbines"), v))
}

func (s *Server) demoGalleryPage(c echo.Context, demos []turbinesim.DemoTurbine) error {
	return render(c, http.StatusOK, views.DemoGalleryPage(s.page(c, "Reference turbines", "turbines"), demos))
}

func (s *Server) turbineDetailPage(c echo.Context, t *turbinesim.Turbine) error {
	a := authFrom(c)
	v := views.TurbineDetailView{Turbine: t, CanWrite: !t.IsDemo(), CanClone: a != nil && a.User.Verified}
	if t.HasDeck() {
		// Only a turbine with a stored deck can be run (the forms list no other).
		selected := "?turbine_id=" + url.QueryEscape(t.ID)
		if s.svc.Jobs != nil {
			v.RunHref = "/jobs/new" + selected
		}
		if s.svc.Batches != nil {
			v.DLCHref = "/dlcs/new" + selected
		}
	}
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	pd, err := sd.Page(c.Request().Context(), a.Organization.ID, t)
	if err != nil {
		return err
	}
	v.Warnings, v.Props, v.PropsError = pd.Warnings, pd.Props, pd.PropsError
	if t.HasDeck() {
		if v.Files, err = sd.Files(c.Request().Context(), a.Organization.ID, t.ID); err != nil {
			return err
		}
	}
	if b := s.sessions.PopBytes(c.Request().Context(), lastDeckEditKey(t.ID)); b != nil {
		var r turbinesim.DeckEditReport
		if json.Unmarshal(b, &r) == nil {
			v.LastEdit = &r
		}
	}
	v.FST = decks.FSTDefaults(pd.Main)
	if p := v.Props; p != nil {
		if i, err := strconv.Atoi(c.QueryParam("airfoil")); err == nil && i >= 0 && i < len(p.Airfoils) {
			v.Airfoil = i
		}
		v.BladeChart = lineChart("Span (m)", "Chord (m)", series("Chord", p.Blade.BlSpn, p.Blade.BlChord))
		v.TwistChart = lineChart("Span (m)", "Twist (deg)", series("Twist", p.Blade.BlSpn, p.Blade.BlTwist))
		if len(p.Blade.Thickness) == len(p.Blade.BlSpn) && len(p.Blade.Thickness) > 0 {
			v.ThickChart = lineChart("Span (m)", "Thickness t/c (-)", series("t/c", p.Blade.BlSpn, p.Blade.Thickness))
		}
		v.TowerChart = lineChart("Mass density (kg/m)", "Height (m)", series("Mass density", p.Tower.TMassDen, p.Tower.HeightM))
		// In GN·m²: tower stiffnesses are of order 1e11 N·m², whose axis
		// labels written out in N·m² ran into each other.
		v.StiffChart = lineChart("Stiffness (GN·m²)", "Height (m)",
			series("Fore-aft", scaled(p.Tower.TwFAStif, 1e-9), p.Tower.HeightM),
			series("Side-to-side", scaled(p.Tower.TwSSStif, 1e-9), p.Tower.HeightM))
		if len(p.Airfoils) > 0 {
			af := p.Airfoils[v.Airfoil]
			ss := []views.XYSeries{series("Cl", af.AlphaDeg, af.Cl), series("Cd", af.AlphaDeg, af.Cd)}
			if len(af.Cm) == len(af.AlphaDeg) {
				ss = append(ss, series("Cm", af.AlphaDeg, af.Cm))
			}
			v.PolarChart = lineChart("Angle of attack (deg)", "Coefficient (-)", ss...)
		}
	}
	pg := s.page(c, t.Name, "turbines")
	pg.Charts = true
	return render(c, http.StatusOK, views.TurbineDetailPage(pg, v))
}

// series is one line of (x, y) points of a turbine chart.
func series(name string, x, y []float64) views.XYSeries {
	return views.XYSeries{Name: name, Points: views.XYPoints(x, y)}
}

// scaled returns v times f (a unit change for a chart axis).
func scaled(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

// lineChart is an untitled chart of lines on value axes (the page gives
// each chart its heading).
func lineChart(xName, yName string, ss ...views.XYSeries) map[string]any {
	return views.LineChartOption("", xName, yName, ss...)
}
