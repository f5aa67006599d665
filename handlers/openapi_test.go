package handlers_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

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
