package handlers

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/turbinesim/turbinesim"
)

// requestIDPattern bounds what a client may send as X-Request-ID: it ends up
// in logs, so nothing that could forge or break a log line.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// withRequestID takes the client's X-Request-ID when it is well formed,
// otherwise makes one, and echoes it on the response.
func withRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !requestIDPattern.MatchString(id) {
			id = rand.Text()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		c.Set("request_id", id)
		return next(c)
	}
}

func requestID(c echo.Context) string {
	id, _ := c.Get("request_id").(string)
	return id
}

// requestLogger logs one line per request with log/slog.
func requestLogger(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogMethod: true, LogURIPath: true, LogLatency: true, LogRemoteIP: true,
		LogRequestID: true, LogResponseSize: true,
		// Run the error handler inside the logger so that the logged status
		// and size are those of the error response actually sent.
		HandleError: true,
		// Health probes would drown everything else.
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return p == "/healthz" || p == "/readyz"
		},
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			attrs := []slog.Attr{
				slog.String("method", v.Method),
				slog.String("path", v.URIPath),
				slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency),
				slog.String("ip", v.RemoteIP),
				slog.String("request_id", v.RequestID),
				slog.Int64("bytes", v.ResponseSize),
			}
			if a := authFrom(c); a != nil {
				attrs = append(attrs, slog.String("user_id", a.User.ID), slog.String("auth", string(a.Method)))
			}
			log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request", attrs...)
			return nil
		},
	})
}

// recoverPanics turns a panic into a 500 {"detail"} and logs the
// stack; the server keeps serving.
func recoverPanics(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Error("panic", "err", err, "request_id", requestID(c), "stack", string(stack))
			return turbinesim.WrapError(turbinesim.EINTERNAL, "internal error", fmt.Errorf("panic: %w", err))
		},
	})
}

// crossOrigin refuses state-changing requests that a browser marks as
// cross-site (Sec-Fetch-Site) or whose Origin is not this host, with the
// standard library's Fetch-metadata check (Go 1.25+). Scripts send neither
// header and pass.
func (s *Server) crossOrigin() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, turbinesim.Errorf(turbinesim.EFORBIDDEN, "cross-origin request refused"))
	}))
	return echo.WrapMiddleware(cop.Handler)
}

// securityHeaders sets the headers every response should carry.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		// No inline scripts anywhere: JSON option blocks are data, not code.
		// htmx injects its indicator style inline, hence style-src.
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
		return next(c)
	}
}

// ipExtractor trusts only the socket peer, unless reverse-proxy ranges are
// configured: Echo's default RealIP believes any client's X-Forwarded-For.
func ipExtractor(trusted []string) (echo.IPExtractor, error) {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect(), nil
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, cidr := range trusted {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			return nil, fmt.Errorf("handlers: trusted proxy range %q: %w", cidr, err)
		}
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...), nil
}

// noStore keeps authenticated responses out of shared caches.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// cacheAssets lets browsers keep static assets for a day.
func cacheAssets(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "public, max-age=86400")
		return next(c)
	}
}
