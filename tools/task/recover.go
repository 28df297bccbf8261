package task

import (
	"context"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// CommandRecord is what the runtime persists about a command task, with
// its TaskRecord, so a restarted runtime can settle it: its identity, the
// process group and token that find its orphans, and its output files.
type CommandRecord struct {
	TaskID   string               `json:"task_id"`
	Command  exec.CommandIdentity `json:"command"`
	Pgid     int                  `json:"pgid"`
	Token    string               `json:"token"`
	Output   exec.OutputFiles     `json:"output"`
	Started  time.Time            `json:"started"`
	Promoted time.Time            `json:"promoted"`
}

// RecordOf is the CommandRecord of a command promoted as task taskID.
func RecordOf(taskID string, p exec.Promotion, promoted time.Time) CommandRecord {
	return CommandRecord{TaskID: taskID, Command: p.Identity, Pgid: p.Process.Pgid(), Token: p.Process.Token(),
		Output: p.Process.Output(), Started: p.Process.Started(), Promoted: promoted}
}

// Recover settles a command task that a restarted runtime finds still
// running in its records: the process that owned it died with the old
// runtime and cannot be reattached. Recover kills what is left of its
// process group (only if it is still the command's, see
// exec.KillOrphans), writes the failure artifact, and returns the
// terminal snapshot with status interrupted and the output written before
// the restart, ready to persist as the terminal TaskRecord.
func Recover(ctx context.Context, arts *tools.ArtifactDir, rec CommandRecord, maxChars int, now time.Time) (OutputTask, error) {
	killed, err := exec.KillOrphans(ctx, rec.Pgid, rec.Token)
	if err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	reason := "the runtime restarted while the command ran; its process could not be reattached"
	if killed {
		reason += ", so what was left of it was killed"
	}
	out := OutputTask{TaskID: rec.TaskID, Kind: exec.TaskKindCommand, Status: StatusInterrupted, Summary: oneLine(rec.Command.Cmd, 80),
		ResultSummary: "interrupted by a runtime restart; run the command again if its work is still needed"}
	if err := CommandOutput(arts, rec.Output, maxChars, &out); err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	ref, err := WriteFailure(arts, Failure{TaskID: rec.TaskID, Status: StatusInterrupted, Reason: reason, Cmd: rec.Command.Cmd,
		Pgid: rec.Pgid, OrphansKilled: killed, At: now})
	if err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	out.Artifacts = append(out.Artifacts, ref)
	out.FailureArtifact = new(len(out.Artifacts) - 1)
	return out, nil
}
