package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// memoryIO is the rest of a memory tool's decision (runtimetools.MemoryIO)
// for a step goroutine: the agent's index searched or read. It touches
// nothing of the agent.
func (a *agent) memoryIO(m *runtimetools.MemoryIO) slowDecision {
	svc, id := a.wire.memory, a.id
	return func(ctx context.Context) (tools.Result, []messages.Payload) {
		if q := m.Query; q != nil {
			hits, err := svc.search(ctx, id, memory.Query{Text: q.Text, WorkspaceID: q.WorkspaceID,
				AllWorkspaces: q.AllWorkspaces, Limit: q.Limit})
			return m.FinishSearch(MemoryHits(hits), classifyMemory(err)), nil
		}
		got, err := svc.get(ctx, id, m.Ref, m.MaxChars)
		return m.FinishGet(runtimetools.MemoryGot{MemoryProvenance: provenance(got.Provenance),
			Content: got.Content, Truncated: got.Truncated}, classifyMemory(err)), nil
	}
}

// MemoryHits are memory's hits as the memory tools show them.
func MemoryHits(hs []memory.Hit) []runtimetools.MemoryHit {
	out := make([]runtimetools.MemoryHit, len(hs))
	for i, h := range hs {
		out[i] = runtimetools.MemoryHit{MemoryProvenance: provenance(h.Provenance), Snippet: h.Snippet, Score: h.Score}
	}
	return out
}

func provenance(p memory.Provenance) runtimetools.MemoryProvenance {
	return runtimetools.MemoryProvenance{Kind: string(p.Kind), SourceRef: p.SourceRef, ScopeKind: string(p.ScopeKind),
		WorkspaceID: p.WorkspaceID, AgentID: p.AgentID, SourcePath: p.SourcePath, Title: p.Title,
		UpdatedAt: p.UpdatedAt, Metadata: p.Metadata}
}

// classifyMemory gives a memory read's error the tool error kind and
// hint the model sees.
func classifyMemory(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, memory.ErrBadRef):
		return &runtimetools.MemoryError{Kind: runtimetools.MemoryBadRef, Err: err,
			Hint: "copy a source_ref exactly from one of your own MemorySearch hits"}
	case errors.Is(err, memory.ErrNotFound):
		return &runtimetools.MemoryError{Kind: runtimetools.MemoryNotFound, Err: err, Hint: "search again: the record may have changed"}
	case errors.Is(err, memory.ErrMaxChars), errors.Is(err, memory.ErrLimit), errors.Is(err, memory.ErrEmptyQuery), errors.Is(err, memory.ErrKind):
		return &runtimetools.MemoryError{Kind: runtimetools.MemoryInvalid, Err: err, Hint: "fix the argument the message names"}
	}
	return err
}

// MemoryRequest is an operator's memory search of agent id: the words,
// all workspaces or the agent's active one, and at most Limit hits (0:
// the default).
type MemoryRequest struct {
	Query         string
	AllWorkspaces bool
	Limit         int
}

// MemorySearch searches agent id's memory as its MemorySearch tool does:
// the active workspace's records and the agent-scoped ones, or every
// workspace's. Errors wrap memory's sentinels (ErrEmptyQuery, ErrLimit),
// ErrMemoryUnavailable, or State's.
func (r *Runtime) MemorySearch(ctx context.Context, id string, req MemoryRequest) ([]memory.Hit, error) {
	st, err := r.State(ctx, id)
	if err != nil {
		return nil, err
	}
	hits, err := r.wire.memory.search(ctx, id, memory.Query{Text: req.Query, WorkspaceID: st.ActiveWorkspaceID(),
		AllWorkspaces: req.AllWorkspaces, Limit: req.Limit})
	if err != nil {
		return nil, fmt.Errorf("memory search of %s: %w", id, err)
	}
	return hits, nil
}

// MemoryGet is the exact text of ref in agent id's memory, at most
// maxChars characters (0: the default). Errors wrap memory.ErrBadRef,
// memory.ErrNotFound, memory.ErrMaxChars or ErrMemoryUnavailable.
func (r *Runtime) MemoryGet(ctx context.Context, id, ref string, maxChars int) (memory.Got, error) {
	if ok, err := r.Exists(ctx, id); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: %s", ErrNoAgent, id)
		}
		return memory.Got{}, err
	}
	got, err := r.wire.memory.get(ctx, id, ref, maxChars)
	if err != nil {
		return memory.Got{}, fmt.Errorf("memory get of %s: %w", id, err)
	}
	return got, nil
}
