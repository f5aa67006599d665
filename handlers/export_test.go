package handlers

import "github.com/labstack/echo/v4"

// Test hooks: exported only to the package's own tests.

// RouteKeys lists registered routes as "METHOD /path".
func RouteKeys(s *Server) []string {
	var keys []string
	for _, r := range s.Echo().Routes() {
		keys = append(keys, r.Method+" "+r.Path)
	}
	return keys
}

// DocumentedRouteKeys lists the operations of the OpenAPI document.
func DocumentedRouteKeys() []string { return documentedRoutes() }

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
