package handlers

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/pquerna/otp"

	"github.com/turbinesim/turbinesim"
)

// Accounts (sign-up, verification, invitations, members) and the second
// factor (TOTP enrolment, recovery codes), plus the credential check of
// POST /auth/login with its throttle.

// errMFARequired tells the login handler to ask for the second factor.
var errMFARequired = errors.New("mfa required")

// MFARequiredResponse is the answer of POST /auth/login when the account
// has MFA enabled and no otp_code was sent: {"mfa_required": true}.
type MFARequiredResponse struct {
	MFARequired bool `json:"mfa_required"`
}

// checkCredentials is the whole first-and-second-factor check of a login:
// the (account, address) back-off, the password, and, when the account
// has MFA, the TOTP or recovery code. Every failure (wrong password or
// wrong code) counts against the pair; a success clears the pair's count.
func (s *Server) checkCredentials(c echo.Context, email, password, otpCode string) (*turbinesim.User, error) {
	ctx := c.Request().Context()
	ip, now := c.RealIP(), s.cfg.Now()
	if s.svc.LoginThrottle != nil {
		wait, err := s.svc.LoginThrottle.Check(ctx, email, ip, now)
		if err != nil {
			if turbinesim.ErrorCode(err) == turbinesim.ERATELIMIT {
				c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
			}
			return nil, err
		}
	}
	fail := func(err error) (*turbinesim.User, error) {
		if turbinesim.ErrorCode(err) == turbinesim.EUNAUTHORIZED && s.svc.LoginThrottle != nil {
			if ferr := s.svc.LoginThrottle.Fail(ctx, email, ip, now); ferr != nil {
				return nil, ferr
			}
		}
		return nil, err
	}
	user, err := s.svc.Auth.Authenticate(ctx, email, password)
	if err != nil {
		return fail(err)
	}
	if s.svc.MFA != nil {
		on, err := s.svc.MFA.Enabled(ctx, user.ID)
		if err != nil {
			return nil, err
		}
		if on {
			if strings.TrimSpace(otpCode) == "" {
				return nil, errMFARequired
			}
			if err := s.svc.MFA.Verify(ctx, user.ID, otpCode, now); err != nil {
				return fail(err)
			}
		}
	}
	if s.svc.LoginThrottle != nil {
		if err := s.svc.LoginThrottle.Succeed(ctx, email, ip); err != nil {
			return nil, err
		}
	}
	return user, nil
}

func (s *Server) accountService() (turbinesim.AccountService, error) {
	if s.svc.Accounts == nil {
		return nil, notImplemented
	}
	return s.svc.Accounts, nil
}

// SignUpAccepted is the answer of POST /auth/signup, the same whether the
// address was new or already had an account (which it must not reveal):
// the caller signs in with POST /auth/login.
type SignUpAccepted struct {
	Email  string `json:"email"`
	Detail string `json:"detail"`
}

// signUpAcceptedDetail is what a sign-up answers in every case.
const signUpAcceptedDetail = "Check your mailbox: we sent a message to this address. A new account can sign in right away (POST /auth/login) as a demo account until the e-mailed link is followed."

// signUp: POST /auth/signup creates an organization and its first user, an
// unverified (demo) administrator, and mails the verification link; for a
// taken address it mails the owner a notice instead and answers the same.
// Sign-ups are counted per submitted address and per client address in a
// budget of their own (never the sign-in back-off's).
func (s *Server) signUp(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	var req turbinesim.SignUpRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.throttleSignUp(c, req.Email); err != nil {
		return err
	}
	if _, err := acc.SignUp(ctx, req); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusAccepted, SignUpAccepted{Email: turbinesim.NormalizeEmail(req.Email), Detail: signUpAcceptedDetail})
}

// throttleSignUp counts one sign-up for email from the client's address;
// a refused one is 429 with Retry-After.
func (s *Server) throttleSignUp(c echo.Context, email string) error {
	if s.svc.SignUpThrottle == nil {
		return nil
	}
	wait, err := s.svc.SignUpThrottle.Take(c.Request().Context(), email, c.RealIP(), s.cfg.Now())
	if turbinesim.ErrorCode(err) == turbinesim.ERATELIMIT {
		secs := int(wait/time.Second) + 1
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		return turbinesim.Errorf(turbinesim.ERATELIMIT, "too many sign-ups from this address or for this e-mail address; try again in %d seconds", secs)
	}
	return err
}

