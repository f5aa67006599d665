package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// Browser pages of the organization endpoints. Each is the HTML answer of
// the JSON endpoint of the same path (GET /org/members, /org/usage,
// /org/settings, /org/audit-log, /api-keys): one handler, one service
// call, two renderings.

// membersPage renders GET /org/members for browsers.
func (s *Server) membersPage(c echo.Context, members []*turbinesim.User) error {
	a := authFrom(c)
	v := views.OrgMembersView{Members: members, IsAdmin: a.User.Role == turbinesim.RoleAdmin, Me: a.User.ID}
	return render(c, http.StatusOK, views.OrgMembersPage(s.page(c, "Members", "account"), v))
}

// usagePage renders GET /org/usage for browsers, with the month's spend
// by day as a chart.
func (s *Server) usagePage(c echo.Context, res UsageResponse) error {
	byDay, err := s.svc.Caps.UsageByDay(c.Request().Context(), authFrom(c).Organization.ID)
	if err != nil {
		return err
	}
	v := views.OrgUsageView{Plan: res.Plan, Limits: res.RateLimits, Usage: res.Usage, ByDay: byDay, ByClient: res.ByClient}
	p := s.page(c, "Usage", "account")
	p.Charts = true
	return render(c, http.StatusOK, views.OrgUsagePage(p, v))
}

// settingsPage renders GET /org/settings for browsers.
func (s *Server) settingsPage(c echo.Context, st *OrgSettings) error {
	v := views.OrgSettingsView{Name: st.Name, Plan: st.Plan, Caps: st.Caps, Limits: st.Rates}
	return render(c, http.StatusOK, views.OrgSettingsPage(s.page(c, "Settings", "account"), v))
}

// auditLogPage renders GET /org/audit-log for browsers: the filters, one
// page of entries and links to the neighbouring pages.
func (s *Server) auditLogPage(c echo.Context, f turbinesim.AuditFilter, res Page[*turbinesim.AuditEntry]) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	members, err := acc.ListMembers(c.Request().Context(), authFrom(c).Organization.ID)
	if err != nil {
		return err
	}
	v := views.AuditLogView{Entries: res.Items, Total: res.Total, Page: res.Page, PageSize: res.PageSize,
		TotalPages: res.TotalPages, Filter: f, Members: members}
	return render(c, http.StatusOK, views.AuditLogPage(s.page(c, "Audit log", "account"), v))
}

// htmxDone answers an htmx form of the organization pages by reloading
// page; other callers get status with body.
func htmxDone(c echo.Context, page string, status int, body any) error {
	if negotiate(c.Request()) == formatFragment {
		c.Response().Header().Set("HX-Redirect", page)
		return c.NoContent(http.StatusOK)
	}
	if body == nil {
		return c.NoContent(status)
	}
	return c.JSON(status, body)
}
