package control

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/memory"
)

// MemoryRuntime is what the memory routes ask of the runtime;
// *actors.Runtime implements it. A Runtime without it answers 503.
type MemoryRuntime interface {
	MemorySearch(ctx context.Context, id string, req actors.MemoryRequest) ([]memory.Hit, error)
	MemoryGet(ctx context.Context, id, ref string, maxChars int) (memory.Got, error)
}

var _ MemoryRuntime = (*actors.Runtime)(nil)

// MemorySearchResult answers GET /agents/{id}/memory/search: the hits,
// best first, each with its provenance and source_ref.
type MemorySearchResult struct {
	AgentID       string       `json:"agent_id"`
	Query         string       `json:"query"`
	AllWorkspaces bool         `json:"all_workspaces"`
	Hits          []memory.Hit `json:"hits"`
}

var (
	memorySearchParams = []Param{
		{Name: "q", In: "query", Type: "string", Description: "The words to search for (required)."},
		{Name: "all_workspaces", In: "query", Type: "boolean",
			Description: "true: every workspace's memory, not only the agent's active workspace's (agent-scoped memory is always searched)."},
		{Name: "limit", In: "query", Type: "integer", Min: ptr(1.0), Max: ptr(100.0), Description: "At most this many hits (default 10)."},
	}
	memoryGetParams = []Param{
		{Name: "ref", In: "query", Type: "string", Description: "A source_ref from a search hit of this agent (required)."},
		{Name: "max_chars", In: "query", Type: "integer", Min: ptr(1.0), Max: ptr(50000.0),
			Description: "At most this many characters of the text (default 12000)."},
	}
)

func (s *Server) memoryRuntime(w http.ResponseWriter) (MemoryRuntime, bool) {
	m, ok := s.cfg.Runtime.(MemoryRuntime)
	if !ok {
		writeError(w, errorf(http.StatusServiceUnavailable, KindUnavailable, "this runtime keeps no memory index", "memory search is not available"))
	}
	return m, ok
}

func (s *Server) agentMemorySearch(w http.ResponseWriter, r *http.Request, id string) {
	q := r.URL.Query()
	req := actors.MemoryRequest{Query: q.Get("q"), AllWorkspaces: q.Get("all_workspaces") == "true"}
	if strings.TrimSpace(req.Query) == "" {
		writeError(w, errorf(http.StatusBadRequest, KindInvalid, "give the words to search for: ?q=...", "q is required"))
		return
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > memory.MaxLimit {
			writeError(w, errorf(http.StatusBadRequest, KindInvalid, "give limit between 1 and 100", "limit %q is not a number between 1 and 100", v))
			return
		}
		req.Limit = n
	}
	m, ok := s.memoryRuntime(w)
	if !ok {
		return
	}
	hits, err := m.MemorySearch(r.Context(), id, req)
	if err != nil {
		writeError(w, memoryError(err))
		return
	}
	if hits == nil {
		hits = []memory.Hit{}
	}
	writeJSON(w, http.StatusOK, MemorySearchResult{AgentID: id, Query: req.Query, AllWorkspaces: req.AllWorkspaces, Hits: hits})
}

func (s *Server) agentMemoryGet(w http.ResponseWriter, r *http.Request, id string) {
	q := r.URL.Query()
	ref, maxChars := q.Get("ref"), 0
	if ref == "" {
		writeError(w, errorf(http.StatusBadRequest, KindInvalid, "copy a source_ref from holon-actors memory search", "ref is required"))
		return
	}
	if v := q.Get("max_chars"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > memory.HardMaxChars {
			writeError(w, errorf(http.StatusBadRequest, KindInvalid, "give max_chars between 1 and 50000", "max_chars %q is not a number between 1 and 50000", v))
			return
		}
		maxChars = n
	}
	m, ok := s.memoryRuntime(w)
	if !ok {
		return
	}
	got, err := m.MemoryGet(r.Context(), id, ref, maxChars)
	if err != nil {
		writeError(w, memoryError(err))
		return
	}
	writeJSON(w, http.StatusOK, got)
}

// memoryError maps the memory sentinels, then the runtime's.
func memoryError(err error) *Error {
	switch {
	case errors.Is(err, memory.ErrBadRef):
		return errorf(http.StatusBadRequest, KindInvalid, "copy a source_ref from this agent's memory search", "%v", err)
	case errors.Is(err, memory.ErrNotFound):
		return errorf(http.StatusNotFound, KindNotFound, "search again: the record changed", "%v", err)
	case errors.Is(err, memory.ErrEmptyQuery), errors.Is(err, memory.ErrLimit), errors.Is(err, memory.ErrMaxChars), errors.Is(err, memory.ErrKind):
		return errorf(http.StatusBadRequest, KindInvalid, "fix the named parameter and send again", "%v", err)
	case errors.Is(err, actors.ErrMemoryUnavailable):
		return errorf(http.StatusServiceUnavailable, KindUnavailable, "start the runtime with a HOLON_HOME", "%v", err)
	}
	return runtimeError(err)
}
