package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

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

// TestTimersOverlay: /timers lists the agent's timers with their schedule,
// next fire and message, a paused one marked paused.
func TestTimersOverlay(t *testing.T) {
	f := newFixture(t, testkit.Reply("ok"))
	ctx := context.Background()
	daily, err := f.h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Send the daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	poll, err := f.h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Poll the queue.", Every: "30m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Runtime.ChangeTimer(ctx, "main", actors.TimerPause, poll.TimerID); err != nil {
		t.Fatal(err)
	}
	m := loadedModel(t, f.c, nil)
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	m.composer.SetValue("/timers")
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m.overlay == nil || m.overlay.kind != overlayTimers {
		t.Fatalf("/timers opened %+v (notice %q)", m.overlay, m.notice)
	}
	m.Update(cmd())
	v := m.View()
	for _, want := range []string{"Timers of main", daily.TimerID, "0 9 * * * Europe/Paris", "Send the daily report.",
		poll.TimerID, "every 30m0s", "next paused", "Poll the queue."} {
		if !strings.Contains(v, want) {
			t.Errorf("the overlay lacks %q:\n%s", want, v)
		}
	}
}
