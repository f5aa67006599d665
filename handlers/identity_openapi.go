package handlers

import (
	"strings"

	"github.com/turbinesim/turbinesim"
)

// OpenAPI entries of the identity endpoints (handlers/identity.go).

// rateLimitNote is repeated in the document's descriptions.
const rateLimitNote = "Every authenticated response carries X-RateLimit-Limit (requests per minute of the user or organization bucket closest to exhaustion), X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the one-minute window ends); 429 adds Retry-After in seconds. Refused requests consume no quota. Bearer tokens and API keys count against the plan's limits (Beta 30 per user and 60 per organization, Pro and Academic 300/600, Enterprise 1,000/2,000 per minute); requests of a signed-in browser session count in separate buckets at ten times those limits, since each page of the interface costs several requests."

func identityOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	return []apiOperation{
		{method: "POST", path: "/auth/token/refresh", summary: "Rotate a refresh token: the presented one is consumed and a new pair returned (the refresh token keeps the login's 30-day absolute expiry); presenting a consumed token revokes every token of its login", tag: "auth", public: true,
			request: "RefreshRequest", responses: errs(map[int]string{200: "TokenPair"}, 400, 401, 415, 503)},
		{method: "POST", path: "/auth/logout", summary: "Server-side logout: revoke the refresh tokens of the presented token's login; access tokens expire within 15 minutes", tag: "auth", public: true,
			request: "RefreshRequest", responses: errs(map[int]string{204: ""}, 400, 401, 415, 503)},
		{method: "POST", path: "/api-keys", summary: "Create an API key with scopes (default [\"simulation\"]; unknown scopes are 422); the response is the only one that shows the secret. Refused (403) when authenticated by an API key. Recorded in the audit log (api_key.created). " + rateLimitNote, tag: "api-keys",
			request: "CreateAPIKeyRequest", responses: errs(map[int]string{201: "NewAPIKey"}, 401, 403, 415, 422, 429, 503)},
		{method: "GET", path: "/api-keys", summary: "The caller's API keys (Client ID and metadata, never the secret); query scope=org lists every key of the organization's members with owner_email and owner_name (organization administrators only; members get 403, other scopes 422); page, page_size (default 20, max 100; larger is 422). Not available to API-key callers (403)", tag: "api-keys",
			responses: errs(map[int]string{200: "APIKeyPage"}, 401, 403, 422, 429, 503)},
		{method: "DELETE", path: "/api-keys/{id}", summary: "Revoke a key for good; the next request with it gets 401. Members revoke their own keys; organization administrators also any key of a member of their organization; either is recorded in the audit log (api_key.revoked) with the key and its owner; other keys are 404. Not with an API key (403)", tag: "api-keys",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 429, 503)},
		{method: "POST", path: "/api-keys/{id}/deactivate", summary: "Deactivate a key (401 on its next request) until reactivated. Own keys; administrators also any member's key; recorded in the audit log (api_key.deactivated). An administrator's deactivation of a member's key sticks: deactivated_by names the administrator, deactivated_by_admin is true, and only an administrator can reactivate the key (the owner's reactivation is 403); an owner deactivating such a key again keeps the administrator's mark. Other keys are 404. Not with an API key (403)", tag: "api-keys",
			responses: errs(map[int]string{200: "APIKey"}, 401, 403, 404, 409, 429, 503)},
		{method: "POST", path: "/api-keys/{id}/reactivate", summary: "Reactivate a deactivated key (409 for a revoked one). Own keys, except a key an organization administrator deactivated (deactivated_by_admin true): the owner gets 403 with a detail saying so, and an administrator must reactivate it. Administrators reactivate any member's key, their own included; recorded in the audit log (api_key.reactivated); other keys are 404. Not with an API key (403)", tag: "api-keys",
			responses: errs(map[int]string{200: "APIKey"}, 401, 403, 404, 409, 429, 503)},
		{method: "GET", path: "/org/audit-log", summary: "The organization's audit log, newest first (organization administrators only; API keys need the org:read scope). Every change an administrator answers for is written in the transaction of the change itself, with who made it (user_id, user_email, and client_id when made with an API key), the request (method, path; status 0 because the entry is written before the response), what it was made to (target_type: api_key, user, organization or study; target_id; target_user_id and target_client_id for a key or account) and a summary with old and new values. Events: " + auditEventList() + ". Filters: event, user_id (who acted), from and to (a date YYYY-MM-DD or an RFC 3339 time; from inclusive, to exclusive, a date as to includes that day); an unknown event, a malformed time or from not before to is 422. page, page_size (default 20, max 200). Browsers get the audit-log page", tag: "organization",
			responses: errs(map[int]string{200: "AuditPage"}, 401, 403, 422, 429, 503),
			query: []queryParam{
				{name: "event", description: "only entries of this event", enum: auditEventNames()},
				{name: "user_id", description: "only entries made by this user"},
				{name: "from", description: "only entries at or after this date or time"},
				{name: "to", description: "only entries before this time, or up to the end of this date"},
			}},
		{method: "GET", path: "/org/settings", summary: "Organization settings: plan, rate limits, monthly caps (organization administrators only; API keys need the org:read scope)", tag: "organization",
			responses: errs(map[int]string{200: "OrgSettings"}, 401, 403, 429, 503)},
		{method: "PUT", path: "/org/settings", summary: "Set the monthly spend and token caps (organization administrators only; members get 403; an interactive sign-in, never an API key: 403); a change is recorded in the audit log (settings.caps_changed) with the old and new caps. Browsers get the settings page from GET", tag: "organization",
			request: "OrgSettings", responses: errs(map[int]string{200: "OrgSettings"}, 400, 401, 403, 415, 422, 429, 503)},
		{method: "GET", path: "/org/usage", summary: "Plan, rate limits and this calendar month's (UTC) spend and tokens against the caps, broken down by API key Client ID (by_client); a charge past a cap gets 402 naming the cap", tag: "organization",
			responses: errs(map[int]string{200: "Usage"}, 401, 429, 503)},
		{method: "POST", path: "/auth/signup", summary: "Open an account: a new organization (Beta) whose first user is its administrator, unverified (demo) until the e-mailed link is followed; answers 202 with the same body (email, detail) whether the address is new or already has an account, which it does not reveal: a new account signs in with POST /auth/login right away, the owner of a taken address gets a notice by mail instead. Sign-ups are limited to 5 per submitted address and 20 per client address an hour, a budget apart from sign-in failures (429 with Retry-After)", tag: "auth", public: true,
			request: "SignUpRequest", responses: errs(map[int]string{202: "SignUpAccepted"}, 400, 415, 422, 429, 503)},
		{method: "POST", path: "/auth/verify-email", summary: "Consume an e-mail verification token; the account becomes verified", tag: "auth", public: true,
			request: "TokenRequest", responses: errs(map[int]string{200: "User"}, 400, 401, 415, 503)},
		{method: "POST", path: "/auth/accept-invite", summary: "Consume an invitation token, set the password; returns a token pair", tag: "auth", public: true,
			request: "TokenRequest", responses: errs(map[int]string{200: "TokenPair"}, 400, 401, 415, 422, 503)},
		{method: "GET", path: "/org/members", summary: "The organization's users (roles: org_admin manages members, keys' audit log and settings; org_member uses the service; API keys need the org:read scope); query page, page_size (default 20, max 100; larger is 422)", tag: "organization",
			responses: errs(map[int]string{200: "UserPage"}, 401, 422, 429, 503)},
		{method: "POST", path: "/org/members", summary: "Invite a user by e-mail (administrators only, interactive sign-in: an API key gets 403); the invitation link goes to the invited address only; recorded in the audit log (member.invited)", tag: "organization",
			request: "InviteRequest", responses: errs(map[int]string{201: "User"}, 400, 401, 403, 409, 415, 422, 429, 503)},
		{method: "PUT", path: "/org/members/{id}", summary: "Change a member's role and/or active flag (administrators only, interactive sign-in: an API key gets 403; users of other organizations are 404); recorded in the audit log (member.role_changed with old → new role, member.deactivated, member.reactivated)", tag: "organization",
			request: "MemberUpdate", responses: errs(map[int]string{200: "User"}, 400, 401, 403, 404, 409, 415, 422, 429, 503)},
		{method: "DELETE", path: "/org/members/{id}", summary: "Soft-delete a member: every credential of the user stops on the next request (administrators only, interactive sign-in: an API key gets 403); recorded in the audit log (member.removed)", tag: "organization",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 409, 429, 503)},
		{method: "GET", path: "/org/outbox", summary: "Record of the mail sent to the organization's users: recipient, subject, created_at and sent_at (when the SMTP relay, or without SMTP_ADDR the operator's log, took it), newest first, at most the latest 200 (administrators only; API keys need the org:read scope). Message bodies and their one-time links (verification, invitation, password reset) are never stored or shown; they reach only the recipient's mailbox. Query page, page_size (default 20, max 100; larger is 422)", tag: "organization",
			responses: errs(map[int]string{200: "EmailPage"}, 401, 403, 422, 429, 503)},
		{method: "POST", path: "/account/sign-out-everywhere", summary: "Sign out everywhere: revoke every refresh token of the caller (deactivating, reactivating or deleting a user and enabling MFA do the same); access tokens and browser sessions issued before now get 401 (API keys are unaffected); not with an API key", tag: "account",
			responses: errs(map[int]string{204: ""}, 401, 403, 429, 503)},
		{method: "POST", path: "/account/mfa/enrol", summary: "Start TOTP enrolment: secret, otpauth URI and QR code (PNG data URI); not with an API key", tag: "account",
			responses: errs(map[int]string{200: "MFAEnrolment"}, 401, 403, 409, 429, 503)},
		{method: "POST", path: "/account/mfa/confirm", summary: "Confirm enrolment with a current code; returns ten one-time recovery codes, shown once. Enabling MFA signs the account out everywhere (refresh tokens revoked; access tokens and browser sessions from before refused), so the answer carries a fresh token pair for a token caller (a browser gets a new session). Not with an API key (403)", tag: "account",
			request: "MFACodeRequest", responses: errs(map[int]string{200: "MFAConfirmed"}, 400, 401, 403, 409, 415, 429, 503)},
		{method: "POST", path: "/account/mfa/disable", summary: "Disable MFA; needs the password and a current code (or a recovery code); not with an API key (403)", tag: "account",
			request: "MFACodeRequest", responses: errs(map[int]string{204: ""}, 400, 401, 403, 415, 429, 503)},
		{method: "POST", path: "/account/mfa/recovery-codes", summary: "Replace every recovery code; needs the password and a current code; not with an API key (403)", tag: "account",
			request: "MFACodeRequest", responses: errs(map[int]string{200: "RecoveryCodes"}, 400, 401, 403, 409, 415, 429, 503)},
		{method: "POST", path: "/auth/password-reset", summary: "Ask for a password-reset link by e-mail (to the account's address only). The answer is 202 with the same body whether or not an account has the address; requests are limited per address (5) and per client address (30) in 15-minute windows (429 with Retry-After). The link works once, for one hour", tag: "auth", public: true,
			request: "PasswordResetRequest", responses: errs(map[int]string{202: "PasswordResetAccepted"}, 400, 415, 422, 429, 503)},
		{method: "POST", path: "/auth/password-reset/confirm", summary: "Set a new password with the e-mailed token. Accounts with two-factor authentication must send otp_code (a current TOTP code or a recovery code); without it, or with a wrong one, the answer is 401 and the token stays usable (wrong codes count against the sign-in back-off of the account at this client address, 429 with Retry-After). Success consumes the token and every other reset link, revokes every refresh token and browser session of the user and refuses access tokens issued before it (API keys are unaffected); a notice is mailed", tag: "auth", public: true,
			request: "PasswordResetConfirm", responses: errs(map[int]string{204: ""}, 400, 401, 415, 422, 429, 503)},
		{method: "GET", path: "/account/sessions", summary: "Where the caller is signed in: browser sessions and refresh-token families (one per POST /auth/login), with created and last-used times, IP address and user agent of the latest use; current marks the requesting browser; query page, page_size (default 20, max 100; larger is 422). Not with an API key (403)", tag: "account",
			responses: errs(map[int]string{200: "SessionList"}, 401, 403, 422, 429, 503)},
		{method: "DELETE", path: "/account/sessions/{id}", summary: "Revoke one browser session (its next request gets 401) or refresh-token family (its refresh tokens get 401); ids of other users are 404. Not with an API key (403)", tag: "account",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 429, 503)},
	}
}

