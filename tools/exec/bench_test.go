package exec_test

import (
	"context"
	"encoding/json"
	osexec "os/exec"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// BenchmarkExecInline is an inline ExecCommand of `true`: decoding,
// process group, artifact files, wait, preview and envelope. Compare with
// BenchmarkBareExec, a bare fork/exec of the same shell command.
func BenchmarkExecInline(b *testing.B) {
	e := newEnvB(b)
	tool := exec.ExecCommand(e.cfg)
	args := json.RawMessage(`{"cmd":"true"}`)
	b.ReportAllocs()
	for b.Loop() {
		if res := tool.Call(context.Background(), args); res.Status != messages.ToolOK {
			b.Fatal(res.Receipt)
		}
	}
}

// BenchmarkBareExec runs `bash -c true` with os/exec and nothing else.
func BenchmarkBareExec(b *testing.B) {
	shell, err := exec.DefaultShell()
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := osexec.Command(shell, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCapture measures capturing 100 MB of output through
// ExecCommand (b.SetBytes makes go test report MB/s).
func BenchmarkCapture(b *testing.B) {
	e := newEnvB(b)
	tool := exec.ExecCommand(e.cfg)
	args := json.RawMessage(`{"cmd":"head -c 104857600 /dev/zero"}`)
	b.SetBytes(100 << 20)
	for b.Loop() {
		if res := tool.Call(context.Background(), args); res.Status != messages.ToolOK {
			b.Fatal(res.Receipt)
		}
	}
}

// noRecord makes a launch durable nowhere: BenchmarkExecInlineGated
// measures the gate, not a journal.
type noRecord struct{}

func (noRecord) RecordLaunch(context.Context, exec.Launch) error { return nil }

// BenchmarkExecInlineGated is BenchmarkExecInline started gated, as the
// runtime runs commands: the wrapper, the release, output straight to
// files and the exit status file.
func BenchmarkExecInlineGated(b *testing.B) {
	e := newEnvB(b)
	cfg := e.cfg
	cfg.Launches = noRecord{}
	tool := exec.ExecCommand(cfg)
	args := json.RawMessage(`{"cmd":"true"}`)
	b.ReportAllocs()
	for b.Loop() {
		if res := tool.Call(context.Background(), args); res.Status != messages.ToolOK {
			b.Fatal(res.Receipt)
		}
	}
}

// BenchmarkExecInlineGatedSubreaper is BenchmarkExecInlineGated in a
// subreaper, as in the daemon: what is left of a command is looked for in
// its own subtree, not in all of /proc. It leaves the test process a
// subreaper, so it runs last.
func BenchmarkExecInlineGatedSubreaper(b *testing.B) {
	if err := exec.BecomeSubreaper(); err != nil {
		b.Skip(err)
	}
	BenchmarkExecInlineGated(b)
}
