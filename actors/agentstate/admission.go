package agentstate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// Admission errors. Each says what to do.
var (
	// ErrAgentStopped is returned for new input to a stopped agent.
	ErrAgentStopped = errors.New("agent is stopped: resume it first (holon-actors agents resume <id>)")
	// ErrAgentArchived is returned for input or controls to an archived
	// private child: its supervision ended and it takes no more work.
	ErrAgentArchived = errors.New("agent is archived: its supervising task ended; spawn a new child for more work")
	// ErrResumeRequired is returned by wake on a stopped agent.
	ErrResumeRequired = errors.New("agent is stopped: wake does not restart a stopped agent, resume it (holon-actors agents resume <id>)")
	// ErrQueueFull is the backpressure answer when an agent's queue is at
	// its limit.
	ErrQueueFull = errors.New("agent queue is full: retry later or raise the queue limit")
	// ErrWrongAgent is returned when an envelope names another agent.
	ErrWrongAgent = errors.New("envelope agent_id does not name this agent")
)

// Admission is what Admit decided for a message it did not refuse.
type Admission struct {
	// Batch admits the message; nil for a duplicate.
	Batch Batch
	// Duplicate is true when the message was admitted before, at Seq.
	Duplicate bool
	Seq       uint64
}

// Admit validates and normalizes m, a message for the agent, and decides
// its admission: message_admitted with its authority derived from its
// origin, surface and admission context. It checks, in order: the agent m
// names, a message already admitted (a duplicate, answered with its seq),
// a stopped or archived agent, a full queue (queueLimit), then m's ID and
// shape. A refusal is an error and changes nothing.
func Admit(st *State, env Env, m messages.MessageEnvelope, queueLimit int) (Admission, error) {
	switch {
	case m.AgentID != env.AgentID:
		return Admission{}, fmt.Errorf("%w: %q sent to %q", ErrWrongAgent, m.AgentID, env.AgentID)
	case slices.Contains(st.Recent, m.ID):
		seq, dup := st.AdmittedSeq(m.ID)
		return Admission{Duplicate: dup, Seq: seq}, nil
	case st.Status == messages.StatusStopped:
		return Admission{}, ErrAgentStopped
	case st.Status == messages.StatusArchived:
		return Admission{}, ErrAgentArchived
	case st.Queue.Len() >= queueLimit:
		return Admission{}, fmt.Errorf("%w (%d queued)", ErrQueueFull, st.Queue.Len())
	}
	if err := messages.ValidateMessageID(m.ID); err != nil {
		return Admission{}, err
	}
	m.Normalize()
	m.AuthorityClass = messages.DeriveAuthority(m.Origin.Kind, m.DeliverySurface, m.AdmissionContext)
	if err := m.Validate(); err != nil {
		return Admission{}, err
	}
	return Admission{Batch: Batch{messages.MessageAdmitted{Envelope: m}}}, nil
}
