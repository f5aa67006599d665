package turbinesim

import (
	"context"
	"time"
)

// AuditEvent names what an audit entry records. Every change an
// administrator answers for (keys, members, caps, public share links) is
// written with the change, in its transaction, so the log cannot miss a
// change that happened nor show one that did not.
type AuditEvent string

// Audit events.
const (
	// AuditAPIRequest is a state-changing request made with an API key,
	// whatever its outcome (method, path and status).
	AuditAPIRequest        AuditEvent = "api_request"
	AuditAPIKeyCreated     AuditEvent = "api_key.created"
	AuditAPIKeyRevoked     AuditEvent = "api_key.revoked"
	AuditAPIKeyDeactivated AuditEvent = "api_key.deactivated"
	AuditAPIKeyReactivated AuditEvent = "api_key.reactivated"
	AuditMemberInvited     AuditEvent = "member.invited"
	AuditMemberRoleChanged AuditEvent = "member.role_changed"
	AuditMemberDeactivated AuditEvent = "member.deactivated"
	AuditMemberReactivated AuditEvent = "member.reactivated"
	AuditMemberRemoved     AuditEvent = "member.removed"
	AuditCapsChanged       AuditEvent = "settings.caps_changed"
	// A study is published by enabling its share link and unpublished by
	// disabling it; rotating replaces the public link.
	AuditShareEnabled  AuditEvent = "share.enabled"
	AuditShareRotated  AuditEvent = "share.rotated"
	AuditShareDisabled AuditEvent = "share.disabled"
)

// AuditEventInfo describes one event for the API description and the
// audit-log page's filter.
type AuditEventInfo struct {
	Event AuditEvent
	Label string
}

// AuditEvents lists every event in display order.
func AuditEvents() []AuditEventInfo {
	return []AuditEventInfo{
		{AuditAPIKeyCreated, "API key created"},
		{AuditAPIKeyRevoked, "API key revoked"},
		{AuditAPIKeyDeactivated, "API key deactivated"},
		{AuditAPIKeyReactivated, "API key reactivated"},
		{AuditMemberInvited, "Member invited"},
		{AuditMemberRoleChanged, "Member's role changed"},
		{AuditMemberDeactivated, "Member deactivated"},
		{AuditMemberReactivated, "Member reactivated"},
		{AuditMemberRemoved, "Member removed"},
		{AuditCapsChanged, "Caps changed"},
		{AuditShareEnabled, "Study published (share link enabled)"},
		{AuditShareRotated, "Share link rotated"},
		{AuditShareDisabled, "Study unpublished (share link disabled)"},
		{AuditAPIRequest, "Write with an API key"},
	}
}

// Valid says whether e is a known event.
func (e AuditEvent) Valid() bool {
	for _, i := range AuditEvents() {
		if i.Event == e {
			return true
		}
	}
	return false
}

// Label is the event's name for people.
func (e AuditEvent) Label() string {
	for _, i := range AuditEvents() {
		if i.Event == e {
			return i.Label
		}
	}
	return string(e)
}

// AuditEntry is one row of the audit log. UserID is who acted (empty for a
// change made outside any request, e.g. from the command line), ClientID
// the API key they acted with (empty for a browser or token sign-in).
// Target* name what the change was made to; Summary states it for people
// (old and new values of a changed setting). Method, Path and Status are
// the request's; Status is 0 for an event written with its change, before
// the response exists.
type AuditEntry struct {
	ID             int64      `json:"id" db:"id"`
	OrganizationID string     `json:"org_id" db:"organization_id"`
	Event          AuditEvent `json:"event" db:"event"`
	UserID         string     `json:"user_id" db:"user_id"`
	UserEmail      string     `json:"user_email" db:"user_email"`
	ClientID       string     `json:"client_id" db:"client_id"`
	Method         string     `json:"method" db:"method"`
	Path           string     `json:"path" db:"path"`
	Status         int        `json:"status" db:"status"`
	TargetType     string     `json:"target_type,omitempty" db:"target_type"`
	TargetID       string     `json:"target_id,omitempty" db:"target_id"`
	Summary        string     `json:"summary" db:"summary"`
	TargetUserID   *string    `json:"target_user_id,omitempty" db:"target_user_id"`
	TargetClientID *string    `json:"target_client_id,omitempty" db:"target_client_id"`
	CreatedAt      time.Time  `json:"created_at" db:"created_at"`
}

// AuditFilter narrows a listing of the log; zero fields match everything.
// From is inclusive, To exclusive.
type AuditFilter struct {
	Event  AuditEvent
	UserID string
	From   *time.Time
	To     *time.Time
}

// Validate refuses an unknown event or a reversed date range.
func (f AuditFilter) Validate() error {
	if f.Event != "" && !f.Event.Valid() {
		return Errorf(EINVALID, "event: unknown audit event %q", f.Event)
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return Errorf(EINVALID, "from must be before to")
	}
	return nil
}

// AuditService stores and reads the audit log.
type AuditService interface {
	RecordAudit(ctx context.Context, e *AuditEntry) error
	// ListAudit returns one page (1-based) of an organization's log that
	// matches f, newest first, and the count of matching entries.
	ListAudit(ctx context.Context, orgID string, f AuditFilter, page, pageSize int) ([]*AuditEntry, int, error)
}

type requestLineKey struct{}

// RequestLine is the method and path of the request a change is made in,
// which its audit entry records.
type RequestLine struct{ Method, Path string }

// NewContextWithRequestLine returns ctx carrying the request's method and
// path for the audit entries of the changes it makes.
func NewContextWithRequestLine(ctx context.Context, method, path string) context.Context {
	return context.WithValue(ctx, requestLineKey{}, RequestLine{Method: method, Path: path})
}

// RequestLineFromContext returns the request line, zero outside a request.
func RequestLineFromContext(ctx context.Context) RequestLine {
	rl, _ := ctx.Value(requestLineKey{}).(RequestLine)
	return rl
}
