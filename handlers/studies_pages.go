package handlers

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/http"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

//go:embed studies_editor.js
var studyEditorJS []byte

// studyScript serves the editor's script (upload progress, share link with
// copy button and QR code, notes panel); pages load no inline scripts.
func (s *Server) studyScript(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", studyEditorJS)
}

func (s *Server) studyListPage(c echo.Context, res StudyPage) error {
	return render(c, http.StatusOK, views.StudyListPage(s.page(c, "Studies", "studies"),
		views.StudyList{Items: res.Items, Page: res.Page, TotalPages: res.TotalPages, Total: res.Total}))
}

func (s *Server) studyEditorPage(c echo.Context, st *turbinesim.Study) error {
	a := authFrom(c)
	ctx := c.Request().Context()
	arts, err := s.svc.Studies.ListArtifacts(ctx, a.Organization.ID, st.ID)
	if err != nil {
		return err
	}
	share, err := s.svc.Studies.ShareStatus(ctx, a.Organization.ID, st.ID)
	if err != nil {
		return err
	}
	canManage := a.User.Role == turbinesim.RoleAdmin || (st.AuthorID != nil && *st.AuthorID == a.User.ID)
	return render(c, http.StatusOK, views.StudyEditorPage(s.page(c, st.Title, "studies"), views.StudyEditor{
		Study: st, Artifacts: arts, Share: share, CanManage: canManage, MaxArtifactMiB: turbinesim.MaxArtifactBytes >> 20}))
}

// publicStudyPage: GET /s/{token} (and /api/public/studies/{token} for
// browsers). An invalid token is the same 404 as on the JSON side.
func (s *Server) publicStudyPage(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	token := c.Param("token")
	st, arts, err := svc.SharedArtifacts(c.Request().Context(), token)
	if err != nil {
		return err
	}
	v := views.PublicStudyView{Study: st.Public(), Token: token, Artifacts: make([]turbinesim.PublicArtifact, len(arts))}
	for i, a := range arts {
		v.Artifacts[i] = a.Public()
	}
	if v.Runs, err = s.publicRuns(c.Request().Context(), st); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PublicStudyPage(v))
}

// qrDataURL renders text as a QR code PNG (medium error correction,
// 256 px) in a data: URL, which the page's CSP (img-src data:) allows.
func qrDataURL(text string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("encoding QR code: %w", err)
	}
	code, err = barcode.Scale(code, 256, 256)
	if err != nil {
		return "", fmt.Errorf("scaling QR code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, code); err != nil {
		return "", fmt.Errorf("writing QR code: %w", err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
