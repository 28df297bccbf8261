package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// SetCommandPolicy asks an agent to record its command policy (nil
// clears it, back to the configured one); the reply is
// *SetCommandPolicyResult. Commands started from then on are checked
// against it.
type SetCommandPolicy struct {
	Policy *messages.CommandPolicy
	Reason string
}

// Priority implements mailbox.Prioritized: like lifecycle commands, before work.
func (*SetCommandPolicy) Priority() messages.Priority { return messages.PriorityInterject }

// SetCommandPolicyResult answers SetCommandPolicy.
type SetCommandPolicyResult struct {
	Err error
}

// SetCommandPolicy records agent id's command policy, creating the agent
// if it does not exist; an invalid policy (wrapping
// messages.ErrInvalidCommandPolicy) changes nothing.
func (r *Runtime) SetCommandPolicy(ctx context.Context, id string, p *messages.CommandPolicy, reason string) error {
	if p != nil {
		if err := p.Validate(); err != nil {
			return err
		}
	}
	res, err := r.ask(ctx, id, &SetCommandPolicy{Policy: p, Reason: reason})
	if err != nil {
		return err
	}
	return res.(*SetCommandPolicyResult).Err
}

// setCommandPolicy journals the policy.
func (a *agent) setCommandPolicy(m *SetCommandPolicy) *SetCommandPolicyResult {
	err := a.persist(messages.CommandPolicySet{Policy: m.Policy, Reason: reasonOr(m.Reason, "operator command policy")})
	if err != nil {
		return &SetCommandPolicyResult{Err: fmt.Errorf("record the command policy of %s: %w", a.id, err)}
	}
	return &SetCommandPolicyResult{}
}

// commandPolicy is the policy the agent's commands run under: its own,
// else the configured one for it; nil allows everything.
func (a *agent) commandPolicy() *messages.CommandPolicy {
	if a.state.CommandPolicy != nil {
		return a.state.CommandPolicy
	}
	return a.deps.CommandPolicies.For(a.id)
}

// withCreatorPolicy adds this agent's command policy, when it has one, to
// the first events of an agent it creates, ahead of any message: what
// this agent may not run, the agents it spawns may not either, whatever
// the default or their own entry in the file says.
func (a *agent) withCreatorPolicy(payloads []messages.Payload) []messages.Payload {
	p := a.commandPolicy()
	if p == nil || p.IsZero() {
		return payloads
	}
	set := messages.CommandPolicySet{Policy: p, Reason: "inherited from its creator " + a.id}
	return append(payloads[:2:2], append([]messages.Payload{set}, payloads[2:]...)...)
}
