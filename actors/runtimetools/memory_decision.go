package runtimetools

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// MemoryQuery is a search of the agent's memory index: its words, the
// active workspace (agent-scoped records are always searched), or every
// workspace, and at most Limit hits.
type MemoryQuery struct {
	Text          string
	WorkspaceID   string
	AllWorkspaces bool
	Limit         int
}

// MemoryProvenance is where a memory text comes from, in the spec's field
// names; SourceRef is the opaque handle MemoryGet takes.
type MemoryProvenance struct {
	Kind        string            `json:"kind"`
	SourceRef   string            `json:"source_ref"`
	ScopeKind   string            `json:"scope_kind"`
	WorkspaceID string            `json:"workspace_id"`
	AgentID     string            `json:"agent_id"`
	SourcePath  string            `json:"source_path"`
	Title       string            `json:"title"`
	UpdatedAt   time.Time         `json:"updated_at"`
	Metadata    map[string]string `json:"metadata,omitempty"`
}

// MemoryHit is one search hit: provenance, a snippet of the original
// text and its score (higher is better).
type MemoryHit struct {
	MemoryProvenance
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// MemoryGot is an expanded hit: provenance and the exact original text,
// cut at the asked bound (Truncated).
type MemoryGot struct {
	MemoryProvenance
	Content   string `json:"content"`
	Truncated bool   `json:"truncated"`
}

// MemoryError is a memory read's failure as the shell classified it:
// the tool error kind and recovery hint the model gets.
type MemoryError struct {
	Kind, Hint string
	Err        error
}

func (e *MemoryError) Error() string { return e.Err.Error() }
func (e *MemoryError) Unwrap() error { return e.Err }

// Memory error kinds.
const (
	MemoryBadRef      = "invalid_source_ref"
	MemoryNotFound    = "memory_not_found"
	MemoryInvalid     = "invalid_arguments"
	MemoryUnavailable = "memory_unavailable"
)

// MemoryIO is the index read a memory tool's result waits for: a search
// (Query) or the expansion of a source_ref (Ref, MaxChars). The agent
// reads its index off its actor, then FinishSearch or FinishGet builds the
// result; they touch no agent state and may run on any goroutine.
type MemoryIO struct {
	Query        *MemoryQuery
	Ref          string
	MaxChars     int
	FinishSearch func(hits []MemoryHit, err error) tools.Result
	FinishGet    func(got MemoryGot, err error) tools.Result
}

// MemorySearchResult is MemorySearch's result.
type MemorySearchResult struct {
	Query         string      `json:"query"`
	WorkspaceID   string      `json:"workspace_id"`
	AllWorkspaces bool        `json:"all_workspaces,omitempty"`
	Hits          []MemoryHit `json:"hits"`
}

// MemorySearch decides a validated MemorySearch call: a search of the
// active workspace's memory and the agent-scoped memory (or of every
// workspace's), read off the actor.
func MemorySearch(st *agentstate.State, _ agentstate.Env, args MemorySearchArgs) Decision {
	q := MemoryQuery{Text: strings.TrimSpace(args.Query), WorkspaceID: st.ActiveWorkspaceID(),
		AllWorkspaces: args.AllWorkspaces, Limit: args.limit()}
	return Decision{Memory: &MemoryIO{Query: &q, FinishSearch: func(hits []MemoryHit, err error) tools.Result {
		if err != nil {
			return memoryFailure(MemorySearchToolName, err)
		}
		if hits == nil {
			hits = []MemoryHit{}
		}
		res := MemorySearchResult{Query: q.Text, WorkspaceID: q.WorkspaceID, AllWorkspaces: q.AllWorkspaces, Hits: hits}
		summary := fmt.Sprintf("%d memory hit(s) for %q.", len(hits), q.Text)
		return tools.Build(tools.SuccessEnvelope(MemorySearchToolName, summary, res), tools.RenderFunc(func(tools.Envelope) string {
			return RenderHits(summary, hits)
		}))
	}}}
}

// MemoryGet decides a validated MemoryGet call: the exact text of a
// source_ref, read off the actor.
func MemoryGet(_ *agentstate.State, _ agentstate.Env, args MemoryGetArgs) Decision {
	return Decision{Memory: &MemoryIO{Ref: strings.TrimSpace(args.SourceRef), MaxChars: args.maxChars(),
		FinishGet: func(got MemoryGot, err error) tools.Result {
			if err != nil {
				return memoryFailure(MemoryGetToolName, err)
			}
			summary := fmt.Sprintf("%s %s (%d characters%s).", got.Kind, got.Title, len([]rune(got.Content)), truncatedNote(got.Truncated))
			return tools.Build(tools.SuccessEnvelope(MemoryGetToolName, summary, got), tools.RenderFunc(func(tools.Envelope) string {
				return summary + "\n" + provenanceLine(got.MemoryProvenance) + "\n\n" + got.Content
			}))
		}}}
}

func truncatedNote(cut bool) string {
	if cut {
		return ", truncated: ask a larger max_chars for more"
	}
	return ""
}

// memoryFailure is the tool error of a memory read.
func memoryFailure(tool string, err error) tools.Result {
	kind, hint := MemoryUnavailable, "try again; the index is rebuilt from your journal when it is damaged"
	if me := (*MemoryError)(nil); errors.As(err, &me) {
		kind, hint = me.Kind, me.Hint
	}
	return tools.Failure(tool, messages.ToolError, tools.ToolError{Kind: kind, Message: err.Error(), RecoveryHint: hint})
}

// RenderHits is search hits as text, best first: rank, kind, title,
// provenance, snippet and source_ref.
func RenderHits(summary string, hits []MemoryHit) string {
	var b strings.Builder
	b.WriteString(summary)
	for i, h := range hits {
		fmt.Fprintf(&b, "\n\n%d. [%s] %s (score %.3f)\n   %s\n   %s\n   source_ref: %s", i+1, h.Kind, h.Title, h.Score,
			provenanceLine(h.MemoryProvenance), strings.ReplaceAll(h.Snippet, "\n", " "), h.SourceRef)
	}
	return b.String()
}

func provenanceLine(p MemoryProvenance) string {
	where := p.ScopeKind
	if p.WorkspaceID != "" {
		where += " " + p.WorkspaceID
	}
	line := fmt.Sprintf("%s, agent %s, updated %s", where, p.AgentID, p.UpdatedAt.UTC().Format("2006-01-02 15:04:05Z"))
	if p.SourcePath != "" {
		line += ", " + p.SourcePath
	}
	return line
}
