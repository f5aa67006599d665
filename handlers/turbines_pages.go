package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Browser pages of the turbine inventory. Until the templ views are built
// the pages answer with the section's "coming" page; the JSON API is
// complete.

func (s *Server) turbineListPage(c echo.Context, _ TurbinePage, _ string) error {
	return s.coming("Turbines", "turbines")(c)
}

func (s *Server) turbineDetailPage(c echo.Context, _ *turbinesim.Turbine) error {
	return s.coming("Turbines", "turbines")(c)
}

func (s *Server) demoGalleryPage(c echo.Context, _ []turbinesim.DemoTurbine) error {
	return s.coming("Turbines", "turbines")(c)
}
