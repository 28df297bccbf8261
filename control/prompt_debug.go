package control

import (
	"context"
	"net/http"
	"net/url"

	"github.com/holon-actors/holon-actors/actors"
)

// PromptDebugRuntime is what the debug prompt route asks of the runtime;
// *actors.Runtime implements it.
type PromptDebugRuntime interface {
	DebugPrompt(ctx context.Context, id string) (actors.PromptDebug, error)
}

var _ PromptDebugRuntime = (*actors.Runtime)(nil)

func (s *Server) debugPrompt(w http.ResponseWriter, r *http.Request) {
	rt, ok := s.cfg.Runtime.(PromptDebugRuntime)
	if !ok {
		writeError(w, errorf(http.StatusNotImplemented, KindUnavailable, "", "this runtime cannot show prompts"))
		return
	}
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	d, err := rt.DebugPrompt(r.Context(), id)
	if err != nil {
		writeError(w, workspaceError(err))
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// DebugPrompt is what agent id's next prompt is made of.
func (c *Client) DebugPrompt(ctx context.Context, id string) (actors.PromptDebug, error) {
	var out actors.PromptDebug
	return out, c.do(ctx, http.MethodGet, "/control/agents/"+url.PathEscape(id)+"/debug/prompt", nil, &out)
}
