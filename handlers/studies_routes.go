package handlers

import "github.com/labstack/echo/v4"

// studyRoutes registers studies, share links, the public endpoints and
// notes (issue 10). /studies/{id}/share/rotate is a static segment after
// the parameter, so it never collides with the {id} routes.
func (s *Server) studyRoutes(authed []echo.MiddlewareFunc) {
	e := s.echo
	e.GET("/studies", s.listStudies, authed...)
	e.POST("/studies", s.createStudy, authed...)
	e.GET("/studies/:id", s.getStudy, authed...)
	e.PUT("/studies/:id", s.updateStudy, authed...)
	e.DELETE("/studies/:id", s.deleteStudy, authed...)
	e.GET("/studies/:id/artifacts", s.listArtifacts, authed...)
	e.POST("/studies/:id/artifacts", s.uploadArtifact, authed...)
	e.GET("/studies/:id/artifacts/:artifact_id/download", s.downloadArtifact, authed...)
	e.DELETE("/studies/:id/artifacts/:artifact_id", s.deleteArtifact, authed...)
	e.GET("/studies/:id/share", s.getShare, authed...)
	e.POST("/studies/:id/share", s.enableShare, authed...)
	e.DELETE("/studies/:id/share", s.disableShare, authed...)
	e.POST("/studies/:id/share/rotate", s.rotateShare, authed...)
	e.GET("/studies/editor.js", s.studyScript)

	public := []echo.MiddlewareFunc{publicHeaders, s.limitByAddress}
	e.GET("/api/public/studies/:token", s.publicStudy, public...)
	e.GET("/api/public/studies/:token/artifacts", s.publicArtifacts, public...)
	e.GET("/api/public/studies/:token/artifacts/:id/download", s.publicDownload, public...)
	e.GET("/s/:token", s.publicStudyPage, public...)
}

// studyHTMLOnlyRoutes are the browser-only routes of studyRoutes.
var studyHTMLOnlyRoutes = map[string]bool{
	"GET /studies/editor.js": true,
	"GET /s/:token":          true,
}
