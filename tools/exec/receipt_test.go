package exec_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

var update = flag.Bool("update", false, "rewrite the golden receipts in testdata")

// golden compares got with testdata/receipts/name.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.CheckFile(t, filepath.Join("testdata", "receipts", name+".txt"), []byte(got), *update)
}

// TestGoldenExecReceipts renders fixed canonical results of every
// disposition, so a change of wording shows in review.
func TestGoldenExecReceipts(t *testing.T) {
	big := strings.Repeat("compiling package\n", 3000) + "FAIL: TestX\n"
	preview, _ := tools.HeadTail(big, 2000)
	handle := &exec.TaskHandle{TaskID: "task_123", Kind: exec.TaskKindCommand}
	ident := &exec.CommandIdentity{Cmd: "npm run dev", CmdDigest: "sha256:ab", Workdir: "/work/app", Login: false}
	cases := []struct {
		name    string
		summary string
		res     exec.ExecResult
	}{
		{"exec_completed", "command exited with code 0", exec.ExecResult{Disposition: exec.DispositionCompleted,
			ExitStatus: new(0), StdoutPreview: new("src/runtime/turn.rs\nsrc/runtime/lifecycle.rs\n"), Truncated: new(false), DurationMS: new(int64(12))}},
		{"exec_failed_with_stderr", "command exited with code 2", exec.ExecResult{Disposition: exec.DispositionCompleted,
			ExitStatus: new(2), StderrPreview: new("ls: cannot access 'nope': No such file or directory\n"), Truncated: new(false)}},
		{"exec_no_output", "command exited with code 0", exec.ExecResult{Disposition: exec.DispositionCompleted, ExitStatus: new(0), Truncated: new(false)}},
		{"exec_truncated", "command exited with code 1", exec.ExecResult{Disposition: exec.DispositionCompleted,
			ExitStatus: new(1), StdoutPreview: &preview, StdoutTruncated: true, Truncated: new(true),
			Artifacts: []tools.ArtifactRef{{Path: "/home/a/.holon/artifacts/exec/cmd_1/stdout.log"}}, StdoutArtifact: new(0)}},
		{"exec_json_stdout", "command exited with code 0", exec.ExecResult{Disposition: exec.DispositionCompleted,
			ExitStatus: new(0), StdoutPreview: new(`{"name":"holon","deps":["a","b"]}` + "\n"), Truncated: new(false)}},
		{"exec_tty_signal", "command killed by signal SIGKILL", exec.ExecResult{Disposition: exec.DispositionCompleted,
			ExitStatus: new(-1), Signal: "SIGKILL", OutputPreview: new("top - 10:00:01 up 3 days\n"), Truncated: new(false)}},
		{"exec_promoted", "command promoted to managed task task_123", exec.ExecResult{Disposition: exec.DispositionPromoted,
			TaskHandle: handle, InitialOutputPreview: new("Starting server on :3000\n"), InitialOutputTruncated: new(false), Command: ident}},
		{"exec_already_running", "command is already running as task task_123", exec.ExecResult{Disposition: exec.DispositionAlreadyRunning,
			TaskHandle: handle, Command: ident}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := tools.Build(tools.SuccessEnvelope(exec.ExecCommandName, c.summary, c.res), exec.Receipt)
			golden(t, c.name, res.Receipt)
		})
	}
}
