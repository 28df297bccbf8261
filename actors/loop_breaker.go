package actors

import "github.com/holon-actors/holon-actors/actors/agentstate"

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
const DefaultLoopBreakerRepeats = agentstate.DefaultLoopBreakerRepeats
