package handlers

import (
	"net/http/httptest"
	"testing"
)

// An HTML-only page is refused (406) only to a client whose Accept header
// admits no HTML at all.
func TestRefusesHTML(t *testing.T) {
	for _, tt := range []struct {
		accept string
		htmx   bool
		want   bool
	}{
		{"", false, false},
		{"*/*", false, false}, // curl's default
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false, false},
		{"text/*", false, false},
		{"application/json", false, true},
		{"application/json, text/html;q=0", false, true},
		{"application/json, */*;q=0", false, true},
		{"application/json, */*;q=0.1", false, false},
		{"application/json", true, false},
	} {
		r := httptest.NewRequest("GET", "/login", nil)
		if tt.accept != "" {
			r.Header.Set("Accept", tt.accept)
		}
		if tt.htmx {
			r.Header.Set("HX-Request", "true")
		}
		if got := refusesHTML(r); got != tt.want {
			t.Errorf("Accept %q (htmx %v): refusesHTML = %v, want %v", tt.accept, tt.htmx, got, tt.want)
		}
	}
}
