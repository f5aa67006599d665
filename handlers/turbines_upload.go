package handlers

import (
	"errors"
	"net/http"
	"os"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
)

// UploadFormField is the multipart field of POST /turbines/from-upload
// that carries the ZIP; optional fields: entrypoint (the main .fst when the
// archive holds several), name (default: the .fst's base name),
// description.
const UploadFormField = "file"

// uploadTurbine: POST /turbines/from-upload (verified only). The archive is
// checked and extracted into a scratch folder, the deck loaded and
// validated, DLL_FileName pinned to the built-in controller, and the tree
// stored with the new row; any failure leaves nothing behind.
func (s *Server) uploadTurbine(c echo.Context) error {
	svc, err := s.turbineService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	if err := verifiedOnly(a); err != nil {
		return err
	}
	r := c.Request()
	if !strings.HasPrefix(mediaType(r), "multipart/form-data") {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "send multipart/form-data with the ZIP in the field \""+UploadFormField+"\"")
	}
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		return turbinesim.Errorf(turbinesim.EINVALID, "malformed multipart body")
	}
	defer r.MultipartForm.RemoveAll()
	files := r.MultipartForm.File[UploadFormField]
	if len(files) != 1 {
		return turbinesim.Errorf(turbinesim.EINVALID, "%s: send exactly one ZIP archive in the form field %q", UploadFormField, UploadFormField)
	}
	fh := files[0]
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	form := func(k string) string { return strings.TrimSpace(r.FormValue(k)) }

	dir, err := s.scratchFolder("turbine-upload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := decks.ExtractZip(f, fh.Size, dir, decks.DefaultZipLimits); err != nil {
		return err
	}
	up, err := decks.PrepareUploadedDeck(dir, form("entrypoint"))
	if err != nil {
		return err
	}
	name := form("name")
	if name == "" {
		name = strings.TrimSuffix(path.Base(up.MainFile), path.Ext(up.MainFile))
	}
	desc := form("description")
	if turbinesim.IsDemoDescription(desc) {
		return turbinesim.Errorf(turbinesim.EINVALID, "description: the prefix %q is reserved for bundled demo turbines", turbinesim.DemoPrefix)
	}
	t := &turbinesim.Turbine{OrganizationID: a.Organization.ID, Name: name, Description: desc,
		TurbineParams: up.Params, MainFile: &up.MainFile, CreatedBy: &a.User.ID, Warnings: up.Warnings}
	if err := svc.CreateTurbine(r.Context(), t, dir); err != nil {
		return err
	}
	if negotiate(r) == formatFragment {
		c.Response().Header().Set("HX-Redirect", "/turbines/"+t.ID)
	}
	return c.JSON(http.StatusCreated, t)
}