func identitySchemas() map[string]any {
	str := map[string]any{"type": "string"}
	integer := map[string]any{"type": "integer"}
	boolean := map[string]any{"type": "boolean"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	nullDT := map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
	obj := objectSchema
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	page := func(item string) map[string]any {
		return obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": ref(item)}, "total": integer, "page": integer,
			"page_size": integer, "total_pages": integer,
		})
	}
	scopesSchema := map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"simulation", "org:read"}},
		"description": "what the key may do: simulation (turbines, jobs, batches, analyses and results, studies and notes, the dashboard, reading the account and usage; the default) and org:read (reading the members and, for an administrator's key, the organization settings, audit log and outbox). A key outside its scopes gets 403 naming the missing scope. Whatever its scopes, no key changes members, roles, invitations, caps, organization settings, API keys, MFA or sessions: those need a browser session or a token from a password or social sign-in (403)"}
	keyProps := func() map[string]any {
		return map[string]any{
			"id": str, "client_id": map[string]any{"type": "string", "description": "first 12 characters of the key"},
			"name": str, "user_id": str, "org_id": str, "active": boolean,
			"revoked_at": nullDT, "created_at": dt, "last_used_at": nullDT,
			"deactivated_by": map[string]any{"type": []string{"string", "null"},
				"description": "user id of who deactivated an inactive key (its owner or an organization administrator); null for an active key"},
			"deactivated_by_admin": map[string]any{"type": "boolean",
				"description": "an organization administrator deactivated this member's key: only an administrator can reactivate it (the owner's POST /api-keys/{id}/reactivate is 403)"},
			"deactivated_by_email": map[string]any{"type": "string", "description": "e-mail of deactivated_by, when that account exists; in GET /api-keys?scope=org only"},
			"owner_email":          map[string]any{"type": "string", "description": "the key's owner; in GET /api-keys?scope=org only"},
			"owner_name":           map[string]any{"type": "string", "description": "the key's owner; in GET /api-keys?scope=org only"},
			"scopes":               scopesSchema,
		}
	}
	ownKey := keyProps()
	delete(ownKey, "owner_email")
	delete(ownKey, "owner_name")
	delete(ownKey, "deactivated_by_email")
	newKey := keyProps()
	delete(newKey, "owner_email")
	delete(newKey, "owner_name")
	delete(newKey, "deactivated_by_email")
	newKey["key"] = map[string]any{"type": "string", "description": "the secret, ofk_...; shown only in this response"}
	caps := obj([]string{"spend_cap_cents", "token_cap"}, map[string]any{"spend_cap_cents": integer, "token_cap": integer})
	rates := obj([]string{"per_user", "per_org"}, map[string]any{"per_user": integer, "per_org": integer})
	return map[string]any{
		"RefreshRequest":      obj([]string{"refresh_token"}, map[string]any{"refresh_token": str}),
		"CreateAPIKeyRequest": obj([]string{"name"}, map[string]any{"name": str, "scopes": scopesSchema}),
		"APIKey":              obj([]string{"id", "client_id", "name", "active", "created_at"}, ownKey),
		"OrgAPIKey":           obj([]string{"id", "client_id", "name", "active", "created_at", "owner_email", "owner_name"}, keyProps()),
		"NewAPIKey":           obj([]string{"id", "client_id", "name", "active", "created_at", "key"}, newKey),
		"APIKeyPage": obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "description": "APIKey items; OrgAPIKey items (with the owner) with ?scope=org",
				"items": map[string]any{"oneOf": []any{ref("APIKey"), ref("OrgAPIKey")}}},
			"total": integer, "page": integer, "page_size": integer, "total_pages": integer,
		}),
		"AuditEntry": obj([]string{"id", "org_id", "event", "user_id", "user_email", "client_id", "method", "path", "status", "summary", "created_at"}, map[string]any{
			"id": integer, "org_id": str, "method": str, "path": str, "created_at": dt,
			"event":            map[string]any{"type": "string", "enum": auditEventNames(), "description": auditEventList()},
			"user_id":          map[string]any{"type": "string", "description": "who acted; empty for a change made outside any request"},
			"user_email":       map[string]any{"type": "string", "description": "e-mail of user_id; empty when that account is gone"},
			"client_id":        map[string]any{"type": "string", "description": "Client ID of the API key the change was made with; empty for an interactive sign-in"},
			"status":           map[string]any{"type": "integer", "description": "the response status of an api_request entry (or of an administrator's action on a member's key); 0 for events written with their change"},
			"target_type":      map[string]any{"type": "string", "enum": []string{"api_key", "user", "organization", "study"}},
			"target_id":        str,
			"summary":          map[string]any{"type": "string", "description": "what changed, for people, with old → new values (empty for api_request)"},
			"target_user_id":   map[string]any{"type": "string", "description": "the account a key or member change was made to"},
			"target_client_id": map[string]any{"type": "string", "description": "Client ID of the key a change was made to"},
		}),
		"AuditPage": page("AuditEntry"),
		"UserPage":  page("User"),
		"EmailPage": page("Email"),
		"Email": obj([]string{"id", "to", "subject", "created_at"}, map[string]any{
			"id": integer, "org_id": str, "to": str, "subject": str, "created_at": dt, "sent_at": nullDT,
		}),
		"SignUpRequest": obj([]string{"email", "password", "name"}, map[string]any{
			"org_name": str, "name": str, "email": str, "password": map[string]any{"type": "string", "format": "password"},
		}),
		"SignUpAccepted": obj([]string{"email", "detail"}, map[string]any{"email": str, "detail": str}),
		"TokenRequest":   obj([]string{"token"}, map[string]any{"token": str, "password": map[string]any{"type": "string", "format": "password"}}),
		"InviteRequest":  obj([]string{"email"}, map[string]any{"email": str, "role": map[string]any{"type": "string", "enum": []string{"org_member", "org_admin"}}}),
		"MemberUpdate": obj([]string{}, map[string]any{"role": map[string]any{"type": "string", "enum": []string{"org_member", "org_admin"}},
			"active": boolean}),
		"MFAEnrolment": obj([]string{"secret", "otpauth_uri", "qr_code"}, map[string]any{"secret": str, "otpauth_uri": str,
			"qr_code": map[string]any{"type": "string", "description": "data:image/png;base64,..."}}),
		"MFACodeRequest": obj([]string{"code"}, map[string]any{"code": str, "password": map[string]any{"type": "string", "format": "password"}}),
		"MFAConfirmed": obj([]string{"recovery_codes"}, map[string]any{"recovery_codes": map[string]any{"type": "array", "items": str},
			"access_token": str, "refresh_token": str, "token_type": map[string]any{"type": "string", "const": "bearer"},
			"expires_in": map[string]any{"type": "integer", "description": "seconds; 900"}}),
		"RecoveryCodes":         obj([]string{"recovery_codes"}, map[string]any{"recovery_codes": map[string]any{"type": "array", "items": str}}),
		"MFARequired":           obj([]string{"mfa_required"}, map[string]any{"mfa_required": map[string]any{"type": "boolean", "const": true}}),
		"PasswordResetRequest":  obj([]string{"email"}, map[string]any{"email": map[string]any{"type": "string", "format": "email"}}),
		"PasswordResetAccepted": obj([]string{"message"}, map[string]any{"message": str}),
		"PasswordResetConfirm": obj([]string{"token", "password"}, map[string]any{"token": str,
			"password": map[string]any{"type": "string", "format": "password", "minLength": 10},
			"otp_code": map[string]any{"type": "string", "description": "TOTP code or recovery code; required when the account has two-factor authentication"}}),
		"LoginSession": obj([]string{"id", "kind", "created_at", "last_used_at", "ip", "user_agent", "current"}, map[string]any{
			"id": str, "kind": map[string]any{"type": "string", "enum": []string{"browser", "token"}},
			"created_at": dt, "last_used_at": dt, "ip": str, "user_agent": str,
			"expires_at": map[string]any{"type": "string", "format": "date-time", "description": "absolute end of a refresh-token family"},
			"current":    boolean}),
		"SessionList": page("LoginSession"),
		"Caps":        caps,
		"RateLimits":  rates,
		"OrgSettings": obj([]string{"caps"}, map[string]any{
			"name": str, "plan": map[string]any{"type": "string", "readOnly": true},
			"caps": ref("Caps"), "rate_limits": map[string]any{"$ref": "#/components/schemas/RateLimits", "readOnly": true},
		}),
		"Usage": obj([]string{"plan", "rate_limits", "usage", "by_client"}, map[string]any{
			"plan": str, "rate_limits": ref("RateLimits"),
			"by_client": map[string]any{"type": "array", "description": "this month's charges by API key Client ID (null: submitted interactively); refunded runs left out, so the rows sum to usage",
				"items": obj([]string{"client_id", "runs", "spent_cents", "tokens"}, map[string]any{
					"client_id": map[string]any{"type": []string{"string", "null"}}, "runs": integer, "spent_cents": integer, "tokens": integer,
				})},
			"usage": obj([]string{"spent_cents", "tokens", "spend_cap_cents", "token_cap"}, map[string]any{
				"org_id": str, "month": dt, "spent_cents": integer, "tokens": integer, "spend_cap_cents": integer, "token_cap": integer,
			}),
		}),
	}
}

// auditEventNames are the audit log's event values.
func auditEventNames() []string {
	var names []string
	for _, e := range turbinesim.AuditEvents() {
		names = append(names, string(e.Event))
	}
	return names
}

// auditEventList describes every event for the document.
func auditEventList() string {
	var parts []string
	for _, e := range turbinesim.AuditEvents() {
		parts = append(parts, string(e.Event)+" ("+strings.ToLower(e.Label[:1])+e.Label[1:]+")")
	}
	return strings.Join(parts, ", ")
}
