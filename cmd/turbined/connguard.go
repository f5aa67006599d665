package main

import (
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Slow-body defences (OWASP ASVS 5.0 15.2.2, resource-hungry requests): a
// client may hold at most maxConnsPerClient connections at once, and a
// request body must keep arriving at bodyMinRate after a bodyGrace, so that
// thousands of connections trickling a body can neither exhaust the
// server's sockets nor stay open for ReadTimeout.
const (
	defaultMaxConnsPerClient = 256
	bodyGrace                = 10 * time.Second
	bodyMinRate              = 16 << 10 // bytes per second
)

// perClientListener closes, as soon as they are accepted, the connections
// of an address that already holds limit open ones. Trusted reverse
// proxies (TRUSTED_PROXIES) carry many clients and are exempt.
type perClientListener struct {
	net.Listener
	limit   int
	trusted []netip.Prefix
	mu      sync.Mutex
	open    map[netip.Addr]int
}

func limitConnsPerClient(ln net.Listener, limit int, trustedCIDRs []string) net.Listener {
	l := &perClientListener{Listener: ln, limit: limit, open: map[netip.Addr]int{}}
	for _, c := range trustedCIDRs {
		if p, err := netip.ParsePrefix(c); err == nil {
			l.trusted = append(l.trusted, p)
		} else if a, err := netip.ParseAddr(c); err == nil {
			l.trusted = append(l.trusted, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return l
}

func (l *perClientListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
		if err != nil {
			return c, nil
		}
		addr := ap.Addr().Unmap()
		if l.isTrusted(addr) {
			return c, nil
		}
		l.mu.Lock()
		if l.open[addr] >= l.limit {
			l.mu.Unlock()
			_ = c.Close()
			continue
		}
		l.open[addr]++
		l.mu.Unlock()
		return &countedConn{Conn: c, release: func() { l.release(addr) }}, nil
	}
}

func (l *perClientListener) isTrusted(a netip.Addr) bool {
	for _, p := range l.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func (l *perClientListener) release(a netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[a]--; l.open[a] <= 0 {
		delete(l.open, a)
	}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// requireBodyProgress sets, before every read of a request body, the
// connection's read deadline to start + grace + (bytes read so far) /
// minRate: a body that falls behind that pace is cut (the
// read fails and the connection closes). Requests without a body (GET,
// WebSocket handshakes) never get a deadline from here.
func requireBodyProgress(h http.Handler, grace time.Duration, minRate int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = &pacedBody{ReadCloser: r.Body, rc: http.NewResponseController(w),
				start: time.Now(), grace: grace, minRate: minRate}
		}
		h.ServeHTTP(w, r)
	})
}

type pacedBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	start   time.Time
	grace   time.Duration
	minRate int64
	read    int64
}

func (b *pacedBody) Read(p []byte) (int, error) {
	allowance := time.Duration(float64(b.read) / float64(b.minRate) * float64(time.Second))
	_ = b.rc.SetReadDeadline(b.start.Add(b.grace + allowance))
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err == io.EOF {
		// The body is done: net/http now reads the connection in the
		// background to notice a client that goes away, and a deadline
		// passing there would cancel the request's context.
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
