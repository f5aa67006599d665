package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Finding "slow-body connections stay open": before, 1,000 connections
// trickling a POST /auth/login body stayed open for the 5-minute
// ReadTimeout, all from one address. Now one address holds at most the
// cap, and a body behind the minimum pace is cut after the grace.
func TestSlowBodiesAreCutAndConnectionsCapped(t *testing.T) {
	t.Parallel()
	const limit, grace = 3, 300 * time.Millisecond
	srv := &http.Server{Handler: requireBodyProgress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "body too slow", http.StatusBadRequest)
			return
		}
		if r.URL.Path == "/slow-handler" {
			// Work past the body's deadline: the request stays alive.
			time.Sleep(2 * grace)
			if r.Context().Err() != nil {
				http.Error(w, "context cancelled", http.StatusInternalServerError)
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}), grace, 1000)}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(limitConnsPerClient(raw, limit, nil)) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := raw.Addr().String()

	slow := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_, _ = io.WriteString(c, "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
		return c
	}
	// closedWithin reports whether the server ended the connection (an
	// answer or EOF) within d.
	closedWithin := func(c net.Conn, d time.Duration) bool {
		_ = c.SetReadDeadline(time.Now().Add(d))
		_, err := io.ReadAll(c)
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	var conns []net.Conn
	for range 10 {
		conns = append(conns, slow())
	}
	time.Sleep(100 * time.Millisecond) // let the server accept them all
	refused := 0
	for _, c := range conns[limit:] {
		if closedWithin(c, time.Second) {
			refused++
		}
	}
	if refused != 10-limit {
		t.Fatalf("%d of %d connections over the cap closed at once", refused, 10-limit)
	}
	start := time.Now()
	for i, c := range conns[:limit] {
		if !closedWithin(c, 5*time.Second) {
			t.Fatalf("slow body %d still open after %v", i, time.Since(start))
		}
	}
	// The slots are free again; a body at a normal pace goes through, and
	// a handler working past the body's deadline keeps its context.
	for _, path := range []string{"/auth/login", "/slow-handler"} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		body := strings.Repeat("x", 5000)
		_, _ = io.WriteString(c, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n"+body)
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("%s: %v %v", path, resp, err)
		}
		c.Close()
	}
}
