package actors

import "github.com/holon-actors/holon-actors/messages"

// Settled reports whether the agent of st has nothing left to do on its
// own: no turn in flight, nothing queued, no timer pending (a timed sleep
// is waited for), no background task still running (its result would
// come back as a message), and its status idle, asleep, stopped or paused.
func Settled(st AgentState) bool {
	if st.Turn != nil || st.Queue.Len() > 0 || len(st.Timers) > 0 {
		return false
	}
	for _, r := range st.Tasks {
		if !r.Terminal() {
			return false
		}
	}
	switch st.Status {
	case messages.StatusAwakeIdle, messages.StatusAsleep, messages.StatusStopped, messages.StatusPaused:
		return true
	}
	return false
}
