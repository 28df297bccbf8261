package tui

import (
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/actors"
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

// timerItems are the /timers overlay's lines: each timer's id, schedule,
// next fire (or paused), fires so far and message.
func timerItems(ts []actors.TimerView, now time.Time) []item {
	items := make([]item, len(ts))
	for i, t := range ts {
		next := "paused"
		if t.NextDueAt != nil {
			next = t.NextDueAt.Local().Format("Jan 2 15:04")
			if t.NextDueAt.Sub(now) < 24*time.Hour {
				next = t.NextDueAt.Local().Format("15:04:05")
			}
		}
		items[i] = item{text: fmt.Sprintf("%-16s %-26s next %-12s fired %-3d %s", t.TimerID, timerSchedule(t), next, t.Fires, oneLine(t.Message, 60))}
	}
	return items
}

// timerSchedule says when a timer fires: its cron and zone, its interval,
// or its one time.
func timerSchedule(t actors.TimerView) string {
	switch {
	case t.Cron != "" && t.Zone != "":
		return t.Cron + " " + t.Zone
	case t.Cron != "":
		return t.Cron
	case t.EveryMS > 0:
		return "every " + (time.Duration(t.EveryMS) * time.Millisecond).String()
	case t.At != nil:
		return "at " + t.At.Local().Format("Jan 2 15:04")
	}
	return "once"
}
