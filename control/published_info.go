package control

import (
	"context"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// infoPublisher is an optional ability of a Runtime: the info a running
// agent last published, without asking it (actors.Runtime.PublishedInfo).
type infoPublisher interface {
	PublishedInfo(ctx context.Context, id string) (agentstate.AgentInfo, bool)
}

// activeInfo is running agent id's info: what it published when that is
// current, so the runtime status does not wait on busy agents, and
// otherwise its answer to Info.
func (s *Server) activeInfo(ctx context.Context, id string) (agentstate.AgentInfo, error) {
	if p, ok := s.cfg.Runtime.(infoPublisher); ok {
		if in, ok := p.PublishedInfo(ctx, id); ok {
			return in, nil
		}
	}
	return s.cfg.Runtime.Info(ctx, id)
}
