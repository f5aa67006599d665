package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

type format int

const (
	formatJSON     format = iota // scripts: the JSON API
	formatHTML                   // browsers: a full page
	formatFragment               // htmx: a fragment of a page
)

// negotiate decides how to answer: htmx requests get fragments, a request
// that prefers text/html over JSON gets a page, and everything else (curl's
// */*, an explicit application/json, no Accept at all) gets JSON.
func negotiate(r *http.Request) format {
	if r.Header.Get("HX-Request") == "true" {
		return formatFragment
	}
	accept := r.Header.Get("Accept")
	html := strings.Index(accept, "text/html")
	if html < 0 {
		return formatJSON
	}
	if js := strings.Index(accept, "application/json"); js >= 0 && js < html {
		return formatJSON
	}
	return formatHTML
}

func wantsJSON(c echo.Context) bool { return negotiate(c.Request()) == formatJSON }

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// safeNext accepts a post-login return path only when it stays on this
// site: a single leading slash, no scheme, no host, no backslash tricks.
func safeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.ContainsAny(next, "\\\r\n") {
		return "/dashboard"
	}
	u, err := url.Parse(next)
	if err != nil || u.IsAbs() || u.Host != "" {
		return "/dashboard"
	}
	return next
}
