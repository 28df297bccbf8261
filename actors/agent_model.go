package actors

import (
	"errors"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// ErrInvalidModel is wrapped when a model override is refused.
var ErrInvalidModel = errors.New("invalid model")

// SetModel asks an agent to record a model override ("" clears it); the
// reply is *SetModelResult. The next model round uses it; a round in
// flight finishes on the model it started with.
type SetModel struct {
	Model  string
	Reason string
}

// Priority implements mailbox.Prioritized: like lifecycle commands, before work.
func (*SetModel) Priority() messages.Priority { return messages.PriorityInterject }

// SetModelResult answers SetModel with the agent's info after it.
type SetModelResult struct {
	Info agentstate.AgentInfo
	Err  error
}

// setModel journals the override unless it is already the agent's.
func (a *agent) setModel(m *SetModel) *SetModelResult {
	if m.Model != a.state.Model {
		if err := a.persist(messages.AgentModelSet{Model: m.Model, Reason: reasonOr(m.Reason, "operator model override")}); err != nil {
			return &SetModelResult{Err: err}
		}
	}
	return &SetModelResult{Info: a.info()}
}
