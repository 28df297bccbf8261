package actors

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// The loop breaker (issue 8). A model that calls the same tool with the
// same arguments (compared as canonical JSON: key order and spacing do not
// matter) and gets the same result (status and receipt) again and again is
// not making progress. The turn counts such calls in a row in its durable
// TurnState, updated as each tool_executed is applied, so the count is
// deterministic and survives a crash mid-turn. A call that differs in tool,
// arguments or result starts the count again at 1. When the count reaches
// AgentDeps.LoopBreakerRepeats, the turn fails before its next model round
// with code loop_breaker_tripped, a failure brief and a loop_breaker
// operator notification.

// DefaultLoopBreakerRepeats is used when AgentDeps.LoopBreakerRepeats is 0.
const DefaultLoopBreakerRepeats = 4

// loopLimit is the number of repeats that trips the breaker; 0 when it is
// disabled.
func (a *agent) loopLimit() int {
	switch n := a.deps.LoopBreakerRepeats; {
	case n < 0:
		return 0
	case n == 0:
		return DefaultLoopBreakerRepeats
	default:
		return n
	}
}

// loopFailure is the failure of a turn whose model is looping; false when
// it may run another model round.
func (a *agent) loopFailure() (messages.Failure, bool) {
	t, limit := a.state.Turn, a.loopLimit()
	if t == nil || limit == 0 || t.Loop.Repeats < limit {
		return messages.Failure{}, false
	}
	summary := fmt.Sprintf("Agent %s stopped this turn: the model called %s with the same arguments %d times in a row "+
		"and got the same result each time, so it was looping instead of making progress. No further model round ran. "+
		"Check the agent's last tool results (holon-actors transcript), then send a prompt that changes its approach.",
		a.id, t.Loop.Tool, t.Loop.Repeats)
	return messages.Failure{Category: messages.FailureRuntime, Code: codeLoopBreaker, Message: summary, Summary: summary}, true
}
