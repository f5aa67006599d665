package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/db"
	"github.com/turbinesim/turbinesim/handlers"
)

// Every JSON route registered in Echo is documented in /openapi.json, and
// every documented operation has a route.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	registered := map[string]bool{}
	for _, key := range handlers.RouteKeys(e.srv) {
		if handlers.HTMLOnlyRoute(key) {
			continue
		}
		registered[key] = true
	}
	documented := map[string]bool{}
	for _, key := range handlers.DocumentedRouteKeys() {
		documented[key] = true
	}
	for key := range registered {
		if !documented[key] {
			t.Errorf("route %s is registered but not documented in handlers/openapi.go", key)
		}
	}
	for key := range documented {
		if !registered[key] {
			t.Errorf("operation %s is documented but no route serves it", key)
		}
	}
	if len(registered) < 5 {
		t.Fatalf("only %d JSON routes found; the route listing is broken", len(registered))
	}
}

func TestOpenAPIDocumentIsServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, body := e.do(nil, request{method: "GET", path: "/openapi.json"})
	if resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d", resp.StatusCode)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
		Comp    struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi = %q, want 3.1.x", doc.OpenAPI)
	}
	if _, ok := doc.Paths["/auth/login"]["post"]; !ok {
		t.Fatal("POST /auth/login missing from the document")
	}
	// Every $ref points at a defined schema.
	for _, ref := range refPattern(body) {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if _, ok := doc.Comp.Schemas[name]; !ok {
			t.Errorf("dangling $ref %s", ref)
		}
	}
}

func refPattern(body string) []string {
	var refs []string
	for _, part := range strings.Split(body, `"$ref":"`)[1:] {
		ref, _, _ := strings.Cut(part, `"`)
		if !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	return refs
}

// The served document is valid OpenAPI 3.1, so that client generators and
// validators accept it: every path template parameter is declared as a
// required path parameter of its operation, and every "required" keyword
// is an array (JSON Schema), never null.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, body := e.do(nil, request{method: "GET", path: "/openapi.json"})
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	for path, item := range doc["paths"].(map[string]any) {
		var want []string
		for _, seg := range strings.Split(path, "/") {
			if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
				want = append(want, seg[1:len(seg)-1])
			}
		}
		for method, op := range item.(map[string]any) {
			declared := map[string]bool{}
			params, _ := op.(map[string]any)["parameters"].([]any)
			for _, p := range params {
				p := p.(map[string]any)
				if p["in"] == "path" {
					if p["required"] != true {
						t.Errorf("%s %s: path parameter %v not required", method, path, p["name"])
					}
					declared[p["name"].(string)] = true
				}
			}
			for _, name := range want {
				if !declared[name] {
					t.Errorf("%s %s: path parameter %q not declared", method, path, name)
				}
			}
			if len(declared) != len(want) {
				t.Errorf("%s %s: %d path parameters declared, the template has %d", method, path, len(declared), len(want))
			}
		}
	}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				// "required" is a boolean on a parameter or request body,
				// an array in a schema, and a property name under properties.
				if k == "required" && !strings.HasSuffix(at, "/properties") {
					_, isList := child.([]any)
					_, isBool := child.(bool)
					owner := at[strings.LastIndex(at, "/")+1:]
					_, inParameters := strconv.Atoi(owner)
					if owner == "requestBody" || inParameters == nil && strings.HasSuffix(strings.TrimSuffix(at, "/"+owner), "/parameters") {
						if !isBool {
							t.Errorf("%s/required = %v, want a boolean", at, child)
						}
					} else if !isList {
						t.Errorf("%s/required = %v, want an array", at, child)
					}
				}
				walk(at+"/"+k, child)
			}
		case []any:
			for i, child := range v {
				walk(at+"/"+strconv.Itoa(i), child)
			}
		}
	}
	walk("", doc)
}

// The operations that take multipart uploads document that media type in
// their request body, with the form fields the handlers read (POST /jobs
// documented only its JSON form, the artifact upload no body at all).
func TestOpenAPIDocumentsMultipartUploads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, body := e.do(nil, request{method: "GET", path: "/openapi.json"})
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Comp struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		fields []string
	}{
		{"/jobs", []string{`"file"`, `"entrypoint"`, `"turbine_id"`, `"settings"`, `"wind_file"`}},
		{"/turbines/from-upload", []string{`"file"`, `"entrypoint"`}},
		{"/studies/{id}/artifacts", []string{`"file"`, `"name"`}},
	} {
		mp, ok := doc.Paths[c.path]["post"].RequestBody.Content["multipart/form-data"]
		if !ok {
			t.Errorf("POST %s: no multipart/form-data request body", c.path)
			continue
		}
		schema := string(doc.Comp.Schemas[strings.TrimPrefix(mp.Schema.Ref, "#/components/schemas/")])
		for _, f := range c.fields {
			if !strings.Contains(schema, f) {
				t.Errorf("POST %s: multipart schema %s lacks the field %s", c.path, mp.Schema.Ref, f)
			}
		}
	}
	if _, ok := doc.Paths["/jobs"]["post"].RequestBody.Content["application/json"]; !ok {
		t.Error("POST /jobs: the JSON request body is gone")
	}
}

// Every operation that refuses API-key callers says so in its OpenAPI
// summary (keys call any endpoint except key creation; the service also
// keeps key management and account actions to
// interactive sessions, and must document where). Each documented
// operation is called once with an API key.
func TestOpenAPIDocumentsKeyRefusals(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, false)
	k, err := db.NewAPIKeyService(e.db).CreateAPIKey(context.Background(), e.admin, "probe")
	if err != nil {
		t.Fatal(err)
	}
	_, body := e.do(nil, request{method: "GET", path: "/openapi.json"})
	var doc struct {
		Paths map[string]map[string]struct {
			Summary  string `json:"summary"`
			Security []any  `json:"security"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	template := regexp.MustCompile(`\{[a-z_]+\}`)
	refused := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if op.Security != nil || strings.HasPrefix(path, "/ws/") { // public, or a WebSocket handshake
				continue
			}
			target := template.ReplaceAllString(path, "00000000-0000-0000-0000-000000000000")
			h := map[string]string{"X-API-Key": k.Key, "Accept": "application/json"}
			var reqBody string
			if method == "post" || method == "put" {
				h["Content-Type"], reqBody = "application/json", `{}`
			}
			resp, body := e.do(nil, request{method: strings.ToUpper(method), path: target, header: h, body: reqBody})
			if resp.StatusCode == http.StatusForbidden && strings.Contains(body, "API keys cannot") {
				refused++
				if !strings.Contains(op.Summary, "API key") {
					t.Errorf("%s %s refuses API keys (403) but its summary does not say so: %q", strings.ToUpper(method), path, op.Summary)
				}
			}
		}
	}
	if refused < 5 {
		t.Fatalf("only %d operations refused the key; the probe is broken", refused)
	}
}
