package handlers

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// A turbine's stored deck as files: GET /turbines/{id}/files (the tree),
// /turbines/{id}/files/{path} (one file's text, bounded), /turbines/{id}/deck.zip
// (the whole deck, which uploads again unchanged) and
// /turbines/{id}/diff?with={id} (two decks compared parameter by
// parameter). Browsers get pages from the same handlers.

// DeckFilesResponse is the body of GET /turbines/{id}/files.
type DeckFilesResponse struct {
	TurbineID string                `json:"turbine_id"`
	MainFile  string                `json:"main_file"`
	Files     []turbinesim.DeckFile `json:"files"`
}

// deckFiles: GET /turbines/{id}/files.
func (s *Server) deckFiles(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	a, ctx, id := authFrom(c), c.Request().Context(), c.Param("id")
	t, err := s.svc.Turbines.FindTurbine(ctx, a.Organization.ID, id)
	if err != nil {
		return err
	}
	files, err := sd.Files(ctx, a.Organization.ID, id)
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return c.Redirect(http.StatusSeeOther, "/turbines/"+url.PathEscape(id)+"#deck-files")
	}
	return c.JSON(http.StatusOK, DeckFilesResponse{TurbineID: t.ID, MainFile: deref(t.MainFile), Files: files})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// deckFile: GET /turbines/{id}/files/{path}: the file's text (at most
// decks.MaxViewBytes, truncated says so; binary files have none).
func (s *Server) deckFile(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	a, ctx, id := authFrom(c), c.Request().Context(), c.Param("id")
	rel, err := url.PathUnescape(c.Param("*"))
	if err != nil {
		return turbinesim.Errorf(turbinesim.EINVALID, "file path: malformed escape")
	}
	f, err := sd.File(ctx, a.Organization.ID, id, rel)
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		t, err := s.svc.Turbines.FindTurbine(ctx, a.Organization.ID, id)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.DeckFilePage(s.page(c, f.Path+" · "+t.Name, "turbines"), t, f))
	}
	return c.JSON(http.StatusOK, f)
}

// unsafeFileChars are replaced in a download's file name.
var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._ ()+-]+`)

// deckZip: GET /turbines/{id}/deck.zip, the stored deck as a ZIP archive
// with the deck's own paths (POST /turbines/from-upload takes it back).
func (s *Server) deckZip(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	a, ctx := authFrom(c), c.Request().Context()
	return sd.Zip(ctx, a.Organization.ID, c.Param("id"), func(t *turbinesim.Turbine) io.Writer {
		name := strings.TrimSpace(unsafeFileChars.ReplaceAllString(t.Name, "_"))
		if name == "" {
			name = "deck"
		}
		h := c.Response().Header()
		h.Set(echo.HeaderContentType, "application/zip")
		h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s.zip"`, name))
		c.Response().WriteHeader(http.StatusOK)
		return c.Response()
	})
}

// DeckDiffResponse is the body of GET /turbines/{id}/diff?with={id}.
type DeckDiffResponse struct {
	A           TurbineRef                 `json:"a"`
	B           TurbineRef                 `json:"b"`
	Equal       bool                       `json:"equal"`
	Differences []turbinesim.DeckParamDiff `json:"differences"`
}

// TurbineRef names a turbine.
type TurbineRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// deckDiff: GET /turbines/{id}/diff?with={other id}: the stored decks
// compared file by file and parameter by parameter. A browser without
// "with" gets the page that picks the other turbine by name.
func (s *Server) deckDiff(c echo.Context) error {
	sd, err := s.storedDecks()
	if err != nil {
		return err
	}
	a, ctx, id, with := authFrom(c), c.Request().Context(), c.Param("id"), c.QueryParam("with")
	if with == "" {
		if wantsJSON(c) {
			return turbinesim.Errorf(turbinesim.EINVALID, "with: name the turbine to compare with (its id)")
		}
		t, err := s.svc.Turbines.FindTurbine(ctx, a.Organization.ID, id)
		if err != nil {
			return err
		}
		return s.deckDiffPage(c, t, nil, nil)
	}
	scratch, err := s.scratchFolder("deck-diff-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	ta, tb, rows, err := sd.Diff(ctx, a.Organization.ID, id, with, scratch)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []turbinesim.DeckParamDiff{}
	}
	res := DeckDiffResponse{A: TurbineRef{ta.ID, ta.Name}, B: TurbineRef{tb.ID, tb.Name}, Equal: len(rows) == 0, Differences: rows}
	if !wantsJSON(c) {
		return s.deckDiffPage(c, ta, tb, rows)
	}
	return c.JSON(http.StatusOK, res)
}

// deckDiffPage renders the comparison page: the other turbine picked by
// name from the organization's turbines with stored decks.
func (s *Server) deckDiffPage(c echo.Context, a, b *turbinesim.Turbine, rows []turbinesim.DeckParamDiff) error {
	all, _, err := s.svc.Turbines.ListTurbines(c.Request().Context(), authFrom(c).Organization.ID,
		turbinesim.TurbineFilter{Page: 1, PageSize: turbinesim.MaxTurbinePageSize})
	if err != nil {
		return err
	}
	var others []*turbinesim.Turbine
	for _, t := range all {
		if t.HasDeck() && t.ID != a.ID {
			others = append(others, t)
		}
	}
	v := views.DeckDiffView{A: a, B: b, Others: others, Rows: rows}
	return render(c, http.StatusOK, views.DeckDiffPage(s.page(c, "Compare decks · "+a.Name, "turbines"), v))
}
