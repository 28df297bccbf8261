package exec

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/tools"
)

// Receipt is the command family renderer: a shell-style textual receipt
// with the outcome first, output previews as plain text (JSON output
// indented, never escaped) and artifact paths by role.
var Receipt tools.Renderer = tools.RenderFunc(renderExec)

func renderExec(env tools.Envelope) string {
	var r ExecResult
	if err := json.Unmarshal(env.Result, &r); err != nil {
		return env.SummaryText
	}
	var b strings.Builder
	if r.Note != "" {
		b.WriteString(r.Note + "\n")
	}
	switch r.Disposition {
	case DispositionCompleted:
		writeCompleted(&b, r)
	case DispositionPromoted:
		fmt.Fprintf(&b, "Command promoted to background task\nTask: %s\n", r.TaskHandle.TaskID)
		b.WriteString("Use TaskOutput to read its output, TaskInput to feed it, TaskStop to stop it.\n")
		if r.InitialOutputPreview != nil && *r.InitialOutputPreview != "" {
			b.WriteString("\nInitial output:\n")
			writeBlock(&b, *r.InitialOutputPreview)
		} else {
			b.WriteString("\nNo output yet.\n")
		}
	case DispositionAlreadyRunning:
		fmt.Fprintf(&b, "Command is already running as background task %s\n", r.TaskHandle.TaskID)
		if r.Command != nil {
			fmt.Fprintf(&b, "Command: %s\nWorkdir: %s\n", shortCmd(r.Command.Cmd, 200), r.Command.Workdir)
		}
		b.WriteString("Use TaskStatus or TaskOutput with this task id, or call again with duplicate_policy=start_new to start another.\n")
	default:
		return env.SummaryText
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeCompleted(b *strings.Builder, r ExecResult) {
	if r.Signal != "" {
		fmt.Fprintf(b, "Process was killed by signal %s\n", r.Signal)
	} else if r.ExitStatus != nil {
		fmt.Fprintf(b, "Process exited with code %d\n", *r.ExitStatus)
	}
	streams := []struct {
		name string
		text *string
		art  *int
	}{{"output", r.OutputPreview, r.OutputArtifact}, {"stdout", r.StdoutPreview, r.StdoutArtifact}, {"stderr", r.StderrPreview, r.StderrArtifact}}
	truncated := r.Truncated != nil && *r.Truncated
	shown := false
	for _, s := range streams {
		if s.text == nil {
			continue
		}
		shown = true
		fmt.Fprintf(b, "\n%s:\n", s.name)
		writeBlock(b, readable(*s.text, truncated || s.art != nil))
		if s.art != nil && *s.art < len(r.Artifacts) {
			fmt.Fprintf(b, "[full %s: %s]\n", s.name, r.Artifacts[*s.art].Path)
		}
	}
	if !shown {
		b.WriteString("(no output)\n")
	}
}

// readable shows output that is one whole line of JSON indented, when
// that at most doubles it; a truncated preview is shown as it is.
func readable(text string, truncated bool) string {
	if truncated {
		return text
	}
	if r := tools.ReadableOutput(text); len(r) <= 2*len(text) {
		return r
	}
	return text
}

func writeBlock(b *strings.Builder, text string) {
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
}
