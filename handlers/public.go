package handlers

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Public, token-scoped endpoints (no credentials). Every token that does not
// open a study — unknown, disabled, rotated away, malformed — gets the same
// 404 body.

// PublicRequestsPerMinute is the per-client-address limit of the public
// endpoints (429 with Retry-After past it).
const PublicRequestsPerMinute = 60

// PublicArtifactList is the response of GET
// /api/public/studies/{token}/artifacts, paginated like every list.
type PublicArtifactList = Page[turbinesim.PublicArtifact]

// publicHeaders keeps share URLs out of Referer headers, search indexes,
// shared caches and the access log: once routed, the
// token in the request's path is replaced by "[token]", which is what the
// request logger and error log then record.
func publicHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if tok := c.Param("token"); tok != "" {
			u := c.Request().URL
			u.Path = strings.Replace(u.Path, tok, "[token]", 1)
			u.RawPath = ""
		}
		h := c.Response().Header()
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Robots-Tag", "noindex, nofollow")
		h.Set("Cache-Control", "no-store")
		return next(c)
	}
}

// limitByAddress counts public requests per client address in the shared
// PostgreSQL windows of the rate limiter (buckets keyed "pub:<address>").
func (s *Server) limitByAddress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.svc.RateLimiter == nil {
			return next(c)
		}
		key := "pub:" + c.RealIP()
		limits := turbinesim.RateLimits{PerUser: PublicRequestsPerMinute, PerOrg: PublicRequestsPerMinute}
		d, err := s.svc.RateLimiter.Allow(c.Request().Context(), key, key, limits, s.cfg.Now())
		if err != nil {
			return err
		}
		reset := strconv.Itoa(max(1, int(math.Ceil(d.Reset.Seconds()))))
		h := c.Response().Header()
		h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
		h.Set("X-RateLimit-Reset", reset)
		if !d.Allowed {
			h.Set("Retry-After", reset)
			return turbinesim.Errorf(turbinesim.ERATELIMIT, "rate limit exceeded: %d requests per minute per client address", PublicRequestsPerMinute)
		}
		return next(c)
	}
}

// publicStudy: GET /api/public/studies/{token}; browsers get the public
// page (as at /s/{token}).
func (s *Server) publicStudy(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return s.publicStudyPage(c)
	}
	st, err := svc.SharedStudy(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st.Public())
}

// publicArtifacts: GET /api/public/studies/{token}/artifacts.
func (s *Server) publicArtifacts(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	_, as, err := svc.SharedArtifacts(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	items := make([]turbinesim.PublicArtifact, len(as))
	for i, a := range as {
		items[i] = a.Public()
	}
	out, err := pageOf(c, items)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// publicDownload: GET /api/public/studies/{token}/artifacts/{id}/download.
func (s *Server) publicDownload(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	a, rc, err := svc.OpenSharedArtifact(c.Request().Context(), c.Param("token"), c.Param("id"))
	if err != nil {
		return err
	}
	defer rc.Close()
	return streamArtifact(c, a, rc)
}
