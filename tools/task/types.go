package task

import (
	"context"
	"errors"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// ErrUnknownTask is returned by a Controller for a task id it does not
// know (or that belongs to another agent).
var ErrUnknownTask = errors.New("task: unknown task")

// Task statuses; completed, failed, cancelled and interrupted are terminal.
const (
	StatusQueued      = "queued"
	StatusRunning     = "running"
	StatusCompleted   = "completed"
	StatusFailed      = "failed"
	StatusCancelled   = "cancelled"
	StatusInterrupted = "interrupted"
)

// Terminal reports whether status is terminal.
func Terminal(status string) bool {
	switch status {
	case StatusCompleted, StatusFailed, StatusCancelled, StatusInterrupted:
		return true
	}
	return false
}

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

// KindChildAgent is the task kind of a parent's supervision handle of a
// private child agent (SpawnAgent preset private_child).
const KindChildAgent = "child_agent_task"

// Child phases of ChildObservability.
const (
	PhaseRunning  = "running"
	PhaseBlocked  = "blocked"
	PhaseWaiting  = "waiting"
	PhaseTerminal = "terminal"
)

// ChildObservability is the compact snapshot of a supervised child's
// progress, the same in TaskStatus, TaskOutput, SpawnAgent and AgentGet.
type ChildObservability struct {
	Phase             string `json:"phase"` // running, blocked, waiting, terminal
	BlockedReason     string `json:"blocked_reason,omitempty"`
	WaitingReason     string `json:"waiting_reason,omitempty"`
	ActiveWorkItemID  string `json:"active_work_item_id,omitempty"`
	WorkSummary       string `json:"work_summary,omitempty"`
	LastProgressBrief string `json:"last_progress_brief,omitempty"`
	LastResultBrief   string `json:"last_result_brief,omitempty"`
}

// ChildSupervision is the supervision boundary of a private child: who
// supervises it and through which task handle.
type ChildSupervision struct {
	ParentAgentID     string `json:"parent_agent_id"`
	ChildAgentID      string `json:"child_agent_id"`
	SupervisionTaskID string `json:"supervision_task_id"`
	WorkspaceMode     string `json:"workspace_mode"` // inherit or worktree
	// Worktree is the task-owned worktree of a worktree-mode child: where
	// it is and, once the task ended, whether it was removed or retained.
	Worktree       *worktree.Info `json:"worktree,omitempty"`
	CleanupOwner   string         `json:"cleanup_owner"` // supervision_task
	FollowupTarget string         `json:"followup_target"`
}

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

// OutputTask is the task-result envelope of TaskOutput.
type OutputTask struct {
	TaskID           string              `json:"task_id"`
	Kind             string              `json:"kind"`
	Status           string              `json:"status"`
	Summary          string              `json:"summary,omitempty"`
	OutputPreview    string              `json:"output_preview"`
	OutputTruncated  bool                `json:"output_truncated"`
	Artifacts        []tools.ArtifactRef `json:"artifacts,omitempty"`
	OutputArtifact   *int                `json:"output_artifact,omitempty"`
	ResultSummary    string              `json:"result_summary,omitempty"`
	ExitStatus       *int                `json:"exit_status,omitempty"`
	FailureArtifact  *int                `json:"failure_artifact,omitempty"`
	ChildSupervision *ChildSupervision   `json:"child_supervision,omitempty"`
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
