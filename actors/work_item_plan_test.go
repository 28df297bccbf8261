package actors_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestPlanIOLeavesTheAgentFree: a work-item tool reads (or seeds) its
// item's plan file outside the agent's Receive. A plan file that is a FIFO
// nobody writes holds the read; the agent answers the operator meanwhile,
// its turn still in flight, and the call finishes once the read does.
func TestPlanIOLeavesTheAgentFree(t *testing.T) {
	ready := make(chan struct{}) // closed once the plan file is a FIFO
	update := reply("", call("c1", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","blocked_by":"waiting for review"}`))
	p := &dynProvider{steps: []dynStep{
		func(req providers.Request) testkit.Step { <-ready; return update(req) },
		reply("Blocked on review."),
	}}
	h := workHarness(t, p, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	view, err := h.Runtime.EnqueueWorkItem(ctx, "main", "Ship the release")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(h.Home, "agents", "main", "work-items", view.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "plan.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	close(ready)

	h.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventToolCallStarted && decode[messages.ToolCallStarted](t, ev).CallID == "c1"
	})
	st, stateErr := h.Runtime.State(ctx, "main") // the read of the FIFO has no writer yet
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)  // lets the read go on
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if stateErr != nil {
		t.Fatalf("the agent did not answer while its plan was read: %v", stateErr)
	}
	if st.Turn == nil {
		t.Fatal("the agent's turn ended before its UpdateWorkItem call did")
	}
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	updated := eventsOf[messages.WorkItemUpdated](t, h, messages.EventWorkItemUpdated)
	if len(updated) != 1 || updated[0].Record.ID != view.ID || updated[0].Record.BlockedBy != "waiting for review" {
		t.Fatalf("updated = %+v, want %s blocked on the review", updated, view.ID)
	}
}

// TestPromptPlanReadLeavesTheAgentFree: the plan preview of a model
// request is read outside the agent's Receive. The current work item's
// plan file becomes a FIFO nobody writes before the third request is
// built; the agent answers the operator meanwhile, and the request goes
// out once the read ends.
func TestPromptPlanReadLeavesTheAgentFree(t *testing.T) {
	var fifo string
	known := make(chan struct{}) // closed once fifo names the plan's path
	pick := reply("", call("c1", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`))
	other := reply("", call("c2", "no_such_tool", `{}`))
	p := &dynProvider{steps: []dynStep{
		pick,
		func(req providers.Request) testkit.Step {
			<-known
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Error(err)
			}
			return other(req)
		},
		reply("Done."),
	}}
	h := workHarness(t, p, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	view, err := h.Runtime.EnqueueWorkItem(ctx, "main", "Ship the release")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(h.Home, "agents", "main", "work-items", view.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo = filepath.Join(dir, "plan.md")
	close(known)

	h.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventToolExecuted && decode[messages.ToolExecuted](t, ev).CallID == "c2"
	})
	stateCtx, stateCancel := context.WithTimeout(ctx, 3*time.Second)
	st, stateErr := h.Runtime.State(stateCtx, "main") // the third request waits on the FIFO
	stateCancel()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // lets the read go on
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(fifo); err != nil { // later prompts find no plan
		t.Fatal(err)
	}
	w.Close()
	if stateErr != nil {
		t.Fatalf("the agent did not answer while its prompt's plan was read: %v", stateErr)
	}
	if st.Turn == nil {
		t.Fatal("the agent's turn ended before its third model step")
	}
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if n := len(p.requests()); n < 3 {
		t.Fatalf("model calls = %d, want 3", n)
	}
}
