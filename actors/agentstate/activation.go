package agentstate

import "github.com/holon-actors/holon-actors/messages"

// applyActivation records a cluster activation (agent_activated): the
// node the agent now runs on. It reports whether p was one.
func (s *State) applyActivation(p messages.Payload) bool {
	a, ok := p.(messages.AgentActivated)
	if ok {
		s.Activation = &a
	}
	return ok
}
