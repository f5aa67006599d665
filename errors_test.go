package turbinesim_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/turbinesim/turbinesim"
)

func TestErrorCodeAndMessage(t *testing.T) {
	wrapped := fmt.Errorf("loading turbine: %w", turbinesim.Errorf(turbinesim.ENOTFOUND, "turbine not found"))
	tests := []struct {
		name     string
		err      error
		wantCode string
		wantMsg  string
	}{
		{"nil", nil, "", ""},
		{"application error through wrapping", wrapped, turbinesim.ENOTFOUND, "turbine not found"},
		{"plain error hides its text", errors.New("pq: relation does not exist"), turbinesim.EINTERNAL, "internal error"},
		{"internal application error hides its text", turbinesim.Errorf(turbinesim.EINTERNAL, "secret path /tmp/x"), turbinesim.EINTERNAL, "internal error"},
		{"cause kept for logs only", turbinesim.WrapError(turbinesim.EUNAVAILABLE, "database unavailable", errors.New("dial tcp: refused")), turbinesim.EUNAVAILABLE, "database unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := turbinesim.ErrorCode(tt.err); got != tt.wantCode {
				t.Errorf("ErrorCode = %q, want %q", got, tt.wantCode)
			}
			if got := turbinesim.ErrorMessage(tt.err); got != tt.wantMsg {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.wantMsg)
			}
		})
	}
}

func TestUserValidate(t *testing.T) {
	ok := turbinesim.User{OrganizationID: "o", Email: "a@example.com", Role: turbinesim.RoleMember}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid user rejected: %v", err)
	}
	for name, u := range map[string]turbinesim.User{
		"no org":       {Email: "a@example.com", Role: turbinesim.RoleMember},
		"display name": {OrganizationID: "o", Email: "A <a@example.com>", Role: turbinesim.RoleMember},
		"no at":        {OrganizationID: "o", Email: "nobody", Role: turbinesim.RoleMember},
		"bad role":     {OrganizationID: "o", Email: "a@example.com", Role: "root"},
	} {
		if err := u.Validate(); turbinesim.ErrorCode(err) != turbinesim.EINVALID {
			t.Errorf("%s: got %v, want EINVALID", name, err)
		}
	}
}
