package turbinesim

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Study gathers results for review: a header with metadata, linked jobs and
// batches, and uploaded artifacts. Studies belong to an organization; every
// member may read and edit them, while the share link and deletion belong
// to the author and the organization's administrators.
type Study struct {
	ID             string    `json:"id" db:"id"`
	OrganizationID string    `json:"org_id" db:"organization_id"`
	Title          string    `json:"title" db:"title"`
	Description    string    `json:"description" db:"description"`
	TurbineID      *string   `json:"turbine_id" db:"turbine_id"`
	JobIDs         []string  `json:"job_ids" db:"-"`
	BatchIDs       []string  `json:"batch_ids" db:"-"`
	AuthorID       *string   `json:"author_id" db:"author_id"`
	AuthorName     string    `json:"author_name" db:"author_name"`
	TurbineName    *string   `json:"turbine_name" db:"turbine_name"`
	ShareEnabled   bool      `json:"share_enabled" db:"share_enabled"`
	ArtifactCount  int       `json:"artifact_count" db:"artifact_count"`
	CreatedAt      time.Time `json:"created_at" db:"created_at"`
	UpdatedAt      time.Time `json:"updated_at" db:"updated_at"`
}

// StudyInput is the writable part of a study (create and full update).
// Absent JSON fields keep their zero value: PUT replaces the header.
type StudyInput struct {
	Title       string   `json:"title"`
	Description string   `json:"description"`
	TurbineID   *string  `json:"turbine_id"`
	JobIDs      []string `json:"job_ids"`
	BatchIDs    []string `json:"batch_ids"`
}

// Limits of a study header; the database checks them again.
const (
	MaxStudyTitle       = 200
	MaxStudyDescription = 10000
	MaxStudyLinks       = 100
	DefaultStudyPage    = 20
	MaxStudyPageSize    = 100
)

// Validate checks lengths and id formats, naming the field at fault.
func (in *StudyInput) Validate() error {
	in.Title = strings.TrimSpace(in.Title)
	switch {
	case in.Title == "":
		return Errorf(EINVALID, "title: required")
	case utf8.RuneCountInString(in.Title) > MaxStudyTitle:
		return Errorf(EINVALID, "title: at most %d characters", MaxStudyTitle)
	case !utf8.ValidString(in.Title) || strings.ContainsRune(in.Title, 0):
		return Errorf(EINVALID, "title: not valid text")
	case utf8.RuneCountInString(in.Description) > MaxStudyDescription:
		return Errorf(EINVALID, "description: at most %d characters", MaxStudyDescription)
	case !utf8.ValidString(in.Description) || strings.ContainsRune(in.Description, 0):
		return Errorf(EINVALID, "description: not valid text")
	}
	if in.TurbineID != nil && !IsUUID(*in.TurbineID) {
		return Errorf(EINVALID, "turbine_id: not a turbine id")
	}
	for _, l := range []struct {
		name string
		ids  *[]string
	}{{"job_ids", &in.JobIDs}, {"batch_ids", &in.BatchIDs}} {
		if len(*l.ids) > MaxStudyLinks {
			return Errorf(EINVALID, "%s: at most %d", l.name, MaxStudyLinks)
		}
		seen := map[string]bool{}
		out := (*l.ids)[:0:0]
		for i, id := range *l.ids {
			id = strings.ToLower(id)
			if !IsUUID(id) {
				return Errorf(EINVALID, "%s[%d]: not an id", l.name, i)
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		*l.ids = out
	}
	return nil
}

// IsUUID reports whether s is a UUID in its canonical 8-4-4-4-12 hex form.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !unicode.Is(unicode.ASCII_Hex_Digit, r) {
				return false
			}
		}
	}
	return true
}

// Artifact is one uploaded file of a study.
type Artifact struct {
	ID          string    `json:"id" db:"id"`
	StudyID     string    `json:"study_id" db:"study_id"`
	Name        string    `json:"name" db:"name"`
	ContentType string    `json:"content_type" db:"content_type"`
	Size        int64     `json:"size_bytes" db:"size_bytes"`
	SHA256      string    `json:"sha256" db:"sha256"`
	UploadedBy  *string   `json:"uploaded_by" db:"uploaded_by"`
	CreatedAt   time.Time `json:"created_at" db:"created_at"`
	// BlobKey locates the bytes in the blob store; never shown.
	BlobKey string `json:"-" db:"blob_key"`
}

// MaxArtifactBytes is the documented size limit of one artifact (25 MiB):
// below the service's default request body limit of 32 MiB, so that a
// multipart upload of the largest artifact still fits in one request.
const MaxArtifactBytes = 25 << 20

// ErrArtifactTooLarge is wrapped by AddArtifact when an upload passes the
// size limit (413 in the API).
var ErrArtifactTooLarge = errors.New("artifact larger than the size limit")

// MaxArtifactName is the longest accepted artifact name, in bytes.
const MaxArtifactName = 200

