package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// Notes: GET /notes?target_type=&target_id= (page, page_size ≤
// 200), POST /notes, GET/PUT/DELETE /notes/{id}. A private note of someone
// else is 404 everywhere, indistinguishable from an absent one.

// NotePage is the response of GET /notes.
type NotePage = Page[*turbinesim.Note]

func (s *Server) noteService() (turbinesim.NoteService, error) {
	if s.svc.Notes == nil {
		return nil, notImplemented
	}
	return s.svc.Notes, nil
}

func (s *Server) listNotes(c echo.Context) error {
	svc, err := s.noteService()
	if err != nil {
		return err
	}
	page, size, err := pageParams(c, turbinesim.MaxNotePageSize)
	if err != nil {
		return err
	}
	items, total, err := svc.ListNotes(c.Request().Context(), authFrom(c), c.QueryParam("target_type"), c.QueryParam("target_id"), page, size)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newPage(items, total, page, size))
}

func (s *Server) createNote(c echo.Context) error {
	svc, err := s.noteService()
	if err != nil {
		return err
	}
	var in turbinesim.NoteInput
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	n, err := svc.CreateNote(c.Request().Context(), authFrom(c), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/notes/"+n.ID)
	return c.JSON(http.StatusCreated, n)
}

func (s *Server) getNote(c echo.Context) error {
	svc, err := s.noteService()
	if err != nil {
		return err
	}
	n, err := svc.FindNote(c.Request().Context(), authFrom(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, n)
}

func (s *Server) updateNote(c echo.Context) error {
	svc, err := s.noteService()
	if err != nil {
		return err
	}
	var u turbinesim.NoteUpdate
	if err := decodeJSONStrict(c, &u); err != nil {
		return err
	}
	n, err := svc.UpdateNote(c.Request().Context(), authFrom(c), c.Param("id"), u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, n)
}

func (s *Server) deleteNote(c echo.Context) error {
	svc, err := s.noteService()
	if err != nil {
		return err
	}
	if err := svc.DeleteNote(c.Request().Context(), authFrom(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
