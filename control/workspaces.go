package control

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// WorkspaceRuntime is what the workspace routes ask of the runtime;
// *actors.Runtime implements it. A Runtime without it answers them 501.
type WorkspaceRuntime interface {
	Workspaces(ctx context.Context, id string) (agentstate.WorkspaceView, error)
	UseWorkspace(ctx context.Context, id string, req actors.WorkspaceRequest) (agentstate.WorkspaceView, error)
	DetachWorkspace(ctx context.Context, id, workspaceID string) (agentstate.WorkspaceView, error)
}

var _ WorkspaceRuntime = (*actors.Runtime)(nil)

// DetachWorkspaceRequest is the body of POST
// /control/agents/{id}/workspaces/detach.
type DetachWorkspaceRequest struct {
	WorkspaceID string `json:"workspace_id"`
}

func (s *Server) workspaceRuntime(w http.ResponseWriter) (WorkspaceRuntime, bool) {
	ws, ok := s.cfg.Runtime.(WorkspaceRuntime)
	if !ok {
		writeError(w, errorf(http.StatusNotImplemented, KindUnavailable, "", "this runtime has no workspaces"))
	}
	return ws, ok
}

func (s *Server) agentWorkspaces(w http.ResponseWriter, r *http.Request) {
	s.answerWorkspaces(w, r, func(ws WorkspaceRuntime, id string) (agentstate.WorkspaceView, error) {
		return ws.Workspaces(r.Context(), id)
	})
}

func (s *Server) useWorkspace(w http.ResponseWriter, r *http.Request) {
	var req actors.WorkspaceRequest
	if e := decodeBody(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	s.answerWorkspaces(w, r, func(ws WorkspaceRuntime, id string) (agentstate.WorkspaceView, error) {
		return ws.UseWorkspace(r.Context(), id, req)
	})
}

func (s *Server) detachWorkspace(w http.ResponseWriter, r *http.Request) {
	var req DetachWorkspaceRequest
	if e := decodeBody(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	if req.WorkspaceID == "" {
		writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid, `send {"workspace_id": "ID"} (agents workspace list shows the ids)`, "workspace_id is empty"))
		return
	}
	s.answerWorkspaces(w, r, func(ws WorkspaceRuntime, id string) (agentstate.WorkspaceView, error) {
		return ws.DetachWorkspace(r.Context(), id, req.WorkspaceID)
	})
}

func (s *Server) answerWorkspaces(w http.ResponseWriter, r *http.Request, f func(WorkspaceRuntime, string) (agentstate.WorkspaceView, error)) {
	ws, ok := s.workspaceRuntime(w)
	if !ok {
		return
	}
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	v, err := f(ws, id)
	if err != nil {
		writeError(w, workspaceError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// workspaceError maps the workspace decisions' errors to the API's.
func workspaceError(err error) *Error {
	switch {
	case errors.Is(err, agentstate.ErrActiveWorkspace):
		return errorf(http.StatusConflict, KindConflict, "switch to another workspace first: agents workspace use --id agent_home", "%v", err)
	case errors.Is(err, agentstate.ErrUnknownWorkspace):
		return errorf(http.StatusNotFound, KindNotFound, "agents workspace list shows the attached ids; attach one with agents workspace use PATH", "%v", err)
	case errors.Is(err, actors.ErrNoAgent):
		return errorf(http.StatusNotFound, KindNotFound, "agents list shows the agents; agents create ID makes one", "%v", err)
	case errors.Is(err, agentstate.ErrWorkspaceRequest), errors.Is(err, actors.ErrWorkspacePath):
		return errorf(http.StatusUnprocessableEntity, KindInvalid, `send {"path": "/abs/dir"} or {"workspace_id": "ID"}, with "mode": "direct" or "isolated"`, "%v", err)
	}
	return runtimeError(err)
}

// Workspaces is agent id's active workspace and attached set.
func (c *Client) Workspaces(ctx context.Context, id string) (agentstate.WorkspaceView, error) {
	var out agentstate.WorkspaceView
	return out, c.do(ctx, http.MethodGet, "/control/agents/"+url.PathEscape(id)+"/workspaces", nil, &out)
}

// UseWorkspace makes req's workspace agent id's active one.
func (c *Client) UseWorkspace(ctx context.Context, id string, req actors.WorkspaceRequest) (agentstate.WorkspaceView, error) {
	var out agentstate.WorkspaceView
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/workspaces/use", req, &out)
}

// DetachWorkspace removes workspaceID from agent id's attached set.
func (c *Client) DetachWorkspace(ctx context.Context, id, workspaceID string) (agentstate.WorkspaceView, error) {
	var out agentstate.WorkspaceView
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/workspaces/detach",
		DetachWorkspaceRequest{WorkspaceID: workspaceID}, &out)
}
