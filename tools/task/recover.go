package task

import (
	"context"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// RecordOf is the CommandRecord of a command promoted as task taskID.
func RecordOf(taskID string, p exec.Promotion, promoted time.Time) CommandRecord {
	return CommandRecord{TaskID: taskID, Command: p.Identity, Pgid: p.Process.Pgid(), Token: p.Process.Token(),
		Output: p.Process.Output(), ExitFile: p.Process.ExitFile(), Started: p.Process.Started(), Promoted: promoted}
}

// Recover settles a command task that a restarted runtime finds still
// running in its records: the process that owned it died with the old
// runtime and cannot be reattached. Recover kills every process left of
// it: its process group (only if it is still the command's, see
// exec.KillOrphans) and the processes that left the group carrying its
// token (exec.KillDescendants). A gated command that exited by itself
// while the runtime was down is settled with its real exit status
// (completed or failed); otherwise Recover writes the failure artifact
// and returns status interrupted. Either way the snapshot has the output
// written before the restart, ready to persist as the terminal
// TaskRecord.
func Recover(ctx context.Context, arts *tools.ArtifactDir, rec CommandRecord, maxChars int, now time.Time) (OutputTask, error) {
	n, err := exec.KillDescendants(ctx, rec.Pgid, rec.Token, 0, 0)
	if err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	killed := n > 0
	exit, exited, err := exec.ExitStatusOf(arts, exec.Launch{Cmd: rec.Command.Cmd, ExitFile: rec.ExitFile})
	if err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	if exited && exit.Signal == "" {
		return exitedWhileDown(arts, rec, exit, maxChars, now)
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

// exitedWhileDown is the terminal snapshot of a command task that exited
// by itself while the runtime was down: its real exit status and output,
// and, when it failed, the failure artifact.
func exitedWhileDown(arts *tools.ArtifactDir, rec CommandRecord, exit exec.ExitStatus, maxChars int, now time.Time) (OutputTask, error) {
	status := StatusCompleted
	if exit.Code != 0 {
		status = StatusFailed
	}
	out := OutputTask{TaskID: rec.TaskID, Kind: exec.TaskKindCommand, Status: status, Summary: oneLine(rec.Command.Cmd, 80),
		ExitStatus: new(exit.Code), ResultSummary: "command " + exit.String() + " while the runtime was down (its real result)"}
	if err := CommandOutput(arts, rec.Output, maxChars, &out); err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	if status == StatusCompleted {
		return out, nil
	}
	ref, err := WriteFailure(arts, Failure{TaskID: rec.TaskID, Status: status, Reason: "the command " + exit.String() + " while the runtime was down",
		Cmd: rec.Command.Cmd, Pgid: rec.Pgid, ExitStatus: new(exit.Code), At: now})
	if err != nil {
		return OutputTask{}, fmt.Errorf("recover task %s: %w", rec.TaskID, err)
	}
	out.Artifacts = append(out.Artifacts, ref)
	out.FailureArtifact = new(len(out.Artifacts) - 1)
	return out, nil
}
