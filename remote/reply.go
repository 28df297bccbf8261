package remote

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// replyProcess receives the answer to one request at a PID of its own,
// named at random: no other peer can guess where to send it a reply (a
// future's name is a counter). It keeps the first message that answers
// its request (answers) and drops any other, so a reply to another
// request, or sent by someone other than the node, never completes it.
type replyProcess struct {
	req proto.Message
	got chan any // buffered 1: the first answer; later ones are dropped
	// dropped is told of each message that did not answer the request.
	dropped func()
}

func (p *replyProcess) SendUserMessage(_ *actor.PID, m any) {
	if env, ok := m.(*actor.MessageEnvelope); ok {
		m = env.Message
	}
	if !answers(p.req, m) {
		p.dropped()
		return
	}
	select {
	case p.got <- m:
	default:
	}
}

func (p *replyProcess) SendSystemMessage(*actor.PID, any) {}
func (p *replyProcess) Stop(*actor.PID)                   {}

// replyName is a fresh PID name no one can guess: 128 random bits.
func replyName() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "reply-" + hex.EncodeToString(b[:])
}

// answers reports whether m can be the node's answer to req: the reply
// type for req's type, about the same agent (and message or suspension);
// or a refusal (an Error, or remote's dead letter for a node without a
// gateway).
func answers(req proto.Message, m any) bool {
	switch m.(type) {
	case *remotepb.Error, *actor.DeadLetterResponse:
		return true
	}
	switch r := req.(type) {
	case *remotepb.PromptRequest:
		a, ok := m.(*remotepb.PromptAccepted)
		return ok && a.GetAgentId() == r.GetAgentId() && a.GetMessageId() == r.GetEnvelope().GetId()
	case *remotepb.ReadEvents:
		p, ok := m.(*remotepb.EventsPage)
		return ok && p.GetAgentId() == r.GetAgentId() && p.GetNextAfter() >= r.GetAfter()
	case *remotepb.GetStatus:
		s, ok := m.(*remotepb.AgentStatus)
		return ok && s.GetAgentId() == r.GetAgentId()
	case *remotepb.ListAgents:
		_, ok := m.(*remotepb.AgentList)
		return ok
	case *remotepb.Lifecycle:
		l, ok := m.(*remotepb.LifecycleResult)
		return ok && l.GetAgentId() == r.GetAgentId()
	case *remotepb.ListSuspensions:
		l, ok := m.(*remotepb.SuspensionList)
		return ok && l.GetAgentId() == r.GetAgentId()
	case *remotepb.RespondSuspension:
		s, ok := m.(*remotepb.SuspensionResult)
		return ok && s.GetAgentId() == r.GetAgentId() && s.GetSuspensionId() == r.GetSuspensionId()
	case *remotepb.CancelSuspension:
		s, ok := m.(*remotepb.SuspensionResult)
		return ok && s.GetAgentId() == r.GetAgentId() && s.GetSuspensionId() == r.GetSuspensionId()
	case *remotepb.AddWorkItem:
		w, ok := m.(*remotepb.WorkItemAdded)
		return ok && w.GetAgentId() == r.GetAgentId()
	}
	return answersRead(req, m)
}

// answersRead is answers for the requests answered with the HTTP API's
// body.
func answersRead(req proto.Message, m any) bool {
	switch r := req.(type) {
	case *remotepb.GetRuntimeStatus:
		_, ok := m.(*remotepb.RuntimeStatus)
		return ok
	case *remotepb.GetTranscript:
		t, ok := m.(*remotepb.Transcript)
		return ok && t.GetAgentId() == r.GetAgentId()
	case *remotepb.ListBriefs:
		b, ok := m.(*remotepb.BriefList)
		return ok && b.GetAgentId() == r.GetAgentId()
	case *remotepb.ListChildren:
		c, ok := m.(*remotepb.ChildList)
		return ok && c.GetAgentId() == r.GetAgentId()
	case *remotepb.ListWorkItems:
		w, ok := m.(*remotepb.WorkItemList)
		return ok && w.GetAgentId() == r.GetAgentId()
	case *remotepb.ListTasks:
		t, ok := m.(*remotepb.TaskList)
		return ok && t.GetAgentId() == r.GetAgentId()
	case *remotepb.CreateAgent:
		_, ok := m.(*remotepb.AgentCreated)
		return ok
	case *remotepb.GetWorkspaces, *remotepb.UseWorkspace, *remotepb.DetachWorkspace:
		w, ok := m.(*remotepb.Workspaces)
		return ok && w.GetAgentId() == r.(interface{ GetAgentId() string }).GetAgentId()
	case *remotepb.GetPromptDebug:
		d, ok := m.(*remotepb.PromptDebug)
		return ok && d.GetAgentId() == r.GetAgentId()
	}
	return false
}
