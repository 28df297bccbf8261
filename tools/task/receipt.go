package task

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/tools"
)

// The receipts of the task tools: compact text with status, handles,
// preview text and artifact paths.
var (
	StatusReceipt tools.Renderer = tools.RenderFunc(renderStatus)
	OutputReceipt tools.Renderer = tools.RenderFunc(renderOutput)
	InputReceipt  tools.Renderer = tools.RenderFunc(renderInput)
	StopReceipt   tools.Renderer = tools.RenderFunc(renderStop)
	ListReceipt   tools.Renderer = tools.RenderFunc(renderList)
)

func renderStatus(env tools.Envelope) string {
	var r struct{ Task Snapshot }
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	var b strings.Builder
	writeSnapshot(&b, r.Task)
	return strings.TrimRight(b.String(), "\n")
}

func writeSnapshot(b *strings.Builder, s Snapshot) {
	fmt.Fprintf(b, "Task %s (%s): %s\n", s.TaskID, s.Kind, s.Status)
	if s.Summary != "" {
		fmt.Fprintf(b, "Summary: %s\n", s.Summary)
	}
	if c := s.Command; c != nil {
		fmt.Fprintf(b, "Command: %s\nWorkdir: %s\n", oneLine(c.Cmd, 300), c.Workdir)
		if c.TTY {
			b.WriteString("TTY: yes\n")
		}
		if c.OutputPath != "" {
			fmt.Fprintf(b, "Output file: %s\n", c.OutputPath)
		}
	}
	if s.InputTarget != "" {
		fmt.Fprintf(b, "Accepts input: %s (TaskInput)\n", s.InputTarget)
	}
}

func renderOutput(env tools.Envelope) string {
	var r OutputResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	t := r.Task
	var b strings.Builder
	switch r.RetrievalStatus {
	case RetrievalSuccess:
		fmt.Fprintf(&b, "Task %s (%s) %s", t.TaskID, t.Kind, t.Status)
		if t.ExitStatus != nil {
			fmt.Fprintf(&b, " with exit code %d", *t.ExitStatus)
		}
		b.WriteString("\n")
	case RetrievalTimeout:
		fmt.Fprintf(&b, "Task %s (%s) is still %s after the wait\n", t.TaskID, t.Kind, t.Status)
	default:
		fmt.Fprintf(&b, "Task %s (%s) is %s; output so far\n", t.TaskID, t.Kind, t.Status)
	}
	if t.ResultSummary != "" {
		fmt.Fprintf(&b, "Result: %s\n", t.ResultSummary)
	}
	if t.OutputPreview != "" {
		b.WriteString("\nOutput:\n")
		b.WriteString(tools.ReadableOutput(t.OutputPreview))
		if !strings.HasSuffix(t.OutputPreview, "\n") {
			b.WriteByte('\n')
		}
	} else {
		b.WriteString("\nNo output.\n")
	}
	if p := artifact(t.Artifacts, t.OutputArtifact); p != "" {
		fmt.Fprintf(&b, "[full output: %s]\n", p)
	}
	if p := artifact(t.Artifacts, t.FailureArtifact); p != "" {
		fmt.Fprintf(&b, "[failure evidence: %s]\n", p)
	}
	return strings.TrimRight(b.String(), "\n")
}

func artifact(refs []tools.ArtifactRef, i *int) string {
	if i == nil || *i < 0 || *i >= len(refs) {
		return ""
	}
	return refs[*i].Path
}

func renderInput(env tools.Envelope) string {
	var r InputResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	if !r.AcceptedInput {
		return fmt.Sprintf("Input not accepted by task %s (%s): %s", r.Task.TaskID, r.Task.Status, r.SummaryText)
	}
	return fmt.Sprintf("Sent %d bytes to task %s via %s\nUse TaskOutput to read its response.", r.BytesWritten, r.Task.TaskID, r.InputTarget)
}

func renderStop(env tools.Envelope) string {
	var r StopResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	how := "it had already ended"
	switch {
	case r.ForceRequested:
		how = "it did not stop on SIGTERM and was killed (SIGKILL)"
	case r.StopRequested:
		how = "stopped on SIGTERM"
	}
	return fmt.Sprintf("Task %s: %s; status %s", r.Task.TaskID, how, r.Task.Status)
}

func renderList(env tools.Envelope) string {
	var r ListResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	if len(r.Tasks) == 0 {
		return "No tasks."
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d task%s:", len(r.Tasks), plural(len(r.Tasks)))
	for _, t := range r.Tasks {
		what := t.Summary
		if t.Command != nil {
			what = oneLine(t.Command.Cmd, 120)
		}
		fmt.Fprintf(&b, "\n%s  %s  %s  %s", t.TaskID, t.Status, t.Kind, what)
	}
	return b.String()
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("task: details do not marshal: %v", err)) // programmer error
	}
	return b
}
