package handlers_test

import (
	"net/http"
	"testing"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/handlers"
)

// GET /org/usage breaks this month's charges down by API key Client ID (the
// Client ID shows in audit logs and billing breakdowns); runs submitted
// interactively have client_id null, and a refunded run (cancelled while
// queued) counts for nobody. The usage answer had only the organization's
// totals.
func TestUsageBreaksDownByClientID(t *testing.T) {
	t.Parallel()
	je := newJobEnvWorkers(t, 0) // no worker: the runs stay queued
	zip := deckZip(t, "10", nil)
	var byKey []turbinesim.Job
	for range 2 {
		resp, body := je.submitZip(zip, "Main_Onshore.fst", je.keyed())
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("submit by key: %d %s", resp.StatusCode, body)
		}
		byKey = append(byKey, decodeInto[turbinesim.Job](t, body))
	}
	bearerHeader := bearer(je.loginJSON().AccessToken)
	resp, body := je.submitZip(zip, "Main_Onshore.fst", bearerHeader)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit by token: %d %s", resp.StatusCode, body)
	}
	interactive := decodeInto[turbinesim.Job](t, body)
	resp, body = je.submitZip(zip, "Main_Onshore.fst", bearerHeader)
	refunded := decodeInto[turbinesim.Job](t, body)
	if resp, body := je.do(nil, request{method: "POST", path: "/jobs/" + refunded.ID + "/cancel", header: bearerHeader}); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %d %s", resp.StatusCode, body)
	}

	resp, body = je.do(nil, request{method: "GET", path: "/org/usage", header: bearerHeader})
	if resp.StatusCode != 200 {
		t.Fatalf("usage: %d %s", resp.StatusCode, body)
	}
	u := decodeInto[handlers.UsageResponse](t, body)
	clientID := byKey[0].ClientID
	if clientID == nil || len(*clientID) != 12 {
		t.Fatalf("jobs submitted by key carry client_id %v", clientID)
	}
	want := map[string]turbinesim.ClientUsage{
		*clientID: {ClientID: clientID, Runs: 2, SpentCents: byKey[0].PriceCents + byKey[1].PriceCents, Tokens: byKey[0].Tokens + byKey[1].Tokens},
		"":        {Runs: 1, SpentCents: interactive.PriceCents, Tokens: interactive.Tokens},
	}
	if len(u.ByClient) != len(want) {
		t.Fatalf("by_client %+v, want %d rows", u.ByClient, len(want))
	}
	var spent, tokens int64
	for _, row := range u.ByClient {
		key := ""
		if row.ClientID != nil {
			key = *row.ClientID
		}
		w, ok := want[key]
		if !ok || row.Runs != w.Runs || row.SpentCents != w.SpentCents || row.Tokens != w.Tokens {
			t.Errorf("by_client row %+v, want %+v", row, w)
		}
		spent, tokens = spent+row.SpentCents, tokens+row.Tokens
	}
	if spent != u.Usage.SpentCents || tokens != u.Usage.Tokens {
		t.Errorf("breakdown sums to %d cents, %d tokens; the month's usage is %d cents, %d tokens", spent, tokens, u.Usage.SpentCents, u.Usage.Tokens)
	}
}
