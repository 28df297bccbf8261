package runtimetools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// TestMemoryArgs: MemorySearch and MemoryGet refuse what the index would
// not take, naming the field and its range, before any index is read.
func TestMemoryArgs(t *testing.T) {
	calls := map[string]func(json.RawMessage) (messages.ToolStatus, string){}
	for _, tool := range memoryToolset {
		calls[tool.Spec().Name] = func(args json.RawMessage) (messages.ToolStatus, string) {
			res := tool.Call(context.Background(), args)
			return res.Status, string(res.Envelope)
		}
	}
	for _, c := range []struct {
		tool, args string
		want       string // "" for accepted, else a part of the error
	}{
		{MemorySearchToolName, `{"query": "refund 退款"}`, ""},
		{MemorySearchToolName, `{"query": "x", "limit": 50, "all_workspaces": true}`, ""},
		{MemorySearchToolName, `{"query": "  "}`, `"field":"query","parse_error":"is empty"`},
		{MemorySearchToolName, `{"query": "x", "limit": 0}`, "0 is outside 1..50"},
		{MemorySearchToolName, `{"query": "x", "limit": 51}`, "51 is outside 1..50"},
		{MemorySearchToolName, `{"query": "` + strings.Repeat("x", 1001) + `"}`, "longer than 1000"},
		{MemoryGetToolName, `{"source_ref": "mref_1"}`, ""},
		{MemoryGetToolName, `{"source_ref": "mref_1", "max_chars": 50000}`, ""},
		{MemoryGetToolName, `{"source_ref": "mref_1", "max_chars": 0}`, "0 is outside 1..50000"},
		{MemoryGetToolName, `{"source_ref": "mref_1", "max_chars": 50001}`, "50001 is outside 1..50000"},
		{MemoryGetToolName, `{"source_ref": ""}`, `"field":"source_ref","parse_error":"is empty"`},
	} {
		status, env := calls[c.tool](json.RawMessage(c.args))
		if ok := status == messages.ToolOK; ok != (c.want == "") || !strings.Contains(env, c.want) {
			t.Errorf("%s %.60s: %s %s, want %q", c.tool, c.args, status, env, c.want)
		}
	}
}

// TestMemoryDecisions: a search is scoped to the agent's active workspace
// (or all of them) with the default limit, its hits are rendered with
// provenance and source_ref; MemoryGet asks the default bound; a forged
// ref and other failures come back as tool errors with the shell's kind.
func TestMemoryDecisions(t *testing.T) {
	st := &agentstate.State{ActiveWorkspace: &messages.WorkspaceUsed{WorkspaceID: "shop-1"}}
	d := Decisions[MemorySearchToolName](st, agentstate.Env{}, messages.ToolCall{Name: MemorySearchToolName,
		Arguments: json.RawMessage(`{"query": " refund "}`)})
	if q := d.Memory.Query; q == nil || *q != (MemoryQuery{Text: "refund", WorkspaceID: "shop-1", Limit: DefaultMemoryLimit}) {
		t.Fatalf("query = %+v, want refund in shop-1 with the default limit", q)
	}
	all := MemorySearch(&agentstate.State{}, agentstate.Env{}, MemorySearchArgs{Query: "x", AllWorkspaces: true})
	if q := all.Memory.Query; q.WorkspaceID != messages.AgentHomeWorkspace || !q.AllWorkspaces {
		t.Errorf("query from home = %+v, want agent_home, all workspaces", q)
	}
	hit := MemoryHit{MemoryProvenance: MemoryProvenance{Kind: "brief", SourceRef: "mref_abc", ScopeKind: "workspace",
		WorkspaceID: "shop-1", AgentID: "main", Title: "result brief", UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		Snippet: "refunded order #12345", Score: 1.5}
	res := d.Memory.FinishSearch([]MemoryHit{hit}, nil)
	for _, want := range []string{"1 memory hit(s)", "[brief] result brief", "workspace shop-1, agent main", "refunded order #12345", "source_ref: mref_abc"} {
		if res.Status != messages.ToolOK || !strings.Contains(res.Receipt, want) {
			t.Errorf("receipt %q lacks %q", res.Receipt, want)
		}
	}
	g := MemoryGet(st, agentstate.Env{}, MemoryGetArgs{SourceRef: "mref_abc"})
	if g.Memory.Ref != "mref_abc" || g.Memory.MaxChars != DefaultMemoryChars || g.Memory.Query != nil {
		t.Errorf("get = %+v, want the ref with the default bound", g.Memory)
	}
	forged := g.Memory.FinishGet(MemoryGot{}, &MemoryError{Kind: MemoryBadRef, Hint: "copy it", Err: errors.New("not valid for this agent")})
	if forged.Status != messages.ToolError || !strings.Contains(string(forged.Envelope), `"kind":"invalid_source_ref"`) ||
		!strings.Contains(forged.Receipt, "not valid for this agent") {
		t.Errorf("forged ref = %s %s, want an invalid_source_ref tool error", forged.Status, forged.Envelope)
	}
	broken := d.Memory.FinishSearch(nil, errors.New("disk on fire"))
	if !strings.Contains(string(broken.Envelope), `"kind":"memory_unavailable"`) {
		t.Errorf("broken index = %s, want memory_unavailable", broken.Envelope)
	}
	got := g.Memory.FinishGet(MemoryGot{MemoryProvenance: hit.MemoryProvenance, Content: "the whole text", Truncated: true}, nil)
	if !strings.Contains(got.Receipt, "the whole text") || !strings.Contains(got.Receipt, "truncated") {
		t.Errorf("get receipt = %q", got.Receipt)
	}
}
