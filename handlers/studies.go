package handlers

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Studies, artifacts and share links. Paths:
//
//	GET/POST        /studies                       list (page, page_size ≤ 100) / create
//	GET/PUT/DELETE  /studies/{id}                  read / replace header / delete (author or admin)
//	GET/POST        /studies/{id}/artifacts        list / upload (multipart "file", optional "name")
//	GET             /studies/{id}/artifacts/{artifact_id}/download
//	DELETE          /studies/{id}/artifacts/{artifact_id}
//	GET/POST/DELETE /studies/{id}/share            status / enable / disable (author or admin)
//	POST            /studies/{id}/share/rotate     new token; the old one is dead at once
//
// The public side is in public.go.

// StudyPage is the paginated response of GET /studies.
type StudyPage = Page[*turbinesim.Study]

// ArtifactList is the response of GET /studies/{id}/artifacts, paginated
// like every list.
type ArtifactList = Page[*turbinesim.Artifact]

// studyService returns the configured service or a 501.
func (s *Server) studyService() (turbinesim.StudyService, error) {
	if s.svc.Studies == nil {
		return nil, notImplemented
	}
	return s.svc.Studies, nil
}

// listStudies: GET /studies. Browsers get the study list page.
func (s *Server) listStudies(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		if !wantsJSON(c) {
			return s.coming("Studies", "studies")(c)
		}
		return err
	}
	page, size, err := pageParams(c, turbinesim.MaxStudyPageSize)
	if err != nil {
		return err
	}
	items, total, err := svc.ListStudies(c.Request().Context(), authFrom(c).Organization.ID, page, size)
	if err != nil {
		return err
	}
	res := newPage(items, total, page, size)
	if !wantsJSON(c) {
		return s.studyListPage(c, res)
	}
	return c.JSON(http.StatusOK, res)
}

// createStudy: POST /studies (JSON), or the list page's form.
func (s *Server) createStudy(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	var in turbinesim.StudyInput
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		in.Title, in.Description = c.FormValue("title"), c.FormValue("description")
	} else if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	st, err := svc.CreateStudy(c.Request().Context(), authFrom(c), in)
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return c.Redirect(http.StatusSeeOther, "/studies/"+st.ID)
	}
	c.Response().Header().Set(echo.HeaderLocation, "/studies/"+st.ID)
	return c.JSON(http.StatusCreated, st)
}

// getStudy: GET /studies/{id}. Browsers get the editor.
func (s *Server) getStudy(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	st, err := svc.FindStudy(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return s.studyEditorPage(c, st)
	}
	return c.JSON(http.StatusOK, st)
}

