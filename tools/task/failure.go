package task

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/tools"
)

// Failure is the evidence of why a task failed, was cancelled or was
// interrupted, kept as a JSON artifact that failure_artifact references.
// It is evidence for the model, never an instruction.
type Failure struct {
	TaskID        string    `json:"task_id"`
	Status        string    `json:"status"` // failed, cancelled or interrupted
	Reason        string    `json:"reason"`
	Detail        string    `json:"detail,omitempty"`
	Cmd           string    `json:"cmd,omitempty"`
	Pgid          int       `json:"pgid,omitempty"`
	OrphansKilled bool      `json:"orphans_killed,omitempty"`
	ExitStatus    *int      `json:"exit_status,omitempty"`
	At            time.Time `json:"at"`
}

// FailureName is the artifact name of a task's failure evidence.
func FailureName(taskID string) string { return "tasks/" + taskID + "/failure.json" }

// WriteFailure writes f as the task's failure artifact, replacing an
// earlier one (recovery may run more than once), and returns its
// reference.
func WriteFailure(arts *tools.ArtifactDir, f Failure) (tools.ArtifactRef, error) {
	name := FailureName(f.TaskID)
	if err := arts.Remove(name); err != nil {
		return tools.ArtifactRef{}, fmt.Errorf("write failure artifact of %s: %w", f.TaskID, err)
	}
	file, err := arts.Create(name)
	if err != nil {
		return tools.ArtifactRef{}, fmt.Errorf("write failure artifact of %s: %w", f.TaskID, err)
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err == nil {
		_, err = file.Write(append(arts.Redact(b), '\n'))
	}
	if serr := file.Sync(); err == nil {
		err = serr
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return tools.ArtifactRef{}, fmt.Errorf("write failure artifact of %s: %w", f.TaskID, err)
	}
	return arts.Ref(name), nil
}
