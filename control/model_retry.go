package control

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// retryModel is POST /control/agents/{id}/retry (try the waiting model
// round now) and DELETE /control/agents/{id}/retry (give the retry up:
// the turn fails with its last failure). Both answer the agent's info.
func (s *Server) retryModel(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	in, err := s.cfg.Runtime.RetryModel(r.Context(), id, r.Method == http.MethodDelete)
	if errors.Is(err, actors.ErrNoModelRetry) {
		writeError(w, errorf(http.StatusConflict, KindConflict,
			"only a turn waiting to retry a failed model call can be retried or cancelled; its status shows model_retry when one is", "%v", err))
		return
	}
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, in)
}

// RetryModel makes the agent try its waiting model round now, or with
// cancel gives the retry up and fails the turn.
func (c *Client) RetryModel(ctx context.Context, id string, cancel bool) (agentstate.AgentInfo, error) {
	method := http.MethodPost
	if cancel {
		method = http.MethodDelete
	}
	var out agentstate.AgentInfo
	return out, c.do(ctx, method, "/control/agents/"+url.PathEscape(id)+"/retry", nil, &out)
}