// updateStudy: PUT /studies/{id} replaces the header.
func (s *Server) updateStudy(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	var in turbinesim.StudyInput
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	st, err := svc.UpdateStudy(c.Request().Context(), authFrom(c), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// deleteStudy: DELETE /studies/{id}.
func (s *Server) deleteStudy(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	if err := svc.DeleteStudy(c.Request().Context(), authFrom(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// listArtifacts: GET /studies/{id}/artifacts.
func (s *Server) listArtifacts(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	items, err := svc.ListArtifacts(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	page, err := pageOf(c, items)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// maxNameField bounds the optional "name" form field.
const maxNameField = 1024

// uploadArtifact: POST /studies/{id}/artifacts, multipart/form-data with
// one "file" part and optionally a "name" field before it that overrides
// the file name. The file name is read raw from the part's
// Content-Disposition: Go's Part.FileName would strip directories and so
// hide a traversal attempt, which must be refused (422) instead.
func (s *Server) uploadArtifact(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send multipart/form-data with a \"file\" part")
	}
	name := ""
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return turbinesim.Errorf(turbinesim.EINVALID, "file: required")
		}
		if err != nil {
			return uploadError(err)
		}
		switch part.FormName() {
		case "name":
			b, err := io.ReadAll(io.LimitReader(part, maxNameField+1))
			if err != nil {
				return uploadError(err)
			}
			if len(b) > maxNameField {
				return turbinesim.Errorf(turbinesim.EINVALID, "name: at most %d bytes", turbinesim.MaxArtifactName)
			}
			name = string(b)
		case "file":
			if name == "" {
				_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
				if err != nil {
					return turbinesim.Errorf(turbinesim.EINVALID, "file: malformed Content-Disposition")
				}
				name = params["filename"]
			}
			a, err := svc.AddArtifact(c.Request().Context(), authFrom(c), c.Param("id"), turbinesim.ArtifactUpload{
				Name: name, ContentType: part.Header.Get("Content-Type"), Body: part})
			if err != nil {
				return uploadError(err)
			}
			c.Response().Header().Set(echo.HeaderLocation, "/studies/"+a.StudyID+"/artifacts/"+a.ID+"/download")
			return c.JSON(http.StatusCreated, a)
		default:
			// Other fields (the browser form's _csrf) are skipped.
			if _, err := io.Copy(io.Discard, io.LimitReader(part, 4096)); err != nil {
				return uploadError(err)
			}
		}
	}
}

// uploadError maps size failures to 413 and a broken multipart body to 400;
// application errors pass through.
func uploadError(err error) error {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, turbinesim.ErrArtifactTooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge,
			"artifact larger than "+strconv.Itoa(turbinesim.MaxArtifactBytes>>20)+" MiB")
	case errors.As(err, &tooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
	case turbinesim.ErrorCode(err) != turbinesim.EINTERNAL:
		return err
	case strings.Contains(err.Error(), "multipart"):
		return echo.NewHTTPError(http.StatusBadRequest, "malformed multipart body")
	}
	return err
}

// downloadArtifact: GET /studies/{id}/artifacts/{artifact_id}/download.
func (s *Server) downloadArtifact(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	a, rc, err := svc.OpenArtifact(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"), c.Param("artifact_id"))
	if err != nil {
		return err
	}
	defer rc.Close()
	return streamArtifact(c, a, rc)
}

// streamArtifact sends an artifact as an attachment:
// a fixed octet-stream type, nosniff, a sandboxing CSP, and a
// Content-Disposition with an ASCII fallback name and the exact name in
// RFC 5987 encoding (RFC 6266 §4.3).
func streamArtifact(c echo.Context, a *turbinesim.Artifact, body io.Reader) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, contentDisposition(a.Name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set(echo.HeaderContentLength, strconv.FormatInt(a.Size, 10))
	return c.Stream(http.StatusOK, "application/octet-stream", body)
}

// contentDisposition builds the attachment header; the fallback keeps
// printable ASCII except quotes and backslashes (replaced by '_').
func contentDisposition(name string) string {
	var fallback strings.Builder
	for _, r := range name {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			fallback.WriteByte('_')
		} else {
			fallback.WriteRune(r)
		}
	}
	return `attachment; filename="` + fallback.String() + `"; filename*=UTF-8''` + url.PathEscape(name)
}

// deleteArtifact: DELETE /studies/{id}/artifacts/{artifact_id}.
func (s *Server) deleteArtifact(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	if err := svc.DeleteArtifact(c.Request().Context(), authFrom(c), c.Param("id"), c.Param("artifact_id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// getShare: GET /studies/{id}/share.
func (s *Server) getShare(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	st, err := svc.ShareStatus(c.Request().Context(), authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// ShareLink is the response of enable and rotate: the token, the
// reviewer's page URL and the JSON URL built from it, and the page URL as a
// QR code (PNG data: URL) — shown this once, since only the token's digest
// is kept.
type ShareLink struct {
	*turbinesim.ShareStatus
	URL    string `json:"url"`
	APIURL string `json:"api_url"`
	QRCode string `json:"qr_code"`
}

func shareLink(c echo.Context, st *turbinesim.ShareStatus) (ShareLink, error) {
	base := c.Scheme() + "://" + c.Request().Host
	l := ShareLink{ShareStatus: st, URL: base + "/s/" + st.Token, APIURL: base + "/api/public/studies/" + st.Token}
	var err error
	l.QRCode, err = qrDataURL(l.URL)
	return l, err
}

// enableShare: POST /studies/{id}/share; 409 when already enabled.
func (s *Server) enableShare(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	st, err := svc.EnableShare(c.Request().Context(), authFrom(c), c.Param("id"))
	if err != nil {
		return err
	}
	l, err := shareLink(c, st)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, l)
}

// rotateShare: POST /studies/{id}/share/rotate; 409 when disabled.
func (s *Server) rotateShare(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	st, err := svc.RotateShare(c.Request().Context(), authFrom(c), c.Param("id"))
	if err != nil {
		return err
	}
	l, err := shareLink(c, st)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

// disableShare: DELETE /studies/{id}/share (idempotent).
func (s *Server) disableShare(c echo.Context) error {
	svc, err := s.studyService()
	if err != nil {
		return err
	}
	if err := svc.DisableShare(c.Request().Context(), authFrom(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
