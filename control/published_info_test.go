package control_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// TestStatusAndListDoNotWaitOnABusyAgent: with the agent held inside a
// message (as a busy agent is between its steps) the runtime status counts
// it and the list shows it, from what it published; neither asks it.
func TestStatusAndListDoNotWaitOnABusyAgent(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	entered, release := make(chan struct{}), make(chan struct{})
	f.h.SetFault(func(id, point string) {
		if id == "main" && point == "*actors.WakeHintRequest" {
			close(entered)
			<-release
		}
	})
	woke := make(chan error, 1)
	go func() {
		_, err := f.h.Runtime.WakeHint(ctx, "main", "test", "hold the agent", false)
		woke <- err
	}()
	<-entered
	st, serr := f.c.RuntimeStatus(ctx)
	list, lerr := f.c.Agents(ctx)
	close(release)
	if serr != nil || st.Activity.ActiveAgentCount != 1 || st.Activity.State != "idle" {
		t.Errorf("RuntimeStatus while main is held = %+v, %v; want one active agent, idle", st.Activity, serr)
	}
	if lerr != nil || len(list) != 1 || list[0].ID != "main" || list[0].Status != messages.StatusAwakeIdle {
		t.Errorf("Agents while main is held = %+v, %v; want main, idle", list, lerr)
	}
	if err := <-woke; err != nil {
		t.Fatal(err)
	}
}
