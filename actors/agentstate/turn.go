package agentstate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
)

func (s *State) applyCommandLaunched(ev messages.Event, p messages.CommandLaunched) error {
	if s.Turn == nil || s.Turn.ID != p.TurnID {
		return nil
	}
	var l execspec.Launch
	if err := json.Unmarshal(p.Record, &l); err != nil {
		return fmt.Errorf("apply seq %d: launch of call %s: %w", ev.Seq, p.CallID, err)
	}
	s.Turn.Launches = append(s.Turn.Launches, LaunchRecord{CallID: p.CallID, Launch: l})
	return nil
}

// dropLaunches forgets the launches of a call whose result is durable.
func (t *TurnState) dropLaunches(callID string) {
	t.Launches = slices.DeleteFunc(t.Launches, func(r LaunchRecord) bool { return r.CallID == callID })
}

// LaunchesOf lists the launches of call callID.
func (t *TurnState) LaunchesOf(callID string) []execspec.Launch {
	var out []execspec.Launch
	for _, r := range t.Launches {
		if r.CallID == callID {
			out = append(out, r.Launch)
		}
	}
	return out
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

// hasCall reports whether c is a call of the turn's last round.
func (t *TurnState) hasCall(c messages.ToolCall) bool {
	return slices.ContainsFunc(t.Calls, func(x messages.ToolCall) bool { return x.ID == c.ID })
}

// NextCall returns the first call of the last round without a durable
// tool_executed, and whether its tool_call_started is durable.
func (t *TurnState) NextCall() (call messages.ToolCall, started, ok bool) {
	for _, c := range t.Calls {
		if !slices.Contains(t.Done, c.ID) {
			return c, slices.Contains(t.Started, c.ID), true
		}
	}
	return messages.ToolCall{}, false, false
}
