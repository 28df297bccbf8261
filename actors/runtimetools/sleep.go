package runtimetools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// maxSleep bounds a timed sleep; longer rests omit duration_ms and wait for
// any wake signal.
const maxSleep = 7 * 24 * time.Hour

// sleepTool is Sleep: it validates the call and echoes the arguments,
// from which Apply learns that the turn ends in sleep.
type sleepTool struct{}

// Spec is Sleep's hand-written schema.
func (sleepTool) Spec() tools.Spec {
	return tools.Spec{
		Name: agentstate.SleepToolName,
		Description: "End this turn and rest. Omit duration_ms to rest until a new message, timer or event " +
			"wakes you; give duration_ms to be woken after that many milliseconds. Say why in reason.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"duration_ms":{"type":"integer","minimum":1,"maximum":604800000,"description":"Wake me after this many milliseconds. Omit to rest until woken."},` +
			`"reason":{"type":"string","description":"Why you are resting and what should wake you."}},` +
			`"additionalProperties":false}`),
	}
}

// Call validates a Sleep call. Its success result carries the args.
func (sleepTool) Call(_ context.Context, raw json.RawMessage) tools.Result {
	var args SleepArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return tools.Failure(agentstate.SleepToolName, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: "arguments: " + err.Error(),
			RecoveryHint: `send {"duration_ms": 60000, "reason": "..."} or omit duration_ms`,
		})
	}
	if args.DurationMS < 0 || time.Duration(args.DurationMS)*time.Millisecond > maxSleep {
		return tools.Failure(agentstate.SleepToolName, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: fmt.Sprintf("duration_ms %d is outside 1..%d", args.DurationMS, maxSleep.Milliseconds()),
			RecoveryHint: "omit duration_ms to rest until woken",
		})
	}
	summary := "Resting until woken."
	if args.DurationMS > 0 {
		summary = fmt.Sprintf("Resting; a timer wakes you in %v.", time.Duration(args.DurationMS)*time.Millisecond)
	}
	return tools.Success(agentstate.SleepToolName, summary, args)
}

// SleepArgs are the Sleep tool's arguments. DurationMS omitted (or 0, which
// models sometimes send) means rest until another wake signal; a positive
// value asks for a timed wake after it.
type SleepArgs struct {
	DurationMS int64  `json:"duration_ms,omitempty"`
	Reason     string `json:"reason,omitempty"`
}
