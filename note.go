package turbinesim

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Note is a remark on a turbine, a job or a study. A private note is seen
// by its author only — for everyone else it does not exist (ENOTFOUND in
// every operation); an organization note is read by every member and
// changed by its author (deleted also by an administrator).
type Note struct {
	ID         string    `json:"id" db:"id"`
	TargetType string    `json:"target_type" db:"target_type"`
	TargetID   string    `json:"target_id" db:"target_id"`
	Visibility string    `json:"visibility" db:"visibility"`
	Body       string    `json:"body" db:"body"`
	AuthorName string    `json:"author_name" db:"author_name"`
	AuthorID   string    `json:"-" db:"author_id"`
	Mine       bool      `json:"mine" db:"-"`
	CreatedAt  time.Time `json:"created_at" db:"created_at"`
	UpdatedAt  time.Time `json:"updated_at" db:"updated_at"`
}

// Note visibilities and target types.
const (
	NotePrivate      = "private"
	NoteOrganization = "organization"
	MaxNoteBody      = 20000
	MaxNotePageSize  = 200
)

// NoteTargetTypes are the kinds of resource a note can be attached to.
var noteTargetTypes = map[string]bool{"turbine": true, "job": true, "study": true}

// IsNoteTargetType reports whether t names a kind of note target.
func IsNoteTargetType(t string) bool { return noteTargetTypes[t] }

// NoteInput creates a note; Visibility defaults to private.
type NoteInput struct {
	TargetType string `json:"target_type"`
	TargetID   string `json:"target_id"`
	Body       string `json:"body"`
	Visibility string `json:"visibility"`
}

// NoteUpdate changes a note; absent fields keep their value.
type NoteUpdate struct {
	Body       *string `json:"body"`
	Visibility *string `json:"visibility"`
}

func checkNoteBody(body string) error {
	switch {
	case strings.TrimSpace(body) == "":
		return Errorf(EINVALID, "body: required")
	case !utf8.ValidString(body) || strings.ContainsRune(body, 0):
		return Errorf(EINVALID, "body: not valid text")
	case utf8.RuneCountInString(body) > MaxNoteBody:
		return Errorf(EINVALID, "body: at most %d characters", MaxNoteBody)
	}
	return nil
}

func checkVisibility(v string) error {
	if v != NotePrivate && v != NoteOrganization {
		return Errorf(EINVALID, "visibility: %q or %q", NotePrivate, NoteOrganization)
	}
	return nil
}

// Validate checks a new note, defaulting the visibility.
func (in *NoteInput) Validate() error {
	if in.Visibility == "" {
		in.Visibility = NotePrivate
	}
	switch {
	case !IsNoteTargetType(in.TargetType):
		return Errorf(EINVALID, "target_type: turbine, job or study")
	case !IsUUID(in.TargetID):
		return Errorf(EINVALID, "target_id: not an id")
	}
	if err := checkNoteBody(in.Body); err != nil {
		return err
	}
	return checkVisibility(in.Visibility)
}

// Validate checks the fields present.
func (u *NoteUpdate) Validate() error {
	if u.Body == nil && u.Visibility == nil {
		return Errorf(EINVALID, "nothing to change: give body or visibility")
	}
	if u.Body != nil {
		if err := checkNoteBody(*u.Body); err != nil {
			return err
		}
	}
	if u.Visibility != nil {
		return checkVisibility(*u.Visibility)
	}
	return nil
}

// NoteService keeps notes. by is the caller: it scopes every query to the
// organization and hides other members' private notes.
type NoteService interface {
	CreateNote(ctx context.Context, by *Auth, in NoteInput) (*Note, error)
	ListNotes(ctx context.Context, by *Auth, targetType, targetID string, page, size int) ([]*Note, int, error)
	FindNote(ctx context.Context, by *Auth, id string) (*Note, error)
	UpdateNote(ctx context.Context, by *Auth, id string, u NoteUpdate) (*Note, error)
	DeleteNote(ctx context.Context, by *Auth, id string) error
}
