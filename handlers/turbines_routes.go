package handlers

import "github.com/labstack/echo/v4"

// turbineRoutes registers the turbine inventory. The literal paths
// /turbines/demos and /turbines/from-upload are static segments, which
// Echo's router always prefers to the :id parameter, so they never reach
// the {id} handlers.
func (s *Server) turbineRoutes(authed []echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/turbines", s.listTurbines, authed...)
	e.POST("/turbines", s.createTurbine, authed...)
	e.GET("/turbines/demos", s.listDemos, authed...)
	e.POST("/turbines/demos/:demo_id/load", s.loadDemo, authed...)
	e.POST("/turbines/from-upload", s.uploadTurbine, authed...)
	e.GET("/turbines/:id", s.getTurbine, authed...)
	e.PUT("/turbines/:id", s.updateTurbine, authed...)
	e.DELETE("/turbines/:id", s.deleteTurbine, authed...)
	e.POST("/turbines/:id/clone", s.cloneTurbine, authed...)
	e.GET("/turbines/:id/detailed-properties", s.detailedProperties, authed...)
	e.GET("/turbines/:id/airfoil-polar/:airfoil_index", s.airfoilPolar, authed...)
	e.GET("/turbines/:id/fst-defaults", s.fstDefaults, authed...)
}
