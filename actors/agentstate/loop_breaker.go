package agentstate

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// LoopState counts identical tool calls with identical results in a row
// within a turn.
type LoopState struct {
	// Key identifies the call and its result: tool, canonical arguments,
	// status and receipt.
	Key     string `json:"key,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Repeats int    `json:"repeats,omitempty"`
}

// NoteRepeat counts the call p settles: one more if it repeats the last
// call and its result, 1 otherwise.
func (t *TurnState) NoteRepeat(p messages.ToolExecuted) {
	var args json.RawMessage
	if i := slices.IndexFunc(t.Calls, func(c messages.ToolCall) bool { return c.ID == p.CallID }); i >= 0 {
		args = t.Calls[i].Arguments
	}
	key := Digest(p.ToolName, string(canonicalJSON(args)), string(p.Status), p.Receipt)
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
