package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// RuntimeEnvelope is a runtime-owned message for the agent: runtime
// admission, its authority derived from origin and surface.
func RuntimeEnvelope(env Env, kind messages.MessageKind, origin messages.Origin, surface messages.MessageDeliverySurface,
	p messages.Priority, text string, refs map[string]string) messages.MessageEnvelope {
	m := messages.MessageEnvelope{
		ID: env.NewID("msg"), AgentID: env.AgentID, CreatedAt: env.Now, Kind: kind, Origin: origin,
		Priority: p, Body: messages.TextBody(text), SourceRefs: refs,
		DeliverySurface: surface, AdmissionContext: messages.AdmissionRuntimeOwned,
	}
	m.Normalize()
	m.AuthorityClass = messages.DeriveAuthority(origin.Kind, surface, m.AdmissionContext)
	return m
}

// WakeOnAdmit is what an asleep agent journals with a message it admits
// for itself: it wakes (awake_idle) for reason. Nil when it is not asleep.
func WakeOnAdmit(st *State, reason string) Batch {
	if st.Status != messages.StatusAsleep {
		return nil
	}
	return Batch{StatusChange(st, messages.StatusAwakeIdle, reason)}
}
