package handlers

import (
	"net/http"
	"net/url"
	"strconv"
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

// refusesHTML says whether a request for a page that exists only as HTML
// must be answered 406: only when its Accept header admits none of
// text/html, text/* and */* (RFC 9110 §12.5.1). A client that accepts
// anything, or sends no Accept at all, gets the page.
func refusesHTML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	if accept == "" || r.Header.Get("HX-Request") == "true" {
		return false
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, _ := strings.Cut(part, ";")
		if zeroQuality(params) {
			continue // q=0 means "not acceptable"
		}
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "text/html", "text/*", "*/*":
			return false
		}
	}
	return true
}

// zeroQuality says whether the parameters of one Accept element carry q=0.
func zeroQuality(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return err == nil && q == 0
		}
	}
	return false
}

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
