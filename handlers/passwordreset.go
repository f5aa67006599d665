package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/views"
)

// Password reset by e-mailed link (turbinesim.PasswordResets): the JSON
// endpoints for scripts and the "Forgot password?" pages for browsers.

// PasswordResetRequest is the body of POST /auth/password-reset.
type PasswordResetRequest struct {
	Email string `json:"email"`
}

// PasswordResetAccepted is the one answer of POST /auth/password-reset,
// the same whether or not an account has the address.
type PasswordResetAccepted struct {
	Message string `json:"message"`
}

// PasswordResetConfirm is the body of POST /auth/password-reset/confirm.
type PasswordResetConfirm struct {
	Token    string `json:"token"`
	Password string `json:"password"`
	// OTPCode is a current TOTP code or a recovery code, required when the
	// account has two-factor authentication.
	OTPCode string `json:"otp_code,omitempty"`
}

const resetAcceptedMessage = "If an account uses this address, a link to reset its password is on its way. It works once, for one hour."

func (s *Server) passwordResets() (*turbinesim.PasswordResets, error) {
	if s.svc.PasswordResets == nil {
		return nil, notImplemented
	}
	return s.svc.PasswordResets, nil
}

// retryAfter sets Retry-After (whole seconds, at least 1) on a 429.
func retryAfter(c echo.Context, wait time.Duration, err error) error {
	if turbinesim.ErrorCode(err) == turbinesim.ERATELIMIT {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
	}
	return err
}

// requestPasswordReset: POST /auth/password-reset answers 202 with the
// same body for known and unknown addresses.
func (s *Server) requestPasswordReset(c echo.Context) error {
	pr, err := s.passwordResets()
	if err != nil {
		return err
	}
	var req PasswordResetRequest
	if err := decodeJSONStrict(c, &req); err != nil {
		return err
	}
	if wait, err := pr.Request(c.Request().Context(), req.Email, c.RealIP()); err != nil {
		return retryAfter(c, wait, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusAccepted, PasswordResetAccepted{Message: resetAcceptedMessage})
}

// confirmPasswordReset: POST /auth/password-reset/confirm sets the new
// password; 204 on success.
func (s *Server) confirmPasswordReset(c echo.Context) error {
	pr, err := s.passwordResets()
	if err != nil {
		return err
	}
	var req PasswordResetConfirm
	if err := decodeJSONStrict(c, &req); err != nil {
		return err
	}
	if _, wait, err := pr.Complete(c.Request().Context(), req.Token, req.Password, req.OTPCode, c.RealIP()); err != nil {
		return retryAfter(c, wait, err)
	}
	return c.NoContent(http.StatusNoContent)
}

// forgotPasswordPage: GET /forgot-password.
func (s *Server) forgotPasswordPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/password-reset")
	}
	return render(c, http.StatusOK, views.ForgotPasswordPage(s.page(c, "Reset your password", ""), views.ForgotPasswordForm{}))
}

// forgotPasswordForm: POST /forgot-password.
func (s *Server) forgotPasswordForm(c echo.Context) error {
	pr, err := s.passwordResets()
	if err != nil {
		return err
	}
	if err := s.checkCSRF(c); err != nil {
		return err
	}
	f := views.ForgotPasswordForm{Email: c.FormValue("email")}
	wait, err := pr.Request(c.Request().Context(), f.Email, c.RealIP())
	switch turbinesim.ErrorCode(err) {
	case "":
		f.Sent = resetAcceptedMessage
		return render(c, http.StatusOK, views.ForgotPasswordPage(s.page(c, "Reset your password", ""), f))
	case turbinesim.EINVALID, turbinesim.ERATELIMIT:
		f.Error = turbinesim.ErrorMessage(err)
		status := http.StatusUnprocessableEntity
		if turbinesim.ErrorCode(err) == turbinesim.ERATELIMIT {
			status = http.StatusTooManyRequests
			_ = retryAfter(c, wait, err)
		}
		return render(c, status, views.ForgotPasswordPage(s.page(c, "Reset your password", ""), f))
	}
	return err
}

// resetPasswordPage: GET /reset-password?token=..., the e-mailed link. It
// only reads: the form posts the token with the new password (and the
// authentication code when the account has two-factor authentication).
func (s *Server) resetPasswordPage(c echo.Context) error {
	if refusesHTML(c.Request()) {
		return htmlOnly(c, "scripts use POST /auth/password-reset/confirm")
	}
	pr, err := s.passwordResets()
	if err != nil {
		return err
	}
	f := views.ResetPasswordForm{Token: c.QueryParam("token")}
	f.MFA, err = pr.Inspect(c.Request().Context(), f.Token)
	if err != nil {
		if turbinesim.ErrorCode(err) != turbinesim.EUNAUTHORIZED {
			return err
		}
		f.Invalid = true
	}
	return render(c, http.StatusOK, views.ResetPasswordPage(s.page(c, "Choose a new password", ""), f))
}

// resetPasswordForm: POST /reset-password; success signs nobody in and
// sends the browser to the login page.
func (s *Server) resetPasswordForm(c echo.Context) error {
	pr, err := s.passwordResets()
	if err != nil {
		return err
	}
	if err := s.checkCSRF(c); err != nil {
		return err
	}
	f := views.ResetPasswordForm{Token: c.FormValue("token"), MFA: c.FormValue("mfa") == "1"}
	_, wait, err := pr.Complete(c.Request().Context(), f.Token, c.FormValue("password"), c.FormValue("otp_code"), c.RealIP())
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/login?reset=1")
	}
	switch code := turbinesim.ErrorCode(err); code {
	case turbinesim.EINVALID, turbinesim.EUNAUTHORIZED, turbinesim.ERATELIMIT:
		f.Error = turbinesim.ErrorMessage(err)
		status := http.StatusUnprocessableEntity
		if err == turbinesim.ErrSecondFactorRequired {
			f.MFA = true
		}
		if code == turbinesim.ERATELIMIT {
			status = http.StatusTooManyRequests
			_ = retryAfter(c, wait, err)
		}
		return render(c, status, views.ResetPasswordPage(s.page(c, "Choose a new password", ""), f))
	}
	return err
}
