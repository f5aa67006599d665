package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// B12: the production server refuses an oversized header block (a 100 kB
// Authorization header) with net/http's own 431 before the application
// runs, while ordinary large headers (a 16 kB cookie and token) still
// reach it.
func TestOversizedHeaderIs431(t *testing.T) {
	t.Parallel()
	reached := make(chan struct{}, 4)
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		w.WriteHeader(http.StatusNoContent)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	send := func(headerValue string) (int, string) {
		conn, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		req := "GET /account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + headerValue + "\r\nConnection: close\r\n\r\n"
		if _, err := io.WriteString(conn, req); err != nil {
			// The server may close while we are still writing; read what it said.
			t.Logf("write: %v", err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type") + " " + string(body)
	}
	status, body := send(strings.Repeat("A", 100<<10))
	if status != http.StatusRequestHeaderFieldsTooLarge || !strings.HasPrefix(body, "text/plain") {
		t.Fatalf("100 kB header: %d %q", status, body)
	}
	select {
	case <-reached:
		t.Fatal("the oversized request reached the application")
	default:
	}
	if status, body := send(strings.Repeat("A", 16<<10)); status != http.StatusNoContent {
		t.Fatalf("16 kB header: %d %q", status, body)
	}
}
