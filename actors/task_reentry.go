package actors

import (
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// toolsRequest is a request of the runtime's tool bindings (task host,
// inspector) to an agent actor. The agent is the only writer of its
// journal, so every task record is journaled by it, in Receive.
type toolsRequest interface{ toolsRequest() }

type (
	// getTasks asks for the agent's task records; the reply is []TaskRecord.
	getTasks struct{}
	// startTask journals task_started; the reply is an error or nil.
	startTask struct{ started messages.TaskStarted }
	// finishTask journals a task's end with its task_result message; the
	// reply is *endRecorded.
	finishTask struct{ end taskEnd }
	// taskRecovered carries the end of a task recovered after a restart.
	taskRecovered struct{ end taskEnd }
	// inspectAgent asks for the agent's AgentGet summary; the reply is
	// inspection.
	inspectAgent struct{}
)

func (*getTasks) toolsRequest()      {}
func (*startTask) toolsRequest()     {}
func (*finishTask) toolsRequest()    {}
func (*taskRecovered) toolsRequest() {}
func (*inspectAgent) toolsRequest()  {}

// Priority implements mailbox.Prioritized: the task host waits on these while a
// tool call of a running turn is in flight.
func (*getTasks) Priority() messages.Priority      { return messages.PriorityNext }
func (*startTask) Priority() messages.Priority     { return messages.PriorityNext }
func (*finishTask) Priority() messages.Priority    { return messages.PriorityNext }
func (*taskRecovered) Priority() messages.Priority { return messages.PriorityNext }
func (*inspectAgent) Priority() messages.Priority  { return messages.PriorityNext }

// toolsRequest answers one request of the tool bindings.
func (a *agent) toolsRequest(c actor.Context, m toolsRequest) {
	switch m := m.(type) {
	case *getTasks:
		c.Respond(a.state.CopyTasks())
	case *startTask:
		started := m.started
		if a.state.Turn != nil {
			started.ParentMessageID = a.state.Turn.MessageID
		}
		c.Respond(a.persist(started))
	case *finishTask:
		c.Respond(&endRecorded{err: a.finishTask(m.end)})
		a.advance(c)
	case *taskRecovered:
		if err := a.finishTask(m.end); err != nil {
			a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", m.end.finished.TaskID).Msg("recovered task not journaled")
		}
		a.advance(c)
	case *inspectAgent:
		c.Respond(a.inspection())
	case *recordLaunch:
		a.journalLaunch(c, m)
	}
}

// finishTask journals a task's end (agentstate.TaskEnd), once.
func (a *agent) finishTask(end taskEnd) error {
	if err := a.commit(agentstate.TaskEnd(a.state, a.env(), end.finished, end.text)); err != nil {
		return fmt.Errorf("finish task %s: %w", end.finished.TaskID, err)
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
	h := a.deps.ToolEnv.host
	for _, rec := range a.state.OpenTasks() {
		if h != nil && h.isLive(rec.TaskID) {
			continue
		}
		a.recoverTask(c, *rec)
	}
}

func (a *agent) recoverTask(c actor.Context, rec agentstate.TaskRecord) {
	arts, err := a.deps.ToolEnv.artifacts(a.id)
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
		end, err := newTaskEnd(out, rec.Command.Command.Cmd)
		if err == nil {
			root.Send(self, &taskRecovered{end: end})
		}
	}()
}

// taskResultText is the task_result message the model reads: what ended,
// how, the output preview and where the rest is. It is evidence, not an
// instruction.
func taskResultText(out task.OutputTask, cmd string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Background task %s %s: %s\n", out.TaskID, out.Status, oneLine(cmd, 200))
	if out.ResultSummary != "" {
		fmt.Fprintf(&b, "Result: %s\n", out.ResultSummary)
	}
	if out.OutputPreview == "" {
		b.WriteString("No output.\n")
	} else {
		fmt.Fprintf(&b, "Output:\n%s\n", strings.TrimRight(out.OutputPreview, "\n"))
	}
	if out.OutputTruncated && out.OutputArtifact != nil {
		fmt.Fprintf(&b, "Output truncated; full output: %s\n", out.Artifacts[*out.OutputArtifact].Path)
	}
	if out.FailureArtifact != nil {
		fmt.Fprintf(&b, "Failure evidence: %s\n", out.Artifacts[*out.FailureArtifact].Path)
	}
	b.WriteString("Use TaskOutput for the full result.")
	return b.String()
}

// taskWaiting tells an agent that its command task is blocked reading
// input.
type taskWaiting struct{ taskID, cmd string }

// Priority implements mailbox.Prioritized.
func (*taskWaiting) Priority() messages.Priority { return messages.PriorityNext }

// taskWaitsForInput queues a task.waiting notification for a task that
// still runs.
func (a *agent) taskWaitsForInput(m *taskWaiting) {
	if rec, ok := a.state.Tasks[m.taskID]; !ok || rec.Terminal() {
		return
	}
	n := messages.SystemNotification{Kind: "task.waiting", Level: messages.LevelWarning,
		Message: fmt.Sprintf("Background task %s (%s) is waiting for input: send it with TaskInput, or stop it with TaskStop.", m.taskID, oneLine(m.cmd, 120))}
	if err := a.queueSystem(n); err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("task_id", m.taskID).Msg("task.waiting notification not journaled")
	}
}
