package actors

import (
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

func TestNoteRepeat(t *testing.T) {
	call := func(id, args string) messages.ToolCall {
		return messages.ToolCall{ID: id, Name: "fetch", Arguments: json.RawMessage(args)}
	}
	done := func(id string, status messages.ToolStatus, receipt string) messages.ToolExecuted {
		return messages.ToolExecuted{CallID: id, ToolName: "fetch", Status: status, Receipt: receipt}
	}
	steps := []struct {
		name string
		call messages.ToolCall
		res  messages.ToolExecuted
		want int
	}{
		{"first", call("1", `{"a":1,"b":[1,2]}`), done("1", messages.ToolOK, "r"), 1},
		{"same, keys reordered", call("2", `{"b":[1,2],"a":1}`), done("2", messages.ToolOK, "r"), 2},
		{"same, spaced", call("3", `{ "a": 1, "b": [1, 2] }`), done("3", messages.ToolOK, "r"), 3},
		{"other receipt", call("4", `{"a":1,"b":[1,2]}`), done("4", messages.ToolOK, "r2"), 1},
		{"same again", call("5", `{"a":1,"b":[1,2]}`), done("5", messages.ToolOK, "r2"), 2},
		{"other status", call("6", `{"a":1,"b":[1,2]}`), done("6", messages.ToolError, "r2"), 1},
		{"other number spelling", call("7", `{"a":1.0,"b":[1,2]}`), done("7", messages.ToolError, "r2"), 1},
		{"other arguments", call("8", `{"a":2,"b":[1,2]}`), done("8", messages.ToolError, "r2"), 1},
	}
	turn := &agentstate.TurnState{}
	for _, s := range steps {
		turn.Calls = []messages.ToolCall{s.call}
		turn.NoteRepeat(s.res)
		if turn.Loop.Repeats != s.want || turn.Loop.Tool != "fetch" {
			t.Fatalf("%s: repeats = %d, want %d", s.name, turn.Loop.Repeats, s.want)
		}
	}
}
