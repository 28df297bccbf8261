package actors_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestScrubFindsDamageBehindSnapshot: an agent's snapshot covers its whole
// journal, so a start reads none of its history and serves it from the
// snapshot although a record there is damaged. The scrub reads that
// history over the real store: it quarantines the damaged stream, the live
// agent refuses requests from then on as a start-time quarantine would,
// the operator is told once through the default agent, and the healthy
// agent is left alone and keeps serving.
func TestScrubFindsDamageBehindSnapshot(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three")},
		Deps:  func(_ string, d *actors.AgentDeps) { d.DefaultAgentID = "main" },
	})
	ctx := context.Background()
	for _, id := range []string{"main", "victim"} {
		h.Prompt(id, "hi")
		h.WaitEvent(id, testkit.OfType(messages.EventTurnTerminal))
	}
	if err := h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatalf("PassivateIdle = %v", err)
	}
	h.RestartWith(func(dir string) { flipEventRecord(t, dir, "victim", 2) })

	if _, err := h.Runtime.Info(ctx, "victim"); err != nil {
		t.Fatalf("Info(victim) before the scrub = %v, want served from its snapshot", err)
	}
	if q := h.Store().Health().Quarantined; len(q) != 0 {
		t.Fatalf("quarantined before the scrub = %+v; the start must not have read the damaged history", q)
	}

	found, err := h.Runtime.Scrub(ctx)
	if err != nil || !slices.Equal(found, []string{"victim"}) {
		t.Fatalf("Scrub = %v, %v; want [victim]", found, err)
	}
	if q := h.Store().Health().Quarantined; len(q) != 1 || q[0].Stream != "victim" || q[0].Seq != 2 {
		t.Fatalf("quarantined after the scrub = %+v, want victim at seq 2 only", q)
	}
	for range 2 {
		if _, err := h.Runtime.Info(ctx, "victim"); !errors.Is(err, actors.ErrJournalQuarantined) {
			t.Fatalf("Info(victim) after the scrub = %v, want ErrJournalQuarantined", err)
		}
	}
	if _, err := h.Runtime.Admit(ctx, h.Envelope("victim", "still there?", messages.PriorityNormal)); !errors.Is(err, actors.ErrJournalQuarantined) {
		t.Fatalf("Admit(victim) after the scrub = %v, want ErrJournalQuarantined", err)
	}

	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventOperatorNotificationRequested && strings.Contains(string(ev.Payload), messages.NotifyJournalQuarantined)
	})).Notification
	if n.RequestedByAgentID != "victim" || !strings.Contains(n.Message, "seq 2") {
		t.Errorf("notification = %+v", n)
	}

	h.Prompt("main", "still there?")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if found, err := h.Runtime.Scrub(ctx); err != nil || len(found) != 0 {
		t.Fatalf("second Scrub = %v, %v; want nothing new", found, err)
	}
	if got := testkit.CountOfType(h.Events("main"), messages.EventOperatorNotificationRequested); got != 1 {
		t.Fatalf("%d notifications, want one", got)
	}
}
