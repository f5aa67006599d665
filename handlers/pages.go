package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// page returns the layout values of the current request.
func (s *Server) page(c echo.Context, title, active string) views.Page {
	return views.Page{Title: title, Active: active, Auth: authFrom(c), CSRF: s.csrfToken(c)}
}

// index answers browsers with the dashboard and scripts with a pointer to
// the API description.
func (s *Server) index(c echo.Context) error {
	if !wantsJSON(c) {
		return c.Redirect(http.StatusSeeOther, "/dashboard")
	}
	return c.JSON(http.StatusOK, map[string]string{
		"service": "turbinesim",
		"openapi": "/openapi.json",
	})
}

// dashboard: GET /dashboard.
func (s *Server) dashboard(c echo.Context) error {
	a := authFrom(c)
	d, err := s.svc.Dashboard.Dashboard(c.Request().Context(), a.Organization.ID)
	if err != nil {
		return err
	}
	s.hideInJobs(d.Failed)
	for _, j := range d.Active {
		s.hideInJob(j.Job)
	}
	switch negotiate(c.Request()) {
	case formatJSON:
		return c.JSON(http.StatusOK, d)
	case formatFragment:
		return render(c, http.StatusOK, views.DashboardCards(d))
	default:
		p := s.page(c, "Dashboard", "dashboard")
		return render(c, http.StatusOK, views.DashboardPage(p, d))
	}
}

// AccountResponse is the JSON of GET /account.
type AccountResponse struct {
	User         *turbinesim.User         `json:"user"`
	Organization *turbinesim.Organization `json:"organization"`
	AuthMethod   turbinesim.AuthMethod    `json:"auth_method"`
}

// account: GET /account, the caller as the server sees it.
func (s *Server) account(c echo.Context) error {
	a := authFrom(c)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, AccountResponse{User: a.User, Organization: a.Organization, AuthMethod: a.Method})
	}
	var sessions []*turbinesim.LoginSession
	if s.svc.LoginSessions != nil && a.Method != turbinesim.AuthAPIKey {
		var err error
		if sessions, err = s.listSessions(c); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.AccountPage(s.page(c, "Account", "account"), a, sessions))
}

// coming serves a navigation section whose pages are not built yet: an
// honest "coming" page for browsers, 501 for JSON callers. No data is shown.
func (s *Server) coming(title, key string) echo.HandlerFunc {
	return func(c echo.Context) error {
		if wantsJSON(c) {
			return notImplemented
		}
		return render(c, http.StatusOK, views.ComingPage(s.page(c, title, key)))
	}
}

// healthz: the process is up.
func (s *Server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyz: the database answers; 503 with Retry-After otherwise.
func (s *Server) readyz(c echo.Context) error {
	if err := s.svc.Ready(c.Request().Context()); err != nil {
		if turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
			err = turbinesim.WrapError(turbinesim.EUNAVAILABLE, "database unavailable", err)
		}
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

// htmlOnly refuses JSON callers of a browser page.
func htmlOnly(c echo.Context, hint string) error {
	return echo.NewHTTPError(http.StatusNotAcceptable, "this page is HTML only; "+hint)
}
