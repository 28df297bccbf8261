package exec

import (
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// Recovered is the result of a call of tool whose commands were launched
// by a runtime that died before the call's result was durable, from what
// Settle found of each. A lone command that exited by itself is reported
// as completed, with its real exit status and output. Otherwise (several
// commands, or one killed by a signal, which may have been the dying
// runtime stopping it) the call
// is interrupted, and the result says, per command, whether it ended by
// itself (and how) or was still running and was killed, with its output
// so far; nothing is run again.
func Recovered(tool string, artifacts *tools.ArtifactDir, found []Settlement, chars int) tools.Result {
	if len(found) == 1 && found[0].Finished && found[0].Exit.Signal == "" && tool == ExecCommandName {
		return recoveredCompleted(artifacts, found[0], chars)
	}
	var b strings.Builder
	b.WriteString("the runtime restarted while this call ran; nothing was run again.")
	per := chars / max(len(found), 1)
	for _, s := range found {
		fmt.Fprintf(&b, "\n$ %s\n", shortCmd(s.Launch.Cmd, 200))
		if s.Finished {
			fmt.Fprintf(&b, "It ended while the runtime was down: %s.\n", s.Exit)
		} else if s.Killed > 0 {
			fmt.Fprintf(&b, "It was still running, so it was killed (%d processes) before it finished.\n", s.Killed)
		} else {
			b.WriteString("It was not running any more and left no exit status: it never started, or it was killed with the runtime.\n")
		}
		for _, name := range []string{s.Launch.Output.Stdout, s.Launch.Output.Stderr, s.Launch.Output.Combined} {
			if name == "" {
				continue
			}
			pv, err := ReadPreview(artifacts, name, per/2)
			if err == nil && pv.Text != "" {
				fmt.Fprintf(&b, "%s so far:\n%s\n[full: %s]\n", name[strings.LastIndexByte(name, '/')+1:], strings.TrimRight(pv.Text, "\n"), artifacts.Path(name))
			}
		}
	}
	return tools.Failure(tool, messages.ToolInterrupted, tools.ToolError{
		Kind: tools.KindInterrupted, Message: b.String(),
		RecoveryHint: "a killed command did not finish: check what it did before running it again",
	})
}

// recoveredCompleted is the completed result of a command that ended by
// itself while the runtime was down.
func recoveredCompleted(artifacts *tools.ArtifactDir, s Settlement, chars int) tools.Result {
	res := ExecResult{Disposition: DispositionCompleted, ExitStatus: new(s.Exit.Code), Signal: s.Exit.Signal,
		Note: "The command finished by itself while the runtime was down; this is its real result."}
	truncated := false
	add := func(name string, budget int) (*string, *int) {
		if name == "" {
			return nil, nil
		}
		pv, err := ReadPreview(artifacts, name, budget)
		if err != nil {
			return nil, nil
		}
		text := pv.Text
		res.Artifacts = append(res.Artifacts, artifacts.Ref(name))
		truncated = truncated || pv.Truncated
		return &text, new(len(res.Artifacts) - 1)
	}
	if s.Launch.Output.Combined != "" {
		res.OutputPreview, res.OutputArtifact = add(s.Launch.Output.Combined, chars)
	} else {
		res.StdoutPreview, res.StdoutArtifact = add(s.Launch.Output.Stdout, chars*3/4)
		res.StderrPreview, res.StderrArtifact = add(s.Launch.Output.Stderr, chars/4)
	}
	res.Truncated = &truncated
	return tools.Build(tools.SuccessEnvelope(ExecCommandName, "command "+s.Exit.String()+" while the runtime was down", res), Receipt)
}
