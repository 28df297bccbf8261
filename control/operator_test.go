package control_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

func newOperator(t *testing.T, steps ...testkit.Step) (control.Operator, *testkit.Harness) {
	t.Helper()
	h := testkit.New(t, steps...)
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil {
		t.Fatal(err)
	}
	return control.Operator{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock,
		Surface: messages.SurfaceRemoteControlPrompt}, h
}

func TestOperatorPromptIsAnOperatorInstructionOfItsSurface(t *testing.T) {
	op, h := newOperator(t, testkit.Reply("ok"))
	ctx := context.Background()
	alice := control.Caller{Name: "remote:alice"}
	res, err := op.Prompt(ctx, alice, control.OperatorPrompt{AgentID: "main", MessageID: "m-1", Text: "hi", Priority: "next"})
	if err != nil || res.EventSeq == 0 || res.Duplicate || res.MessageID != "m-1" {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	again, err := op.Prompt(ctx, alice, control.OperatorPrompt{AgentID: "main", MessageID: "m-1", Text: "hi"})
	if err != nil || !again.Duplicate || again.EventSeq != res.EventSeq {
		t.Fatalf("Prompt again = %+v, %v; want the first admission, duplicate", again, err)
	}
	ev := h.WaitEvent("main", testkit.OfType(messages.EventMessageAdmitted))
	p, err := ev.Decode()
	if err != nil {
		t.Fatal(err)
	}
	env := p.(messages.MessageAdmitted).Envelope
	if env.DeliverySurface != messages.SurfaceRemoteControlPrompt || env.AuthorityClass != messages.AuthorityOperatorInstruction ||
		env.Origin.Kind != messages.OriginOperator || env.Origin.ActorID != "operator:remote:alice" || env.Priority != messages.PriorityNext {
		t.Errorf("admitted envelope = surface %s, authority %s, origin %+v, priority %s", env.DeliverySurface,
			env.AuthorityClass, env.Origin, env.Priority)
	}
}

func TestOperatorRefusalsChangeNothing(t *testing.T) {
	op, h := newOperator(t)
	ctx := context.Background()
	before := len(h.Events("main"))
	alice := control.Caller{Name: "remote:alice"}
	tests := []struct {
		name   string
		call   func() error
		status int
		kind   string
	}{
		{"bad priority", func() error {
			_, err := op.Prompt(ctx, alice, control.OperatorPrompt{AgentID: "main", Text: "hi", Priority: "urgent"})
			return err
		}, http.StatusUnprocessableEntity, control.KindInvalid},
		{"empty text", func() error {
			_, err := op.Prompt(ctx, alice, control.OperatorPrompt{AgentID: "main", Text: "  "})
			return err
		}, http.StatusUnprocessableEntity, control.KindInvalid},
		{"unknown agent", func() error {
			_, err := op.Prompt(ctx, alice, control.OperatorPrompt{AgentID: "ghost", Text: "hi"})
			return err
		}, http.StatusNotFound, control.KindNotFound},
		{"bad agent id", func() error { _, err := op.Status(ctx, "../x"); return err }, http.StatusBadRequest, control.KindBadRequest},
		{"unknown op", func() error {
			_, err := op.Lifecycle(ctx, "main", "explode", control.LifecycleRequest{})
			return err
		}, http.StatusBadRequest, control.KindBadRequest},
		{"answer not JSON", func() error {
			_, err := op.Respond(ctx, alice, "main", "s-1", []byte("yes"), nil)
			return err
		}, http.StatusBadRequest, control.KindBadRequest},
		{"no such suspension", func() error {
			_, err := op.Respond(ctx, alice, "main", "s-1", []byte(`"yes"`), nil)
			return err
		}, http.StatusNotFound, control.KindNotFound},
		{"empty objective", func() error { _, err := op.AddWorkItem(ctx, "main", " "); return err }, http.StatusUnprocessableEntity, control.KindInvalid},
		{"page too big", func() error { _, err := op.Events(ctx, "main", 0, 5000, 0); return err }, http.StatusBadRequest, control.KindBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			apiError(t, tc.call(), tc.status, tc.kind)
		})
	}
	if after := len(h.Events("main")); after != before {
		t.Errorf("the refusals journaled %d events", after-before)
	}
}

func TestOperatorEventsPageAndLongPoll(t *testing.T) {
	op, _ := newOperator(t, testkit.Reply("ok"))
	ctx := context.Background()
	page, err := op.Events(ctx, "main", 0, 0, 0)
	if err != nil || len(page.Events) == 0 || page.NextAfter != page.HighestSeq {
		t.Fatalf("Events = %+v, %v", page, err)
	}
	for _, ev := range page.Events {
		if !ev.Provenance.Replayed || ev.Presentation.SourceEventKind == "" {
			t.Errorf("history event %d: replayed %v, presentation %+v", ev.Provenance.EventSeq, ev.Provenance.Replayed, ev.Presentation)
		}
	}
	// Nothing after the end: a long poll waits for the next event.
	type result struct {
		page control.EventsPage
		err  error
	}
	got := make(chan result, 1)
	go func() {
		p, err := op.Events(ctx, "main", page.HighestSeq, 1, time.Minute)
		got <- result{p, err}
	}()
	if _, err := op.Prompt(ctx, control.Caller{Name: "remote:alice"}, control.OperatorPrompt{AgentID: "main", Text: "wake up"}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || len(r.page.Events) != 1 || r.page.Events[0].Provenance.EventSeq != page.HighestSeq+1 {
		t.Fatalf("long poll = %+v, %v; want the next event", r.page, r.err)
	}
}

func TestOperatorLifecycleAndWorkItem(t *testing.T) {
	op, _ := newOperator(t)
	ctx := context.Background()
	res, err := op.Lifecycle(ctx, "main", "pause", control.LifecycleRequest{})
	if err != nil || res.Status != messages.StatusPaused {
		t.Fatalf("pause = %+v, %v", res, err)
	}
	v, err := op.AddWorkItem(ctx, "main", "Tidy the notes")
	if err != nil || v.ID == "" {
		t.Fatalf("AddWorkItem = %+v, %v", v, err)
	}
	list, err := op.List(ctx)
	if err != nil || len(list) != 1 || list[0].ID != "main" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	sus, err := op.Suspensions(ctx, "", true)
	if err != nil || sus.Suspensions == nil {
		t.Fatalf("Suspensions = %+v, %v", sus, err)
	}
}
