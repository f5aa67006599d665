package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim/decks"
)

// floatingTransient is the start-up transient (s) of a run on a floating
// platform that its plausibility checks and default analysis windows
// leave out (decks.FloatingStartupTransient), as the documents state it.
var floatingTransient = strconv.FormatFloat(decks.FloatingStartupTransient, 'g', -1, 64)

// The OpenAPI 3.1 description of the JSON API, written by hand next to the
// routes. TestOpenAPIMatchesRoutes fails when a JSON route is registered
// without an entry here, or an entry has no route.

type apiOperation struct {
	method, path string
	summary      string
	tag          string
	public       bool   // no credentials needed
	request      string // schema name of the JSON body, "" for none
	// requestType is the media type of the body when it is not JSON (the
	// multipart turbine upload); requestExample is shown in the document.
	requestType    string
	requestExample any
	// moreRequests are further accepted media types of the body with
	// their schema names (POST /jobs takes JSON or multipart).
	moreRequests map[string]string
	// responses maps a status to the schema name of its JSON body ("" for
	// an empty body); error statuses use the Error schema.
	responses map[int]string
	// query declares the operation's query parameters (besides page and
	// page_size, which every list takes).
	query []queryParam
}

// queryParam is one optional query parameter of an operation.
type queryParam struct {
	name, description string
	enum              []string // allowed values; nil for any string
}

