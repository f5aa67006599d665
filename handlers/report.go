package handlers

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/internal/pdfprint"
	"github.com/turbinesim/turbinesim/results"
	"github.com/turbinesim/turbinesim/views"
)

// Certification report of a finished DLC batch:
// GET /reports/batches/{id} (verified accounts only) as an HTML page, or
// as a PDF of the same page with ?format=pdf or Accept: application/pdf,
// printed by headless Chromium. The page is self-contained (inline CSS,
// inline SVG, no scripts), so printing needs no session and no network.

// wantsPDF: ?format=pdf or an Accept header naming application/pdf.
func wantsPDF(c echo.Context) bool {
	return c.QueryParam("format") == "pdf" || strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "application/pdf")
}

// batchReport: GET /reports/batches/{id}.
func (s *Server) batchReport(c echo.Context) error {
	ctx := c.Request().Context()
	reports := s.svc.Reports
	if reports == nil {
		return notImplemented
	}
	events, err := results.ParseEventsPerYear(queryList(c, "events_per_year"))
	if err != nil {
		return err
	}
	flagged, err := includeFlaggedQuery(c)
	if err != nil {
		return err
	}
	rep, err := reports.Build(ctx, authFrom(c).Organization.ID, c.Param("id"), results.ReportOptions{EventsPerYear: events, IncludeFlagged: flagged})
	if err != nil {
		return err
	}
	var html bytes.Buffer
	if err := views.ReportPage(rep).Render(ctx, &html); err != nil {
		return err
	}
	if !wantsPDF(c) {
		return c.HTMLBlob(http.StatusOK, html.Bytes())
	}
	pdf, err := pdfprint.HTML(ctx, html.String(), "#report-end")
	if err != nil {
		return turbinesim.Errorf(turbinesim.EUNAVAILABLE, "the PDF could not be printed: %v", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="report-%s.pdf"`, rep.Batch.ID))
	return c.Blob(http.StatusOK, "application/pdf", pdf)
}
