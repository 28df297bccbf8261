package agentstate

import (
	"encoding/json"
)

// SleepToolName is the runtime-owned tool that ends a turn with the agent
// asleep. The agent runs it itself: it changes the agent's own lifecycle.
const SleepToolName = "Sleep"

// SleepArgs are the Sleep tool's arguments. DurationMS omitted (or 0, which
// models sometimes send) means rest until another wake signal; a positive
// value asks for a timed wake after it.
type SleepArgs struct {
	DurationMS int64  `json:"duration_ms,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// sleepArgsOf reads the args back from a successful Sleep envelope.
func sleepArgsOf(envelope json.RawMessage) *SleepArgs {
	var env struct {
		Result SleepArgs `json:"result"`
	}
	_ = json.Unmarshal(envelope, &env) // our own envelope: a failure leaves a rest-until-woken sleep
	return &env.Result
}
