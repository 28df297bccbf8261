package tui

import (
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// nextTimer is the status line's note of the agent's next timer fire,
// "" without one: its due time, local to the console, within a day as a
// clock time, later with the date.
func nextTimer(s *control.AgentSummary, now time.Time) string {
	if len(s.NextTimerFires) == 0 {
		return ""
	}
	due := s.NextTimerFires[0].DueAt.Local()
	layout := "15:04"
	if due.Sub(now) >= 24*time.Hour {
		layout = "Jan 2 15:04"
	}
	return " timer " + due.Format(layout)
}
