package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// errorStatus maps application error codes to HTTP statuses.
var errorStatus = map[string]int{
	turbinesim.ECONFLICT:       http.StatusConflict,
	turbinesim.EINVALID:        http.StatusUnprocessableEntity,
	turbinesim.ENOTFOUND:       http.StatusNotFound,
	turbinesim.EUNAUTHORIZED:   http.StatusUnauthorized,
	turbinesim.EFORBIDDEN:      http.StatusForbidden,
	turbinesim.EPAYMENT:        http.StatusPaymentRequired,
	turbinesim.ERATELIMIT:      http.StatusTooManyRequests,
	turbinesim.EUNAVAILABLE:    http.StatusServiceUnavailable,
	turbinesim.ENOTIMPLEMENTED: http.StatusNotImplemented,
	turbinesim.EINTERNAL:       http.StatusInternalServerError,
}

// ErrorBody is the one error shape of the API: {"detail": "..."}.
type ErrorBody struct {
	Detail string `json:"detail"`
}

// statusAndDetail turns any error into the status and caller-safe detail of
// its response. Echo's own errors (unknown route, wrong method, body limit,
// ...) keep their status; their message is used only when it is a string
// Echo wrote, and 5xx details are always generic.
func statusAndDetail(err error) (int, string) {
	var he *echo.HTTPError
	if errors.As(err, &he) && turbinesim.ErrorCode(err) == turbinesim.EINTERNAL {
		status := he.Code
		if status >= 500 {
			return status, strings.ToLower(http.StatusText(status))
		}
		if msg, ok := he.Message.(string); ok && msg != "" && msg != http.StatusText(status) {
			return status, msg
		}
		return status, strings.ToLower(http.StatusText(status))
	}
	code := turbinesim.ErrorCode(err)
	status, ok := errorStatus[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	return status, turbinesim.ErrorMessage(err)
}

// handleError is Echo's HTTPErrorHandler: every error of every route,
// including the router's 404/405 and recovered panics, goes through here.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		// Either already rendered (the request logger runs this handler
		// and then passes the error on) or a stream that failed midway.
		s.log.Debug("error after the response started", "err", err, "request_id", requestID(c))
		return
	}
	s.writeError(c.Response(), c.Request(), err)
}

// writeError is the single function that renders an error response: JSON
// {"detail": ...} for scripts, an HTML page for browsers, a fragment for
// htmx. It is used by the Echo error handler and by middleware that runs
// outside Echo's handler chain (the session loader).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, detail := statusAndDetail(err)
	detail = s.paths.Hide(detail)
	attrs := []any{"status", status, "method", r.Method, "path", r.URL.Path, "request_id", w.Header().Get(echo.HeaderXRequestID)}
	switch {
	case status >= 500:
		s.log.Error("request failed", append(attrs, "err", err)...)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		s.log.Info("request refused", append(attrs, "detail", detail)...)
	}
	h := w.Header()
	if status == http.StatusServiceUnavailable {
		h.Set("Retry-After", "5")
	}
	if status == http.StatusUnauthorized && r.Header.Get("Authorization") != "" {
		h.Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	}
	h.Set("Cache-Control", "no-store")

	switch negotiate(r) {
	case formatFragment:
		if status == http.StatusUnauthorized {
			// htmx would swap a login page into its target; send the
			// browser there instead.
			h.Set("HX-Redirect", loginURL(r))
		}
		// Show the error in the layout's flash slot rather than in
		// whatever the request targeted (the layout configures htmx to swap
		// error responses).
		h.Set("HX-Retarget", "#flash")
		h.Set("HX-Reswap", "innerHTML")
		s.renderTo(w, r, status, views.ErrorFragment(status, detail))
	case formatHTML:
		if status == http.StatusUnauthorized && r.Method == http.MethodGet {
			http.Redirect(w, r, loginURL(r), http.StatusSeeOther)
			return
		}
		// In the layout with the navigation of the signed-in caller, so
		// that a refused form leaves the person on a page of the site.
		p := views.Page{Title: fmt.Sprintf("Error %d", status), Auth: turbinesim.AuthFromContext(r.Context()), CSRF: s.sessionCSRF(r)}
		s.renderTo(w, r, status, views.ErrorPage(p, status, detail))
	default:
		h.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_ = json.NewEncoder(w).Encode(ErrorBody{Detail: detail})
		}
	}
}

// loginURL is the login page with a return path to the current page.
func loginURL(r *http.Request) string {
	if r.Method != http.MethodGet || r.URL.Path == "/login" {
		return "/login"
	}
	next := r.URL.Path
	if r.URL.RawQuery != "" {
		next += "?" + r.URL.RawQuery
	}
	return "/login?next=" + urlQueryEscape(next)
}

// errorAttr names an error in structured logs.
func errorAttr(err error) slog.Attr { return slog.String("err", err.Error()) }

// sessionCSRF is the session's anti-forgery token for an error page, ""
// when the request has no session (an error raised before the session
// was loaded) or none was issued yet.
func (s *Server) sessionCSRF(r *http.Request) (tok string) {
	defer func() {
		if recover() != nil {
			tok = "" // scs panics without session data in the context
		}
	}()
	return s.sessions.GetString(r.Context(), sessionCSRF)
}