// CheckArtifactName refuses names that could be read as a path or hide
// one: separators of any script (/, \, U+2215, U+2044, U+FF0F, U+FF3C,
// U+29F5), "..", a leading dot, percent signs (pre-encoded traversal such as
// %2e%2e%2f), control characters including NUL, invalid UTF-8, and names
// over MaxArtifactName bytes. Names are refused, never silently rewritten,
// so what a reviewer downloads is named as the uploader saw it.
func CheckArtifactName(name string) error {
	switch {
	case name == "" || strings.TrimSpace(name) == "":
		return Errorf(EINVALID, "name: required")
	case len(name) > MaxArtifactName:
		return Errorf(EINVALID, "name: at most %d bytes", MaxArtifactName)
	case !utf8.ValidString(name):
		return Errorf(EINVALID, "name: not valid UTF-8")
	case strings.Contains(name, ".."), strings.HasPrefix(name, "."):
		return Errorf(EINVALID, "name: must not contain \"..\" or start with a dot")
	case strings.ContainsAny(name, "/\\%:\u2215\u2044\uff0f\uff3c\u29f5"):
		return Errorf(EINVALID, "name: must be a plain file name without path separators, colons or percent signs")
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cf, r) {
			return Errorf(EINVALID, "name: must not contain control or format characters")
		}
	}
	return nil
}

// ShareTokenLength is the length of a share token (URL-safe characters).
const ShareTokenLength = 64

// NewShareToken returns 64 URL-safe characters (base64url without padding
// of 48 random bytes: 384 bits) from crypto/rand, and the SHA-256 digest
// that is stored instead of the token.
func NewShareToken() (token string, digest []byte, err error) {
	var b [48]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, fmt.Errorf("share token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, ShareTokenDigest(token), nil
}

// ShareTokenDigest is the SHA-256 of a token, the key of a share lookup.
func ShareTokenDigest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}

// WellFormedShareToken reports whether s could be a share token; anything
// else is answered 404 without touching the database.
func WellFormedShareToken(s string) bool {
	if len(s) != ShareTokenLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ShareStatus is the state of a study's share link. Token is set only in
// the response that created it (enable, rotate): the service keeps only its
// digest and cannot show it again.
type ShareStatus struct {
	Enabled   bool       `json:"enabled"`
	EnabledAt *time.Time `json:"enabled_at"`
	Token     string     `json:"token,omitempty"`
}

// PublicStudy is what a share link shows: an explicit allowlist of fields
// (no e-mails, no user, organization or job ids, no storage keys).
type PublicStudy struct {
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Turbine     *string   `json:"turbine"`
	Author      string    `json:"author"`
	JobCount    int       `json:"job_count"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// PublicArtifact is an artifact as a share link lists it.
type PublicArtifact struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	ContentType string    `json:"content_type"`
	Size        int64     `json:"size_bytes"`
	SHA256      string    `json:"sha256"`
	CreatedAt   time.Time `json:"created_at"`
}

// Public returns the allowlisted view of s.
func (s *Study) Public() PublicStudy {
	return PublicStudy{Title: s.Title, Description: s.Description, Turbine: s.TurbineName, Author: s.AuthorName,
		JobCount: len(s.JobIDs), CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// Public returns the allowlisted view of a.
func (a *Artifact) Public() PublicArtifact {
	return PublicArtifact{ID: a.ID, Name: a.Name, ContentType: a.ContentType, Size: a.Size, SHA256: a.SHA256, CreatedAt: a.CreatedAt}
}

// ArtifactUpload is one file to add to a study.
type ArtifactUpload struct {
	Name        string
	ContentType string
	Body        io.Reader
}

// StudyService keeps studies, their artifacts and share links. Every
// method is scoped by organization: a study of another organization is
// ENOTFOUND. by is the caller (author of new rows; checked against the
// author for share and delete operations).
type StudyService interface {
	CreateStudy(ctx context.Context, by *Auth, in StudyInput) (*Study, error)
	ListStudies(ctx context.Context, orgID string, page, size int) ([]*Study, int, error)
	FindStudy(ctx context.Context, orgID, id string) (*Study, error)
	UpdateStudy(ctx context.Context, by *Auth, id string, in StudyInput) (*Study, error)
	DeleteStudy(ctx context.Context, by *Auth, id string) error

	// AddArtifact stores the upload; more than the service's size limit is
	// an error wrapping ErrArtifactTooLarge and leaves nothing behind.
	AddArtifact(ctx context.Context, by *Auth, studyID string, up ArtifactUpload) (*Artifact, error)
	ListArtifacts(ctx context.Context, orgID, studyID string) ([]*Artifact, error)
	// OpenArtifact returns the artifact and its bytes; the caller closes.
	OpenArtifact(ctx context.Context, orgID, studyID, artifactID string) (*Artifact, io.ReadCloser, error)
	DeleteArtifact(ctx context.Context, by *Auth, studyID, artifactID string) error

	ShareStatus(ctx context.Context, orgID, studyID string) (*ShareStatus, error)
	// EnableShare creates a token (ECONFLICT if the link is enabled
	// already: rotate to get a new one); RotateShare replaces it
	// (ECONFLICT if disabled); DisableShare removes it (idempotent).
	EnableShare(ctx context.Context, by *Auth, studyID string) (*ShareStatus, error)
	RotateShare(ctx context.Context, by *Auth, studyID string) (*ShareStatus, error)
	DisableShare(ctx context.Context, by *Auth, studyID string) error

	// Public access by token: an unknown, disabled or rotated-away token
	// is the same ENOTFOUND.
	SharedStudy(ctx context.Context, token string) (*Study, error)
	SharedArtifacts(ctx context.Context, token string) (*Study, []*Artifact, error)
	OpenSharedArtifact(ctx context.Context, token, artifactID string) (*Artifact, io.ReadCloser, error)
}
