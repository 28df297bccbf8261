package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// toolsRequest is a request of the runtime's tool bindings (the
// inspector) and of task recovery to an agent actor; the requests of the
// task host are tasks.Request.
type toolsRequest interface{ toolsRequest() }

type (
	// taskRecovered carries the end of a task recovered after a restart.
	taskRecovered struct{ end tasks.End }
	// inspectAgent asks for the agent's AgentGet summary; the reply is
	// inspection.
	inspectAgent struct{}
)

func (*taskRecovered) toolsRequest() {}
func (*inspectAgent) toolsRequest()  {}

// Priority implements mailbox.Prioritized: the tool bindings wait on
// these while a tool call of a running turn is in flight.
func (*taskRecovered) Priority() messages.Priority { return messages.PriorityNext }
func (*inspectAgent) Priority() messages.Priority  { return messages.PriorityNext }

// taskRequest answers one request of the task host. The agent is the
// only writer of its journal, so every task record is journaled by it,
// here.
func (a *agent) taskRequest(c actor.Context, m tasks.Request) {
	switch m := m.(type) {
	case *tasks.Records:
		c.Respond(a.state.CopyTasks())
	case *tasks.Start:
		started := m.Started
		if a.state.Turn != nil {
			started.ParentMessageID = a.state.Turn.MessageID
		}
		c.Respond(a.persist(started))
	case *tasks.Finish:
		c.Respond(&tasks.Recorded{Err: a.finishTask(m.End)})
		a.advance(c)
	case *tasks.RecordLaunch:
		a.journalLaunch(c, m)
	}
}

// toolsRequest answers one request of the tool bindings.
func (a *agent) toolsRequest(c actor.Context, m toolsRequest) {
	switch m := m.(type) {
	case *taskRecovered:
		if err := a.finishTask(m.end); err != nil {
			a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", m.end.Finished.TaskID).Msg("recovered task not journaled")
		}
		a.advance(c)
	case *inspectAgent:
		c.Respond(a.inspection())
	}
}

// finishTask journals a task's end (agentstate.TaskEnd), once.
func (a *agent) finishTask(end tasks.End) error {
	if err := a.commit(agentstate.TaskEnd(a.state, a.env(), end.Finished, end.Text)); err != nil {
		return fmt.Errorf("finish task %s: %w", end.Finished.TaskID, err)
	}
	return nil
}

// recoverTasks settles, when the agent starts, every running task whose
// process no live task actor owns: it belonged to a runtime that died.
// Each is recovered in a goroutine the agent owns (its orphans killed by
// pgid and token, its output kept, a failure artifact written) and comes
// back as taskRecovered, journaled as interrupted with its task_result.
// Tasks still owned by this runtime (the agent only restarted) are left
// running.
func (a *agent) recoverTasks(c actor.Context) {
	h := a.wire.tasks
	for _, rec := range a.state.OpenTasks() {
		if h != nil && h.IsLive(rec.TaskID) {
			continue
		}
		a.recoverTask(c, *rec)
	}
}

func (a *agent) recoverTask(c actor.Context, rec agentstate.TaskRecord) {
	arts, err := a.deps.ToolEnv.artifacts(a.id, a.deps.Secrets)
	if err != nil || arts == nil || rec.Command == nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", rec.TaskID).Msg("task cannot be recovered without its artifacts")
		return
	}
	ctx, self, root, now := a.ctx, c.Self(), c.ActorSystem().Root, a.deps.Clock.Now()
	maxChars := a.deps.ToolEnv.budget().Chars(0)
	go func() {
		out, err := task.Recover(ctx, arts, *rec.Command, maxChars, now)
		if err != nil {
			if ctx.Err() == nil {
				a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", rec.TaskID).Msg("task not recovered")
			}
			return
		}
		end, err := tasks.NewEnd(out, rec.Command.Command.Cmd)
		if err == nil {
			root.Send(self, &taskRecovered{end: end})
		}
	}()
}

// taskWaitsForInput queues a task.waiting notification for a task that
// still runs.
func (a *agent) taskWaitsForInput(m *tasks.Waiting) {
	if rec, ok := a.state.Tasks[m.TaskID]; !ok || rec.Terminal() {
		return
	}
	n := messages.SystemNotification{Kind: "task.waiting", Level: messages.LevelWarning,
		Message: fmt.Sprintf("Background task %s (%s) is waiting for input: send it with TaskInput, or stop it with TaskStop.", m.TaskID, oneLine(m.Cmd, 120))}
	if err := a.queueSystem(n); err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", m.TaskID).Msg("task.waiting notification not journaled")
	}
}
