package agentstate

import (
	"fmt"

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

// TimerTick decides the fire (fired) of a plain timer ts (a timed sleep, a
// scheduled wake): the timer retires and a timer_tick message is queued,
// which wakes an asleep agent.
func TimerTick(st *State, env Env, fired messages.TimerFired, ts TimerState) Batch {
	m := RuntimeEnvelope(env, messages.KindTimerTick, messages.TimerOrigin(fired.TimerID), messages.SurfaceTimerScheduler,
		messages.PriorityNext, fmt.Sprintf("Timer %s fired (%s).", fired.TimerID, ts.Reason),
		map[string]string{"timer_id": fired.TimerID, "fire_id": fired.FireID})
	return append(Batch{fired, messages.MessageAdmitted{Envelope: m}}, WakeOnAdmit(st, "timer fired")...)
}

// TakeWakeHint turns the pending wake hint into a SystemTick, which wakes
// an asleep agent. A contentful hint becomes a model-visible turn; a plain
// one only wakes the agent (liveness), which settles without a model call.
// Nil without a pending hint.
func TakeWakeHint(st *State, env Env) Batch {
	h := st.PendingWakeHint
	if h == nil {
		return nil
	}
	refs := map[string]string{"wake_hint": h.Source}
	if !h.Contentful {
		refs["liveness_only"] = "true"
	}
	m := RuntimeEnvelope(env, messages.KindSystemTick, messages.SystemOrigin("wake_hint"), messages.SurfaceRuntimeSystem,
		messages.PriorityNext, fmt.Sprintf("Wake hint from %s: %s", h.Source, h.Reason), refs)
	return append(Batch{messages.MessageAdmitted{Envelope: m}}, WakeOnAdmit(st, "wake hint")...)
}
