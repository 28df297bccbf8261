package control_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestLastEvents: ?last=N serves the newest N events, oldest first, with
// the cursor to follow from; more than the journal holds serves it all.
func TestLastEvents(t *testing.T) {
	f := newFixture(t, testkit.Reply("done"))
	f.h.Prompt("main", "hello")
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	seen := false
	f.h.WaitEvent("main", func(ev messages.Event) bool { // idle after the brief: the journal stays still
		p, _ := ev.Decode()
		sc, ok := p.(messages.AgentStateChanged)
		seen = seen || ev.Type == messages.EventBriefRecorded
		return seen && ok && sc.To == messages.StatusAwakeIdle
	})
	ctx := context.Background()

	page, err := f.c.LastEvents(ctx, "main", 2)
	if err != nil {
		t.Fatal(err)
	}
	all := f.h.Events("main")
	high := all[len(all)-1].Seq
	if len(page.Events) != 2 || page.Events[0].Provenance.EventSeq != high-1 || page.Events[1].Provenance.EventSeq != high {
		t.Fatalf("last=2 served %d events (%+v), want seqs %d and %d", len(page.Events), page.Events, high-1, high)
	}
	if page.NextAfter != high || page.HighestSeq != high {
		t.Errorf("last=2: next_after %d, highest_seq %d; want both %d", page.NextAfter, page.HighestSeq, high)
	}

	page, err = f.c.LastEvents(ctx, "main", control.MaxPageLimit)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != len(all) || page.Events[0].Provenance.EventSeq != all[0].Seq {
		t.Errorf("last=%d served %d events from %d, want the whole journal (%d)", control.MaxPageLimit, len(page.Events),
			page.Events[0].Provenance.EventSeq, len(all))
	}
}

// TestLastEventsRefusesBadCounts: a count that is not 1 to MaxPageLimit
// is a 400 saying what is valid.
func TestLastEventsRefusesBadCounts(t *testing.T) {
	f := newFixture(t)
	for _, raw := range []string{"0", "-1", "abc", "1001"} {
		t.Run(raw, func(t *testing.T) {
			resp, body := f.raw(t, "GET", "/agents/main/events?last="+raw, "")
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("last=%q: HTTP %d %s, want 400", raw, resp.StatusCode, body)
			}
		})
	}
	_, err := f.c.LastEvents(context.Background(), "main", 0)
	apiError(t, err, http.StatusBadRequest, control.KindBadRequest)
}
