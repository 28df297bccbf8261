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

// TestPublishedInfosAtOnce: the runtime status reads every running agent's
// published info at once. The agents whose info is at their journal's
// highest seq come back as they published it; one whose journal moved
// behind its back (its info no longer current) is named as behind, for
// the caller to ask; a dormant agent is in neither.
func TestPublishedInfosAtOnce(t *testing.T) {
	h := testkit.New(t, testkit.Reply("a"), testkit.Reply("b"), testkit.Reply("c"))
	ctx := context.Background()
	ids := []string{"agent-a", "agent-b", "agent-c"}
	for _, id := range ids {
		h.Prompt(id, "hello")
		h.WaitEvent(id, testkit.NthOfType(messages.EventAgentStateChanged, 3))
		if _, err := h.Runtime.State(ctx, id); err != nil { // behind the settling step
			t.Fatal(err)
		}
	}
	if err := h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[1:] { // agent-a stays dormant
		if err := h.Runtime.Activate(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Runtime.State(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	moved := ids[2]
	note := messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: messages.StatusAwakeIdle, Reason: "test"}
	ev, err := messages.NewEvent(moved, h.Clock.Now(), note)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Store().Append(ctx, moved, []messages.Event{ev}); err != nil {
		t.Fatal(err)
	}

	infos, behind := h.Runtime.PublishedInfos(ctx)
	if len(infos) != 1 || infos[0].ID != ids[1] || !infos[0].Active {
		t.Errorf("PublishedInfos() infos = %+v, want %s's alone, active", infos, ids[1])
	}
	if len(behind) != 1 || behind[0] != moved {
		t.Errorf("PublishedInfos() behind = %v, want [%s]", behind, moved)
	}
	for _, in := range infos {
		high, err := h.Store().HighestSeq(ctx, in.ID)
		if err != nil || in.LastSeq != high {
			t.Errorf("%s: published info at seq %d, journal's highest %d (%v); want equal", in.ID, in.LastSeq, high, err)
		}
	}
}
