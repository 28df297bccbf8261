package control

import (
	"context"
	"errors"
	"net/http"

	"github.com/holon-actors/holon-actors/agenthome"
)

// AgentHomes makes a new agent's home (from a template, or with the
// operator's instructions) before the agent exists, whole or not at all.
type AgentHomes interface {
	// Create makes agentID's home; it fails, leaving nothing, with the
	// errors of agenthome.Create.
	Create(ctx context.Context, agentID, template, instructions string) error
	// Discard removes a home Create made, when the agent could not be
	// created after all.
	Discard(agentID string) error
}

// makeHome makes req's agent's home; nil when it did, or when the server
// makes none and req asks for nothing.
func (s *Server) makeHome(ctx context.Context, req CreateAgentRequest) *Error {
	if s.cfg.Homes == nil {
		if req.Template != "" || req.Instructions != "" {
			return errorf(http.StatusUnprocessableEntity, KindInvalid, "this runtime makes no agent homes; create the agent without template and instructions",
				"template and instructions are not supported here")
		}
		return nil
	}
	err := s.cfg.Homes.Create(ctx, req.AgentID, req.Template, req.Instructions)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, agenthome.ErrUnreachable):
		return errorf(http.StatusBadGateway, KindUnavailable, "check the URL and the network, then create the agent again; nothing was made", "%v", err)
	case errors.Is(err, agenthome.ErrTemplate), errors.Is(err, agenthome.ErrSkillRef):
		return errorf(http.StatusUnprocessableEntity, KindInvalid,
			"give a template id under the templates directory, an absolute directory with an AGENTS.md, or https://github.com/OWNER/REPO/tree/REF/PATH; nothing was made", "%v", err)
	case errors.Is(err, agenthome.ErrHomeExists):
		return errorf(http.StatusConflict, KindConflict, "move the old home away, or pick another id; nothing was made", "%v", err)
	}
	return runtimeError(err)
}
