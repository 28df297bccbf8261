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

// infosPublisher is an optional ability of a Runtime: every running
// agent's current published info at once (actors.Runtime.PublishedInfos),
// and the running agents whose info is behind, to ask.
type infosPublisher interface {
	PublishedInfos(ctx context.Context) (infos []agentstate.AgentInfo, behind []string)
}

// activeInfos calls each with the info of every running agent (see
// activeInfo) until ctx ends; an agent that does not answer (stopping or
// restarting) is left out.
func (s *Server) activeInfos(ctx context.Context, each func(id string, in agentstate.AgentInfo)) {
	var behind []string
	if p, ok := s.cfg.Runtime.(infosPublisher); ok {
		var infos []agentstate.AgentInfo
		infos, behind = p.PublishedInfos(ctx)
		for _, in := range infos {
			each(in.ID, in)
		}
	} else {
		behind = s.cfg.Runtime.Active()
	}
	for _, id := range behind {
		if ctx.Err() != nil {
			return // the rest are left out of the counts, as a restarting one is
		}
		if in, err := s.activeInfo(ctx, id); err == nil {
			each(id, in)
		}
	}
}
