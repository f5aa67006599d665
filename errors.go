// Package turbinesim holds the domain types and service interfaces of the
// turbine simulation service. Implementations live in one package per
// dependency (db/ for PostgreSQL, handlers/ for HTTP), following the
// "standard package layout" of benbjohnson/wtf.
package turbinesim

import (
	"errors"
	"fmt"
)

// Application error codes. Each maps to exactly one HTTP status in
// handlers.Error; the mapping is the only place that knows about HTTP.
const (
	ECONFLICT       = "conflict"        // 409: duplicate resource, or a state that forbids the change
	EINTERNAL       = "internal"        // 500: a bug or an unexpected failure; the message is never shown
	EINVALID        = "invalid"         // 422: the request is well formed but its values are not acceptable
	ENOTFOUND       = "not_found"       // 404: absent, or hidden by scope (deliberately indistinguishable)
	EUNAUTHORIZED   = "unauthorized"    // 401: missing, invalid or expired credentials
	EFORBIDDEN      = "forbidden"       // 403: authenticated but not permitted
	EPAYMENT        = "payment"         // 402: spend cap or token cap reached
	ERATELIMIT      = "rate_limit"      // 429: per-user or per-org rate limit exceeded
	EUNAVAILABLE    = "unavailable"     // 503: a dependency (the database) cannot be reached; retry later
	ENOTIMPLEMENTED = "not_implemented" // 501: the operation is documented but not built yet
)

// Error is an application error: a machine-readable code plus a message that
// is safe to show to the caller. Err keeps the underlying cause for logs; it
// is never shown.
type Error struct {
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an application error with a formatted, caller-safe message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WrapError returns an application error that keeps cause for logging.
func WrapError(code, message string, cause error) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}

// ErrorCode returns the code of the first application error in err's chain,
// "" for nil and EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the caller-safe message of the first application error
// in err's chain; any other error becomes "internal error" so that no detail
// of a failure (SQL, paths, stack) reaches a client.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) && e.Code != EINTERNAL {
		return e.Message
	}
	return "internal error"
}
