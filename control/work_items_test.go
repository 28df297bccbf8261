package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestEnqueueWorkItem: the control plane enqueues a persisted open work
// item without a transcript message; it is listed with its readiness; the
// idle agent is woken to pick it. Empty and oversized objectives are
// refused with 422 and change nothing.
func TestEnqueueWorkItem(t *testing.T) {
	f := newFixture(t, testkit.Reply("I will look at it later."))
	ctx := context.Background()
	v, err := f.c.EnqueueWorkItem(ctx, "main", "  Triage the open issues ")
	if err != nil || v.Objective != "Triage the open issues" || v.State != messages.WorkItemStateOpen || v.Current ||
		!strings.HasPrefix(v.ID, "wi_") {
		t.Fatalf("enqueue = %+v, %v", v, err)
	}
	items, err := f.c.WorkItems(ctx, "main")
	if err != nil || len(items) != 1 || items[0].ID != v.ID || items[0].Readiness != "runnable" {
		t.Fatalf("work items = %+v, %v", items, err)
	}
	for _, body := range []string{`{"objective":"   "}`, `{"objective":"` + strings.Repeat("x", 2001) + `"}`, `{}`} {
		code, out := f.post(t, "/control/agents/main/work-items", body)
		if code != http.StatusUnprocessableEntity || !strings.Contains(out, `"kind":"invalid_input"`) || !strings.Contains(out, `"hint"`) {
			t.Errorf("POST %.40s = %d %s, want 422 invalid_input with a hint", body, code, out)
		}
	}
	if code, _ := f.post(t, "/control/agents/nobody/work-items", `{"objective":"x"}`); code != http.StatusNotFound {
		t.Errorf("unknown agent = %d, want 404", code)
	}
	// The agent is woken by a work-queue tick, not a transcript message.
	ev := f.h.WaitEvent("main", func(ev messages.Event) bool {
		if ev.Type != messages.EventMessageAdmitted {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.MessageAdmitted).Envelope.Kind == messages.KindSystemTick
	})
	p, _ := ev.Decode()
	if env := p.(messages.MessageAdmitted).Envelope; env.SourceRefs["work_item_id"] != v.ID || env.Kind == messages.KindOperatorPrompt {
		t.Fatalf("wake = %+v", env)
	}
	if items, _ = f.c.WorkItems(ctx, "main"); len(items) != 1 {
		t.Fatalf("after the refusals: %d work items, want 1", len(items))
	}
}