// TokenRequest carries a one-time e-mail token (and, for invitations, the
// new password).
type TokenRequest struct {
	Token    string `json:"token"`
	Password string `json:"password,omitempty"`
}

// verifyEmail: POST /auth/verify-email {token}. (The e-mail link opens a
// page that posts this; GET never changes state.)
func (s *Server) verifyEmail(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	var req TokenRequest
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		req.Token = c.FormValue("token")
	} else if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := acc.VerifyEmail(c.Request().Context(), strings.TrimSpace(req.Token))
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return c.Redirect(http.StatusSeeOther, "/account")
	}
	return c.JSON(http.StatusOK, u)
}

// acceptInvite: POST /auth/accept-invite {token, password} sets the
// invited user's password and returns a token pair.
func (s *Server) acceptInvite(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	var req TokenRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := acc.AcceptInvite(ctx, strings.TrimSpace(req.Token), req.Password)
	if err != nil {
		return err
	}
	pair, err := s.issueTokens(ctx, u)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, pair)
}

// listMembers: GET /org/members, every member may see who is in the
// organization.
func (s *Server) listMembers(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	users, err := acc.ListMembers(c.Request().Context(), authFrom(c).Organization.ID)
	if err != nil {
		return err
	}
	if !wantsJSON(c) {
		return s.membersPage(c, users)
	}
	page, err := pageOf(c, users)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// InviteRequest is the body of POST /org/members.
type InviteRequest struct {
	Email string          `json:"email"`
	Role  turbinesim.Role `json:"role"`
}

// inviteMember: POST /org/members, administrators only.
func (s *Server) inviteMember(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	var req InviteRequest
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		// The members page's form (hx-post).
		req = InviteRequest{Email: c.FormValue("email"), Role: turbinesim.Role(c.FormValue("role"))}
	} else if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := acc.Invite(c.Request().Context(), a.Organization.ID, req.Email, req.Role)
	if err != nil {
		return err
	}
	return htmxDone(c, "/org/members", http.StatusCreated, u)
}

// MemberUpdate is the body of PUT /org/members/{id}; absent fields stay.
type MemberUpdate struct {
	Role   *turbinesim.Role `json:"role"`
	Active *bool            `json:"active"`
}

// updateMember: PUT /org/members/{id}, administrators only; an
// administrator cannot demote or deactivate themself (the organization
// must keep one).
func (s *Server) updateMember(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	var req MemberUpdate
	if mediaType(c.Request()) == echo.MIMEApplicationForm {
		// The members page's role form and buttons (hx-put).
		if r := c.FormValue("role"); r != "" {
			role := turbinesim.Role(r)
			req.Role = &role
		}
		switch c.FormValue("active") {
		case "":
		case "true", "false":
			active := c.FormValue("active") == "true"
			req.Active = &active
		default:
			return turbinesim.Errorf(turbinesim.EINVALID, "active: want true or false")
		}
	} else if err := decodeJSON(c, &req); err != nil {
		return err
	}
	id, ctx := c.Param("id"), c.Request().Context()
	if id == a.User.ID && (req.Active != nil || (req.Role != nil && *req.Role != turbinesim.RoleAdmin)) {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "administrators cannot demote or deactivate themselves")
	}
	u, err := acc.UpdateMember(ctx, a.Organization.ID, id, req.Role, req.Active)
	if err != nil {
		return err
	}
	return htmxDone(c, "/org/members", http.StatusOK, u)
}

// deleteMember: DELETE /org/members/{id}, administrators only; soft delete.
func (s *Server) deleteMember(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	if c.Param("id") == a.User.ID {
		return turbinesim.Errorf(turbinesim.ECONFLICT, "administrators cannot delete themselves")
	}
	if err := acc.DeleteUser(c.Request().Context(), a.Organization.ID, c.Param("id")); err != nil {
		return err
	}
	return htmxDone(c, "/org/members", http.StatusNoContent, nil)
}

