package views

import (
	"net/url"
	"strconv"
	"time"

	"github.com/turbinesim/turbinesim"
)

// OrgMembersView is the members page: the organization's users and, for
// administrators, the invitation form and each member's role and state.
type OrgMembersView struct {
	Members []*turbinesim.User
	IsAdmin bool
	// Me is the caller's user id: administrators cannot demote, deactivate
	// or remove themselves, so their own row has no controls.
	Me string
}

// OrgUsageView is the usage page: the month's spend and tokens against the
// caps, day by day and by API key.
type OrgUsageView struct {
	Plan     turbinesim.Plan
	Limits   turbinesim.RateLimits
	Usage    *turbinesim.Usage
	ByDay    []turbinesim.DayUsage
	ByClient []turbinesim.ClientUsage
}

// OrgSettingsView is the settings page (administrators only).
type OrgSettingsView struct {
	Name   string
	Plan   turbinesim.Plan
	Caps   turbinesim.Caps
	Limits turbinesim.RateLimits
}

// AuditLogView is one filtered page of the audit log.
type AuditLogView struct {
	Entries    []*turbinesim.AuditEntry
	Total      int
	Page       int
	PageSize   int
	TotalPages int
	Filter     turbinesim.AuditFilter
	// Members name the users the log can be filtered by.
	Members []*turbinesim.User
}

// UsageChartOption is the month's cumulative spend in dollars by day of
// the month, against the spend cap.
func UsageChartOption(u *turbinesim.Usage, days []turbinesim.DayUsage) map[string]any {
	month := u.Month
	last := month.AddDate(0, 1, -1).Day()
	spent := make([][2]float64, 0, len(days)+1)
	total := 0.0
	spent = append(spent, [2]float64{1, 0})
	for _, d := range days {
		total += float64(d.SpentCents) / 100
		spent = append(spent, [2]float64{float64(d.Day.Day()), total})
	}
	cap := float64(u.SpendCapCents) / 100
	return LineChartOption("", "Day of "+month.Format("January 2006"), "Spent ($)",
		XYSeries{Name: "Spent this month", Points: spent},
		XYSeries{Name: "Spend cap", Points: [][2]float64{{1, cap}, {float64(last), cap}}})
}

// auditPageURL is the audit-log address of page n with the same filters.
func auditPageURL(f turbinesim.AuditFilter, page, size int) string {
	q := url.Values{}
	if f.Event != "" {
		q.Set("event", string(f.Event))
	}
	if f.UserID != "" {
		q.Set("user_id", f.UserID)
	}
	if f.From != nil {
		q.Set("from", f.From.UTC().Format(time.RFC3339))
	}
	if f.To != nil {
		q.Set("to", f.To.UTC().Format(time.RFC3339))
	}
	q.Set("page", strconv.Itoa(page))
	q.Set("page_size", strconv.Itoa(size))
	return "/org/audit-log?" + q.Encode()
}

// filterDate is a filter bound as the date input shows it; to is
// exclusive, so its day is the one before.
func filterDate(t *time.Time, isTo bool) string {
	if t == nil {
		return ""
	}
	d := t.UTC()
	if isTo && d.Equal(d.Truncate(24*time.Hour)) {
		d = d.AddDate(0, 0, -1)
	}
	return d.Format(time.DateOnly)
}

// auditActor names who acted: the user's e-mail and the API key they
// acted with.
func auditActor(e *turbinesim.AuditEntry) string {
	who := e.UserEmail
	switch {
	case who == "" && e.UserID == "":
		who = "system"
	case who == "":
		who = "deleted user"
	}
	if e.ClientID != "" {
		who += " (API key " + e.ClientID + ")"
	}
	return who
}

// auditWhat is an entry's summary, or its request line for a write made
// with an API key.
func auditWhat(e *turbinesim.AuditEntry) string {
	if e.Summary != "" {
		return e.Summary
	}
	return e.Method + " " + e.Path + " → " + strconv.Itoa(e.Status)
}
