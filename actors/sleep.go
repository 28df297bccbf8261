package actors

import (
	"time"

	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// finishSleep settles a turn whose model asked to sleep: the terminal
// record with a waiting closure, the result brief, the timer if timed, the
// sleep record and the asleep status, all in one batch. Then it arms the
// timer.
func (a *agent) finishSleep() {
	t, args, now := a.state.Turn, a.state.Turn.Sleep, a.deps.Clock.Now()
	closure := messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingExternalChange}
	slept := messages.AgentSlept{Reason: args.Reason, ExpectedWake: messages.TriggerExternalEvent}
	var timer *timers.Schedule
	if args.DurationMS > 0 {
		due := now.Add(time.Duration(args.DurationMS) * time.Millisecond)
		closure.WaitingReason = messages.AwaitingTimer
		slept.ExpectedWake, slept.Until = messages.TriggerTimerFire, &due
		timer = &timers.Schedule{AgentID: a.id, TimerID: messages.NewID("tmr"), DueAt: due}
	}
	payloads := []messages.Payload{
		messages.TurnTerminal{
			TurnID: t.ID, MessageID: t.MessageID, TurnIndex: t.Index, Kind: messages.TerminalCompleted,
			DurationMS: a.elapsedMS(t.StartedAt), LastAssistantMessage: t.LastText, Closure: closure,
		},
		messages.BriefRecorded{Brief: messages.Brief{
			ID: messages.NewID("brief"), AgentID: a.id, Kind: messages.BriefResult, Text: t.LastText,
			RelatedMessageID: t.MessageID, CreatedAt: now,
		}},
	}
	if timer != nil {
		payloads = append(payloads, messages.TimerScheduled{TimerID: timer.TimerID, DueAt: timer.DueAt, Reason: "sleep: " + args.Reason})
	}
	payloads = append(payloads, slept, a.statusChange(messages.StatusAsleep, "slept: "+args.Reason))
	a.mustPersist(payloads...)
}
