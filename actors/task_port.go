package actors

import (
	"context"
	"encoding/json"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// taskPort is the runtime as the tasks see it (tasks.Asker): agents
// reached by id, and the child-task controller's operations.
type taskPort struct{ r *Runtime }

var _ tasks.Asker = taskPort{}

// startTasks spawns the tasks supervisor; NewRuntime calls it before any
// agent exists.
func (r *Runtime) startTasks() error {
	h, err := tasks.NewHost(r.sys, taskPort{r}, tasks.Config{Clock: r.deps.Clock, Log: r.deps.Log, ResendAfter: r.requestTimeout})
	if err != nil {
		return err
	}
	r.wire.tasks = h
	return nil
}

// stopTasks stops every command task: their processes are killed, or,
// after Halt, left running. Their records stay open, so the next boot
// recovers them as interrupted.
func (r *Runtime) stopTasks() error {
	if h := r.wire.tasks; h != nil {
		return h.Stop()
	}
	return nil
}

// abandonTasks makes stopTasks leave the processes running.
func (r *Runtime) abandonTasks() {
	if h := r.wire.tasks; h != nil {
		h.Abandon()
	}
}

func (p taskPort) Ask(ctx context.Context, agentID string, msg any) (any, error) {
	return p.r.ask(ctx, agentID, msg)
}

// RequestFrom sends msg to agent id with from as its sender, who gets the
// answer (or *activationFailed) as a message: routed like post, so a
// dormant agent is activated, but nothing waits for the answer.
func (p taskPort) RequestFrom(from *actor.PID, id string, msg any) error {
	r := p.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return ErrRuntimeClosed
	}
	if pid, ok := r.pids[id]; ok {
		r.sys.Root.RequestWithCustomSender(pid, msg, from)
		return nil
	}
	r.sys.Root.RequestWithCustomSender(r.supervisor, &deliver{id: id, msg: msg}, from)
	return nil
}

func (p taskPort) Forward(agentID string, msg any) { p.r.forward(agentID, msg) }

func (p taskPort) Timeout(ctx context.Context) time.Duration { return p.r.timeout(ctx) }

func (p taskPort) Observe(ctx context.Context, r agentstate.TaskRecord) *task.ChildObservability {
	return p.r.childObservability(ctx, r)
}

// FollowUp delivers a parent follow-up to the child as its next message
// (runtime instruction, never operator authority).
func (p taskPort) FollowUp(ctx context.Context, parent string, r agentstate.TaskRecord, text string) error {
	env := delegationEnvelope(r.Child.ChildAgentID, p.r.deps.Clock.Now(), text,
		map[string]string{"parent_agent_id": parent, "supervision_task_id": r.TaskID, "followup": "true"})
	_, err := p.r.Admit(ctx, env)
	return err
}

func (p taskPort) Suspensions(ctx context.Context, id string) ([]messages.SuspensionRecord, error) {
	return p.r.Suspensions(ctx, id)
}

func (p taskPort) Respond(ctx context.Context, id string, a agentstate.Answer) (messages.InputResponse, error) {
	return p.r.Respond(ctx, id, a)
}

// StopChild archives the child (which first stops its own tasks and
// children) and records the supervision task cancelled; a child that
// already settled keeps its own status.
func (p taskPort) StopChild(ctx context.Context, parent string, r agentstate.TaskRecord) error {
	id := r.Child.ChildAgentID
	if err := archivedErr(p.r.ask(ctx, id, &archiveChild{status: task.StatusCancelled, reason: "stopped by its parent (TaskStop)"})); err != nil {
		p.r.deps.Log.Warn().Err(err).Str("agent_id", parent).Str("child_agent_id", id).Msg("child not archived; its task is cancelled anyway")
	}
	res, err := p.r.ask(ctx, parent, &childFinished{childID: id, status: task.StatusCancelled, text: "Stopped by its parent with TaskStop."})
	if err == nil {
		err = res.(*tasks.Recorded).Err
	}
	return err
}

// childObservability is the observability of the child of task r: from
// the terminal record once it ended, else asked of the child (nil when it
// does not answer).
func (rt *Runtime) childObservability(ctx context.Context, r agentstate.TaskRecord) *task.ChildObservability {
	if r.Terminal() {
		o := task.ChildObservability{Phase: task.PhaseTerminal}
		var out task.OutputTask
		if json.Unmarshal(r.Result, &out) == nil {
			o.LastResultBrief = agentstate.BoundedBrief(out.OutputPreview, agentstate.BriefLimit)
		}
		return &o
	}
	res, err := rt.ask(ctx, r.Child.ChildAgentID, &observeChild{})
	if err != nil {
		return nil
	}
	if o, ok := res.(task.ChildObservability); ok {
		return &o
	}
	return nil
}

// archived answers archiveChild.
type archived struct{ err error }

func archivedErr(res any, err error) error {
	if err != nil {
		return err
	}
	if a, ok := res.(*archived); ok {
		return a.err
	}
	return nil
}
