package tasks

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// Asker is what the tasks need of the runtime: to reach agents by id
// (activating a dormant one), and the few operations of the child-task
// controller that go through the runtime. The runtime implements it.
type Asker interface {
	// Ask sends msg to agent id and waits for its answer.
	Ask(ctx context.Context, agentID string, msg any) (any, error)
	// RequestFrom sends msg to agent id with from as its sender, who gets
	// the answer (or a Failure) as a message; nothing waits.
	RequestFrom(from *actor.PID, agentID string, msg any) error
	// Forward sends msg to agent id; nothing answers.
	Forward(agentID string, msg any)
	// Timeout is how long a request may wait within ctx.
	Timeout(ctx context.Context) time.Duration
	Children
}

// Children is what the child-task controller needs of the runtime.
type Children interface {
	// Observe is the observability of the child of task r: from its
	// terminal record, else asked of the child; nil when it does not answer.
	Observe(ctx context.Context, r agentstate.TaskRecord) *task.ChildObservability
	// FollowUp admits text as parent's follow-up message to the child of r.
	FollowUp(ctx context.Context, parent string, r agentstate.TaskRecord, text string) error
	// Suspensions are the suspensions of agent id.
	Suspensions(ctx context.Context, id string) ([]messages.SuspensionRecord, error)
	// Respond answers a suspension of agent id.
	Respond(ctx context.Context, id string, a agentstate.Answer) (messages.InputResponse, error)
	// StopChild archives the child of task r (its own tasks and children
	// first) and records r cancelled in parent's journal.
	StopChild(ctx context.Context, parent string, r agentstate.TaskRecord) error
}

// Failure is an answer carrying why a request to an agent failed: the
// runtime answers RequestFrom with one when it cannot deliver it.
type Failure interface{ Failure() error }
