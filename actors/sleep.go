package actors

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
)

// SleepToolName is the runtime-owned tool that ends a turn with the agent
// asleep. The agent runs it itself: it changes the agent's own lifecycle.
const SleepToolName = "Sleep"

// maxSleep bounds a timed sleep; longer rests omit duration_ms and wait for
// any wake signal.
const maxSleep = 7 * 24 * time.Hour

// SleepArgs are the Sleep tool's arguments. DurationMS omitted (or 0, which
// models sometimes send) means rest until another wake signal; a positive
// value asks for a timed wake after it.
type SleepArgs struct {
	DurationMS int64  `json:"duration_ms,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

func sleepSpec() providers.ToolSpec {
	return providers.ToolSpec{
		Name: SleepToolName,
		Description: "End this turn and rest. Omit duration_ms to rest until a new message, timer or event " +
			"wakes you; give duration_ms to be woken after that many milliseconds. Say why in reason.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"duration_ms":{"type":"integer","minimum":1,"maximum":604800000,"description":"Wake me after this many milliseconds. Omit to rest until woken."},` +
			`"reason":{"type":"string","description":"Why you are resting and what should wake you."}},` +
			`"additionalProperties":false}`),
	}
}

// runSleep validates a Sleep call. Its success result carries the args,
// from which apply learns that the turn ends in sleep.
func runSleep(call messages.ToolCall) tools.Result {
	var args SleepArgs
	if err := json.Unmarshal(call.Arguments, &args); err != nil {
		return tools.Failure(SleepToolName, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: "arguments: " + err.Error(),
			RecoveryHint: `send {"duration_ms": 60000, "reason": "..."} or omit duration_ms`,
		})
	}
	if args.DurationMS < 0 || time.Duration(args.DurationMS)*time.Millisecond > maxSleep {
		return tools.Failure(SleepToolName, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: fmt.Sprintf("duration_ms %d is outside 1..%d", args.DurationMS, maxSleep.Milliseconds()),
			RecoveryHint: "omit duration_ms to rest until woken",
		})
	}
	summary := "Resting until woken."
	if args.DurationMS > 0 {
		summary = fmt.Sprintf("Resting; a timer wakes you in %v.", time.Duration(args.DurationMS)*time.Millisecond)
	}
	return tools.Success(SleepToolName, summary, args)
}

// sleepArgsOf reads the args back from a successful Sleep envelope.
func sleepArgsOf(envelope json.RawMessage) *SleepArgs {
	var env struct {
		Result SleepArgs `json:"result"`
	}
	_ = json.Unmarshal(envelope, &env) // our own envelope: a failure leaves a rest-until-woken sleep
	return &env.Result
}

// finishSleep settles a turn whose model asked to sleep (sleptTurn) and
// arms its timer, if timed.
func (a *agent) finishSleep() { a.mustCommit(sleptTurn(a.state, a.env())) }
