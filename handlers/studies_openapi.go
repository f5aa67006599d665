package handlers

import "github.com/turbinesim/turbinesim"

// OpenAPI entries of studies, share links, public endpoints and notes.

const publicNote = "No credentials; access by share token. Unknown, disabled, rotated-away and malformed tokens all get the same 404. Limited to 60 requests per minute per client address (429 with Retry-After). Responses carry Referrer-Policy: no-referrer and X-Robots-Tag: noindex."

func studyOperations(errs func(map[int]string, ...int) map[int]string) []apiOperation {
	return []apiOperation{
		{method: "GET", path: "/studies", summary: "The organization's studies, newest first (page ≥ 1, page_size 1–100, default 20; a larger page_size is 422)", tag: "studies",
			responses: errs(map[int]string{200: "StudyPage"}, 401, 422, 429, 503)},
		{method: "POST", path: "/studies", summary: "Create a study; the caller is its author. turbine_id, job_ids and batch_ids must be the organization's (422 otherwise); unknown fields are 422", tag: "studies",
			request: "StudyInput", responses: errs(map[int]string{201: "Study"}, 400, 401, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/studies/{id}", summary: "One study (404 for another organization's)", tag: "studies",
			responses: errs(map[int]string{200: "Study"}, 401, 404, 429, 503)},
		{method: "PUT", path: "/studies/{id}", summary: "Replace the header (any member of the organization)", tag: "studies",
			request: "StudyInput", responses: errs(map[int]string{200: "Study"}, 400, 401, 404, 413, 415, 422, 429, 503)},
		{method: "DELETE", path: "/studies/{id}", summary: "Delete a study with its artifacts and share link (author or administrator; 403 otherwise)", tag: "studies",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 429, 503)},
		{method: "GET", path: "/studies/{id}/artifacts", summary: "The study's artifacts in upload order; query page, page_size (default 20, max 100; larger is 422)", tag: "studies",
			responses: errs(map[int]string{200: "ArtifactList"}, 401, 404, 422, 429, 503)},
		{method: "POST", path: "/studies/{id}/artifacts", summary: "Upload an artifact: multipart/form-data with one \"file\" part (any type, at most 25 MiB: 413 beyond) and an optional \"name\" field before it. The name (the field, else the part's filename) must be a plain file name of at most 200 bytes: path separators (/ \\ ∕ ⁄ ／ ＼), \"..\", a leading dot, \"%\", \":\", control characters and invalid UTF-8 are refused with 422, never rewritten. A duplicate name in the study is 409. A failed upload stores nothing", tag: "studies",
			request: "ArtifactUpload", requestType: "multipart/form-data",
			responses: errs(map[int]string{201: "Artifact"}, 400, 401, 404, 409, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/studies/{id}/artifacts/{artifact_id}/download", summary: "The artifact's bytes as application/octet-stream with Content-Disposition: attachment (ASCII filename and RFC 5987 filename*), nosniff and a sandboxing CSP; an artifact of another study is 404", tag: "studies",
			responses: errs(map[int]string{200: ""}, 401, 404, 429, 503)},
		{method: "DELETE", path: "/studies/{id}/artifacts/{artifact_id}", summary: "Delete an artifact (any member)", tag: "studies",
			responses: errs(map[int]string{204: ""}, 401, 404, 429, 503)},
		{method: "GET", path: "/studies/{id}/share", summary: "Share link status; the token itself is never shown again after enable or rotate (only its SHA-256 is stored)", tag: "studies",
			responses: errs(map[int]string{200: "ShareStatus"}, 401, 404, 429, 503)},
		{method: "POST", path: "/studies/{id}/share", summary: "Enable the share link (author or administrator): returns a new 64-character token with the public URLs and a QR code, shown this once; 409 if already enabled (rotate instead); publishes the study, recorded in the audit log (share.enabled)", tag: "studies",
			responses: errs(map[int]string{201: "ShareLink"}, 401, 403, 404, 409, 429, 503)},
		{method: "DELETE", path: "/studies/{id}/share", summary: "Disable the share link (author or administrator; idempotent): the token stops working at once; unpublishing an enabled link is recorded in the audit log (share.disabled)", tag: "studies",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 429, 503)},
		{method: "POST", path: "/studies/{id}/share/rotate", summary: "Replace the token (author or administrator): the old one is 404 from the moment this returns; 409 if the link is disabled; recorded in the audit log (share.rotated)", tag: "studies",
			responses: errs(map[int]string{200: "ShareLink"}, 401, 403, 404, 409, 429, 503)},
		{method: "GET", path: "/api/public/studies/{token}", summary: "A shared study's header (allowlisted fields: no e-mails, user, organization or job ids). Browsers (Accept: text/html) get the reviewer's page, also at /s/{token}. " + publicNote, tag: "public", public: true,
			responses: errs(map[int]string{200: "PublicStudy"}, 404, 429, 503)},
		{method: "GET", path: "/api/public/studies/{token}/artifacts", summary: "A shared study's artifacts in upload order; query page, page_size (default 20, max 100; larger is 422). " + publicNote, tag: "public", public: true,
			responses: errs(map[int]string{200: "PublicArtifactList"}, 404, 422, 429, 503)},
		{method: "GET", path: "/api/public/studies/{token}/artifacts/{id}/download", summary: "Download one artifact of the shared study (an artifact of any other study is 404), with the same headers as the private download. " + publicNote, tag: "public", public: true,
			responses: errs(map[int]string{200: ""}, 404, 429, 503)},
		{method: "GET", path: "/notes", summary: "Notes on one target (query target_type = turbine|job|study and target_id, both required: 422 otherwise), oldest first; page_size default 20, up to 200 (larger is 422). Other members' private notes are not listed", tag: "notes",
			responses: errs(map[int]string{200: "NotePage"}, 401, 422, 429, 503)},
		{method: "POST", path: "/notes", summary: "Add a note (visibility private, the default, or organization); the target must exist in the organization (404 otherwise)", tag: "notes",
			request: "NoteInput", responses: errs(map[int]string{201: "Note"}, 400, 401, 404, 413, 415, 422, 429, 503)},
		{method: "GET", path: "/notes/{id}", summary: "One note; another member's private note is 404, exactly like an absent one", tag: "notes",
			responses: errs(map[int]string{200: "Note"}, 401, 404, 429, 503)},
		{method: "PUT", path: "/notes/{id}", summary: "Change body and/or visibility (the author only: 403 for another member's organization note, 404 for their private one)", tag: "notes",
			request: "NoteUpdate", responses: errs(map[int]string{200: "Note"}, 400, 401, 403, 404, 413, 415, 422, 429, 503)},
		{method: "DELETE", path: "/notes/{id}", summary: "Delete a note (the author; an administrator also for organization notes; another member's private note is 404)", tag: "notes",
			responses: errs(map[int]string{204: ""}, 401, 403, 404, 429, 503)},
	}
}

func studySchemas() map[string]any {
	str := map[string]any{"type": "string"}
	nullStr := map[string]any{"type": []string{"string", "null"}}
	integer := map[string]any{"type": "integer"}
	boolean := map[string]any{"type": "boolean"}
	dt := map[string]any{"type": "string", "format": "date-time"}
	nullDT := map[string]any{"type": []string{"string", "null"}, "format": "date-time"}
	ids := map[string]any{"type": "array", "items": map[string]any{"type": "string", "format": "uuid"}, "maxItems": turbinesim.MaxStudyLinks}
	obj := objectSchema
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }
	page := func(item string) map[string]any {
		return obj([]string{"items", "total", "page", "page_size", "total_pages"}, map[string]any{
			"items": map[string]any{"type": "array", "items": ref(item)}, "total": integer, "page": integer,
			"page_size": integer, "total_pages": integer,
		})
	}
	shareStatus := map[string]any{"enabled": boolean, "enabled_at": nullDT,
		"token": map[string]any{"type": "string", "description": "never in GET /studies/{id}/share: the token is shown once, in the ShareLink of enable and rotate"}}
	shareLink := map[string]any{"enabled": boolean, "enabled_at": nullDT,
		"token":   map[string]any{"type": "string", "minLength": 64, "maxLength": 64, "description": "URL-safe; shown only in this response"},
		"url":     map[string]any{"type": "string", "description": "the reviewer's page, /s/{token}"},
		"api_url": map[string]any{"type": "string", "description": "/api/public/studies/{token}"},
		"qr_code": map[string]any{"type": "string", "description": "data:image/png;base64 QR code of url"}}
	return map[string]any{
		"StudyInput": obj([]string{"title"}, map[string]any{
			"title": map[string]any{"type": "string", "maxLength": turbinesim.MaxStudyTitle}, "description": map[string]any{"type": "string", "maxLength": turbinesim.MaxStudyDescription},
			"turbine_id": nullStr, "job_ids": ids, "batch_ids": ids}),
		"Study": obj([]string{"id", "org_id", "title", "description", "job_ids", "batch_ids", "share_enabled", "created_at", "updated_at"}, map[string]any{
			"id": str, "org_id": str, "title": str, "description": str, "turbine_id": nullStr, "turbine_name": nullStr,
			"job_ids": ids, "batch_ids": ids, "author_id": nullStr, "author_name": str, "share_enabled": boolean,
			"artifact_count": integer, "created_at": dt, "updated_at": dt}),
		"StudyPage": page("Study"),
		"Artifact": obj([]string{"id", "study_id", "name", "content_type", "size_bytes", "sha256", "created_at"}, map[string]any{
			"id": str, "study_id": str, "name": str, "content_type": str, "size_bytes": integer, "sha256": str, "uploaded_by": nullStr, "created_at": dt}),
		"ArtifactList": page("Artifact"),
		"ArtifactUpload": obj([]string{"file"}, map[string]any{
			"name": map[string]any{"type": "string", "description": "stored name; before the file part; default the part's filename"},
			"file": map[string]any{"type": "string", "format": "binary"},
		}),
		"ShareStatus": obj([]string{"enabled", "enabled_at"}, shareStatus),
		"ShareLink":   obj([]string{"enabled", "enabled_at", "token", "url", "api_url", "qr_code"}, shareLink),
		"PublicStudy": obj([]string{"title", "description", "turbine", "author", "job_count", "created_at", "updated_at"}, map[string]any{
			"title": str, "description": str, "turbine": nullStr, "author": map[string]any{"type": "string", "description": "display name, never an e-mail"},
			"job_count": integer, "created_at": dt, "updated_at": dt}),
		"PublicArtifact": obj([]string{"id", "name", "content_type", "size_bytes", "sha256", "created_at"}, map[string]any{
			"id": str, "name": str, "content_type": str, "size_bytes": integer, "sha256": str, "created_at": dt}),
		"PublicArtifactList": page("PublicArtifact"),
		"NoteInput": obj([]string{"target_type", "target_id", "body"}, map[string]any{
			"target_type": map[string]any{"type": "string", "enum": []string{"turbine", "job", "study"}}, "target_id": str,
			"body":       map[string]any{"type": "string", "maxLength": turbinesim.MaxNoteBody},
			"visibility": map[string]any{"type": "string", "enum": []string{"private", "organization"}, "default": "private"}}),
		"NoteUpdate": obj([]string{}, map[string]any{"body": str,
			"visibility": map[string]any{"type": "string", "enum": []string{"private", "organization"}}}),
		"Note": obj([]string{"id", "target_type", "target_id", "visibility", "body", "author_name", "mine", "created_at", "updated_at"}, map[string]any{
			"id": str, "target_type": str, "target_id": str, "visibility": str, "body": str, "author_name": str,
			"mine": map[string]any{"type": "boolean", "description": "the caller wrote it"}, "created_at": dt, "updated_at": dt}),
		"NotePage": page("Note"),
	}
}