// apiOperations lists every documented JSON operation.
func apiOperations() []apiOperation {
	errs := func(m map[int]string, statuses ...int) map[int]string {
		for _, s := range statuses {
			m[s] = "Error"
		}
		return m
	}
	return append([]apiOperation{
		{method: "GET", path: "/", summary: "Service index: where the API description lives", tag: "meta", public: true,
			responses: map[int]string{200: "Index"}},
		{method: "GET", path: "/healthz", summary: "Liveness: the process answers", tag: "meta", public: true,
			responses: map[int]string{200: "Status"}},
		{method: "GET", path: "/readyz", summary: "Readiness: the database answers (503 with Retry-After otherwise)", tag: "meta", public: true,
			responses: errs(map[int]string{200: "Status"}, 503)},
		{method: "GET", path: "/openapi.json", summary: "This document", tag: "meta", public: true,
			responses: map[int]string{200: ""}},
		{method: "POST", path: "/auth/login", summary: "Exchange e-mail and password (and otp_code when MFA is enabled) for a token pair (access 15 min, refresh 30 days); without otp_code an MFA account gets 200 {\"mfa_required\": true}; wrong passwords or codes back off the pair of account and client address: 5 free failures, then 1 s, 2 s, 4 s, ... up to 15 minutes per failure (429 with Retry-After), forgotten a day after the last failure; failures at one address never hold back the account at another, so a correct password and code from an address that has not failed always sign in", tag: "auth", public: true,
			request: "LoginRequest", responses: errs(map[int]string{200: "TokenPair"}, 400, 401, 403, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/dashboard", summary: "The day's overview of the caller's organization: running and queued runs with progress and queue position, runs failed in the last 24 hours with their detail, batches in progress, this month's spend and tokens against the caps, the latest results, and the counters", tag: "account",
			responses: errs(map[int]string{200: "Dashboard"}, 401, 503)},
		{method: "GET", path: "/account", summary: "The caller as the server sees it", tag: "account",
			responses: errs(map[int]string{200: "Account"}, 401, 503)},
	}, append(append(append(append(append(identityOperations(errs), turbineOperations(errs)...), jobOperations(errs)...), studyOperations(errs)...), analysisOperations(errs)...), batchOperations(errs)...)...) // analysis: handlers/analysis_openapi.go
}

// apiSchemas are the components/schemas of the document.
func apiSchemas() map[string]any {
	str := map[string]any{"type": "string"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	obj := objectSchema
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	schemas := map[string]any{
		"Error":  obj([]string{"detail"}, map[string]any{"detail": str}),
		"Status": obj([]string{"status"}, map[string]any{"status": str}),
		"Index":  obj([]string{"service", "openapi"}, map[string]any{"service": str, "openapi": str}),
		"LoginRequest": obj([]string{"email", "password"}, map[string]any{
			"email": str, "password": map[string]any{"type": "string", "format": "password"},
			"otp_code": map[string]any{"type": "string", "description": "6-digit TOTP or a recovery code, when MFA is enabled"},
		}),
		"TokenPair": obj([]string{"access_token", "refresh_token", "token_type", "expires_in"}, map[string]any{
			"access_token": str, "refresh_token": str,
			"token_type": map[string]any{"type": "string", "const": "bearer"},
			"expires_in": map[string]any{"type": "integer", "description": "seconds; 900"},
		}),
		"Organization": obj([]string{"id", "name", "plan"}, map[string]any{
			"id": str, "name": str,
			"plan":       map[string]any{"type": "string", "enum": []string{"beta", "pro", "academic", "enterprise"}},
			"created_at": dt, "updated_at": dt,
		}),
		"User": obj([]string{"id", "org_id", "email", "role", "verified", "active"}, map[string]any{
			"id": str, "org_id": str, "email": str, "name": str,
			"role":     map[string]any{"type": "string", "enum": []string{"org_member", "org_admin"}},
			"verified": map[string]any{"type": "boolean"}, "active": map[string]any{"type": "boolean"},
			"created_at": dt, "updated_at": dt,
		}),
		"Dashboard": obj([]string{"organization", "member_count", "turbine_count", "job_count", "active_job_count", "study_count", "active", "failed", "batches", "recent", "usage"}, map[string]any{
			"organization": ref("Organization"), "member_count": map[string]any{"type": "integer"},
			"turbine_count": map[string]any{"type": "integer"}, "job_count": map[string]any{"type": "integer"},
			"active_job_count": map[string]any{"type": "integer", "description": "jobs queued, running or cancelling"},
			"study_count":      map[string]any{"type": "integer"},
			"active": map[string]any{"type": "array", "description": "running and queued runs (at most 10): running first, then in the order they will start",
				"items": map[string]any{"allOf": []any{ref("Job"), obj(nil, map[string]any{
					"queue_position": map[string]any{"type": "integer", "description": "place in the organization's queue, 1 = next; absent once running"}})}}},
			"queued_count": map[string]any{"type": "integer"},
			"failed":       map[string]any{"type": "array", "items": ref("Job"), "description": "runs that failed since failed_since (the last 24 hours), newest first, at most 10; each with its detail"},
			"failed_count": map[string]any{"type": "integer", "description": "runs failed since failed_since"},
			"failed_since": map[string]any{"type": "string", "format": "date-time"},
			"batches":      map[string]any{"type": "array", "items": ref("Batch"), "description": "batches with runs not finished, newest first, at most 10, with their progress"},
			"recent":       map[string]any{"type": "array", "items": ref("Job"), "description": "the latest succeeded runs, at most 10"},
			"usage":        map[string]any{"type": "object", "description": "this month's spend and tokens against the caps (as in GET /org/usage's usage)"},
		}),
		"Account": obj([]string{"user", "organization", "auth_method"}, map[string]any{
			"user": ref("User"), "organization": ref("Organization"),
			"auth_method": map[string]any{"type": "string", "enum": []string{"session", "bearer", "api_key"}},
		}),
	}
	for name, schema := range identitySchemas() {
		schemas[name] = schema
	}
	for name, schema := range studySchemas() { // handlers/studies_openapi.go
		schemas[name] = schema
	}
	for name, schema := range turbineSchemas() {
		schemas[name] = schema
	}
	for name, schema := range deckFileSchemas() {
		schemas[name] = schema
	}
	for name, schema := range jobSchemas() {
		schemas[name] = schema
	}
	for name, schema := range analysisSchemas() {
		schemas[name] = schema
	}
	for name, schema := range batchSchemas() { // handlers/batches_openapi.go
		schemas[name] = schema
	}
	return schemas
}

// objectSchema is a JSON Schema object with its required properties; the
// keyword is left out when none is required (JSON Schema wants an array
// there, and a nil slice would serialise as null).
// runChecksSchema is a run's plausibility checks (turbinesim.RunCheck), as
// GET /jobs/{id} and GET /batches/{id} answer them.
func runChecksSchema() map[string]any {
	nnum := map[string]any{"type": []string{"number", "null"}}
	str := map[string]any{"type": "string"}
	check := objectSchema([]string{"kind", "severity", "channel", "time", "value", "limit", "message"}, map[string]any{
		"kind": map[string]any{"type": "string", "enum": []string{"non_finite", "invalid_channel", "overspeed", "pitch_rate", "yaw_rate", "deflection", "divergence"}},
		"severity": map[string]any{"type": "string", "enum": []string{"error", "warning"},
			"description": "error: the outputs are not physical, the run is flagged and left out of batch design loads (unless include_flagged=true); warning: a channel the deck asked for has no values (OpenFAST writes it INVALID)"},
		"channel": str, "time": nnum, "value": nnum, "limit": nnum, "message": str})
	return map[string]any{"type": []string{"array", "null"}, "items": check,
		"description": "the plausibility checks the finished run failed, null when it was not checked (a run that did not succeed, or one finished before runs were checked), empty when it passed. " +
			"Every succeeded run's outputs are checked after its start-up transient (the first 30 s, the first " + floatingTransient + " s on a floating platform, a DLC run's own transient when that is shorter, as its analyses; or the first half of a shorter run; non-finite values and INVALID channels over the whole run) against its deck's bounds: rotor speed ≤ 1.3 × the controller's rated speed (ROSCO PC_RefSpd, the baseline's set-point, ServoDyn VS_RtGnSp) or ROSCO's overspeed shut-down speed SD_MaxGenSpd when higher; " +
			"pitch rate ≤ the controller's actuator limit (PC_MaxRat, else PtchRate_Max) and yaw rate ≤ YawManRat (yaw DOF off), both with 5 % for sampling; tip deflection ≤ the blade length, tower-top deflection ≤ the tower height; every sample finite; no divergence (a motion whose peak in the last fifth of the run is over ten times that of the first fifth and above its bound); " +
			"channels written INVALID. At most 100 checks are listed, the last saying how many more failed. The solver log states the bounds used."}
}

// excludedRunsSchema is a batch answer's excluded runs (results.ExcludedRun).
func excludedRunsSchema() map[string]any {
	str := map[string]any{"type": "string"}
	return map[string]any{"type": "array", "description": "finished runs left out because they failed a plausibility check of severity error (GET /jobs/{id} checks); include_flagged=true keeps them",
		"items": objectSchema([]string{"job_id", "run", "reasons"}, map[string]any{"job_id": str, "run": map[string]any{"type": "string", "description": "run name, empty when unnamed"},
			"reasons": map[string]any{"type": "array", "items": str}})}
}

func objectSchema(required []string, props map[string]any) map[string]any {
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema
}

// pathParameters declares the {name} segments of an OpenAPI path template
// as required string path parameters (OpenAPI 3.1 requires every template
// parameter to be declared).
func pathParameters(path string) []any {
	var params []any
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			params = append(params, map[string]any{
				"name": seg[1 : len(seg)-1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
	}
	return params
}

// openAPIDocument assembles the document.
func openAPIDocument() map[string]any {
	paths := map[string]any{}
	for _, op := range apiOperations() {
		item, _ := paths[op.path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[op.path] = item
		}
		responses := map[string]any{}
		for status, schema := range op.responses {
			r := map[string]any{"description": strings.ToLower(http.StatusText(status))}
			if status == http.StatusPaymentRequired {
				r["description"] = paymentRequiredDescription
			}
			if schema != "" {
				r["content"] = map[string]any{"application/json": map[string]any{
					"schema": map[string]any{"$ref": "#/components/schemas/" + schema}}}
			}
			responses[strconv.Itoa(status)] = r
		}
		o := map[string]any{"summary": op.summary, "tags": []string{op.tag}, "responses": responses,
			"operationId": strings.ToLower(op.method) + strings.NewReplacer("/", "_", "{", "", "}", "", ".", "_", "-", "_").Replace(op.path)}
		if op.public {
			o["security"] = []any{}
		}
		params := pathParameters(op.path)
		for _, q := range op.query {
			schema := map[string]any{"type": "string"}
			if q.enum != nil {
				schema["enum"] = q.enum
			}
			params = append(params, map[string]any{"name": q.name, "in": "query", "required": false,
				"description": q.description, "schema": schema})
		}
		if params != nil {
			o["parameters"] = params
		}
		if op.request != "" {
			media := map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + op.request}}
			if op.requestExample != nil {
				media["example"] = op.requestExample
			}
			mediaType := "application/json"
			if op.requestType != "" {
				mediaType = op.requestType
			}
			content := map[string]any{mediaType: media}
			for mt, schema := range op.moreRequests {
				content[mt] = map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/" + schema}}
			}
			o["requestBody"] = map[string]any{"required": true, "content": content}
		}
		item[strings.ToLower(op.method)] = o
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Turbine Simulation Service API",
			"version": "0.1",
			"description": "Every error is {\"detail\": \"...\"}. Browsers use the same paths and get HTML by content negotiation. " +
				"Every list takes page (default 1) and page_size (default 20, at most the maximum its summary states: 100, or 200 for notes and the audit log); a value that is not a positive integer, a page_size over the maximum or a repeated parameter is 422.",
		},
		"paths": paths,
		"components": map[string]any{
			"schemas": apiSchemas(),
			"securitySchemes": map[string]any{
				"bearer":  map[string]any{"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "turbinesim_session"},
				"apiKey":  map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key"},
			},
		},
		"security": []any{map[string]any{"bearer": []string{}}, map[string]any{"session": []string{}}, map[string]any{"apiKey": []string{}}},
	}
}

// openAPI: GET /openapi.json.
// paymentRequiredDescription documents every 402 of the service.
const paymentRequiredDescription = "payment required: the charge would pass a monthly cap of the organization. The detail states, in that cap's " +
	"own unit (dollars for the spend cap, tokens for the token cap), the cap, what is spent of it this month and what the request needs, " +
	"e.g. \"monthly spend cap of $50.00 reached: $49.80 spent this month, this request costs $0.35; an organization administrator can raise " +
	"the cap on the organization page, /org (PUT /org/settings)\". Nothing is stored or charged. A browser's error page links the cap settings."

func (s *Server) openAPI(c echo.Context) error {
	return c.JSON(http.StatusOK, openAPIDocument())
}
