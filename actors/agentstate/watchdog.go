package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// ImpossibleWait returns what the last closure waits for when nothing can
// bring it; "" when the wait can end (or the agent is not waiting).
func (s *State) ImpossibleWait() string {
	c := s.LastClosure
	if c == nil || c.Outcome != messages.OutcomeWaiting {
		return ""
	}
	switch c.WaitingReason {
	case messages.AwaitingTaskResult:
		for _, t := range s.Tasks {
			if !t.Terminal() {
				return ""
			}
		}
		return "a background task's result, but none of its tasks is running"
	case messages.AwaitingTimer:
		if hasArmedUserTimer(s) {
			return "" // one of its created timers will fire
		}
		for _, t := range s.Timers {
			if t.SuspensionID == "" {
				return ""
			}
		}
		return "a timer, but none is pending"
	case messages.AwaitingOperatorInput:
		if len(s.openSuspensionIDs()) > 0 {
			return ""
		}
		return "an answer from its operator, but no question is open"
	}
	return ""
}
