package handlers

import (
	"context"

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
	refresh := func(ctx context.Context) (any, bool, error) {
		next, err := bs.FindBatch(ctx, orgID, b.ID)
		if err != nil {
			return nil, false, err
		}
		m := batchProgressOf(next)
		return m, m.Final, nil
	}
	first := batchProgressOf(b)
	return s.streamProgress(c, orgID, "batch", first, first.Final, refresh)
}

func batchProgressOf(b *turbinesim.Batch) BatchProgressMessage {
	return BatchProgressMessage{BatchProgress: b.Progress, Final: b.Progress.Finished()}
}