// outbox: GET /org/outbox, administrators only: the mail sent to the
// organization's users (the delivery record when SMTP is not configured).
func (s *Server) outbox(c echo.Context) error {
	acc, err := s.accountService()
	if err != nil {
		return err
	}
	a := authFrom(c)
	mails, err := acc.Outbox(c.Request().Context(), a.Organization.ID)
	if err != nil {
		return err
	}
	page, err := pageOf(c, mails)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

func (s *Server) mfaService(c echo.Context) (turbinesim.MFAService, error) {
	if s.svc.MFA == nil {
		return nil, notImplemented
	}
	// The second factor is an account action: never with an API key.
	return s.svc.MFA, interactiveOnly(c)
}

// MFAEnrolmentResponse is the answer of POST /account/mfa/enrol.
type MFAEnrolmentResponse struct {
	turbinesim.MFAEnrolment
	// QRCode is a data: URI of a PNG of the otpauth URI.
	QRCode string `json:"qr_code"`
}

// qrDataURI renders an otpauth URI as a PNG data URI.
func qrDataURI(uri string) (string, error) {
	key, err := otp.NewKeyFromURL(uri)
	if err != nil {
		return "", err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// mfaEnrol: POST /account/mfa/enrol starts an enrolment.
func (s *Server) mfaEnrol(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	enr, err := mfa.BeginEnrolment(c.Request().Context(), authFrom(c).User)
	if err != nil {
		return err
	}
	qr, err := qrDataURI(enr.URI)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, MFAEnrolmentResponse{MFAEnrolment: *enr, QRCode: qr})
}

// MFACodeRequest carries a code (and, to disable or regenerate, the
// password).
type MFACodeRequest struct {
	Code     string `json:"code"`
	Password string `json:"password,omitempty"`
}

// RecoveryCodesResponse lists fresh recovery codes, shown once.
type RecoveryCodesResponse struct {
	RecoveryCodes []string `json:"recovery_codes"`
}

// MFAConfirmResponse is the answer of POST /account/mfa/confirm: the
// recovery codes and, for a caller signed in with a token, a fresh token
// pair (enabling MFA ends every earlier session and token).
type MFAConfirmResponse struct {
	RecoveryCodes []string `json:"recovery_codes"`
	*TokenPair
}

// mfaConfirm: POST /account/mfa/confirm {code} enables MFA, which signs
// the account out everywhere, and returns the recovery codes with new
// credentials for the caller.
func (s *Server) mfaConfirm(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	var req MFACodeRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	a := authFrom(c)
	codes, err := mfa.ConfirmEnrolment(c.Request().Context(), a.User.ID, req.Code, s.cfg.Now())
	if err != nil {
		return err
	}
	out := MFAConfirmResponse{RecoveryCodes: codes}
	if a.Method == turbinesim.AuthSession {
		if err := s.startBrowserSession(c, a.User); err != nil {
			return err
		}
	} else if out.TokenPair, err = s.issueTokens(c.Request().Context(), a.User); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// reauthenticate checks the password and a current second-factor code
// again (ASVS 5.0 7.5.1) before MFA is disabled or codes regenerated; the
// attempts count against the login throttle.
func (s *Server) reauthenticate(c echo.Context, req MFACodeRequest) error {
	a := authFrom(c)
	if _, err := s.checkCredentials(c, a.User.Email, req.Password, req.Code); err != nil {
		if errors.Is(err, errMFARequired) {
			return turbinesim.Errorf(turbinesim.EUNAUTHORIZED, "a current authentication code is required")
		}
		return err
	}
	return nil
}

// mfaDisable: POST /account/mfa/disable {password, code}.
func (s *Server) mfaDisable(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	var req MFACodeRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := s.reauthenticate(c, req); err != nil {
		return err
	}
	if err := mfa.Disable(c.Request().Context(), authFrom(c).User.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// mfaRecoveryCodes: POST /account/mfa/recovery-codes {password, code}
// replaces every recovery code.
func (s *Server) mfaRecoveryCodes(c echo.Context) error {
	mfa, err := s.mfaService(c)
	if err != nil {
		return err
	}
	var req MFACodeRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := s.reauthenticate(c, req); err != nil {
		return err
	}
	codes, err := mfa.RegenerateRecoveryCodes(c.Request().Context(), authFrom(c).User.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, RecoveryCodesResponse{RecoveryCodes: codes})
}
