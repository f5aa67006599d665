package handlers

import "github.com/labstack/echo/v4"

// jobRoutes registers the job endpoints and the progress WebSocket. The
// static /jobs/new (the submit page) wins over /jobs/:id in Echo's router.
func (s *Server) jobRoutes(authed []echo.MiddlewareFunc) {
	e := s.echo
	e.POST("/jobs", s.submitJob, authed...)
	e.GET("/jobs", s.listJobs, authed...)
	e.GET("/jobs/new", s.newJobPage, authed...)
	e.GET("/jobs/:id", s.getJob, authed...)
	e.POST("/jobs/:id/cancel", s.cancelJob, authed...)
	e.GET("/jobs/:id/outputs/:name", s.jobOutput, authed...)
	e.GET("/ws/jobs/:id", s.jobSocket, authed...)
}
