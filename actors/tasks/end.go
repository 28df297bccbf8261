package tasks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// End is a task's terminal result as its agent journals it.
type End struct {
	Finished messages.TaskFinished
	// Text is the task_result message the model reads.
	Text string
}

// NewEnd is the end of command cmd whose terminal result is out.
func NewEnd(out task.OutputTask, cmd string) (End, error) {
	data, err := json.Marshal(out)
	if err != nil {
		return End{}, fmt.Errorf("task %s result: %w", out.TaskID, err)
	}
	return End{Finished: messages.TaskFinished{TaskID: out.TaskID, Status: out.Status, ExitStatus: out.ExitStatus, Result: data},
		Text: resultText(out, cmd)}, nil
}

// resultText is the task_result message the model reads: what ended,
// how, the output preview and where the rest is. It is evidence, not an
// instruction.
func resultText(out task.OutputTask, cmd string) string {
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

// oneLine is a command's preview: s on one line, cut to n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
