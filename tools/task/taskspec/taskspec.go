// Package taskspec is the data a runtime keeps about an agent's tasks:
// their statuses, a command task's CommandRecord, a private child's
// ChildSupervision and ChildObservability, and a task's terminal result
// (OutputTask). It runs nothing, so an agent's pure state can hold these
// records without taking in os/exec; package task re-exports each name.
//
// taskspec imports tools (artifact references), tools/exec/execspec and
// tools/worktree/worktreespec, and nothing else from this module.
package taskspec

import (
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"
)

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
	Worktree       *worktreespec.Info `json:"worktree,omitempty"`
	CleanupOwner   string             `json:"cleanup_owner"` // supervision_task
	FollowupTarget string             `json:"followup_target"`
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

// CommandRecord is what the runtime persists about a command task, with
// its TaskRecord, so a restarted runtime can settle it: its identity, the
// process group and token that find its orphans, and its output files.
type CommandRecord struct {
	TaskID  string                   `json:"task_id"`
	Command execspec.CommandIdentity `json:"command"`
	Pgid    int                      `json:"pgid"`
	Token   string                   `json:"token"`
	Output  execspec.OutputFiles     `json:"output"`
	// ExitFile is where a gated command's wrapper writes its exit status
	// (exec.StartGated); empty for a command started ungated.
	ExitFile string    `json:"exit_file,omitempty"`
	Started  time.Time `json:"started"`
	Promoted time.Time `json:"promoted"`
}
