package handlers

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/http"
	"slices"

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
	ed := views.StudyEditor{Study: st, Artifacts: arts, Share: share, CanManage: canManage, MaxArtifactMiB: turbinesim.MaxArtifactBytes >> 20}
	if err := s.studyPickLists(c, st, &ed); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.StudyEditorPage(s.page(c, st.Title, "studies"), ed))
}

// pickListSize bounds each of the study editor's lists: the newest items
// (and every item the study links already, which the lists always hold).
const pickListSize = 100

// studyPickLists fills the editor's lists of turbines, runs and batches
// the study can link, labelled by name.
func (s *Server) studyPickLists(c echo.Context, st *turbinesim.Study, ed *views.StudyEditor) error {
	ctx, orgID := c.Request().Context(), authFrom(c).Organization.ID
	turbineNames := map[string]string{}
	if s.svc.Turbines != nil {
		ts, _, err := s.svc.Turbines.ListTurbines(ctx, orgID, turbinesim.TurbineFilter{Page: 1, PageSize: pickListSize})
		if err != nil {
			return err
		}
		for _, t := range ts {
			turbineNames[t.ID] = t.Name
			ed.Turbines = append(ed.Turbines, views.PickItem{ID: t.ID, Label: t.Name, Picked: st.TurbineID != nil && *st.TurbineID == t.ID})
		}
	}
	batchNames := map[string]string{}
	if s.svc.Batches != nil {
		bs, _, err := s.svc.Batches.ListBatches(ctx, orgID, 1, pickListSize)
		if err != nil {
			return err
		}
		for _, b := range bs {
			batchNames[b.ID] = b.Name
			label := fmt.Sprintf("%s (%s, %d runs, %s)", b.Name, b.Kind, b.RunCount, b.CreatedAt.UTC().Format("2006-01-02 15:04"))
			ed.Batches = append(ed.Batches, views.PickItem{ID: b.ID, Label: label, Picked: slices.Contains(st.BatchIDs, b.ID)})
		}
	}
	if s.svc.Jobs != nil {
		js, _, err := s.svc.Jobs.ListJobs(ctx, orgID, turbinesim.JobFilter{Page: 1, PageSize: pickListSize})
		if err != nil {
			return err
		}
		for _, j := range js {
			label := j.Entrypoint
			if j.TurbineID != nil && turbineNames[*j.TurbineID] != "" {
				label = turbineNames[*j.TurbineID] + " · " + label
			}
			if j.BatchID != nil && batchNames[*j.BatchID] != "" {
				label += " · batch " + batchNames[*j.BatchID]
			}
			label += fmt.Sprintf(" · %s · %s", j.Status, j.CreatedAt.UTC().Format("2006-01-02 15:04"))
			ed.Jobs = append(ed.Jobs, views.PickItem{ID: j.ID, Label: label, Picked: slices.Contains(st.JobIDs, j.ID)})
		}
	}
	// Linked items older than the lists' newest stay listed (and linked).
	for _, id := range st.JobIDs {
		if !slices.ContainsFunc(ed.Jobs, func(it views.PickItem) bool { return it.ID == id }) {
			ed.Jobs = append(ed.Jobs, views.PickItem{ID: id, Label: "an older run, linked", Picked: true})
		}
	}
	for _, id := range st.BatchIDs {
		if !slices.ContainsFunc(ed.Batches, func(it views.PickItem) bool { return it.ID == id }) {
			ed.Batches = append(ed.Batches, views.PickItem{ID: id, Label: "an older batch, linked", Picked: true})
		}
	}
	if st.TurbineID != nil && turbineNames[*st.TurbineID] == "" {
		label := "linked turbine"
		if st.TurbineName != nil {
			label = *st.TurbineName
		}
		ed.Turbines = append(ed.Turbines, views.PickItem{ID: *st.TurbineID, Label: label, Picked: true})
	}
	return nil
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
	if v.Batches, err = s.publicBatches(c.Request().Context(), st); err != nil {
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
