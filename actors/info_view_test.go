package actors_test

import (
	"context"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestListDoesNotWaitOnABusyAgent: an agent held inside a message (as a
// busy agent is, between its steps) is listed from the info it published,
// at once; nothing asks it.
func TestListDoesNotWaitOnABusyAgent(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"))
	ctx := context.Background()
	h.Prompt("busy", "hello")
	h.WaitEvent("busy", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	if _, err := h.Runtime.State(ctx, "busy"); err != nil { // behind the settling step
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	h.SetFault(func(id, point string) {
		if id == "busy" && point == "*actors.WakeHintRequest" {
			close(entered)
			<-release
		}
	})
	woke := make(chan error, 1)
	go func() {
		_, err := h.Runtime.WakeHint(ctx, "busy", "test", "hold the agent", false)
		woke <- err
	}()
	<-entered
	quick, cancel := context.WithTimeout(ctx, time.Second)
	list, err := h.Runtime.List(quick)
	cancel()
	in, published := h.Runtime.PublishedInfo(ctx, "busy")
	close(release)
	if err != nil || len(list) != 1 || list[0].ID != "busy" || !list[0].Active || list[0].Status != messages.StatusAwakeIdle {
		t.Fatalf("List() while the agent is held = %+v, %v; want busy, active and idle, at once", list, err)
	}
	if !published || in.LastSeq != list[0].LastSeq {
		t.Fatalf("PublishedInfo(busy) = %+v, %t; want the listed info", in, published)
	}
	if err := <-woke; err != nil {
		t.Fatal(err)
	}
}
