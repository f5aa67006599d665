package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// render writes a templ component. Rendering is buffered so that a template
// error still becomes a proper 500 {"detail"}.
func render(c echo.Context, status int, t templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := t.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// renderTo is render for writers outside Echo's handler chain (errors).
func (s *Server) renderTo(w http.ResponseWriter, r *http.Request, status int, t templ.Component) {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := t.Render(r.Context(), buf); err != nil {
		s.log.Error("rendering an error page", errorAttr(err))
		http.Error(w, http.StatusText(status), status)
		return
	}
	w.Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
