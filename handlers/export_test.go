package handlers

import (
	"sort"
	"strings"

	"github.com/labstack/echo/v4"
)

// Test hooks: exported only to the package's own tests.

// RouteKeys lists registered routes as "METHOD /path".
func RouteKeys(s *Server) []string {
	var keys []string
	for _, r := range s.Echo().Routes() {
		keys = append(keys, r.Method+" "+r.Path)
	}
	return keys
}

// DocumentedRouteKeys lists the operations of the OpenAPI document as
// "METHOD /path" keys in Echo's path syntax.
func DocumentedRouteKeys() []string {
	var keys []string
	for _, op := range apiOperations() {
		keys = append(keys, op.method+" "+echoPath(op.path))
	}
	sort.Strings(keys)
	return keys
}

// echoPath turns /turbines/{id} into /turbines/:id.
func echoPath(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if part == "{path}" {
			parts[i] = "*" // a file path of any depth: Echo's wildcard
		} else if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			parts[i] = ":" + part[1:len(part)-1]
		}
	}
	return strings.Join(parts, "/")
}

// HTMLOnlyRoute reports whether a route is exempt from the document.
func HTMLOnlyRoute(key string) bool { return htmlOnlyRoutes[key] }

// EchoContext names echo.Context for tests that add routes.
type EchoContext = echo.Context

// VerifiedOnly is the middleware chain of a verified-only route.
func VerifiedOnly(s *Server) []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{s.requireAuth, s.requireVerified}
}

// FirstDuplicateKey is the repeated-key check of request bodies.
var FirstDuplicateKey = firstDuplicateKey

// APISchemas are the document's components/schemas.
func APISchemas() map[string]any { return apiSchemas() }

// APIResponseSchemas maps each schema named by a success response
// (status below 300) to one "METHOD /path" that returns it.
func APIResponseSchemas() map[string]string {
	out := map[string]string{}
	for _, op := range apiOperations() {
		for status, name := range op.responses {
			if status < 300 && name != "" {
				out[name] = op.method + " " + op.path
			}
		}
	}
	return out
}
