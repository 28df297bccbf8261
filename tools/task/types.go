package task

import (
	"context"
	"errors"
	"time"

	"github.com/holon-actors/holon-actors/tools/task/taskspec"
)

// ErrUnknownTask is returned by a Controller for a task id it does not
// know (or that belongs to another agent).
var ErrUnknownTask = errors.New("task: unknown task")

// The task statuses, the child records and the task result live in
// tools/task/taskspec, a leaf without process code, so an agent's pure
// state can hold them; these names are the same.
const (
	StatusQueued      = taskspec.StatusQueued
	StatusRunning     = taskspec.StatusRunning
	StatusCompleted   = taskspec.StatusCompleted
	StatusFailed      = taskspec.StatusFailed
	StatusCancelled   = taskspec.StatusCancelled
	StatusInterrupted = taskspec.StatusInterrupted

	KindChildAgent = taskspec.KindChildAgent

	PhaseRunning  = taskspec.PhaseRunning
	PhaseBlocked  = taskspec.PhaseBlocked
	PhaseWaiting  = taskspec.PhaseWaiting
	PhaseTerminal = taskspec.PhaseTerminal
)

// Terminal reports whether status is terminal (taskspec.Terminal).
func Terminal(status string) bool { return taskspec.Terminal(status) }

type (
	// ChildObservability is taskspec.ChildObservability.
	ChildObservability = taskspec.ChildObservability
	// ChildSupervision is taskspec.ChildSupervision.
	ChildSupervision = taskspec.ChildSupervision
	// OutputTask is taskspec.OutputTask.
	OutputTask = taskspec.OutputTask
	// CommandRecord is taskspec.CommandRecord.
	CommandRecord = taskspec.CommandRecord
)

// Retrieval statuses of TaskOutput.
const (
	// RetrievalSuccess: a persisted terminal snapshot, stable from now on.
	RetrievalSuccess = "success"
	// RetrievalNotReady: the task still runs; the preview is output so far.
	RetrievalNotReady = "not_ready"
	// RetrievalTimeout: block=true waited its whole timeout; still running.
	RetrievalTimeout = "timeout"
)

// Input targets of TaskInput.
const (
	InputStdin         = "stdin"
	InputTTY           = "tty"
	InputChildFollowup = "child_followup"
)

// CommandInfo is the identity-carrying command metadata of a
// command_task snapshot. It never carries output bytes.
type CommandInfo struct {
	Cmd             string `json:"cmd"`
	CmdDigest       string `json:"cmd_digest"`
	CmdPreview      string `json:"cmd_preview,omitempty"`
	Workdir         string `json:"workdir"`
	Shell           string `json:"shell,omitempty"`
	Login           bool   `json:"login"`
	TTY             bool   `json:"tty"`
	AcceptsInput    bool   `json:"accepts_input"`
	OutputPath      string `json:"output_path,omitempty"`
	TerminalReentry bool   `json:"terminal_reentry"`
	Pgid            int    `json:"pgid,omitempty"`
}

// Snapshot is the compact lifecycle snapshot TaskStatus and TaskList
// return: coordination state, not an output channel.
type Snapshot struct {
	TaskID    string       `json:"task_id"`
	Kind      string       `json:"kind"`
	Status    string       `json:"status"`
	Summary   string       `json:"summary,omitempty"`
	CreatedAt time.Time    `json:"created_at,omitzero"`
	UpdatedAt time.Time    `json:"updated_at,omitzero"`
	Command   *CommandInfo `json:"command,omitempty"`
	// InputTarget is advertised only when the task accepts input.
	InputTarget string `json:"input_target,omitempty"`
	// The child_agent_task fields.
	ChildAgentID       string              `json:"child_agent_id,omitempty"`
	WorkspaceMode      string              `json:"workspace_mode,omitempty"`
	ChildObservability *ChildObservability `json:"child_observability,omitempty"`
	ChildSupervision   *ChildSupervision   `json:"child_supervision,omitempty"`
}

// OutputResult is the canonical result of TaskOutput.
type OutputResult struct {
	RetrievalStatus string     `json:"retrieval_status"`
	Task            OutputTask `json:"task"`
}

// OutputRequest is what TaskOutput asks of the Controller.
type OutputRequest struct {
	TaskID   string
	Block    bool          // wait, turn-locally, until the task is terminal or Timeout passes
	Timeout  time.Duration // bound of the wait when Block
	MaxChars int           // bound of OutputPreview
}

// InputResult is the canonical result of TaskInput. A delivery refused
// for a non-fatal reason is AcceptedInput=false with SummaryText saying
// why, not an error.
type InputResult struct {
	Task          Snapshot `json:"task"`
	AcceptedInput bool     `json:"accepted_input"`
	InputTarget   string   `json:"input_target,omitempty"`
	BytesWritten  int      `json:"bytes_written"`
	SummaryText   string   `json:"summary_text"`
}

// StopResult is the canonical result of TaskStop.
type StopResult struct {
	Task           Snapshot `json:"task"`
	StopRequested  bool     `json:"stop_requested"`
	ForceRequested bool     `json:"force_requested"`
}

// ListResult is the canonical result of TaskList.
type ListResult struct {
	Tasks []Snapshot `json:"tasks"`
}

// Controller does what the task tools ask, for the agent whose call it
// is. Implementations are safe for concurrent use; TaskRecord is their
// authority for terminal state (a terminal record beats a stale running
// message). Errors other than ErrUnknownTask are reported to the model as
// retryable failures.
type Controller interface {
	Status(ctx context.Context, taskID string) (Snapshot, error)
	Output(ctx context.Context, req OutputRequest) (OutputResult, error)
	// Input delivers text to the task's stdin or terminal (with closeInput,
	// then ends the input).
	Input(ctx context.Context, taskID, text string, closeInput bool) (InputResult, error)
	// Stop stops the task gracefully, then forcibly, and returns when it
	// is stopped or ctx ends.
	Stop(ctx context.Context, taskID string) (StopResult, error)
	List(ctx context.Context, includeTerminal bool) ([]Snapshot, error)
}

type controllerKey struct{}

// WithController binds the calling agent's Controller to ctx.
func WithController(ctx context.Context, c Controller) context.Context {
	return context.WithValue(ctx, controllerKey{}, c)
}
