package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// JobProgress is one message of the WebSocket /ws/jobs/{id}. Final is true
// on the last message, sent when the job reaches a terminal status; the
// server then closes with 1000.
type JobProgress struct {
	Status     turbinesim.JobStatus `json:"status"`
	SimTime    float64              `json:"sim_time"`
	TMax       float64              `json:"t_max"`
	Percent    float64              `json:"percent"`
	ETASeconds *float64             `json:"eta_seconds"`
	Attempt    int                  `json:"attempt"`
	Detail     *string              `json:"detail,omitempty"`
	Final      bool                 `json:"final"`
}

// How often the stream looks at the job row (progress crosses processes
// through the database: any worker writes, any server process reads) and
// re-checks the credential (a revoked key or deactivated user closes the
// stream with 1008 within credentialRecheck).
const (
	progressPoll      = 500 * time.Millisecond
	credentialRecheck = 2 * time.Second
)

// jobSocket: GET /ws/jobs/{id}. The handshake is authenticated like every
// other route (session cookie for browsers, whose Origin must be this
// host; Authorization: Bearer or X-API-Key headers for scripts; tokens in
// the URL are not accepted) and organization-scoped: another
// organization's job is 404 before any upgrade.
func (s *Server) jobSocket(c echo.Context) error {
	js, err := s.jobService()
	if err != nil {
		return err
	}
	orgID := authFrom(c).Organization.ID
	job, err := js.FindJob(c.Request().Context(), orgID, c.Param("id"))
	if err != nil {
		return err
	}
	refresh := func(ctx context.Context) (any, bool, error) {
		j, err := js.FindJob(ctx, orgID, job.ID)
		if err != nil {
			return nil, false, err
		}
		p := s.progressOf(j)
		return p, p.Final, nil
	}
	first := s.progressOf(job)
	return s.streamProgress(c, orgID, "job", first, first.Final, refresh)
}

// streamProgress upgrades the request to a WebSocket and sends msg, then
// every change of what refresh returns (polled every progressPoll), as JSON
// text messages. It closes with 1000 after the final message, and with 1008
// when the resource disappears or the credential is no longer valid for
// orgID (re-checked every credentialRecheck; a database outage keeps the
// stream open). The caller has already found the resource, so another
// organization's resource is 404 before any upgrade.
func (s *Server) streamProgress(c echo.Context, orgID, what string, msg any, final bool,
	refresh func(ctx context.Context) (msg any, final bool, err error)) error {
	if err := checkWebSocketHandshake(c.Request()); err != nil {
		return err
	}
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept has answered (a malformed handshake: 400)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4096)
	// The client sends nothing; CloseRead ends ctx when it goes away.
	ctx := conn.CloseRead(context.WithoutCancel(c.Request().Context()))

	var last []byte // the last message sent, compared by value
	poll := time.NewTicker(progressPoll)
	defer poll.Stop()
	recheck := time.Now().Add(credentialRecheck)
	for {
		if b, _ := json.Marshal(msg); !bytes.Equal(b, last) {
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := conn.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				return nil
			}
			last = b
		}
		if final {
			conn.Close(websocket.StatusNormalClosure, what+" finished")
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		}
		if time.Now().After(recheck) {
			recheck = time.Now().Add(credentialRecheck)
			if a, err := s.authn.Authenticate(c); err != nil || a == nil || a.Organization.ID != orgID {
				if turbinesim.ErrorCode(err) != turbinesim.EUNAVAILABLE {
					conn.Close(websocket.StatusPolicyViolation, "credential no longer valid")
					return nil
				}
			}
		}
		next, nextFinal, err := refresh(ctx)
		switch {
		case err == nil:
			msg, final = next, nextFinal
		case turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND:
			conn.Close(websocket.StatusPolicyViolation, what+" not found")
			return nil
		}
		// Any other error (database briefly away): keep the last state
		// and try again at the next tick.
	}
}

func (s *Server) progressOf(j *turbinesim.Job) JobProgress {
	p := JobProgress{Status: j.Status, SimTime: j.SimTime, TMax: j.TMax, Percent: j.Percent,
		Attempt: j.Attempt, Final: j.Status.Terminal()}
	if j.ETASeconds != nil {
		eta := *j.ETASeconds
		p.ETASeconds = &eta
	}
	if j.Status.Terminal() || j.Status == turbinesim.JobCancelling {
		p.Detail = s.hideInJob(j).Detail
	}
	return p
}

// checkWebSocketHandshake answers, as {"detail"} JSON, what the WebSocket
// library would refuse in plain text: a request that is no upgrade (426)
// and a browser page of another site (403: the Origin's host must be this
// host, RFC 6455 §10.2; non-browser clients send no Origin).
func checkWebSocketHandshake(r *http.Request) error {
	if !headerHasToken(r.Header, "Connection", "upgrade") || !headerHasToken(r.Header, "Upgrade", "websocket") {
		return echo.NewHTTPError(http.StatusUpgradeRequired, "this is a WebSocket endpoint: send Connection: Upgrade and Upgrade: websocket")
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return turbinesim.Errorf(turbinesim.EFORBIDDEN, "WebSocket from another site refused: the Origin must be this site")
		}
	}
	return nil
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}
