package pgtriggers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/control/pgtriggers"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestDeliveryWhenTheDatabaseIsGone: the control API serves deliveries
// from the registry, and when its database stops answering a delivery
// gets 503 "retry later", without the database's error: the caller is not
// authenticated.
func TestDeliveryWhenTheDatabaseIsGone(t *testing.T) {
	ctx := context.Background()
	journal := openJournal(t, pg.NewDatabase(t))
	reg, err := pgtriggers.Open(ctx, journal.Pool())
	if err != nil {
		t.Fatal(err)
	}
	h := testkit.New(t)
	if _, err := h.Runtime.Info(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(control.NewServer(control.Config{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock,
		Log: zerolog.Nop(), Triggers: reg}).Handler())
	defer srv.Close()
	_, token, _, err := reg.Ensure(ctx, "main", now)
	if err != nil {
		t.Fatal(err)
	}
	deliver := func() (int, string) {
		res, err := http.Post(srv.URL+"/triggers/"+token, "application/json", strings.NewReader(`{"reason": "ci done"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := deliver(); status != http.StatusAccepted {
		t.Fatalf("delivery = %d %s", status, body)
	}
	if err := journal.Close(); err != nil {
		t.Fatal(err)
	}
	status, body := deliver()
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "retry later") || strings.Contains(body, "pgtriggers") || strings.Contains(body, "pool") {
		t.Fatalf("delivery with the database gone = %d %s; want 503 saying to retry, without the store's error", status, body)
	}
}
