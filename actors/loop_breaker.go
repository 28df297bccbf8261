package actors

import (
	"bytes"
	"encoding/json"
	"slices"

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

// LoopState counts identical tool calls with identical results in a row
// within a turn.
type LoopState struct {
	// Key identifies the call and its result: tool, canonical arguments,
	// status and receipt.
	Key     string `json:"key,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Repeats int    `json:"repeats,omitempty"`
}

// noteRepeat counts the call p settles: one more if it repeats the last
// call and its result, 1 otherwise.
func (t *TurnState) noteRepeat(p messages.ToolExecuted) {
	var args json.RawMessage
	if i := slices.IndexFunc(t.Calls, func(c messages.ToolCall) bool { return c.ID == p.CallID }); i >= 0 {
		args = t.Calls[i].Arguments
	}
	key := digest(p.ToolName, string(canonicalJSON(args)), string(p.Status), p.Receipt)
	if key == t.Loop.Key {
		t.Loop.Repeats++
		return
	}
	t.Loop = LoopState{Key: key, Tool: p.ToolName, Repeats: 1}
}

// canonicalJSON re-encodes a JSON value with sorted keys and no spacing,
// numbers kept as written; what is not JSON is returned as it is.
func canonicalJSON(b json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}
