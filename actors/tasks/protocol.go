package tasks

import (
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// Request is a request of the tasks to an agent actor. The agent is the
// only writer of its journal, so it journals every task record, in its
// Receive.
type Request interface{ taskRequest() }

type (
	// Records asks for the agent's task records, oldest first; the reply
	// is []agentstate.TaskRecord.
	Records struct{}
	// Start journals task_started; the reply is an error or nil.
	Start struct{ Started messages.TaskStarted }
	// Finish journals a task's end with its task_result message; the
	// reply is *Recorded.
	Finish struct{ End End }
	// RecordLaunch journals a command's launch for the tool call in
	// flight; the reply is an error or nil.
	RecordLaunch struct{ Launch exec.Launch }
	// Recorded answers Finish: the agent journaled the end (Err when it
	// could not).
	Recorded struct{ Err error }
	// Waiting tells an agent that its command task is blocked reading
	// input; nothing answers.
	Waiting struct{ TaskID, Cmd string }
)

func (*Records) taskRequest()      {}
func (*Start) taskRequest()        {}
func (*Finish) taskRequest()       {}
func (*RecordLaunch) taskRequest() {}

// Priority implements mailbox.Prioritized: the task host waits on these
// while a tool call of a running turn is in flight.
func (*Records) Priority() messages.Priority      { return messages.PriorityNext }
func (*Start) Priority() messages.Priority        { return messages.PriorityNext }
func (*Finish) Priority() messages.Priority       { return messages.PriorityNext }
func (*RecordLaunch) Priority() messages.Priority { return messages.PriorityNext }
func (*Waiting) Priority() messages.Priority      { return messages.PriorityNext }
