package tui

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestConsoleShowsNextTimer: the status line shows the agent's next timer
// fire.
func TestConsoleShowsNextTimer(t *testing.T) {
	f := newFixture(t, testkit.Reply("ok"))
	v, err := f.h.Runtime.CreateTimer(context.Background(), "main", actors.TimerRequest{Message: "Poll.", After: "2h"})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := f.console(t, Options{})
	sc.wait(t, 0, "awake_idle timer "+v.NextDueAt.Local().Format("15:04"))
	sc.final(t)
}
