package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
)

// BatchProgressMessage is one message of the WebSocket /ws/batches/{id}:
// the batch's progress, sent on every change; Final is true on the last
// one (every run finished), after which the server closes with 1000.
type BatchProgressMessage struct {
	turbinesim.BatchProgress
	Final bool `json:"final"`
}

// batchSocket: GET /ws/batches/{id}, the batch's live progress. The
// handshake, credentials, polling and credential re-check are those of
// /ws/jobs/{id} (handlers/ws.go).
func (s *Server) batchSocket(c echo.Context) error {
	bs, err := s.batchService()
	if err != nil {
		return err
	}
	orgID := authFrom(c).Organization.ID
	b, err := bs.FindBatch(c.Request().Context(), orgID, c.Param("id"))
	if err != nil {
		return err
	}
	conn, err := websocket.Accept(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // Accept has answered (403 for a foreign Origin, 426, …)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4096)
	ctx := conn.CloseRead(context.WithoutCancel(c.Request().Context()))

	var last []byte
	poll := time.NewTicker(progressPoll)
	defer poll.Stop()
	recheck := time.Now().Add(credentialRecheck)
	for {
		msg := BatchProgressMessage{BatchProgress: b.Progress, Final: b.Progress.Finished()}
		if raw, _ := json.Marshal(msg); !bytes.Equal(raw, last) {
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := conn.Write(wctx, websocket.MessageText, raw)
			cancel()
			if err != nil {
				return nil
			}
			last = raw
		}
		if msg.Final {
			conn.Close(websocket.StatusNormalClosure, "batch finished")
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
		next, err := bs.FindBatch(ctx, orgID, b.ID)
		switch {
		case err == nil:
			b = next
		case turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND:
			conn.Close(websocket.StatusPolicyViolation, "batch not found")
			return nil
		}
	}
}
